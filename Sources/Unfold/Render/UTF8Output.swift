/// A renderer's output, written as UTF-8 bytes and made a `String` once, at the end.
///
/// Appending to a `String` cost about 400 instructions a piece however small (its storage's uniqueness,
/// capacity and flags checked at each): a comment's HTML is some 250 pieces of markup, escaped text and CSS.
/// Bytes are appended to an array for a few instructions each; making the string checks that they are
/// UTF-8 once, eight bytes at a time while they are ASCII. Every piece comes from a `String`, so the check
/// never repairs anything.
///
/// A long output can instead be sealed a stretch at a time (``init(capacity:sealingEvery:)``), into a string
/// reserved at its full size: the bytes then take a few pages that are written again and again, not a second
/// output's worth of fresh ones (the terminal renderer's 1 MB output, made a string once at the end, took fewer
/// instructions but more time, its kernel time doubled by the new pages).
struct UTF8Output {
  private var bytes: [UInt8] = []
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

  /// Appends one byte of ASCII.
  @inline(__always)
  mutating func write(ascii byte: UInt8) { bytes.append(byte) }

  /// Appends an integer in decimal.
  mutating func write(decimal value: Int) { write(String(value)) }

  /// Makes the bytes written so far a string, so that the bytes after them are checked apart: a stretch of ASCII
  /// (CSS, a script) is checked eight bytes at a time, while a stretch that holds text past ASCII is checked
  /// byte by byte (a comment's HTML, checked whole, took a tenth of its pipeline to check). The bytes written after
  /// a seal are copied once more at the end, onto the sealed string: a seal belongs after a short stretch of ASCII
  /// such as the CSS, not before a long text that a script follows (that took 0.5% more off a comment and added
  /// 0.5% to the HTML of 1 MB).
  mutating func seal() {
    sealed += String(decoding: bytes, as: UTF8.self)
    bytes.removeAll(keepingCapacity: true)
  }

  /// Seals (``seal()``) if the bytes written since the last seal are at least the output's stretch: at the end
  /// of a piece whose characters are whole.
  @inline(__always)
  mutating func sealIfLong() {
    if bytes.count >= stretch { seal() }
  }

  /// The output as a string.
  func string() -> String { sealed + String(decoding: bytes, as: UTF8.self) }

  /// The output as a string, made by sealing it: the sealed string itself, with no copy of it.
  mutating func sealedString() -> String {
    seal()
    return sealed
  }
}
