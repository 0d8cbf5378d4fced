/// Decides whether a stretch of a line fits the width, the one place where the target's fit rule is applied
/// (the layout and the truncation both ask it).
///
/// For exact measurers the sum decides. For a font, where each inline item is rounded up before summing, the
/// sum decides whenever it is far from the width, and the items of the line are measured one by one only
/// near it (a line rarely ends within half a pixel of its width, so this costs little).
struct LineFit {
  let text: StyledText
  let measurer: any TextMeasurer
  let width: Int

  /// Whether the line from `start` up to `end` (whose exact width is `total`), followed by `extra` items
  /// (a hyphen, an ellipsis, a label), fits.
  func fits(_ start: Int, _ end: Int, total: Int, extra: [Int] = []) -> Bool {
    let rounding = measurer.itemRounding
    let all = total + extra.reduce(0, +)
    guard rounding > 0 else { return all <= width }
    if all + rounding * 32 <= width { return true }
    if all > width + rounding { return false }
    return measurer.fits(items: items(start, end) + extra, width: width)
  }

  /// The widths of the runs of one style between two offsets of a line.
  func items(_ start: Int, _ end: Int) -> [Int] {
    var items: [Int] = []
    var style: Style?
    var walk = ClusterWalk(text, range: start..<end, measurer: measurer)
    while let cluster = walk.next() {
      if cluster.style == style, !items.isEmpty {
        items[items.count - 1] += cluster.advance
      } else {
        items.append(cluster.advance)
        style = cluster.style
      }
    }
    return items
  }
}
