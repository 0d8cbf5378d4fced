import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// Bare URLs, `www.` addresses and e-mail addresses become links as on GitHub (cmark-gfm's autolink
/// extension), unless autolinks are off as in SwiftUI's `Text` (issue 37, item 11).
@Suite struct AutolinkTests {
  /// The links of a parse, as (destination, text) pairs, one per run of a link.
  func links(_ markdown: String, autolinks: Bool = true) -> [String] {
    let text = MarkdownParser.parse(markdown, autolinks: autolinks).text
    return text.runRanges.compactMap { range, style in
      style.link.map { "\($0) \(text.text(in: range))" }
    }
  }

  @Test func urlsWwwAddressesAndEmailAddressesBecomeLinks() {
    #expect(
      links("Our guide: https://docs.example.net/start?step=2.") == [
        "https://docs.example.net/start?step=2 https://docs.example.net/start?step=2"
      ])
    #expect(
      links("(mirror at www.files.example.org)") == [
        "http://www.files.example.org www.files.example.org"
      ])
    #expect(
      links("Write to team+ops@mail.example.co.uk: we answer.") == [
        "mailto:team+ops@mail.example.co.uk team+ops@mail.example.co.uk"
      ])
    #expect(
      links("See http://wiki.example.org/Page_(topic) (and http://b.example.org/x).") == [
        "http://wiki.example.org/Page_(topic) http://wiki.example.org/Page_(topic)",
        "http://b.example.org/x http://b.example.org/x",
      ])
    #expect(
      links("http://localhost:8080/health and https://例え.jp/パス") == [
        "http://localhost:8080/health http://localhost:8080/health", "https://例え.jp/パス https://例え.jp/パス",
      ])
    #expect(links("www.intranet") == ["http://www.intranet www.intranet"])  // the `www.` is the period
    #expect(links("Bold: **https://bold.example.org**!") == ["https://bold.example.org https://bold.example.org"])
  }

  @Test func textThatIsNoAutolinkStaysText() {
    for text in [
      "xhttps://a.example.org", "www.", "a@b", "@handle", "name@host", "https://", "https://--",
      "path/user@example.org", "www.ex_ample.org", "ftp://files.example.org", "mailto:", "a:b",
    ] {
      #expect(links(text).isEmpty, "\(text)")
    }
    // Code spans and links keep their own; autolinks off leaves every URL text.
    #expect(links("`https://code.example.org` [docs](https://a.example.org)") == ["https://a.example.org docs"])
    #expect(links("https://a.example.org www.b.example.org c@d.example.org", autolinks: false).isEmpty)
  }

  /// A link ends at a newline, and the text around it is kept (cmark-gfm's own extension read the newline
  /// as part of the URL).
  @Test func aLinkEndsAtALineEndAndNoTextIsLost() {
    let markdown = "see https://a.example.org\nnext www.b.example.org/p).\n\nthen https://c.example.org"
    #expect(
      links(markdown) == [
        "https://a.example.org https://a.example.org", "http://www.b.example.org/p www.b.example.org/p",
        "https://c.example.org https://c.example.org",
      ])
    #expect(MarkdownParser.parse(markdown).text.string == MarkdownParser.parse(markdown, autolinks: false).text.string)
  }

  /// Linking changes styles, never the text: random texts made of URL-like pieces read the same either way.
  @Test func linkingNeverChangesTheText() {
    var generator = SplitMix64(state: 37)
    let pieces = [
      "https://", "http://", "www.", "a", "b.", "_", "-", "(", ")", ".", "?", "&amp;", " ", "@", "é", "/", "*", "~",
      "<", "1", ":", "org", "+", "\n", "`", "[x](", "**", "中",
    ]
    for _ in 0..<500 {
      let count = Int(generator.next() % 16) + 1
      let markdown = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
      let linked = MarkdownParser.parse(markdown).text
      let plain = MarkdownParser.parse(markdown, autolinks: false).text
      #expect(linked.string == plain.string, "\(markdown.debugDescription)")
      #expect(linked.runs.reduce(0) { $0 + $1.length } == linked.string.utf8.count)
    }
  }

  @Test func theParagraphAndTheCommandCanTurnThemOff() {
    let paragraph = Paragraph(LocalizedKey("Docs at https://docs.example.org"))
    #expect(paragraph.ansi(width: 60, renderer: ANSIRenderer(colors: .ansi16)).contains("\u{1B}]8;"))
    #expect(!paragraph.autolinks(false).ansi(width: 60, renderer: ANSIRenderer(colors: .ansi16)).contains("\u{1B}]8;"))
  }
}
