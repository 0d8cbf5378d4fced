/// The order in which a terminal that draws cells as given (most of them) must receive a line that holds
/// right-to-left text: UAX #9's runs of one direction (``BidiLevels``), laid out left to right (L2), each
/// right-to-left run's clusters reversed and its mirrored characters swapped (`(` for `)`, L4).
///
/// Lines are broken in logical order, as the browser breaks them; only the drawing of a line is reordered, by the
/// levels of its paragraph (``ParagraphLevels``) or, for a line that does not stand together in one, as a paragraph
/// of its own at the paragraph's direction.
enum VisualOrder {
  /// Whether a text holds a code point that ``BidiLevels/takesLevel(_:)``: a line of a left-to-right paragraph
  /// without one is drawn in logical order.
  static func holdsLevelChange(_ text: String) -> Bool {
    text.withUTF8Buffer { TextDirection.firstOffset(utf8: $0, from: 0, where: BidiLevels.takesLevel) != nil }
  }

  /// A piece of a line drawn in one direction: the fragment it belongs to and its range in the fragment's
  /// text (one grapheme cluster when it fades, else any stretch of the fragment).
  struct Cluster {
    var fragment: Int
    var range: Range<String.Index>
    /// Whether it is drawn right to left (its characters mirrored).
    var isRightToLeft = false
  }

  /// The clusters of a fragment's text (or of a range of it), in logical order.
  static func clusters(of text: String, fragment: Int, in range: Range<String.Index>? = nil) -> [Cluster] {
    let range = range ?? text.startIndex..<text.endIndex
    var clusters: [Cluster] = []
    let characters = text[range]
    var start = characters.startIndex
    while start < characters.endIndex {
      let end = characters.index(after: start)
      clusters.append(Cluster(fragment: fragment, range: start..<end))
      start = end
    }
    return clusters
  }

  /// A piece of a line drawn in one direction: the fragment it belongs to and its UTF-8 range in the fragment's
  /// text.
  struct Piece {
    var fragment: Int
    var range: Range<Int>
    var isRightToLeft: Bool
  }

  /// The pieces of `line` in the order they are drawn left to right: a run's text a stretch per fragment, the
  /// fragments of a right-to-left run in reverse (``drawnRightToLeft(utf8:into:starts:)`` reverses each one's
  /// clusters).
  ///
  /// The runs are the resolver's (``LineResolver/runs(ofUTF8:direction:)``) over the fragments' bytes.
  static func pieces(
    of line: DisplayLine, direction: TextDirection, resolver: LineResolver, paragraph: ParagraphLevels? = nil
  ) -> [Piece] {
    var bytes = resolver.lineBytes
    resolver.lineBytes = []
    defer { resolver.lineBytes = bytes }
    bytes.removeAll(keepingCapacity: true)
    var fragmentStarts: [Int] = []  // each fragment's byte offset in the line
    fragmentStarts.reserveCapacity(line.fragments.count)
    for fragment in line.fragments {
      fragmentStarts.append(bytes.count)
      bytes += fragment.text.utf8
    }
    let runs = bytes.withUnsafeBufferPointer { bytes in
      // By the paragraph's levels when the line's text stands together in it; else as a paragraph of its own.
      if let paragraph, let start = line.textStart, paragraph.levels.paragraphLevel == (direction == .rtl ? 1 : 0) {
        let fragments = line.fragments.indices.map { index in
          let end = index + 1 < fragmentStarts.count ? fragmentStarts[index + 1] : bytes.count
          return (
            UnsafeBufferPointer(rebasing: bytes[fragmentStarts[index]..<end]), line.fragments[index].role == .text
          )
        }
        if var lineRuns = paragraph.lineRuns(of: fragments, from: start) {
          return BidiLevels.visualRuns(of: &lineRuns, paragraphLevel: paragraph.levels.paragraphLevel, line: bytes)
            ?? [Run(range: 0..<bytes.count, isRightToLeft: false)]
        }
      }
      return resolver.runs(ofUTF8: bytes, direction: direction)
    }
    var visual: [Piece] = []
    for run in runs {
      // The run's part of each fragment it overlaps, in logical order, reversed for a right-to-left run.
      let first = visual.count
      for (index, fragmentStart) in fragmentStarts.enumerated() {
        let fragmentEnd = index + 1 < fragmentStarts.count ? fragmentStarts[index + 1] : bytes.count
        let lower = max(run.range.lowerBound, fragmentStart)
        let upper = min(run.range.upperBound, fragmentEnd)
        guard lower < upper else { continue }
        visual.append(
          Piece(fragment: index, range: lower - fragmentStart..<upper - fragmentStart, isRightToLeft: run.isRightToLeft)
        )
      }
      if run.isRightToLeft { visual[first...].reverse() }
    }
    return visual
  }

  /// ``pieces(of:direction:resolver:)`` as clusters of the fragments' text (for characters that fade one by one).
  static func clusters(
    of line: DisplayLine, direction: TextDirection, resolver: LineResolver, paragraph: ParagraphLevels? = nil
  ) -> [Cluster] {
    pieces(of: line, direction: direction, resolver: resolver, paragraph: paragraph).map { piece in
      let text = line.fragments[piece.fragment].text
      let from = text.utf8.index(text.startIndex, offsetBy: piece.range.lowerBound)
      let to = text.utf8.index(from, offsetBy: piece.range.count)
      return Cluster(fragment: piece.fragment, range: from..<to, isRightToLeft: piece.isRightToLeft)
    }
  }

  /// A stretch of a line drawn in one direction (``BidiLevels/Run``).
  typealias Run = BidiLevels.Run

  /// Draws the lines of one rendering in visual order, reusing its buffers from line to line (see
  /// <doc:TerminalOutput>).
  final class LineResolver {
    /// Room for resolving a line that is its own paragraph (``runs(ofUTF8:direction:)``).
    private let resolver = BidiResolver()
    /// Room for the bytes of a right-to-left piece as drawn, and for the starts of its clusters
    /// (``withDrawnRightToLeft(_:_:)``).
    private var drawn: [UInt8] = []
    private var clusterStarts: [Int] = []
    /// Room for the bytes of a drawn line's fragments (``VisualOrder/pieces(of:direction:resolver:)``).
    var lineBytes: [UInt8] = []

    /// Hands `body` the bytes of a right-to-left piece as drawn (``VisualOrder/drawnRightToLeft(utf8:into:starts:)``),
    /// in room reused from piece to piece.
    func withDrawnRightToLeft<Result>(
      _ piece: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
      VisualOrder.drawnRightToLeft(utf8: piece, into: &drawn, starts: &clusterStarts)
      return drawn.withUnsafeBufferPointer(body)
    }

    /// The direction runs of a line's UTF-8 bytes, resolved as a paragraph of its own at `direction`, in the order
    /// they are drawn left to right (``BidiLevels/visualRuns(of:in:)``); one left-to-right run for a line drawn in
    /// logical order.
    func runs(ofUTF8 line: UnsafeBufferPointer<UInt8>, direction: TextDirection) -> [Run] {
      BidiLevels(utf8: line, direction: direction, resolver: resolver).visualRuns(of: 0..<line.count, in: line)
        ?? [Run(range: 0..<line.count, isRightToLeft: false)]
    }
  }

  /// The UTF-8 bytes of a right-to-left piece as drawn (``drawn(_:isRightToLeft:)``), written to `output`
  /// (emptied first): read from the bytes, its clusters found by the tables when every character is
  /// grapheme-simple or a plain mark after a base that takes it, copied whole in reverse order, and rebuilt only
  /// when one may mirror, not through `String` and `Character` (Docs/PerformanceNotes.md, "Right-to-left text in
  /// the terminal").
  static func drawnRightToLeft(utf8 piece: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    var starts: [Int] = []
    drawnRightToLeft(utf8: piece, into: &output, starts: &starts)
  }

  /// ``drawnRightToLeft(utf8:into:)`` with room for the clusters' starts, reused from piece to piece.
  static func drawnRightToLeft(utf8 piece: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], starts: inout [Int])
  {
    output.removeAll(keepingCapacity: true)
    starts.removeAll(keepingCapacity: true)
    var takesMarks = false
    var mirrors = false
    var index = 0
    while index < piece.count {
      let (value, length) = piece.decodeScalar(at: index)
      let raw = value < 0x80 ? 0 : UnicodeTables.lookUp(value)
      if UnicodeProperties.isGraphemeSimple(raw, value) {
        starts.append(index)
        takesMarks = UnicodeProperties.takesPlainMarks(raw, value)
      } else if !(takesMarks && UnicodeProperties.isPlainMark(raw, value)) {
        // Other text: its clusters as Swift's `Character` finds them.
        for character in String(decoding: piece, as: UTF8.self).reversed() {
          for scalar in character.unicodeScalars { appendMirrored(scalar.value, to: &output) }
        }
        return
      }
      mirrors = mirrors || mayMirror(value)
      index += length
    }
    guard !mirrors else {
      var end = piece.count
      for start in starts.reversed() {
        var at = start
        while at < end {
          let (value, length) = piece.decodeScalar(at: at)
          appendMirrored(value, to: &output)
          at += length
        }
        end = start
      }
      return
    }
    // The clusters copied in reverse into room made once, not appended one by one.
    output.append(contentsOf: repeatElement(0, count: piece.count))
    output.withUnsafeMutableBufferPointer { output in
      guard let target = output.baseAddress, let source = piece.baseAddress else { return }
      var end = piece.count
      var written = 0
      for start in starts.reversed() {
        (target + written).update(from: source + start, count: end - start)
        written += end - start
        end = start
      }
    }
  }

  /// Pieces split into their clusters in the order they are drawn (for characters that fade one by one).
  static func splitIntoClusters(_ pieces: some Collection<Cluster>, of fragment: Fragment) -> [Cluster] {
    pieces.flatMap { piece -> [Cluster] in
      var clusters = clusters(of: fragment.text, fragment: piece.fragment, in: piece.range)
      guard piece.isRightToLeft else { return clusters }
      for index in clusters.indices { clusters[index].isRightToLeft = true }
      return clusters.reversed()
    }
  }

  /// A piece's characters as drawn: drawn right to left, its clusters in reverse order (each one's own
  /// characters in order) and mirrored (``drawnRightToLeft(utf8:into:)``).
  static func drawn(_ characters: Substring, isRightToLeft: Bool) -> Substring {
    guard isRightToLeft else { return characters }
    var text = String(characters)
    var output: [UInt8] = []
    text.withUTF8 { drawnRightToLeft(utf8: $0, into: &output) }
    return Substring(String(decoding: output, as: UTF8.self))
  }

  /// Appends the UTF-8 of a code point drawn right to left: its mirror image (`)` for `(`), or itself.
  private static func appendMirrored(_ value: UInt32, to output: inout [UInt8]) {
    let scalar = Unicode.Scalar(Bidi.mirror(value)) ?? Unicode.Scalar(value) ?? "\u{FFFD}"
    output.append(contentsOf: UTF8.encode(scalar)!)
  }

  /// Whether a character may have a mirror image (Bidi_Mirrored): the ASCII and Latin-1 brackets and
  /// quotes, Tibetan and Ogham brackets, and characters from U+2000 on (punctuation, mathematical symbols,
  /// CJK brackets): every mirrored character below U+2000 is listed.
  private static func mayMirror(_ value: UInt32) -> Bool {
    switch value {
    case 0x28, 0x29, 0x3C, 0x3E, 0x5B, 0x5D, 0x7B, 0x7D, 0xAB, 0xBB, 0xF3A...0xF3D, 0x169B, 0x169C: return true
    case 0x2000...: return true
    default: return false
    }
  }
}
