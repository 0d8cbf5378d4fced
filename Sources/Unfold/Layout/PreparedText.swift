/// A styled text measured once, ready to be laid out at any width with arithmetic only.
///
/// Preparing finds the break opportunities and measures every segment between them; a layout at a width
/// (``truncated(width:options:state:)``, ``lineCount(width:lineLimit:)``) then walks these numbers, so laying the
/// same text out at another width measures nothing again (except the clusters of a word wider than the line,
/// which it breaks at grapheme boundaries).
///
///     let prepared = PreparedText(text, measurer: TerminalCells())
///     let narrow = prepared.truncated(width: 30, state: .collapsed)
///     let wide = prepared.truncated(width: 80, state: .collapsed)
///     let lines = prepared.lineCount(width: 50)
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
  /// The widths a relayout places plain segments with (``RunningSums``); their total tells how many lines a
  /// width makes, about.
  let runningSums: RunningSums
  /// The width of the hyphen a line that breaks after a soft hyphen shows.
  let hyphenWidth: Int
  /// Whether the measurer is exact (no item rounding): the sum of a line's widths decides its fit.
  let isExact: Bool
  /// The paragraphs that a count of lines follows line by line (``RunningSums/LongParagraphs``).
  let longParagraphs: RunningSums.LongParagraphs
  /// Where the measurer's target starts an inline item inside a run of one style (``ItemBreaks``).
  let itemBreaks: ItemBreaks

  /// Prepares a text.
  /// - Complexity: O(*n*) in the length of the text.
  public init(_ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .unicode) {
    self.init(text, measurer: measurer, breaker: breaker, narrowSums: true)
  }

  /// Prepares a text whose lines are counted in sums of 4 bytes (``RunningSums/countSums``) if `narrowSums` is set, as
  /// every text narrower than ``RunningSums/countWidthLimit`` is, or in those of 8 (``RunningSums/contentEnds``), as a
  /// wider one is: what the tests count both ways.
  init(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, narrowSums: Bool) {
    var segmenter = Segmenter(text, measurer: measurer, breaker: breaker)
    self.init(text, segments: segmenter.all(), measurer: measurer, breaker: breaker, narrowSums: narrowSums)
  }

  /// Prepares as much of a text as its first `lineLimit` lines at any width up to `width` show, and more: a layout
  /// with that limit at such a width then lays out the same lines as one of the whole text, and finds it truncated
  /// (``LineLayout/isComplete`` `false`) where that one does.
  ///
  /// The segments are measured a window at a time, until those measured add up to more than `lineLimit + 1` lines
  /// of `width` (with the rounding of 32 items and the widest trailing spaces a line hangs): a line holds no more
  /// than that. A text with a tab, whose width depends on where it stands, is prepared whole.
  init(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, lineLimit: Int, width: Int) {
    var segmenter = Segmenter(text, measurer: measurer, breaker: breaker)
    var segments: [Segment] = []
    var sum = 0
    var widestSpaces = 0
    var hasTab = false
    let line = width + max(1, measurer.itemRounding) * 32
    while segmenter.nextWindow({ window in
      segments.append(contentsOf: window)
      for segment in window {
        sum += segment.contentWidth + segment.spaceWidth
        widestSpaces = max(widestSpaces, segment.spaceWidth)
        hasTab = hasTab || segment.hasTab
      }
    }) {
      let shown = (line + widestSpaces).multipliedReportingOverflow(by: min(max(1, lineLimit), Int.max - 1) + 1)
      if !hasTab, !shown.overflow, sum > shown.partialValue { break }
    }
    self.init(text, segments: segments, measurer: measurer, breaker: breaker, narrowSums: true)
  }

  /// A text prepared from its segments (all of them, or those of ``init(_:measurer:breaker:lineLimit:width:)``).
  private init(
    _ text: StyledText, segments: [Segment], measurer: any TextMeasurer, breaker: LineBreaker, narrowSums: Bool
  ) {
    self.text = text
    self.measurer = measurer
    self.breaker = breaker
    self.segments = segments
    self.runningSums = RunningSums(segments, narrowSums: narrowSums)
    self.starts = runningSums.starts
    // From the two arrays they read, not from the runs whole, which would copy them: seven arrays retained and
    // released.
    self.longParagraphs = RunningSums.LongParagraphs(
      hardBreaks: runningSums.hardBreaks, contentWidths: runningSums.contentWidths)
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
  ///   width (`RunningSums/widthIndex`), O(log *k*) in a line of *k* segments when more segments than that share
  ///   a cell of the index.
  package func layout(width: Int, lineLimit: Int? = nil) -> LineLayout {
    Layout.lines(of: self, width: LineWidth(width), lineLimit: lineLimit)
  }

  /// How many lines the text takes at `width`: the number of `layout(width:lineLimit:)`'s lines, found
  /// without making them, as pretext's `layout` finds a height: what a list needs for each cell's height at a
  /// new width, and to know which cells' collapsed views show a toggle, before drawing the few it shows.
  ///
  /// - Parameters:
  ///   - width: the width of a line, in the measurer's unit; below 1 acts as 1.
  ///   - lineLimit: when set, counting stops as soon as the text is known to need more lines than this, and
  ///     the count is then `lineLimit + 1`: a count above the limit says that a collapsed view of that many
  ///     lines truncates the text.
  /// - Complexity: that of `layout(width:lineLimit:)`, with no memory allocated.
  public func lineCount(width: Int, lineLimit: Int? = nil) -> Int {
    Layout.lineCount(of: self, width: LineWidth(width), lineLimit: lineLimit)
  }

  /// The break opportunities that preparing found, in order.
  package var breakOpportunities: [BreakOpportunity] {
    segments.dropLast().map {
      BreakOpportunity(offset: $0.end, kind: $0.isMandatoryBreak ? .mandatory : .allowed)
    }
  }
}

extension PreparedText {
  /// The narrowest width, in the measurer's unit, above `layout`'s (a layout of this text with a limit of
  /// `lineLimit` lines) at which the first `lineLimit` lines may differ; one above the layout's width when that
  /// is not known.
  ///
  /// Wider, a line can only take more: its lines stay the same until one of them takes the segment after its end,
  /// which needs at least the line's width, its trailing spaces and that segment's content, less the rounding of
  /// the sum (``FitRule/decide(_:width:rounding:)``). A line that ends at a hard break or with the text takes
  /// nothing more; one that ends inside a segment (a word broken where it was wider than the line), after a soft
  /// hyphen or before a tab may change at the next width.
  /// - Complexity: O(*k* log *n*) for the *k* lines, in the *n* segments.
  func widthOfNextChange(after layout: LineLayout, lineLimit: Int) -> Int {
    let next = layout.width + 1
    var change = Int.max
    for line in layout.lines.prefix(Layout.limit(lineLimit)) {
      let end = line.range.upperBound
      let following = starts.partitionIndex(where: { $0 >= end })
      guard following < segments.count else { continue }  // the text's last line
      guard starts[following] == end, following > 0, !line.isHyphenated, !segments[following].hasTab else {
        return next
      }
      let before = segments[following - 1]
      if before.isMandatoryBreak { continue }
      let spaces = before.hasTab ? 0 : before.spaceWidth
      change = min(change, line.width + spaces + segments[following].contentWidth - measurer.itemRounding)
    }
    return max(next, change)
  }
}
