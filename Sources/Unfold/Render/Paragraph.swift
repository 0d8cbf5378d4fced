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

  /// Creates a paragraph.
  public init(_ source: TextSource, options: TruncationOptions = .default) {
    self.source = source
    self.options = options
  }

  /// What a reader sees at `width` cells in `state`.
  ///
  /// - Parameter countingAllLines: lay out the whole text even when collapsed, so that the line count is
  ///   known (collapsed layout otherwise stops at the line limit).
  public func truncated(
    width: Int, state: DisplayState, measurer: any TextMeasurer = TerminalCells(), countingAllLines: Bool = false
  ) -> TruncatedText {
    Truncator.truncate(
      source.resolve().text, measurer: measurer, width: width, options: options, state: state,
      countingAllLines: countingAllLines)
  }

  /// Terminal output: styled when `colors`, plain otherwise.
  public func ansi(width: Int, state: DisplayState, colors: Bool = true) -> String {
    ANSIRenderer(colors: colors).render(truncated(width: width, state: state))
  }

  /// An HTML fragment, first shown in `state`, `width` in `ch`.
  public func html(width: Int, state: DisplayState, id: String? = nil) -> String {
    let text = source.resolve().text
    let collapsed = Truncator.truncate(text, width: width, options: options, state: .collapsed)
    return HTMLRenderer(id: id).render(text, collapsed: collapsed, options: options, state: state)
  }

  /// The layout as JSON (see ``LayoutJSON``), with the line count always counted.
  public func json(width: Int, state: DisplayState) -> String {
    LayoutJSON.encode(truncated(width: width, state: state, countingAllLines: true))
  }
}
