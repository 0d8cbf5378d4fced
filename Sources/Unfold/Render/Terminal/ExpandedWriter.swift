/// The expanded terminal view of a source, laid out, drawn and written line by line: neither the lines nor their
/// fragments are all held at once.
///
/// The markdown of a key without arguments longer than two parts of ``partLength`` bytes is also parsed a part at
/// a time: cut after the first blank line at least `partLength` bytes into the rest, where the text parses as the
/// whole does (chunks between blank lines parse independently, see `MarkdownParser`) and a line always ends.
/// Each part is parsed, laid out and written before the next is parsed, into the same output: the same bytes as
/// the whole text's view (a test compares them), from a styled text that takes the same memory again and again
/// instead of the whole text's worth of new pages.
struct ExpandedWriter {
  /// The length of markdown parsed, laid out and written at a time: long enough that a part's fixed costs (a
  /// scanner's buffers, a cmark parser) weigh little (Docs/PerformanceNotes.md, "Terminal output").
  static let partLength = 131_072

  let measurer: TerminalCells
  let breaker: LineBreaker
  /// The truncation options, for the less label after the last line.
  let options: TruncationOptions
  /// The width of a line in cells.
  let width: Int
  let renderer: ANSIRenderer

  /// The expanded view of `source`, parsed in parts of `partLength` bytes.
  func render(_ source: TextSource, partLength: Int = Self.partLength) -> String {
    guard let prefixes = source.prefixes(), prefixes.isMarkdown, prefixes.byteCount > 2 * partLength else {
      let text = source.resolve().text
      // The text, a newline per line, and the escapes of each styled run and link, with a sixteenth to spare:
      // an output that outgrows its reservation is copied into twice the room.
      let escapes = text.runs.reduce(0) { sum, run in
        sum + (run.style == .plain ? 0 : 16) + (run.style.link.map { 2 * $0.utf8.count + 48 } ?? 0)
      }
      let estimate = text.string.utf8.count + text.string.utf8.count / 32 + escapes
      var writer = ANSIRenderer.Writer(capacity: estimate + estimate / 16)
      _ = write(
        text, direction: renderer.visualDirection(of: text.string), linesBefore: 0, endsText: true, into: &writer)
      return writer.string
    }
    var parts = prefixes.parts(length: partLength)
    // The direction lines are reordered at, from the whole text, whichever part a line is in.
    let direction = renderer.visualDirection(of: parts.markdown)
    let count = parts.markdown.utf8.count
    // The markdown's length and a quarter to spare, the escapes unknown before the parts are parsed: the markup
    // that makes a style is about as long as its escapes, a link's escape holds its destination twice.
    var writer = ANSIRenderer.Writer(capacity: count + count / 4)
    var linesBefore = 0
    while let part = parts.next() {
      linesBefore = write(
        part.text, direction: direction, linesBefore: linesBefore, endsText: part.endsText, into: &writer)
    }
    return writer.string
  }

  /// Writes the lines of `text`, a part of the whole after `linesBefore` lines; the number of lines written
  /// with those before.
  private func write(
    _ text: StyledText, direction: TextDirection?, linesBefore: Int, endsText: Bool,
    into writer: inout ANSIRenderer.Writer
  ) -> Int {
    var lines = WholeTextLines(
      text, measurer: measurer, breaker: breaker, width: width, options: options, state: .expanded,
      linesBefore: linesBefore, endsText: endsText)
    renderer.write(perRun: &lines, text: text, direction: direction, width: width, into: &writer)
    return lines.linesGiven
  }
}
