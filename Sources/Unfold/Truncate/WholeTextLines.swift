/// The display lines of a complete layout shown whole (expanded, or collapsed when it fits the limit), drawn
/// one at a time as they are read, with the less label after the last line of an expanded text that needs
/// more lines than the limit, then blank lines up to the limit when the options reserve space: a renderer
/// can write a long text line by line without holding them all, nor even its laid-out lines (see
/// ``SegmentStream``).
struct WholeTextLines<Lines: IteratorProtocol<LineLayout.Line>>: Sequence, IteratorProtocol {
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

extension WholeTextLines where Lines == LineStream {
  /// The display lines of the whole of `text` at `width` in `state`, laid out lazily (``Layout/stream(_:measurer:breaker:width:)``), a
  /// part of a longer text after `linesBefore` lines unless it `endsText`; the toggle placed where it fits.
  init(
    _ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: Int, options: TruncationOptions,
    state: DisplayState, linesBefore: Int = 0, endsText: Bool = true
  ) {
    let width = LineWidth(width)
    let drawer = LineDrawer(text: text, measurer: measurer, breaker: breaker, width: width)
    self.init(
      Layout.stream(text, measurer: measurer, breaker: breaker, width: width), drawer: drawer,
      options: drawer.fitting(options), state: state, linesBefore: linesBefore, endsText: endsText)
  }
}
