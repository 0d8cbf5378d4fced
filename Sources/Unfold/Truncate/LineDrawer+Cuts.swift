/// The collapsed view: lines cut to make room for the ellipsis and the labels, at the tail, the head or the
/// middle, and the labels placed after them.
extension LineDrawer {
  /// The visible lines of a truncated text, collapsed: the mode says which lines and where the cut is, the
  /// placement where the toggle goes.
  ///
  /// `labels` and `cutLine` are what an earlier truncation of the text measured (``MeasuredLabels``, ``CutLine``).
  func collapsed(
    _ lines: [LineLayout.Line], complete: Bool, options: TruncationOptions, labels: MeasuredLabels? = nil,
    cutLine: CutLine? = nil
  ) -> [DisplayLine] {
    let limit = options.effectiveLineLimit
    let labels = labels ?? MeasuredLabels(options, measurer: measurer)
    let marks = marks(options, labels: labels)
    var result: [DisplayLine]
    switch options.mode {
    case .tail:
      let visible = Array(lines.prefix(limit))
      result = visible.dropLast().map { draw($0) }
      guard let last = visible.last else { return [] }
      if lines.count <= limit && complete && options.toggle != .inline && options.toggle != .overlay {
        result.append(draw(last))  // blank lines collapsed: everything shows; the toggle below remains
      } else {
        result.append(cut(last, marks: marks, overlay: options.toggle == .overlay, cutLine: cutLine))
      }
    case .middle:
      let visible = Array(lines.prefix(limit))
      result = visible.dropLast().map { draw($0) }
      guard let last = visible.last else { return [] }
      let shown = marks.first?.role == .ellipsis ? marks[0] : Fragment(text: "", width: 0, role: .ellipsis)
      result.append(middle(last, ellipsis: shown, after: Array(marks.drop { $0.role == .ellipsis })))
    case .head:
      // Text from the start of the line before the last `limit` ones does not fit: laid out from there, even
      // without the marks, it takes one line more.
      guard let earliest = lines.suffix(limit + 1).first else { return [] }
      result = headCut(from: earliest.range.lowerBound, lines: limit, marks: marks)
    }
    if options.toggle == .below { result.append(DisplayLine(fragments: [labels.more])) }
    return result
  }

  /// What stands next to the cut, on the cut line: the ellipsis (left out when wider than the line), and an inline
  /// or overlaid toggle's gap and label (an empty label with no gap before it: a line never ends in a space).
  func marks(_ options: TruncationOptions, labels: MeasuredLabels) -> [Fragment] {
    labels.marks(options, width: layout.width)
  }

  /// A tail cut: the line's text cut back so that `marks` fit after it; with `overlay`, the text and the
  /// marks are spread to the whole width, the label at the trailing end.
  ///
  /// `cutLine`: the line's clusters as an earlier walk measured them, read when they are this line's.
  func cut(_ line: LineLayout.Line, marks: [Fragment], overlay: Bool, cutLine: CutLine? = nil) -> DisplayLine {
    let (end, width) = cutEnd(line, suffix: marks.map(\.width), cutLine: cutLine)
    // What is kept draws as one fragment per run when it can, with the width the cut walked, not walked again.
    let kept = LineLayout.Line(
      range: line.range.lowerBound..<end, contentEnd: end, width: width ?? 0, isHyphenated: false)
    var drawn = (width == nil ? nil : fragmentPerRun(kept)) ?? draw(kept.range)
    if overlay, let label = marks.last {
      let space = measurer.width(of: " ")
      let free = layout.width - drawn.width - marks.reduce(0) { $0 + $1.width }
      let count = space > 0 ? max(0, free / space) : 0
      drawn.fragments += marks.dropLast()
      if count > 0 && label.width > 0 {  // an empty label is not pushed to the end: no line ends in spaces
        drawn.fragments.append(Fragment(text: String.repeated(" ", count: count), width: count * space, role: .gap))
      }
      drawn.fragments.append(label)
    } else {
      drawn.fragments += marks
    }
    return drawn
  }

  /// A head cut: the ellipsis (and the toggle) first, then as much of the text's end as fits in `limit` lines
  /// after them, as UIKit's `.head` shows it: the earliest cluster from which the marks and the rest of the text
  /// take at most `limit` lines (a search over the clusters from `earliest`, the start of the line before the last
  /// `limit` ones), moved to the start of a word when that keeps at least half of the first line.
  func headCut(from earliest: Int, lines limit: Int, marks: [Fragment]) -> [DisplayLine] {
    let text = layout.text
    let prefix = marks + (marks.last?.role == .moreLabel ? [gapFragment()] : [])
    var starts: [Int] = []
    var walk = ClusterWalk(text, range: earliest..<text.string.utf8.count, measurer: nil)
    while let cluster = walk.next() { starts.append(cluster.start) }
    guard !starts.isEmpty else { return [DisplayLine(fragments: prefix)] }
    // The marks as text, a word of their own (no break inside them; a break after their last gap), measured as
    // the text is.
    var marksText = StyledText.Builder()
    for (index, mark) in prefix.enumerated() {
      let isLast = index == prefix.count - 1
      marksText.append(
        isLast && mark.role == .gap ? mark.text : mark.text.replacingOccurrences(of: " ", with: "\u{A0}"))
    }
    let marksAsText = marksText.build()
    let prefixLength = marksAsText.string.utf8.count
    // The lines of the marks and the text from `start`, when they are at most `limit`.
    func laidOut(from start: Int) -> [LineLayout.Line]? {
      var whole = StyledText.Builder()
      whole.append(marksAsText)
      var runStart = start
      for index in text.runIndex(containing: start)..<text.runs.count {
        whole.append(text.text(in: runStart..<text.runEnds[index]), style: text.runs[index].style)
        runStart = text.runEnds[index]
      }
      let layout = LineLayout(
        whole.build(), measurer: measurer, breaker: self.layout.breaker, width: self.layout.width, lineLimit: limit)
      return layout.isComplete && layout.lines.count <= limit ? layout.lines : nil
    }
    // The first start that fits: later starts fit too (fewer characters take no more lines).
    var (low, high) = (0, starts.count - 1)
    while low < high {
      let middle = (low + high) / 2
      if laidOut(from: starts[middle]) != nil { high = middle } else { low = middle + 1 }
    }
    var start = starts[low]
    guard var found = laidOut(from: start) else {
      // Not even the last cluster fits after the marks: the marks, and the last cluster on a line of its own when
      // the limit has room for it (at one line, the marks alone).
      return [DisplayLine(fragments: prefix)] + (limit > 1 ? [draw(start..<text.string.utf8.count)] : [])
    }
    // Start at a word when one begins within the first line and keeps at least half of it.
    let firstEnd = found[0].contentEnd - prefixLength + start
    if start > 0, let word = starts.first(where: { $0 > start && $0 < firstEnd && isWordStart($0) }),
      (firstEnd - word) * 2 >= firstEnd - start, let moved = laidOut(from: word)
    {
      (start, found) = (word, moved)
    }
    // The lines, back in the text's offsets; the first after the marks.
    let shift = start - prefixLength
    return found.enumerated().map { index, line in
      var drawn = DisplayLine(fragments: index == 0 ? prefix : [])
      let text = draw(max(start, line.range.lowerBound + shift)..<max(start, line.contentEnd + shift))
      drawn.fragments += text.fragments
      drawn.textStart = text.textStart
      if line.isHyphenated { drawn.fragments.append(hyphenFragment(before: line.contentEnd + shift)) }
      return drawn
    }
  }

  /// Whether a word starts at `offset`: the character before it is a space.
  private func isWordStart(_ offset: Int) -> Bool {
    guard offset > 0 else { return true }
    let before = layout.text.string.utf8Slice((offset - 1)..<offset)
    return before == " "
  }

  /// A middle cut of the last visible line: its start, the ellipsis, the end of the text, then `after`.
  func middle(_ line: LineLayout.Line, ellipsis: Fragment, after: [Fragment]) -> DisplayLine {
    let text = layout.text
    // The end of the text: its last line (after its last hard line break), cluster by cluster from the end.
    var textEnd = text.string.utf8.count
    while textEnd > 0, let last = text.string.utf8Slice(0..<textEnd).last, last.isHardLineBreak || last == " " {
      textEnd -= last.utf8.count
    }
    var clusters: [(start: Int, end: Int, advance: Int, isBreak: Bool)] = []
    var lastLineStart = 0
    var walk = ClusterWalk(text, range: 0..<textEnd, measurer: measurer)
    while let cluster = walk.next() {
      if cluster.isHardLineBreak {
        lastLineStart = cluster.end
        clusters.removeAll()
      } else {
        clusters.append((cluster.start, cluster.end, cluster.advance, cluster.isSpace))
      }
    }
    let marks = [ellipsis.width] + after.map(\.width)
    let room = layout.width - marks.reduce(0, +)
    // The start takes half the room, cut between clusters as the end is (as AppKit's middle truncation cuts).
    let startEnd = cutEnd(line, suffix: [layout.width - max(0, room / 2)], snapsToWords: false).end
    // The end takes the other half, whatever the start kept of it (a start a cluster short would hand the end
    // more room, and a wider width could then show less).
    let endRoom = max(0, room - room / 2)
    var endStart = textEnd
    var endWidth = 0
    for cluster in clusters.reversed() where cluster.start >= max(lastLineStart, startEnd) {
      guard endWidth + cluster.advance <= endRoom else { break }
      endWidth += cluster.advance
      endStart = cluster.start
    }
    // Spaces after the ellipsis are not drawn.
    while let space = clusters.first(where: { $0.start == endStart }), space.isBreak, space.end < textEnd {
      endStart = space.end
    }
    var drawn = draw(line.range.lowerBound..<startEnd)
    drawn.fragments.append(ellipsis)
    drawn.fragments += draw(endStart..<textEnd).fragments
    drawn.fragments += after
    return drawn
  }

  /// Appends a label after the last line when it fits there after a gap, else on a line of its own.
  func append(label text: String, role: Fragment.Role, after line: LineLayout.Line, to lines: inout [DisplayLine]) {
    let label = Fragment(text: text, width: measurer.width(of: text), role: role)
    let gap = gapFragment()
    let hyphen = line.isHyphenated ? [hyphenFragment(before: line.contentEnd).width] : []
    let exact = lines.last.map { $0.width - hyphen.reduce(0, +) } ?? 0
    if let last = lines.last, !last.fragments.isEmpty,
      fit.fits(line.range.lowerBound, line.contentEnd, total: exact, extra: hyphen + [gap.width, label.width])
    {
      lines[lines.count - 1].fragments += [gap, label]
    } else if let last = lines.last, last.fragments.isEmpty {
      lines[lines.count - 1].fragments = [label]
    } else {
      lines.append(DisplayLine(fragments: [label]))
    }
  }

  func gapFragment() -> Fragment {
    Fragment(text: " ", width: measurer.width(of: " "), role: .gap)
  }

  /// The hyphen drawn where a line breaks after the soft hyphen that ends at `end`, in its style.
  func hyphenFragment(before end: Int) -> Fragment {
    let style = layout.text.hyphenStyle(before: end)
    return Fragment(text: "-", style: style, width: measurer.width(of: "-", style: style), role: .hyphen)
  }

  /// Where the drawn text of a cut line ends: the longest prefix no wider than `room`, moved back to a break
  /// opportunity when that keeps at least half the room (and `snapsToWords`), without trailing spaces; and the
  /// width of the clusters before that end, as they were walked (`nil` when the end is not one of theirs).
  ///
  /// `cutLine`: the line's clusters as an earlier walk measured them, read rather than walked again when they are
  /// this line's.
  func cutEnd(_ line: LineLayout.Line, suffix: [Int], snapsToWords: Bool = true, cutLine: CutLine? = nil) -> (
    end: Int, width: Int?
  ) {
    let clusters = cutLine.flatMap { $0.range == line.range ? $0 : nil } ?? CutLine(line, in: self)
    let found = cutEnd(line, suffix: suffix, snapsToWords: snapsToWords, clusters: clusters.clusters)
    return (found.end, found.width)
  }

  /// ``cutEnd(_:suffix:snapsToWords:cutLine:)`` from the line's clusters as a walk measured them (``CutLine``).
  ///
  /// `holdsBelow`: the layout width, in the measurer's unit, below which a wider layout of the same line cuts it at
  /// the same end (above ``LineLayout/width``; one above it when the next width must be cut again). Wider, a
  /// prefix that fits still fits, so the end holds while the cluster that stopped the walk, and every piece shaped
  /// alone that was too wide, surely stay too wide (``FitRule/decide(_:width:rounding:)``), and while a cut moved
  /// back to a break opportunity keeps half the room there.
  func cutEnd(_ line: LineLayout.Line, suffix: [Int], snapsToWords: Bool, clusters: [Cluster]) -> (
    end: Int, width: Int?, holdsBelow: Int
  ) {
    let start = line.range.lowerBound
    let suffixWidth = suffix.reduce(0, +)
    let room = layout.width - suffixWidth
    let fit = self.fit
    let rounding = measurer.itemRounding  // asked once, not at every cluster
    var breaks = layout.breakOffsets(of: line).makeIterator()
    var nextBreak = breaks.next()
    var lastBreak: (offset: Int, width: Int)?  // the last opportunity within the prefix that fits
    var fits = start  // the end of the longest prefix that fits
    var fitting = 0  // how many clusters fit
    var x = 0
    var widthWithoutSpaces = 0
    var holdsBelow = Int.max
    var breakOffsets: [Int] = []  // the line's opportunities that the walk passed
    // The width before the cluster that ends at `end`, when the walk passed it.
    func walkedWidth(before end: Int) -> Int? {
      if end == start { return 0 }
      let index = clusters[..<fitting].partitionIndex(where: { $0.end >= end })
      guard index < fitting, clusters[index].end == end else { return nil }
      return clusters[...index].reduce(0) { $0 + $1.advance }
    }
    func walked(_ end: Int) -> (end: Int, width: Int?, holdsBelow: Int) {
      (end, walkedWidth(before: end), max(holdsBelow, layout.width + 1))
    }
    func cut(before end: Int) -> (end: Int, width: Int?, holdsBelow: Int) {
      let trimmed = trimmedEnd(start..<end)
      return walked(shapedAlone(trimmed) ?? trimmed)
    }
    // A cut inside a word that the browser shapes as a whole (Arabic, Persian, the Indic scripts...): the browser
    // shapes the piece before the cut alone, its last letter in a final form that may be wider than the joined one
    // the walk measured. The cut moves back a cluster at a time until the piece, measured alone, fits; the piece is
    // drawn with its walked widths, as every drawn piece is.
    func shapedAlone(_ end: Int) -> Int? {
      guard end > start, end < line.contentEnd, !breakOffsets.contains(end),
        let last = layout.text.text(in: start..<end).unicodeScalars.last, WordShaper.shapesInContext(last)
      else { return nil }
      let wordStart = breakOffsets.last(where: { $0 < end }) ?? start
      guard let before = walkedWidth(before: wordStart) else { return nil }
      let style = layout.text.runs[layout.text.runIndex(containing: end - 1)].style
      var candidates = clusters[..<fitting].filter { $0.end > wordStart && $0.end <= end }.map(\.end)
      while let candidate = candidates.popLast() {
        let piece = String(layout.text.text(in: wordStart..<candidate))
        let total = before + measurer.width(ofLine: piece, style: style, startX: before)
        if FitRule.decide(total + suffixWidth, width: layout.width, rounding: rounding)
          ?? fit.fits(start, candidate, total: total, extra: suffix, clusters: clusters)
        {
          return candidate
        }
        holdsBelow = min(holdsBelow, total + suffixWidth - rounding)  // the piece is surely too wide below
      }
      return trimmedEnd(start..<wordStart)
    }
    for cluster in clusters {
      while let offset = nextBreak, offset < cluster.start { nextBreak = breaks.next() }
      if nextBreak == cluster.start {
        lastBreak = (cluster.start, widthWithoutSpaces)
        breakOffsets.append(cluster.start)
      }
      // The sum decides but near the width of a font (``FitRule/fits(_:_:total:extra:clusters:)``).
      let total = x + cluster.advance
      guard
        FitRule.decide(total + suffixWidth, width: layout.width, rounding: rounding)
          ?? fit.fits(start, cluster.end, total: total, extra: suffix, clusters: clusters)
      else {
        // The cluster is surely too wide below the width where the sum stops deciding so.
        holdsBelow = total + suffixWidth - rounding
        // The prefix that fits ends at a word's end: cut there.
        if cluster.isSpace || nextBreak == cluster.start { return cut(before: fits) }
        break
      }
      x = total
      fits = cluster.end
      fitting += 1
      if !cluster.isSpace { widthWithoutSpaces = x }
    }
    if snapsToWords, fits < line.contentEnd, let lastBreak, lastBreak.width * 2 >= room {
      // Moved back while the break keeps half the room.
      holdsBelow = min(holdsBelow, lastBreak.width * 2 + suffixWidth + 1)
      return cut(before: lastBreak.offset)
    }
    return cut(before: fits)
  }

  /// The end of a range without its trailing spaces and tabs.
  private func trimmedEnd(_ range: Range<Int>) -> Int {
    let trimmed = layout.text.string.utf8Slice(range).trimmingSuffix(while: {
      $0 == " " || $0 == "\t" || $0 == "\u{00AD}"
    })
    return range.lowerBound + trimmed.utf8.count
  }
}

/// A line's clusters, walked and measured once, for the cuts of that line at many widths (`Truncator.collapsedViews`).
struct CutLine {
  /// The line's range in the text: the clusters are read only for a line of this range.
  var range: Range<Int>
  /// The clusters of the line's content, as `ClusterWalk` hands them out.
  var clusters: [Cluster]

  /// The clusters of `line`, as a walk of more of the text measured them.
  init(_ line: LineLayout.Line, clusters: ArraySlice<Cluster>) {
    range = line.range
    self.clusters = Array(clusters)
  }

  /// The clusters of `line` in `drawer`'s text, measured in its measurer.
  init(_ line: LineLayout.Line, in drawer: LineDrawer) {
    range = line.range
    clusters = Array(
      IteratorSequence(ClusterWalk(drawer.layout.text, range: line.contentRange, measurer: drawer.measurer)))
  }
}
