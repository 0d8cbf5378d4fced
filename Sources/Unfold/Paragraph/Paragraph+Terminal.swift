extension Paragraph {
  /// Terminal output drawn by `renderer`: its colour level (the 16 colours by default, `.none` for plain text),
  /// label style and fade.
  ///
  /// A scrollable paragraph draws its first `lineLimit` lines.
  ///
  /// paragraph.ansi(width: 40)
  /// paragraph.ansi(width: 40, state: .expanded, renderer: ANSIRenderer(colors: .truecolor))
  public func ansi(width: Int, state: DisplayState = .collapsed, renderer: ANSIRenderer = ANSIRenderer()) -> String {
    if isScrollable {
      let viewport = viewport(width: width, firstLine: 0)
      return renderer.render(
        TruncatedText(
          lines: viewport.lines, isTruncated: false, lineCount: viewport.lineCount, state: .expanded, width: width,
          unit: .cells))
    }
    if state == .expanded { return expandedWriter(width: width, renderer: renderer).render(source) }
    return renderer.render(truncated(width: width, state: state))
  }

  /// Plain text: the lines with no escape at all, each ended by a newline.
  ///
  /// Right-to-left text is in logical order, as stored (the order to compare in a test); with `visualOrder`, as the
  /// terminal output draws it: reordered for a terminal that does not reorder, and a right-to-left paragraph's lines
  /// aligned to the right of `width` with spaces.
  public func plain(width: Int, state: DisplayState = .collapsed, visualOrder: Bool = false) -> String {
    var renderer = ANSIRenderer(colors: .none)
    renderer.reordersRightToLeft = visualOrder
    return ansi(width: width, state: state, renderer: renderer)
  }

  /// The writer of the expanded terminal view (see ``ExpandedWriter``).
  func expandedWriter(width: Int, renderer: ANSIRenderer) -> ExpandedWriter {
    ExpandedWriter(
      measurer: terminalCells, breaker: terminalBreaker, options: options, width: width,
      renderer: renderer)
  }

  /// The layout as JSON (see `LayoutJSON`), in terminal cells, with the line count always counted.
  public func json(width: Int, state: DisplayState) -> String {
    LayoutJSON.encode(truncated(width: width, state: state, countingAllLines: true))
  }

  /// The text with its break opportunities marked (see `BreakNotation`).
  package func breaks() -> String {
    BreakNotation.render(source.resolve().text.string, breaker: terminalBreaker)
  }
}
