/// The base direction of a paragraph.
public enum TextDirection: String, Hashable, Sendable {
  /// Left to right.
  case ltr
  /// Right to left.
  case rtl

  /// The direction of the first strong character (as the `dir="auto"` rule and UAX #9's P2 do); left to right
  /// when there is none.
  ///
  /// Right-to-left strong characters are recognised by their blocks (Hebrew, Arabic, Syriac, Thaana, N'Ko,
  /// Samaritan, Mandaic, their presentation forms and the right-to-left supplementary blocks); any other
  /// letter is left-to-right; digits, punctuation, spaces and symbols are neutral.
  public init(firstStrongIn text: some StringProtocol) { self = Self.firstStrong(in: text) ?? .ltr }

  /// The direction of the first strong character of `text` (see ``init(firstStrongIn:)``), or nil when it has
  /// none.
  static func firstStrong(in text: some StringProtocol) -> TextDirection? {
    for scalar in text.unicodeScalars {
      if isRightToLeft(scalar.value) { return .rtl }
      if scalar.properties.isAlphabetic { return .ltr }
    }
    return nil
  }

  /// Whether a text holds a right-to-left character or a bidi control: one pass over its bytes that decodes only
  /// code points whose first bytes can start one (U+0590 to U+08FF, the punctuation block's controls, the
  /// presentation forms, the right-to-left blocks of plane 1), so that Thai, CJK and Latin text pass quickly.
  static func holdsBidiCharacter(_ text: String) -> Bool {
    text.withUTF8Buffer { holdsBidiCharacter(utf8: $0) }
  }

  /// Whether UTF-8 bytes hold a right-to-left character or a bidi control (see ``holdsBidiCharacter(_:)``).
  static func holdsBidiCharacter(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    firstOffset(utf8: bytes, from: 0, where: isBidiCharacter) != nil
  }

  /// The offset of the first code point from `start` on that `matches`, among those that can be right to left, a
  /// bidi control or an Arabic number: U+0590 to U+08FF, the punctuation block, the presentation forms and plane 1
  /// (the code points of other first bytes are passed over, eight bytes at a time below 0xD6).
  @inline(__always)
  static func firstOffset(
    utf8 bytes: UnsafeBufferPointer<UInt8>, from start: Int, where matches: (UInt32) -> Bool
  ) -> Int? {
    var index = start
    while index < bytes.count {
      // Eight bytes at a time up to one of 0xD6 or above: a byte's low seven bits plus 0x2A reach 0x80 (and
      // never carry into the next byte) when they are 0x56 or more.
      while index + 8 <= bytes.count, let base = bytes.baseAddress {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        let high = ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x2A2A_2A2A_2A2A_2A2A) & word & 0x8080_8080_8080_8080
        guard high == 0 else {
          index += high.trailingZeroBitCount / 8
          break
        }
        index += 8
      }
      guard index < bytes.count else { return nil }
      let lead = bytes[index]
      defer { index += 1 }
      guard lead >= 0xD6 else { continue }
      switch lead {
      case 0xD6...0xDF:
        guard index + 1 < bytes.count else { return nil }
        if matches(UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)) { return index }
      case 0xE0, 0xE2, 0xEF:
        guard index + 2 < bytes.count else { return nil }
        let value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        if matches(value) { return index }
      case 0xF0:
        guard index + 3 < bytes.count else { return nil }
        let value =
          UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
          | UInt32(bytes[index + 3] & 0x3F)
        if matches(value) { return index }
      default: continue
      }
    }
    return nil
  }

  /// Whether a code point is right to left or a bidi control (ALM, LRM, RLM, the embeddings, overrides and
  /// isolates): a text without one is laid out left to right throughout in a left-to-right paragraph.
  static func isBidiCharacter(_ value: UInt32) -> Bool {
    switch value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return isRightToLeft(value)
    }
  }

  static func isRightToLeft(_ value: UInt32) -> Bool {
    switch value {
    case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
      // Marks and digits inside these blocks are not strong.
      guard let scalar = Unicode.Scalar(value) else { return false }
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .spacingMark, .decimalNumber, .format: return false
      default: return scalar.properties.isAlphabetic
      }
    default:
      return false
    }
  }
}
