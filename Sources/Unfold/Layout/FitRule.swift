/// Decides whether a stretch of a line fits the width, the one place where the target's fit rule is applied
/// (the layout and the truncation both ask it).
///
/// For exact measurers the sum decides. For a font, where each inline item is rounded up before summing, the
/// sum decides whenever it is far from the width; near it, a line of one style is its one item, and the items of a
/// line of several are measured one by one (a line rarely ends within half a pixel of its width).
struct FitRule {
  let text: StyledText
  let measurer: any TextMeasurer
  let width: Int
  /// Where the target starts an inline item inside a run of one style.
  let itemBreaks: ItemBreaks

  /// Whether the line from `start` up to `end` (whose exact width is `total`), followed by `extra` items
  /// (a hyphen, an ellipsis, a label), fits.
  ///
  /// `clusters`: the line's clusters from `start` on, as a walk measured them, read rather than walked again.
  func fits(_ start: Int, _ end: Int, total: Int, extra: [Int] = [], clusters: [Cluster]? = nil) -> Bool {
    let all = total + extra.reduce(0, +)
    if let decided = Self.decide(all, width: width, rounding: measurer.itemRounding) { return decided }
    // A stretch of one style is one inline item, of width `total`: no cluster to measure again (a line of
    // ideographs in a 1000-unit font ends near the width at every multiple of the em).
    if end <= start
      || text.runIndex(containing: start) == text.runIndex(containing: end - 1)
        && !itemBreaks.any(inside: start..<end)
    {
      return measurer.fits(items: [total] + extra, width: width)
    }
    let measured = clusters.map { items(of: $0.prefix { $0.end <= end }, from: start) } ?? items(start, end)
    return measurer.fits(items: measured + extra, width: width)
  }

  /// The largest sum that surely fits: the width for an exact measurer; for a rounding one, the width less
  /// the rounding of 32 items (what ``decide(_:width:rounding:)`` takes as fitting without measuring).
  @inline(__always)
  static func surelyFitting(width: Int, rounding: Int) -> Int { rounding > 0 ? width - rounding * 32 : width }

  /// What the sum alone decides: everything for an exact measurer, and a sum far from the width for a
  /// rounding one; nil when the items must be measured one by one.
  @inline(__always)
  static func decide(_ total: Int, width: Int, rounding: Int) -> Bool? {
    guard rounding > 0 else { return total <= width }
    if total <= surelyFitting(width: width, rounding: rounding) { return true }
    if total > width + rounding { return false }
    return nil
  }

  /// The widths of the inline items between two offsets of a line: its runs of one style, cut at the
  /// ``itemBreaks``.
  func items(_ start: Int, _ end: Int) -> [Int] {
    items(of: IteratorSequence(ClusterWalk(text, range: start..<end, measurer: measurer)), from: start)
  }

  /// The widths of the inline items of `clusters`, the clusters of a line from `start` on.
  private func items(of clusters: some Sequence<Cluster>, from start: Int) -> [Int] {
    var items: [Int] = []
    var run: Int?
    let breaks = itemBreaks.offsets
    var nextBreak = itemBreaks.first(after: start)
    for cluster in clusters {
      var startsItem = cluster.run != run || items.isEmpty
      if nextBreak < breaks.count, breaks[nextBreak] <= cluster.start {
        startsItem = true
        while nextBreak < breaks.count, breaks[nextBreak] <= cluster.start { nextBreak += 1 }
      }
      if startsItem {
        items.append(cluster.advance)
        run = cluster.run
      } else {
        items[items.count - 1] += cluster.advance
      }
    }
    return items
  }
}
