/// The widths a relayout needs, as running sums, so that a line of plain segments is found by a search
/// rather than an addition per segment.
///
/// A segment is plain when its place on a line depends on widths alone: it has content with no tab and no soft
/// hyphen, or it is a newline alone after a mandatory break (an empty line). With `contentEnds[k]` the width of the segments before `k`
/// (content and spaces) and of the content of `k`, the plain segments `i...j` placed after a line start whose
/// running sum is `base` end their content at `contentEnds[j] - base`, which grows with `j`; the running sum
/// before segment `k` is `contentEnds[k]` less its content width. A line's search reads an entry of the width
/// index (``widthIndex``) and four of the running sums, and a line a few entries of the others: what a relayout of
/// a long text reads from memory.
///
/// A mandatory break after a plain segment adds ``hardBreakGap`` to the running sum: no line narrower than
/// ``widestLine`` can hold the segment after it, so a paragraph's end is found by the same search as a line's
/// (rather than a run that ends at each paragraph, which costs more than its lines in a text of short paragraphs).
struct RunningSums: Sendable {
  /// What a mandatory break adds to the running sums.
  static let hardBreakGap = 1 << 40
  /// The widest line (plus rounding) for which the gaps end lines: a layout any wider places segment by
  /// segment.
  static let widestLine = 1 << 38
  /// `contentEnds[k]`: the width of the segments before `k`, gaps included, and of the content of `k`; then
  /// ``padding`` entries of `Int.max`, which no line's sums reach, so that a line's search reads the four sums
  /// after any segment with no check.
  let contentEnds: [Int]
  /// The entries of `Int.max` after the running sums.
  static let padding = 4
  /// The content width of each segment, and the bytes after its content (spaces), for the segments that
  /// start and end lines: in arrays of 4 bytes, so that a line reads no 56-byte ``Segment`` (a cache miss per
  /// line).
  ///
  /// A segment whose figures do not fit is not plain.
  let contentWidths: [UInt32]
  let trailingBytes: [UInt32]
  /// Where each segment starts (a prepared text keeps this array as its own, shared).
  let starts: [Int]
  /// The indices of the segments that are not plain, in order.
  let breaks: [Int]
  /// The indices of the plain segments that a mandatory break follows (and a gap in the sums), in order.
  let hardBreaks: [Int]
  /// The width of every segment.
  let totalWidth: Int
  /// The running sum after the last segment, gaps included.
  let endSum: Int
  /// Where a line's last segment is, about, by width: `widthIndex[t]` is the first segment whose running sum
  /// without the gaps (``contentEnds`` less the gaps at the hard breaks before it) is at least `t << widthShift`
  /// (saturated at `UInt32.max`, which only makes it an earlier guess).
  ///
  /// A line whose running sums end at `limit` ends at the segment before `widthIndex[limit >> widthShift]` or a few
  /// after it, whatever the script: the index's cells are about as wide as the average segment (a guess from the line
  /// before, a count of segments, misses its window of 8 in text that mixes scripts). Past the text's end,
  /// ``indexPadding`` cells more hold the number of segments.
  let widthIndex: [UInt32]
  /// The width of the index's cells, as a shift.
  let widthShift: Int
  /// The cells after the text's end in ``widthIndex`` (256 bytes): a line no wider than this many cells, whose limit
  /// starts at most at the total width, finds its cell with no check of the index's end
  /// (``UncheckedLookup``).
  static let indexPadding = 64
  /// The running sums again in 4 bytes, with no gaps at hard breaks: what a count of lines reads instead of
  /// ``contentEnds``, then ``padding`` entries above any line's limit: a count of a long text waits on memory more
  /// than on its arithmetic (Docs/PerformanceNotes.md, "Relayout and counting lines").
  ///
  /// A count follows each paragraph to its last segment (``ParagraphLines``), so its sums need no gap to end a line
  /// there: a line's search may count segments of the next paragraph, and the next line then starts past its own either
  /// way. After them, as many entries of the running sum before each segment's content, where a line that starts with
  /// it starts (``countSums`` less ``contentWidths``, then the same padding): one load where a line starts rather than
  /// two and a subtraction, and four of them to choose from beside the four sums a line compares
  /// (``CountSums/line(after:_:upTo:)``). Made for every text whose width is below ``countWidthLimit``, a comment's
  /// too: its count reads half the memory, and compares four sums of 4 bytes in fewer instructions than four of 8.
  /// Empty for a wider text.
  let countSums: [UInt32]
  /// The width below which a text's lines are counted in ``countSums``, and its lines' widths: a limit (the sum before
  /// a line and a width) and the padding stay below 2²⁹ (268 million terminal cells; 4 million pixels in a font), in
  /// 4 bytes.
  static let countWidthLimit = 1 << 28

  /// The runs of `segments`, the whole of a text's, with ``countSums`` if `narrowSums` is set.
  init(_ segments: [Segment], narrowSums: Bool) {
    // The four arrays of a figure per segment are filled through buffers of their exact size in one pass over
    // the segments (an append asks the runtime whether each array's storage is shared, at every segment).
    let count = segments.count
    var contentWidths = [UInt32](repeating: 0, count: count)
    var trailingBytes = [UInt32](repeating: 0, count: count)
    var starts = [Int](repeating: 0, count: count)
    var breaks = [Int]()
    var sum = 0
    var hardBreaks = [Int]()
    // A few of each, allocated once (grown from none, each was allocated twice or three times for a comment).
    breaks.reserveCapacity(16)
    hardBreaks.reserveCapacity(16)
    // Filled with the padding, then written.
    var contentEnds = [Int](repeating: .max, count: count + Self.padding)
    contentEnds.withUnsafeMutableBufferPointer { contentEnds in
      contentWidths.withUnsafeMutableBufferPointer { contentWidths in
        trailingBytes.withUnsafeMutableBufferPointer { trailingBytes in
          starts.withUnsafeMutableBufferPointer { starts in
            segments.withUnsafeBufferPointer { segments in
              var afterMandatoryBreak = true  // whether the segment before ends with one (or there is none)
              for k in 0..<count {
                let segment = segments[k]
                starts[k] = segment.start
                contentEnds[k] = sum + segment.contentWidth
                sum += segment.contentWidth + segment.spaceWidth
                let width = segment.contentWidth
                let trailing = segment.end - segment.contentEnd
                // Both figures fit in 4 bytes (neither is negative): one comparison of the two.
                let fits = UInt(bitPattern: width) | UInt(bitPattern: trailing) <= UInt(UInt32.max)
                contentWidths[k] = fits ? UInt32(truncatingIfNeeded: width) : 0
                trailingBytes[k] = fits ? UInt32(truncatingIfNeeded: trailing) : 0
                // A newline alone after a mandatory break (or first) is an empty line; after a segment on a line
                // (where a breaker allows a break before a newline) it hangs with that segment's spaces.
                let isNewline = segment.isMandatoryBreak && segment.start == segment.spaceEnd && afterMandatoryBreak
                afterMandatoryBreak = segment.isMandatoryBreak
                if (!segment.hasContent && !isNewline) || segment.hasTab || segment.endsWithSoftHyphen || !fits
                  || (segment.isMandatoryBreak && sum >= 1 << 61)
                {
                  breaks.append(k)
                } else if segment.isMandatoryBreak {
                  sum += Self.hardBreakGap
                  hardBreaks.append(k)
                }
              }
            }
          }
        }
      }
    }

    self.contentEnds = contentEnds
    self.countSums =
      narrowSums
      ? Self.countSums(
        contentEnds, contentWidths, count: count, totalWidth: sum - hardBreaks.count * Self.hardBreakGap) : []
    self.contentWidths = contentWidths
    self.trailingBytes = trailingBytes
    self.starts = starts
    self.breaks = breaks
    self.hardBreaks = hardBreaks
    self.totalWidth = sum - hardBreaks.count * Self.hardBreakGap
    self.endSum = sum
    (widthIndex, widthShift) = Self.widthIndex(
      contentEnds, count: count, hardBreaks: hardBreaks, totalWidth: totalWidth)
  }

  /// ``countSums`` for the running sums of `count` segments, `contentEnds`, whose content widths are
  /// `contentWidths`, or none for a text of ``countWidthLimit`` or more.
  ///
  /// In a pass of its own, two loads and two stores a segment, which in the loop that makes the sums cost as much again
  /// as that loop.
  private static func countSums(_ contentEnds: [Int], _ contentWidths: [UInt32], count: Int, totalWidth: Int)
    -> [UInt32]
  {
    guard totalWidth < countWidthLimit else { return [] }
    let stride = count + padding
    return [UInt32](unsafeUninitializedCapacity: 2 * stride) { buffer, initialized in
      contentEnds.withUnsafeBufferPointer { contentEnds in
        contentWidths.withUnsafeBufferPointer { contentWidths in
          let sums = buffer.baseAddress.unsafelyUnwrapped
          let starts = sums + stride
          let ends = contentEnds.baseAddress.unsafelyUnwrapped
          let widths = contentWidths.baseAddress.unsafelyUnwrapped
          for k in 0..<count {
            // The sum without gaps: the gaps of the sums of 8 bytes, 2⁴⁰ each, wrap to nothing.
            let end = UInt32(truncatingIfNeeded: ends[k])
            sums[k] = end
            starts[k] = end &- widths[k]
          }
          // The padding, above any line's limit (the sum before a line, at most the total width, and a width, both
          // below ``countWidthLimit``).
          for k in count..<stride {
            sums[k] = UInt32(truncatingIfNeeded: 2 &* countWidthLimit)
            starts[k] = sums[k]
          }
        }
      }
      initialized = 2 * stride
    }
  }

  /// ``widthIndex`` and ``widthShift`` for the running sums of `count` segments, `contentEnds`, with gaps after
  /// `hardBreaks`.
  private static func widthIndex(_ contentEnds: [Int], count: Int, hardBreaks: [Int], totalWidth: Int) -> (
    [UInt32], Int
  ) {
    // An index of 4-byte entries for up to 2³² - 1 segments: a text of more has one cell, whose guess is the
    // line's first segment.
    guard count < UInt32.max else { return ([0, 0], Int.bitWidth - 1) }
    // Cells no wider than the average segment, so that one holds a segment or two (an index of at most two
    // entries a segment).
    let average = max(1, totalWidth / max(1, count))
    let shift = Int.bitWidth - 1 - average.leadingZeroBitCount
    // The last two hold `count` (a limit past the text's end), and so do ``indexPadding`` more.
    let cellCount = (totalWidth >> shift) + 2 + indexPadding
    // One more than the cells: the last segment's second entry may fall past them.
    var index = [UInt32](repeating: 0, count: cellCount + 1)
    index.withUnsafeMutableBufferPointer { cells in
      contentEnds.withUnsafeBufferPointer { contentEnds in
        // Paragraph by paragraph (the sums of one hold the same gaps), each segment's entries: the cells from the
        // one after the last segment's up to its sum's.
        var t = 0
        var k = 0
        for paragraph in 0...hardBreaks.count {
          let gaps = paragraph &* hardBreakGap
          let end = paragraph < hardBreaks.count ? hardBreaks[paragraph] + 1 : count
          while k < end {
            // Up to the last cell but one: no sum without gaps is above the total (the minimum is a guard).
            let upTo = min((contentEnds[k] &- gaps) &>> shift &+ 1, cellCount &- 1)
            // The cells from `t` on are not yet claimed, and each is written again by the segment that claims it:
            // two entries are written for every segment, with no branch (whether a segment claims a cell is a
            // coin's toss), and a loop writes the rest for one wider than two cells.
            let entry = UInt32(truncatingIfNeeded: k)
            cells.baseAddress.unsafelyUnwrapped[t] = entry
            cells.baseAddress.unsafelyUnwrapped[t &+ 1] = entry
            var wide = t &+ 2
            while wide < upTo {
              cells.baseAddress.unsafelyUnwrapped[wide] = entry
              wide &+= 1
            }
            t = max(t, upTo)
            k &+= 1
          }
        }
        let entry = UInt32(truncatingIfNeeded: count)
        while t < cellCount {
          cells.baseAddress.unsafelyUnwrapped[t] = entry
          t &+= 1
        }
      }
    }
    index.removeLast()
    return (index, shift)
  }

  /// About how many lines the segments take at `width` (an array's capacity for them): lines filled to about nine
  /// tenths, and a paragraph's last line.
  ///
  /// An array that a comment's lines fill is then small enough for the allocator's cache of freed blocks (below about a
  /// kilobyte), and one that they overflow grows once.
  func expectedLines(width: Int) -> Int { totalWidth / max(1, width) * 9 / 8 + hardBreaks.count + 2 }

  /// The last `j` in `start..<end` with `contentEnds[j] <= limit`, or `start - 1` if none, from `guess`.
  func lastFitting(from start: Int, before end: Int, upTo limit: Int, near guess: Int) -> Int {
    contentEnds.withUnsafeBufferPointer {
      Self.lastFitting(in: $0, from: start, before: end, upTo: limit, near: guess)
    }
  }

  /// The last `j` in `first..<end` with `contentEnds[j] <= limit`, found from the width index
  /// (``lastFitting(_:from:before:upTo:lessGaps:)``, within `first`'s paragraph), where `first` fits.
  func lastFitting(from first: Int, before end: Int, upTo limit: Int) -> Int {
    let hardBreak = hardBreaks.partitionIndex { $0 >= first }
    return withBuffers {
      Self.lastFitting(
        $0, from: first, before: Self.lastOfParagraph(hardBreak, $0, before: end) &+ 1, upTo: limit,
        lessGaps: limit &- hardBreak &* Self.hardBreakGap)
    }
  }

  /// The last segment a line can end with: that of its paragraph (`hardBreak` is the index in ``hardBreaks`` of the
  /// first at or after the line's first segment), or of the run, which ends before `end`.
  @inline(__always)
  static func lastOfParagraph(_ hardBreak: Int, _ runs: Buffers, before end: Int) -> Int {
    hardBreak < runs.hardBreaks.count ? min(runs.hardBreaks[hardBreak], end &- 1) : end &- 1
  }

  /// ``lastFitting(from:before:upTo:near:)`` in the running sums' memory.
  @inline(__always)
  static func lastFitting<Sum: FixedWidthInteger>(
    in contentEnds: UnsafeBufferPointer<Sum>, from start: Int, before end: Int, upTo limit: Sum, near guess: Int
  ) -> Int {
    guard start < end else { return start - 1 }
    let probe = min(max(guess, start), end - 1)
    // A few steps one by one from the guess first: their branches are predictable, a bisection's are not.
    var j = probe
    if contentEnds[j] <= limit {
      for _ in 0..<8 {
        guard j + 1 < end, contentEnds[j + 1] <= limit else { return j }
        j += 1
      }
    } else {
      for _ in 0..<8 {
        guard j > start else { return start - 1 }
        j -= 1
        if contentEnds[j] <= limit { return j }
      }
    }
    // low is start - 1 or fits, high is end or does not fit; the gallop brackets the answer, the bisection
    // finds it.
    var low: Int
    var high: Int
    var step = 1
    if contentEnds[j] <= limit {
      (low, high) = (j, j + 1)
      while high < end && contentEnds[high] <= limit {
        low = high
        high = min(end, high + step)
        step *= 2
      }
    } else {
      (low, high) = (j - 1, j)
      while low >= start && contentEnds[low] > limit {
        high = low
        low = max(start - 1, low - step)
        step *= 2
      }
    }
    while high - low > 1 {
      let middle = (low + high) / 2
      if contentEnds[middle] <= limit { low = middle } else { high = middle }
    }
    return low
  }

  /// The arrays a line reads, in their memory: the relayout's loop reads them with no bounds checks (its indices
  /// stay below the count of segments) and no check that the arrays are still there.
  struct Buffers {
    let contentEnds: UnsafeBufferPointer<Int>
    let contentWidths: UnsafeBufferPointer<UInt32>
    let trailingBytes: UnsafeBufferPointer<UInt32>
    let starts: UnsafeBufferPointer<Int>
    let hardBreaks: UnsafeBufferPointer<Int>
    let widthIndex: UnsafeBufferPointer<UInt32>
    let widthShift: Int
    /// The running sum after the last segment.
    let endSum: Int
    /// The two halves of ``RunningSums/countSums``, for a count of lines, which sets them (empty otherwise: the other
    /// readers of the buffers do without them).
    var countSums = UnsafeBufferPointer<UInt32>(start: nil, count: 0)
    var countStarts = UnsafeBufferPointer<UInt32>(start: nil, count: 0)
  }

  /// Calls `body` with the arrays' memory.
  func withBuffers<Result>(_ body: (Buffers) -> Result) -> Result {
    contentEnds.withUnsafeBufferPointer { contentEnds in
      contentWidths.withUnsafeBufferPointer { contentWidths in
        trailingBytes.withUnsafeBufferPointer { trailingBytes in
          starts.withUnsafeBufferPointer { starts in
            hardBreaks.withUnsafeBufferPointer { hardBreaks in
              widthIndex.withUnsafeBufferPointer { widthIndex in
                body(
                  Buffers(
                    contentEnds: contentEnds, contentWidths: contentWidths, trailingBytes: trailingBytes,
                    starts: starts, hardBreaks: hardBreaks, widthIndex: widthIndex, widthShift: widthShift,
                    endSum: endSum))
              }
            }
          }
        }
      }
    }
  }

  /// Whether plain segment `next` starts a line after segments placed from running sum `base`: it does not
  /// surely fit after them and surely fits alone (a sum of `surelyFits` surely fits, one above `tooWide`
  /// surely does not).
  @inline(__always)
  static func startsLine(
    _ next: Int, _ runs: Buffers, before end: Int, after base: Int, _ surelyFits: Int, _ tooWide: Int
  )
    -> Bool
  {
    next < end && runs.contentEnds[next] &- base > tooWide && Int(runs.contentWidths[next]) <= surelyFits
  }

  /// Where ``fillLines(into:_:cursor:before:surelyFits:tooWide:keepsLines:)`` stands: a line starts with segment
  /// `first`, which surely fits alone, at running sum `base`.
  struct LineCursor {
    var first: Int
    var base: Int
    /// The index in ``RunningSums/hardBreaks`` of the first at or after `first`: how many gaps the sums of the
    /// line's segments hold.
    var hardBreak: Int
  }

  /// Adds to `lines` the lines that start at `cursor.first` and end where the next segment starts a line, up to `end`
  /// and until `lines` holds `limit` (``fillLines(into:capacity:_:cursor:before:surelyFits:tooWide:keepsLines:)``,
  /// through a buffer on the stack, a few lines at a time; a count of lines, which writes none, at once).
  ///
  /// Returns the last segment that fits on the line at `cursor.first`, where it stopped: the one before `cursor.first`
  /// when `lines` holds `limit`.
  static func fill<Lines: LineSink>(
    _ lines: inout Lines, _ runs: Buffers, cursor: inout LineCursor, before end: Int, surelyFits: Int, tooWide: Int,
    lineLimit limit: Int
  ) -> Int {
    var last = cursor.first &- 1
    // (An array made for the lines was a generic allocation, with a lookup of its type's metadata under a lock.)
    withUnsafeTemporaryAllocation(of: LineLayout.Line.self, capacity: 24) { buffer in
      while lines.count < limit {
        let filled = fillLines(
          into: buffer.baseAddress,
          capacity: Lines.keepsLines ? min(buffer.count, limit - lines.count) : limit - lines.count, runs,
          cursor: &cursor, before: end, surelyFits: surelyFits, tooWide: tooWide, keepsLines: Lines.keepsLines)
        lines.append(filled.written, from: buffer.baseAddress)
        last = filled.last
        if last >= cursor.first { break }  // the line at cursor.first does not end surely in this run
      }
    }
    return last
  }

  /// Writes the lines that start at `cursor.first` and end where the next segment starts a line (see
  /// ``startsLine(_:_:before:after:_:_:)``), up to `end` and at most `capacity`: the loop of a relayout, a search
  /// (``lastFitting(_:from:before:upTo:lessGaps:)``) and a line written per line; a line is counted, not written,
  /// unless `keepsLines` (then `lines` holds `capacity`).
  ///
  /// Returns how many lines it wrote and the last segment that fits on the line at `cursor.first` where it stopped: the
  /// one before `cursor.first` when it wrote `capacity`.
  @inline(__always)
  static func fillLines(
    into lines: UnsafeMutablePointer<LineLayout.Line>?, capacity: Int, _ runs: Buffers, cursor: inout LineCursor,
    before end: Int, surelyFits: Int, tooWide: Int, keepsLines: Bool
  ) -> (written: Int, last: Int) {
    var first = cursor.first
    var base = cursor.base
    var hardBreak = cursor.hardBreak
    // The width less the gaps in the paragraph's sums: a line's limit without gaps in one addition.
    var widthLessGaps = surelyFits &- hardBreak &* hardBreakGap
    var paragraphLast = lastOfParagraph(hardBreak, runs, before: end)
    // For an exact measurer, the segment after the search's answer surely does not fit after it: whether it
    // starts a line depends on its width alone.
    let exact = surelyFits == tooWide
    var written = 0
    var last = first &- 1
    while written < capacity {
      // (A run's end is never before its first segment: `paragraphLast` then stays.)
      while paragraphLast < first {
        hardBreak &+= 1
        widthLessGaps &-= hardBreakGap
        paragraphLast = lastOfParagraph(hardBreak, runs, before: end)
      }
      // At least `first`, which fits alone.
      last = lastFitting(
        runs, from: first, before: paragraphLast &+ 1, upTo: base &+ surelyFits, lessGaps: base &+ widthLessGaps)
      let next = last &+ 1
      guard
        exact
          ? next < end && Int(runs.contentWidths[next]) <= surelyFits
          : startsLine(next, runs, before: end, after: base, surelyFits, tooWide)
      else { break }
      if keepsLines {
        let lineEnd = runs.starts[next]
        (lines.unsafelyUnwrapped + written).initialize(
          to: LineLayout.Line(
            range: Range(uncheckedBounds: (runs.starts[first], lineEnd)),
            contentEnd: lineEnd &- Int(runs.trailingBytes[last]), width: runs.contentEnds[last] &- base,
            isHyphenated: false))
      }
      written &+= 1
      first = next
      base = runs.contentEnds[next] &- Int(runs.contentWidths[next])
      last = first &- 1
    }
    cursor = LineCursor(first: first, base: base, hardBreak: hardBreak)
    return (written, last)
  }

  /// The last `j` in `first..<end` with `contentEnds[j] <= limit`, where `first` fits (`contentEnds[first] <=
  /// limit`) and `limitLessGaps` is `limit` less the gaps in the sums of the segments up to `end`: found from the
  /// width index's guess, which is the answer or up to a few before it, by counting the sums that fit among the four
  /// after the guess with no branch, and by a search only when all four fit.
  @inline(__always)
  static func lastFitting(
    _ runs: Buffers, from first: Int, before end: Int, upTo limit: Int, lessGaps limitLessGaps: Int
  ) -> Int {
    // The index's cell of the limit without the gaps: the segment before the cell's first fits, and so does
    // `first`. A guess before `first` is not raised to it (a step more in each line's chain): the segments
    // between fit, and count as fitting.
    let cell = min(limitLessGaps &>> runs.widthShift, runs.widthIndex.count &- 1)
    let guess = min(Int(runs.widthIndex[cell]) &- 1, end &- 1)
    let fitting = fitting(after: guess, runs, upTo: limit)
    let last = guess &+ fitting
    if last >= end { return end &- 1 }
    if fitting < 4 { return last }
    return lastFitting(in: runs.contentEnds, from: last, before: end, upTo: limit, near: last)
  }

  /// How many of the four running sums after segment `guess` are at most `limit` (``fitting(_:upTo:)``).
  ///
  /// The padding after the sums lets `guess` be any segment, or -1.
  @inline(__always)
  static func fitting(after guess: Int, _ runs: Buffers, upTo limit: Int) -> Int {
    fitting(runs.contentEnds.baseAddress.unsafelyUnwrapped + guess, upTo: limit)
  }

  /// How many of the four running sums `sums[1]` to `sums[4]` are at most `limit`.
  ///
  /// The sums grow, so the ones that fit come first, and three comparisons side by side and two selections tell: a
  /// line's chain waits on one comparison and two selections after the loads (the branch where all four fit is rare,
  /// and predictable), half the latency of adding up the four sign bits of `limit - sum` in a vector.
  @inline(__always)
  static func fitting<Sum: FixedWidthInteger>(_ sums: UnsafePointer<Sum>, upTo limit: Sum) -> Int {
    let low = sums[1] <= limit ? 1 : 0
    let high = sums[4] <= limit ? 4 : (sums[3] <= limit ? 3 : 2)
    return sums[2] <= limit ? high : low
  }

  /// A cursor over the runs, for segment indices that only grow.
  func cursor() -> Cursor { Cursor(breaks: breaks, count: starts.count) }

  /// Finds the end of the plain run at a segment, moving forward.
  struct Cursor {
    let breaks: [Int]
    let count: Int
    var next = 0

    /// The index after the plain run that starts at `index` (`index` itself if that segment is not plain).
    mutating func end(of index: Int) -> Int {
      while next < breaks.count && breaks[next] < index { next += 1 }
      return next < breaks.count ? breaks[next] : count
    }
  }
}
