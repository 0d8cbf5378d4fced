/// The fit rule in its plainest form, for tests and the layout fuzzer to compare every fast fitter with
/// (``Invariants/referenceViolation(_:width:)``): greedy, over the break opportunities of the segmenter, every
/// width measured again from the start of its line.
///
/// A segment's content goes on the open line when the line up to its end fits; else the line ends before it.
/// Its trailing spaces hang. Content that fits no line alone is cut between grapheme clusters, as is a run of
/// spaces at the start of the text or after a hard break, which is drawn and counts. A mandatory break ends the
/// line after it. Soft hyphens and measurers that round their items are not modelled (nil).
enum ReferenceLayout {
  /// The lines of `text` at `width`, or nil for a text or measurer it does not model.
  static func lines(
    _ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .unicode, width: LineWidth
  ) -> [LineLayout.Line]? {
    guard measurer.itemRounding == 0 else { return nil }
    let width = width.units
    var segmenter = Segmenter(text, measurer: measurer, breaker: breaker)
    var lines: [LineLayout.Line] = []
    var start: Int?  // the open line's start
    var contentEnd = 0
    var hasContent = false
    func measured(_ range: Range<Int>) -> Int {
      var walk = ClusterWalk(text, range: range, measurer: measurer)
      while walk.next() != nil {}
      return walk.x
    }
    func close(at end: Int) {
      guard let lineStart = start else { return }
      let line = LineLayout.Line(
        range: lineStart..<end, contentEnd: contentEnd, width: measured(lineStart..<contentEnd), isHyphenated: false)
      lines.append(line)
      start = nil
    }
    func open(at offset: Int) {
      (start, contentEnd, hasContent) = (offset, offset, false)
    }
    // Cluster by cluster, a new line where the next one does not fit (never leaving a line empty).
    func place(_ range: Range<Int>) {
      var walk = ClusterWalk(text, range: range, measurer: measurer)
      while let cluster = walk.next() {
        if let lineStart = start, contentEnd > lineStart, measured(lineStart..<cluster.end) > width {
          close(at: cluster.start)
          open(at: cluster.start)
        }
        (contentEnd, hasContent) = (cluster.end, true)
      }
    }
    while let segment = segmenter.next() {
      guard !segment.endsWithSoftHyphen else { return nil }
      if start == nil { open(at: segment.start) }
      if segment.hasContent {
        if hasContent, let lineStart = start, measured(lineStart..<segment.contentEnd) > width {
          close(at: segment.start)
          open(at: segment.start)
        }
        if hasContent {
          contentEnd = segment.contentEnd
        } else {
          place(segment.start..<segment.contentEnd)
        }
      } else if !hasContent {
        place(segment.start..<segment.spaceEnd)
      }
      if segment.isMandatoryBreak { close(at: segment.end) }
    }
    close(at: text.string.utf8.count)
    return lines
  }
}
