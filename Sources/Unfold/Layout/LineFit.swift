/// Decides whether a stretch of a line fits the width, the one place where the target's fit rule is applied
/// (the layout and the truncation both ask it).
///
/// For exact measurers the sum decides. For a font, where each inline item is rounded up before summing, the
/// sum decides whenever it is far from the width; near it, a line of one style is its one item, and the items of a
/// line of several are measured one by one (a line rarely ends within half a pixel of its width).
struct LineFit {
  let text: StyledText
  let measurer: any TextMeasurer
  let width: Int

  /// Whether the line from `start` up to `end` (whose exact width is `total`), followed by `extra` items
  /// (a hyphen, an ellipsis, a label), fits.
  func fits(_ start: Int, _ end: Int, total: Int, extra: [Int] = []) -> Bool {
    let all = total + extra.reduce(0, +)
    if let decided = Self.decide(all, width: width, rounding: measurer.itemRounding) { return decided }
    // A stretch of one style is one inline item, of width `total`: no cluster to measure again (a line of
    // ideographs in a 1000-unit font ends near the width at every multiple of the em).
    if end <= start
      || text.runIndex(containing: start) == text.runIndex(containing: end - 1)
        && !containsNonJoiner(start, end)
    {
      return measurer.fits(items: [total] + extra, width: width)
    }
    return measurer.fits(items: items(start, end) + extra, width: width)
  }

  /// Whether the text between two offsets holds a zero-width non-joiner (U+200C, E2 80 8C in UTF-8).
  ///
  /// Chromium rounds the width on each side of one separately, as if it began a new inline item: "a‹ZWNJ›a" in
  /// DejaVu Sans at 16 px is 1256/64 px wide and "aa" 1255/64, in Chromium 156 (no other joiner or format
  /// character does so). Persian writes it inside words (می‌گیرد).
  private func containsNonJoiner(_ start: Int, _ end: Int) -> Bool {
    text.string.withUTF8Buffer { bytes in
      var index = start
      while index + 2 < end {
        if bytes[index] == 0xE2, bytes[index + 1] == 0x80, bytes[index + 2] == 0x8C { return true }
        index += 1
      }
      return false
    }
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

  /// The widths of the runs of one style between two offsets of a line, cut after each zero-width non-joiner
  /// (``containsNonJoiner(_:_:)``).
  func items(_ start: Int, _ end: Int) -> [Int] {
    var items: [Int] = []
    var run: Int?
    var walk = ClusterWalk(text, range: start..<end, measurer: measurer)
    let splitsAtNonJoiners = containsNonJoiner(start, end)
    var afterNonJoiner = false
    while let cluster = walk.next() {
      if cluster.run == run, !items.isEmpty, !afterNonJoiner {
        items[items.count - 1] += cluster.advance
      } else {
        items.append(cluster.advance)
        run = cluster.run
      }
      // A non-joiner extends the cluster before it: the next cluster starts a new rounded piece.
      afterNonJoiner = splitsAtNonJoiners && containsNonJoiner(cluster.start, cluster.end)
    }
    return items
  }
}
