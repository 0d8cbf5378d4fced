import Foundation
import TestSupport
import Testing

/// Figures and units that the articles state, checked against what the command writes.
@Suite struct DocumentedFiguresTests {
  static func article(_ name: String) throws -> String {
    try String(
      contentsOf: TestSupport.repositoryRoot.appendingPathComponent("Sources/Unfold/Unfold.docc/\(name)"),
      encoding: .utf8)
  }

  /// HTMLOutput.md's size of a standalone page for a 200-byte English paragraph with bold, italic, code and a link.
  @Test func theStandalonePageIsAsLargeAsTheArticleSays() throws {
    let article = try Self.article("HTMLOutput.md").replacingOccurrences(of: "\n  ", with: " ")
    let match = try #require(
      article.firstMatch(of: /a 200-byte English paragraph with bold, italic, code and a link makes a (\d+) KB page/))
    var paragraph =
      "Unfold shows **a comment** in *three lines* with `code` and a [link](https://example.org), as a reader sees it, then the rest after more: "
    paragraph += String(repeating: "x", count: 200 - paragraph.utf8.count)
    #expect(paragraph.utf8.count == 200)
    let page = try Command.run(
      ["--format", "html", "--standalone", "--width", "320px"], stdin: Data(paragraph.utf8))
    #expect(page.status == 0)
    #expect(Int((Double(page.stdout.utf8.count) / 1000).rounded()) == Int(match.1)!)
  }

  /// Each engine's JSON unit is the one CommandFormats.md names for it.
  @Test func eachJSONUnitIsTheOneTheArticleNames() throws {
    let article = try Self.article("CommandFormats.md").replacingOccurrences(of: "\n  ", with: " ")
    let cells = try Command.run(["--format", "json", "--width", "40"], stdin: Data("words".utf8)).stdout
    #expect(cells.contains("\"unit\" : \"cells\"") && article.contains("`cells` for the terminal"))
    for (engines, unit) in [("`blink`, `webkit` and `any`", "px/65536"), ("`gecko`", "px/60")] {
      #expect(article.contains("`\(unit)` (") && article.contains("for \(engines)"), "\(unit)")
      for engine in ["blink", "webkit", "any", "gecko"] where engines.contains("`\(engine)`") {
        let json = try Command.run(
          ["--format", "json", "--width", "100px", "--engine", engine], stdin: Data("words".utf8)
        ).stdout
        #expect(json.contains("\"unit\" : \"\(unit)\""), "\(engine)")
      }
    }
  }
}
