import Testing

@testable import Unfold

extension FuzzRegressionTests {
  /// markdown, 2026-11-29: `MarkdownParser.parse` given a lone CR (which `TextSource` had always normalised
  /// away) let cmark-gfm start a new line there, so the columns of an autolink after it pointed elsewhere in
  /// the chunk: words were lost and replacement characters appeared. The parser normalises line ends itself.
  @Test func aCarriageReturnBeforeAnAutolinkLosesNoText() {
    for markdown in ["path\\*\r45 and <Mailto:so\nfar> work.", "a\r<https://e.com/x> b", "a\r\n<x@e.com>\rend"] {
      let parsed = MarkdownParser.parse(markdown)
      let normalized = MarkdownParser.parse(
        markdown.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n"))
      #expect(parsed == normalized)
      #expect(
        parsed.text.string.contains("work.") || parsed.text.string.hasSuffix("b") || parsed.text.string.hasSuffix("end")
      )
      #expect(!parsed.text.string.contains("\u{FFFD}"))
    }
  }
}
