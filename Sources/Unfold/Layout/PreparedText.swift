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
  ///   width (`PlainRuns/widthIndex`), O(log *k*) in a line of *k* segments when more segments than that share
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
