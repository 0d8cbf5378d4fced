/// The lines of a whole text in terminal cells of the legacy profile under the Unicode rules, laid out lazily as
/// ``SegmentStream`` lays them out (the same lines: a test compares them on random texts), for an expanded view: the
/// break opportunities are decided only where a line must end, not at every code point.
///
/// ``SegmentStream`` makes a ``Segment`` between every two opportunities, and so decides UAX #14 at every code point
/// and writes every segment before the fitter reads it back. Here the scanner's clusters (a word of letters is one
/// entry, with its cells) are added up as they come; only when one does not fit does the stream look back for the
/// last opportunity before it, usually the one just before it (a word after a space, an ideograph after an
/// ideograph): from the pair table when the units around the boundary are plain (``kind(before:)``), else by running
/// UAX #14 over the stretch back to the nearest place where no rule looks further back (``slowKind(before:)``).
/// What a line does with the clusters is what ``SegmentFitter`` does with the segments: content fits after the hanging
/// spaces before it or the line breaks at the opportunity; the first segment of a line that does not fit alone is
/// placed cluster by cluster (an emergency break); spaces at the start of a paragraph are content; a hard line break
/// ends the line after it.
///
/// Only for texts without tabs and soft hyphens (``applies(to:measurer:breaker:)``), whose segments' widths are the
/// sums of their clusters'. A line still open at the end of a scanner's window is read again from its start in the
/// next window (``BreakScanner/restart(at:)``), so that a line's clusters are all in one window; a line longer than a
/// window (a width of thousands of cells, or endless hanging spaces) hands the rest of the text to a
/// ``SegmentStream`` from its start.
struct CellStream: IteratorProtocol {
  private let width: Int
  private let byteCount: Int
  private var scanner: BreakScanner
  /// The lines closed from the window read last, handed out from `handedOut`.
  private var lines: [LineLayout.Line] = []
  private var handedOut = 0
  private var isFinished = false
  /// The rest of the text from the start of a line longer than a window.
  private var rest: SegmentStream?
  private var hasRest = false
  /// Where ``rest`` starts, once the lines before it are handed out.
  private var restStart: Int?
  private let fallback: (Int) -> SegmentStream
  private var line = OpenLine()
  /// The open line's content width and end after each entry of the window, for a break before the next.
  private var after: [(x: Int, end: Int)] = []
  private var opportunities = Opportunities()

  /// Whether the stream lays out `text` as a ``SegmentStream`` would: cells of the legacy profile, the Unicode rules,
  /// and no tab or soft hyphen in the text.
  static func applies(to text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker) -> Bool {
    guard (measurer as? TerminalCells)?.profile == .legacy, breaker.rules == .unicode else { return false }
    return text.string.withUTF8Buffer { bytes in
      guard bytes.offset(of: 0x09) == nil else { return false }
      // U+00AD is C2 AD; AD alone is the last byte of many other code points.
      var from = 0
      while let found = bytes.offset(of: 0xAD, from: from) {
        if found > 0 && bytes[found - 1] == 0xC2 { return false }
        from = found + 1
      }
      return true
    }
  }

  /// The lines of `text` at `width`; the text must be one that the stream
  /// ``applies(to:measurer:breaker:)`` to.
  init(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: LineWidth) {
    self.width = width.units
    byteCount = text.string.utf8.count
    scanner = BreakScanner(text.string, from: 0, rules: breaker.rules, findsBreaks: false)
    fallback = { SegmentStream(text, measurer: measurer, breaker: breaker, width: width, from: $0) }
  }

  mutating func next() -> LineLayout.Line? {
    // A flag, not the optional, says whether the rest is on: asking the optional copies the stream at every line.
    if hasRest { return rest!.next() }
    while handedOut == lines.count {
      lines.removeAll(keepingCapacity: true)
      handedOut = 0
      if let restStart {
        rest = fallback(restStart)
        hasRest = true
        return rest!.next()
      }
      if isFinished { return nil }
      readWindow()
    }
    defer { handedOut += 1 }
    return lines[handedOut]
  }

  /// The open line: its start (-1 between lines), the width and end of its content, and the width of the spaces
  /// that hang after it.
  private struct OpenLine {
    var start = -1
    var x = 0
    var contentEnd = 0
    var pending = 0
    var hasContent = false
    /// Whether spaces are content on the line: until anything else is placed on it.
    ///
    /// A line never starts with spaces that hang: it starts at an opportunity (never before a space, LB7), at the start
    /// of a paragraph (whose first segment, of spaces before an opportunity, is drawn and counts, as in
    /// ``SegmentFitter``), or at a cluster of a segment wider than a line, whose spaces before more content are
    /// content.
    var spacesAreContent = true

    mutating func open(at offset: Int) {
      (start, x, contentEnd, pending, hasContent, spacesAreContent) = (offset, 0, offset, 0, false, true)
    }

    @inline(never)
    mutating func close(at end: Int, into lines: inout [LineLayout.Line]) {
      lines.append(LineLayout.Line(range: start..<end, contentEnd: contentEnd, width: x, isHyphenated: false))
      start = -1
    }

    /// Places a cluster of content (`advance` cells, from `offset` to `end`) as ``SegmentFitter``'s emergency breaks
    /// do: on a new line if it does not fit after content, never leaving a line empty.
    mutating func place(at offset: Int, _ end: Int, _ advance: Int, width: Int, into lines: inout [LineLayout.Line]) {
      if hasContent, offset > start, x + advance > width {
        close(at: offset, into: &lines)
        open(at: offset)
      }
      (x, hasContent, contentEnd) = (x + advance, true, end)
    }
  }

  /// Lays out the clusters of the next window, or closes the last line at the end of the text.
  private mutating func readWindow() {
    guard scanner.scanWindow() else {
      if line.start >= 0 { line.close(at: byteCount, into: &lines) }
      isFinished = true
      return
    }
    let count = scanner.clusterCount
    if after.count < count { after = [(x: Int, end: Int)](repeating: (0, 0), count: count) }
    opportunities.forget()
    // An open line starts the window (it was read again from its start).
    if line.start >= 0 { line.open(at: line.start) }
    let width = self.width
    let clusterArray = scanner.clusters
    let scalarArray = scanner.scalars
    let window = (clusterCount: count, scalarCount: scanner.scalarCount)
    // The figures after each cluster are moved out of `self` while the loop writes them, and back after it (the
    // open line, the lines and the opportunities are handed to it in place: moved out and back too, each window
    // retained and released a dozen arrays).
    var after = self.after
    self.after = []
    defer { self.after = after }
    let lineStartEntry = clusterArray.withUnsafeBufferPointer { clusters in
      scalarArray.withUnsafeBufferPointer { scalars in
        after.withUnsafeMutableBufferPointer { after in
          Self.place(
            count, clusters, scalars, after, width: width, window: window, line: &line, lines: &lines,
            opportunities: &opportunities)
        }
      }
    }
    // A line still open is read again from its start with the next window; one that started the window is longer
    // than a window, and the rest of the text goes to the general stream.
    guard line.start >= 0, scanner.offset < byteCount else { return }
    if lineStartEntry == 0 && line.start == clusterArray[0].offset {
      restStart = line.start
      return
    }
    scanner.restart(at: line.start)
  }

  /// The loop of ``readWindow()``: places the window's `count` entries on lines, and returns the entry the open line
  /// starts in.
  ///
  /// A function of its own, its state in local variables and its buffers as arguments: in the closures that hand it the
  /// buffers, the open line's figures, captured, were read from memory and written back at every entry.
  private static func place(
    _ count: Int, _ clusters: UnsafeBufferPointer<BreakScanner.ScannedCluster>,
    _ scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, _ after: UnsafeMutableBufferPointer<(x: Int, end: Int)>,
    width: Int, window: (clusterCount: Int, scalarCount: Int),
    line openLine: inout OpenLine, lines: inout [LineLayout.Line], opportunities: inout Opportunities
  ) -> Int {
    var line = openLine
    defer { openLine = line }
    var lineStartEntry = 0
    var k = 0
    while k < count {
      let entry = clusters[k]
      let end = clusters[k + 1].offset
      if line.start < 0 {
        line.open(at: entry.offset)
        lineStartEntry = k
      }
      var advance = Int(entry.cells)
      let isSpace = entry.cells == BreakScanner.ScannedCluster.space
      if isSpace {
        if !line.spacesAreContent {
          line.pending += 1
          after[k] = (line.x, line.contentEnd)
          k += 1
          continue
        }
        advance = 1
      } else if advance < 0 {
        let (first, last) = (entry.scalar, clusters[k + 1].scalar)
        let second = last - first > 1 ? scalars[first + 1].scalar : nil
        if Cluster.kind(of: scalars[first].scalar.value, second: second).isHardLineBreak {
          line.close(at: end, into: &lines)
          k += 1
          continue
        }
        advance = TerminalCells.legacyWidth(ofScanned: scalars, first..<last)
      }
      let total = (line.hasContent ? line.x + line.pending : line.x) + advance
      if total <= width {
        (line.x, line.pending, line.hasContent, line.contentEnd) = (total, 0, true, end)
        if !isSpace { line.spacesAreContent = false }
        after[k] = (line.x, line.contentEnd)
        k += 1
        continue
      }
      // The cluster does not fit: the line ends at the last opportunity on it, and what follows is placed
      // again.
      if let b = opportunities.last(after: lineStartEntry, upTo: k, clusters, scalars, window) {
        lines.append(
          LineLayout.Line(
            range: line.start..<clusters[b].offset, contentEnd: after[b - 1].end, width: after[b - 1].x,
            isHyphenated: false))
        line.open(at: clusters[b].offset)
        (lineStartEntry, k) = (b, b)
        continue
      }
      // None: the line's first segment is wider than the line, and is placed cluster by cluster, its spaces too.
      lineStartEntry = Self.placeClusters(
        of: k, after: lineStartEntry, advance, clusters, scalars, width: width, line: &line, lines: &lines)
      after[k] = (line.x, line.contentEnd)
      k += 1
    }
    return lineStartEntry
  }

  /// Places entry `k`, which does not fit, and the spaces before it cluster by cluster, as ``SegmentFitter``'s emergency
  /// breaks place a segment wider than a line; the entry the line then starts in. (Out of line, as the search for
  /// an opportunity is; it changes the line in place.)
  @inline(never)
  private static func placeClusters(
    of k: Int, after lineStartEntry: Int, _ advance: Int, _ clusters: UnsafeBufferPointer<BreakScanner.ScannedCluster>,
    _ scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, width: Int, line: inout OpenLine,
    lines: inout [LineLayout.Line]
  ) -> Int {
    let entry = clusters[k]
    let end = clusters[k + 1].offset
    for space in (k - line.pending)..<k {
      line.place(at: clusters[space].offset, clusters[space + 1].offset, 1, width: width, into: &lines)
    }
    line.pending = 0
    if BreakScanner.isLetterRun(scalars, first: entry.scalar, count: clusters[k + 1].scalar - entry.scalar) {
      var offset = entry.offset
      for letter in entry.scalar..<clusters[k + 1].scalar {
        let next = offset + UTF8.width(scalars[letter].scalar)
        line.place(at: offset, next, 1, width: width, into: &lines)
        offset = next
      }
    } else {
      line.place(at: entry.offset, end, advance, width: width, into: &lines)
    }
    if entry.cells != BreakScanner.ScannedCluster.space { line.spacesAreContent = false }
    // The entry the line now starts in (a line may start inside a word of letters).
    var first = lineStartEntry
    while first < k && clusters[first + 1].offset <= line.start { first += 1 }
    return first
  }

  /// The break opportunities of a window, decided where a line must end.
  private struct Opportunities {
    /// The actions of UAX #14 over the stretch of the window that ``slowKind(before:_:_:_:)`` read last: valid for
    /// the boundaries from `cache.validFrom` to `cache.end` (code point indices in the window).
    private var actions: [UAX14.Action] = []
    private var scratch = UAX14.Scratch()
    private var cache = (start: 0, validFrom: Int.max, end: 0)
    private let rows = UAX14.PairTable.shared.rows

    /// How many clusters ``slowKind(before:_:_:_:)`` looks back for a place to start, and ahead for two units,
    /// before it reads the whole window instead.
    private static var reach: Int { 64 }

    /// Forgets the stretch read (a new window).
    mutating func forget() { cache = (0, Int.max, 0) }

    /// The last entry after `first` and up to `last` before which a line may break, if any. (Out of line: inlined,
    /// its paths filled the registers of the loop that asks, once a line, and its state was kept in memory.)
    @inline(never)
    mutating func last(
      after first: Int, upTo last: Int, _ clusters: UnsafeBufferPointer<BreakScanner.ScannedCluster>,
      _ scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, _ window: (clusterCount: Int, scalarCount: Int)
    ) -> Int? {
      var j = last
      while j > first {
        if kind(before: j, clusters, scalars, window) != .none { return j }
        j -= 1
      }
      return nil
    }

    /// What may happen before entry `j` of the window (not its first): from the pair table when the units around
    /// the boundary are plain (a letter, a word of letters, an ideograph, a digit, punctuation of one code point,
    /// spaces), as ``UAX14`` decides it with the two units alone; else ``slowKind(before:_:_:_:)``.
    private mutating func kind(
      before j: Int, _ clusters: UnsafeBufferPointer<BreakScanner.ScannedCluster>,
      _ scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, _ window: (clusterCount: Int, scalarCount: Int)
    ) -> BreakScanner.Kind {
      let entry = clusters[j]
      if entry.cells == BreakScanner.ScannedCluster.space { return .none }  // LB7 (a hard break before closed the line)
      guard entry.cells >= 0, let after = Self.plainClass(scalars[entry.scalar]) else {
        return slowKind(before: j, clusters, scalars, window)
      }
      // The unit before the boundary, past any spaces (the rules that look past them read it).
      var i = j - 1
      while i >= 0 && clusters[i].cells == BreakScanner.ScannedCluster.space { i -= 1 }
      guard i >= 0, clusters[i].cells >= 0, let before = Self.plainClass(scalars[clusters[i + 1].scalar - 1]) else {
        return slowKind(before: j, clusters, scalars, window)
      }
      let row = i < j - 1 ? UAX14.PairTable.afterSpacesRow(before) : UAX14.PairTable.entriesRow(before)
      let pair = rows[row | Int(after.rawValue)]
      guard pair != UAX14.PairTable.contextual else { return slowKind(before: j, clusters, scalars, window) }
      return BreakScanner.kind(before: unsafeBitCast(pair, to: UAX14.Action.self))
    }

    /// The class of a code point that is a unit of its own to the pair table (not a mark or a joiner, which LB9
    /// joins to the unit before).
    private static func plainClass(_ scalar: BreakScanner.ScannedScalar) -> LineBreakClass? {
      let properties = UnicodeProperties(raw: scalar.properties)
      let resolved = properties.resolvedLineBreak
      return resolved == .cm || resolved == .zwj || properties.lineBreak == .sa ? nil : resolved
    }

    /// Whether a code point is of a script that a dictionary breaks (Line_Break SA).
    private static func isDictionaryScript(_ scalar: BreakScanner.ScannedScalar) -> Bool {
      scalar.scalar.value >= 0x0E00 && UnicodeProperties(raw: scalar.properties).lineBreak == .sa
    }

    /// What may happen before entry `j` of the window, by UAX #14 over the window's code points from the nearest
    /// place before it where no rule looks further back (``BreakScanner``'s safe cuts: the last two letters of a
    /// word, two plain clusters, a hard line break, or the window's start) to two units after its own (the rules
    /// look ahead two units at most).
    private mutating func slowKind(
      before j: Int, _ clusters: UnsafeBufferPointer<BreakScanner.ScannedCluster>,
      _ scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, _ window: (clusterCount: Int, scalarCount: Int)
    ) -> BreakScanner.Kind {
      let target = clusters[j].scalar
      // Two units after the boundary's: clusters that start with a mark or a joiner (a control is one to UAX #14)
      // belong to the unit before them, so as many clusters as it takes to meet two that start a unit of their own
      // (beyond reach, the rest of the window).
      var (last, units) = (j + 1, 0)
      while last < window.clusterCount && units < 2 && last - j <= Self.reach {
        if Self.plainClass(scalars[clusters[last].scalar]) != nil { units += 1 }
        last += 1
      }
      var end = units == 2 ? clusters[last].scalar : window.scalarCount
      // A run of a dictionary's script is read whole, for ICU to find its words (it starts after a safe place:
      // none lies inside such a run).
      while end < window.scalarCount, end > 0, Self.isDictionaryScript(scalars[end - 1]),
        Self.isDictionaryScript(scalars[end])
      {
        end += 1
      }
      if !(cache.validFrom <= target && end <= cache.end) {
        var (start, validFrom) = (0, 0)
        var i = j - 1
        while i > 0 {
          guard j - i <= Self.reach else {
            // No place to start within reach (`a-a-a-…`, a run of controls): the whole window, once, as the general
            // stream reads it. (A stretch back to the window's start for each line made such a window quadratic.)
            (start, validFrom, end) = (0, 0, window.scalarCount)
            break
          }
          let count = clusters[i + 1].scalar - clusters[i].scalar
          if BreakScanner.isLetterRun(scalars, first: clusters[i].scalar, count: count) {
            (start, validFrom) = (clusters[i + 1].scalar - 2, clusters[i + 1].scalar)
            break
          }
          if BreakScanner.isSafeCut(before: i, clusters, window.clusterCount, scalars, window.scalarCount) {
            (start, validFrom) = (clusters[i - 1].scalar, clusters[i + 1].scalar)
            break
          }
          if Cluster.startsHardLineBreak(scalars[clusters[i].scalar].scalar.value) {
            (start, validFrom) = (clusters[i].scalar, clusters[i + 1].scalar)
            break
          }
          i -= 1
        }
        let stretch = UnsafeBufferPointer(rebasing: scalars[start..<end])
        UAX14.breaks(stretch, into: &actions, scratch: &scratch)
        DictionaryBreaks.allowWordBreaks(in: stretch, actions: &actions)
        cache = (start, validFrom, end)
      }
      return BreakScanner.kind(before: actions[target - cache.start])
    }
  }
}
