/// A renderer's output, written as UTF-8 bytes and made a `String` once, at the end.
///
/// Appending to a `String` cost about 400 instructions a piece however small (its storage's uniqueness,
/// capacity and flags checked at each): a comment's HTML is some 250 pieces of markup, escaped text and CSS.
/// Bytes are appended to an array for a few instructions each; making the string checks that they are
/// UTF-8 once, eight bytes at a time while they are ASCII. Every piece comes from a `String`, so the check
/// never repairs anything.
struct UTF8Output {
  private var bytes: [UInt8] = []

  /// An empty output with room for `capacity` bytes.
  init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  /// Appends text.
  @inline(__always)
  mutating func write(_ text: some StringProtocol) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends a literal.
  @inline(__always)
  mutating func write(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends bytes of UTF-8 (whole characters of a string's bytes).
  @inline(__always)
  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes.append(contentsOf: bytes) }

  /// Appends bytes of UTF-8 (whole characters of a string's bytes).
  @inline(__always)
  mutating func write(_ bytes: [UInt8]) { self.bytes.append(contentsOf: bytes) }

  /// Appends an integer in decimal.
  mutating func write(decimal value: Int) { write(String(value)) }

  /// The bytes written so far.
  var count: Int { bytes.count }

  /// The output as a string.
  func string() -> String { String(decoding: bytes, as: UTF8.self) }
}
