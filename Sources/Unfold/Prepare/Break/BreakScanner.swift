/// Reads a text a window at a time and finds, in one pass over its UTF-8 bytes, its grapheme clusters and
/// the break opportunities before them: the one reader behind ``LineBreaker/Opportunities`` and the
/// segments that preparing measures.
///
/// A window ends after the first hard line break once it holds 256 code points, or at the first place where the
/// algorithm's context cannot cross (a safe cut) once it holds its limit: 512 code points for the first window, and
/// twice as many after each cut up to 4,096, so that a long paragraph is read in stretches of that length. Short
/// paragraphs share a window, since a window has a fixed cost of its own (Docs/PerformanceNotes.md, "Preparing").
/// After
/// ``scanWindow()``, the window's clusters are `clusters[0..<clusterCount]`: cluster `k` covers the UTF-8 offsets
/// `clusters[k].offset..<clusters[k + 1].offset` and the code points
/// `scalars[clusters[k].scalar..<clusters[k + 1].scalar]`, and ``kind(at:)`` says whether a line may (or must)
/// end before it: ``firstKind`` before the first, the break action before its first code point (``actions``)
/// before the others.
///
/// Clusters are Swift's own, found by a ``GraphemeReader`` (two simple code points, ASCII among them, are
/// decided without the standard library's recognizer), but for runs of letters: a letter (ASCII, or of two UTF-8
/// bytes, ``UnicodeProperties/isRunLetter(_:_:)``) that starts a cluster after such a letter joins the entry of
/// the one before, so that a word is one entry, not one per letter (no rule set allows a break between two such
/// letters, LB28). Such an entry is the only one of several code points whose first two are such letters
/// (``isLetterRun(_:first:count:)``: a real cluster that starts with a letter goes on with a mark); it is one
/// cluster per code point. Runs of letters of two bytes (Cyrillic, Greek, Hebrew, Arabic, Latin with diacritics)
/// are runs too, so that such text prepares about as fast as English.
struct BreakScanner {
  /// What may happen before a cluster.
  enum Kind: UInt8 {
    case none, allowed, mandatory
  }

  private let text: String
  /// The length of the text in UTF-8 bytes.
  var byteCount: Int { text.utf8.count }
  private let rules: LineBreaker.Rules
  /// Whether each window's break actions are found (``actions``, ``firstKind``): not for a reader that decides the
  /// few opportunities it needs itself (``CellStream``).
  private let findsBreaks: Bool
  /// Where WebKit's text boxes start, as UTF-8 offsets (empty for the other rules).
  private let boxStarts: [Int]
  /// The UTF-8 offset where the next window starts.
  private(set) var offset: Int
  /// Code points before `offset` that the next window needs as context (after a safe cut).
  private var context: [ScannedScalar] = []
  /// Whether the window before ended with a hard line break.
  private var afterHardBreak = false

  /// A code point of the window and its packed Unicode properties (``UnicodeProperties``).
  struct ScannedScalar: Sendable {
    var scalar: Unicode.Scalar
    var properties: UInt32
  }

  /// A cluster of the window (or a run of letters, see the type's documentation): its UTF-8 offset in the
  /// text, its first code point's index in ``scalars``, and its cells in the legacy profile when it is content of
  /// no special kind (16 bytes: what may happen before it is read from ``actions``, not written into each).
  struct ScannedCluster: Sendable {
    var offset: Int
    /// The index in ``scalars`` of the first code point (a window holds fewer than 2³¹: its code points alone
    /// would take 16 GB).
    private var firstScalar: Int32
    /// The cells of a cluster that is content of no special kind, in the legacy profile of ``TerminalCells``
    /// (a code point of its own that is not a control, the space, a soft hyphen or a hard line break, or a run of
    /// letters, each of one cell); ``space`` for the space alone; ``other`` for anything else.
    ///
    /// Written as the scanner reads the cluster, so that the segmenter need not read its code points again; a run's
    /// letters are counted as they join it.
    var cells: Int32

    /// ``cells`` of a cluster that is the space alone.
    static var space: Int32 { -2 }
    /// ``cells`` of a cluster that is not plain content in cells.
    static var other: Int32 { -1 }

    /// The index in ``scalars`` of the cluster's first code point.
    var scalar: Int { Int(firstScalar) }

    init(offset: Int, scalar: Int, cells: Int32) {
      self.offset = offset
      firstScalar = Int32(truncatingIfNeeded: scalar)
      self.cells = cells
    }
  }

  /// The window's code points, its context first (one array of both), read through the clusters' indices:
  /// the array keeps its longest length (see ``makeRoom(_:in:_:)``), so entries past the window are stale.
  private(set) var scalars: [ScannedScalar] = []
  /// The window's clusters, and one more entry that holds where the last one ends.
  private(set) var clusters: [ScannedCluster] = []
  /// The break actions of UAX #14 (with Blink's changes for ``LineBreaker/Rules/chromium``) before the
  /// window's code points: the action before a cluster's first code point is what may happen before it.
  private(set) var actions: [UAX14.Action] = []
  /// What may happen before the window's first cluster: a mandatory break after a hard line break, none at the
  /// start of the text, the action before it after a window that was cut.
  private(set) var firstKind = Kind.none
  private var scratch = UAX14.Scratch()

  /// The number of clusters of the window.
  private(set) var clusterCount = 0

  /// The number of code points after which a long paragraph is cut at the next safe place, at most.
  static let window = 4096
  /// The first window's: each window cut doubles it up to ``window``, so that a layout that stops after a few
  /// lines of a long paragraph (a collapsed view) reads a few hundred code points of it, not 4,096.
  static let firstWindow = 512
  /// The number of code points after which a window ends at the next hard line break: half the first window's, so
  /// that a window of short paragraphs ends after one of them before a cut is looked for.
  static let shortestWindow = firstWindow / 2
  /// The number of code points after which the next window is cut.
  private var windowLimit = firstWindow

  /// A scanner of `text` from the UTF-8 offset `start`: the start of a line, or where a previous walk
  /// stopped.
  ///
  /// `boxStarts`: the UTF-8 offsets where a style starts, ascending, which WebKit's rules (and `any`'s) read as the
  /// starts of text boxes inside a run of Thai, Lao, Khmer or Burmese (see ``DictionaryBreaks``).
  init(
    _ text: String, from start: Int, rules: LineBreaker.Rules, findsBreaks: Bool = true, boxStarts: [Int] = []
  ) {
    var text = text
    text.makeContiguousUTF8()
    self.text = text
    self.rules = rules
    self.findsBreaks = findsBreaks
    self.boxStarts = Self.readsBoxes(rules) ? boxStarts : []
    self.offset = start
    // Capacity (not placeholders) for the rest of the text up to twice the first window's length and its
    // context: a comment's buffers are lengthened window by window without being copied to a larger allocation
    // each time a paragraph is longer than the ones before. No more: room for the longest window slows a
    // collapsed view of a long text.
    let room = min(text.utf8.count - min(start, text.utf8.count), 2 * Self.firstWindow + 64) + 1
    scalars.reserveCapacity(room)
    clusters.reserveCapacity(room + 2)
    scratch.reserve(room)
  }

  /// Reads on from `offset`, the start of a line, as a scanner made there would (with no context), its window
  /// limit kept.
  mutating func restart(at offset: Int) {
    self.offset = offset
    context.removeAll()
    afterHardBreak = false
  }

  /// The number of code points of the window in ``scalars``: its context, its clusters, and the clusters read
  /// after a cut as lookahead.
  private(set) var scalarCount = 0

  /// Reads the next window; `false` at the end of the text (the last window read stays).
  mutating func scanWindow() -> Bool {
    guard offset < text.utf8.count else { return false }  // the last window stays
    let text = self.text
    text.withUTF8Buffer { scan($0) }
    return true
  }

  /// One window read from the text's bytes.
  private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
    // The arrays are moved out of `self` while the loop fills them, and back after it.
    var scalars = self.scalars
    var clusters = self.clusters
    (self.scalars, self.clusters) = ([], [])
    defer { (self.scalars, self.clusters) = (scalars, clusters) }
    // The window's code points and clusters are written through buffers of placeholders, made longer if a
    // window outgrows them, then cut to what was written: an append per code point and per cluster would ask the
    // runtime whether the storage is shared.
    let contextCount = context.count
    let windowLimit = self.windowLimit
    Self.makeRoom(contextCount + room(in: bytes), in: &scalars, &clusters)
    for (index, scalar) in context.enumerated() { scalars[index] = scalar }
    var scalarCount = contextCount  // the code points written
    var clustersMade = 0  // the clusters written (``clusterCount`` is set after the loop)
    var position = offset
    var cut: Int?  // the index in `clusters` of the first cluster of the next window
    var endsWithHardBreak = false
    // The grapheme reader's state and its recognizer apart (see GraphemeState).
    var graphemes = GraphemeState()
    var recognizer = Unicode._CharacterRecognizer()
    var inHardBreak = false  // whether the open cluster starts with a hard line break
    // Whether the open entry is a run of ASCII letters that the last letter joined: a code point that continues
    // that letter's cluster (a mark) makes the letter an entry of its own again.
    var endsInLetterRun = false
    let tables = UnicodeTables.decoded
    while true {
      let isRead = scalars.withUnsafeMutableBufferPointer { scalars in
        clusters.withUnsafeMutableBufferPointer { clusters in
          while position < bytes.count {
            // Room for this code point and a cluster, and for the cluster that ends the window.
            guard scalarCount < scalars.count, clustersMade + 2 < clusters.count else { return false }
            // A stretch of simple code points after a simple code point (most text), in a loop of its own
            // (``readSimpleStretch(_:_:stop:_:_:_:_:endsInLetterRun:tables:)``); 0xC2 to 0xEF: the lead bytes of
            // code points of two and three bytes.
            if position > offset, !inHardBreak, bytes[position].isPrintableASCII || bytes[position] &- 0xC2 < 0x2E,
              graphemes.isAfterSimple
            {
              let room = min(
                scalars.count - scalarCount, clusters.count - 2 - clustersMade, contextCount + windowLimit - scalarCount
              )
              let start = position  // a bound in bytes bounds the code points: each takes one to three
              Self.readSimpleStretch(
                bytes, &position, stop: min(bytes.count, position + room), scalars, &scalarCount, clusters,
                &clustersMade, endsInLetterRun: &endsInLetterRun, tables: tables)
              if position > start {
                let last = scalars[scalarCount - 1]
                graphemes.continueAfterSimple(last.scalar.value, raw: last.properties)
                continue
              }
            }
            let (value, length) = bytes.decodeScalar(at: position)
            let raw = value < 0x800 ? tables.lookUp(belowU0800: value) : tables.lookUp(value)
            if graphemes.startsCluster(
              value, isSimple: UnicodeProperties.isGraphemeSimple(raw, value), raw: raw, recognizer: &recognizer)
            {
              switch windowEnd(
                before: clustersMade, scalarCount - contextCount, inHardBreak: inHardBreak, clusters, scalars,
                scalarCount)
              {
              case .afterHardBreak?:
                endsWithHardBreak = true
                return true
              case .cut(let cluster)?:
                cut = cluster
                return true
              case nil: break
              }
              // Cluster.startsHardLineBreak(value), from the class at hand: BK, CR, LF and NL are those code points.
              inHardBreak = LineBreakSet.bkCrLfNl.contains(UnicodeProperties(raw: raw).lineBreak)
              clusters[clustersMade] = ScannedCluster(
                offset: position, scalar: scalarCount,
                cells: inHardBreak ? ScannedCluster.other : Self.cells(ofCodePoint: value, raw: raw))
              clustersMade += 1
            } else if endsInLetterRun {
              // The letter before this code point (of one or two bytes) leaves the run: its cluster goes on.
              clusters[clustersMade - 1].cells &-= 1
              clusters[clustersMade] = ScannedCluster(
                offset: position - UTF8.width(scalars[scalarCount - 1].scalar), scalar: scalarCount - 1,
                cells: ScannedCluster.other)
              clustersMade += 1
            } else {
              clusters[clustersMade - 1].cells = ScannedCluster.other  // a cluster of several code points
            }
            endsInLetterRun = false
            scalars[scalarCount] = ScannedScalar(scalar: Unicode.Scalar(validUTF8: value), properties: raw)
            scalarCount += 1
            position += length
          }
          return true
        }
      }
      if isRead { break }
      Self.makeRoom(scalars.count + 2 * Self.window, in: &scalars, &clusters)  // written, so not doubled
    }
    finish(
      &scalars, scalarCount, &clusters, clustersMade, cut: cut, end: position,
      endsWithHardBreak: endsWithHardBreak || (position == bytes.count && inHardBreak))
  }

  /// The room a window needs from ``offset``: the bytes up to the first newline after the shortest window's
  /// length in bytes (at least as many code points, so the window ends there at the latest, unless only a safe
  /// cut ends it), at most twice its limit.
  ///
  /// The newline is looked for only as far as the room can reach: searched to the text's end, every window of a
  /// long paragraph would read the rest of it again.
  private func room(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let reach = min(bytes.count, offset + 2 * windowLimit)
    let lineEnd =
      UnsafeBufferPointer(rebasing: bytes[..<reach]).offset(of: 0x0A, from: offset + Self.shortestWindow).map { $0 + 1 }
      ?? reach
    return lineEnd - offset + 1
  }

  /// Ends the window read last, `end` its end, and sets where the next one starts: with the window's clusters
  /// closed and its opportunities found, after the cut cluster, with the cluster before it and the cut cluster as
  /// context (the opportunity before its first cluster is decided there, with that context); else at `end`.
  private mutating func finish(
    _ scalars: inout [ScannedScalar], _ scalarCount: Int, _ clusters: inout [ScannedCluster], _ clustersMade: Int,
    cut: Int?, end: Int, endsWithHardBreak: Bool
  ) {
    clusters[clustersMade] = ScannedCluster(offset: end, scalar: scalarCount, cells: ScannedCluster.other)
    if findsBreaks {
      let boxes = Self.boxScalars(boxStarts, clusters: clusters, count: clustersMade, scalars: scalars)
      findBreaks(&scalars, count: scalarCount, boxes: boxes)
    }
    self.scalarCount = scalarCount
    clusterCount = cut.map { $0 + 1 } ?? clustersMade
    firstKind =
      context.isEmpty || !findsBreaks
      ? (afterHardBreak ? .mandatory : .none) : Self.kind(before: actions[clusters[0].scalar])
    if let cut {
      context = Array(scalars[clusters[cut - 1].scalar..<clusters[cut + 1].scalar])
      offset = clusters[cut + 1].offset  // also where the last cluster of this window ends
      afterHardBreak = false
      self.windowLimit = min(2 * windowLimit, Self.window)
    } else {
      context.removeAll()
      offset = end
      afterHardBreak = endsWithHardBreak
    }
  }

  /// Where a window ends.
  private enum WindowEnd {
    /// After the hard line break of the open cluster.
    case afterHardBreak
    /// Before the cluster after this one: two clusters of lookahead stay in the window.
    case cut(Int)
  }

  /// Whether the window of `length` code points ends before a cluster that starts after `clustersMade` clusters:
  /// once of its shortest length after a hard line break; once as long as its limit (doubled by each cut) at a
  /// safe cut.
  @inline(__always)
  private func windowEnd(
    before clustersMade: Int, _ length: Int, inHardBreak: Bool, _ clusters: UnsafeMutableBufferPointer<ScannedCluster>,
    _ scalars: UnsafeMutableBufferPointer<ScannedScalar>, _ scalarCount: Int
  ) -> WindowEnd? {
    guard clustersMade > 0 else { return nil }
    if inHardBreak, length >= Self.shortestWindow { return .afterHardBreak }
    if length >= windowLimit, clustersMade >= 4,
      Self.isSafeCut(
        before: clustersMade - 3, UnsafeBufferPointer(clusters), clustersMade, UnsafeBufferPointer(scalars),
        scalarCount)
    {
      return .cut(clustersMade - 3)
    }
    return nil
  }

  /// Reads a stretch of simple code points from `position` up to `stop`, as the general step would.
  ///
  /// The stretch holds printable ASCII, letters of two bytes (``UnicodeProperties/isRunLetter(_:_:)``: Latin with
  /// diacritics, Greek, Cyrillic, Hebrew, Arabic...) and simple code points of three bytes (ideographs, kana, Hangul
  /// syllables, Thai consonants), and follows a simple code point: a cluster per code point (a run of letters one
  /// entry), each what the general step of ``scan(_:)`` finds for it, with no cut to look for before the window's
  /// length (`stop` is short of it). It stops at the first code point that is none of these. A loop of its own:
  /// the general step takes four times the instructions per character of ASCII, and a third more per ideograph.
  @inline(__always)
  private static func readSimpleStretch(
    _ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int, stop: Int,
    _ scalars: UnsafeMutableBufferPointer<ScannedScalar>, _ scalarCount: inout Int,
    _ clusters: UnsafeMutableBufferPointer<ScannedCluster>, _ clustersMade: inout Int, endsInLetterRun: inout Bool,
    tables: UnicodeTables.Decoded
  ) {
    var afterLetter = Self.endsWithLetter(scalars, scalarCount, clusters, clustersMade, endsInLetterRun)
    // The cells of the last entry, kept here while letters join it and written when it is done with,
    // rather than added to in the entry at each letter.
    var entryCells = clustersMade > 0 ? clusters[clustersMade - 1].cells : 0
    while position < stop {
      let at = position
      let byte = bytes[at]
      let value: UInt32
      let raw: UInt32
      let isLetter: Bool
      if byte.isPrintableASCII {
        value = UInt32(byte)
        raw = tables.lookUp(ascii: byte)
        isLetter = byte.isASCIILetter
        position = at + 1
      } else if byte &- 0xC2 < 0x1E {
        value = UInt32(byte & 0x1F) << 6 | UInt32(bytes[at + 1] & 0x3F)
        raw = tables.lookUp(belowU0800: value)
        guard raw & UnicodeProperties.flagRunLetter != 0 else { break }
        isLetter = true
        position = at + 2
      } else {
        // A simple code point of three bytes (an ideograph, kana, a Hangul syllable, a Thai consonant, a
        // symbol) but a hard line break (U+2028, U+2029), which the general step ends a window after.
        guard byte &- 0xE0 < 0x10 else { break }
        value = UInt32(byte & 0x0F) << 12 | UInt32(bytes[at + 1] & 0x3F) << 6 | UInt32(bytes[at + 2] & 0x3F)
        raw = tables.lookUp(value)
        guard UnicodeProperties.isGraphemeSimple(raw, value), value & ~1 != 0x2028 else { break }
        isLetter = false
        position = at + 3
      }
      // A letter after a letter joins its cluster: a run of letters is one entry (see the type's
      // documentation), whose inner boundaries every rule set prohibits.
      let joins = isLetter && afterLetter
      if !joins {
        if endsInLetterRun { clusters[clustersMade - 1].cells = entryCells }  // the run before is done
        // Its cells, found here rather than for each letter of a run: the space, printable ASCII and run
        // letters (one cell), or simple code points of three bytes.
        let cells =
          value == 0x20
          ? ScannedCluster.space
          : value < 0x800 ? 1 : Int32(truncatingIfNeeded: UnicodeProperties(raw: raw).nonASCIICells)
        clusters[clustersMade] = ScannedCluster(offset: at, scalar: scalarCount, cells: cells)
        clustersMade += 1
        entryCells = cells
      } else {
        entryCells &+= 1  // a letter more in the run, of one cell
      }
      endsInLetterRun = joins
      afterLetter = isLetter
      scalars[scalarCount] = ScannedScalar(scalar: Unicode.Scalar(validUTF8: value), properties: raw)
      scalarCount += 1
    }
    if endsInLetterRun { clusters[clustersMade - 1].cells = entryCells }
  }

  /// Whether the last code point written is a letter that a letter after it may join (see the type's
  /// documentation): the last letter of a run, or a letter that is an entry of its own (a letter after a prepended
  /// mark is in that mark's entry).
  ///
  /// Asked where a letter follows, not kept up to date at every code point: a variable more in the scanner's loop slows
  /// every script.
  @inline(__always)
  private static func endsWithLetter(
    _ scalars: UnsafeMutableBufferPointer<ScannedScalar>, _ scalarCount: Int,
    _ clusters: UnsafeMutableBufferPointer<ScannedCluster>, _ clustersMade: Int, _ endsInLetterRun: Bool
  ) -> Bool {
    if endsInLetterRun { return true }
    guard clustersMade > 0, clusters[clustersMade - 1].scalar == scalarCount - 1 else { return false }
    return UnicodeProperties.isRunLetter(scalars[scalarCount - 1].properties, scalars[scalarCount - 1].scalar.value)
  }

  /// ``ScannedCluster/cells`` of a cluster of one code point that is not a hard line break (the scanner knows that
  /// from the code point's class already), and that no code point after it may join, as far as the scanner knows:
  /// one that does makes it ``ScannedCluster/other``.
  @inline(__always)
  static func cells(ofCodePoint value: UInt32, raw: UInt32) -> Int32 {
    if value == 0x20 { return ScannedCluster.space }
    // Content of no special kind (``Cluster/kind(of:second:)``): not a control below the space or a soft hyphen.
    guard value > 0x20, value != 0xAD else { return ScannedCluster.other }
    return value < 0x7F ? 1 : Int32(truncatingIfNeeded: UnicodeProperties(raw: raw).nonASCIICells)
  }

  /// What may happen before cluster `k` of the window.
  func kind(at k: Int) -> Kind {
    k == 0 ? firstKind : Self.kind(before: actions[clusters[k].scalar])
  }

  /// What may happen before a cluster (not the window's first) whose first code point has this action before it:
  /// the kind of the same raw value (none and prohibited 0, allowed 1, mandatory 2; the tests of opportunities'
  /// kinds fail if the two orders part).
  @inline(__always)
  static func kind(before action: UAX14.Action) -> Kind { Kind(rawValue: action.rawValue).unsafelyUnwrapped }

  /// Makes the arrays hold at least `count` code points and one cluster more, with placeholders: they keep
  /// their length from window to window, so that the placeholders are written once, not per window.
  private static func makeRoom(_ count: Int, in scalars: inout [ScannedScalar], _ clusters: inout [ScannedCluster]) {
    if scalars.count < count {
      scalars.append(
        contentsOf: repeatElement(ScannedScalar(scalar: "\0", properties: 0), count: count - scalars.count))
    }
    if clusters.count < count + 2 {
      clusters.append(
        contentsOf: repeatElement(
          ScannedCluster(offset: 0, scalar: 0, cells: ScannedCluster.other), count: count + 2 - clusters.count))
    }
  }

  /// Whether a window may end before cluster `k`: clusters `k - 1` and `k` are single letters, ideographs or
  /// digits, so no rule looks back across them (every rule's lookbehind stops at such a unit: LB25's
  /// `NU (SY | IS)*` reads back to the nearest digit).
  ///
  /// The clusters and code points read so far are the first `clusterCount` and `scalarCount` of the buffers.
  ///
  /// Digits count since a paragraph of digits alone (a pasted number, a hostile input) had no safe place at
  /// all and was read as one window: about 60 bytes of memory per byte of it.
  static func isSafeCut(
    before k: Int, _ clusters: UnsafeBufferPointer<ScannedCluster>, _ clusterCount: Int,
    _ scalars: UnsafeBufferPointer<ScannedScalar>, _ scalarCount: Int
  ) -> Bool {
    func isPlain(_ cluster: Int) -> Bool {
      let start = clusters[cluster].scalar
      let end = cluster + 1 < clusterCount ? clusters[cluster + 1].scalar : scalarCount
      return end - start == 1 && isPlainUnit(scalars[start])
    }
    return k >= 1 && isPlain(k - 1) && isPlain(k)
  }

  /// Whether a cluster of this code point alone is a unit at which every rule's lookbehind stops: a letter
  /// (not U+25CC, an aksara to LB28a, nor a letter of a script that a dictionary breaks), an ideograph or a digit.
  static func isPlainUnit(_ scalar: ScannedScalar) -> Bool {
    guard scalar.scalar != "\u{25CC}", UnicodeProperties(raw: scalar.properties).lineBreak != .sa else { return false }
    switch UnicodeProperties(raw: scalar.properties).resolvedLineBreak {
    case .al, .hl, .id, .nu: return true
    default: return false
    }
  }

  /// The UTF-8 offsets where the window's grapheme clusters start: the entries' offsets, a run of letters one
  /// per letter.
  var clusterOffsets: [Int] {
    scalars.withUnsafeBufferPointer { scalars in
      (0..<clusterCount).flatMap { k in
        let (entry, count) = (clusters[k], clusters[k + 1].scalar - clusters[k].scalar)
        guard Self.isLetterRun(scalars, first: entry.scalar, count: count) else { return [entry.offset] }
        var offsets: [Int] = []
        var offset = entry.offset
        for letter in scalars[entry.scalar..<entry.scalar + count] {
          offsets.append(offset)
          offset += UTF8.width(letter.scalar)
        }
        return offsets
      }
    }
  }

  /// The number of the window's entries that are runs of ASCII letters.
  var letterRunCount: Int {
    scalars.withUnsafeBufferPointer { scalars in
      (0..<clusterCount).count {
        Self.isLetterRun(scalars, first: clusters[$0].scalar, count: clusters[$0 + 1].scalar - clusters[$0].scalar)
      }
    }
  }

  /// Whether the entry of the clusters that starts with code point `first` of `scalars` and holds `count` of
  /// them is a run of letters (a cluster per code point; see the type's documentation).
  @inline(__always)
  static func isLetterRun(_ scalars: UnsafeBufferPointer<ScannedScalar>, first: Int, count: Int) -> Bool {
    func isLetter(_ index: Int) -> Bool {
      UnicodeProperties.isRunLetter(scalars[index].properties, scalars[index].scalar.value)
    }
    return count > 1 && isLetter(first) && isLetter(first + 1)
  }

  /// Blink's changes to UAX #14 (see ``LineBreaker``).
  private static func tailorForChromium(_ scalars: UnsafeBufferPointer<ScannedScalar>, _ actions: inout [UAX14.Action])
  {
    let asciiBreakPairs = Self.asciiBreakPairs  // read once, not through the global's accessor per pair
    for i in 1..<max(1, scalars.count) where actions[i] != .mandatory {
      let previous = scalars[i - 1].scalar
      let current = scalars[i].scalar
      if isBreakableSpace(previous) {
        actions[i] = isBreakableSpace(current) ? .prohibited : .allowed
      } else if isBreakableSpace(current) {
        actions[i] = .prohibited
      } else if isTableASCII(previous) && isTableASCII(current) {
        if previous == "-" && ("0"..."9").contains(current) {
          let beforeHyphen = i >= 2 ? scalars[i - 2].scalar : nil
          actions[i] = beforeHyphen.map(isASCIIAlphanumeric) == true ? .allowed : .prohibited
        } else {
          actions[i] = asciiBreakPairs[Int(previous.value) << 7 | Int(current.value)] ? .allowed : .prohibited
        }
      }
    }
  }

  /// The break actions of the window's code points by ``rules``: UAX #14 and the engine's tailoring (for
  /// ``LineBreaker/Rules/anyEngine``, a break where all three engines allow one), then the breaks inside runs of
  /// SA characters: ICU's dictionaries for Blink and WebKit, ICU4X's models for Gecko, both for `any`.
  private mutating func findBreaks(_ scalars: inout [ScannedScalar], count: Int, boxes: [Int]) {
    func breaks(
      _ scalars: [ScannedScalar], into actions: inout [UAX14.Action],
      _ tailor: (UnsafeBufferPointer<ScannedScalar>, inout [UAX14.Action]) -> Void
    ) {
      scalars.withUnsafeBufferPointer { scalars in
        let window = UnsafeBufferPointer(rebasing: scalars[..<count])
        UAX14.breaks(window, into: &actions, scratch: &scratch)
        tailor(window, &actions)
      }
    }
    switch rules {
    case .unicode: breaks(scalars, into: &actions) { _, _ in }
    case .gecko: breaks(scalars, into: &actions, Self.tailorForGecko)
    case .webkit: breaks(scalars, into: &actions, Self.tailorForWebKit)
    case .webkitJapanese:
      Self.resolveConditionalStartersAsIdeographs(&scalars, count: count)
      breaks(scalars, into: &actions, Self.tailorForWebKit)
    case .chromium:
      Self.resolveConditionalStartersAsIdeographs(&scalars, count: count)
      breaks(scalars, into: &actions, Self.tailorForChromium)
    case .anyEngine:
      // Gecko's and WebKit's with conditional starters as UAX #14 has them, then Blink's, which resolves them.
      var gecko: [UAX14.Action] = []
      var webKit: [UAX14.Action] = []
      breaks(scalars, into: &gecko, Self.tailorForGecko)
      breaks(scalars, into: &webKit, Self.tailorForWebKit)
      Self.resolveConditionalStartersAsIdeographs(&scalars, count: count)
      breaks(scalars, into: &actions, Self.tailorForChromium)
      for i in 0..<count where actions[i] == .allowed && (gecko[i] != .allowed || webKit[i] != .allowed) {
        actions[i] = .prohibited
      }
    }
    // A window never ends inside a run of a dictionary's script (``isPlainUnit(_:)``): ICU sees whole runs.
    let segmenter: DictionaryBreaks.Segmenter =
      switch rules {
      case .gecko: .icu4xModels
      case .anyEngine: .allEngines
      case .chromium: .chromiumDictionaries
      case .unicode, .webkit, .webkitJapanese: .icuDictionary
      }
    scalars.withUnsafeBufferPointer { scalars in
      let window = UnsafeBufferPointer(rebasing: scalars[..<count])
      DictionaryBreaks.allowWordBreaks(in: window, actions: &actions, by: segmenter, boxes: boxes)
      // WebKit's scan takes no break where it compares a stale character (`any` breaks only where WebKit does).
      switch rules {
      case .webkit, .webkitJapanese, .anyEngine:
        WebKitBreakScan.apply(window, actions: &actions, boxes: boxes, onlyRemoving: rules == .anyEngine)
      case .unicode, .gecko, .chromium: break
      }
    }
  }

  /// Whether `rules` break Thai, Lao, Khmer and Burmese box by box, as WebKit does (`any` too, which breaks only
  /// where WebKit does): only they need the starts of text boxes.
  static func readsBoxes(_ rules: LineBreaker.Rules) -> Bool {
    switch rules {
    case .webkit, .webkitJapanese, .anyEngine: true
    case .unicode, .chromium, .gecko: false
    }
  }

  /// The indexes in `scalars` of the code points of the window's `count` clusters at which a text box starts
  /// (`starts`, UTF-8 offsets, ascending).
  static func boxScalars(
    _ starts: [Int], clusters: [ScannedCluster], count: Int, scalars: [ScannedScalar]
  ) -> [Int] {
    guard !starts.isEmpty, count > 0 else { return [] }
    let (first, last) = (clusters[0].offset, clusters[count].offset)
    // The starts inside the window, found by bisection: a long text has many, a window few.
    var (low, high) = (0, starts.count)
    while low < high {
      let middle = (low + high) / 2
      if starts[middle] <= first { low = middle + 1 } else { high = middle }
    }
    // Walked along with the code points, both ascending (a set of them, asked at every code point, hashed each
    // offset: 44,000 instructions of a 300-byte comment's HTML under `any`).
    var next = low
    var boxes: [Int] = []
    for k in 0..<count {
      var offset = clusters[k].offset
      for index in clusters[k].scalar..<clusters[k + 1].scalar {
        while next < starts.count && starts[next] < offset { next += 1 }
        guard next < starts.count, starts[next] < last else { return boxes }
        if starts[next] == offset { boxes.append(index) }
        offset += UTF8.width(scalars[index].scalar)
      }
    }
    return boxes
  }

  /// Gecko's changes to UAX #14, as measured in Firefox 153 (see ``LineBreaker``): a run of spaces allows a break
  /// after it; no break between closing punctuation and a prefix or postfix (`)$`, `」%`), between a prefix or
  /// postfix and opening punctuation (`$(`, `%「`), or between a solidus and a digit (`/5`).
  ///
  /// Unlike Blink and WebKit, a hyphen before a digit never breaks (`2024-06-01` is whole), and a solidus before a
  /// letter does (`https://|example.org/|docs`).
  private static func tailorForGecko(_ scalars: UnsafeBufferPointer<ScannedScalar>, _ actions: inout [UAX14.Action]) {
    for i in 1..<max(1, scalars.count) where actions[i] != .mandatory {
      let previous = scalars[i - 1].scalar
      if isBreakableSpace(previous) {
        actions[i] = isBreakableSpace(scalars[i].scalar) ? .prohibited : .allowed
        continue
      }
      let before = UnicodeProperties(raw: scalars[i - 1].properties).resolvedLineBreak
      let after = UnicodeProperties(raw: scalars[i].properties).resolvedLineBreak
      switch (before, after) {
      case (.cl, .po), (.cl, .pr), (.cp, .po), (.cp, .pr), (.pr, .op), (.po, .op), (.sy, .nu):
        actions[i] = .prohibited
      default: break
      }
    }
  }

  /// WebKit's changes to UAX #14, as measured in WebKitGTK 2.50 (see ``LineBreaker``): Blink's table of ASCII
  /// pairs with a break also after `-` before `!`, `$`, `)`, `/`, `:`, `;`, `?`, `]` and `}`; no break after `-`
  /// before a Latin-1 letter (`peut-être`) or after a Hebrew letter and `-` (UAX #14's LB21a, which Blink's table
  /// overrides); conditional Japanese starters as UAX #14 resolves them (no break before small kana or `ー`, CSS
  /// `line-break: strict`), but on a page in Japanese, where they break as ideographs.
  private static func tailorForWebKit(_ scalars: UnsafeBufferPointer<ScannedScalar>, _ actions: inout [UAX14.Action]) {
    tailorForChromium(scalars, &actions)
    for i in 1..<max(1, scalars.count) where actions[i] != .mandatory && scalars[i - 1].scalar == "-" {
      let current = scalars[i].scalar
      switch current {
      case _ where webKitBreaksAfterHyphen.contains(current): actions[i] = .allowed
      default:
        let letter = UnicodeProperties(raw: scalars[i].properties).resolvedLineBreak == .al
        if (0xA0...0xFF).contains(current.value) && letter
          || i >= 2 && UnicodeProperties(raw: scalars[i - 2].properties).resolvedLineBreak == .hl
        {
          actions[i] = .prohibited
        }
      }
    }
  }

  /// Blink breaks before a conditional Japanese starter (Line_Break CJ: small kana, the prolonged sound mark) as
  /// before an ideograph, in every language, as CSS `line-break: normal` asks; plain UAX #14 resolves CJ to NS and
  /// never breaks before one.
  ///
  /// Their resolved class becomes ID (the bits that ``UAX14`` reads).
  private static func resolveConditionalStartersAsIdeographs(_ scalars: inout [ScannedScalar], count: Int) {
    let resolvedBits: UInt32 = 0x3F << 20
    let ideograph = UInt32(LineBreakClass.id.rawValue) << 20
    for i in 0..<count where UnicodeProperties(raw: scalars[i].properties).lineBreak == .cj {
      scalars[i].properties = scalars[i].properties & ~resolvedBits | ideograph
    }
  }

  private static func isBreakableSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\n"
  }

  private static func isTableASCII(_ scalar: Unicode.Scalar) -> Bool { (0x21...0x7F).contains(scalar.value) }

  /// The characters before which WebKit breaks after `-`, where Blink's table does not.
  static let webKitBreaksAfterHyphen: Set<Unicode.Scalar> = ["!", "$", ")", "/", ":", ";", "?", "]", "}"]

  /// Whether Blink's table breaks between two printable ASCII characters.
  static func asciiPairBreaks(_ previous: UInt32, _ current: UInt32) -> Bool {
    asciiBreakPairs[Int(previous) << 7 | Int(current)]
  }

  private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
    ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
  }

  /// Blink's table of printable ASCII pairs, at `previous << 7 | current`: whether a line may break between
  /// them.
  ///
  /// A break is allowed after `-` and `?` before letters, digits and most symbols, and after closing punctuation before
  /// an opening one; between other printable ASCII characters, none. A table of every pair, read at every pair.
  private static let asciiBreakPairs: [Bool] = {
    var table = [Bool](repeating: false, count: 128 * 128)
    func allow(after: String, before: String) {
      for previous in after.utf8 {
        for current in before.utf8 { table[Int(previous) << 7 | Int(current)] = true }
      }
    }
    let word = "%&(*+-0123456789<=>@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\^_`abcdefghijklmnopqrstuvwxyz{|~"
    allow(after: "-", before: "\"#'" + word)
    allow(after: "?", before: "#$" + word)
    allow(after: "!\"#%&)*+,.:;=>\\]|}~", before: "(<[{")
    return table
  }()
}
