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
  public init(firstStrongIn text: some StringProtocol) {
    for scalar in text.unicodeScalars {
      if Self.isRightToLeft(scalar.value) {
        self = .rtl
        return
      }
      if scalar.properties.isAlphabetic {
        self = .ltr
        return
      }
    }
    self = .ltr
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
