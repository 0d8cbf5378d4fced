/// A styled text broken into lines for one width.
///
/// The lines tile the text: each line's range starts where the previous one ended, and together they cover
/// every UTF-8 offset. What a line draws is its range up to ``Line/contentEnd``: trailing spaces hang past
/// the end of the line and a newline is not drawn.
package struct LineLayout: Sendable {
  /// One line.
  package struct Line: Hashable, Sendable {
    /// The UTF-8 range of the text the line holds, trailing spaces and newline included.
    package var range: Range<Int>
    /// The end of what is drawn: the range without its hanging trailing spaces and newline.
    package var contentEnd: Int
    /// The width of what is drawn, the hyphen included.
    package var width: Int
    /// Whether the line ends after a soft hyphen, which is drawn as a hyphen.
    package var isHyphenated: Bool

    /// The UTF-8 range of what is drawn.
    package var contentRange: Range<Int> { range.lowerBound..<contentEnd }
  }

  /// The text laid out.
  package let text: StyledText
  /// The measurer of its widths.
  package let measurer: any TextMeasurer
  /// The breaker of its lines.
  package let breaker: LineBreaker
  /// The width of a line.
  package let width: Int
  /// The lines, in order.
  package let lines: [Line]
  /// Break opportunities in increasing order, among them every one inside a line's content (see
  /// ``breakOffsets(of:)``): those the layout recorded, or all of a prepared text's, shared with it.
  let breakOffsetStorage: [Int]
  /// Whether the lines cover the whole text; `false` when a line limit stopped the layout early because
  /// the text needs more lines than the limit.
  package let isComplete: Bool
  /// Where the measurer's target starts an inline item inside a run of one style (for cutting a line).
  let itemBreaks: ItemBreaks

  /// Lays out a styled text, measuring as it goes, and stops as soon as it knows the text exceeds
  /// `lineLimit` lines: showing 3 lines of a long text costs what its first lines cost.
  ///
  /// - Parameters:
  ///   - text: the text to lay out.
  ///   - measurer: the measurer of its widths.
  ///   - breaker: the rules that find its break opportunities.
  ///   - width: the width of a line, in the measurer's unit; below 1 acts as 1.
  ///   - lineLimit: the number of lines wanted, or `nil` for all of them.
  /// - Complexity: O(*k*) in the length of the text laid out.
  package init(
    _ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .unicode,
    width: Int, lineLimit: Int? = nil
  ) {
    self.init(text, measurer: measurer, breaker: breaker, width: width, lineLimit: lineLimit, recordsBreakOffsets: true)
  }

  /// Lays out a styled text; without `recordsBreakOffsets`, every line's ``breakOffsets(of:)`` stays empty
  /// (an expanded view never cuts a line, and the offsets would be a sixth of its peak memory).
  init(
    _ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: Int, lineLimit: Int?,
    recordsBreakOffsets: Bool
  ) {
    self = Layout.lines(
      text, measurer: measurer, breaker: breaker, width: LineWidth(width), lineLimit: lineLimit,
      recordsBreakOffsets: recordsBreakOffsets)
  }

  init(
    text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: Int, lines: [Line],
    breakOffsetStorage: [Int] = [], isComplete: Bool, itemBreaks: ItemBreaks? = nil
  ) {
    self.itemBreaks = itemBreaks ?? ItemBreaks(text, measurer: measurer)
    self.text = text
    self.measurer = measurer
    self.breaker = breaker
    self.width = width
    self.lines = lines
    self.breakOffsetStorage = breakOffsetStorage
    self.isComplete = isComplete
  }

  /// This layout at another width whose lines are the same (``PreparedText/widthOfNextChange(after:lineLimit:)``
  /// says up to where): what a truncation at that width cuts and fits its toggle to.
  func at(width: Int) -> LineLayout {
    LineLayout(
      text: text, measurer: measurer, breaker: breaker, width: width, lines: lines,
      breakOffsetStorage: breakOffsetStorage, isComplete: isComplete, itemBreaks: itemBreaks)
  }

  /// The break opportunities inside a line's content (UTF-8 offsets), for one of this layout's lines; empty
  /// for the lines of an expanded view, which never cuts a line.
  /// - Complexity: O(log *n*) in the number of opportunities.
  package func breakOffsets(of line: Line) -> ArraySlice<Int> {
    let lower = breakOffsetStorage.partitionIndex(where: { $0 > line.range.lowerBound })
    let upper = breakOffsetStorage.partitionIndex(where: { $0 >= line.contentEnd })
    return breakOffsetStorage[lower..<max(lower, upper)]
  }
}
