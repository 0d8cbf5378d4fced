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
  /// A collapsed tail or middle truncation needs only the first `lineLimit` lines and the knowledge of
  /// whether more follow; an expanded state, a head truncation and collapsing blank lines need every line,
  /// and lay the rest out when `layout` stopped early.
  public static func truncate(
    _ layout: LineLayout, options: TruncationOptions = .default, state: DisplayState
  ) -> TruncatedText {
    truncate(layout, options: options, state: state, findsUnpredictableRanges: true)
  }

  /// ``truncate(_:options:state:)``, with ``TruncatedText/unpredictableRanges`` left empty unless
  /// `findsUnpredictableRanges`: finding them walks the shown text's clusters, for a caller that has no use
  /// for them (`Paragraph.html`, which gives no warning) a thirtieth of a comment's HTML.
  static func truncate(
    _ layout: LineLayout, options: TruncationOptions, state: DisplayState, findsUnpredictableRanges: Bool
  ) -> TruncatedText {
    let limit = options.effectiveLineLimit
    var layout = layout
    let needsAll = state == .expanded || options.mode == .head || options.collapsesBlankLines
    if needsAll && !layout.isComplete {
      layout = LineLayout(layout.text, measurer: layout.measurer, breaker: layout.breaker, width: layout.width)
    }
    let isTruncated = !layout.isComplete || layout.lines.count > limit
    let drawer = LineDrawer(layout: layout)
    let options = drawer.fitting(options)
    var lines: [DisplayLine]
    switch (state, isTruncated) {
    case (.collapsed, true):
      var source = layout.lines
      if options.collapsesBlankLines {
        source = source.enumerated().filter { index, line in
          !(line.contentRange.isEmpty && index > 0 && source[index - 1].contentRange.isEmpty)
        }.map(\.element)
      }
      lines = drawer.collapsed(source, complete: layout.isComplete, options: options)
      lines += Array(repeating: DisplayLine(fragments: []), count: options.reservedBlankLines(after: lines.count))
    case (.expanded, _), (.collapsed, false):
      lines = Array(UncutLines(layout.lines.makeIterator(), drawer: drawer, options: options, state: state))
    }
    let shownEnd =
      state == .collapsed && isTruncated && options.mode == .tail
      ? layout.lines[limit - 1].range.upperBound : layout.text.string.utf8.count
    return TruncatedText(
      lines: lines, isTruncated: isTruncated, lineCount: layout.isComplete ? layout.lines.count : nil,
      state: state, width: layout.width, unit: layout.measurer.unit, mode: options.mode, toggle: options.toggle,
      unpredictableRanges: findsUnpredictableRanges
        ? layout.measurer.unpredictableRanges(in: layout.text, range: 0..<shownEnd) : [])
  }

  /// Lays out and truncates a styled text, stopping the layout at the line limit when collapsed.
  ///
  /// - Parameter countingAllLines: lay out the whole text even when collapsed, so that
  ///   ``TruncatedText/lineCount`` is known.
  public static func truncate(
    _ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .unicode,
    width: Int, options: TruncationOptions = .default, state: DisplayState, countingAllLines: Bool = false
  ) -> TruncatedText {
    truncate(
      text, measurer: measurer, breaker: breaker, width: width, options: options, state: state,
      countingAllLines: countingAllLines, findsUnpredictableRanges: true)
  }

  /// ``truncate(_:measurer:breaker:width:options:state:countingAllLines:)``, with the unpredictable ranges found
  /// only when asked (see ``truncate(_:options:state:findsUnpredictableRanges:)``).
  static func truncate(
    _ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: Int, options: TruncationOptions,
    state: DisplayState, countingAllLines: Bool, findsUnpredictableRanges: Bool
  ) -> TruncatedText {
    let stopAfter = state == .collapsed && !countingAllLines ? options.effectiveLineLimit : nil
    let layout = LineLayout(
      text, measurer: measurer, breaker: breaker, width: width, lineLimit: stopAfter,
      recordsBreakOffsets: state == .collapsed)
    return truncate(layout, options: options, state: state, findsUnpredictableRanges: findsUnpredictableRanges)
  }
}

extension PreparedText {
  /// What a reader sees of the prepared text at `width` in `state` (the whole text is laid out, so the line
  /// count is always known).
  public func truncated(width: Int, options: TruncationOptions = .default, state: DisplayState) -> TruncatedText {
    Truncator.truncate(layout(width: width), options: options, state: state)
  }
}

/// The display lines of a complete layout shown whole (expanded, or collapsed when it fits the limit), drawn
/// one at a time as they are read, with the less label after the last line of an expanded text that needs
/// more lines than the limit, then blank lines up to the limit when the options reserve space: a renderer
/// can write a long text line by line without holding them all, nor even its laid-out lines (see
/// ``LineStream``).
struct UncutLines<Lines: IteratorProtocol<LineLayout.Line>>: Sequence, IteratorProtocol {
  private let drawer: LineDrawer
  private let options: TruncationOptions
  private let state: DisplayState
  private var lines: Lines
  /// The line after the one to draw next: one line of lookahead tells the last line.
  private var pending: LineLayout.Line?
  private var count = 0
  private var tail: [DisplayLine] = []
  /// The blank lines still to give when the text has fewer lines than a reserved space; known at the end.
  private var padding: Int?
  /// The run the last line drawn per run starts in, where the next one's is looked for.
  private var runHint = 0

  /// Whether the text ends with these lines: its last line may take the less label, and a reserved space is
  /// filled after it.
  private let endsText: Bool

  /// The display lines of `lines`, all the lines of a text, drawn by `drawer`.
  init(_ lines: consuming Lines, drawer: LineDrawer, options: TruncationOptions, state: DisplayState) {
    self.init(lines, drawer: drawer, options: options, state: state, linesBefore: 0, endsText: true)
  }

  /// The display lines of `lines`, a part of a text's lines after `linesBefore` others: the last part
  /// (`endsText`) ends as the whole text's lines do, the others with their last line.
  init(
    _ lines: consuming Lines, drawer: LineDrawer, options: TruncationOptions, state: DisplayState, linesBefore: Int,
    endsText: Bool
  ) {
    self.drawer = drawer
    self.options = options
    self.state = state
    self.lines = lines
    self.count = linesBefore
    self.endsText = endsText
    pending = self.lines.next()
  }

  /// The lines given so far, those before this part included.
  var linesGiven: Int { count }

  mutating func next() -> DisplayLine? {
    switch nextDrawn(perRun: false) {
    case .display(let line): line
    case .runs(let line, _, _): drawer.draw(line)
    case nil: nil
    }
  }

  /// A line to write: drawn, or, with `perRun`, a laid-out line that draws as one fragment per run of the
  /// text (``LineDrawer/drawsPerRun(_:from:)``), with the index of the run it starts in and whether its content
  /// is clean (no control character: ``ANSIRenderer/isClean(bytes:)``), for a renderer to write from the runs
  /// itself.
  enum Drawn {
    case display(DisplayLine)
    case runs(LineLayout.Line, firstRun: Int, isClean: Bool)
  }

  /// The next line, as ``next()`` draws it, or left to the caller as its runs with `perRun`.
  mutating func nextDrawn(perRun: Bool) -> Drawn? {
    if let line = pending {
      count += 1
      pending = lines.next()
      let isLast = pending == nil && endsText
      guard isLast, state == .expanded, count > options.effectiveLineLimit, let label = options.lessLabel,
        options.toggle != .none
      else {
        if perRun, let runs = drawer.drawsPerRun(line, from: runHint) {
          runHint = runs.first
          return .runs(line, firstRun: runs.first, isClean: runs.isClean)
        }
        return .display(drawer.draw(line))
      }
      tail = [drawer.draw(line)]
      if options.toggle == .below {
        tail.append(
          DisplayLine(fragments: [Fragment(text: label, width: drawer.measurer.width(of: label), role: .lessLabel)]))
      } else {
        drawer.append(label: label, role: .lessLabel, after: line, to: &tail)
      }
    }
    if !tail.isEmpty { return .display(tail.removeFirst()) }
    guard endsText else { return nil }
    let blank = padding ?? options.reservedBlankLines(after: count)
    guard blank > 0 else { return nil }
    padding = blank - 1
    return .display(DisplayLine(fragments: []))
  }
}

/// Builds display lines from ranges of the text: fragments per style, tabs on their own.
struct LineDrawer {
  /// The text, measurer and width to draw with; its lines are never read (the lines to draw are passed in).
  let layout: LineLayout
  var measurer: any TextMeasurer { layout.measurer }
  var fit: LineFit {
    LineFit(text: layout.text, measurer: measurer, width: layout.width, itemBreaks: layout.itemBreaks)
  }

  /// The options with the toggle where it fits at this width, so that no line is wider than the width: an inline
  /// or overlaid label that does not fit after the ellipsis goes below, on a line of its own; a label wider than
  /// the line itself is not drawn (no toggle).
  func fitting(_ options: TruncationOptions) -> TruncationOptions {
    guard options.toggle != .none else { return options }
    var options = options
    let label = measurer.width(of: options.moreLabel)
    if max(label, options.lessLabel.map { measurer.width(of: $0) } ?? 0) > layout.width {
      options.toggle = .none
    } else if options.toggle == .inline || options.toggle == .overlay,
      // A head cut puts a gap after the label too.
      measurer.width(of: options.ellipsis) + gapFragment().width * (options.mode == .head ? 2 : 1) + label
        > layout.width
    {
      options.toggle = .below
    }
    return options
  }

  /// The display line of a laid-out line: its drawn content, and the hyphen of a break after a soft hyphen.
  func draw(_ line: LineLayout.Line) -> DisplayLine {
    var drawn = fragmentPerRun(line) ?? draw(line.contentRange)
    if line.isHyphenated {
      drawn.fragments.append(hyphenFragment())
    }
    return drawn
  }

  /// A line without tabs or soft hyphens whose run boundaries fall between clusters is one fragment per run,
  /// without walking its clusters again (Docs/PerformanceNotes.md, "Drawing lines"): the layout's width of the line goes to its longest run that is
  /// not ASCII (to its last run if all are ASCII, to its one run for a line of one style), and the other runs
  /// are summed by byte where they are ASCII, walked where they are not.
  private func fragmentPerRun(_ line: LineLayout.Line) -> DisplayLine? {
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
    return DisplayLine(fragments: fragments)
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
  /// one fragment per run: not hyphenated, no tab and no soft hyphen, run boundaries between clusters. The index
  /// of the run it starts in if it does (`hint` for an empty line), looked for from run `hint` on; `nil` as soon
  /// as one of these fails (`body` may have seen some runs). An empty line draws as no run at all, with no walk
  /// of clusters set up.
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

  /// Whether the bytes in `range` are all ASCII and clean of control characters (C0 but the tab, DEL, C1: what
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
    var previous: UInt8 = 0  // a C2 never ends a block read whole
    for byte in bytes[start..<range.upperBound] {
      if byte == 0x09 || (previous == 0xC2 && byte == 0xAD) { return nil }  // a tab, a soft hyphen
      if byte.isControl(after: previous) { isClean = false }
      if byte >= 0x80 { isASCII = false }
      previous = byte
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
    return DisplayLine(fragments: fragments)
  }

  /// The visible lines of a truncated text, collapsed: the mode says which lines and where the cut is, the
  /// placement where the toggle goes.
  func collapsed(_ lines: [LineLayout.Line], complete: Bool, options: TruncationOptions) -> [DisplayLine] {
    let limit = options.effectiveLineLimit
    let ellipsis = Fragment(text: options.ellipsis, width: measurer.width(of: options.ellipsis), role: .ellipsis)
    let gap = gapFragment()
    let label = Fragment(text: options.moreLabel, width: measurer.width(of: options.moreLabel), role: .moreLabel)
    // What stands next to the cut, on the cut line.
    // An ellipsis wider than the line is left out.
    var marks: [Fragment] = options.drawsEllipsis && ellipsis.width <= layout.width ? [ellipsis] : []
    switch options.toggle {
    case .inline: marks += [gap, label]
    case .overlay: marks += [gap, label]
    case .below, .none: break
    }
    var result: [DisplayLine]
    switch options.mode {
    case .tail:
      let visible = Array(lines.prefix(limit))
      result = visible.dropLast().map { draw($0) }
      guard let last = visible.last else { return [] }
      if lines.count <= limit && complete && options.toggle != .inline && options.toggle != .overlay {
        result.append(draw(last))  // blank lines collapsed: everything shows; the toggle below remains
      } else {
        result.append(cut(last, marks: marks, overlay: options.toggle == .overlay))
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
    if options.toggle == .below { result.append(DisplayLine(fragments: [label])) }
    return result
  }

  /// A tail cut: the line's text cut back so that `marks` fit after it; with `overlay`, the text and the
  /// marks are spread to the whole width, the label at the trailing end.
  func cut(_ line: LineLayout.Line, marks: [Fragment], overlay: Bool) -> DisplayLine {
    let (end, width) = cutEnd(line, suffix: marks.map(\.width))
    // What is kept draws as one fragment per run when it can, with the width the cut walked, not walked again.
    let kept = LineLayout.Line(
      range: line.range.lowerBound..<end, contentEnd: end, width: width ?? 0, isHyphenated: false)
    var drawn = (width == nil ? nil : fragmentPerRun(kept)) ?? draw(kept.range)
    if overlay, let label = marks.last {
      let space = measurer.width(of: " ")
      let free = layout.width - drawn.width - marks.reduce(0) { $0 + $1.width }
      let count = space > 0 ? max(0, free / space) : 0
      drawn.fragments += marks.dropLast()
      if count > 0 {
        drawn.fragments.append(Fragment(text: String(repeating: " ", count: count), width: count * space, role: .gap))
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
      drawn.fragments += draw(max(start, line.range.lowerBound + shift)..<max(start, line.contentEnd + shift)).fragments
      if line.isHyphenated { drawn.fragments.append(hyphenFragment()) }
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

  /// The hyphen drawn where a line breaks after a soft hyphen.
  private func hyphenFragment() -> Fragment {
    Fragment(text: "-", width: measurer.width(of: "-"), role: .hyphen)
  }

  /// Where the drawn text of a cut line ends: the longest prefix no wider than `room`, moved back to a break
  /// opportunity when that keeps at least half the room (and `snapsToWords`), without trailing spaces; and the
  /// width of the clusters before that end, as they were walked (`nil` when the end is not one of theirs).
  func cutEnd(_ line: LineLayout.Line, suffix: [Int], snapsToWords: Bool = true) -> (end: Int, width: Int?) {
    let start = line.range.lowerBound
    let suffixWidth = suffix.reduce(0, +)
    let room = layout.width - suffixWidth
    let fit = self.fit
    let rounding = measurer.itemRounding  // asked once, not at every cluster
    var breaks = layout.breakOffsets(of: line).makeIterator()
    var nextBreak = breaks.next()
    var lastBreak: (offset: Int, width: Int)?  // the last opportunity within the prefix that fits
    var fits = start  // the end of the longest prefix that fits
    var x = 0
    var widthWithoutSpaces = 0
    // The width before each cluster end walked, to give the chosen end its width.
    var widths: [(end: Int, x: Int)] = []
    widths.reserveCapacity(line.contentRange.count + 1)  // a cluster per byte at most
    widths.append((start, 0))
    func cut(before end: Int) -> (end: Int, width: Int?) {
      let trimmed = trimmedEnd(start..<end)
      return (trimmed, widths.last(where: { $0.end == trimmed })?.x)
    }
    var walk = ClusterWalk(layout.text, range: line.contentRange, measurer: measurer)
    while let cluster = walk.next() {
      while let offset = nextBreak, offset < cluster.start { nextBreak = breaks.next() }
      if nextBreak == cluster.start {
        lastBreak = (cluster.start, widthWithoutSpaces)
      }
      // The sum decides but near the width of a font (``LineFit/fits(_:_:total:extra:)``).
      guard
        LineFit.decide(x + cluster.advance + suffixWidth, width: layout.width, rounding: rounding)
          ?? fit.fits(start, cluster.end, total: x + cluster.advance, extra: suffix)
      else {
        // The prefix that fits ends at a word's end: cut there.
        if cluster.isSpace || nextBreak == cluster.start { return cut(before: fits) }
        break
      }
      x += cluster.advance
      fits = cluster.end
      widths.append((fits, x))
      if !cluster.isSpace { widthWithoutSpaces = x }
    }
    if snapsToWords, fits < line.contentEnd, let lastBreak, lastBreak.width * 2 >= room {
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
