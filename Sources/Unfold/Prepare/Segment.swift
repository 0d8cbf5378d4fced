/// The text between two break opportunities, measured once: what layout places as a unit.
///
///     "quick␠␠" + next segment        start ──content── contentEnd ──spaces── spaceEnd ──newline── end
///
/// Trailing spaces hang: they count only when another segment follows on the same line.
struct Segment: Hashable, Sendable {
  var start: Int
  /// The end of the content: everything but trailing spaces, tabs and a newline.
  var contentEnd: Int
  /// The end of the trailing spaces and tabs.
  var spaceEnd: Int
  /// The start of the next segment.
  var end: Int
  /// The width of the content, standing at the start of a line.
  var contentWidth: Int
  /// The width of the trailing spaces; only meaningful without tabs.
  var spaceWidth: Int
  /// Whether a tab makes widths depend on the position on the line.
  var hasTab: Bool
  /// Whether a line must end after this segment.
  var isMandatoryBreak: Bool
  /// Whether the segment ends with a soft hyphen: a line that breaks after it shows a hyphen.
  var endsWithSoftHyphen: Bool

  var hasContent: Bool { contentEnd > start }
}

/// Cuts a styled text into segments at the break opportunities of a ``LineBreaker``, lazily, a window of the
/// ``BreakScanner`` at a time: the clusters and opportunities it found in one pass are measured here, in one
/// loop per window over its arrays.
struct Segmenter: IteratorProtocol {
  private let measurer: any TextMeasurer
  /// Whether the measurer is ``TerminalCells`` with the legacy profile, whose widths are computed here from the
  /// scanned properties, with no style to look up.
  private let isLegacyCells: Bool
  private var scanner: BreakScanner
  /// The segments of the window read last that are complete, `ready[readyIndex..<readyCount]` still to hand out:
  /// the array keeps its longest length from window to window (no allocation and type-metadata lookup per
  /// window), so entries past them are stale.
  private var ready: [Segment] = []
  private var readyCount = 0
  private var readyIndex = 0
  /// The segment that the next window may continue (a long paragraph is cut between clusters that may
  /// not break).
  private var open: Segment?
  /// The width of the open segment so far.
  private var openWidth = 0
  private var runs: RunCursor
  /// Measures the words that a font shapes as a whole; `nil` for terminal cells.
  private var shaper: WordShaper?
  /// Where the next cluster stands on a line that would hold the whole text (for tabs).
  private var x = 0

  /// The length of the text in UTF-8 bytes.
  var byteCount: Int { scanner.byteCount }

  /// The segments of `text` from the UTF-8 offset `start`, the start of a line (or of the text).
  init(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, from start: Int = 0) {
    self.measurer = measurer
    isLegacyCells = (measurer as? TerminalCells)?.profile == .legacy
    let boxStarts = BreakScanner.readsBoxes(breaker.rules) ? text.runRanges.dropFirst().map(\.range.lowerBound) : []
    scanner = BreakScanner(text.string, from: start, rules: breaker.rules, boxStarts: boxStarts)
    runs = RunCursor(text, at: start)
    shaper = WordShaper(text, measurer: measurer)
  }

  mutating func next() -> Segment? {
    while readyIndex == readyCount {
      (readyIndex, readyCount) = (0, 0)
      guard scanner.scanWindow() else {
        defer { open = nil }
        return open
      }
      measureWindow()
    }
    defer { readyIndex += 1 }
    return ready[readyIndex]
  }

  /// Hands the segments of the next window to `body`, where they were made (no copy), the last one of the text
  /// with the last window: what ``next()`` hands out one by one.
  ///
  /// `false` once every segment was handed out.
  mutating func nextWindow(_ body: (UnsafeBufferPointer<Segment>) -> Void) -> Bool {
    if readyIndex == readyCount {
      (readyIndex, readyCount) = (0, 0)
      while readyCount == 0 {
        guard scanner.scanWindow() else {
          guard let last = open else { return false }
          open = nil
          // From an array, whose buffer holds a whole stride: a pointer to the value alone is its size, and
          // copying the buffer reads a stride (AddressSanitizer: a stack buffer overflow).
          [last].withUnsafeBufferPointer(body)
          return true
        }
        measureWindow()
      }
    }
    let range = readyIndex..<readyCount
    (readyIndex, readyCount) = (0, 0)
    ready.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    return true
  }

  /// Every segment of the text, a window's worth at a time: what ``next()`` hands out one by one, into an
  /// array reserved from the first window's segments per byte, not grown by doubling.
  mutating func all() -> [Segment] {
    var segments: [Segment] = []
    segments.append(contentsOf: ready[readyIndex..<readyCount])
    (readyIndex, readyCount) = (0, 0)
    while scanner.scanWindow() {
      measureWindow()
      if segments.capacity == 0, readyCount > 0 {
        let estimate = readyCount * scanner.byteCount / max(1, scanner.offset)
        segments.reserveCapacity(min(estimate + estimate / 8 + 16, scanner.byteCount + 1))
      }
      segments.append(contentsOf: ready[..<readyCount])
      readyCount = 0
    }
    if let open { segments.append(open) }
    open = nil
    return segments
  }

  /// Measures the clusters of the scanner's window and cuts them into segments.
  private mutating func measureWindow() {
    let clusters = scanner.clusters
    let scalars = scanner.scalars
    let actions = scanner.actions
    let count = scanner.clusterCount
    let firstKind = scanner.firstKind
    clusters.withUnsafeBufferPointer { clusters in
      scalars.withUnsafeBufferPointer { scalars in
        actions.withUnsafeBufferPointer { actions in measure(count, clusters, scalars, actions, firstKind) }
      }
    }
  }

  /// The loop of ``measureWindow()``, over the scanner's arrays without bounds checks; what may happen before
  /// a cluster is ``BreakScanner/kind(at:)``, read here from the actions and the first cluster's kind.
  private mutating func measure(
    _ clusterCount: Int, _ clusters: UnsafeBufferPointer<BreakScanner.ScannedCluster>,
    _ scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, _ actions: UnsafeBufferPointer<UAX14.Action>,
    _ firstKind: BreakScanner.Kind
  ) {
    let isLegacyCells = self.isLegacyCells
    let (open, openWidth, start) = (self.open, self.openWidth, self.x)
    var shaper = self.shaper
    defer { self.shaper = shaper }
    // What the loop leaves for the next window, written once after it.
    var after: (open: Segment?, width: Int, x: Int) = (nil, 0, 0)
    // The window's segments are written through a buffer, with room for one per cluster (the most there can be)
    // and the one left open: appended one by one, each asked whether the array's storage was shared and had
    // room. The array is moved out of `self` while it is written.
    precondition(readyCount == 0, "the segments of the window before are handed out")
    var ready: [Segment] = []
    swap(&ready, &self.ready)
    Self.makeRoom(clusterCount + 1, in: &ready)
    readyCount = ready.withUnsafeMutableBufferPointer { ready in
      // The open segment is written in place, at `ready[made]`, and handing it out is counting it: made in a
      // variable and copied out whole, it would be read at once after being written field by field, and wait for
      // those stores. The loop's state is the closure's own: captured from the function, it would be read from
      // and written to memory at every use.
      var made = 0
      var isOpen = open != nil
      if let open { ready[0] = open }
      var width = openWidth
      var x = start
      // Where the plain cells read since the segment was last written end (-1: none): they are
      // written into it at once, before anything else changes it (writing six fields per character was a
      // fifth of this loop).
      var contentEnd = -1
      var k = 0
      defer {
        if contentEnd >= 0 { ready[made].addContent(end: contentEnd, width: width) }
        after = (isOpen ? ready[made] : nil, width, x)
      }
      while k < clusterCount {
        defer { k += 1 }
        let cluster = clusters[k]
        let end = clusters[k + 1]
        let breakBefore = k == 0 ? firstKind : BreakScanner.kind(before: actions[cluster.scalar])
        let first = scalars[cluster.scalar].scalar
        let count = end.scalar - cluster.scalar
        // A code point of its own that is content in cells (a printable ASCII character but the space, a letter, an
        // ideograph: most clusters of most text), or a run of letters, with its cells at hand: what the general
        // path below finds for it.
        let plainCells = isLegacyCells ? Int(cluster.cells) : -1
        let isPlain = plainCells >= 0
        if contentEnd >= 0, !isPlain || breakBefore != .none {
          ready[made].addContent(end: contentEnd, width: width)
          contentEnd = -1
        }
        if isOpen, breakBefore != .none {
          ready[made].isMandatoryBreak = breakBefore == .mandatory
          made += 1
          isOpen = false
        }
        if !isOpen {
          ready[made] = Segment(at: cluster.offset)
          isOpen = true
          width = 0
        }
        if isPlain {
          (k, contentEnd) = Self.addPlainStretch(
            from: k, cells: plainCells, clusterCount, clusters, actions, ready, made: &made, width: &width, x: &x)
          continue
        }
        let kind = Cluster.kind(of: first.value, second: count > 1 ? scalars[cluster.scalar + 1].scalar : nil)
        let advance = self.advance(of: cluster, end: end, kind: kind, x: x, scalars, shaper: &shaper)
        x += advance
        width += advance
        ready[made].add(end: end.offset, kind: kind, width: width)
      }
      return made
    }
    swap(&ready, &self.ready)
    self.open = after.open
    self.openWidth = after.width
    self.x = after.x
  }
  /// Adds what follows a cluster `k` of plain cells, `cells` wide, in a loop of its own for as long as it is plain
  /// cells or a space, as the general path (``advance(of:end:kind:x:_:shaper:)``) would add it: the rest of a
  /// word, the spaces after it, and after an opportunity the next segment (the next word, the next ideograph),
  /// closed and opened here (a word and its space, or an ideograph, went through the whole of that path).
  ///
  /// Returns the last cluster added, and where the content read since `ready[made]` was last written ends (-1:
  /// none), which the caller writes into it before anything else changes it.
  @inline(__always)
  private static func addPlainStretch(
    from k: Int, cells plainCells: Int, _ clusterCount: Int,
    _ clusters: UnsafeBufferPointer<BreakScanner.ScannedCluster>, _ actions: UnsafeBufferPointer<UAX14.Action>,
    _ ready: UnsafeMutableBufferPointer<Segment>, made: inout Int, width: inout Int, x: inout Int
  ) -> (last: Int, contentEnd: Int) {
    var last = k
    var lastEnd = clusters[k + 1]
    var cells = plainCells  // the cells of content read since the segment was last written
    var hasContent = true  // whether content was read since then (a space writes it)
    // The content is written in two branches below, before a space and before a new segment, rather than
    // in one branch shared by both.
    while last + 1 < clusterCount {
      let next = clusters[last + 1]
      let nextEnd = clusters[last + 2]
      let nextCells = Int(next.cells)
      let isOpportunity = actions[next.scalar] != .prohibited
      if nextCells < 0 {
        // A space (one cell) that no opportunity precedes hangs after the content: anything else goes to
        // the general path.
        guard !isOpportunity, next.cells == BreakScanner.ScannedCluster.space else { break }
        if hasContent {
          x += cells
          width += cells
          ready[made].addContent(end: lastEnd.offset, width: width)
          (cells, hasContent) = (0, false)
        }
        x += 1
        width += 1
        ready[made].add(end: nextEnd.offset, kind: Cluster.space, width: width)
        (last, lastEnd) = (last + 1, nextEnd)
        continue
      }
      if isOpportunity {
        if hasContent {
          x += cells
          width += cells
          ready[made].addContent(end: lastEnd.offset, width: width)
        }
        ready[made].isMandatoryBreak = false
        made += 1
        // The new segment's start and flags: its content is written before it is handed out (addContent),
        // which sets the rest.
        ready[made].start = next.offset
        ready[made].hasTab = false
        ready[made].isMandatoryBreak = false
        (width, cells) = (0, 0)
      }
      cells += nextCells
      hasContent = true
      (last, lastEnd) = (last + 1, nextEnd)
    }
    x += cells
    width += cells
    return (last, hasContent ? lastEnd.offset : -1)
  }

  /// The advance of a cluster that is not plain cells, standing at `x` on the line: a tab's, else the
  /// measurer's (or the shaper's, for a word the font shapes as a whole), a run of letters measured letter by
  /// letter, each in its own style.
  @inline(__always)
  private mutating func advance(
    of cluster: BreakScanner.ScannedCluster, end: BreakScanner.ScannedCluster, kind: Cluster.Kind, x: Int,
    _ scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, shaper: inout WordShaper?
  ) -> Int {
    let first = scalars[cluster.scalar].scalar
    let count = end.scalar - cluster.scalar
    if kind.isTab { return measurer.tabAdvance(at: x) }
    if isLegacyCells { return TerminalCells.legacyWidth(ofScanned: scalars, cluster.scalar..<end.scalar) }
    if count == 1 {
      let style = runs.style(at: cluster.offset)
      if let shaped = shaper?.advance(ofClusterAt: cluster.offset, startingWith: first) { return shaped }
      return first.isASCII
        ? measurer.advance(ofASCII: UInt8(first.value), style: style) : measurer.advance(ofScalar: first, style: style)
    }
    if BreakScanner.isLetterRun(scalars, first: cluster.scalar, count: count) {
      var sum = 0
      var offset = cluster.offset
      for index in 0..<count {
        let letter = scalars[cluster.scalar + index].scalar
        let style = runs.style(at: offset)
        if let shaped = shaper?.advance(ofClusterAt: offset, startingWith: letter) {
          sum += shaped
        } else {
          sum +=
            letter.isASCII
            ? measurer.advance(ofASCII: UInt8(letter.value), style: style)
            : measurer.advance(ofScalar: letter, style: style)
        }
        offset += UTF8.width(letter)
      }
      return sum
    }
    if let shaped = shaper?.advance(ofClusterAt: cluster.offset, startingWith: first) { return shaped }
    return measurer.advance(
      ofScalars: scalars[cluster.scalar..<end.scalar].lazy.map(\.scalar), style: runs.style(at: cluster.offset))
  }

  /// Makes `ready` at least `count` segments long, with placeholders written in one loop of stores (appended as
  /// a repeated element, each would go through a generic copy).
  private static func makeRoom(_ count: Int, in ready: inout [Segment]) {
    guard ready.count < count else { return }
    ready = [Segment](unsafeUninitializedCapacity: count) { buffer, written in
      buffer.initialize(repeating: Segment(at: 0))
      written = buffer.count
    }
  }
}

extension Segment {
  /// Adds a cluster of content without a tab or a soft hyphen, which ends at `end`: ``add(end:kind:width:)``
  /// for a cluster of no kind.
  @inline(__always)
  mutating func addContent(end: Int, width: Int) {
    self.end = end
    endsWithSoftHyphen = false
    contentEnd = end
    spaceEnd = end
    contentWidth = width
    spaceWidth = 0
  }

  /// An empty segment at `offset`, to add clusters to.
  init(at offset: Int) {
    self.init(
      start: offset, contentEnd: offset, spaceEnd: offset, end: offset, contentWidth: 0, spaceWidth: 0, hasTab: false,
      isMandatoryBreak: false, endsWithSoftHyphen: false)
  }

  /// Adds the next cluster, which ends at `end`; `width` is the segment's width with it.
  @inline(__always)
  mutating func add(end: Int, kind: Cluster.Kind, width: Int) {
    if kind.isHardLineBreak {
      self.end = end  // only the end of a segment holds a hard line break
    } else if kind.isSpace {
      self.end = end
      spaceEnd = end
      spaceWidth = width - contentWidth
    } else {
      addContent(end: end, width: width)
    }
    if kind.isTab { hasTab = true }
    endsWithSoftHyphen = kind.isSoftHyphen
  }

}
