/// A styled text measured once, ready to be laid out at any width with arithmetic only.
///
/// Preparing finds the break opportunities and measures every segment between them; ``layout(width:lineLimit:)``
/// then walks these numbers, so laying the same text out at another width measures nothing again (except the
/// clusters of a word wider than the line, which it breaks at grapheme boundaries).
///
///     let prepared = PreparedText(text, measurer: TerminalCells())
///     let narrow = prepared.layout(width: 30)
///     let wide = prepared.layout(width: 80)
public struct PreparedText: Sendable {
  /// The text.
  public let text: StyledText
  /// The measurer that measured it.
  public let measurer: any TextMeasurer
  /// The breaker that found its opportunities.
  public let breaker: LineBreaker
  let segments: [Segment]
  /// Where each segment starts: after the first, the break opportunities, which a layout's lines read their
  /// break offsets from.
  let starts: [Int]
  /// The widths a relayout places plain segments with (``PlainRuns``); their total tells how many lines a
  /// width makes, about.
  let plainRuns: PlainRuns
  /// The width of the hyphen a line that breaks after a soft hyphen shows.
  let hyphenWidth: Int
  /// Whether the measurer is exact (no item rounding): the sum of a line's widths decides its fit.
  let isExact: Bool
  /// The paragraphs that a count of lines follows line by line (``PlainRuns/LongParagraphs``).
  let longParagraphs: PlainRuns.LongParagraphs
  /// Where the measurer's target starts an inline item inside a run of one style (``ItemBreaks``).
  let itemBreaks: ItemBreaks

  /// Prepares a text.
  /// - Complexity: O(*n*) in the length of the text.
  public init(_ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .unicode) {
    self.init(text, measurer: measurer, breaker: breaker, narrowSums: true)
  }

  /// Prepares a text whose lines are counted in sums of 4 bytes (``PlainRuns/countSums``) if `narrowSums` is set, as
  /// every text narrower than ``PlainRuns/countWidthLimit`` is, or in those of 8 (``PlainRuns/contentEnds``), as a
  /// wider one is: what the tests count both ways.
  init(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, narrowSums: Bool) {
    self.text = text
    self.measurer = measurer
    self.breaker = breaker
    var segmenter = Segmenter(text, measurer: measurer, breaker: breaker)
    self.segments = segmenter.all()
    self.plainRuns = PlainRuns(segments, narrowSums: narrowSums)
    self.starts = plainRuns.starts
    // (Made from the runs whole, the paragraphs copied them: seven arrays retained and released.)
    self.longParagraphs = PlainRuns.LongParagraphs(
      hardBreaks: plainRuns.hardBreaks, contentWidths: plainRuns.contentWidths)
    self.hyphenWidth = measurer.width(of: "-")
    self.isExact = measurer.itemRounding == 0
    self.itemBreaks = ItemBreaks(text, measurer: measurer)
  }

  /// Lays the text out in lines no wider than `width`.
  ///
  /// - Parameters:
  ///   - width: the width of a line, in the measurer's unit; below 1 acts as 1.
  ///   - lineLimit: when set, the layout stops as soon as it knows that the text needs more lines than
  ///     this, and reports ``LineLayout/isComplete`` as `false`.
  /// - Complexity: O(*s*) in the number of segments that are not plain (a tab, a soft hyphen, leading spaces, a
  ///   hard break after them), plus, per line of plain segments, a count of four running sums after a guess by
  ///   width (``PlainRuns/widthIndex``), O(log *k*) in a line of *k* segments when more segments than that share
  ///   a cell of the index.
  public func layout(width: Int, lineLimit: Int? = nil) -> LineLayout {
    let width = max(1, width)
    var lines: [LineLayout.Line] = []
    let limit = lineLimit.map { max(1, $0) } ?? Int.max
    if let isComplete = placePlain(&lines, width: width, lineLimit: limit) {
      return LineLayout(
        text: text, measurer: measurer, breaker: breaker, width: width, lines: lines, breakOffsetStorage: starts,
        isComplete: isComplete, itemBreaks: itemBreaks)
    }
    var fitter = LineFitter(
      text: text, measurer: measurer, width: width, recordsBreakOffsets: false, hyphenWidth: hyphenWidth,
      itemBreaks: itemBreaks)
    let isComplete = fitter.place(segments, plainRuns, lineLimit: limit)
    return fitter.layout(breaker: breaker, lineLimit: limit, isComplete: isComplete, breakOffsets: starts)
  }

  /// How many lines the text takes at `width`: the number of ``layout(width:lineLimit:)``'s lines, found
  /// without making them, as pretext's `layout` finds a height: what a list needs for each cell's height at a
  /// new width, and to know which cells' collapsed views show a toggle, before drawing the few it shows.
  ///
  /// - Parameters:
  ///   - width: the width of a line, in the measurer's unit; below 1 acts as 1.
  ///   - lineLimit: when set, counting stops as soon as the text is known to need more lines than this, and
  ///     the count is then `lineLimit + 1`: a count above the limit says that a collapsed view of that many
  ///     lines truncates the text.
  /// - Complexity: that of ``layout(width:lineLimit:)``, with no memory allocated.
  public func lineCount(width: Int, lineLimit: Int? = nil) -> Int {
    let width = max(1, width)
    let limit = lineLimit.map { min(max(1, $0), Int.max - 1) } ?? Int.max
    // Counted whole, three paragraphs at a time, unless a limit is likely to stop the count early (or the segments
    // are too many for the paragraphs' bounds in 32 bits: ``PlainRuns/LongParagraphs/bounds``).
    if placesPlain(width: width), limit >= plainRuns.expectedLines(width: width), segments.count < 1 << 32,
      let count = longParagraphs.withBuffers({ long in
        plainRuns.countSums.withUnsafeBufferPointer { countSums in
          plainRuns.withBuffers {
            var runs = $0
            let stride = countSums.count / 2
            runs.countSums = UnsafeBufferPointer(rebasing: countSums[..<stride])
            runs.countStarts = UnsafeBufferPointer(rebasing: countSums[stride...])
            return PlainRuns.countLines(runs, long, widestAlone: longParagraphs.widestAlone, width: width)
          }
        }
      })
    {
      return count > limit ? limit + 1 : count
    }
    var counter = LineCounter()
    if let isComplete = placePlain(&counter, width: width, lineLimit: limit) {
      return isComplete ? counter.count : limit + 1
    }
    var fitter = LineFitter(
      text: text, measurer: measurer, width: width, recordsBreakOffsets: false, hyphenWidth: hyphenWidth,
      itemBreaks: itemBreaks, lines: LineCounter())
    guard fitter.place(segments, plainRuns, lineLimit: limit) else { return limit + 1 }
    fitter.finish()
    return fitter.lines.count
  }

  /// Whether lines of `width` are found by the running sums alone: every segment plain, in an exact measurer, at a
  /// width that the gaps at hard breaks end lines for (``placePlain(_:width:lineLimit:)``, and a count of lines).
  private func placesPlain(width: Int) -> Bool {
    isExact && plainRuns.breaks.isEmpty && !segments.isEmpty && width < PlainRuns.widestLine
  }

  /// Adds to `lines` the lines of a text whose segments are all plain, in an exact measurer, found by the relayout's
  /// loop alone, with no fitter made (a fitter copies the text and the measurer). Returns whether the text took at most `limit` lines (then `lines` holds them
  /// all; otherwise its first `limit`), or `nil` for another text, or one with a word wider than the line, which
  /// a fitter places (and `lines` is then to be dropped).
  private func placePlain<Lines: LineSink>(_ lines: inout Lines, width: Int, lineLimit limit: Int) -> Bool? {
    guard placesPlain(width: width) else { return nil }
    return plainRuns.withBuffers { runs in
      let end = segments.count
      guard Int(runs.contentWidths[0]) <= width else { return nil }  // the first line's first segment fits alone
      lines.reserveCapacity(min(limit, plainRuns.expectedLines(width: width)))
      var cursor = PlainRuns.LineCursor(first: 0, base: runs.contentEnds[0] &- Int(runs.contentWidths[0]), hardBreak: 0)
      let last = PlainRuns.fill(
        &lines, runs, cursor: &cursor, before: end, surelyFits: width, tooWide: width, lineLimit: limit)
      // It stops at the limit (a line after it starts at cursor.first), at a word wider than the line, or with the
      // text's last line, which holds the segments from cursor.first to the end (below the limit: at the limit, it
      // stops before looking at the line after).
      if last < cursor.first { return false }
      if last &+ 1 < end { return nil }
      let lineEnd = segments[last].end
      lines.append(
        LineLayout.Line(
          range: runs.starts[cursor.first]..<lineEnd, contentEnd: lineEnd &- Int(runs.trailingBytes[last]),
          width: runs.contentEnds[last] &- cursor.base, isHyphenated: false))
      return true
    }
  }

  /// The break opportunities that preparing found, in order.
  public var breakOpportunities: [BreakOpportunity] {
    segments.dropLast().map {
      BreakOpportunity(offset: $0.end, kind: $0.isMandatoryBreak ? .mandatory : .allowed)
    }
  }
}

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
struct PlainRuns: Sendable {
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
  /// line). A segment whose figures do not fit is not plain.
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
  /// (saturated at `UInt32.max`, which only makes it an earlier guess). A line whose running sums end at `limit`
  /// ends at the segment before `widthIndex[limit >> widthShift]` or a few after it, whatever the script: the
  /// index's cells are about as wide as the average segment (a guess from the line before, a count of segments,
  /// misses its window of 8 in text that mixes scripts). Past the text's end, ``indexPadding`` cells more hold the
  /// number of segments.
  let widthIndex: [UInt32]
  /// The width of the index's cells, as a shift.
  let widthShift: Int
  /// The cells after the text's end in ``widthIndex`` (256 bytes): a line no wider than this many cells, whose limit
  /// starts at most at the total width, finds its cell with no check of the index's end
  /// (``UnclampedCells``).
  static let indexPadding = 64
  /// The running sums again in 4 bytes, with no gaps at hard breaks: what a count of lines reads instead of
  /// ``contentEnds``, then ``padding`` entries above any line's limit: a count of a long text waits on memory more
  /// than on its arithmetic (Docs/PerformanceNotes.md, "Relayout and counting lines"). A count follows each
  /// paragraph to its last segment (``ParagraphLines``), so its sums need no gap to end a line there: a line's
  /// search may count segments of the next paragraph, and the next line then starts past its own either way. After
  /// them, as many entries of the running sum before each segment's content, where a line that
  /// starts with it starts (``countSums`` less ``contentWidths``, then the same padding): one load where a line starts
  /// rather than two and a subtraction, and four of them to choose from beside the four sums a line compares
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
    // the segments (appending asked the runtime whether each array's storage was shared at every segment).
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
  /// `contentWidths`, or none for a text of ``countWidthLimit`` or more. In a pass of its own, two loads and two
  /// stores a segment, which in the loop that makes the sums cost as much again as that loop.
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
  /// tenths, and a paragraph's last line. An array that a comment's lines fill is then small enough for the
  /// allocator's cache of freed blocks (below about a kilobyte), and one that they overflow grows once.
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
    /// The two halves of ``PlainRuns/countSums``, for a count of lines, which sets them (empty otherwise: the other
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
    /// The index in ``PlainRuns/hardBreaks`` of the first at or after `first`: how many gaps the sums of the
    /// line's segments hold.
    var hardBreak: Int
  }

  /// Adds to `lines` the lines that start at `cursor.first` and end where the next segment starts a line, up to `end`
  /// and until `lines` holds `limit` (``fillLines(into:capacity:_:cursor:before:surelyFits:tooWide:keepsLines:)``,
  /// through a buffer on the stack, a few lines at a time; a count of lines, which writes none, at once). Returns the
  /// last segment that fits on the line at `cursor.first`, where it stopped: the one before `cursor.first` when
  /// `lines` holds `limit`.
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
  /// unless `keepsLines` (then `lines` holds `capacity`). Returns how many lines it wrote and the last segment that
  /// fits on the line at `cursor.first` where it stopped: the one before `cursor.first` when it wrote `capacity`.
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

  /// How many of the four running sums after segment `guess` are at most `limit` (``fitting(_:upTo:)``). The padding
  /// after the sums lets `guess` be any segment, or -1.
  @inline(__always)
  static func fitting(after guess: Int, _ runs: Buffers, upTo limit: Int) -> Int {
    fitting(runs.contentEnds.baseAddress.unsafelyUnwrapped + guess, upTo: limit)
  }

  /// How many of the four running sums `sums[1]` to `sums[4]` are at most `limit`. The sums grow, so the ones that
  /// fit come first, and three comparisons side by side and two selections tell: a line's chain waits on one
  /// comparison and two selections after the loads (the branch where all four fit is rare, and predictable),
  /// half the latency of adding up the four sign bits of `limit - sum` in a vector.
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

extension PlainRuns {
  /// A paragraph's lines, one after the other: the line that starts with segment `first`, at running sum `base`,
  /// in the paragraph that ends with segment `last`, in the running sums that `Sums` reads. Each line's end depends
  /// on the line before, a chain of loads and comparisons that a processor cannot overlap with itself, only with
  /// another paragraph's.
  struct ParagraphLines<Sums: CountSums> {
    var first: Int
    var base: Sums.Sum
    var last: Int
    /// The width of a line less the gaps in the paragraph's sums: `base` plus this is a line's limit in the sums
    /// without gaps, which the width index reads. Read only for sums with gaps (``CountSums/hasGaps``): in the
    /// others it is the width, the same in every lane.
    var widthLessGaps: Sums.Sum

    /// The first line of the `k`th of the long paragraphs, in lines of `width`.
    @inline(__always)
    init(_ k: Int, of long: LongParagraphs.Buffers, _ runs: Buffers, width: Int) {
      (first, base) = (0, 0)
      let bounds = long.bounds[k]
      last = LongParagraphs.last(bounds)
      widthLessGaps = Sums.widthLessGaps(width, paragraph: long.indices[k])
      start(LongParagraphs.first(bounds), runs)
    }

    /// Moves to the line that starts with segment `next`, or when the paragraph ends before it, to the first line of
    /// the `k`th of the long paragraphs, with no branch: the figures of both are found, and selected. Returns 1 when
    /// it took that paragraph, 0 otherwise: whether a paragraph ends at a line is as hard to predict as the
    /// paragraphs' lengths. `k` is one of the long paragraphs.
    @inline(__always)
    mutating func advance(to next: Int, orTo k: Int, of long: LongParagraphs.Buffers, _ runs: Buffers, width: Int)
      -> Int
    {
      let ends = next > last
      let bounds = long.bounds[k]
      let nextFirst = LongParagraphs.first(bounds)
      let nextLast = LongParagraphs.last(bounds)
      last = ends ? nextLast : last
      if Sums.hasGaps {
        let nextWidthLessGaps = Sums.widthLessGaps(width, paragraph: long.indices[k])
        widthLessGaps = ends ? nextWidthLessGaps : widthLessGaps
      }
      start(ends ? nextFirst : next, runs)
      return ends ? 1 : 0
    }

    /// The first segment of the next line, after `last` when this line is the paragraph's last, in lines of
    /// `width`: ``lastFitting(_:from:before:upTo:lessGaps:)`` with fewer steps after each other (the limit without
    /// gaps in one addition; no guess raised to the line's first segment, since the segments before it fit and count
    /// as fitting). It is `first` or before it when the line's first segment does not fit (``fits(before:)``).
    @inline(__always)
    func next<Cells: CellBound>(_ runs: Buffers, width: Int, _ cells: Cells.Type) -> Int {
      let (guess, limit) = self.guess(runs, width: width, Cells.self)
      let fitting = Sums.fitting(after: guess, runs, upTo: limit)
      let found = guess &+ fitting
      if fitting < 4 { return found &+ 1 }
      return searched(from: found, runs, upTo: limit)
    }

    /// ``next(_:width:_:)``, and the running sum where that line starts (``CountSums/line(after:_:upTo:)``): for the
    /// chains of a text's last paragraphs, which wait on each line's latency more than on its instructions.
    @inline(__always)
    func nextLine<Cells: CellBound>(_ runs: Buffers, width: Int, _ cells: Cells.Type) -> (next: Int, base: Sums.Sum) {
      let (guess, limit) = self.guess(runs, width: width, Cells.self)
      let (fitting, start) = Sums.line(after: guess, runs, upTo: limit)
      if fitting < 4 { return (guess &+ fitting &+ 1, start) }
      let next = searched(from: guess &+ 4, runs, upTo: limit)
      return (next, Sums.start(next, runs))
    }

    /// The line's limit in the sums, and the width index's guess for its last segment: that segment or up to a few
    /// before it. A guess past the paragraph (its limit reaches the next one's sums without gaps) counts none of the
    /// sums after it, or any number: the next line starts past `last` either way, which is all that a count asks.
    @inline(__always)
    private func guess<Cells: CellBound>(_ runs: Buffers, width: Int, _ cells: Cells.Type) -> (
      guess: Int, limit: Sums.Sum
    ) {
      let limit = base &+ Sums.Sum(truncatingIfNeeded: width)
      let limitLessGaps = Sums.hasGaps ? base &+ widthLessGaps : limit
      let cell = Cells.cell(Int(truncatingIfNeeded: limitLessGaps) &>> runs.widthShift, runs)
      return (Int(runs.widthIndex[cell]) &- 1, limit)
    }

    /// The first segment of the next line when the four sums after the guess all fit, `found` the last of them: rare,
    /// where more segments than four share the index's cells around the line's end. A search in the same sums.
    @inline(__always)
    private func searched(from found: Int, _ runs: Buffers, upTo limit: Sums.Sum) -> Int {
      lastFitting(in: Sums.sums(runs), from: found, before: last &+ 1, upTo: limit, near: found) &+ 1
    }

    /// Moves to the line that starts with segment `next`, at running sum `base`.
    @inline(__always)
    mutating func start(_ next: Int, at base: Sums.Sum) {
      first = next
      self.base = base
    }

    /// Whether the line's first segment fits a line alone, once ``next(_:width:_:)`` found `next`: the segments up to
    /// the one before `next` fit, and the guess is at a segment that fits (one whose sum lies before the limit's cell
    /// of the width index), so the first fits if and only if `next` is past it. Asked after a line is found, off the
    /// chain of lines, with no load.
    @inline(__always)
    func fits(before next: Int) -> Bool { next > first }

    /// Moves to the line that starts with segment `next`.
    @inline(__always)
    mutating func start(_ next: Int, _ runs: Buffers) {
      first = next
      base = Sums.start(next, runs)
    }
  }

  /// The running sums that a count of lines reads: ``countSums`` (``NarrowSums``), or for a text or a line too wide
  /// for them, ``contentEnds`` (``WideSums``), twice their size, with gaps.
  protocol CountSums {
    associatedtype Sum: FixedWidthInteger
    /// The running sums, in their memory: `[k]` at the end of segment `k`'s content.
    static func sums(_ runs: Buffers) -> UnsafeBufferPointer<Sum>
    /// The running sum before segment `k`'s content, where a line that starts with it starts; `k` may be the
    /// segments' count, whose figure is any.
    static func start(_ k: Int, _ runs: Buffers) -> Sum
    /// ``fitting(after:_:upTo:)``, and the running sum where the segment after the last that fits starts (any when all
    /// four fit), found by the same comparisons rather than loaded after them.
    static func line(after guess: Int, _ runs: Buffers, upTo limit: Sum) -> (fitting: Int, start: Sum)
    /// `width` less the gaps of the sums of paragraph `paragraph`.
    static func widthLessGaps(_ width: Int, paragraph: Int) -> Sum
    /// Whether the sums hold gaps at hard breaks (otherwise ``widthLessGaps(_:paragraph:)`` is the width).
    static var hasGaps: Bool { get }
    /// How many of the four running sums after segment `guess` are at most `limit` (``PlainRuns/fitting(_:upTo:)``).
    static func fitting(after guess: Int, _ runs: Buffers, upTo limit: Sum) -> Int
  }

  /// ``contentEnds``, of 8 bytes.
  enum WideSums: CountSums {
    static var hasGaps: Bool { true }
    @inline(__always)
    static func sums(_ runs: Buffers) -> UnsafeBufferPointer<Int> { runs.contentEnds }
    @inline(__always)
    static func start(_ k: Int, _ runs: Buffers) -> Int {
      let k = min(k, runs.contentWidths.count &- 1)
      return runs.contentEnds[k] &- Int(runs.contentWidths[k])
    }
    @inline(__always)
    static func line(after guess: Int, _ runs: Buffers, upTo limit: Int) -> (fitting: Int, start: Int) {
      let fitting = fitting(after: guess, runs, upTo: limit)
      return (fitting, start(guess &+ fitting &+ 1, runs))
    }
    @inline(__always)
    static func widthLessGaps(_ width: Int, paragraph: Int) -> Int { width &- paragraph &* hardBreakGap }
    @inline(__always)
    static func fitting(after guess: Int, _ runs: Buffers, upTo limit: Int) -> Int {
      PlainRuns.fitting(after: guess, runs, upTo: limit)
    }
  }

  /// ``countSums``, of 4 bytes, with no gaps.
  enum NarrowSums: CountSums {
    static var hasGaps: Bool { false }
    /// (With no gaps, they and a line's limit stay below 2²⁹: a search compares them as they are.)
    @inline(__always)
    static func sums(_ runs: Buffers) -> UnsafeBufferPointer<UInt32> { runs.countSums }
    @inline(__always)
    static func start(_ k: Int, _ runs: Buffers) -> UInt32 { runs.countStarts[k] }
    /// The start is one of the four after the guess's, chosen by the same comparisons as the count. The compiler
    /// makes the choice branches, which a processor predicts and runs ahead of, where the selections of
    /// ``PlainRuns/fitting(_:upTo:)`` wait for the loads: for a chain that runs alone or beside one other, the better;
    /// for three side by side, which wait on their instructions and mispredictions, the worse.
    @inline(__always)
    static func line(after guess: Int, _ runs: Buffers, upTo limit: UInt32) -> (fitting: Int, start: UInt32) {
      let sums = runs.countSums.baseAddress.unsafelyUnwrapped + guess
      let starts = runs.countStarts.baseAddress.unsafelyUnwrapped + guess
      let (first, second, third, fourth) = (sums[1] <= limit, sums[2] <= limit, sums[3] <= limit, sums[4] <= limit)
      let fitting = second ? (fourth ? 4 : (third ? 3 : 2)) : (first ? 1 : 0)
      let start = second ? (third ? starts[4] : starts[3]) : (first ? starts[2] : starts[1])
      return (fitting, start)
    }
    @inline(__always)
    static func widthLessGaps(_ width: Int, paragraph: Int) -> UInt32 { UInt32(truncatingIfNeeded: width) }
    @inline(__always)
    static func fitting(after guess: Int, _ runs: Buffers, upTo limit: UInt32) -> Int {
      PlainRuns.fitting(runs.countSums.baseAddress.unsafelyUnwrapped + guess, upTo: limit)
    }
  }

  /// The paragraphs of more than one segment, which a count of lines follows line by line: a paragraph of one
  /// segment (an empty line between paragraphs, a word alone) takes one line at any width that the segment fits,
  /// and is counted with no step of a chain.
  struct LongParagraphs: Sendable {
    /// The indices of the paragraphs of more than one segment (paragraph `p` is the one after the `p`th hard
    /// break), in order.
    let indices: [Int]
    /// The first and the last segment of each, in one number: `bounds[k]` holds those of paragraph `indices[k]`,
    /// the first in its low 32 bits, the last in its high 32 (``first(_:)``, ``last(_:)``). Read in one load, they
    /// reach a count's selection of a lane's next paragraph as registers: a selection with a load in it became a
    /// branch again (x86's `cmov` with a memory operand is made a branch).
    let bounds: [UInt64]
    /// The content width of the widest segment that is a paragraph alone (0 if there is none).
    let widestAlone: Int

    /// The paragraphs of a text whose plain segments have these content widths and end with mandatory breaks at
    /// these indices (``PlainRuns/hardBreaks``).
    init(hardBreaks: [Int], contentWidths: [UInt32]) {
      let paragraphs = hardBreaks.count + 1
      var indices: [Int] = []
      var bounds: [UInt64] = []
      indices.reserveCapacity(paragraphs)  // (appended one by one, it grew by doubling)
      bounds.reserveCapacity(paragraphs)
      var widestAlone = 0
      var previousLast = -1  // the last segment of the paragraph before
      for paragraph in 0..<paragraphs {
        let last = paragraph < hardBreaks.count ? hardBreaks[paragraph] : contentWidths.count - 1
        if last - previousLast > 1 {
          indices.append(paragraph)
          bounds.append(UInt64(truncatingIfNeeded: previousLast + 1) | UInt64(truncatingIfNeeded: last) << 32)
        } else if last > previousLast {
          widestAlone = max(widestAlone, Int(contentWidths[last]))
        }
        previousLast = last
      }
      self.indices = indices
      self.bounds = bounds
      self.widestAlone = widestAlone
    }

    /// The arrays in their memory, as a count of lines reads them.
    struct Buffers {
      let indices: UnsafeBufferPointer<Int>
      let bounds: UnsafeBufferPointer<UInt64>
      /// The number of long paragraphs.
      var count: Int { indices.count }
    }

    /// The first segment of a paragraph whose ``bounds`` are `bounds`.
    @inline(__always)
    static func first(_ bounds: UInt64) -> Int { Int(truncatingIfNeeded: bounds & 0xFFFF_FFFF) }

    /// The last segment of a paragraph whose ``bounds`` are `bounds`.
    @inline(__always)
    static func last(_ bounds: UInt64) -> Int { Int(truncatingIfNeeded: bounds &>> 32) }

    /// Calls `body` with the arrays' memory.
    func withBuffers<Result>(_ body: (Buffers) -> Result) -> Result {
      indices.withUnsafeBufferPointer { indices in
        bounds.withUnsafeBufferPointer { body(Buffers(indices: indices, bounds: $0)) }
      }
    }
  }

  /// The number of lines of `width` that the segments before `end` take: a line for each paragraph of one segment,
  /// and the lines of the others (`long`, ``LongParagraphs/indices``) three paragraphs at a time, each of the three
  /// chains taking the next paragraph when its own is done, then the last ones two or one at a time, so that the
  /// processor overlaps their chains (Docs/PerformanceNotes.md, "Relayout and counting lines"); `nil` when a line starts with a segment wider than the line (which a fitter breaks), a paragraph alone
  /// among them when `widestAlone` is wider.
  static func countLines(_ runs: Buffers, _ long: LongParagraphs.Buffers, widestAlone: Int, width: Int) -> Int? {
    guard widestAlone <= width else { return nil }
    // A paragraph after each hard break: the text's last segment has none (its end is not a break opportunity).
    let alone = runs.hardBreaks.count &+ 1 &- long.count
    let unclamped = width &>> runs.widthShift <= indexPadding
    // Sums of 4 bytes where preparing made them and the line is narrow enough; otherwise those of 8.
    if !runs.countSums.isEmpty, width < countWidthLimit {
      return unclamped
        ? countLines(runs, long, alone: alone, width: width, UnclampedCells.self, NarrowSums.self)
        : countLines(runs, long, alone: alone, width: width, ClampedCells.self, NarrowSums.self)
    }
    return unclamped
      ? countLines(runs, long, alone: alone, width: width, UnclampedCells.self, WideSums.self)
      : countLines(runs, long, alone: alone, width: width, ClampedCells.self, WideSums.self)
  }

  /// How a line's limit finds its cell in the width index.
  protocol CellBound {
    /// The cell for `value`, the limit without gaps shifted.
    static func cell(_ value: Int, _ runs: Buffers) -> Int
  }

  /// No higher than the index's last cell.
  enum ClampedCells: CellBound {
    @inline(__always)
    static func cell(_ value: Int, _ runs: Buffers) -> Int { min(value, runs.widthIndex.count &- 1) }
  }

  /// As it is, for a line no wider than ``indexPadding`` cells: a step fewer in each line's chain (the sum before
  /// a line is at most the total width, whose cell and the padding's end the line's limit cannot pass).
  enum UnclampedCells: CellBound {
    @inline(__always)
    static func cell(_ value: Int, _ runs: Buffers) -> Int { value }
  }

  /// ``countLines(_:_:widestAlone:before:width:)``, with the cells of the width index found as `Cells` finds them,
  /// and `alone` lines of the paragraphs of one segment.
  private static func countLines<Cells: CellBound, Sums: CountSums>(
    _ runs: Buffers, _ long: LongParagraphs.Buffers, alone: Int, width: Int, _ cells: Cells.Type, _ sums: Sums.Type
  ) -> Int? {
    let paragraphs = long.count
    guard paragraphs > 0 else { return alone }
    var a = ParagraphLines<Sums>(0, of: long, runs, width: width)
    guard paragraphs > 1 else { return countAlone(a, lines: alone &+ 1, runs, width: width, Cells.self) }
    var b = ParagraphLines<Sums>(1, of: long, runs, width: width)
    guard paragraphs > 2 else { return countTwo(a, b, lines: alone &+ 2, runs, width: width, Cells.self) }
    var c = ParagraphLines<Sums>(2, of: long, runs, width: width)
    var paragraph = 3  // the next in `long` that none has taken
    var lines = alone &+ 3
    // While each of the three may take a paragraph in a step, each takes its next line or the next paragraph with
    // no branch (``ParagraphLines/advance(to:orTo:of:_:width:)``): a line either way.
    while paragraph &+ 2 < paragraphs {
      let aNext = a.next(runs, width: width, Cells.self)
      let bNext = b.next(runs, width: width, Cells.self)
      let cNext = c.next(runs, width: width, Cells.self)
      guard a.fits(before: aNext), b.fits(before: bNext), c.fits(before: cNext) else { return nil }
      paragraph &+= a.advance(to: aNext, orTo: paragraph, of: long, runs, width: width)
      paragraph &+= b.advance(to: bNext, orTo: paragraph, of: long, runs, width: width)
      paragraph &+= c.advance(to: cNext, orTo: paragraph, of: long, runs, width: width)
      lines &+= 3
    }
    // The last paragraphs, each chain's line found with its start (``ParagraphLines/nextLine(_:width:_:)``): three
    // chains or fewer wait on their lines' latency.
    while true {
      let (aNext, aBase) = a.nextLine(runs, width: width, Cells.self)
      let (bNext, bBase) = b.nextLine(runs, width: width, Cells.self)
      let (cNext, cBase) = c.nextLine(runs, width: width, Cells.self)
      guard a.fits(before: aNext), b.fits(before: bNext), c.fits(before: cNext) else { return nil }
      guard moveOn(&a, to: aNext, at: aBase, paragraph: &paragraph, of: long, runs, width: width) else {
        // None left for the first: the other two take their lines found in this step, and go on.
        let bGoes = bNext <= b.last
        let cGoes = cNext <= c.last
        if bGoes { b.start(bNext, at: bBase) }
        if cGoes { c.start(cNext, at: cBase) }
        lines &+= (bGoes ? 1 : 0) &+ (cGoes ? 1 : 0)
        return countRest(b, bGoes, c, cGoes, lines: lines, runs, width: width, Cells.self)
      }
      lines &+= 1
      guard moveOn(&b, to: bNext, at: bBase, paragraph: &paragraph, of: long, runs, width: width) else {
        let cGoes = cNext <= c.last
        if cGoes {
          c.start(cNext, at: cBase)
          lines &+= 1
        }
        return countRest(a, true, c, cGoes, lines: lines, runs, width: width, Cells.self)
      }
      lines &+= 1
      guard moveOn(&c, to: cNext, at: cBase, paragraph: &paragraph, of: long, runs, width: width) else {
        return countTwo(a, b, lines: lines, runs, width: width, Cells.self)
      }
      lines &+= 1
    }
  }

  /// Moves `lane` to the line that starts with segment `next` at running sum `base`, or when its paragraph ends before
  /// it, to the first line of paragraph `long[paragraph]`, the next that no chain has taken; `false` when there is
  /// none left.
  @inline(__always)
  private static func moveOn<Sums: CountSums>(
    _ lane: inout ParagraphLines<Sums>, to next: Int, at base: Sums.Sum, paragraph: inout Int,
    of long: LongParagraphs.Buffers, _ runs: Buffers, width: Int
  ) -> Bool {
    if next <= lane.last {
      lane.start(next, at: base)
    } else if paragraph < long.count {
      lane = ParagraphLines<Sums>(paragraph, of: long, runs, width: width)
      paragraph &+= 1
    } else {
      return false
    }
    return true
  }

  /// The count once no paragraph is left, with the chains that go on (`aGoes`, `bGoes`) at lines not yet searched.
  private static func countRest<Cells: CellBound, Sums: CountSums>(
    _ a: ParagraphLines<Sums>, _ aGoes: Bool, _ b: ParagraphLines<Sums>, _ bGoes: Bool, lines: Int, _ runs: Buffers,
    width: Int, _ cells: Cells.Type
  ) -> Int? {
    switch (aGoes, bGoes) {
    case (true, true): return countTwo(a, b, lines: lines, runs, width: width, Cells.self)
    case (true, false): return countAlone(a, lines: lines, runs, width: width, Cells.self)
    case (false, true): return countAlone(b, lines: lines, runs, width: width, Cells.self)
    case (false, false): return lines
    }
  }

  /// The count with two chains at lines not yet searched, the last paragraphs: `lines` started so far.
  private static func countTwo<Cells: CellBound, Sums: CountSums>(
    _ a: ParagraphLines<Sums>, _ b: ParagraphLines<Sums>, lines: Int, _ runs: Buffers, width: Int, _ cells: Cells.Type
  ) -> Int? {
    var a = a
    var b = b
    var lines = lines
    while true {
      let (aNext, aBase) = a.nextLine(runs, width: width, Cells.self)
      let (bNext, bBase) = b.nextLine(runs, width: width, Cells.self)
      guard a.fits(before: aNext), b.fits(before: bNext) else { return nil }
      let aGoes = aNext <= a.last
      let bGoes = bNext <= b.last
      if aGoes { a.start(aNext, at: aBase) }
      if bGoes { b.start(bNext, at: bBase) }
      lines &+= (aGoes ? 1 : 0) &+ (bGoes ? 1 : 0)
      if !aGoes || !bGoes { return countRest(a, aGoes, b, bGoes, lines: lines, runs, width: width, Cells.self) }
    }
  }

  /// The count with one chain at a line not yet searched, the last paragraph.
  private static func countAlone<Cells: CellBound, Sums: CountSums>(
    _ a: ParagraphLines<Sums>, lines: Int, _ runs: Buffers, width: Int, _ cells: Cells.Type
  ) -> Int? {
    var a = a
    var lines = lines
    while true {
      let (next, base) = a.nextLine(runs, width: width, Cells.self)
      guard a.fits(before: next) else { return nil }
      if next > a.last { return lines }
      a.start(next, at: base)
      lines &+= 1
    }
  }
}
