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
    let command =
      "env -u NO_COLOR -u COLUMNS TERM=screen '\(Command.executable.path)' \(arguments) '\(file.path)'; echo '<end>'; sleep 30"
    let tmux = try Tmux(width: width, height: 12, command: command)
    let rows = try tmux.waitForScreen { $0.contains("<end>") }
    let styled = try tmux.screen(escapes: true)
    return (Array(rows.prefix { $0 != "<end>" }), styled)
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
