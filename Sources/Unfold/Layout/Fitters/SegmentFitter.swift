/// Where a ``SegmentFitter`` puts the lines it closes: an array of them, or only their number (``LineCounter``).
protocol LineSink {
  /// How many lines it holds.
  var count: Int { get }
  mutating func append(_ line: LineLayout.Line)
  /// Appends `count` lines, read from `lines` by a sink that keeps them (``keepsLines``).
  mutating func append(_ count: Int, from lines: UnsafePointer<LineLayout.Line>?)
  mutating func reserveCapacity(_ minimumCapacity: Int)
  /// Whether it keeps the lines given to it (a sink that only counts them need not be given them).
  static var keepsLines: Bool { get }
}

extension Array: LineSink where Element == LineLayout.Line {
  static var keepsLines: Bool { true }
  mutating func append(_ count: Int, from lines: UnsafePointer<LineLayout.Line>?) {
    append(contentsOf: UnsafeBufferPointer(start: lines, count: count))
  }
}

/// A sink that counts the lines and keeps none (``PreparedText/lineCount(width:lineLimit:)``).
struct LineCounter: LineSink {
  private(set) var count = 0
  mutating func append(_ line: LineLayout.Line) { count += 1 }
  mutating func append(_ count: Int, from lines: UnsafePointer<LineLayout.Line>?) { self.count += count }
  func reserveCapacity(_ minimumCapacity: Int) {}
  static var keepsLines: Bool { false }
}

/// Places segments on lines greedily: a segment goes on the current line if its content fits after the
/// hanging spaces of the one before; otherwise it starts a new line; a segment wider than a whole line is
/// broken at grapheme boundaries.
///
/// A line that ends after a soft hyphen shows a hyphen, which must fit too: when it does not, the line breaks at the
/// opportunity before instead.
struct SegmentFitter<Lines: LineSink> {
  let text: StyledText
  let measurer: any TextMeasurer
  let width: Int
  let hyphenWidth: Int
  /// The fit rule near the width, made when asked (kept, it would copy the text and the measurer into every
  /// layout; it is asked only where the sum cannot decide).
  private var fit: FitRule { FitRule(text: text, measurer: measurer, width: width, itemBreaks: itemBreaks) }
  /// Where the measurer's target starts an inline item inside a run of one style.
  private let itemBreaks: ItemBreaks
  /// The measurer's item rounding, read once (see ``FitRule/decide(_:width:rounding:)``).
  private let rounding: Int
  /// The closed lines (or their number).
  private(set) var lines: Lines

  /// The start of the open line, or `nil` between lines.
  private var lineStart: Int?
  /// What is placed on the open line.
  private var state = State()
  /// The last segments with content placed on the open line that end with a soft hyphen, and the state
  /// before each: a line that must end after a soft hyphen whose hyphen does not fit gives them back one by
  /// one, and never gives back a segment that does not end with one, so only the trailing run of them is
  /// kept (saving every segment's state would be most of the cost of a relayout).
  private var placed: [(segment: Segment, before: State)] = []
  /// How many segments with content are placed on the open line.
  private var placedCount = 0

  /// The open line's placed content.
  private struct State {
    /// The width of the content placed on the line.
    var x = 0
    var contentEnd = 0
    var hasContent = false
    /// The trailing spaces of the last segment placed: they count only if more content follows.
    var spaces: Range<Int> = 0..<0
    var spacesWidth = 0
    var spacesHaveTab = false
    /// Whether the content ends with a soft hyphen (a break after it shows a hyphen).
    var endsWithSoftHyphen = false
    /// How many of ``SegmentFitter/breakOffsets`` are taken up to here, earlier lines' included (kept
    /// outside, so that saving a state copies no array).
    var breakOffsetCount = 0
  }

  /// Break opportunities inside the lines' content: the starts of the segments after the first of each line
  /// (none when lines do not keep theirs).
  private(set) var breakOffsets: [Int] = []
  /// Where the open line's break offsets start in ``breakOffsets``.
  private var lineBreakOffsetStart = 0

  /// Whether lines keep their break offsets.
  private let recordsBreakOffsets: Bool

  /// A fitter of lines of `width` that closes them into `lines`; `hyphenWidth` is the measurer's width of `-`,
  /// and `itemBreaks` the text's for the measurer, found here if not given.
  init(
    text: StyledText, measurer: any TextMeasurer, width: LineWidth, recordsBreakOffsets: Bool = true,
    hyphenWidth: Int? = nil, itemBreaks: ItemBreaks? = nil, lines: Lines
  ) {
    self.itemBreaks = itemBreaks ?? ItemBreaks(text, measurer: measurer)
    self.lines = lines
    self.recordsBreakOffsets = recordsBreakOffsets
    self.text = text
    self.measurer = measurer
    self.width = width.units
    self.hyphenWidth = hyphenWidth ?? measurer.width(of: "-")
    self.rounding = measurer.itemRounding
  }

  var hasOpenLine: Bool { lineStart != nil }

  /// Adds a segment unless the layout already holds `limit` lines; whether the layout goes on (`false` once
  /// it knows that the text needs more than `limit` lines).
  mutating func add(_ segment: Segment, lineLimit limit: Int) -> Bool {
    if lines.count >= limit { return false }
    add(segment)
    return !exceeds(limit)
  }

  /// Whether the lines so far, an open one included, are more than `limit`.
  func exceeds(_ limit: Int) -> Bool { lines.count > limit || (lines.count == limit && hasOpenLine) }

  /// Places `segments`, whose widths `runs` sums: plain runs a line at a time (``placeRuns(of:_:from:cursor:limit:)``),
  /// the other segments one by one.
  ///
  /// Whether it placed them all: `false` once the lines exceed `limit`.
  mutating func place(_ segments: [Segment], _ runs: RunningSums, lineLimit limit: Int) -> Bool {
    var cursor = runs.cursor()
    var i = 0
    while i < segments.count {
      i = placeRuns(of: segments, runs, from: i, cursor: &cursor, limit: limit)
      if exceeds(limit) { return false }
      guard i < segments.count else { break }
      guard add(segments[i], lineLimit: limit) else { return false }
      i += 1
    }
    return true
  }

  /// Places segments from `index` on for as long as their widths alone decide, with a search per line rather
  /// than an addition per segment (``RunningSums``); the index of the first segment it leaves to ``add(_:)``.
  ///
  /// Stops, with the open line as ``add(_:)`` would leave it, at a segment that is not plain, at a line too close to
  /// the width for the sum to decide, at a word wider than a line, or when the lines exceed `limit`.
  ///
  /// What it does per line is what ``add(_:)`` does per segment, which a test compares: the same lines.
  mutating func placeRuns(
    of segments: [Segment], _ runs: RunningSums, from index: Int, cursor: inout RunningSums.Cursor, limit: Int
  ) -> Int {
    guard !recordsBreakOffsets, placed.isEmpty, !state.spacesHaveTab, !state.endsWithSoftHyphen,
      width < RunningSums.widestLine
    else { return index }
    let runEnd = cursor.end(of: index)
    guard index < runEnd else { return index }
    if lineStart == nil {
      // A line starts at the segment: it must surely fit alone.
      guard lines.count < limit,
        FitRule.decide(Int(runs.contentWidths[index]), width: width, rounding: rounding) == true
      else { return index }
      open(at: runs.starts[index])
    } else if !state.hasContent {
      return index
    }
    let surelyFits = FitRule.surelyFitting(width: width, rounding: rounding)
    return placeRun(of: segments, runs, from: index, before: runEnd, surelyFits: surelyFits, limit: limit)
  }

  /// Places the plain segments from `index` up to `runEnd` on the open line and the lines after it; the index of
  /// the first segment not placed.
  ///
  /// The open line's last segment is found by ``RunningSums/lastFitting(from:before:upTo:near:)``; the lines after it,
  /// each starting with a segment that surely fits alone, by
  /// ``RunningSums/fill(_:_:cursor:before:surelyFits:tooWide:lineLimit:)``; the last one is left open as ``add(_:)``
  /// leaves it.
  private mutating func placeRun(
    of segments: [Segment], _ runs: RunningSums, from index: Int, before runEnd: Int, surelyFits: Int, limit: Int
  ) -> Int {
    guard let openStart = lineStart else { return index }
    let tooWide = width + rounding  // a sum above it surely does not fit (``FitRule/decide(_:width:rounding:)``)
    let expectedLines = runs.expectedLines(width: width)
    return runs.withBuffers { buffers in
      // The running sum where the open line starts, as if its content and hanging spaces were segments.
      let openBase =
        buffers.contentEnds[index] &- Int(buffers.contentWidths[index]) &- state.x
        &- (state.hasContent ? state.spacesWidth : 0)
      // The open line's end, once per run, from a guess of eight segments (its start is not a segment's, which the
      // width index's guess needs).
      let openLast = RunningSums.lastFitting(
        in: buffers.contentEnds, from: index, before: runEnd, upTo: openBase &+ surelyFits,
        near: index &+ 7)
      let next = openLast &+ 1
      guard lines.count < limit,
        RunningSums.startsLine(next, buffers, before: runEnd, after: openBase, surelyFits, tooWide)
      else {
        leaveOpen(first: index, last: openLast, base: openBase, segments, buffers)
        return next
      }
      // The open line ends before segment `next`, which starts a line; so do the segments that end the lines after.
      let end = buffers.starts[next]
      let placedAny = openLast >= index
      let openLine = LineLayout.Line(
        range: openStart..<end, contentEnd: placedAny ? end &- Int(buffers.trailingBytes[openLast]) : state.contentEnd,
        width: placedAny ? buffers.contentEnds[openLast] &- openBase : state.x, isHyphenated: false)
      var cursor = RunningSums.LineCursor(
        first: next, base: buffers.contentEnds[next] &- Int(buffers.contentWidths[next]),
        hardBreak: buffers.hardBreaks.partitionIndex { $0 >= next })
      lines.reserveCapacity(lines.count + min(limit - lines.count, runEnd - next + 1, expectedLines))
      lines.append(openLine)
      let last = RunningSums.fill(
        &lines, buffers, cursor: &cursor, before: runEnd, surelyFits: surelyFits, tooWide: tooWide, lineLimit: limit)
      open(at: buffers.starts[cursor.first])
      leaveOpen(first: cursor.first, last: last, base: cursor.base, segments, buffers)
      return last &+ 1
    }
  }

  /// Leaves the plain segments `first...last` (none if `last < first`) on the open line, whose running sum
  /// starts at `base`, as ``add(_:)`` leaves them: their spaces hang; a mandatory break after them (a hard
  /// break's gap) closes the line.
  private mutating func leaveOpen(
    first: Int, last: Int, base: Int, _ segments: [Segment], _ runs: RunningSums.Buffers
  ) {
    guard last >= first else { return }
    // A plain segment's spaces end where the next starts; they are as wide as the gap between its content and
    // the next one's start in the running sums.
    let (end, sumAfter) =
      last + 1 < runs.starts.count
      ? (runs.starts[last + 1], runs.contentEnds[last + 1] - Int(runs.contentWidths[last + 1]))
      : (segments[last].end, runs.endSum)
    let contentEnd = end - Int(runs.trailingBytes[last])
    let x = runs.contentEnds[last] - base
    if sumAfter - runs.contentEnds[last] >= RunningSums.hardBreakGap {
      close(at: end, contentEnd: contentEnd, width: x)
      return
    }
    placedCount += last - first + 1
    state.x = x
    state.contentEnd = contentEnd
    state.hasContent = true
    state.spaces = contentEnd..<end
    state.spacesWidth = sumAfter - runs.contentEnds[last]
  }

  /// Places `segments` one by one, as ``add(_:)`` does, the common case in a loop of its own over the open line's
  /// figures held in local variables: a segment with content and no tab or soft hyphen whose fit the sum decides,
  /// after content whose hanging spaces hold no tab and that does not end with a soft hyphen.
  ///
  /// Any other segment goes to ``add(_:)``. A stream of lines places each segment once: building ``RunningSums`` to
  /// search them a line at a time costs more than the search saves. (Lines that keep their break offsets go to
  /// ``add(_:)`` too.)
  mutating func addAll(_ segments: UnsafeBufferPointer<Segment>) {
    var k = 0
    while k < segments.count {
      guard !recordsBreakOffsets, !state.spacesHaveTab, !state.endsWithSoftHyphen else {
        add(segments[k])
        k += 1
        continue
      }
      // The open line's figures (its start -1 between lines; `next`, where the next content would stand, its
      // hanging spaces included), written back to ``state`` before a segment that goes to ``add(_:)``.
      var start = lineStart ?? -1
      var x = state.x
      var next = state.hasContent ? state.x + state.spacesWidth : state.x
      var hasContent = state.hasContent
      // The sums that surely fit, and above which none does (``FitRule/decide(_:width:rounding:)``).
      let (surelyFits, tooWide) = (FitRule.surelyFitting(width: width, rounding: rounding), width &+ rounding)
      var contentEnd = state.contentEnd
      var count = placedCount
      var placedLast = -1  // the last segment placed on the open line here
      while k < segments.count {
        let segment = segments[k]
        guard segment.contentEnd > segment.start, !segment.hasTab, !segment.endsWithSoftHyphen else { break }
        // A line opens (``open(at:)``'s figures, but the content end: only a line with content is closed).
        if start < 0 { (start, x, next, hasContent, count, placedLast) = (segment.start, 0, 0, false, 0, -1) }
        let total = next &+ segment.contentWidth
        if total > surelyFits {
          // A segment near the width (whose items decide), or that does not fit alone (cut into clusters), goes to
          // ``add(_:)``; one that does not fit after content starts a line (``breakLine(before:)`` without a soft
          // hyphen) and is placed again.
          guard total > tooWide, hasContent else { break }
          lines.append(
            LineLayout.Line(
              range: Range(uncheckedBounds: (start, segment.start)), contentEnd: contentEnd, width: x,
              isHyphenated: false))
          start = -1
          continue
        }
        count += 1
        x = total
        next = total &+ segment.spaceWidth
        hasContent = true
        contentEnd = segment.contentEnd
        placedLast = k
        k += 1
        if segment.isMandatoryBreak {
          lines.append(
            LineLayout.Line(
              range: Range(uncheckedBounds: (start, segment.end)), contentEnd: contentEnd, width: x,
              isHyphenated: false))
          start = -1
        }
      }
      let opened = start != (lineStart ?? -1)
      if opened {
        // A line was opened here (or the open one closed): ``open(at:)``'s state, then what was placed.
        lineStart = start < 0 ? nil : start
        lineBreakOffsetStart = breakOffsets.count
        state = State(contentEnd: start, spaces: start..<start, breakOffsetCount: lineBreakOffsetStart)
      }
      // A line opened here, or a segment placed without a soft hyphen, drops the soft-hyphen segments kept.
      if !placed.isEmpty, opened || placedLast >= 0 { placed.removeAll(keepingCapacity: true) }
      if placedLast >= 0 {
        let segment = segments[placedLast]
        state.x = x
        state.contentEnd = segment.contentEnd
        state.hasContent = true
        state.spaces = segment.contentEnd..<segment.spaceEnd
        state.spacesWidth = segment.spaceWidth
      }
      placedCount = count
      guard k < segments.count else { break }
      add(segments[k])
      k += 1
    }
  }

  mutating func add(_ segment: Segment) {
    if lineStart == nil { open(at: segment.start) }
    if !segment.hasContent {
      if !state.hasContent {
        // Spaces at the start of a line (of the text, or after a hard break) are drawn and count.
        place(segment.start..<segment.spaceEnd)
        state.spaces = state.contentEnd..<state.contentEnd
        state.spacesWidth = 0
        state.spacesHaveTab = false
      } else {
        // Spaces with no content after the content of the line: they hang with the ones before. Their start
        // is an opportunity inside the content if more content follows on the line.
        recordBreakOffset(segment.start)
        state.spaces = state.spaces.lowerBound..<segment.spaceEnd
        state.spacesWidth += segment.spaceWidth
        state.spacesHaveTab = state.spacesHaveTab || segment.hasTab
      }
    } else {
      let startX = state.hasContent ? state.x + pendingSpacesWidth() : state.x
      let contentWidth =
        segment.hasTab ? measure(segment.start..<segment.contentEnd, at: startX) : segment.contentWidth
      let total = startX + contentWidth
      let fitsLine =
        FitRule.decide(total, width: width, rounding: rounding)
        ?? fit.fits(lineStart ?? segment.start, segment.contentEnd, total: total)
      if fitsLine {
        if segment.endsWithSoftHyphen {
          placed.append((segment, state))
        } else if !placed.isEmpty {
          placed.removeAll(keepingCapacity: true)
        }
        placedCount += 1
        if state.hasContent {
          recordBreakOffset(segment.start)
        }
        state.x = startX + contentWidth
        state.contentEnd = segment.contentEnd
        state.hasContent = true
      } else if state.hasContent {
        breakLine(before: segment.start)
        add(segment)
        return
      } else {
        place(segment.start..<segment.contentEnd)
        placed.removeAll(keepingCapacity: true)
        if segment.endsWithSoftHyphen {
          placed.append(
            (segment, State(contentEnd: lineStart ?? segment.start, breakOffsetCount: lineBreakOffsetStart)))
        }
        placedCount = 1
      }
      state.endsWithSoftHyphen = segment.endsWithSoftHyphen
      state.spaces = segment.contentEnd..<segment.spaceEnd
      state.spacesWidth = segment.spaceWidth
      state.spacesHaveTab = segment.hasTab
    }
    if segment.isMandatoryBreak {
      close(at: segment.end, hyphenated: false)
    }
  }

  /// Keeps a break opportunity inside the open line's content, if lines keep theirs (without, nothing reads
  /// them: the count saved with a state stays 0, and a line that gives segments back drops none).
  @inline(__always)
  private mutating func recordBreakOffset(_ offset: Int) {
    guard recordsBreakOffsets else { return }
    breakOffsets.append(offset)
    state.breakOffsetCount = breakOffsets.count
  }

  mutating func finish() {
    close(at: text.string.utf8.count, hyphenated: false)
  }

  /// Ends the open line before the segment that starts at `next`, and opens the next line there.
  ///
  /// A line that ends after a soft hyphen must fit its hyphen too: when it does not, the line gives back its last
  /// segments until one does, and they go on the next line.
  private mutating func breakLine(before next: Int) {
    var givenBack: [Segment] = []
    while state.endsWithSoftHyphen, !hyphenFits(), placedCount > 1, let last = placed.popLast() {
      placedCount -= 1
      givenBack.insert(last.segment, at: 0)
      state = last.before
      breakOffsets.removeLast(breakOffsets.count - state.breakOffsetCount)
    }
    let end = givenBack.first?.start ?? next
    if state.endsWithSoftHyphen && !hyphenFits(), let start = lineStart,
      let cut = lastClusterStart(in: start..<state.contentEnd), cut > start
    {
      // One segment, too wide for its hyphen: its last letter (and the soft hyphen) go on the next line.
      let contentEnd = state.contentEnd
      state.contentEnd = cut
      state.x = measure(start..<cut, at: 0)
      close(at: cut, hyphenated: false)
      open(at: cut)
      place(cut..<contentEnd)
      state.endsWithSoftHyphen = true
      breakLine(before: end)
    } else {
      close(at: end, hyphenated: state.endsWithSoftHyphen && hyphenFits())
      open(at: end)
    }
    for segment in givenBack { add(segment) }
  }

  private func hyphenFits() -> Bool {
    guard let start = lineStart else { return true }
    return fit.fits(start, state.contentEnd, total: state.x, extra: [hyphenWidth(before: state.contentEnd)])
  }

  /// The width of the hyphen shown after the soft hyphen that ends at `end`: drawn in its style, as a browser
  /// draws it (a bold hyphen is wider), the plain one's width kept for plain text.
  private func hyphenWidth(before end: Int) -> Int {
    let style = text.hyphenStyle(before: end)
    return style == .plain ? hyphenWidth : measurer.width(of: "-", style: style)
  }

  private mutating func open(at offset: Int) {
    lineStart = offset
    lineBreakOffsetStart = breakOffsets.count
    state = State(contentEnd: offset, spaces: offset..<offset, breakOffsetCount: lineBreakOffsetStart)
    if !placed.isEmpty { placed.removeAll(keepingCapacity: true) }
    placedCount = 0
  }

  private mutating func close(at end: Int, hyphenated: Bool) {
    close(
      at: end, contentEnd: state.contentEnd, width: state.x + (hyphenated ? hyphenWidth(before: state.contentEnd) : 0),
      hyphenated: hyphenated)
  }

  /// Ends the open line at `end` with what is drawn on it given, not read from ``state``: a line closed just
  /// after its state was written would read it back at once, and wait for the stores.
  private mutating func close(at end: Int, contentEnd: Int, width: Int, hyphenated: Bool = false) {
    guard let start = lineStart else { return }
    lines.append(LineLayout.Line(range: start..<end, contentEnd: contentEnd, width: width, isHyphenated: hyphenated))
    lineStart = nil
  }

  /// Places clusters one by one as content, starting new lines where the next cluster does not fit
  /// (never leaving a line empty).
  ///
  /// In a font, a cluster that starts with a mark goes with the one before it: UAX #29 lets a few spacing marks start a
  /// grapheme cluster (Myanmar's U+102C AA and U+1038 VISARGA), but no browser engine starts a line with one (Gecko's
  /// `IsClusterExtender`). Terminal cells keep UAX #29's clusters, as ``CellStream`` does.
  private mutating func place(_ range: Range<Int>) {
    guard !range.isEmpty else { return }  // a hard line break alone at the start of a line
    var walk = ClusterWalk(text, range: range, measurer: measurer, x: state.x)
    let groupsMarks = !(measurer is TerminalCells)
    var next = walk.next()
    while let first = next {
      var (end, advance) = (first.end, first.advance)
      next = walk.next()
      while groupsMarks, let mark = next, Self.isMark(mark.first) {
        (end, advance) = (mark.end, advance + mark.advance)
        next = walk.next()
      }
      if state.hasContent, let start = lineStart, first.start > start,
        !(FitRule.decide(state.x + advance, width: width, rounding: rounding)
          ?? fit.fits(start, end, total: state.x + advance))
      {
        close(at: first.start, hyphenated: false)
        open(at: first.start)
        walk = ClusterWalk(text, range: first.start..<range.upperBound, measurer: measurer, x: 0)
        next = walk.next()
        continue
      }
      state.x += advance
      state.contentEnd = end
      state.hasContent = true
    }
  }

  /// Whether a code point is a mark (``UnicodeProperties/isMark``); none below U+0300.
  private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0x300 && UnicodeProperties(raw: UnicodeTables.lookUp(scalar.value)).isMark
  }

  /// The start of the last cluster of the content before the soft hyphen that ends it.
  private func lastClusterStart(in range: Range<Int>) -> Int? {
    var walk = ClusterWalk(text, range: range, measurer: measurer)
    var starts: [Int] = []
    while let cluster = walk.next() { starts.append(cluster.start) }
    return starts.count >= 2 ? starts[starts.count - 2] : nil
  }

  private func pendingSpacesWidth() -> Int {
    state.spacesHaveTab ? measure(state.spaces, at: state.x) : state.spacesWidth
  }

  private func measure(_ range: Range<Int>, at startX: Int) -> Int {
    var walk = ClusterWalk(text, range: range, measurer: measurer, x: startX)
    while walk.next() != nil {}
    return walk.x - startX
  }
}

extension SegmentFitter where Lines == [LineLayout.Line] {
  /// A fitter of lines of `width` that keeps them.
  init(
    text: StyledText, measurer: any TextMeasurer, width: LineWidth, recordsBreakOffsets: Bool = true,
    hyphenWidth: Int? = nil, itemBreaks: ItemBreaks? = nil
  ) {
    self.init(
      text: text, measurer: measurer, width: width, recordsBreakOffsets: recordsBreakOffsets,
      hyphenWidth: hyphenWidth, itemBreaks: itemBreaks, lines: [])
  }

  /// The layout of what was placed, at most `limit` lines: the open line closed when it `isComplete`, the
  /// lines' break offsets read from `breakOffsets`.
  mutating func layout(breaker: LineBreaker, lineLimit limit: Int, isComplete: Bool, breakOffsets: [Int]) -> LineLayout
  {
    if isComplete { finish() }
    return LineLayout(
      text: text, measurer: measurer, breaker: breaker, width: width,
      lines: lines.count > limit ? Array(lines.prefix(limit)) : lines, breakOffsetStorage: breakOffsets,
      isComplete: isComplete, itemBreaks: itemBreaks)
  }

  /// Drops the closed lines (a ``SegmentStream`` has handed them out).
  mutating func forgetLines() { lines.removeAll(keepingCapacity: true) }
}
