import Unfold

/// A flag of `unfold`: its names, its value, its help, and what it sets.
///
/// Every flag is declared once, in ``Arguments/flags``, from which parsing, the switches, suggestions for a misspelt
/// flag and `--help` derive.
struct Flag: Sendable {
  /// `--name`.
  let long: String
  /// The letter of `-x`, if it has one.
  let short: Character?
  /// The value's name in the help (`N`, `PATH`); `nil` for a switch, which takes none.
  let value: String?
  /// The help's lines; `nil` for a flag the help leaves out.
  let help: String?
  /// A command that uses it, for the help.
  let example: String?
  /// Sets what the flag says: its value (empty for a switch) and its long name, for messages.
  let apply: @Sendable (inout Arguments, String, String) throws -> Void

  init(
    _ long: String, short: Character? = nil, value: String? = nil, help: String?, example: String? = nil,
    apply: @escaping @Sendable (inout Arguments, String, String) throws -> Void
  ) {
    (self.long, self.short, self.value, self.help, self.example, self.apply) = (
      long, short, value, help, example, apply
    )
  }

  /// Whether the flag takes no value.
  var isSwitch: Bool { value == nil }
}

extension Arguments {
  /// Every flag, in the order of the help.
  static let flags: [Flag] = [
    Flag(
      "--width", short: "w", value: "N | Npx | A-Bpx",
      help: """
        line width: cells for the terminal (default: the terminal's width, else
        $COLUMNS, else 80); CSS px for html (a width in cells is an error there),
        or for json measured in the fonts (default 320px); a range of whole px:
        html that fills its container within the range, showing the collapsed
        view of each width; json lists the distinct views and the widths of each
        """,
      example: "unfold --width 40 notes.md; unfold --format html --width 280-1280px notes.md",
      apply: { arguments, value, flag in
        if let range = try pixelRange(value, flag: flag) {
          arguments.widthRange = range
          arguments.widthPixels = Double(range.lowerBound)
        } else if value.hasSuffix("px") {
          arguments.widthPixels = try pixels(String(value.dropLast(2)), flag: flag)
        } else {
          arguments.width = try number(value, flag: flag, minimum: 1)
        }
      }),
    Flag(
      "--lines", short: "n", value: "N",
      help: """
        line limit when collapsed (default 3)
        """,
      example: "unfold --lines 2 notes.md",
      apply: { arguments, value, flag in
        arguments.lines = try number(value, flag: flag, minimum: 1)
        arguments.linesGiven = true
      }),
    Flag(
      "--verbatim",
      help: """
        show the text as given: no markdown, outer whitespace trimmed
        """,
      example: "unfold --verbatim comment.txt",
      apply: { arguments, _, _ in arguments.verbatim = true }),
    Flag(
      "--document",
      help: """
        read the text as a markdown document: headings, lists, task lists, quotes,
        code, tables and rules, cut to N lines as one text
        """,
      example: "unfold --document --lines 8 README.md",
      apply: { arguments, _, _ in arguments.document = true }),
    Flag(
      "--no-autolinks",
      help: """
        markdown: bare URLs (https://…, www.…) and e-mail addresses stay text,
        as in SwiftUI's Text (default: links, as on GitHub)
        """,
      example: "unfold --no-autolinks notes.md",
      apply: { arguments, _, _ in arguments.autolinks = false }),
    Flag(
      "--format", value: "F",
      help: """
        ansi (default), plain, html, json (the layout), breaks (the text with
        ÷ where a line may break and × where not), runs (the styled runs)
        """,
      example: "unfold --format json notes.md",
      apply: { arguments, value, flag in
        arguments.format = try choice(value, flag: flag)
        arguments.formatGiven = true
      }),
    Flag(
      "--expanded", short: "e",
      help: """
        show the expanded state instead of the collapsed one
        """,
      example: "unfold --expanded notes.md",
      apply: { arguments, _, _ in arguments.expanded = true }),
    Flag(
      "--more-label", value: "TEXT",
      help: """
        the label that expands (default "more")
        """,
      example: "unfold --more-label \"Read more\" notes.md",
      apply: { arguments, value, _ in
        arguments.moreLabel = value
        arguments.moreLabelGiven = true
      }),
    Flag(
      "--less-label", value: "TEXT",
      help: """
        the label that collapses again (default: none)
        """,
      example: "unfold --expanded --less-label \"Show less\" notes.md",
      apply: { arguments, value, _ in arguments.lessLabel = value }),
    Flag(
      "--color", value: "WHEN",
      help: """
        colours and styles in ansi output: auto (from NO_COLOR, FORCE_COLOR, the
        output being a terminal, TERM and COLORTERM), always, never, or a level:
        16, 256, truecolor
        """,
      example: "unfold --color 256 notes.md",
      apply: { arguments, value, flag in arguments.color = try choice(value, flag: flag) }),
    Flag(
      "--more-style", value: "STYLE",
      help: """
        the style of the more and less labels, as a rich style string: bold dim
        italic underline strike reverse, a colour (red, bright_blue, #ffaf00,
        rgb(255,175,0), color(208)) and "on" a background colour (default bold blue)
        """,
      example: "unfold --more-style \"bold underline #ffaf00\" notes.md",
      apply: { arguments, value, flag in
        do throws(StyleError) {
          arguments.moreStyle = try TerminalStyle(value)
        } catch {
          throw UsageError(message: "\(flag): \(error.message)")
        }
      }),
    Flag(
      "--interactive", short: "i",
      help: """
        a view on the terminal where Enter or Space toggles and a resize lays the
        text out again; q, Esc or Ctrl-C quits (needs a FILE, and a terminal on
        standard input and output; without it unfold prints and exits)
        """,
      example: "unfold -i notes.md",
      apply: { arguments, _, _ in arguments.interactive = true }),
    Flag(
      "--no-interactive", help: nil,
      apply: { arguments, _, _ in arguments.interactive = false }),
    Flag(
      "--breaks", value: "RULES",
      help: """
        line breaking rules: unicode (plain UAX #14), chromium, gecko, webkit,
        webkit-ja (an engine's tailoring), any (a break where all three allow one)
        (default: unicode, and the --engine's for html)
        """,
      example: "unfold --format breaks --breaks chromium notes.md",
      apply: { arguments, value, flag in arguments.breaks = try choice(value, flag: flag) }),
    Flag(
      "--theme", value: "dark|light",
      help: """
        the terminal's background, which the fade of the cut line goes towards
        (default: with -i, the colour the terminal reports; else light when
        $COLORFGBG says so, else dark)
        """,
      example: "unfold --theme light notes.md",
      apply: { arguments, value, flag in arguments.theme = try choice(value, flag: flag) }),
    Flag(
      "--bidi", value: "visual|logical",
      help: """
        right-to-left text in ansi output: reordered for the terminal and aligned to
        the right (default), or as stored, for a terminal that reorders itself
        """,
      example: "unfold --bidi logical notes.md",
      apply: { arguments, value, flag in arguments.bidi = try choice(value, flag: flag) }),
    Flag(
      "--widths", value: "legacy|modern",
      help: """
        cell widths: per code point as glibc and tmux count (default), or emoji
        sequences as one 2-cell emoji as newer terminals draw them
        """,
      example: "unfold --widths modern notes.md",
      apply: { arguments, value, flag in arguments.widths = try choice(value, flag: flag) }),
    Flag(
      "--locale", value: "ID",
      help: """
        the reader's locale: chooses the language, plural forms and number format
        (default en)
        """,
      example: "unfold --locale es-MX --strings Resources greeting.txt",
      apply: { arguments, value, flag in arguments.locale = try nonEmpty(value, flag: flag) }),
    Flag(
      "--strings", value: "PATH",
      help: """
        string tables: a .strings, .stringsdict or .xcstrings file, or a folder
        of <language>.lproj folders and catalogs (repeatable)
        """,
      example: "unfold --strings Localizable.xcstrings --locale de key.txt",
      apply: { arguments, value, flag in arguments.strings.append(try nonEmpty(value, flag: flag)) }),
    Flag(
      "--table", value: "NAME",
      help: """
        the table to look the key up in (default: a single table file's own
        name, else Localizable); a table that no file holds is an error, a key
        missing from it a warning (the key is shown)
        """,
      example: "unfold --strings Resources --table Errors key.txt",
      apply: { arguments, value, flag in arguments.table = try nonEmpty(value, flag: flag) }),
    Flag(
      "--arg", value: "VALUE",
      help: """
        an argument for the key's specifiers, read as the type of the specifier
        it fills (repeatable, in order); a value that does not fit its specifier,
        or too few or too many values, is an error. Without --arg the key is not
        formatted: its specifiers show as written
        """,
      example: "unfold --strings Resources --arg 3 --arg Ann key.txt",
      apply: { arguments, value, _ in arguments.args.append(value) }),
    Flag(
      "--device", value: "NAME",
      help: """
        the device for a catalog's device variations (iphone, ipad, mac...;
        default other)
        """,
      example: "unfold --strings Localizable.xcstrings --device ipad key.txt",
      apply: { arguments, value, flag in arguments.device = try nonEmpty(value, flag: flag) }),
    Flag(
      "--font", value: "PATH",
      help: """
        a font file for html (repeatable): regular, bold, italic, bold italic
        and monospace faces, recognised from their tables (default: DejaVu Sans
        and DejaVu Sans Mono from fonts-dejavu-core)
        """,
      example: "unfold --format html --font Inter-Regular.ttf --font Inter-Bold.ttf",
      apply: { arguments, value, flag in arguments.fonts.append(try nonEmpty(value, flag: flag)) }),
    Flag(
      "--font-dir", value: "DIR",
      help: """
        a folder of .ttf, .otf and .ttc files: one family (a Sans one first)
        and a monospace face; the other files are left out with a note
        """,
      example: "unfold --format html --font-dir fonts/ notes.md",
      apply: { arguments, value, flag in arguments.fontDirectory = try nonEmpty(value, flag: flag) }),
    Flag(
      "--fallback", value: "FILE[,FILE]",
      help: """
        a fallback family's font files, for the characters the fonts lack
        (repeatable, in order; .ttc collections give their first face; default:
        the Noto fonts of fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji
        that are installed)
        """,
      example: "unfold --format html --fallback NotoSansThai-Regular.ttf,NotoSansThai-Bold.ttf",
      apply: { arguments, value, flag in
        arguments.fallbacks =
          (arguments.fallbacks ?? []) + [try nonEmpty(value, flag: flag).split(separator: ",").map(String.init)]
      }),
    Flag(
      "--no-fallback",
      help: """
        html: no fallback fonts, only the fonts given
        """,
      example: "unfold --format html --no-fallback notes.md",
      apply: { arguments, _, _ in arguments.fallbacks = [] }),
    Flag(
      "--engine", value: "E",
      help: """
        html and json in px: the browser engine whose lines to predict: blink
        (Chrome, Edge), gecko (Firefox), webkit (Safari, every iOS browser), or
        any, lines that every engine shows as predicted (default any)
        """,
      example: "unfold --format html --engine gecko notes.md",
      apply: { arguments, value, flag in arguments.engine = try choice(value, flag: flag) }),
    Flag(
      "--kerning",
      help: """
        html: kerning and ligatures on, as the browser's defaults (default: off,
        pinned by the page)
        """,
      example: "unfold --format html --kerning notes.md",
      apply: { arguments, _, _ in arguments.kerning = true }),
    Flag(
      "--font-size", value: "PX",
      help: """
        the font size for html (default 16)
        """,
      example: "unfold --format html --font-size 15 notes.md",
      apply: { arguments, value, flag in
        arguments.fontSize = try pixels(value, flag: flag)
        arguments.fontSizeGiven = true
      }),
    Flag(
      "--max-height", value: "PX",
      help: """
        with --document and html: the height the collapsed view may take as well as
        --lines (headings are taller)
        """,
      example: "unfold --document --format html --width 640px --max-height 400 issue.md",
      apply: { arguments, value, flag in arguments.maxHeight = try pixels(value, flag: flag) }),
    Flag(
      "--line-height", value: "PX",
      help: """
        the line height for html (default 1.25 × the font size, rounded)
        """,
      example: "unfold --format html --line-height 24 notes.md",
      apply: { arguments, value, flag in arguments.lineHeight = try pixels(value, flag: flag) }),
    Flag(
      "--standalone",
      help: """
        html: a whole page with the fonts embedded, that renders the same anywhere
        """,
      example: "unfold --format html --standalone notes.md > preview.html",
      apply: { arguments, _, _ in arguments.standalone = true }),
    Flag(
      "--font-url", value: "PREFIX",
      help: """
        html: where the page finds the font files (default: their file names)
        """,
      example: "unfold --format html --font-url /static/fonts/ notes.md",
      apply: { arguments, value, _ in arguments.fontURL = value }),
    Flag(
      "--stylesheet", value: "FILE",
      help: """
        html: write the rules and font faces that every fragment shares into
        FILE, once for a page, and leave them out of the fragment
        """,
      example: "unfold --format html --stylesheet public/unfold.css notes.md",
      apply: { arguments, value, flag in arguments.stylesheet = try nonEmpty(value, flag: flag) }),
    Flag(
      "--export-fonts", value: "DIR",
      help: """
        html: copy the font files that the output names into DIR, for a
        static file server (each page's runs add what theirs need)
        """,
      example: "unfold --format html --font-url /fonts/ --export-fonts public/fonts notes.md",
      apply: { arguments, value, flag in arguments.exportFonts = try nonEmpty(value, flag: flag) }),
    Flag(
      "--id", value: "NAME",
      help: """
        html: the container's id, for the same fragment twice on one page
        (default: a hash of the text, the width, the state and the options)
        """,
      example: "unfold --format html --id comment-42 notes.md",
      apply: { arguments, value, flag in arguments.id = try nonEmpty(value, flag: flag) }),
    Flag(
      "--check-strings",
      help: """
        load the --strings tables, resolve every key in every language, and
        report problems (exit 1 when there are any)
        """,
      example: "unfold --check-strings --strings Resources",
      apply: { arguments, _, _ in arguments.checkStrings = true }),
    Flag(
      "--truncation", value: "MODE",
      help: """
        where the text is cut: tail (default), head (the end shows), middle (the
        last line keeps its start and the text's end)
        """,
      example: "unfold --truncation middle --lines 1 path.txt",
      apply: { arguments, value, flag in arguments.truncation = try choice(value, flag: flag) }),
    Flag(
      "--toggle", value: "PLACE",
      help: """
        where the toggle goes: inline (after the ellipsis, default), below (a line
        of its own), overlay (over the end of the last line), none
        """,
      example: "unfold --toggle below notes.md",
      apply: { arguments, value, flag in arguments.toggle = try choice(value, flag: flag) }),
    Flag(
      "--preset", value: "NAME",
      help: """
        expandable-text (more, no less label, overlay) or read-more-text (Read more,
        Show less, below, 3 lines); other flags still apply over it
        """,
      example: "unfold --preset read-more-text notes.md",
      apply: { arguments, value, flag in arguments.preset = try choice(value, flag: flag) }),
    Flag(
      "--ellipsis", value: "TEXT",
      help: """
        the mark at the cut (default …)
        """,
      example: "unfold --ellipsis \"...\" notes.md",
      apply: { arguments, value, _ in arguments.ellipsis = value }),
    Flag(
      "--collapse-blank-lines",
      help: """
        while collapsed, show a run of blank lines as one
        """,
      example: "unfold --collapse-blank-lines notes.md",
      apply: { arguments, _, _ in arguments.collapseBlankLines = true }),
    Flag(
      "--reserve-space",
      help: """
        always show the line limit of lines, padding a shorter text
        """,
      example: "unfold --reserve-space --lines 4 notes.md",
      apply: { arguments, _, _ in arguments.reserveSpace = true }),
    Flag(
      "--scroll",
      help: """
        a viewport of --lines lines that scrolls instead of truncating (arrows, j/k,
        PgUp/PgDn, Home/End in the interactive preview; html: a scrolling region)
        """,
      example: "unfold --scroll --lines 5 notes.md",
      apply: { arguments, _, _ in arguments.scroll = true }),
    Flag(
      "--text-style", value: "NAME",
      help: """
        html: the size and line height of an Apple text style at the default
        Dynamic Type size: largeTitle, title, title2, title3, headline, body,
        callout, subheadline, footnote, caption, caption2
        """,
      example: "unfold --format html --text-style footnote notes.md",
      apply: { arguments, value, flag in arguments.textStyle = try choice(value, flag: flag) }),
    Flag(
      "--help", short: "h",
      help: """
        show this help
        """,
      apply: { arguments, _, _ in arguments.help = true }),
    Flag(
      "--version",
      help: """
        show the version
        """,
      apply: { arguments, _, _ in arguments.version = true }),
  ]

  /// The flags by long name.
  static let flagsByName: [String: Flag] = Dictionary(uniqueKeysWithValues: flags.map { ($0.long, $0) })

  /// The long flags that the short ones stand for.
  static let shortFlags: [Character: String] = Dictionary(
    uniqueKeysWithValues: flags.compactMap { flag in flag.short.map { ($0, flag.long) } })

  /// The help, from the flags' own.
  static var usage: String {
    var text = """
      Usage: unfold [options] [FILE]

      Prints a paragraph as a reader sees it in N lines, with "… more", or after expanding; -i opens
      a view where Enter toggles. Reads FILE, or standard input when FILE is missing or '-'. The text
      is a localized key: looked up in the --strings tables (the key itself when missing), then shown
      as inline markdown (bold, italic, strikethrough, code, links, bare URLs); --verbatim shows it as
      given instead.

      Options:

      """
    for flag in flags {
      guard let help = flag.help else { continue }
      let label = (flag.short.map { "-\($0), " } ?? "") + flag.long + (flag.value.map { " \($0)" } ?? "")
      for (index, line) in help.split(separator: "\n").enumerated() {
        let start = index == 0 ? "  " + label : ""
        text += start.padding(toLength: 28, withPad: " ", startingAt: 0) + line + "\n"
      }
      if let example = flag.example { text += String(repeating: " ", count: 30) + "e.g. " + example + "\n" }
    }
    text += "\nExit status: 0 success, 1 a runtime error (unreadable file, invalid UTF-8), 2 a usage error."
    return text
  }

  /// The flag nearest to a misspelt one (at most a third of its letters off), by edit distance.
  static func nearest(to name: String) -> String? {
    let candidates = flags.map { ($0.long, editDistance(name, $0.long)) }.filter { $0.1 <= max(2, name.count / 3) }
    return candidates.min { $0.1 < $1.1 }?.0
  }

  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
      var previous = row[0]
      row[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return a.isEmpty ? b.count : row[b.count]
  }
}

/// A number of px above 0 and at most 100000, with or without `px`.
private func pixels(_ text: String, flag: String) throws(UsageError) -> Double {
  let number = text.hasSuffix("px") ? String(text.dropLast(2)) : text
  guard let value = Double(number), value.isFinite else {
    throw UsageError(message: "\(flag) needs a number of px, not '\(text)'")
  }
  guard value > 0, value <= 100_000 else {
    throw UsageError(message: "\(flag) must be above 0 and at most 100000 px, not \(text)")
  }
  return value
}

/// A range of whole px, `A-Bpx` (or `Apx-Bpx`), from at least 1 to at most 100000, the narrower first; `nil` for
/// a value that is not a range (no `-` after its first character).
private func pixelRange(_ text: String, flag: String) throws(UsageError) -> ClosedRange<Int>? {
  guard let dash = text.dropFirst().firstIndex(of: "-") else { return nil }
  let (lower, upper) = (String(text[..<dash]), String(text[text.index(after: dash)...]))
  guard upper.hasSuffix("px") else {
    throw UsageError(message: "\(flag) range \(text) needs px, as in 280-1280px")
  }
  guard let from = Int(lower.hasSuffix("px") ? String(lower.dropLast(2)) : lower), let to = Int(upper.dropLast(2))
  else {
    throw UsageError(message: "\(flag) range \(text) needs whole numbers of px, as in 280-1280px")
  }
  guard from >= 1, to <= 100_000 else {
    throw UsageError(message: "\(flag) range \(text) must lie between 1 and 100000 px")
  }
  guard from <= to else {
    throw UsageError(message: "\(flag) range \(text) runs backwards: give the narrower width first")
  }
  return from...to
}

private func nonEmpty(_ text: String, flag: String) throws(UsageError) -> String {
  guard !text.isEmpty else { throw UsageError(message: "\(flag) needs a non-empty value") }
  return text
}

private func number(_ text: String, flag: String, minimum: Int) throws(UsageError) -> Int {
  guard let number = Int(text) else { throw UsageError(message: "\(flag) needs a whole number, not '\(text)'") }
  guard number >= minimum else { throw UsageError(message: "\(flag) must be at least \(minimum), not \(number)") }
  return number
}

/// One of the names of `T`'s cases.
private func choice<T: RawRepresentable & CaseIterable>(_ text: String, flag: String) throws(UsageError) -> T
where T.RawValue == String {
  guard let value = T(rawValue: text) else {
    let names = T.allCases.map(\.rawValue).joined(separator: "|")
    throw UsageError(message: "\(flag) must be one of \(names), not '\(text)'")
  }
  return value
}
