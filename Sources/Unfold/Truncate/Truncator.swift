/// Turns laid-out lines into what a reader sees in one state: the collapsed lines with the ellipsis and the
/// more label, or every line with the less label.
///
/// Collapsed, when the text needs more lines than the limit, the last visible line is cut back so that the
/// whole line, `… more` included, fits the width:
///
///     width 24, 2 lines         The quick brown fox
///                               jumps over the… more
///
/// The cut falls at a break opportunity when that keeps at least half of the room left for text; otherwise
/// at a grapheme boundary. Spaces before the ellipsis are dropped. When even the ellipsis and the label do not
/// fit the width, the line holds only them, and is wider than the width: a label is never cut.
package enum Truncator {
  /// What a reader sees of `layout` in `state`.
  ///
  /// A collapsed tail or middle truncation needs only the first `lineLimit` lines and the knowledge of
  /// whether more follow; an expanded state, a head truncation and collapsing blank lines need every line,
  /// and lay the rest out when `layout` stopped early.
  package static func truncate(
    _ layout: LineLayout, options: TruncationOptions = .default, state: DisplayState
  ) -> TruncatedText {
    truncate(layout, options: options, state: state, findsUnpredictableRanges: true)
  }

  /// ``truncate(_:options:state:)``, with ``TruncatedText/unpredictableRanges`` left empty unless
  /// `findsUnpredictableRanges`: finding them walks the shown text's clusters, for a caller that has no use
  /// for them (`Paragraph.html`, which gives no warning) a thirtieth of a comment's HTML.
  ///
  /// With `continues`, more follows the text (a document's later blocks): collapsed, its last shown line takes the
  /// ellipsis and the toggle even when the text fits the limit.
  static func truncate(
    _ layout: LineLayout, options: TruncationOptions, state: DisplayState, findsUnpredictableRanges: Bool,
    labels: MeasuredLabels? = nil, cutLine: CutLine? = nil, continues: Bool = false
  ) -> TruncatedText {
    let limit = options.effectiveLineLimit
    var layout = layout
    let needsAll = state == .expanded || options.mode == .head || options.collapsesBlankLines
    if needsAll && !layout.isComplete {
      layout = LineLayout(layout.text, measurer: layout.measurer, breaker: layout.breaker, width: layout.width)
    }
    // A text that fits the limit under `any` but not in some engine is cut as one that more text follows.
    let continues =
      continues
      || (layout.isComplete && layout.lines.count <= limit && !fitsEveryEngine(layout, lineLimit: limit))
    let isTruncated = continues || !layout.isComplete || layout.lines.count > limit
    let drawer = LineDrawer(layout: layout)
    let labels = labels ?? MeasuredLabels(options, measurer: layout.measurer)
    let options = drawer.fitting(options, labels: labels)
    var lines: [DisplayLine]
    switch (state, isTruncated) {
    case (.collapsed, true):
      var source = layout.lines
      if options.collapsesBlankLines {
        source = source.enumerated().filter { index, line in
          !(line.contentRange.isEmpty && index > 0 && source[index - 1].contentRange.isEmpty)
        }.map(\.element)
      }
      lines = drawer.collapsed(
        source, complete: layout.isComplete && !continues, options: options, labels: labels, cutLine: cutLine)
      lines += Array(repeating: DisplayLine(fragments: []), count: options.reservedBlankLines(after: lines.count))
    case (.expanded, _), (.collapsed, false):
      lines = Array(WholeTextLines(layout.lines.makeIterator(), drawer: drawer, options: options, state: state))
    }
    let shownEnd =
      state == .collapsed && isTruncated && options.mode == .tail
      ? layout.lines.prefix(limit).last?.range.upperBound ?? 0 : layout.text.string.utf8.count
    var truncated = TruncatedText(
      lines: lines, isTruncated: isTruncated, lineCount: layout.isComplete ? layout.lines.count : nil,
      state: state, width: layout.width, unit: layout.measurer.unit, mode: options.mode, toggle: options.toggle,
      unpredictableRanges: findsUnpredictableRanges
        ? layout.measurer.unpredictableRanges(in: layout.text, range: 0..<shownEnd) : [],
      diagnostics: options.lineLimit < 1
        ? [
          Diagnostic(
            .valueOutOfRange, offset: 0, message: "lineLimit \(options.lineLimit) is below 1: 1 line is shown")
        ] : [])
    // The terminal draws lines in visual order by their paragraph's levels.
    if layout.measurer.unit == .cells, TextDirection.holdsBidiCharacter(layout.text.string) {
      let direction = TextDirection(firstStrongIn: layout.text.string)
      truncated.paragraphLevels = ParagraphLevels(
        levels: BidiLevels(layout.text.string, direction: direction), text: layout.text.string)
    }
    return truncated
  }

  /// The diagnostic of a width below 1, which the layout clamps to 1 (``LineLayout``): reported, not thrown, so
  /// that a view always draws.
  static func widthOutOfRange(_ width: Int, unit: WidthUnit) -> [Diagnostic] {
    guard width < 1 else { return [] }
    return [
      Diagnostic(.valueOutOfRange, offset: 0, message: "width \(width) is below 1: lines are laid out 1 \(unit) wide")
    ]
  }

  /// Lays out and truncates a styled text, stopping the layout at the line limit when collapsed.
  ///
  /// - Parameters:
  ///   - text: the text to show.
  ///   - measurer: the measurer of its widths.
  ///   - breaker: the rules that find its break opportunities.
  ///   - width: the width of a line, in the measurer's unit.
  ///   - options: the line limit, the truncation mode, the labels and the toggle's place.
  ///   - state: collapsed or expanded.
  ///   - countingAllLines: lay out the whole text even when collapsed, so that ``TruncatedText/lineCount`` is
  ///     known.
  package static func truncate(
    _ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .unicode,
    width: Int, options: TruncationOptions = .default, state: DisplayState, countingAllLines: Bool = false
  ) -> TruncatedText {
    truncate(
      text, measurer: measurer, breaker: breaker, width: width, options: options, state: state,
      countingAllLines: countingAllLines, findsUnpredictableRanges: true)
  }

  /// Whether a complete layout of at most `lineLimit` lines fits that limit in every engine: always, but under
  /// ``BrowserEngine/any`` when a line ends where its rules allow no break (a word wider than the line, broken
  /// between two clusters, as `overflow-wrap` breaks it).
  ///
  /// `any` breaks only where every engine may, and measures every cluster at its widest, so an engine's line holds
  /// at least what the prediction's does, and its lines are no more. A word broken for want of a break is the
  /// exception: an engine with a break of its own inside the word (Gecko's after `C:` in a Windows path, or
  /// after the slashes of a URL) takes it instead, ends its line earlier, and can take more lines. Then each
  /// engine's own lines are counted, at the prediction's width, by its own rules.
  static func fitsEveryEngine(_ layout: LineLayout, lineLimit: Int) -> Bool {
    guard layout.lines.count > 1, let measurer = layout.measurer as? FontMeasurer, measurer.engine == .any else {
      return true
    }
    // The ends of the lines but the last, each of which must be a break the rules allow.
    var ends = layout.lines.dropLast().lazy.map(\.range.upperBound).makeIterator()
    var end = ends.next()
    var opportunities = layout.breaker.opportunities(in: layout.text.string)
    var brokenInsideAWord = false
    while let wanted = end {
      guard let found = opportunities.next(), found.offset <= wanted else {
        brokenInsideAWord = true
        break
      }
      if found.offset == wanted { end = ends.next() }
    }
    guard brokenInsideAWord else { return true }
    let pixels = Double(layout.width) / Double(FontMeasurer.unitsPerPixel)
    return measurer.engineMeasurers.allSatisfy { engine in
      let lines = LineLayout(
        layout.text, measurer: engine, breaker: LineBreaker(rules: .init(engine.engine)),
        width: engine.layoutWidth(pixels: pixels), lineLimit: lineLimit)
      return lines.isComplete && lines.lines.count <= lineLimit
    }
  }

  /// ``truncate(_:measurer:breaker:width:options:state:countingAllLines:)``, with the unpredictable ranges found
  /// only when asked (see ``truncate(_:options:state:findsUnpredictableRanges:)``).
  static func truncate(
    _ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: Int, options: TruncationOptions,
    state: DisplayState, countingAllLines: Bool, findsUnpredictableRanges: Bool
  ) -> TruncatedText {
    let stopAfter = state == .collapsed && !countingAllLines ? options.effectiveLineLimit : nil
    let layout = LineLayout(
      text, measurer: measurer, breaker: breaker, width: width, lineLimit: stopAfter,
      recordsBreakOffsets: state == .collapsed)
    var truncated = truncate(
      layout, options: options, state: state, findsUnpredictableRanges: findsUnpredictableRanges)
    truncated.diagnostics += widthOutOfRange(width, unit: measurer.unit)
    return truncated
  }
}

extension PreparedText {
  /// What a reader sees of the prepared text at `width` in `state` (the whole text is laid out, so the line
  /// count is always known).
  public func truncated(width: Int, options: TruncationOptions = .default, state: DisplayState) -> TruncatedText {
    Truncator.truncate(layout(width: width), options: options, state: state)
  }
}
