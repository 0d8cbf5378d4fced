/// One collapsed view of a paragraph and the container widths, in whole CSS px, that show it.
public struct WidthLayout: Hashable, Sendable {
  /// The widths that show ``view``: every whole CSS px from the lower bound to the upper one.
  public var widths: ClosedRange<Int>
  /// The collapsed view, as laid out at the narrowest of ``widths`` (its ``TruncatedText/width`` is that one's).
  public var view: TruncatedText
}

extension Truncator {
  /// The distinct collapsed views of `text` at every whole CSS px width in `widths`, narrowest first, each with the
  /// interval of widths that shows it: a view changes only where a line takes another segment or the cut line
  /// another cluster, so a range of a thousand widths has far fewer views.
  ///
  /// The text is prepared once; each width is a relayout of the first lines and a cut of the last.
  static func collapsedViews(
    _ text: StyledText, measurer: FontMeasurer, breaker: LineBreaker, widths: ClosedRange<Int>,
    options: TruncationOptions
  ) -> [WidthLayout] {
    let prepared = PreparedText(text, measurer: measurer, breaker: breaker)
    let limit = options.effectiveLineLimit
    var layouts: [WidthLayout] = []
    for pixels in widths {
      let layout = prepared.layout(width: measurer.layoutWidth(pixels: Double(pixels)), lineLimit: limit)
      let view = truncate(layout, options: options, state: .collapsed, findsUnpredictableRanges: false)
      if let last = layouts.last, last.view.shows(as: view) {
        layouts[layouts.count - 1].widths = last.widths.lowerBound...pixels
      } else {
        layouts.append(WidthLayout(widths: pixels...pixels, view: view))
      }
    }
    return layouts
  }
}

extension TruncatedText {
  /// Whether a reader sees the same in both: the same lines of the same fragments, truncated or not (the widths
  /// they were laid out for, and a count of the lines past the limit, may differ).
  func shows(as other: TruncatedText) -> Bool {
    isTruncated == other.isTruncated && lines == other.lines
  }
}
