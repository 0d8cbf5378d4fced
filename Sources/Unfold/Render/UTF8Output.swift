/// A renderer's output, written as UTF-8 bytes and made a `String` once, at the end.
///
/// A `String` checks its storage at every append however small, and an output is many small pieces (markup,
/// escaped text, CSS, escapes). Bytes are appended to an array, and made a string once without checking them
/// again: every piece comes from a `String` or is ASCII, and the bytes of a string written in part are checked
/// to be cut at code points, at both ends, which is enough for a cut of valid UTF-8 to be valid
/// (`isCutAtCodePoints`). Should a piece ever fail that check, the bytes written since the last seal are checked
/// and repaired as `String(decoding:as:)` repairs them, never trusted. (Docs/PerformanceNotes.md, "Writing
/// output".)
///
/// A long output can instead be sealed a stretch at a time (``init(capacity:sealingEvery:)``), into a string
/// reserved at its full size: the bytes then take a few pages that are written again and again, not a second
/// output's worth of fresh ones.
struct UTF8Output {
  private var bytes: [UInt8] = []
  /// Whether the bytes since the last seal are known to be UTF-8: each piece came from a string, whole or cut at
  /// code points, or was ASCII.
  private var isKnownUTF8 = true
  /// The output up to the last ``seal()``.
  private var sealed = ""
  /// The number of bytes after which ``sealIfLong()`` seals; `Int.max` for none.
  private let stretch: Int

  /// An empty output with room for `capacity` bytes.
  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
    stretch = .max
  }

  /// An empty output with room for `capacity` bytes in its string, that ``sealIfLong()`` seals once `stretch`
  /// bytes were written after the last seal.
  init(capacity: Int, sealingEvery stretch: Int) {
    sealed.reserveCapacity(capacity)
    bytes.reserveCapacity(stretch + 4_096)
    self.stretch = stretch
  }

  /// Appends text.
  @inline(__always)
  mutating func write(_ text: some StringProtocol) {
    text.withUTF8Buffer { write($0) }  // a substring's bounds may fall inside a code point
  }

  /// Appends a literal.
  @inline(__always)
  mutating func write(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends bytes of a string's UTF-8, cut at code points (whole characters of it), which is checked.
  @inline(__always)
  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    isKnownUTF8 = isKnownUTF8 && bytes.isCutAtCodePoints
    self.bytes.append(contentsOf: bytes)
  }

  /// Appends bytes of a string's UTF-8, cut at code points, which is checked.
  @inline(__always)
  mutating func write(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { write($0) } }

  /// Appends one byte of ASCII.
  @inline(__always)
  mutating func write(ascii byte: UInt8) {
    isKnownUTF8 = isKnownUTF8 && byte < 0x80
    bytes.append(byte)
  }

  /// Appends an integer in decimal: its digits made on the stack, from the last, and appended at once, with no
  /// `String` made.
  mutating func write(decimal value: Int) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var rest = value.magnitude
      var first = digits.count
      repeat {
        first -= 1
        digits[first] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest != 0
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
    }
  }

  /// Appends a 32-bit value as eight lowercase hexadecimal digits, made on the stack and appended at once.
  mutating func write(hex value: UInt32) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { digits in
      for index in 0..<8 {
        let digit = UInt8(truncatingIfNeeded: value >> UInt32(28 - 4 * index)) & 0xF
        digits[index] = digit < 10 ? 0x30 + digit : 0x57 + digit
      }
      bytes.append(contentsOf: UnsafeBufferPointer(digits))
    }
  }

  /// Makes the bytes written so far a string, so that the bytes after them are checked apart: a stretch of ASCII
  /// (CSS, a script) is checked eight bytes at a time, while a stretch that holds text past ASCII is checked
  /// byte by byte.
  ///
  /// The bytes written after a seal are copied once more at the end, onto the sealed string: a seal belongs after a
  /// short stretch of ASCII such as the CSS, not before a long text that a script follows.
  mutating func seal() {
    sealed += Self.string(bytes, isKnownUTF8: isKnownUTF8)
    bytes.removeAll(keepingCapacity: true)
    isKnownUTF8 = true
  }

  /// Seals (``seal()``) if the bytes written since the last seal are at least the output's stretch: at the end
  /// of a piece whose characters are whole.
  @inline(__always)
  mutating func sealIfLong() {
    if bytes.count >= stretch { seal() }
  }

  /// The output as a string.
  func string() -> String { sealed + Self.string(bytes, isKnownUTF8: isKnownUTF8) }

  /// The output as a string, made by sealing it: the sealed string itself, with no copy of it.
  mutating func sealedString() -> String {
    seal()
    return sealed
  }

  /// The bytes as a string: copied as they are when they are known to be UTF-8, else checked and repaired.
  private static func string(_ bytes: [UInt8], isKnownUTF8: Bool) -> String {
    guard isKnownUTF8 else { return String(decoding: bytes, as: UTF8.self) }
    return bytes.withUnsafeBufferPointer { String(knownUTF8: $0) }
  }
}
