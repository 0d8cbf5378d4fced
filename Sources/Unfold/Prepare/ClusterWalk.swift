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

/// Finds where grapheme clusters start in a stream of code points, as Swift's `Character` iteration does: two
/// simple code points (ASCII but CR, letters, most symbols: ``UnicodeProperties/isGraphemeSimple(_:_:)``)
/// always have a boundary between them (GB4, GB5, GB999), so they are decided without the standard library's
/// recognizer, which is asked only around the others (its property lookup is a binary search).
///
/// The first code point given starts a cluster.
struct GraphemeReader {
  private var recognizer = Unicode._CharacterRecognizer()
  private var state = GraphemeState()

  /// Whether a cluster starts at this code point, the next of the stream; `raw` is its packed properties (0
  /// for ASCII will do) and `isSimple` its ``UnicodeProperties/isGraphemeSimple(_:_:)``, which the caller has
  /// the properties for.
  @inline(__always)
  mutating func startsCluster(_ value: UInt32, isSimple: Bool, raw: UInt32) -> Bool {
    state.startsCluster(value, isSimple: isSimple, raw: raw, recognizer: &recognizer)
  }

  /// The number of grapheme clusters in `range` of valid UTF-8 (offsets on cluster boundaries): the
  /// `count` of the characters there.
  static func clusterCount(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    var reader = GraphemeReader()
    let tables = UnicodeTables.decoded
    var count = 0
    var position = range.lowerBound
    while position < range.upperBound {
      let (_, length, startsCluster) = reader.read(bytes, at: position, tables: tables)
      if startsCluster { count += 1 }
      position += length
    }
    return count
  }

  /// Whether a grapheme cluster starts at `offset` of valid UTF-8 (`true` at either end): where two simple code
  /// points meet, at once; elsewhere, by reading clusters from the nearest place before it where two simple
  /// code points meet (a boundary, whatever precedes it), at most 64 code points back (further, `false`: a
  /// caller taking a boundary for none only goes the slower way).
  static func startsCluster(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard offset > 0, offset < bytes.count else { return true }
    let (before, at) = (bytes[offset &- 1], bytes[offset])
    // Two ASCII code points but CR are simple (the common case: a style run that ends before a space), decided
    // with no decoding.
    if before < 0x80, at < 0x80, before != 0x0D, at != 0x0D { return true }
    guard at & 0xC0 != 0x80 else { return false }  // inside a code point's bytes
    func codePointStart(before position: Int) -> Int {
      var start = position - 1
      while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
      return start
    }
    func isSimple(at position: Int) -> Bool {
      UnicodeProperties.isGraphemeSimple(bytes.decodeScalar(at: position).value)
    }
    var later = codePointStart(before: offset)
    var laterIsSimple = isSimple(at: later)
    if laterIsSimple && isSimple(at: offset) { return true }
    // A cluster starts at `later` when it and the code point before it are simple (or at the text's start).
    var steps = 0
    while later > 0 {
      let earlier = codePointStart(before: later)
      let earlierIsSimple = isSimple(at: earlier)
      if earlierIsSimple && laterIsSimple { break }
      steps += 1
      guard steps < 64 else { return false }
      (later, laterIsSimple) = (earlier, earlierIsSimple)
    }
    var reader = GraphemeReader()
    let tables = UnicodeTables.decoded
    var position = later
    while position < offset { position += reader.read(bytes, at: position, tables: tables).length }
    return reader.read(bytes, at: offset, tables: tables).startsCluster
  }

  /// Reads the code point at `position` of valid UTF-8: its value, its length in bytes, and whether a cluster
  /// starts at it (its properties looked up in `tables` past ASCII): the step of every loop over clusters that
  /// needs no other property.
  @inline(__always)
  mutating func read(
    _ bytes: UnsafeBufferPointer<UInt8>, at position: Int, tables: UnicodeTables.Decoded
  ) -> (value: UInt32, length: Int, startsCluster: Bool) {
    state.read(bytes, at: position, tables: tables, recognizer: &recognizer)
  }

  /// Appends the UTF-16 of valid UTF-8 `bytes` (for ICU) to `units`, and each unit's UTF-8 offset to `offsets`:
  /// both units of a surrogate pair have their code point's offset.
  static func appendUTF16(of bytes: UnsafeBufferPointer<UInt8>, to units: inout [UInt16], offsets: inout [Int]) {
    var offset = 0
    while offset < bytes.count {
      let (value, length) = bytes.decodeScalar(at: offset)
      if value < 0x1_0000 {
        units.append(UInt16(value))
        offsets.append(offset)
      } else {
        units.append(UInt16(0xD800 + (value - 0x1_0000) >> 10))
        units.append(UInt16(0xDC00 + (value & 0x3FF)))
        offsets.append(offset)
        offsets.append(offset)
      }
      offset += length
    }
  }

}

/// A ``GraphemeReader``'s state but its recognizer, which a loop keeps apart (``BreakScanner``): the recognizer
/// is handed to the standard library by address, so whatever holds it lives in memory, and these few fields,
/// asked at every code point, would be stored and loaded at every one with it.
struct GraphemeState {
  /// Whether the recognizer has seen every code point of the open cluster (not so after ASCII read alone).
  private var recognizerIsCurrent = false
  private var previous: UInt32 = 0
  /// The packed properties of `previous` (0 for ASCII read alone).
  private var previousRaw: UInt32 = 0
  private var previousIsSimple = false
  private var started = false
  /// The first code point of the open cluster when the marks after it were decided without the recognizer
  /// (``UnicodeProperties/takesPlainMarks(_:_:)``); 0 otherwise.
  private var markedBase: UInt32 = 0
  /// Whether `previous` was decided as part of an emoji sequence or a flag (``emojiBoundary(_:isSimple:raw:)``),
  /// which is what makes the two fields after it current.
  private var previousIsEmojiPart = false
  /// After a pictograph and its modifiers or variation selectors: 1; after a joiner that follows them: 2 (the
  /// cluster so far is `ExtPict Extend* ZWJ`, which a pictograph joins, GB11).
  private var pictographState: UInt8 = 0
  /// Whether the run of regional indicators that ends with `previous` is of odd length (a flag is a pair, GB12).
  private var regionalIndicatorsOdd = false

  /// ``GraphemeReader/startsCluster(_:isSimple:raw:)``, with the reader's recognizer.
  ///
  /// Besides two simple code points, a plain mark after a simple base (``UnicodeProperties/isPlainMark(_:_:)``
  /// after ``UnicodeProperties/takesPlainMarks(_:_:)``: the combining marks of Latin, Greek, Cyrillic, Hebrew,
  /// Arabic, Thai and Lao text) is decided here: no boundary before it (GB9), one after the marks before a simple
  /// code point (GB999); anything else after them goes to the recognizer, fed the base and the last mark, which
  /// leave it as the whole cluster would (Thai text spent two fifths of preparing in the recognizer, asked three
  /// times per mark).
  ///
  /// The common cases (two simple code points, a plain mark, a simple code point after plain marks) are decided
  /// inline, as ``decide(_:isSimple:raw:recognizer:)`` would; the rest by that function, out of line, so that the
  /// scanner's loop stays within what the optimizer inlines.
  @inline(__always)
  mutating func startsCluster(
    _ value: UInt32, isSimple: Bool, raw: UInt32, recognizer: inout Unicode._CharacterRecognizer
  ) -> Bool {
    if started && !previousIsEmojiPart {
      if isSimple && (previousIsSimple || markedBase != 0 && value &- 0x1F1E6 >= 0x1F400 - 0x1F1E6) {
        // GB999 (no emoji rule reads a code point outside U+1F1E6–U+1F3FF after marks).
        (previous, previousRaw, previousIsSimple, recognizerIsCurrent, markedBase) = (value, raw, true, false, 0)
        return true
      }
      if UnicodeProperties.isPlainMark(raw, value)
        && (markedBase != 0 || previousIsSimple && UnicodeProperties.takesPlainMarks(previousRaw, previous))
      {
        // GB9, after a base that no rule looks back to (see ``UnicodeProperties/takesPlainMarks(_:_:)``).
        if markedBase == 0 { (markedBase, recognizerIsCurrent) = (previous, false) }
        (previous, previousRaw, previousIsSimple) = (value, raw, false)
        return false
      }
    }
    return decide(value, isSimple: isSimple, raw: raw, recognizer: &recognizer)
  }

  /// ``startsCluster(_:isSimple:raw:recognizer:)`` for every case.
  @inline(never)
  private mutating func decide(
    _ value: UInt32, isSimple: Bool, raw: UInt32, recognizer: inout Unicode._CharacterRecognizer
  ) -> Bool {
    var isEmojiPart = false
    defer { (previous, previousRaw, previousIsSimple, previousIsEmojiPart) = (value, raw, isSimple, isEmojiPart) }
    if !started {
      started = true
      if Self.isRegionalIndicator(value) { (isEmojiPart, regionalIndicatorsOdd, pictographState) = (true, true, 0) }
      // A simple first code point is fed to the recognizer only if a code point that is not simple follows
      // (every window of a paragraph, every blank line, started with the recognizer).
      guard !isSimple else { return true }
      recognizer = Unicode._CharacterRecognizer()
      _ = recognizer.hasBreak(before: Unicode.Scalar(validUTF8: value))
      recognizerIsCurrent = true
      return true
    }
    if isSimple && previousIsSimple {
      recognizerIsCurrent = false
      return true
    }
    // (Asked only of the code points it may decide: a function of its own, so that this one stays small enough to
    // be inlined into the scanner's loop.)
    if previousIsEmojiPart || value == 0x200D || value & ~1 == 0xFE0E || value &- 0x1F1E6 < 0x1F400 - 0x1F1E6,
      let startsCluster = emojiBoundary(value, isSimple: isSimple, raw: raw)
    {
      (isEmojiPart, recognizerIsCurrent, markedBase) = (true, false, 0)
      return startsCluster
    }
    if markedBase != 0 {
      if isSimple {
        markedBase = 0
        return true
      }
      if UnicodeProperties.isPlainMark(raw, value) { return false }
      // The recognizer in the state the cluster so far leaves it in: a base that no rule looks back to, and
      // marks that all extend it.
      recognizer = Unicode._CharacterRecognizer()
      _ = recognizer.hasBreak(before: Unicode.Scalar(validUTF8: markedBase))
      _ = recognizer.hasBreak(before: Unicode.Scalar(validUTF8: previous))
      (recognizerIsCurrent, markedBase) = (true, 0)
      return recognizer.hasBreak(before: Unicode.Scalar(validUTF8: value))
    }
    if previousIsSimple, UnicodeProperties.isPlainMark(raw, value),
      UnicodeProperties.takesPlainMarks(previousRaw, previous)
    {
      (markedBase, recognizerIsCurrent) = (previous, false)
      return false
    }
    if !recognizerIsCurrent {
      // The open cluster is the simple code point before this one alone, or it ends with the code point before
      // this one decided as part of an emoji sequence or a flag: a pictograph fed first when the cluster started
      // with one leaves the recognizer as the whole cluster would for what comes after (GB11).
      recognizer = Unicode._CharacterRecognizer()
      if previousIsEmojiPart && pictographState != 0 { _ = recognizer.hasBreak(before: "\u{1F600}") }
      _ = recognizer.hasBreak(before: Unicode.Scalar(validUTF8: previous))
      recognizerIsCurrent = true
    }
    return recognizer.hasBreak(before: Unicode.Scalar(validUTF8: value))
  }

  /// Whether a cluster starts before `value` when it continues or follows an emoji sequence or a flag, decided
  /// without the recognizer, which is slow (Docs/PerformanceNotes.md, "Walking clusters"); `nil` for anything
  /// else, left to the general rules. Decided here, by UAX #29:
  /// - a modifier, a variation selector or a joiner after a pictograph (or after one of them that follows it)
  ///   joins it (GB9), and the pictograph after such a joiner joins too (GB11);
  /// - a regional indicator joins the one before when that one ends a run of odd length (GB12, GB13); after
  ///   anything else it starts a cluster (GB999), but after a prepended mark (GB9b);
  /// - a simple code point after a code point decided here starts a cluster (no rule joins them).
  ///
  /// Only a code point decided here makes the state of the next decision, so that what the recognizer decided
  /// in between never leaves a stale one; the recognizer, asked again after a code point decided here, is fed
  /// that code point alone, which every rule but those above (GB11, GB12, GB13) and the Indic conjuncts' (GB9c,
  /// whose sequences hold no pictograph and no regional indicator) reads enough of.
  @inline(never)
  private mutating func emojiBoundary(_ value: UInt32, isSimple: Bool, raw: UInt32) -> Bool? {
    let isPictograph = raw & UnicodeTables.flagExtendedPictographic != 0
    if isPictograph && previous == 0x200D && previousIsEmojiPart && pictographState == 2 {
      pictographState = 1
      return false
    }
    if value == 0x200D || value &- 0x1F3FB < 5 || value & ~1 == 0xFE0E {
      guard previousRaw & UnicodeTables.flagExtendedPictographic != 0 || previousIsEmojiPart && pictographState == 1
      else { return nil }
      pictographState = value == 0x200D ? 2 : 1
      return false
    }
    if Self.isRegionalIndicator(value) {
      pictographState = 0  // not a pictograph: a joiner after it joins nothing (GB11)
      if Self.isRegionalIndicator(previous) && previousIsEmojiPart {
        regionalIndicatorsOdd.toggle()
        return regionalIndicatorsOdd  // odd again: this one starts a new pair
      }
      regionalIndicatorsOdd = true
      return previousRaw & UnicodeTables.flagPrepend == 0
    }
    if isSimple && previousIsEmojiPart {
      pictographState = isPictograph ? 1 : 0
      return true
    }
    return nil
  }

  /// Whether the code point is a regional indicator (U+1F1E6–U+1F1FF).
  @inline(__always)
  private static func isRegionalIndicator(_ value: UInt32) -> Bool { value &- 0x1F1E6 < 26 }

  /// ``GraphemeReader/read(_:at:tables:)``, with the reader's recognizer.
  @inline(__always)
  mutating func read(
    _ bytes: UnsafeBufferPointer<UInt8>, at position: Int, tables: UnicodeTables.Decoded,
    recognizer: inout Unicode._CharacterRecognizer
  ) -> (value: UInt32, length: Int, startsCluster: Bool) {
    let (value, length) = bytes.decodeScalar(at: position)
    let raw = value < 0x80 ? 0 : value < 0x800 ? tables.lookUp(belowU0800: value) : tables.lookUp(value)
    let isSimple = UnicodeProperties.isGraphemeSimple(raw, value)
    return (value, length, startsCluster(value, isSimple: isSimple, raw: raw, recognizer: &recognizer))
  }

  /// Takes in simple code points that were read past without asking (clusters of their own after a simple
  /// one: what ``startsCluster(_:isSimple:raw:recognizer:)`` answers for them), `last` the last of them and `raw`
  /// its packed properties (0 for ASCII will do).
  @inline(__always)
  mutating func continueAfterSimple(_ last: UInt32, raw: UInt32) {
    precondition(started && previousIsSimple, "a stretch of simple code points follows a simple one")
    (previous, previousRaw, recognizerIsCurrent, markedBase, previousIsEmojiPart) = (last, raw, false, 0, false)
  }

  /// Whether the code point before was simple: a simple one after it starts a cluster.
  var isAfterSimple: Bool { started && previousIsSimple }
}

extension Unicode.Scalar {
  /// The code point decoded from a string's bytes, which are valid UTF-8: no check again.
  @inline(__always)
  init(validUTF8 value: UInt32) {
    self = unsafeBitCast(value, to: Unicode.Scalar.self)
  }
}

/// The style at increasing UTF-8 offsets of a styled text, the run found once and kept while offsets stay in
/// it (rather than looked up in the text at each cluster).
struct RunCursor {
  private let runs: [StyledText.Run]
  private let runEnds: [Int]
  private var runIndex: Int
  private var runEnd: Int

  /// The index of the run of the last offset asked.
  var index: Int { runIndex }
  private var style: Style

  /// A cursor at `offset`.
  init(_ text: StyledText, at offset: Int) {
    runs = text.runs
    runEnds = text.runEnds
    runIndex = text.runIndex(containing: offset)
    runEnd = runEnds.isEmpty ? 0 : runEnds[runIndex]
    style = runs.isEmpty ? .plain : runs[runIndex].style
  }

  /// The style of the run that holds `offset`, at or after the offsets asked before.
  @inline(__always)
  mutating func style(at offset: Int) -> Style {
    if offset >= runEnd {
      while offset >= runEnd && runIndex + 1 < runs.count {
        runIndex += 1
        runEnd = runEnds[runIndex]
      }
      style = runs.isEmpty ? .plain : runs[runIndex].style
    }
    return style
  }
}

extension StyledText {
  /// The style of run `index` (plain for a text without runs, the empty one).
  func style(ofRun index: Int) -> Style { runs.isEmpty ? .plain : runs[index].style }

  /// The index of the run that holds the UTF-8 offset (the last run for the end offset).
  ///
  /// A binary search whose steps choose without a branch: asked at the start of every line drawn, a search's
  /// branches are mispredicted about half the time.
  func runIndex(containing offset: Int) -> Int {
    runEnds.withUnsafeBufferPointer { ends in
      guard ends.count > 1 else { return 0 }
      // `base` ends as the last index whose end is at most the offset, or 0; the run after it holds the offset.
      var base = 0
      var count = ends.count
      while count > 1 {
        let half = count / 2
        base = ends[base &+ half] <= offset ? base &+ half : base
        count &-= half
      }
      return min(base &+ (ends[base] <= offset ? 1 : 0), ends.count &- 1)
    }
  }

  /// ``runIndex(containing:)``, looked for from run `hint` on when the offset is at or after that run's start:
  /// lines drawn in order start a step or two of runs after the line before, which a search from the start
  /// would wait on the loads to find.
  func runIndex(containing offset: Int, from hint: Int) -> Int {
    runEnds.withUnsafeBufferPointer { ends in
      guard hint >= 0, hint < ends.count, hint == 0 || ends[hint &- 1] <= offset else {
        return runIndex(containing: offset)
      }
      var run = hint
      for _ in 0..<8 {
        guard run < ends.count &- 1, ends[run] <= offset else { return run }
        run &+= 1
      }
      return runIndex(containing: offset)
    }
  }
}

extension RandomAccessCollection {
  /// The first index whose element satisfies `predicate`, which must be false for a prefix of the
  /// collection and true for the rest (`endIndex` when none does): a binary search.
  /// - Complexity: O(log *n*).
  func partitionIndex(where predicate: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if predicate(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
