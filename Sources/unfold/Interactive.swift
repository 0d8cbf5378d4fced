import Synchronization
import Unfold

#if canImport(Glibc)
  import Glibc
#endif

/// Signals the view reacts to, set by the handlers and read by the loop.
private let resized = Atomic<Bool>(false)
private let terminating = Atomic<Int32>(0)

/// The interactive preview: shows the paragraph collapsed on the alternate screen and waits.
///
/// Enter or Space toggles; q, Esc, Ctrl-C and Ctrl-D quit; a resize lays the text out again for the new width. A text
/// taller than the window pages as `less` does: the arrows, j/k, Page Up/Down, Home and End scroll, and the hint line
/// says which lines show. On every way out (a key, Ctrl-C, SIGTERM, SIGHUP) the terminal is restored: its modes, the
/// cursor, the main screen, no colour left on. After q or Esc the paragraph is printed once more, in its last state, so
/// that it stays in the scrollback.
struct InteractiveView {
  let paragraph: Paragraph
  let fixedWidth: Int?
  var renderer: ANSIRenderer
  /// A scrolling viewport instead of the toggle: arrows, j/k, PgUp/PgDn and Home/End scroll.
  var scrolls = false
  /// Whether to ask the terminal for its background colour (OSC 11) first, for the fade to go towards it.
  var asksBackground = false

  private static let hideCursor = "\u{1B}[?25l"
  private static let showCursor = "\u{1B}[?25h"
  private static let alternateScreen = "\u{1B}[?1049h"
  private static let mainScreen = "\u{1B}[?1049l"

  /// Runs until the reader quits; returns the exit status (0, 130 after Ctrl-C, 128 + the signal).
  mutating func run() -> Int32 {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else { return 1 }
    var raw = original
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 1  // reads return after 0.1 s, so signals are noticed
    }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
    if asksBackground, let background = askBackground() { renderer.background = background }
    // A parent may have blocked these signals (its mask is inherited): unblock the ones the view handles.
    var handled = sigset_t()
    sigemptyset(&handled)
    for number in [SIGWINCH, SIGTERM, SIGHUP, SIGINT] { sigaddset(&handled, number) }
    sigprocmask(SIG_UNBLOCK, &handled, nil)
    signal(SIGWINCH) { _ in resized.store(true, ordering: .relaxed) }
    for number in [SIGTERM, SIGHUP, SIGINT] {
      signal(number) { received in terminating.store(received, ordering: .relaxed) }
    }
    write(Self.alternateScreen + Self.hideCursor)
    var state = DisplayState.collapsed
    var firstLine = 0
    func redraw() {
      if scrolls { firstLine = drawViewport(firstLine) } else { firstLine = draw(state, from: firstLine) }
    }
    redraw()
    var status: Int32 = 0
    var printAtEnd = false
    loop: while true {
      let signalNumber = terminating.load(ordering: .relaxed)
      if signalNumber != 0 {
        status = 128 + signalNumber
        break
      }
      if resized.exchange(false, ordering: .relaxed) { redraw() }
      var byte: UInt8 = 0
      guard read(STDIN_FILENO, &byte, 1) == 1 else { continue }
      // A page: the viewport's lines, or the window's rows but the hint line, less one line kept in view.
      let page = max(1, (scrolls ? paragraph.options.effectiveLineLimit : textRows()) - 1)
      switch byte {
      case UInt8(ascii: "j"):
        firstLine += 1
        redraw()
      case UInt8(ascii: "k"):
        firstLine -= 1
        redraw()
      case 0x0D, 0x0A, 0x20:
        if scrolls {
          firstLine += page
        } else {
          state = state == .collapsed ? .expanded : .collapsed
          firstLine = 0
        }
        redraw()
      case UInt8(ascii: "q"), UInt8(ascii: "Q"):
        printAtEnd = true
        break loop
      case 0x1B:
        // Esc alone quits; an escape sequence is a key: arrows, Page Up and Down, Home and End scroll.
        var next: UInt8 = 0
        if read(STDIN_FILENO, &next, 1) == 1 {
          var sequence: [UInt8] = []
          while read(STDIN_FILENO, &next, 1) == 1 {
            sequence.append(next)
            if (0x40...0x7E).contains(next) { break }
          }
          switch String(decoding: sequence, as: UTF8.self) {
          case "A": firstLine -= 1
          case "B": firstLine += 1
          case "5~": firstLine -= page
          case "6~": firstLine += page
          case "H", "1~", "7~": firstLine = 0
          case "F", "4~", "8~": firstLine = Int.max / 2
          default: continue
          }
          redraw()
          continue
        }
        printAtEnd = true
        break loop
      case 0x03:
        status = 130
        break loop
      case 0x04:
        break loop
      default:
        continue
      }
    }
    write("\u{1B}[0m" + Self.mainScreen + Self.showCursor)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    for number in [SIGWINCH, SIGTERM, SIGHUP, SIGINT] { signal(number, SIG_DFL) }
    if printAtEnd {
      if scrolls {
        let viewport = paragraph.viewport(width: width(), firstLine: firstLine)
        write(
          renderer.render(
            TruncatedText(
              lines: viewport.lines, isTruncated: false, lineCount: viewport.lineCount, state: .expanded,
              width: width(), unit: .cells)))
      } else {
        write(paragraph.ansi(width: width(), state: state, renderer: renderer))
      }
    }
    return status
  }

  /// The terminal's answer to `OSC 11 ; ?`, read for at most 0.2 s (a terminal that does not answer costs
  /// that wait, once); nil when none came or it could not be read.
  private func askBackground() -> ANSIRenderer.Background? {
    write("\u{1B}]11;?\u{1B}\\")
    var reply: [UInt8] = []
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(200))
    while reply.count < 64 {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { break }
      var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
      let milliseconds = left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
      guard poll(&ready, 1, Int32(milliseconds)) > 0 else { break }
      var byte: UInt8 = 0
      guard read(STDIN_FILENO, &byte, 1) == 1 else { continue }
      reply.append(byte)
      if byte == 0x07 || byte == UInt8(ascii: "\\") && reply.dropLast().last == 0x1B { break }
    }
    return ANSIRenderer.Background(terminalReply: String(decoding: reply, as: UTF8.self))
  }

  private func width() -> Int {
    fixedWidth ?? Terminal.outputWidth() ?? 80
  }

  /// Draws the viewport from `firstLine` (clamped) and a status line; returns the clamped first line.
  private func drawViewport(_ firstLine: Int) -> Int {
    let viewport = paragraph.viewport(width: width(), firstLine: firstLine)
    let text = TruncatedText(
      lines: viewport.lines, isTruncated: false, lineCount: viewport.lineCount, state: .expanded, width: width(),
      unit: .cells)
    let last = min(viewport.lineCount, viewport.firstLine + viewport.lines.count)
    let status = Self.hint(
      scrolls: true, toggle: nil, width: width(),
      position: "lines \(viewport.lineCount == 0 ? 0 : viewport.firstLine + 1)–\(last) of \(viewport.lineCount)")
    write("\u{1B}[H\u{1B}[2J" + renderer.render(text) + "\n" + dimmed(status) + "\n")
    return viewport.firstLine
  }

  /// The rows the text may take: the window's, but the blank line and the hint line after it.
  private func textRows() -> Int {
    max(1, (Terminal.outputHeight() ?? 24) - 2)
  }

  /// Draws `state` from line `firstLine` (clamped so that the window stays full) and a hint line; returns the
  /// clamped first line.
  ///
  /// A text that fits the window shows whole.
  private func draw(_ state: DisplayState, from firstLine: Int) -> Int {
    let truncated = paragraph.truncated(width: width(), state: state)
    let rows = textRows()
    let first = max(0, min(firstLine, truncated.lines.count - rows))
    var shown = truncated
    shown.lines = Array(truncated.lines.dropFirst(first).prefix(rows))
    var parts: [String] = []
    if truncated.lines.count > rows {
      parts.append("lines \(first + 1)–\(first + shown.lines.count) of \(truncated.lines.count)")
    }
    let hint = Self.hint(
      scrolls: truncated.lines.count > rows,
      toggle: truncated.isTruncated ? (state == .collapsed ? "expand" : "collapse") : nil, width: width(),
      position: parts.first)
    // No newline after the hint: on the window's last row, it would scroll the first line away.
    let screen = "\u{1B}[H\u{1B}[2J" + renderer.render(shown) + "\n" + dimmed(hint)
    write(screen)  // output post-processing stays on: each newline also returns the carriage
    return first
  }

  /// The hint line, the longest of its forms that fits `width` columns, so that it never wraps: where the view
  /// is (`position`), the keys that scroll, the key that toggles (to `toggle`) and the one that quits.
  static func hint(scrolls: Bool, toggle: String?, width: Int, position: String?) -> String {
    let position = position.map { $0 + ": " } ?? ""
    var forms: [String] = []
    let toggleLong = toggle.map { "Enter or Space to \($0), " } ?? ""
    let toggleShort = toggle.map { "Enter: \($0), " } ?? ""
    if scrolls {
      forms += [
        position + "arrows, PgUp/PgDn, Home/End scroll, " + toggleLong + "q to quit",
        position + "arrows, PgUp/PgDn scroll, " + toggleShort + "q: quit",
        position + "arrows scroll, " + toggleShort + "q: quit",
        position + (toggle == nil ? "" : "Enter, ") + "q",
        position.dropLast(2) + "",
      ]
    } else {
      forms += [toggleLong + "q to quit", toggleShort + "q: quit", (toggle == nil ? "" : "Enter, ") + "q: quit"]
    }
    forms += ["q: quit", "q"]
    return forms.first { $0.count <= width } ?? ""
  }

  /// Text in the renderer's dim style, or as it is without colours.
  private func dimmed(_ text: String) -> String {
    renderer.colors > .none ? "\u{1B}[2m\(text)\u{1B}[0m" : text
  }

  private func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if count <= 0 { break }
      offset += count
    }
  }
}
