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

/// The parsed command line.
struct Arguments {
  var file: String?
  var width: Int?
  var widthPixels: Double?
  /// A range of widths in whole px (`--width A-Bpx`); ``widthPixels`` is then its lower bound.
  var widthRange: ClosedRange<Int>?
  var fonts: [String] = []
  var fontDirectory: String?
  /// Each fallback family's files, in order; `nil`: Debian's Noto fonts that are installed.
  var fallbacks: [[String]]?
  var fontSize = 16.0
  /// The height of a document's collapsed HTML (`--max-height`).
  var maxHeight: Double?
  var fontSizeGiven = false
  var lineHeight: Double?
  var standalone = false
  var kerning = false
  var engine: BrowserEngine?
  var fontURL: String?
  /// The file that `--stylesheet` writes the page's stylesheet into.
  var stylesheet: String?
  /// The folder that `--export-fonts` copies the font files into.
  var exportFonts: String?
  var id: String?
  var moreStyle: TerminalStyle?
  var truncation: TruncationMode?
  var toggle: TogglePlacement?
  var preset: TruncationOptions.Preset?
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
  /// Whether the input is a markdown document (`--document`).
  var document = false
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

  /// Parses the arguments after the program name.
  ///
  /// `--flag value` and `--flag=value` both work, and for the short flags `-w 40`, `-w40` and `-w=40`; short switches
  /// combine (`-ei`); `--` ends the flags; `-` is standard input.
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
          if Self.flagsByName[long]?.isSwitch == true {
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
      guard let flag = Self.flagsByName[name] else {
        if let nearest = Self.nearest(to: name) {
          throw UsageError(message: "unknown flag '\(name)': did you mean \(nearest)?")
        }
        throw UsageError(message: "unknown flag '\(name)' (see --help)")
      }
      do {
        try flag.apply(&self, flag.isSwitch ? "" : try value(), name)
      } catch let error as UsageError {
        throw error
      } catch {
        throw UsageError(message: "\(name): \(error)")
      }
      if inlineValue != nil && flag.isSwitch {
        throw UsageError(message: "\(name) takes no value")
      }
    }
  }

  /// Flags that contradict each other, or that the format does not use, are a usage error naming them, not one of
  /// them silently ignored: every such check is here.
  func validate() throws(UsageError) {
    if widthPixels != nil && [.ansi, .plain].contains(format) {
      throw UsageError(message: "--width in px applies to --format html and json only")
    }
    if engine != nil && format != .html && (format != .json || widthPixels == nil) {
      throw UsageError(message: "--engine applies to --format html, and json with --width Npx, only")
    }
    if widthRange != nil {
      guard format == .json || format == .html else {
        throw UsageError(message: "--width with a range of px applies to --format html and json only")
      }
      if format == .json, let (flag, _) = [("--expanded", expanded), ("--scroll", scroll)].first(where: { $0.1 }) {
        throw UsageError(message: "--width with a range and \(flag) conflict: a range lists the collapsed views")
      }
    }
    // Cells and px do not convert: a width in cells for html would be a guess.
    if format == .html, widthPixels == nil, let width {
      throw UsageError(message: "--width \(width) is in cells; html needs px (e.g. --width \(width)px)")
    }
    if scroll {
      let truncating = [("--truncation", truncation != nil), ("--toggle", toggle != nil), ("--expanded", expanded)]
      if let (flag, _) = truncating.first(where: { $0.1 }) {
        throw UsageError(message: "--scroll and \(flag) conflict: a scrolled paragraph is never truncated")
      }
    }
    if document, verbatim {
      throw UsageError(message: "--document and --verbatim conflict: a document is markdown")
    }
    if document, let flag = [("--arg", !args.isEmpty), ("--strings", !strings.isEmpty)].first(where: { $0.1 })?.0 {
      throw UsageError(message: "--document and \(flag) conflict: a document is shown as written, not looked up")
    }
    if maxHeight != nil, !document || format != .html {
      throw UsageError(message: "--max-height applies to --document with --format html")
    }
    if document, widthRange != nil {
      throw UsageError(message: "--document takes one width: no range of widths for documents yet")
    }
    if document, let truncation, truncation != .tail {
      throw UsageError(
        message: "--document and --truncation \(truncation.rawValue) conflict: a document is cut at its tail")
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
    let pageFlags = [
      ("--standalone", standalone), ("--font-url", fontURL != nil), ("--stylesheet", stylesheet != nil),
      ("--export-fonts", exportFonts != nil),
    ]
    if let flag = pageFlags.first(where: \.1)?.0, format != .html {
      throw UsageError(message: "\(flag) writes an html page's fonts: give --format html")
    }
    if standalone,
      let flag = [("--stylesheet", stylesheet != nil), ("--export-fonts", exportFonts != nil)]
        .first(where: \.1)?.0
    {
      throw UsageError(message: "--standalone and \(flag) conflict: a whole page carries its own fonts and stylesheet")
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
}
