/// A paragraph to show: its source and how it truncates, with one call per target.
///
///     let paragraph = Paragraph(TextSource("A **long** comment…"), options: TruncationOptions(lineLimit: 2))
///     print(paragraph.ansi(width: 40, state: .collapsed), terminator: "")
///     let page = paragraph.html(width: 40, state: .collapsed)
public struct Paragraph: Sendable {
  /// Where the text comes from.
  public var source: TextSource
  /// Line limit, labels and ellipsis.
  public var options: TruncationOptions
  /// How terminal cells are counted (``TerminalCells/Profile-swift.enum/legacy`` by default).
  public var cellWidths: TerminalCells.Profile
  /// The break rules; `nil` uses each target's own: `unicode` for the terminal, `chromium` for HTML.
  public var breakRules: LineBreaker.Rules?

  /// Creates a paragraph.
  public init(
    _ source: TextSource, options: TruncationOptions = .default, cellWidths: TerminalCells.Profile = .legacy,
    breakRules: LineBreaker.Rules? = nil
  ) {
    self.source = source
    self.options = options
    self.cellWidths = cellWidths
    self.breakRules = breakRules
  }

  /// What a reader sees in a terminal `width` cells wide, in `state`.
  ///
  /// - Parameter countingAllLines: lay out the whole text even when collapsed, so that the line count is
  ///   known (collapsed layout otherwise stops at the line limit).
  public func truncated(width: Int, state: DisplayState, countingAllLines: Bool = false) -> TruncatedText {
    truncated(
      source.resolve().text, width: width, state: state, rules: breakRules ?? .unicode,
      countingAllLines: countingAllLines)
  }

  /// Terminal output: styled with the 16 colours when `colors`, plain otherwise.
  public func ansi(width: Int, state: DisplayState, colors: Bool = true) -> String {
    ansi(width: width, state: state, renderer: ANSIRenderer(colors: colors))
  }

  /// Terminal output drawn by `renderer` (its colour level, label style and fade).
  public func ansi(width: Int, state: DisplayState, renderer: ANSIRenderer) -> String {
    renderer.render(truncated(width: width, state: state))
  }

  /// HTML that a browser lays out as the engine predicts, first shown in `state`: `width` in CSS px,
  /// measured in `fonts` (see ``HTMLRenderer``). Line breaking follows Chromium's rules unless
  /// ``breakRules`` says otherwise.
  public func html(width: Double, fonts: FontSet, state: DisplayState, options: HTMLOptions = HTMLOptions()) -> String {
    renderHTML(width: width, fonts: fonts, state: state, options: options).html
  }

  /// The HTML and what the engine could not predict: characters with no glyph in the fonts, whose width the
  /// browser chooses (a ``Diagnostic`` of kind `unpredictableWidth`, once).
  public func renderHTML(
    width: Double, fonts: FontSet, state: DisplayState, options: HTMLOptions = HTMLOptions()
  ) -> (html: String, warnings: [Diagnostic]) {
    let text = source.resolve().text
    let measurer = FontMeasurer(fonts)
    let units = Int((max(0, width) * Double(FontMeasurer.unitsPerPixel)).rounded())
    let collapsed = Truncator.truncate(
      text, measurer: measurer, breaker: LineBreaker(rules: breakRules ?? .chromium), width: units,
      options: self.options, state: .collapsed)
    let html = HTMLRenderer(fonts: fonts, options: options).render(
      text, collapsed: collapsed, truncation: self.options, state: state)
    var warnings: [Diagnostic] = []
    let shown =
      state == .collapsed
      ? collapsed.unpredictableRanges : measurer.unpredictableRanges(in: text, range: 0..<text.string.utf8.count)
    if let first = shown.first {
      let count = shown.reduce(0) { $0 + text.text(in: $1).count }
      warnings.append(
        Diagnostic(
          .unpredictableWidth, offset: first.lowerBound,
          message:
            "\(count) characters have no glyph in the fonts (the first: \(text.text(in: first).prefix(8).debugDescription)); the browser chooses their width, so its lines may differ"
        ))
    }
    return (html, warnings)
  }

  /// The layout as JSON (see ``LayoutJSON``), with the line count always counted.
  public func json(width: Int, state: DisplayState) -> String {
    LayoutJSON.encode(truncated(width: width, state: state, countingAllLines: true))
  }

  /// The layout in CSS px, measured in `fonts` with Chromium's rules, as JSON (widths in 1/4096 px).
  public func json(width: Double, fonts: FontSet, state: DisplayState) -> String {
    let units = Int((max(0, width) * Double(FontMeasurer.unitsPerPixel)).rounded())
    return LayoutJSON.encode(
      Truncator.truncate(
        source.resolve().text, measurer: FontMeasurer(fonts), breaker: LineBreaker(rules: breakRules ?? .chromium),
        width: units, options: options, state: state, countingAllLines: true))
  }

  /// The text with its break opportunities marked (see ``BreakNotation``).
  public func breaks() -> String {
    BreakNotation.render(source.resolve().text.string, breaker: LineBreaker(rules: breakRules ?? .unicode))
  }

  private func truncated(
    _ text: StyledText, width: Int, state: DisplayState, rules: LineBreaker.Rules, countingAllLines: Bool = false
  ) -> TruncatedText {
    Truncator.truncate(
      text, measurer: TerminalCells(profile: cellWidths), breaker: LineBreaker(rules: rules), width: width,
      options: options, state: state, countingAllLines: countingAllLines)
  }
}
