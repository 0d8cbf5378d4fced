#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StringProtocol {
  /// Runs `body` with the text's UTF-8 bytes: its contiguous storage when it has one (a native string
  /// always does), else a copy.
  ///
  /// Reading bytes from a buffer rather than through the UTF-8 view is what the engine's byte loops rely on.
  @inline(__always)
  func withUTF8Buffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(utf8).withUnsafeBufferPointer(body)
  }

  /// Whether a UTF-8 byte of the text is one of `bytes`, read from its contiguous bytes rather than through the
  /// UTF-8 view.
  func utf8Contains(anyOf bytes: UInt8...) -> Bool {
    withUTF8Buffer { buffer in
      guard let base = buffer.baseAddress else { return false }
      return bytes.contains { memchr(base, Int32($0), buffer.count) != nil }
    }
  }

  /// The UTF-8 offset (from the text's start) of the first `byte` at or after `offset`, or `nil`.
  func utf8Offset(of byte: UInt8, from offset: Int = 0) -> Int? {
    withUTF8Buffer { $0.offset(of: byte, from: offset) }
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The code point that starts at `position` of valid UTF-8, and its length in bytes.
  @inline(__always)
  func decodeScalar(at position: Int) -> (value: UInt32, length: Int) {
    let byte = self[position]
    if byte < 0x80 { return (UInt32(byte), 1) }
    if byte < 0xE0 { return (UInt32(byte & 0x1F) << 6 | UInt32(self[position + 1] & 0x3F), 2) }
    if byte < 0xF0 {
      return (
        UInt32(byte & 0x0F) << 12 | UInt32(self[position + 1] & 0x3F) << 6 | UInt32(self[position + 2] & 0x3F), 3
      )
    }
    return (
      UInt32(byte & 0x07) << 18 | UInt32(self[position + 1] & 0x3F) << 12 | UInt32(self[position + 2] & 0x3F) << 6
        | UInt32(self[position + 3] & 0x3F), 4
    )
  }

  /// Whether these bytes, cut from valid UTF-8, are valid themselves: the first starts a code point and the
  /// last code point is whole (its lead byte is followed by as many bytes as it announces).
  ///
  /// Constant time: it reads the first byte and at most the last four. What lets the engine's outputs and parsed texts,
  /// pieced together from strings' bytes, be made strings without checking every byte again
  /// (``String/init(knownUTF8:)``).
  @inline(__always)
  var isCutAtCodePoints: Bool {
    guard let last else { return true }
    guard self[0] & 0xC0 != 0x80 else { return false }
    if last < 0x80 { return true }
    var lead = count - 1
    while lead > 0, self[lead] & 0xC0 == 0x80, count - lead < 4 { lead -= 1 }
    let byte = self[lead]
    let length = byte < 0x80 ? 1 : byte < 0xC0 ? 0 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
    return count - lead == length
  }

  /// The offset of the first `byte` at or after `offset`, found with memchr, or `nil`.
  func offset(of byte: UInt8, from offset: Int = 0) -> Int? {
    guard let base = baseAddress, offset < count, let found = memchr(base + offset, Int32(byte), count - offset)
    else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }
}

extension UInt64 {
  /// Whether any of the eight bytes of the word is below the space, DEL, C2 (the lead byte of the C1 controls
  /// and of the soft hyphen), D8 or E2 (the lead bytes of the bidi formatting characters): the word test of the
  /// byte scans that look for controls, which read eight bytes at a time until a word holds one (a byte below 0x20
  /// after a subtraction; a zero byte after an exclusive or).
  @inline(__always)
  var mayHoldControl: Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func holdsZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
    return (self &- ones &* 0x20) & ~self & highs != 0 || holdsZero(self ^ (ones &* 0x7F))
      || holdsZero(self ^ (ones &* 0xC2)) || holdsZero(self ^ (ones &* 0xE2)) || holdsZero(self ^ (ones &* 0xD8))
  }
}

extension UInt8 {
  /// Whether the byte, after `previous`, is a control character's: C0 (the tab too), DEL, or a C1 control's second
  /// byte after C2.
  ///
  /// The byte test of the scans that look for controls after `UInt64.mayHoldControl`.
  @inline(__always)
  func isControl(after previous: UInt8) -> Bool { self < 0x20 || self == 0x7F || (previous == 0xC2 && self <= 0x9F) }

  /// Whether the byte ends the UTF-8 of a bidi formatting character (``VisibleControls/isBidiControl(_:)``) after
  /// `previous` and `beforePrevious`: ALM (D8 9C), LRM and RLM (E2 80 8E–8F), LRE to RLO (E2 80 AA–AE), LRI to PDI
  /// (E2 81 A6–A9).
  @inline(__always)
  func endsBidiControl(after previous: UInt8, _ beforePrevious: UInt8) -> Bool {
    switch (beforePrevious, previous) {
    case (0xE2, 0x80): self == 0x8E || self == 0x8F || (0xAA...0xAE).contains(self)
    case (0xE2, 0x81): (0xA6...0xA9).contains(self)
    case (_, 0xD8): self == 0x9C
    default: false
    }
  }

  /// Whether the byte is printable ASCII or the space (U+0020–U+007E): a code point of its own that is
  /// grapheme-simple and neither a hard line break nor a control.
  @inline(__always)
  var isPrintableASCII: Bool { self &- 0x20 < 0x5F }
  /// Whether the byte is an ASCII letter, A–Z or a–z.
  @inline(__always)
  var isASCIILetter: Bool { (self | 0x20) &- 0x61 < 26 }
}

extension String {
  /// A string of bytes known to be UTF-8, pieced together from strings' bytes cut at code points
  /// (`isCutAtCodePoints`), copied as they are, not checked again.
  ///
  /// A debug build, which the tests run, checks them all the same.
  init(knownUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    assert(String(validating: bytes, as: UTF8.self) != nil, "bytes taken for UTF-8 are not")
    self = unsafe String(copying: UTF8Span(unchecked: bytes.span))
  }
}
