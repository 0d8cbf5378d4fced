/// A collapsed terminal view laid out from a start of the text that settles it, so that a preview of a book costs
/// what a preview of a comment does: verbatim text, and the markdown of a key without arguments up to a blank
/// line.
///
/// A prefix settles the view when its layout stops at the line limit at least 4 KiB before the prefix ends: what
/// follows then cannot change the visible lines (line breaking and grapheme clusters look ahead far less), and
/// the text is truncated.
struct SettledPrefix {
  let measurer: TerminalCells
  let breaker: LineBreaker
  let options: TruncationOptions
  /// The width of a line in cells.
  let width: Int

  /// The collapsed view of `source` laid out from a prefix that settles it, or `nil` when none does (the whole
  /// text is then to be laid out).
  ///
  /// The prefixes tried grow from 8 KiB fourfold: room for 4 KiB of visible lines and the 4 KiB after them (16 KiB made
  /// a collapsed preview of a 10 KB text lay it all out, and one of a book twice what it needed). A prefix of markdown
  /// that holds no blank line to cut after is skipped for a longer one.
  func truncated(_ source: TextSource) -> TruncatedText? {
    guard let prefixes = source.prefixes() else { return nil }
    var length = 8_192
    while length < prefixes.byteCount {
      if let prefix = prefixes.resolved(bytes: length), let layout = layout(of: prefix) {
        var truncated = Truncator.truncate(layout, options: options, state: .collapsed)
        truncated.diagnostics += Truncator.widthOutOfRange(width, unit: .cells)
        return truncated
      }
      length *= 4
    }
    return nil
  }

  /// The collapsed layout of `text`, the start of a longer one, when it settles the longer text's view.
  func layout(of text: StyledText) -> LineLayout? {
    let layout = LineLayout(
      text, measurer: measurer, breaker: breaker, width: width, lineLimit: options.effectiveLineLimit)
    guard !layout.isComplete, let last = layout.lines.last,
      text.string.utf8.count >= last.range.upperBound + 4096
    else { return nil }
    return layout
  }
}

extension Truncator {
  /// The collapsed terminal view of `source` at `width` cells, laid out from a prefix that settles it (see
  /// ``SettledPrefix``), or `nil` when none does.
  static func truncate(
    settledPrefixOf source: TextSource, measurer: TerminalCells, breaker: LineBreaker, width: Int,
    options: TruncationOptions
  ) -> TruncatedText? {
    SettledPrefix(measurer: measurer, breaker: breaker, options: options, width: width).truncated(source)
  }

  /// Whether `prefix`, the start of a longer text, settles its collapsed terminal view at `width` cells.
  static func settles(
    _ prefix: StyledText, measurer: TerminalCells, breaker: LineBreaker, width: Int, options: TruncationOptions
  ) -> Bool {
    SettledPrefix(measurer: measurer, breaker: breaker, options: options, width: width).layout(of: prefix) != nil
  }
}
