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

  /// Terminal output: styled when `colors`, plain otherwise.
  public func ansi(width: Int, state: DisplayState, colors: Bool = true) -> String {
    ANSIRenderer(colors: colors).render(truncated(width: width, state: state))
  }

  /// An HTML fragment, first shown in `state`, `width` in `ch`.
  public func html(width: Int, state: DisplayState, id: String? = nil) -> String {
    let text = source.resolve().text
    let collapsed = truncated(text, width: width, state: .collapsed, rules: breakRules ?? .chromium)
    return HTMLRenderer(id: id).render(text, collapsed: collapsed, options: options, state: state)
  }

  /// The layout as JSON (see ``LayoutJSON``), with the line count always counted.
  public func json(width: Int, state: DisplayState) -> String {
    LayoutJSON.encode(truncated(width: width, state: state, countingAllLines: true))
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
