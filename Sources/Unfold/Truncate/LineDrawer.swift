/// Builds display lines from ranges of the text: fragments per style, tabs on their own.
struct LineDrawer {
  /// The text, measurer and width to draw with; its lines are never read (the lines to draw are passed in).
  let layout: LineLayout

  /// A drawer of the lines of `layout`.
  init(layout: LineLayout) { self.layout = layout }

  /// A drawer of lines of `text` at `width`, whatever fitter laid them out.
  init(text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: LineWidth) {
    layout = LineLayout(
      text: text, measurer: measurer, breaker: breaker, width: width.units, lines: [], isComplete: true)
  }
  var measurer: any TextMeasurer { layout.measurer }
  var fit: FitRule {
    FitRule(text: layout.text, measurer: measurer, width: layout.width, itemBreaks: layout.itemBreaks)
  }

  /// The options with the toggle where it fits at this width, so that no line is wider than the width: an inline
  /// or overlaid label that does not fit after the ellipsis goes below, on a line of its own; a label wider than
  /// the line itself is not drawn (no toggle).
  func fitting(_ options: TruncationOptions, labels: MeasuredLabels? = nil) -> TruncationOptions {
    guard options.toggle != .none else { return options }
    return (labels ?? MeasuredLabels(options, measurer: measurer)).fitting(options, width: layout.width)
  }

  /// The display line of a laid-out line: its drawn content, and the hyphen of a break after a soft hyphen.
  func draw(_ line: LineLayout.Line) -> DisplayLine {
    var drawn = fragmentPerRun(line) ?? draw(line.contentRange)
    if line.isHyphenated {
      drawn.fragments.append(hyphenFragment(before: line.contentEnd))
    }
    return drawn
  }

  /// A line without tabs or soft hyphens whose run boundaries fall between clusters is one fragment per run,
  /// without walking its clusters again (Docs/PerformanceNotes.md, "Drawing lines"): the layout's width of the line goes to its longest run that is
  /// not ASCII (to its last run if all are ASCII, to its one run for a line of one style), and the other runs
  /// are summed by byte where they are ASCII, walked where they are not.
  func fragmentPerRun(_ line: LineLayout.Line) -> DisplayLine? {
    let text = layout.text
    // The fragments are made as the runs are read, ASCII ones measured by byte; the others get their width
    // after: all but the longest walked, the longest given what the layout's width leaves (one array, no
    // list of pieces and widths to allocate per line).
    var fragments: [Fragment] = []
    var walked: [(index: Int, range: Range<Int>, run: Int)] = []
    let shapesASCII = WordShaper.shapesEverything(measurer)
    let drawsAsIs = readRuns(of: line, from: 0) { bytes, range, run, isASCII, _ in
      let style = text.style(ofRun: run)
      var width = 0
      if isASCII && !shapesASCII {
        for byte in bytes[range] { width += measurer.advance(ofASCII: byte, style: style) }
      } else {
        walked.append((fragments.count, range, run))
      }
      fragments.append(Fragment(text: String(text.string.utf8Slice(range)), style: style, width: width))
    }
    guard drawsAsIs != nil else { return nil }
    guard !fragments.isEmpty else { return DisplayLine(fragments: []) }
    var derived = fragments.count - 1  // a line of ASCII runs only: its last run
    if let longest = walked.indices.max(by: { walked[$0].range.count < walked[$1].range.count }) {
      derived = walked[longest].index
      for (position, piece) in walked.enumerated() where position != longest {
        var walk = ClusterWalk(text, range: piece.range, measurer: measurer)
        while walk.next() != nil {}
        fragments[piece.index].width = walk.x
      }
    }
    fragments[derived].width = 0
    fragments[derived].width = line.width - fragments.reduce(0) { $0 + $1.width }
    var drawn = DisplayLine(fragments: fragments)
    drawn.textStart = line.contentRange.lowerBound
    return drawn
  }

  /// Whether a line draws as one fragment per run, as ``fragmentPerRun(_:)`` draws it (the fragments are the
  /// runs' slices of its content, in their styles): the index of the run it starts in if it does, looked for
  /// from run `hint` on (``StyledText/runIndex(containing:from:)``), and whether the content is clean of
  /// control characters (read here with the rest, the renderer does not read it again); `nil` if it does not.
  func drawsPerRun(_ line: LineLayout.Line, from hint: Int) -> (first: Int, isClean: Bool)? {
    var isClean = true
    guard let first = readRuns(of: line, from: hint, { _, _, _, _, clean in isClean = isClean && clean }) else {
      return nil
    }
    return (first, isClean)
  }

  /// Reads the runs of a line's content in order, handing `body` the text's bytes and each run's range, index,
  /// whether it is all ASCII and whether it is clean of control characters, for as long as the line draws as
  /// one fragment per run: not hyphenated, no tab and no soft hyphen, run boundaries between clusters.
  ///
  /// The index of the run it starts in if it does (`hint` for an empty line), looked for from run `hint` on; `nil` as
  /// soon as one of these fails (`body` may have seen some runs). An empty line draws as no run at all, with no walk of
  /// clusters set up.
  private func readRuns(
    of line: LineLayout.Line, from hint: Int,
    _ body: (UnsafeBufferPointer<UInt8>, Range<Int>, Int, _ isASCII: Bool, _ isClean: Bool) -> Void
  ) -> Int? {
    let range = line.contentRange
    let text = layout.text
    guard !line.isHyphenated else { return nil }
    guard !range.isEmpty else { return hint }
    return text.string.withUTF8Buffer { bytes in
      let first = text.runIndex(containing: range.lowerBound, from: hint)
      var run = first
      var start = range.lowerBound
      while start < range.upperBound {
        let end = min(text.runEnds[run], range.upperBound)
        if end < range.upperBound && !GraphemeReader.startsCluster(at: end, in: bytes) { return nil }
        guard let kind = Self.bytesWithoutTabOrSoftHyphen(bytes, start..<end) else { return nil }
        body(bytes, start..<end, run, kind.isASCII, kind.isClean)
        start = end
        run += 1
      }
      return first
    }
  }

  /// Whether the bytes in `range` are all ASCII and clean of control characters (C0 but the tab, DEL, C1, the bidi
  /// formatting characters: what
  /// ``ANSIRenderer/isClean(bytes:)`` looks for), or `nil` if they hold a tab or a soft hyphen: eight bytes at a
  /// time while none is below the space, DEL or C2 (`mayHoldControl`), in the pass that draws the line, so that the
  /// renderer need not look again.
  private static func bytesWithoutTabOrSoftHyphen(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
  ) -> (isASCII: Bool, isClean: Bool)? {
    guard let base = bytes.baseAddress else { return (true, true) }
    var isASCII = true
    var start = range.lowerBound
    while start + 8 <= range.upperBound {
      let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
      if word.mayHoldControl { break }
      if word & 0x8080_8080_8080_8080 != 0 { isASCII = false }
      start += 8
    }
    var isClean = true
    var (previous, beforePrevious): (UInt8, UInt8) = (0, 0)  // neither C2, D8 nor E2 ends a block read whole
    for byte in bytes[start..<range.upperBound] {
      if byte == 0x09 || (previous == 0xC2 && byte == 0xAD) { return nil }  // a tab, a soft hyphen
      if byte.isControl(after: previous) || byte.endsBidiControl(after: previous, beforePrevious) { isClean = false }
      if byte >= 0x80 { isASCII = false }
      (beforePrevious, previous) = (previous, byte)
    }
    return (isASCII, isClean)
  }

  /// The display line of a range of the text: fragments per style, tabs on their own, soft hyphens left out.
  func draw(_ range: Range<Int>) -> DisplayLine {
    // Each fragment is a slice of the text copied once at its exact size, not grown cluster by cluster. A soft hyphen
    // left out splits the slice: what came before it waits in `before`.
    // The open piece is changed in place, cluster by cluster: replacing it (a tuple with a string and a
    // style) would retain and release both at every cluster.
    struct Piece {
      var before: String
      var start: Int
      var end: Int
      var run: Int
      var width: Int
    }
    let text = layout.text
    var fragments: [Fragment] = []
    var open: Piece?
    func slice(_ start: Int, _ end: Int) -> String { String(layout.text.string.utf8Slice(start..<end)) }
    func flush() {
      guard let piece = open else { return }
      fragments.append(
        Fragment(
          text: piece.before + slice(piece.start, piece.end), style: text.style(ofRun: piece.run), width: piece.width))
      open = nil
    }
    var walk = ClusterWalk(layout.text, range: range, measurer: measurer)
    while let cluster = walk.next() {
      if cluster.isSoftHyphen {
        if let piece = open {
          open!.before += slice(piece.start, piece.end)
          open!.start = cluster.end
          open!.end = cluster.end
        }
      } else if cluster.isTab {
        flush()
        fragments.append(Fragment(text: "\t", style: text.style(ofRun: cluster.run), width: cluster.advance))
      } else if open != nil, open!.end == cluster.start,
        open!.run == cluster.run || text.style(ofRun: open!.run) == text.style(ofRun: cluster.run)
      {
        open!.end = cluster.end
        open!.width += cluster.advance
      } else {
        flush()
        open = Piece(before: "", start: cluster.start, end: cluster.end, run: cluster.run, width: cluster.advance)
      }
    }
    flush()
    var drawn = DisplayLine(fragments: fragments)
    drawn.textStart = range.lowerBound
    return drawn
  }
}

/// A truncation's ellipsis, gap and labels measured once: what fitting the toggle to a width and cutting a line
/// read, at every width they are fitted to (`Truncator.collapsedViews` fits them to hundreds).
struct MeasuredLabels {
  /// The ellipsis.
  var ellipsis: Fragment
  /// The space between the ellipsis and the more label.
  var gap: Fragment
  /// The more label.
  var more: Fragment
  /// The less label's width, if there is one.
  var lessWidth: Int?

  /// The marks and labels of `options`; without a toggle, only the ellipsis is measured.
  init(_ options: TruncationOptions, measurer: any TextMeasurer) {
    ellipsis = Fragment(text: options.ellipsis, width: measurer.width(of: options.ellipsis), role: .ellipsis)
    let toggles = options.toggle != .none
    gap = Fragment(text: " ", width: toggles ? measurer.width(of: " ") : 0, role: .gap)
    more = Fragment(
      text: options.moreLabel, width: toggles ? measurer.width(of: options.moreLabel) : 0, role: .moreLabel)
    lessWidth = toggles ? options.lessLabel.map { measurer.width(of: $0) } : nil
  }

  /// The options with the toggle where it fits at `width` (``LineDrawer/fitting(_:labels:)``).
  func fitting(_ options: TruncationOptions, width: Int) -> TruncationOptions {
    guard options.toggle != .none else { return options }
    var options = options
    if max(more.width, lessWidth ?? 0) > width {
      options.toggle = .none
    } else if options.toggle == .inline || options.toggle == .overlay,
      // A head cut puts a gap after the label too.
      ellipsis.width + gap.width * (options.mode == .head ? 2 : 1) + more.width > width
    {
      options.toggle = .below
    }
    return options
  }

  /// The narrowest width above `width` at which ``fitting(_:width:)`` or ``marks(_:width:)`` may give another
  /// answer (`Int.max` for none): each compares a constant with the width.
  func nextChange(after width: Int) -> Int {
    let widest = max(more.width, lessWidth ?? 0)
    let inline = ellipsis.width + gap.width + more.width
    let bounds = [widest, inline, inline + gap.width, ellipsis.width]
    return bounds.filter { $0 > width }.min() ?? Int.max
  }

  /// What stands next to the cut at `width` (``LineDrawer/marks(_:labels:)``).
  func marks(_ options: TruncationOptions, width: Int) -> [Fragment] {
    var marks: [Fragment] = options.drawsEllipsis && ellipsis.width <= width ? [ellipsis] : []
    switch options.toggle {
    case .inline, .overlay: marks += options.moreLabel.isEmpty ? [more] : [gap, more]
    case .below, .none: break
    }
    return marks
  }
}
