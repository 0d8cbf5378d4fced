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
  /// move (`LineDrawer.cutEnd(_:suffix:snapsToWords:clusters:)`); the widths before the first of those bounds and
  /// of the labels' (`MeasuredLabels.nextChange(after:)`) are not visited.
  static func collapsedViews(
    _ text: StyledText, measurer: FontMeasurer, breaker: LineBreaker, widths: ClosedRange<Int>,
    options: TruncationOptions
  ) -> [WidthLayout] {
    let limit = options.effectiveLineLimit
    // As much of the text as the widest width's lines show: a long text costs what its start costs.
    let prepared = PreparedText(
      text, measurer: measurer, breaker: breaker, lineLimit: limit,
      width: measurer.layoutWidth(pixels: Double(widths.upperBound)))
    var layouts: [WidthLayout] = []
    var last: ViewKey?
    // The lines of the last layout, and the width below which they hold.
    var laidOut: (layout: LineLayout, holdsBelow: Int)?
    var cutLine: CutLine?
    var walked = WalkedClusters(text, measurer: measurer)
    // The last cut of `cutLine`, and what it holds for: the marks' widths, the widths below a bound.
    var cut: (marks: [Int], end: Int, width: Int?, holdsBelow: Int)?
    let labels = MeasuredLabels(options, measurer: measurer)
    var pixels = widths.lowerBound
    while pixels <= widths.upperBound {
      let units = measurer.layoutWidth(pixels: Double(pixels))
      let layout: LineLayout
      if let laidOut, units < laidOut.holdsBelow {
        layout = laidOut.layout
      } else {
        layout = prepared.layout(width: units, lineLimit: limit)
        laidOut = (layout, prepared.widthOfNextChange(after: layout, lineLimit: limit))
      }
      let fitted = labels.fitting(options, width: units)
      var key = ViewKey(layout, width: units, options: fitted)
      if key.cuts, let line = layout.lines.prefix(limit).last {
        key.marks = labels.marks(fitted, width: units).map(\.width)
        if let cut, cutLine?.range == line.range, cut.marks == key.marks, units < cut.holdsBelow {
          (key.cutEnd, key.cutWidth) = (cut.end, cut.width)
        } else {
          // The cut line's clusters, measured once for every width that cuts it.
          let drawer = LineDrawer(layout: layout.at(width: units))
          let clusters =
            cutLine.flatMap { $0.range == line.range ? $0 : nil }
            ?? walked.clusters(in: line.contentRange).map { CutLine(line, clusters: $0) } ?? CutLine(line, in: drawer)
          cutLine = clusters
          let end = drawer.cutEnd(line, suffix: key.marks, snapsToWords: true, clusters: clusters.clusters)
          (key.cutEnd, key.cutWidth) = (end.end, end.width)
          cut = (key.marks, end.end, end.width, end.holdsBelow)
        }
      }
      if key != last || layouts.isEmpty {
        last = key
        let view = truncate(
          layout.at(width: units), options: options, state: .collapsed, findsUnpredictableRanges: false,
          labels: labels, cutLine: cutLine)
        if layouts.last?.view.shows(as: view) != true {
          layouts.append(WidthLayout(widths: pixels...pixels, view: view))
        }
      }
      // The key holds for every width below the first that reaches one of its bounds (the layout's, the labels'
      // fit, the cut's): those widths show this view, unvisited.
      var through = pixels
      if key.width == nil, let laidOut {
        var bound = min(laidOut.holdsBelow, labels.nextChange(after: units))
        if key.cuts, let cut { bound = min(bound, cut.holdsBelow) }
        through = Self.lastWidth(before: bound, from: pixels, upTo: widths.upperBound, measurer: measurer)
      }
      layouts[layouts.count - 1].widths = layouts[layouts.count - 1].widths.lowerBound...through
      pixels = through + 1
    }
    return layouts
  }

  /// The widest whole CSS px width from `pixels` (whose layout width is below `bound`) to `upper` whose layout width
  /// is below `bound` (layout widths grow with the pixels).
  private static func lastWidth(before bound: Int, from pixels: Int, upTo upper: Int, measurer: FontMeasurer) -> Int {
    let below = { (pixels: Int) in measurer.layoutWidth(pixels: Double(pixels)) < bound }
    guard !below(upper) else { return upper }
    var (low, high) = (pixels, upper)  // below(low), !below(high)
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if below(middle) { low = middle } else { high = middle }
    }
    return low
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

    /// The key of `layout`'s lines at `width` (the layout's own, or a wider one that lays them out the same).
    init(_ layout: LineLayout, width: Int, options: TruncationOptions) {
      let limit = options.effectiveLineLimit
      isTruncated = !layout.isComplete || layout.lines.count > limit
      lines = isTruncated ? layout.lines.prefix(limit) : layout.lines[...]
      self.options = options
      let drawnAsIs = !isTruncated && !options.collapsesBlankLines && !options.reservesSpace
      self.width = drawnAsIs || cuts ? nil : width
    }
  }
}

/// The clusters of a text from its start, walked and measured once as far as a line asks, for the cut lines of a
/// range of widths: a cluster's advance does not depend on where the walk starts (its word is shaped from the text,
/// not from the walk's range), but for a tab's.
private struct WalkedClusters {
  private var walk: ClusterWalk
  private var clusters: [Cluster] = []

  init(_ text: StyledText, measurer: any TextMeasurer) {
    walk = ClusterWalk(text, range: 0..<text.string.utf8.count, measurer: measurer)
  }

  /// The clusters of `range` (UTF-8 offsets on cluster boundaries), the walk taken on as far as its end; `nil` when
  /// a tab is among them.
  mutating func clusters(in range: Range<Int>) -> ArraySlice<Cluster>? {
    while clusters.last.map({ $0.end < range.upperBound }) ?? true, let next = walk.next() { clusters.append(next) }
    let lower = clusters.partitionIndex(where: { $0.start >= range.lowerBound })
    let upper = clusters.partitionIndex(where: { $0.end > range.upperBound })
    let found = clusters[lower..<max(lower, upper)]
    guard found.first?.start ?? range.lowerBound == range.lowerBound,
      found.last?.end ?? range.lowerBound == range.upperBound, !found.contains(where: \.isTab)
    else { return nil }
    return found
  }
}

extension TruncatedText {
  /// Whether a reader sees the same in both: the same lines of the same fragments, truncated or not (the widths
  /// they were laid out for, and a count of the lines past the limit, may differ).
  func shows(as other: TruncatedText) -> Bool {
    isTruncated == other.isTruncated && lines == other.lines
  }
}
