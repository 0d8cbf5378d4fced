import Testing

@testable import Unfold

extension FuzzRegressionTests {
  /// markdown, 2026-11-29: `MarkdownParser.parse` given a lone CR (which `TextSource` had always normalised
  /// away) let cmark-gfm start a new line there, so the columns of an autolink after it pointed elsewhere in
  /// the chunk: words were lost and replacement characters appeared.
  ///
  /// The parser normalises line ends itself.
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

  /// markdown, 2026-11-30: a link whose destination holds a newline is no link, and its source is shown as
  /// written: the source before its first child, the children, the source after its last child.
  ///
  /// cmark-gfm's strikethrough extension leaves the end column of the text it makes of an unmatched `~` at 0, so a link
  /// text ending with one showed its source twice (`x [a~](:⏎.) y` became `x [a~ [a~](:⏎.) y`). The text of such a link
  /// is now its source, whatever its children.
  @Test func aLiteralLinkEndingWithATildeShowsItsSourceOnce() {
    for markdown in [
      "[~](:\n.)", "[a~](:\n.)", "[~~](:\n.)", "x [a~](:\n.) y", "[~](a\nb)", "[~](<:\n.>)", "[*a~](:\n.)",
      "[a ~](b\nc) and [d~](e\nf)",
    ] {
      #expect(MarkdownParser.parse(markdown).text.string == markdown, "\(markdown.debugDescription)")
    }
    // Struck text inside such a link keeps its style, and the brackets around it are text.
    let struck = MarkdownParser.parse("[~b~ c~](:\n.)")
    #expect(struck.text.string == "[b c~](:\n.)")
    #expect(struck.text.runs.contains { $0.style.traits.contains(.strikethrough) })
  }
}
