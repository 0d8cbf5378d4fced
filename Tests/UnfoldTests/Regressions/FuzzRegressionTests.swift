import Foundation
import Testing

@testable import Unfold

/// Inputs the fuzzers (scripts/fuzz) crashed on, each reduced by hand to what triggers it, kept so that the
/// fix stays.
@Suite struct FuzzRegressionTests {
  /// document, 2026-12-07: lists nested past the sixteen containers kept (``Block``) put their items' blocks
  /// straight into the list at the limit, and the layout, which reads a list's children as items, passed over them:
  /// the text of a second item four levels deeper was not drawn.
  ///
  /// A list at the limit now keeps the blocks in one item, and the layout takes any other child of a list for an
  /// item that holds it.
  @Test func aListNestedPastTheLimitKeepsItsText() {
    for depth in 14...19 {
      let markdown = "- a\n\n" + String(repeating: "- ", count: depth) + "deep words"
      let paragraph = Paragraph(document: markdown).lineLimit(2)
      #expect(Invariants.documentViolation(paragraph, width: 80) == nil, "\(depth)")
      #expect(paragraph.plain(width: 80, state: .expanded).contains("deep words"), "\(depth)")
    }
  }

  /// document, 2026-12-07: with the blank lines left out, a document that then fits still takes the toggle on its
  /// last block; when that block was an empty list item, whose text lays out in no line, the marks went with it.
  ///
  /// An empty item now draws its marker on a line, and the marks after it.
  @Test func anEmptyItemTakesTheMarks() {
    let paragraph = Paragraph(document: "## Title\n\n-").lineLimit(2).collapsesBlankLines()
    #expect(Invariants.documentViolation(paragraph, width: 30) == nil)
    #expect(paragraph.plain(width: 30) == "## Title\n• … more\n")
  }

  /// document, 2026-12-07: a fence with nothing inside laid out in no line, so the blank line before it ended the
  /// expanded document, and the collapsed view, which cuts on a blank line followed by more blocks, was truncated
  /// though the document took exactly its line limit.
  ///
  /// Empty code now draws a line of its gutter.
  @Test func anEmptyFenceTakesALine() {
    for markdown in ["Run this once:\n\n```s", "Run this once:\n\n```\n```\n\nThen go.", "- a\n\n  ```"] {
      for limit in 1...5 {
        let paragraph = Paragraph(document: markdown).lineLimit(limit)
        #expect(Invariants.documentViolation(paragraph, width: 26) == nil, "\(markdown.debugDescription) \(limit)")
      }
    }
    let expanded = Paragraph(document: "Run this once:\n\n```s").plain(width: 26, state: .expanded)
    #expect(expanded == "Run this once:\n\n  \n")
  }

  /// layout, 2026-12-02: the lazy stream of an expanded terminal view ran UAX #14 over a stretch that ended two
  /// clusters after the boundary; but controls are marks to UAX #14 (CM), each a cluster of its own that joins the
  /// unit before, so the stretch held no unit after the opening quote, and LB19a (an East Asian quote breaks only
  /// between East Asian units) read the end of the text there: no break before `“`, where the general stream has
  /// one.
  ///
  /// The stretch now reaches two units past the boundary's.
  @Test func theLazyStreamLooksTwoUnitsAheadPastControls() {
    let text = StyledText(plain: "现在行首。“" + String(repeating: "\u{16}", count: 10) + "引号")
    #expect(Invariants.lazyStreamViolation(text, width: 10) == nil)
    var lazy = CellStream(text, measurer: TerminalCells(), breaker: .unicode, width: LineWidth(10))
    #expect(lazy.next()?.range == 0..<15)  // 现在行首。, the quote on the next line
  }

  /// layout, 2026-12-03: a head cut where not even the text's last character fits after the ellipsis (one
  /// cell wide) put that character on a second line: two text lines at a limit of one.
  ///
  /// At one line the ellipsis now shows alone; with room for a second line, the last character goes there.
  @Test func aHeadCutWithNoRoomForTextKeepsToTheLimit() {
    let text = StyledText(plain: "de\u{1}D d c")
    for toggle in [TogglePlacement.below, .none, .inline] {
      let options = TruncationOptions(lineLimit: 1, lessLabel: "less", mode: .head, toggle: toggle)
      #expect(Invariants.truncationViolation(text, measurer: TerminalCells(), width: 1, options: options) == nil)
      let cut = Truncator.truncate(text, measurer: TerminalCells(), width: 1, options: options, state: .collapsed)
      #expect(cut.lines.first?.text == "…", "\(toggle)")
    }
    let two = TruncationOptions(lineLimit: 2, mode: .head, toggle: .none)
    #expect(Truncator.truncate(text, width: 1, options: two, state: .collapsed).lines.map(\.text) == ["…", "c"])
  }

  /// html, 2026-11-30: not a fault of the renderer but of the fuzzer's check, which took any tag holding the
  /// text `javascript:` for a script URL: a link to `https://ok.exam` followed by `javascript:alert(1)` is an
  /// https URL, and the renderer rightly kept it.
  ///
  /// The check now reads the scheme as a browser does; the link to `javascript:` next to it is still text.
  @Test func anHTTPSURLHoldingTheWordJavascriptIsALink() throws {
    let markdown =
      "[cle imkc](javascript:alert(1)) is text only; [this one](https://ok.examjavascript:alert(1)) is a link."
    let html = Paragraph(LocalizedKey(markdown)).html(
      width: 300, fonts: try FontSet.dejaVu(fallbacks: []), state: .expanded
    ).html
    #expect(Invariants.htmlViolation(html) == nil)
    #expect(html.contains("href=\"https://ok.examjavascript:alert(1)\""))
    #expect(!html.contains("href=\"javascript"))
  }

  /// stringsdict, 2026-11-29: a tag name of bytes that are not UTF-8 trapped inside swift-corelibs-
  /// foundation's XMLParser (`_NSXMLParserStartElementNs`).
  ///
  /// The document is now checked as UTF-8 first and reported with its line and column.
  @Test func aStringsdictWithANameThatIsNotUTF8IsAnError() {
    let head = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\n<k".utf8)
    let data = Data(head + Array(repeating: 0xEE, count: 40) + Array(">x</k></dict></plist>".utf8))
    #expect {
      try Localizations.readStringsDict(data, file: "Fuzz.stringsdict")
    } throws: { error in
      (error as? LocalizationError)?.description == "Fuzz.stringsdict:3:3: not valid UTF-8 (byte 69)"
    }
    // The same document in UTF-16 still reaches the XML parser (and fails there, as malformed).
    let utf16 = Data(
      "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><dict><key>é</key></dict></plist>".utf16.flatMap {
        [UInt8($0 & 0xFF), UInt8($0 >> 8)]
      })
    #expect(throws: LocalizationError.self) { try Localizations.readStringsDict(utf16, file: "U.stringsdict") }
  }

  /// stringsdict, 2026-11-29: a processing instruction without a body (`<?t?>`) crashed swift-corelibs-
  /// foundation's XMLParser (its callback reads the missing body as a C string).
  ///
  /// A property list uses none, so any processing instruction but the XML declaration is an error, in UTF-8 and in
  /// UTF-16 documents.
  @Test func aStringsdictWithAProcessingInstructionIsAnError() {
    let text = "<?xml version=\"1.0\"?>\n<plist><?t?><dict/></plist>"
    #expect {
      try Localizations.readStringsDict(Data(text.utf8), file: "PI.stringsdict")
    } throws: { error in
      (error as? LocalizationError)?.description
        == "PI.stringsdict:2:8: a processing instruction, which a property list does not use"
    }
    let utf16 = Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    #expect {
      try Localizations.readStringsDict(utf16, file: "PI16.stringsdict")
    } throws: { error in
      (error as? LocalizationError)?.description
        == "PI16.stringsdict:2:8: a processing instruction, which a property list does not use"
    }
    // The XML declaration itself is no error.
    let plain = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict/></plist>"
    #expect((try? Localizations.readStringsDict(Data(plain.utf8), file: "ok.stringsdict")) != nil)
  }
}
