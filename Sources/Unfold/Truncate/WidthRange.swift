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
  /// The text is prepared once. It is laid out again only at the widths where a shown line may take more
  /// (``PreparedText/widthOfNextChange(after:lineLimit:)``), and the cut line cut again only where its cut may
  /// move (`LineDrawer.cutEnd(_:suffix:snapsToWords:clusters:)`); every other width reads the last ones.
  static func collapsedViews(
    _ text: StyledText, measurer: FontMeasurer, breaker: LineBreaker, widths: ClosedRange<Int>,
    options: TruncationOptions
  ) -> [WidthLayout] {
    let prepared = PreparedText(text, measurer: measurer, breaker: breaker)
    let limit = options.effectiveLineLimit
    var layouts: [WidthLayout] = []
    var last: ViewKey?
    var laidOut: (layout: LineLayout, holdsBelow: Int)?
    var cutLine: CutLine?
    // The last cut, and what it holds for: the cut line's range, the marks' widths, the widths below a bound.
    var cut: (line: Range<Int>, marks: [Int], end: Int, width: Int?, holdsBelow: Int)?
    let labels = MeasuredLabels(options, measurer: measurer)
    for pixels in widths {
      let units = measurer.layoutWidth(pixels: Double(pixels))
      let layout: LineLayout
      if let laidOut, units < laidOut.holdsBelow {
        layout = laidOut.layout.at(width: units)
      } else {
        layout = prepared.layout(width: units, lineLimit: limit)
        laidOut = (layout, prepared.widthOfNextChange(after: layout, lineLimit: limit))
      }
      let drawer = LineDrawer(layout: layout)
      var key = ViewKey(layout, options: drawer.fitting(options, labels: labels))
      if key.cuts, let line = layout.lines.prefix(limit).last {
        key.marks = drawer.marks(key.options, labels: labels).map(\.width)
        if let cut, cut.line == line.range, cut.marks == key.marks, units < cut.holdsBelow {
          (key.cutEnd, key.cutWidth) = (cut.end, cut.width)
        } else {
          // The cut line's clusters, measured once for every width that cuts it.
          let clusters = cutLine.flatMap { $0.range == line.range ? $0 : nil } ?? CutLine(line, in: drawer)
          cutLine = clusters
          let end = drawer.cutEnd(line, suffix: key.marks, snapsToWords: true, clusters: clusters.clusters)
          (key.cutEnd, key.cutWidth) = (end.end, end.width)
          cut = (line.range, key.marks, end.end, end.width, end.holdsBelow)
        }
      }
      if key == last, let previous = layouts.last {
        layouts[layouts.count - 1].widths = previous.widths.lowerBound...pixels
        continue
      }
      last = key
      let view = truncate(
        layout, options: options, state: .collapsed, findsUnpredictableRanges: false, labels: labels,
        cutLine: cutLine)
      if let previous = layouts.last, previous.view.shows(as: view) {
        layouts[layouts.count - 1].widths = previous.widths.lowerBound...pixels
      } else {
        layouts.append(WidthLayout(widths: pixels...pixels, view: view))
      }
    }
    return layouts
  }

  /// What decides a collapsed view at a width, found without drawing it: two widths of one key show the same.
  ///
  /// A view that is not truncated is its lines, drawn from their ranges; a tail cut that shows the toggle inline,
  /// below or not at all is the lines before the cut line, and the cut line cut back to where the marks fit. Any
  /// other view (a head or middle cut, an overlaid toggle, whose padding follows the width, blank lines collapsed)
  /// has a key of its own at each width, and is drawn to be compared.
  private struct ViewKey: Equatable {
    /// The shown lines: all of them, or the first `lineLimit` when truncated.
    var lines: ArraySlice<LineLayout.Line>
    var isTruncated: Bool
    var options: TruncationOptions
    /// The widths of the marks after the cut (set for a tail cut).
    var marks: [Int] = []
    /// Where the cut line ends, and the width of what it keeps (set for a tail cut).
    var cutEnd: Int?
    var cutWidth: Int?
    /// A width's own key: never equal to another's.
    var width: Int?

    /// Whether the view is a tail cut whose end decides it, with the marks' widths and the cut end still to find.
    var cuts: Bool {
      isTruncated && options.mode == .tail && !options.collapsesBlankLines && options.toggle != .overlay
    }

    init(_ layout: LineLayout, options: TruncationOptions) {
      let limit = options.effectiveLineLimit
      isTruncated = !layout.isComplete || layout.lines.count > limit
      lines = isTruncated ? layout.lines.prefix(limit) : layout.lines[...]
      self.options = options
      let drawnAsIs = !isTruncated && !options.collapsesBlankLines && !options.reservesSpace
      width = drawnAsIs || cuts ? nil : layout.width
    }
  }
}

extension TruncatedText {
  /// Whether a reader sees the same in both: the same lines of the same fragments, truncated or not (the widths
  /// they were laid out for, and a count of the lines past the limit, may differ).
  func shows(as other: TruncatedText) -> Bool {
    isTruncated == other.isTruncated && lines == other.lines
  }
}
