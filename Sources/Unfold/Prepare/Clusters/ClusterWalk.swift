/// One grapheme cluster of a styled text, measured where it stands on its line.
struct Cluster {
  /// Its UTF-8 range in the text.
  var start: Int
  var end: Int
  /// Its first code point.
  var first: Unicode.Scalar
  /// The index of the run it starts in (a style: the text's runs are merged, so neighbouring clusters of
  /// different runs differ in style).
  ///
  /// An index, not the style itself, which copying would retain.
  var run: Int
  /// Its advance at its position (a tab's depends on where it starts).
  var advance: Int
  /// What it is, decided from its code points as they were read, not by asking a `Character` again.
  var isTab = false
  var isHardLineBreak = false
  var isSoftHyphen = false
  var isSpace = false

  /// A cluster that starts with `first`, and `second` when it has more than one code point.
  init(start: Int, end: Int, first: Unicode.Scalar, second: Unicode.Scalar?, run: Int, advance: Int) {
    self.start = start
    self.end = end
    self.first = first
    self.run = run
    self.advance = advance
    (isTab, isSpace, isSoftHyphen, isHardLineBreak) = Self.kind(of: first.value, second: second)
  }

  /// What a cluster is: a tab, a space (a tab is one too), a soft hyphen, a hard line break.
  typealias Kind = (isTab: Bool, isSpace: Bool, isSoftHyphen: Bool, isHardLineBreak: Bool)
  /// The kind of a space (U+0020).
  static let space: Kind = (false, true, false, false)

  /// What a cluster is, from its first code point and its second (`nil` for a cluster of one).
  @inline(__always)
  static func kind(of first: UInt32, second: Unicode.Scalar?) -> Kind {
    guard let second else {
      return (first == 0x09, first == 0x20 || first == 0x09, first == 0xAD, startsHardLineBreak(first))
    }
    // The only hard line break of two code points is CR LF: a CR joins nothing else (GB4, GB5).
    return (false, false, false, first == 0x0D && second == "\n")
  }

  /// Whether a cluster that starts with this code point is a hard line break: LF, VT, FF, CR (and CR LF),
  /// NEL, LS and PS are controls, so clusters of their own (GB4, GB5), as ``Character/isHardLineBreak``.
  static func startsHardLineBreak(_ value: UInt32) -> Bool {
    switch value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
    default: return false
    }
  }
}

/// Walks the grapheme clusters of a stretch of a styled text, with their styles and advances; the one place
/// where clusters are measured for emergency breaks, cutting and drawing (preparing measures the clusters
/// its ``BreakScanner`` found).
///
/// It reads the text's bytes a chunk of clusters at a time (``GraphemeReader``: ASCII by byte, the rest with
/// Swift's own grapheme recognizer, the one `Character` iteration runs) and hands the clusters out one by
/// one, rather than indexing the string's views at every cluster. A chunk that starts with a run of ASCII, each
/// byte a cluster, is copied as bytes and handed out byte by byte, with no arrays of code points and clusters
/// (Docs/PerformanceNotes.md, "Walking clusters").
struct ClusterWalk: IteratorProtocol {
  private let text: StyledText
  /// The measurer; for a walk that only finds clusters (their advances are 0), a stand-in that is never asked.
  ///
  /// Not an optional: binding one to call through it would copy the existential at every cluster.
  private let measurer: any TextMeasurer
  /// Whether the walk measures.
  private let measures: Bool
  /// Measures the words that a font shapes as a whole; `nil` for terminal cells and a walk that does not measure.
  private var shaper: WordShaper?
  /// Where the next chunk starts, and where the walk ends (UTF-8 offsets).
  private var chunkEnd: Int
  private let end: Int
  private var runs: RunCursor
  /// The chunk's code points, and for each of its clusters and one past the last: its first code point's
  /// index there and its UTF-8 offset.
  private var scalars: [Unicode.Scalar] = []
  private var clusterScalars: [Int] = []
  private var clusterOffsets: [Int] = []
  /// The chunk's next cluster.
  private var index = 0
  /// A chunk of ASCII clusters (each a byte, not CR, and not followed by a code point that could join it): its
  /// bytes, where it starts, and its next.
  private var ascii: [UInt8] = []
  private var asciiStart = 0
  private var asciiIndex = 0
  /// The position on the line where the next cluster starts.
  private(set) var x: Int

  /// The UTF-8 length of a chunk, about (it ends at the first cluster boundary after it).
  private static let chunk = 1024

  /// Walks `range` (UTF-8 offsets on cluster boundaries) of `text`, the first cluster standing at `x`.
  init(_ text: StyledText, range: Range<Int>, measurer: (any TextMeasurer)?, x: Int = 0) {
    self.text = text
    self.measurer = measurer ?? TerminalCells()
    measures = measurer != nil
    shaper = measurer.flatMap { WordShaper(text, measurer: $0) }
    chunkEnd = range.lowerBound
    end = range.upperBound
    runs = RunCursor(text, at: range.lowerBound)
    self.x = x
  }

  /// The next cluster: of a chunk of ASCII here (the walk's common case, inlined where it is asked), of any other
  /// chunk in ``nextCluster()``.
  @inline(__always)
  mutating func next() -> Cluster? {
    if asciiIndex < ascii.count { return nextASCII() }
    return nextCluster()
  }

  /// The next cluster, read from a chunk of code points and clusters (or the first of a chunk of ASCII).
  private mutating func nextCluster() -> Cluster? {
    if index + 1 >= clusterOffsets.count {
      guard chunkEnd < end else { return nil }
      readChunk()
      if asciiIndex < ascii.count { return nextASCII() }
    }
    let first = clusterScalars[index]
    let count = clusterScalars[index + 1] - first
    let start = clusterOffsets[index]
    let style = runs.style(at: start)
    var cluster = Cluster(
      start: start, end: clusterOffsets[index + 1], first: scalars[first],
      second: count > 1 ? scalars[first + 1] : nil, run: runs.index, advance: 0)
    guard measures else {
      index += 1
      return cluster
    }
    if cluster.isTab {
      cluster.advance = measurer.tabAdvance(at: x)
    } else if let shaped = shaper?.advance(ofClusterAt: start, startingWith: cluster.first) {
      cluster.advance = shaped
    } else if count > 1 {
      cluster.advance = measurer.advance(ofScalars: scalars[first..<first + count], style: style)
    } else if cluster.first.isASCII {
      cluster.advance = measurer.advance(ofASCII: UInt8(cluster.first.value), style: style)
    } else {
      cluster.advance = measurer.advance(ofScalar: cluster.first, style: style)
    }
    x += cluster.advance
    index += 1
    return cluster
  }

  /// The next cluster of a chunk of ASCII.
  @inline(__always)
  private mutating func nextASCII() -> Cluster {
    let byte = ascii[asciiIndex]
    let start = asciiStart + asciiIndex
    asciiIndex += 1
    let style = runs.style(at: start)
    var cluster = Cluster(
      start: start, end: start + 1, first: Unicode.Scalar(byte), second: nil, run: runs.index, advance: 0)
    guard measures else { return cluster }
    if let shaped = shaper?.advance(ofClusterAt: start, startingWith: cluster.first) {
      cluster.advance = shaped
    } else {
      cluster.advance = cluster.isTab ? measurer.tabAdvance(at: x) : measurer.advance(ofASCII: byte, style: style)
    }
    x += cluster.advance
    return cluster
  }

  /// Reads the clusters from `chunkEnd` to the first cluster boundary after a chunk's length (or the end): a chunk
  /// of ASCII if one starts there.
  private mutating func readChunk() {
    if readASCII() { return }
    scalars.removeAll(keepingCapacity: true)
    clusterScalars.removeAll(keepingCapacity: true)
    clusterOffsets.removeAll(keepingCapacity: true)
    // Room for a code point per byte (the most there can be) up to the chunk's length: grown from none by
    // doubling, the three arrays would be reallocated some twenty times for a walk of one line.
    let room = min(end - chunkEnd, Self.chunk) + 1
    scalars.reserveCapacity(room)
    clusterScalars.reserveCapacity(room)
    clusterOffsets.reserveCapacity(room)
    index = 0
    let text = self.text.string
    let position = text.withUTF8Buffer { read($0) }
    clusterScalars.append(scalars.count)
    clusterOffsets.append(position)
    chunkEnd = position
  }

  /// Reads a chunk of ASCII clusters from `chunkEnd` up to a chunk's length: bytes below 0x80 but CR (which LF
  /// would join), each a cluster of its own (GB4, GB5, GB999), but the last when a code point past ASCII follows it,
  /// which may join it (a combining mark, a joiner).
  ///
  /// Whether it read any.
  private mutating func readASCII() -> Bool {
    let start = chunkEnd
    let limit = min(end, start + Self.chunk)
    let length = text.string.withUTF8Buffer { bytes -> Int in
      var position = start
      while position < limit, bytes[position] < 0x80, bytes[position] != 0x0D { position += 1 }
      // The range ends on a cluster boundary; a CR, or another byte below 0x80, starts a cluster.
      if position < end, bytes[position] >= 0x80, position > start { position -= 1 }
      guard position > start else { return 0 }
      ascii.removeAll(keepingCapacity: true)
      ascii.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
      return position - start
    }
    guard length > 0 else { return false }
    asciiStart = start
    asciiIndex = 0
    chunkEnd = start + length
    return true
  }

  /// Reads the chunk's clusters from the text's bytes; the offset where the chunk ends.
  private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let limit = min(end, chunkEnd + Self.chunk)
    var reader = GraphemeState()  // its recognizer apart, as the scanner keeps them
    var recognizer = Unicode._CharacterRecognizer()
    var position = chunkEnd
    let tables = UnicodeTables.decoded
    while position < end {
      let (value, length, startsCluster) = reader.read(bytes, at: position, tables: tables, recognizer: &recognizer)
      if startsCluster {
        if position >= limit { break }
        clusterScalars.append(scalars.count)
        clusterOffsets.append(position)
      }
      scalars.append(Unicode.Scalar(validUTF8: value))
      position += length
    }
    return position
  }
}
