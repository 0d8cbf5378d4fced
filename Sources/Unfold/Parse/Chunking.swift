/// Splits markdown at blank lines (lines of only spaces and tabs): the blank stretches are literal text,
/// the rest are chunks to parse, each with the newline that ends its last line (so that a backslash before
/// it is a line break, as in Apple's parse).
enum Chunking {
  /// A piece of the text, as a range of its UTF-8 offsets.
  enum Piece: Equatable {
    case literal(Range<Int>)
    case markdown(Range<Int>)

    /// The piece's UTF-8 offsets.
    var range: Range<Int> {
      switch self {
      case .literal(let range), .markdown(let range): return range
      }
    }
  }

  /// The pieces of `text`, in order (for tests: the parser reads them one by one from its bytes).
  static func pieces(of text: String) -> [Piece] {
    var text = text
    return text.withUTF8 { Array(IteratorSequence(Pieces($0))) }
  }

  /// The pieces of a text's UTF-8 bytes, found as they are asked for rather than kept in an array: literal and
  /// markdown pieces alternate.
  struct Pieces: IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var chunkStart: Int?  // start of the current run of non-blank lines
    private var chunkEnd = 0  // end of its last line, with its newline
    private var literalStart = 0
    private var lineStart = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func next() -> Piece? {
      while lineStart < bytes.count {
        let newline = bytes.offset(of: 0x0A, from: lineStart) ?? bytes.count
        let lineEnd = min(newline + 1, bytes.count)
        let line = lineStart
        lineStart = lineEnd
        if !Chunking.isBlank(bytes[line..<newline]) {
          chunkEnd = lineEnd
          if chunkStart == nil {
            chunkStart = line
            if literalStart < line { return .literal(literalStart..<line) }
          }
        } else if let chunk = markdownPiece() {
          return chunk
        }
      }
      if let chunk = markdownPiece() { return chunk }
      guard literalStart < bytes.count else { return nil }
      defer { literalStart = bytes.count }
      return .literal(literalStart..<bytes.count)
    }

    /// The open run of non-blank lines as a piece, if there is one; the literal text starts after it.
    private mutating func markdownPiece() -> Piece? {
      guard let start = chunkStart else { return nil }
      chunkStart = nil
      literalStart = chunkEnd
      return .markdown(start..<chunkEnd)
    }
  }

  /// Whether only blank lines follow UTF-8 offset `offset` of `bytes`: no markdown piece comes after a piece
  /// that ends there.
  static func onlyBlankLines(after offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes[offset...].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A }
  }

  /// How many spaces and tabs end the bytes `range` of `bytes` that trimming them as characters would take
  /// (`trimmingSuffix(while:)`): found in the bytes when an ASCII byte or nothing is left before them, where a
  /// character boundary always stands; by the characters otherwise (a prepended mark may take the space after
  /// it).
  static func trailingSpacesAndTabs(of range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var end = range.upperBound
    while end > range.lowerBound, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    if end == range.upperBound || end == range.lowerBound || bytes[end - 1] < 0x80 { return range.upperBound - end }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)[...]
    return text.utf8.count - text.trimmingSuffix(while: { $0 == " " || $0 == "\t" }).utf8.count
  }
}

extension Chunking {
  /// The most UTF-8 bytes that cmark-gfm parses as one chunk.
  ///
  /// The installed cmark-gfm (0.29.0.gfm.6) takes polynomial time on some paragraphs (`![[]()` repeated: 60 KB 0.3 s,
  /// 240 KB 11 s; long paragraphs mixing emphasis and links): a longer paragraph is parsed in pieces, so that the cost
  /// stays linear in the length of the text. Real paragraphs are far shorter.
  static let maximumChunk = 16_384

  /// A paragraph cut into pieces of at most `maximum` bytes: after the last line end in the window, else
  /// after its last space or tab, else at its last code point boundary.
  ///
  /// A paragraph that fits is one piece.
  static func cut(_ paragraph: Substring, maximum: Int = maximumChunk) -> [Substring] {
    var pieces: [Substring] = []
    var rest = paragraph
    while rest.utf8.count > maximum {
      let utf8 = rest.utf8
      let windowEnd = utf8.index(utf8.startIndex, offsetBy: maximum)
      let window = utf8[..<windowEnd]
      var cut: String.Index
      if let newline = window.lastIndex(of: 0x0A) {
        cut = utf8.index(after: newline)
      } else if let space = window.lastIndex(where: { $0 == 0x20 || $0 == 0x09 }) {
        cut = utf8.index(after: space)
      } else {
        cut = windowEnd
        while cut > utf8.startIndex, utf8[cut] & 0xC0 == 0x80 { cut = utf8.index(before: cut) }
      }
      if cut == utf8.startIndex { cut = windowEnd }  // never reached: a window holds a code point boundary
      pieces.append(Substring(utf8[..<cut]))
      rest = Substring(utf8[cut...])
    }
    pieces.append(rest)
    return pieces
  }

  /// Whether a line (without its newline) is blank: only spaces and tabs, as ``Pieces`` reads it.
  static func isBlank(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }

  /// The end of the first blank line (``isBlank(_:)``, ended by a newline) that starts at or after UTF-8 offset
  /// `offset` of `bytes`, whose line ends are normalized: where the text may be cut into parts that parse as the
  /// whole does, as ``Pieces`` cuts it.
  ///
  /// Nil when there is none.
  static func firstBoundary(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
    var lineStart = offset
    if lineStart > 0, lineStart < bytes.count, bytes[lineStart - 1] != 0x0A {
      guard let newline = bytes.offset(of: 0x0A, from: lineStart) else { return nil }
      lineStart = newline + 1
    }
    while lineStart < bytes.count, let newline = bytes.offset(of: 0x0A, from: lineStart) {
      if isBlank(bytes[lineStart..<newline]) { return newline + 1 }
      lineStart = newline + 1
    }
    return nil
  }

  /// The end of the last blank line that ends before UTF-8 offset `limit` (the line after it starts a
  /// chunk), or nil when there is none.
  ///
  /// A CR before a newline counts as part of the line end.
  static func lastBoundary(in text: String, before limit: Int) -> String.Index? {
    let utf8 = text.utf8
    var lineEnd = utf8.index(utf8.startIndex, offsetBy: min(limit, utf8.count))
    while let newline = utf8[..<lineEnd].lastIndex(of: UInt8(ascii: "\n")) {
      let lineStart = utf8[..<newline].lastIndex(of: UInt8(ascii: "\n")).map(utf8.index(after:))
      guard let lineStart else { return nil }
      if utf8[lineStart..<newline].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
        return utf8.index(after: newline)
      }
      lineEnd = newline
    }
    return nil
  }
}
