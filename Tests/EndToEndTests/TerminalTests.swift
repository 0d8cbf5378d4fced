import Foundation
import TestSupport
import Testing
import Unfold

/// Runs the real `unfold` binary in a real terminal (tmux) and reads the screen back.
@Suite(.serialized) struct TerminalTests {
  let sample = """
    Unfold shows **a short piece of text** the way a reader sees it in a few lines, with `… more` at the \
    end, in every script: 中文, עברית, emoji 👩‍🔬.
    """

  func runInTmux(_ arguments: String, width: Int, text: String? = nil) throws -> (rows: [String], styled: [String]) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-tmux-\(UUID()).md")
    try Data((text ?? sample).utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try Self.screen(of: "'\(Command.executable.path)' \(arguments) '\(file.path)'", width: width, height: 12)
  }

  /// The screen of a terminal `width` × `height` cells (`TERM=screen`, colour allowed) once `command` has run: its
  /// rows as text, and with their attributes as SGR.
  static func screen(of command: String, width: Int, height: Int) throws -> (rows: [String], styled: [String]) {
    let tmux = try Tmux(
      width: width, height: height, command: "env -u NO_COLOR -u COLUMNS TERM=screen \(command); echo '<end>'; sleep 30"
    )
    let rows = try tmux.waitForScreen { $0.contains("<end>") }
    let styled = try tmux.screen(escapes: true)
    return (Array(rows.prefix { $0 != "<end>" }), styled)
  }

  /// The README's document (`Examples/issue.md`) in a terminal of 60 columns, captured from tmux.
  ///
  /// Unfold's view is collapsed to 23 lines (the lines the engine predicts, cut at a whole table row) beside rich's
  /// rendering of the whole file (`python -m rich.markdown`, which cannot cut). The README shows both captures as taken
  /// here: `UNFOLD_RECORD=1` writes them into it, and otherwise unfold's must be the README's.
  @Test func aDocumentNextToRichForTheReadme() throws {
    let file = TestSupport.repositoryRoot.appendingPathComponent("Examples/issue.md")
    let unfold = try Self.screen(
      of: "'\(Command.executable.path)' --no-interactive --color never --document --lines 23 '\(file.path)'",
      width: 60, height: 30
    ).rows
    let expected = Paragraph(document: try String(contentsOf: file, encoding: .utf8)).lineLimit(23).plain(width: 60)
    #expect(unfold == expected.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
    #expect(unfold.count == 23 && unfold.last == "… more")
    let python = try #require(
      ProcessInfo.processInfo.environment["UNFOLD_RICH_PYTHON"],
      "UNFOLD_RICH_PYTHON names no Python with rich: scripts/test installs rich into .build/test-venv")
    let rich = try Self.screen(of: "'\(python)' -m rich.markdown -w 60 '\(file.path)'", width: 60, height: 50).rows
    #expect(rich.count > 30 && rich.contains { $0.contains("Questions go to the release thread") }, "\(rich)")
    let readmeURL = TestSupport.repositoryRoot.appendingPathComponent("README.md")
    let readme = try String(contentsOf: readmeURL, encoding: .utf8)
    let (start, end) = (
      "<!-- document capture: TerminalTests.aDocumentNextToRichForTheReadme -->", "<!-- end of capture -->"
    )
    let block = try #require(
      readme.range(of: start).flatMap { s in
        readme.range(of: end, range: s.upperBound..<readme.endIndex).map { s.lowerBound..<$0.upperBound }
      }, "the README has no capture markers")
    let pre = { (rows: [String]) in
      "<pre>"
        + rows.map { $0.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;") }
        .joined(separator: "\n") + "</pre>"
    }
    if ProcessInfo.processInfo.environment["UNFOLD_RECORD"] == "1" {
      let captured = """
        \(start)
        <table><tr><th><code>unfold --document --lines 23</code></th><th><code>python -m rich.markdown</code></th></tr>
        <tr><td valign="top">

        \(pre(unfold))

        </td><td valign="top">

        \(pre(rich))

        </td></tr></table>
        \(end)
        """
      try Data(readme.replacingCharacters(in: block, with: captured).utf8).write(to: readmeURL)
    } else {
      #expect(
        readme[block].contains(pre(unfold)), "the README's capture is not unfold's: record it with UNFOLD_RECORD=1")
    }
  }

  @Test func theWidthComesFromTheTerminalAndTheScreenShowsTheEngineLines() throws {
    let (rows, styled) = try runInTmux("--no-interactive", width: 40)
    let expected = Paragraph(TextSource(LocalizedKey(sample))).ansi(
      width: 40, state: .collapsed, renderer: ANSIRenderer(colors: .none))
    #expect(rows == expected.split(separator: "\n").map(String.init))
    #expect(rows.count == 3)
    #expect(rows.last?.hasSuffix("… more") == true)
    // Colour is on for a terminal: bold text and the bold label are drawn with SGR.
    #expect(styled.joined().contains("\u{1B}[1m"))
  }

  @Test func expandedInANarrowTerminalKeepsClustersWhole() throws {
    let (rows, _) = try runInTmux("--no-interactive --expanded --color never", width: 24)
    let expected = Paragraph(TextSource(LocalizedKey(sample))).ansi(
      width: 24, state: .expanded, renderer: ANSIRenderer(colors: .none))
    #expect(rows == expected.split(separator: "\n").map(String.init))
    #expect(rows.contains { $0.contains("👩‍🔬") })
  }

  /// A document in a real terminal: bullets, a task's box, a quote's bar and a box-drawn table take the cells the
  /// engine counts, and the cut ends the ninth line with the toggle.
  @Test func aDocumentShowsItsBlocksInTheCellsCounted() throws {
    let document = """
      ## Field notes

      - [x] Count the **terns** at the pier
      - [ ] Photograph the mill

      > The tide was higher than the tables said.

      | Site | Birds |
      |:-----|------:|
      | Pier | 41 |
      | Mill | 7 |
      """
    let (rows, _) = try runInTmux("--no-interactive --color never --document --lines 9", width: 30, text: document)
    let expected = Paragraph(document: document).lineLimit(9).plain(width: 30)
    #expect(rows == expected.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
    #expect(rows.count == 9)
    #expect(rows.contains("☑ Count the terns at the pier"))
    #expect(rows.last?.hasSuffix("… more") == true)
  }

  /// tmux, like most terminals, draws cells as given: a Hebrew paragraph shows in visual order, its lines aligned
  /// to the right, the toggle at the left end of the cut line.
  @Test func rightToLeftTextShowsInVisualOrder() throws {
    let hebrew = "שלום עולם, זהו טקסט **מודגש** שנמשך יותר משתי שורות כדי לראות איך הוא נחתך בסוף."
    let (rows, _) = try runInTmux("--no-interactive --color never --lines 2", width: 30, text: hebrew)
    let expected = Paragraph(TextSource(LocalizedKey(hebrew))).lineLimit(2).plain(width: 30, visualOrder: true)
    #expect(rows == expected.split(separator: "\n").map(String.init))
    #expect(rows.count == 2)
    #expect(rows.first?.hasSuffix("םולש") == true)
    #expect(rows.last?.drop { $0 == " " }.hasPrefix("more …") == true)
  }
}
