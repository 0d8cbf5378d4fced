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
    if state == .expanded, !source.isDocument {
      return expandedWriter(width: width, renderer: renderer).render(source)
    }
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

  /// The layout as JSON (see `LayoutJSON`), in terminal cells, with the line count always counted; a document's with
  /// its block tree.
  public func json(width: Int, state: DisplayState) -> String {
    LayoutJSON.encode(
      truncated(width: width, state: state, countingAllLines: true), blocks: source.isDocument ? blocks : nil)
  }

  /// The text with its break opportunities marked (see `BreakNotation`).
  package func breaks() -> String {
    BreakNotation.render(source.resolve().text.string, breaker: terminalBreaker)
  }

  // MARK: - Layout in cells

  /// What a reader sees in a terminal `width` cells wide, in `state`.
  ///
  /// - Parameters:
  ///   - width: the width of a line in cells.
  ///   - state: collapsed or expanded.
  ///   - countingAllLines: lay out the whole text even when collapsed, so that the line count is known
  ///     (collapsed layout otherwise stops at the line limit).
  ///
  /// A collapsed text is laid out from a prefix that settles its view: verbatim text, the markdown of a key
  /// without arguments up to a blank line (see `collapsedView(isSettledBy:width:)`), and a document's blocks before
  /// the last of a start of it (`DocumentLines`), so that a preview of a book costs what a preview of a comment
  /// does.
  public func truncated(width: Int, state: DisplayState, countingAllLines: Bool = false) -> TruncatedText {
    if case .document(let markdown) = source.mode {
      let lines = DocumentLines(measurer: terminalCells, breaker: terminalBreaker, width: width, options: options)
      if state == .collapsed, !countingAllLines, collapsedViewNeedsOnlyAPrefix,
        let truncated = lines.truncated(settledPrefixOf: markdown, autolinks: source.documentAutolinks)
      {
        return truncated
      }
      return lines.truncated(source.blocks(), state: state, countingAllLines: countingAllLines)
    }
    if state == .collapsed, !countingAllLines, collapsedViewNeedsOnlyAPrefix,
      let truncated = Truncator.truncate(
        settledPrefixOf: source, measurer: terminalCells, breaker: terminalBreaker, width: width, options: options)
    {
      return truncated
    }
    return Truncator.truncate(
      source.resolve().text, measurer: terminalCells, breaker: terminalBreaker, width: width,
      options: options, state: state, countingAllLines: countingAllLines)
  }

  /// Whether the collapsed terminal view depends only on a start of the text: for a tail truncation that
  /// neither collapses blank lines nor scrolls (head and middle truncations show the end).
  package var collapsedViewNeedsOnlyAPrefix: Bool {
    options.mode == .tail && !options.collapsesBlankLines && !isScrollable
  }

  /// Whether `prefix`, the start of a longer text of this paragraph's mode, settles that text's collapsed terminal
  /// view at `width` cells (see `SettledPrefix`, and `DocumentLines` for documents): verbatim text, a key's markdown
  /// that is its own text (no table, no argument), or a document.
  ///
  /// The command reads its input until this holds.
  package func collapsedView(isSettledBy prefix: String, width: Int) -> Bool {
    switch source.mode {
    case .verbatim:
      return Truncator.settles(
        TextSource(verbatim: prefix).resolve().text, measurer: terminalCells, breaker: terminalBreaker, width: width,
        options: options)
    case .localized(_, let localization):
      return Truncator.truncate(
        settledPrefixOf: TextSource(LocalizedKey(prefix), localization), measurer: terminalCells,
        breaker: terminalBreaker, width: width, options: options) != nil
    case .document:
      let lines = DocumentLines(measurer: terminalCells, breaker: terminalBreaker, width: width, options: options)
      return lines.truncated(settledPrefixOf: prefix, autolinks: source.documentAutolinks) != nil
    }
  }

  /// The cells of the terminal, counted as ``cellWidths`` says.
  var terminalCells: TerminalCells { TerminalCells(profile: cellWidths) }

  /// The break rules of the terminal: `breakRules`, or Unicode's.
  var terminalBreaker: LineBreaker { LineBreaker(rules: breakRules ?? .unicode) }

  /// What a scrollable paragraph shows from a line on.
  package struct Viewport: Hashable, Sendable {
    /// At most `lineLimit` lines.
    package var lines: [DisplayLine]
    /// The index of the first of them among all the lines.
    package var firstLine: Int
    /// The number of lines of the whole text.
    package var lineCount: Int
  }

  /// The lines of a scrollable paragraph from `firstLine` (clamped so that the viewport stays full): at most
  /// `lineLimit` lines, and the total line count.
  package func viewport(width: Int, firstLine: Int) -> Viewport {
    let all = truncated(width: width, state: .expanded).lines
    let height = options.effectiveLineLimit
    let first = max(0, min(firstLine, all.count - height))
    return Viewport(lines: Array(all.dropFirst(first).prefix(height)), firstLine: first, lineCount: all.count)
  }
}
