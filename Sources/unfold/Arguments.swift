import Unfold

/// A command-line problem: printed in one line, exit status 2.
struct UsageError: Error {
  var message: String
}

/// The output formats of `unfold`.
enum Format: String, CaseIterable {
  case ansi, plain, html, json, breaks, runs
}

/// How the terminal output orders right-to-left text: reordered for the terminal, or as stored.
enum BidiChoice: String, CaseIterable {
  case visual, logical
}

/// The terminal's theme, for the fade.
enum Theme: String, CaseIterable {
  case dark, light
}

/// When to colour the terminal output.
enum ColorChoice: String, CaseIterable {
  case auto, always, never
  case ansi16 = "16"
  case ansi256 = "256"
  case truecolor
}

/// The presets of `--preset`.
enum Preset: String, CaseIterable {
  case expandableText = "expandable-text"
  case readMoreText = "read-more-text"
}

/// The parsed command line.
struct Arguments {
  var file: String?
  var width: Int?
  var widthPixels: Double?
  var fonts: [String] = []
  var fontDirectory: String?
  /// Each fallback family's files, in order; `nil`: Debian's Noto fonts that are installed.
  var fallbacks: [[String]]?
  var fontSize = 16.0
  var fontSizeGiven = false
  var lineHeight: Double?
  var standalone = false
  var kerning = false
  var engine: BrowserEngine?
  var fontURL: String?
  var id: String?
  var moreStyle: TerminalStyle?
  var truncation: TruncationMode?
  var toggle: TogglePlacement?
  var preset: Preset?
  var ellipsis: String?
  var collapseBlankLines = false
  var reserveSpace = false
  var scroll = false
  var textStyle: TextStyle?
  var moreLabelGiven = false
  var linesGiven = false
  var interactive = false
  var lines = TruncationOptions.default.lineLimit
  var verbatim = false
  var autolinks = true
  var format = Format.ansi
  var formatGiven = false
  var expanded = false
  var moreLabel = TruncationOptions.default.moreLabel
  var lessLabel: String?
  var color = ColorChoice.auto
  var bidi = BidiChoice.visual
  var theme: Theme?
  var breaks: LineBreaker.Rules?
  var widths = TerminalCells.Profile.legacy
  var locale = "en"
  var strings: [String] = []
  var table: String?
  var args: [String] = []
  var device = "other"
  var checkStrings = false
  var help = false
  var version = false

  /// The short flags and the long flags they stand for.
  static let shortFlags: [Character: String] = [
    "w": "--width", "n": "--lines", "e": "--expanded", "i": "--interactive", "h": "--help",
  ]

  /// The flags that take no value.
  static let switches: Set<String> = [
    "--verbatim", "--expanded", "--help", "--version", "--check-strings", "--standalone", "--interactive",
    "--no-interactive", "--kerning", "--no-fallback", "--collapse-blank-lines", "--reserve-space", "--scroll",
    "--no-autolinks",
  ]

  static let flags = [
    "--interactive", "--width", "--lines", "--verbatim", "--format", "--expanded", "--more-label", "--less-label",
    "--color", "--breaks", "--widths", "--locale", "--strings", "--table", "--arg", "--device", "--check-strings",
    "--font",
    "--font-dir", "--font-size", "--line-height", "--standalone", "--font-url", "--more-style", "--no-interactive",
    "--truncation", "--toggle", "--preset", "--ellipsis", "--collapse-blank-lines", "--reserve-space", "--scroll",
    "--text-style", "--fallback", "--no-fallback", "--kerning", "--bidi", "--no-autolinks", "--id", "--theme",
    "--engine",
    "--help", "--version",
  ]

  /// Parses the arguments after the program name. `--flag value` and `--flag=value` both work, and for
  /// the short flags `-w 40`, `-w40` and `-w=40`; short switches combine (`-ei`); `--` ends the flags; `-`
  /// is standard input.
  init(_ arguments: [String]) throws(UsageError) {
    var rest = arguments[...]
    var flagsEnded = false
    while let argument = rest.popFirst() {
      if flagsEnded || argument == "-" || !argument.hasPrefix("-") {
        guard file == nil else { throw UsageError(message: "more than one input file: '\(argument)'") }
        file = argument
        continue
      }
      if argument == "--" {
        flagsEnded = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if !argument.hasPrefix("--") {
        let letters = argument.dropFirst()
        guard let first = letters.first, let long = Self.shortFlags[first] else {
          throw UsageError(message: "unknown flag '\(argument.prefix(2))' (see --help)")
        }
        name = long
        if letters.count > 1 {
          if Self.switches.contains(long) {
            // Combined switches: `-ei` is `-e -i`.
            for letter in letters.dropFirst().reversed() { rest.insert("-\(letter)", at: rest.startIndex) }
          } else {
            inlineValue = String(letters.dropFirst().drop { $0 == "=" })
          }
        }
      } else if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
        return next
      }
      switch name {
      case "--width":
        let text = try value()
        if text.hasSuffix("px") {
          widthPixels = try Self.pixels(String(text.dropLast(2)), flag: name)
        } else {
          width = try Self.number(text, flag: name, minimum: 1)
        }
      case "--font": fonts.append(try Self.nonEmpty(try value(), flag: name))
      case "--font-dir": fontDirectory = try Self.nonEmpty(try value(), flag: name)
      case "--fallback":
        let files = try Self.nonEmpty(try value(), flag: name).split(separator: ",").map(String.init)
        fallbacks = (fallbacks ?? []) + [files]
      case "--no-fallback": fallbacks = []
      case "--font-size":
        fontSize = try Self.pixels(try value(), flag: name)
        fontSizeGiven = true
      case "--line-height": lineHeight = try Self.pixels(try value(), flag: name)
      case "--standalone": standalone = true
      case "--kerning": kerning = true
      case "--engine": engine = try Self.choice(try value(), flag: name)
      case "--font-url": fontURL = try value()
      case "--id": id = try Self.nonEmpty(try value(), flag: name)
      case "--more-style":
        let text = try value()
        do {
          moreStyle = try TerminalStyle(text)
        } catch {
          throw UsageError(message: "--more-style: \(error.message)")
        }
      case "--interactive": interactive = true
      case "--no-interactive": interactive = false
      case "--truncation": truncation = try Self.choice(try value(), flag: name)
      case "--toggle": toggle = try Self.choice(try value(), flag: name)
      case "--preset": preset = try Self.choice(try value(), flag: name)
      case "--ellipsis": ellipsis = try value()
      case "--collapse-blank-lines": collapseBlankLines = true
      case "--reserve-space": reserveSpace = true
      case "--scroll": scroll = true
      case "--text-style": textStyle = try Self.choice(try value(), flag: name)
      case "--lines":
        lines = try Self.number(try value(), flag: name, minimum: 1)
        linesGiven = true
      case "--verbatim": verbatim = true
      case "--no-autolinks": autolinks = false
      case "--format":
        format = try Self.choice(try value(), flag: name)
        formatGiven = true
      case "--expanded": expanded = true
      case "--more-label":
        moreLabel = try value()
        moreLabelGiven = true
      case "--less-label": lessLabel = try value()
      case "--color": color = try Self.choice(try value(), flag: name)
      case "--breaks": breaks = try Self.choice(try value(), flag: name)
      case "--bidi": bidi = try Self.choice(try value(), flag: name)
      case "--theme": theme = try Self.choice(try value(), flag: name)
      case "--widths": widths = try Self.choice(try value(), flag: name)
      case "--locale": locale = try Self.nonEmpty(try value(), flag: name)
      case "--strings": strings.append(try Self.nonEmpty(try value(), flag: name))
      case "--table": table = try Self.nonEmpty(try value(), flag: name)
      case "--arg": args.append(try value())
      case "--device": device = try Self.nonEmpty(try value(), flag: name)
      case "--check-strings": checkStrings = true
      case "--help": help = true
      case "--version": version = true
      default:
        if let nearest = Self.nearest(to: name) {
          throw UsageError(message: "unknown flag '\(name)': did you mean \(nearest)?")
        }
        throw UsageError(message: "unknown flag '\(name)' (see --help)")
      }
      if inlineValue != nil && Self.switches.contains(name) {
        throw UsageError(message: "\(name) takes no value")
      }
    }
    try checkConflicts()
  }

  /// Flags that contradict each other are a usage error naming both, not one of them silently ignored.
  private func checkConflicts() throws(UsageError) {
    if scroll {
      let truncating = [("--truncation", truncation != nil), ("--toggle", toggle != nil), ("--expanded", expanded)]
      if let (flag, _) = truncating.first(where: { $0.1 }) {
        throw UsageError(message: "--scroll and \(flag) conflict: a scrolled paragraph is never truncated")
      }
    }
    if verbatim, !args.isEmpty {
      throw UsageError(message: "--arg and --verbatim conflict: verbatim text has no specifiers to fill")
    }
    if checkStrings, strings.isEmpty {
      throw UsageError(message: "--check-strings needs the tables to check: give --strings PATH")
    }
    if interactive, formatGiven {
      throw UsageError(message: "--interactive and --format conflict: the interactive view is the terminal's")
    }
    if interactive, file == nil || file == "-" {
      throw UsageError(
        message: "--interactive reads keys from standard input: give the text as a FILE, not on standard input")
    }
    if theme != nil, format != .ansi {
      throw UsageError(
        message: "--theme sets the fade of the terminal's output: it needs --format ansi, not \(format.rawValue)")
    }
    if id != nil, format != .html {
      throw UsageError(message: "--id names the html container: give --format html")
    }
    if let flag = fontFlagGiven, format != .html, format != .json || widthPixels == nil {
      throw UsageError(
        message: format == .json
          ? "\(flag) sets the fonts of html: json measures in fonts only with --width in px"
          : "\(flag) sets the fonts of html: give --format html (or json with --width in px)")
    }
    if let flag = [("--standalone", standalone), ("--font-url", fontURL != nil)].first(where: \.1)?.0,
      format != .html
    {
      throw UsageError(message: "\(flag) writes an html page's fonts: give --format html")
    }
    if textStyle != nil, [.ansi, .plain].contains(format) {
      throw UsageError(
        message: formatGiven
          ? "--text-style and --format \(format.rawValue) conflict: a text style sets the font size of html"
          : "--text-style sets the font size of html: give --format html (or json with --width in px)")
    }
  }

  /// The first flag given that chooses or sizes the fonts text is measured in, which only html and json in px use.
  private var fontFlagGiven: String? {
    let given = [
      ("--font", !fonts.isEmpty), ("--font-dir", fontDirectory != nil), ("--fallback", fallbacks?.isEmpty == false),
      ("--no-fallback", fallbacks?.isEmpty == true), ("--font-size", fontSizeGiven),
      ("--line-height", lineHeight != nil),
      ("--kerning", kerning),
    ]
    return given.first(where: \.1)?.0
  }

  /// The flag nearest to a misspelt one (at most a third of its letters off), by edit distance.
  static func nearest(to name: String) -> String? {
    let candidates = flags.map { ($0, editDistance(name, $0)) }.filter { $0.1 <= max(2, name.count / 3) }
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

  private static func pixels(_ text: String, flag: String) throws(UsageError) -> Double {
    let number = text.hasSuffix("px") ? String(text.dropLast(2)) : text
    guard let value = Double(number), value.isFinite else {
      throw UsageError(message: "\(flag) needs a number of px, not '\(text)'")
    }
    guard value > 0, value <= 100_000 else {
      throw UsageError(message: "\(flag) must be above 0 and at most 100000 px, not \(text)")
    }
    return value
  }

  private static func nonEmpty(_ text: String, flag: String) throws(UsageError) -> String {
    guard !text.isEmpty else { throw UsageError(message: "\(flag) needs a non-empty value") }
    return text
  }

  private static func number(_ text: String, flag: String, minimum: Int) throws(UsageError) -> Int {
    guard let number = Int(text) else { throw UsageError(message: "\(flag) needs a whole number, not '\(text)'") }
    guard number >= minimum else { throw UsageError(message: "\(flag) must be at least \(minimum), not \(number)") }
    return number
  }

  private static func choice<T: RawRepresentable & CaseIterable>(
    _ text: String, flag: String
  ) throws(UsageError) -> T where T.RawValue == String {
    guard let value = T(rawValue: text) else {
      let names = T.allCases.map(\.rawValue).joined(separator: "|")
      throw UsageError(message: "\(flag) must be one of \(names), not '\(text)'")
    }
    return value
  }

  static let usage = """
    Usage: unfold [options] [FILE]

    Prints a paragraph as a reader sees it in N lines, with "… more", or after expanding; -i opens
    a view where Enter toggles. Reads FILE, or standard input when FILE is missing or '-'. The text
    is a localized key: looked up in the --strings tables (the key itself when missing), then shown
    as inline markdown (bold, italic, strikethrough, code, links, bare URLs); --verbatim shows it as
    given instead.

    Options:
      -w, --width N | Npx       line width: cells for the terminal (default: the terminal's width, else
                                $COLUMNS, else 80); CSS px for html (a width in cells is an error there),
                                or for json measured in the fonts (default 320px)
                                  e.g. unfold --width 40 notes.md; unfold --format html --width 320px notes.md
      -n, --lines N             line limit when collapsed (default 3)
                                  e.g. unfold --lines 2 notes.md
      --verbatim                show the text as given: no markdown, outer whitespace trimmed
                                  e.g. unfold --verbatim comment.txt
      --no-autolinks            markdown: bare URLs (https://…, www.…) and e-mail addresses stay text,
                                as in SwiftUI's Text (default: links, as on GitHub)
                                  e.g. unfold --no-autolinks notes.md
      --format F                ansi (default), plain, html, json (the layout), breaks (the text with
                                ÷ where a line may break and × where not), runs (the styled runs)
                                  e.g. unfold --format json notes.md
      -e, --expanded            show the expanded state instead of the collapsed one
                                  e.g. unfold --expanded notes.md
      --more-label TEXT         the label that expands (default "more")
                                  e.g. unfold --more-label "Read more" notes.md
      --less-label TEXT         the label that collapses again (default: none)
                                  e.g. unfold --expanded --less-label "Show less" notes.md
      --color WHEN              colours and styles in ansi output: auto (from NO_COLOR, FORCE_COLOR, the
                                output being a terminal, TERM and COLORTERM), always, never, or a level:
                                16, 256, truecolor
                                  e.g. unfold --color 256 notes.md
      --more-style STYLE        the style of the more and less labels, as a rich style string: bold dim
                                italic underline strike reverse, a colour (red, bright_blue, #ffaf00,
                                rgb(255,175,0), color(208)) and "on" a background colour (default bold blue)
                                  e.g. unfold --more-style "bold underline #ffaf00" notes.md
      -i, --interactive         a view on the terminal where Enter or Space toggles and a resize lays the
                                text out again; q, Esc or Ctrl-C quits (needs a FILE, and a terminal on
                                standard input and output; without it unfold prints and exits)
                                  e.g. unfold -i notes.md
      --breaks RULES            line breaking rules: unicode (plain UAX #14), chromium, gecko, webkit,
                                webkit-ja (an engine's tailoring), any (a break where all three allow one)
                                (default: unicode, and the --engine's for html)
                                  e.g. unfold --format breaks --breaks chromium notes.md
      --theme dark|light        the terminal's background, which the fade of the cut line goes towards
                                (default: with -i, the colour the terminal reports; else light when
                                $COLORFGBG says so, else dark)
                                  e.g. unfold --theme light notes.md
      --bidi visual|logical     right-to-left text in ansi output: reordered for the terminal and aligned to
                                the right (default), or as stored, for a terminal that reorders itself
                                  e.g. unfold --bidi logical notes.md
      --widths legacy|modern    cell widths: per code point as glibc and tmux count (default), or emoji
                                sequences as one 2-cell emoji as newer terminals draw them
                                  e.g. unfold --widths modern notes.md
      --locale ID               the reader's locale: chooses the language, plural forms and number format
                                (default en)
                                  e.g. unfold --locale es-MX --strings Resources greeting.txt
      --strings PATH            string tables: a .strings, .stringsdict or .xcstrings file, or a folder
                                of <language>.lproj folders and catalogs (repeatable)
                                  e.g. unfold --strings Localizable.xcstrings --locale de key.txt
      --table NAME              the table to look the key up in (default: a single table file's own
                                name, else Localizable); a table that no file holds is an error, a key
                                missing from it a warning (the key is shown)
                                  e.g. unfold --strings Resources --table Errors key.txt
      --arg VALUE               an argument for the key's specifiers, read as the type of the specifier
                                it fills (repeatable, in order); a value that does not fit its specifier,
                                or too few or too many values, is an error. Without --arg the key is not
                                formatted: its specifiers show as written
                                  e.g. unfold --strings Resources --arg 3 --arg Ann key.txt
      --device NAME             the device for a catalog's device variations (iphone, ipad, mac...;
                                default other)
                                  e.g. unfold --strings Localizable.xcstrings --device ipad key.txt
      --font PATH               a font file for html (repeatable): regular, bold, italic, bold italic
                                and monospace faces, recognised from their tables (default: DejaVu Sans
                                and DejaVu Sans Mono from fonts-dejavu-core)
                                  e.g. unfold --format html --font Inter-Regular.ttf --font Inter-Bold.ttf
      --font-dir DIR            a folder of .ttf, .otf and .ttc files: one family (a Sans one first)
                                and a monospace face; the other files are left out with a note
                                  e.g. unfold --format html --font-dir fonts/ notes.md
      --fallback FILE[,FILE]    a fallback family's font files, for the characters the fonts lack
                                (repeatable, in order; .ttc collections give their first face; default:
                                the Noto fonts of fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji
                                that are installed)
                                  e.g. unfold --format html --fallback NotoSansThai-Regular.ttf,NotoSansThai-Bold.ttf
      --no-fallback             html: no fallback fonts, only the fonts given
                                  e.g. unfold --format html --no-fallback notes.md
      --engine E                html and json in px: the browser engine whose lines to predict: blink
                                (Chrome, Edge), gecko (Firefox), webkit (Safari, every iOS browser), or
                                any, lines that every engine shows as predicted (default any)
                                  e.g. unfold --format html --engine gecko notes.md
      --kerning                 html: kerning and ligatures on, as the browser's defaults (default: off,
                                pinned by the page)
                                  e.g. unfold --format html --kerning notes.md
      --font-size PX            the font size for html (default 16)
                                  e.g. unfold --format html --font-size 15 notes.md
      --line-height PX          the line height for html (default 1.25 × the font size, rounded)
                                  e.g. unfold --format html --line-height 24 notes.md
      --standalone              html: a whole page with the fonts embedded, that renders the same anywhere
                                  e.g. unfold --format html --standalone notes.md > preview.html
      --font-url PREFIX         html: where the page finds the font files (default: their file names)
                                  e.g. unfold --format html --font-url /static/fonts/ notes.md
      --id NAME                 html: the container's id, for the same fragment twice on one page
                                (default: a hash of the text, the width, the state and the options)
                                  e.g. unfold --format html --id comment-42 notes.md
      --check-strings           load the --strings tables, resolve every key in every language, and
                                report problems (exit 1 when there are any)
                                  e.g. unfold --check-strings --strings Resources
      --truncation MODE         where the text is cut: tail (default), head (the end shows), middle (the
                                last line keeps its start and the text's end)
                                  e.g. unfold --truncation middle --lines 1 path.txt
      --toggle PLACE            where the toggle goes: inline (after the ellipsis, default), below (a line
                                of its own), overlay (over the end of the last line), none
                                  e.g. unfold --toggle below notes.md
      --preset NAME             expandable-text (more, no less label, overlay) or read-more-text (Read more,
                                Show less, below, 3 lines); other flags still apply over it
                                  e.g. unfold --preset read-more-text notes.md
      --ellipsis TEXT           the mark at the cut (default …)
                                  e.g. unfold --ellipsis "..." notes.md
      --collapse-blank-lines    while collapsed, show a run of blank lines as one
                                  e.g. unfold --collapse-blank-lines notes.md
      --reserve-space           always show the line limit of lines, padding a shorter text
                                  e.g. unfold --reserve-space --lines 4 notes.md
      --scroll                  a viewport of --lines lines that scrolls instead of truncating (arrows, j/k,
                                PgUp/PgDn, Home/End in the interactive preview; html: a scrolling region)
                                  e.g. unfold --scroll --lines 5 notes.md
      --text-style NAME         html: the size and line height of an Apple text style at the default
                                Dynamic Type size: largeTitle, title, title2, title3, headline, body,
                                callout, subheadline, footnote, caption, caption2
                                  e.g. unfold --format html --text-style footnote notes.md
      -h, --help                show this help
      --version                 show the version

    Exit status: 0 success, 1 a runtime error (unreadable file, invalid UTF-8), 2 a usage error.
    """
}
