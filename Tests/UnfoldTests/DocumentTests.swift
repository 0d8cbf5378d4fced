import Foundation
import TestSupport
import Testing

@testable import Unfold

/// Documents: block markdown parsed into blocks, laid out under one line budget, cut and drawn in a terminal.
@Suite struct DocumentTests {
  /// A document of every block type, nested, in our own words.
  static let sample = """
    # Field *notes*

    The survey team left at dawn and walked the coast road past the old mill, counting birds.

    - [x] Count the **terns**
    - [ ] Photograph the `north` pier
      1. from the beach
      2. from the lighthouse, if the gate is open
    - Send the notes to https://example.org/survey

    > The tide was higher than the tables said.
    >
    > > It always is in March.

    ```text
    date        site    count
    2026-03-02  pier    41
    \tindented with a tab
    ```

    ---

    | Site | Birds | Weather |
    |:-----|------:|:-------:|
    | Pier | 41 | windy |
    | Mill | 7 | clear, then rain by the afternoon |

    <p>Raw HTML stays text.</p>

    Ελληνικά, русский, 中文的句子也在这里, and العربية at the end.
    """

  static func text(_ line: DisplayLine) -> String { line.fragments.map(\.text).joined() }

  @Test func blocksKeepTheirStructure() {
    let blocks = Paragraph(document: Self.sample).blocks
    #expect(blocks.count == 9)
    guard case .heading(1, let title) = blocks[0] else { return #expect(Bool(false), "\(blocks[0])") }
    #expect(title.string == "Field notes")
    #expect(title.runs.last?.style.traits == .italic)
    guard case .list(false, _, true, let items) = blocks[2], items.count == 3 else {
      return #expect(Bool(false), "\(blocks[2])")
    }
    guard case .item(true, _) = items[0], case .item(false, let second) = items[1], case .item(nil, _) = items[2]
    else { return #expect(Bool(false), "\(items)") }
    guard case .list(true, 1, true, let nested) = second.last else { return #expect(Bool(false), "\(second)") }
    #expect(nested.count == 2)
    guard case .quote(let quoted) = blocks[3], case .quote = quoted.last else {
      return #expect(Bool(false), "\(blocks[3])")
    }
    #expect(
      blocks[4]
        == .code(language: "text", text: "date        site    count\n2026-03-02  pier    41\n\tindented with a tab"))
    #expect(blocks[5] == .rule)
    guard case .table(let alignments, let rows) = blocks[6] else { return #expect(Bool(false), "\(blocks[6])") }
    #expect(alignments == [.left, .right, .center])
    #expect(rows.map { $0.map(\.string) }[2] == ["Mill", "7", "clear, then rain by the afternoon"])
    #expect(blocks[7] == .html("<p>Raw HTML stays text.</p>"))
    // A bare URL is a link, as in a key's markdown.
    guard case .item(nil, let last) = items[2], case .paragraph(let send) = last.first else {
      return #expect(Bool(false))
    }
    #expect(send.runs.last?.style.link == "https://example.org/survey")
  }

  /// `autolinks(false)` leaves a document's bare URLs text, in its blocks and in a collapsed view read from a start of
  /// a long document; a written link stays one.
  @Test func aDocumentsBareURLsStayTextWithoutAutolinks() {
    let markdown = "See https://example.org and [the guide](https://example.com).\n\n- www.example.net\n"
    let links = { (blocks: [Block]) in Block.text(of: blocks).runs.compactMap(\.style.link) }
    #expect(links(Paragraph(document: markdown).blocks).count == 3)
    #expect(links(Paragraph(document: markdown).autolinks(false).blocks) == ["https://example.com"])
    let long = String(repeating: "Visit https://example.org/docs today.\n\n", count: 400)
    let view = Paragraph(document: long).autolinks(false).lineLimit(3).truncated(width: 40, state: .collapsed)
    #expect(view.isTruncated && view.lines.flatMap(\.fragments).allSatisfy { $0.style.link == nil })
  }

  /// Verbatim text and keys are one paragraph; a soft line break in a document is a space, a hard one a newline.
  @Test func inlineModesAreOneParagraphAndSoftBreaksAreSpaces() {
    #expect(Paragraph(verbatim: "a\n- b").blocks == [.paragraph(StyledText(plain: "a\n- b"))])
    #expect(Paragraph(document: "one\ntwo  \nthree").blocks == [.paragraph(StyledText(plain: "one two\nthree"))])
  }

  /// At every width and limit, collapsed: at most the limit of lines, the ellipsis and the toggle on the last of them
  /// when truncated; expanded: every character of the text (in any order: a table's wrapped cells interleave), no
  /// line wider than the width but for a table that cannot shrink, and the line count the collapsed views agree with.
  @Test(arguments: [12, 20, 31, 44, 80])
  func everyLimitHoldsAtEveryWidth(_ width: Int) throws {
    let base = Paragraph(document: Self.sample).moreLabel("more").lessLabel("less")
    let source = base.source.resolve().text
    let expanded = base.truncated(width: width, state: .expanded)
    let count = try #require(expanded.lineCount)
    for limit in 1...(count + 1) {
      let paragraph = base.lineLimit(limit)
      for state in DisplayState.allCases {
        let shown = paragraph.truncated(width: width, state: state)
        let problems = TestSupport.invariantViolations(
          shown, source: source, lineLimit: limit, expandedLineCount: count, inOrder: false
        ).filter { !$0.contains("wide, width") || width >= 31 }
        #expect(problems.isEmpty, "width \(width), limit \(limit), \(state): \(problems)")
        guard state == .collapsed else { continue }
        #expect(shown.isTruncated == (limit < count))
        if shown.isTruncated {
          let last = try #require(shown.lines.last)
          #expect(last.fragments.contains { $0.role == .ellipsis }, "width \(width), limit \(limit)")
          #expect(last.fragments.last?.role == .moreLabel, "width \(width), limit \(limit): \(Self.text(last))")
        }
      }
    }
  }

  /// The HTML of a document at every limit: well formed wherever the cut falls (inside every block type), with the
  /// blocks as semantic elements; collapsed, each leaf shown holds its lines apart by `<br>`, the toggle exactly when
  /// the document is truncated, and no element after the cut; expanded, the whole text of every leaf once.
  @Test(arguments: [240.0, 420.0])
  func documentHTMLIsWellFormedWhereverTheCutFalls(_ width: Double) throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    let base = Paragraph(document: Self.sample).moreLabel("more").lessLabel("less")
    let expanded = base.html(width: width, fonts: fonts, state: .expanded).html
    for element in ["<h1", "<ul", "<ol", "<li", "<blockquote", "<pre", "<code>", "<table", "<th", "<td", "<hr>"] {
      #expect(expanded.contains(element), "no \(element) in the expanded HTML")
    }
    #expect(expanded.contains("<input type=\"checkbox\" disabled checked>"))
    #expect(expanded.contains("&lt;p&gt;Raw HTML stays text.&lt;/p&gt;"))
    var cutElements = Set<String>()
    for limit in 1...40 {
      let paragraph = base.lineLimit(limit)
      for state in DisplayState.allCases {
        let html = paragraph.html(width: width, fonts: fonts, state: state).html
        #expect(
          Invariants.htmlViolation(html) == nil, "limit \(limit), \(state): \(Invariants.htmlViolation(html) ?? "")")
        guard let start = html.range(of: "<div class=\"unfold-collapsed\">"),
          let end = html.range(of: "<div class=\"unfold-full\"")
        else {
          #expect(!html.contains("unfold-more"), "limit \(limit): a toggle without a collapsed view")
          continue
        }
        let collapsed = html[start.upperBound..<end.lowerBound]
        #expect(collapsed.contains("unfold-more") && collapsed.contains("unfold-ellipsis"), "limit \(limit)")
        // Where the ellipsis stands: in a paragraph or heading cut, or on a line of its own after code, a table or a
        // rule.
        let before = collapsed[..<collapsed.range(of: "<span class=\"unfold-ellipsis\"")!.lowerBound]
        if let own = before.range(of: "<p class=\"unfold-end\">", options: .backwards) {
          let after = ["</pre>", "</table>", "<hr>"].first { before[..<own.lowerBound].hasSuffix($0) }
          cutElements.insert(after ?? "a line of its own")
        } else if let opened = before.ranges(of: #/<(p|h1) /#).last {
          cutElements.insert(String(before[opened]))
        }
      }
    }
    // The cut fell inside paragraphs and headings, and after code, a table and a rule.
    #expect(cutElements == ["<p ", "<h1 ", "</pre>", "</table>", "<hr>"], "\(cutElements)")
  }

  /// In HTML a heading is larger than the text (`h1` twice its size, its lines 40 px for 20 px of text): a height
  /// budget (`maxHeight`) counts each line at its height, besides the line limit, and the view's height is its
  /// lines'.
  @Test func aHeightBudgetCountsTallerHeadings() throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])
    let markdown = "# Field notes\n\n" + String(repeating: "The survey team walked the coast road at dawn. ", count: 8)
    let paragraph = Paragraph(document: markdown).lineLimit(10)
    let byLines = paragraph.documentView(width: 300, fonts: fonts, engine: .blink, state: .collapsed)
    #expect(byLines.text.lines.count == 10 && byLines.height == (40 + 9 * 20) * 64)
    let byHeight = paragraph.maxHeight(100).documentView(width: 300, fonts: fonts, engine: .blink, state: .collapsed)
    // The heading (40 px), the blank line and two lines of text (20 px each).
    #expect(byHeight.text.isTruncated && byHeight.text.lines.count == 4 && byHeight.height == 100 * 64)
    #expect(byHeight.text.lines.last?.fragments.last?.role == .moreLabel)
    let html = paragraph.maxHeight(100).html(width: 300, fonts: fonts, engine: .blink).html
    #expect(html.contains(" h1{font-size:32px;line-height:40px}"))
    // Without a budget in px the terminal counts lines: the heading is one.
    #expect(paragraph.maxHeight(100).plain(width: 40).filter { $0 == "\n" }.count == 10)
  }

  /// A cut code block shows whole lines of code and the marks on a line of their own; a cut table whole rows and
  /// its bottom border.
  @Test func codeAndTablesAreCutAtWholeLinesAndRows() {
    let code = Paragraph(document: "```\none\ntwo\nthree\nfour\n```").lineLimit(3)
    #expect(code.plain(width: 20) == "  one\n  two\n  … more\n")
    let table = Paragraph(document: "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |").lineLimit(6)
    #expect(
      table.plain(width: 20) == """
        ┌───┬───┐
        │ a │ b │
        ├───┼───┤
        │ 1 │ 2 │
        └───┴───┘
        … more

        """)
  }

  /// A code line wider than the width wraps, its continuation marked in the gutter; tabs stop every 4 columns.
  @Test func codeWrapsWithAMarkAndExpandsTabs() {
    let code = Paragraph(document: "```\nabcdefghij klmnop\n\tx\n```").lineLimit(9)
    #expect(code.plain(width: 14) == "  abcdefghij\n↪ klmnop\n      x\n")
  }

  /// The budget ending on the blank line between two blocks: the block before it takes the marks.
  @Test func aCutOnABlankLineMovesToTheBlockBefore() {
    let paragraph = Paragraph(document: "First one.\n\nSecond one.").lineLimit(2)
    #expect(paragraph.plain(width: 30) == "First one.… more\n")
    // With the blank lines left out, the second paragraph shows; the view still differs from the expanded one, so
    // the toggle stays, as after a paragraph's collapsed blank lines.
    let collapsing = paragraph.collapsesBlankLines()
    #expect(collapsing.plain(width: 30) == "First one.\nSecond one.… more\n")
    #expect(collapsing.truncated(width: 30, state: .collapsed).isTruncated)
  }

  /// Nested markers: a tight list's items with no blank line between them, numbers aligned, a quote's bar on every
  /// line of its blocks, the blank line between them included.
  @Test func markersIndentsAndBars() {
    let list = Paragraph(document: "8. eight\n9. nine\n10. ten words that wrap").lineLimit(9)
    #expect(list.plain(width: 16) == " 8. eight\n 9. nine\n10. ten words\n    that wrap\n")
    let quote = Paragraph(document: "> a\n>\n> b").lineLimit(9)
    #expect(quote.plain(width: 16) == "│ a\n│\n│ b\n")
  }

  /// Each block takes the direction of its first strong character, as `dir="auto"` on each block gives it: a Hebrew
  /// paragraph or item drawn right to left and aligned to the right, its marker on the right, and an English paragraph
  /// after it still from the left.
  @Test func eachBlockTakesTheDirectionOfItsFirstStrongCharacter() {
    let document = Paragraph(document: "שלום עולם\n\nHello world\n\n- שלום\n- Bye").lineLimit(9)
    let visual = document.plain(width: 20, state: .expanded, visualOrder: true)
    #expect(visual == "           םלוע םולש\n\nHello world\n\n              םולש •\n• Bye\n")
    // In logical order, as stored, the markers first.
    #expect(document.plain(width: 20, state: .expanded) == "שלום עולם\n\nHello world\n\n• שלום\n• Bye\n")
    // A blank line and a rule in a right-to-left quote, which have no text, keep its bar on the right.
    let quote = Paragraph(document: "> שלום\n>\n> עולם\n>\n> ---").lineLimit(9)
    let rows = quote.plain(width: 10, state: .expanded, visualOrder: true).split(separator: "\n").map(String.init)
    #expect(rows == ["    םולש │", "         │", "    םלוע │", "         │", "──────── │"], "\(rows)")
  }

  /// A long document's collapsed view is laid out from a start of it, and is the whole document's view.
  @Test(arguments: [1, 3, 8, 40])
  func aLongDocumentIsCutFromAStartOfIt(_ limit: Int) {
    let long = String(repeating: Self.sample + "\n\n", count: 40)
    for width in [20, 60] {
      let paragraph = Paragraph(document: long).lineLimit(limit)
      let lines = DocumentLines(measurer: TerminalCells(), breaker: .unicode, width: width, options: paragraph.options)
      let fromPrefix = lines.truncated(settledPrefixOf: long)
      #expect(fromPrefix != nil, "width \(width)")
      #expect(fromPrefix?.lines == lines.truncated(paragraph.blocks, state: .collapsed).lines, "width \(width)")
      #expect(paragraph.truncated(width: width, state: .collapsed).lines == fromPrefix?.lines)
    }
  }

  /// A `[label]` in a document's start that a definition at its end makes a link: the start does not settle the view,
  /// and the link shows.
  @Test func aReferenceDefinedAtTheEndLinksTheStart() {
    let long =
      "See [the survey] first.\n\n" + String(repeating: Self.sample + "\n\n", count: 20)
      + "[the survey]: https://example.org/survey\n"
    let paragraph = Paragraph(document: long).lineLimit(2)
    let lines = DocumentLines(measurer: TerminalCells(), breaker: .unicode, width: 40, options: paragraph.options)
    #expect(lines.truncated(settledPrefixOf: long) == nil)
    let first = paragraph.truncated(width: 40, state: .collapsed).lines.first
    #expect(first?.fragments.contains { $0.style.link == "https://example.org/survey" } == true)
  }

  /// Containers nested deeper than the limit keep their text, in the innermost container kept, and a document as
  /// deep as it is long parses without recursion.
  @Test func deepNestingKeepsTheText() {
    let deep = String(repeating: "> ", count: 5000) + "bottom"
    let paragraph = Paragraph(document: deep).lineLimit(3)
    var depth = 0
    var blocks = paragraph.blocks
    while case .quote(let inner)? = blocks.first {
      depth += 1
      blocks = inner
    }
    #expect(depth == Block.maximumDepth)
    #expect(blocks == [.paragraph(StyledText(plain: "bottom"))])
    let lists = String(repeating: "- ", count: 200) + "item"
    #expect(Paragraph(document: lists).plain(width: 80, state: .expanded).contains("item"))
  }
}
