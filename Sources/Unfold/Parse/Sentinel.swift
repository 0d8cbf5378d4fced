import Foundation

/// The character that stands in for `\n` while cmark parses a chunk as one line: a space to cmark's
/// flanking rules, but not a line end.
enum Sentinel {
  static let candidates: [Unicode.Scalar] =
    (0x2000...0x200A).compactMap(Unicode.Scalar.init) + ["\u{202F}", "\u{205F}", "\u{3000}"]

  /// The first candidate that the text lacks; `nil` if it holds them all.
  ///
  /// Each candidate's three bytes are looked for with memchr on their lead byte, in order (``SentinelBytes``): the
  /// first is nearly always absent, so a chunk is searched once, with no loop over its bytes.
  static func choose(for text: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
    candidates.first { SentinelBytes($0).firstOffset(in: text) == nil }
  }
}

/// The three UTF-8 bytes of a sentinel.
struct SentinelBytes {
  let first: UInt8
  let second: UInt8
  let third: UInt8

  /// Bytes that valid UTF-8 never holds: the pattern of a text parsed with no sentinel (a document's blocks).
  static let none = SentinelBytes(first: 0xFF, second: 0xFF, third: 0xFF)

  /// Whether this is ``none``.
  var isNone: Bool { first == 0xFF }

  private init(first: UInt8, second: UInt8, third: UInt8) {
    (self.first, self.second, self.third) = (first, second, third)
  }

  init(_ sentinel: Unicode.Scalar) {
    var encoded = UTF8.encode(sentinel)!.makeIterator()  // three bytes, held inline (no array per text)
    (first, second, third) = (encoded.next()!, encoded.next()!, encoded.next()!)
  }

  /// The offset of the first sentinel in `text`: its lead byte found with memchr, then the other two
  /// compared (its lead byte alone, E2 or E3, is common in CJK text).
  func firstOffset(in text: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = text.baseAddress else { return nil }
    var start = 0
    while start + 2 < text.count, let found = memchr(base + start, Int32(first), text.count - 2 - start) {
      let at = UnsafeRawPointer(found) - UnsafeRawPointer(base)
      if text[at + 1] == second && text[at + 2] == third { return at }
      start = at + 1
    }
    return nil
  }
}
