import Foundation
import TestSupport
import Testing
import Unfold

/// The interactive preview, driven in tmux: keys toggle, a resize lays the text out again, and every way out
/// restores the terminal.
@Suite(.serialized) struct InteractiveTests {
  static let sample = """
    Unfold shows **a short piece of text** the way a reader sees it in a few lines, with a toggle that \
    expands it in place, and collapses it again, in every script: 中文, עברית, emoji 👩‍🔬.
    """

  /// Starts `unfold -i FILE` in tmux (stdin and stdout a terminal), then runs `after` in the same shell.
  func start(
    _ file: String, width: Int, _ flags: String = "-i", after: String = "", windowStyle: String? = nil
  ) throws -> Tmux {
    let command =
      "env -u NO_COLOR -u COLUMNS TERM=screen '\(Command.executable.path)' \(flags) '\(file)'; "
      + "echo \"EXIT=$?\"; stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; "
      + "echo '<restored>'; \(after) sleep 60"
    return try Tmux(width: width, height: 14, command: command, windowStyle: windowStyle)
  }

  /// A sample file of its own, removed when the test ends.
  func sampleFile() throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-interactive-\(UUID()).md")
    try Data(Self.sample.utf8).write(to: file)
    return file.path
  }

  func expectedLines(width: Int, state: DisplayState) -> [String] {
    Paragraph(TextSource(LocalizedKey(Self.sample))).ansi(
      width: width, state: state, renderer: ANSIRenderer(colors: .none)
    )
    .split(separator: "\n").map(String.init)
  }

  @Test func keysToggleAResizeRelaysOutAndQuitRestores() throws {
    let file = try sampleFile()
    defer { try? FileManager.default.removeItem(atPath: file) }
    let tmux = try start(file, width: 40)
    var screen = try tmux.waitForScreen { $0.contains { $0.hasPrefix("Enter or Space to expand") } }
    #expect(Array(screen.prefix(3)) == expectedLines(width: 40, state: .collapsed))
    screen = try tmux.press("Enter", untilALineStartsWith: "Enter or Space to collapse")
    let expanded = expectedLines(width: 40, state: .expanded)
    #expect(Array(screen.prefix(expanded.count)) == expanded)
    screen = try tmux.press("Space", untilALineStartsWith: "Enter or Space to expand")
    #expect(Array(screen.prefix(3)) == expectedLines(width: 40, state: .collapsed))
    try tmux.resize(width: 28, height: 14)
    let narrow = expectedLines(width: 28, state: .collapsed)
    screen = try tmux.waitForScreen { Array($0.prefix(3)) == narrow }
    #expect(Array(screen.prefix(3)) == narrow)
    try tmux.sendKeys("q")
    screen = try tmux.waitForScreen { $0.contains { $0.hasSuffix("<restored>") } }
    #expect(screen.contains("EXIT=0"))
    #expect(screen.contains { $0.contains("icanon echo") })
    // After q the paragraph stays on the main screen, in its last state.
    #expect(screen.contains(narrow[0]))
    #expect(try tmux.cursorVisible())
  }

  /// A document toggles as a paragraph does: Enter shows every block, Space cuts it again to its line limit.
  @Test func aDocumentToggles() throws {
    let document = "## Notes\n\n- one\n- two\n- three\n\n> a quote to end with\n"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-interactive-\(UUID()).md")
    try Data(document.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let paragraph = Paragraph(document: document).lineLimit(4)
    let lines = { (state: DisplayState) in
      paragraph.plain(width: 40, state: state).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        .map(String.init)
    }
    let tmux = try start(file.path, width: 40, "-i --document --lines 4")
    var screen = try tmux.waitForScreen { $0.contains { $0.hasPrefix("Enter or Space to expand") } }
    #expect(Array(screen.prefix(4)) == lines(.collapsed))
    screen = try tmux.press("Enter", untilALineStartsWith: "Enter or Space to collapse")
    let expanded = lines(.expanded)
    #expect(Array(screen.prefix(expanded.count)) == expanded)
    #expect(expanded.contains("│ a quote to end with"))
    screen = try tmux.press("Space", untilALineStartsWith: "Enter or Space to expand")
    #expect(Array(screen.prefix(4)) == lines(.collapsed))
    try tmux.sendKeys("q")
    screen = try tmux.waitForScreen { $0.contains { $0.hasSuffix("<restored>") } }
    #expect(screen.contains("EXIT=0"))
  }

  /// With 256 colours or more and no `--theme`, `-i` asks the terminal for its background (OSC 11) and fades
  /// the cut line towards it (issue 37, item 10): a cream background that tmux reports gives a fade that grows
  /// light and warm; no answer (tmux's default style) leaves the dark default's grey that grows dark.
  @Test func theFadeGoesTowardsTheBackgroundTheTerminalReports() throws {
    let file = try sampleFile()
    defer { try? FileManager.default.removeItem(atPath: file) }
    for style in ["bg=#fdf6e3", nil] {
      let tmux = try start(file, width: 40, "-i --color truecolor", windowStyle: style)
      _ = try tmux.waitForScreen { $0.contains { $0.hasPrefix("Enter or Space to expand") } }
      let row = try tmux.screen(escapes: true)[2]
      let fade = row.matches(of: /38;2;(\d+);(\d+);(\d+)/).map { ($0.1, $0.2, $0.3) }.map {
        (Int($0.0)!, Int($0.1)!, Int($0.2)!)
      }
      try #require(fade.count >= 3, "\(row.debugDescription)")
      if style != nil {
        #expect(fade.last!.0 > fade.first!.0 + 60, "\(fade)")  // towards the light background
        #expect(fade.last!.2 < fade.last!.0, "\(fade)")  // and its warmth: less blue than red
      } else {
        #expect(fade.last!.0 < fade.first!.0 - 60, "\(fade)")
        #expect(fade.allSatisfy { $0.0 == $0.1 && $0.1 == $0.2 }, "\(fade)")
      }
      try tmux.sendKeys("q")
    }
  }

  @Test func ctrlCAndEscQuitAndRestore() throws {
    for (key, status) in [("C-c", "EXIT=130"), ("Escape", "EXIT=0")] {
      let file = try sampleFile()
      defer { try? FileManager.default.removeItem(atPath: file) }
      let tmux = try start(file, width: 40)
      _ = try tmux.waitForScreen { $0.contains { $0.hasPrefix("Enter or Space to expand") } }
      try tmux.sendKeys(key)
      let screen = try tmux.waitForScreen { $0.contains { $0.hasSuffix("<restored>") } }
      #expect(screen.contains(status), "\(key)")
      #expect(screen.contains { $0.contains("icanon echo") }, "\(key)")
      #expect(try tmux.cursorVisible(), "\(key)")
    }
  }

  @Test func sigtermRestoresTheTerminal() throws {
    let file = try sampleFile()
    defer { try? FileManager.default.removeItem(atPath: file) }
    let tmux = try start(file, width: 40)
    _ = try tmux.waitForScreen { $0.contains { $0.hasPrefix("Enter or Space to expand") } }
    let kill = Process()
    kill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
    kill.arguments = ["-TERM", "-f", "^\(Command.executable.path) .*\(file)"]
    try kill.run()
    kill.waitUntilExit()
    let screen = try tmux.waitForScreen { $0.contains { $0.hasSuffix("<restored>") } }
    #expect(screen.contains("EXIT=143"))
    #expect(screen.contains { $0.contains("icanon echo") })
    #expect(try tmux.cursorVisible())
  }

  @Test func onATerminalItPrintsAndExitsUnlessInteractive() throws {
    for flags in ["", "--no-interactive", "--format plain", "-w 40 -n 3"] {
      let file = try sampleFile()
      defer { try? FileManager.default.removeItem(atPath: file) }
      let tmux = try start(file, width: 40, flags)
      let screen = try tmux.waitForScreen { $0.contains { $0.hasSuffix("<restored>") } }
      #expect(Array(screen.prefix(3)) == expectedLines(width: 40, state: .collapsed), "\(flags)")
      #expect(screen.contains("EXIT=0"), "\(flags)")
    }
  }

  /// An expanded text taller than the window pages as `less` does: the window's rows but the hint line show, from
  /// the first line; the arrows, Page Up/Down, Home and End scroll; the hint line says which lines show.
  @Test func aTallExpandedTextPages() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-tall-\(UUID()).md")
    try Data(String(repeating: Self.sample + " ", count: 6).utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let all = Paragraph(TextSource(LocalizedKey(String(repeating: Self.sample + " ", count: 6))))
      .ansi(width: 40, state: .expanded, renderer: ANSIRenderer(colors: .none)).split(separator: "\n").map(String.init)
    #expect(all.count > 26)
    let tmux = try start(file.path, width: 40)
    _ = try tmux.waitForScreen { $0.contains { $0.hasPrefix("Enter or Space to expand") } }
    // 14 rows: 12 of text, a blank one, the hint.
    var screen = try tmux.press("Enter", untilALineStartsWith: "lines 1–12 of \(all.count)")
    #expect(Array(screen.prefix(12)) == Array(all.prefix(12)))
    screen = try tmux.press("PageDown", untilALineStartsWith: "lines 12–23 of")
    #expect(Array(screen.prefix(12)) == Array(all[11..<23]))
    screen = try tmux.press("Down", untilALineStartsWith: "lines 13–24 of")
    screen = try tmux.press("End", untilALineStartsWith: "lines \(all.count - 11)–\(all.count) of")
    #expect(Array(screen.prefix(12)) == Array(all.suffix(12)))
    screen = try tmux.press("Home", untilALineStartsWith: "lines 1–12 of")
    screen = try tmux.press("Enter", untilALineStartsWith: "Enter or Space to expand")
    try tmux.sendKeys("q")
    screen = try tmux.waitForScreen { $0.contains { $0.hasSuffix("<restored>") } }
    #expect(screen.contains("EXIT=0"))
  }

  /// The hint line keeps to one line at narrow widths, in its longest form that fits.
  @Test func theHintLineFitsANarrowWindow() throws {
    let file = try sampleFile()
    defer { try? FileManager.default.removeItem(atPath: file) }
    let tmux = try start(file, width: 30)
    let screen = try tmux.waitForScreen { $0.contains { $0.hasPrefix("Enter: expand, q: quit") } }
    #expect(!screen.contains("q") && !screen.contains(" quit"))
    try tmux.sendKeys("q")
    _ = try tmux.waitForScreen { $0.contains { $0.hasSuffix("<restored>") } }
  }

  @Test func scrollKeysMoveTheViewport() throws {
    let file = try sampleFile()
    defer { try? FileManager.default.removeItem(atPath: file) }
    let tmux = try start(file, width: 24, "-i --scroll --lines 2")
    let all = expectedLines(width: 24, state: .expanded)
    var screen = try tmux.waitForScreen { $0.contains { $0.hasPrefix("lines 1–2 of") } }
    #expect(Array(screen.prefix(2)) == Array(all.prefix(2)))
    screen = try tmux.press("j", untilALineStartsWith: "lines 2–3 of")
    #expect(Array(screen.prefix(2)) == Array(all[1...2]))
    screen = try tmux.press("Down", untilALineStartsWith: "lines 3–4 of")
    screen = try tmux.press("End", untilALineStartsWith: "lines \(all.count - 1)–\(all.count) of")
    #expect(Array(screen.prefix(2)) == Array(all.suffix(2)))
    screen = try tmux.press("k", untilALineStartsWith: "lines \(all.count - 2)–")
    screen = try tmux.press("Home", untilALineStartsWith: "lines 1–2 of")
    screen = try tmux.press("PageDown", untilALineStartsWith: "lines 2–3 of")
    screen = try tmux.press("Up", untilALineStartsWith: "lines 1–2 of")
    #expect(Array(screen.prefix(2)) == Array(all.prefix(2)))
    try tmux.sendKeys("q")
    screen = try tmux.waitForScreen { $0.contains { $0.hasSuffix("<restored>") } }
    #expect(screen.contains("EXIT=0"))
  }
}
