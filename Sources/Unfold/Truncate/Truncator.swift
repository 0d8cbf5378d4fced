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
public enum Truncator {
  /// What a reader sees of `layout` in `state`.
  ///
  /// A collapsed state needs only the first `lineLimit` lines and the knowledge of whether more follow; an
  /// expanded state needs every line, and lays the rest out when `layout` stopped early.
  public static func truncate(
    _ layout: LineLayout, options: TruncationOptions = .default, state: DisplayState
  ) -> TruncatedText {
    let limit = options.effectiveLineLimit
    var layout = layout
    if state == .expanded && !layout.isComplete {
      layout = LineLayout(
        layout.text, measurer: layout.measurer, breaker: layout.breaker, width: layout.width)
    }
    let isTruncated = !layout.isComplete || layout.lines.count > limit
    let drawer = LineDrawer(layout: layout)
    var lines: [DisplayLine]
    switch (state, isTruncated) {
    case (.collapsed, true):
      lines = layout.lines.prefix(limit - 1).map { drawer.draw($0) }
      lines.append(drawer.cut(layout.lines[limit - 1], options: options))
    case (.expanded, true):
      lines = layout.lines.map { drawer.draw($0) }
      if let label = options.lessLabel, let last = layout.lines.last {
        drawer.append(label: label, role: .lessLabel, after: last, to: &lines)
      }
    case (_, false):
      lines = layout.lines.map { drawer.draw($0) }
    }
    let shownEnd =
      (state == .collapsed && isTruncated ? layout.lines[limit - 1] : layout.lines.last)?.range.upperBound ?? 0
    return TruncatedText(
      lines: lines, isTruncated: isTruncated, lineCount: layout.isComplete ? layout.lines.count : nil,
      state: state, width: layout.width, unit: layout.measurer.unit,
      unpredictableRanges: layout.measurer.unpredictableRanges(in: layout.text, range: 0..<shownEnd))
  }

  /// Lays out and truncates a styled text, stopping the layout at the line limit when collapsed.
  ///
  /// - Parameter countingAllLines: lay out the whole text even when collapsed, so that
  ///   ``TruncatedText/lineCount`` is known.
  public static func truncate(
    _ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .unicode,
    width: Int, options: TruncationOptions = .default, state: DisplayState, countingAllLines: Bool = false
  ) -> TruncatedText {
    let stopAfter = state == .collapsed && !countingAllLines ? options.effectiveLineLimit : nil
    let layout = LineLayout(text, measurer: measurer, breaker: breaker, width: width, lineLimit: stopAfter)
    return truncate(layout, options: options, state: state)
  }
}

extension PreparedText {
  /// What a reader sees of the prepared text at `width` in `state` (the whole text is laid out, so the line
  /// count is always known).
  public func truncated(width: Int, options: TruncationOptions = .default, state: DisplayState) -> TruncatedText {
    Truncator.truncate(layout(width: width), options: options, state: state)
  }
}

/// Builds display lines from ranges of the text: fragments per style, tabs on their own.
struct LineDrawer {
  let layout: LineLayout
  var measurer: any TextMeasurer { layout.measurer }
  var fit: LineFit { LineFit(text: layout.text, measurer: measurer, width: layout.width) }

  /// The display line of a laid-out line: its drawn content, and the hyphen of a break after a soft hyphen.
  func draw(_ line: LineLayout.Line) -> DisplayLine {
    var drawn = draw(line.contentRange)
    if line.isHyphenated {
      drawn.fragments.append(Fragment(text: "-", width: measurer.width(of: "-"), role: .hyphen))
    }
    return drawn
  }

  /// The display line of a range of the text: fragments per style, tabs on their own, soft hyphens left out.
  func draw(_ range: Range<Int>) -> DisplayLine {
    var fragments: [Fragment] = []
    var walk = ClusterWalk(layout.text, range: range, measurer: measurer)
    while let cluster = walk.next() {
      if cluster.isSoftHyphen { continue }
      if let last = fragments.last, last.style == cluster.style, !cluster.isTab, last.text != "\t" {
        fragments[fragments.count - 1].text.append(cluster.character)
        fragments[fragments.count - 1].width += cluster.advance
      } else {
        fragments.append(Fragment(text: String(cluster.character), style: cluster.style, width: cluster.advance))
      }
    }
    return DisplayLine(fragments: fragments)
  }

  /// The last visible line of a collapsed text: cut so that the ellipsis and the more label fit.
  func cut(_ line: LineLayout.Line, options: TruncationOptions) -> DisplayLine {
    let ellipsis = Fragment(
      text: options.ellipsis, width: measurer.width(of: options.ellipsis), role: .ellipsis)
    let gap = gapFragment()
    let label = Fragment(
      text: options.moreLabel, width: measurer.width(of: options.moreLabel), role: .moreLabel)
    let end = cutEnd(line, suffix: [ellipsis.width, gap.width, label.width])
    var drawn = draw(line.range.lowerBound..<end)
    drawn.fragments += [ellipsis, gap, label]
    return drawn
  }

  /// Appends a label after the last line when it fits there after a gap, else on a line of its own.
  func append(label text: String, role: Fragment.Role, after line: LineLayout.Line, to lines: inout [DisplayLine]) {
    let label = Fragment(text: text, width: measurer.width(of: text), role: role)
    let gap = gapFragment()
    let hyphen = line.isHyphenated ? [measurer.width(of: "-")] : []
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

  private func gapFragment() -> Fragment {
    Fragment(text: " ", width: measurer.width(of: " "), role: .gap)
  }

  /// Where the drawn text of a cut line ends: the longest prefix no wider than `room`, moved back to a break
  /// opportunity when that keeps at least half the room, without trailing spaces.
  private func cutEnd(_ line: LineLayout.Line, suffix: [Int]) -> Int {
    let start = line.range.lowerBound
    let room = layout.width - suffix.reduce(0, +)
    let fit = self.fit
    var breaks = line.breakOffsets.makeIterator()
    var nextBreak = breaks.next()
    var lastBreak: (offset: Int, width: Int)?  // the last opportunity within the prefix that fits
    var fits = start  // the end of the longest prefix that fits
    var x = 0
    var widthWithoutSpaces = 0
    var walk = ClusterWalk(layout.text, range: line.contentRange, measurer: measurer)
    while let cluster = walk.next() {
      while let offset = nextBreak, offset < cluster.start { nextBreak = breaks.next() }
      if nextBreak == cluster.start {
        lastBreak = (cluster.start, widthWithoutSpaces)
      }
      guard fit.fits(start, cluster.end, total: x + cluster.advance, extra: suffix) else {
        // The prefix that fits ends at a word's end: cut there.
        if cluster.isSpace || nextBreak == cluster.start { return trimmedEnd(start..<fits) }
        break
      }
      x += cluster.advance
      fits = cluster.end
      if !cluster.isSpace { widthWithoutSpaces = x }
    }
    if fits < line.contentEnd, let lastBreak, lastBreak.width * 2 >= room {
      return trimmedEnd(start..<lastBreak.offset)
    }
    return trimmedEnd(start..<fits)
  }

  /// The end of a range without its trailing spaces and tabs.
  private func trimmedEnd(_ range: Range<Int>) -> Int {
    let trimmed = layout.text.string.utf8Slice(range).trimmingSuffix(while: {
      $0 == " " || $0 == "\t" || $0 == "\u{00AD}"
    })
    return range.lowerBound + trimmed.utf8.count
  }
}
