import Foundation
import TestSupport
import Testing
import Unfold

/// Runs the built `unfold` binary and checks what it prints and how it exits.
@Suite struct CommandTests {
  let sample =
    "Unfold turns **a short piece of text** into what a reader sees in a few lines, and what they see after \"more\"."

  @Test func printsTheCollapsedParagraphFromStandardInput() throws {
    let result = try Command.run(["--width", "30", "--color", "never"], stdin: Data(sample.utf8))
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout == "Unfold turns a short piece of\ntext into what a reader sees\nin a few lines, and what… more\n")
  }

  @Test func styledOutputUsesSGRAndHyperlinks() throws {
    let result = try Command.run(
      ["--width", "40", "--color", "always"], stdin: Data("**b** [l](https://x.y) `c`".utf8))
    #expect(
      result.stdout
        == "\u{1B}[1mb\u{1B}[0m \u{1B}]8;id=u7d6ede57-1;https://x.y\u{1B}\\\u{1B}[4ml\u{1B}[0m\u{1B}]8;;\u{1B}\\ \u{1B}[36mc\u{1B}[0m\n"
    )
  }

  @Test func colorAutoIsOffWhenOutputIsNotATerminalAndPlainHasNoEscapes() throws {
    for arguments in [["--width", "20"], ["--width", "20", "--format", "plain", "--color", "always"]] {
      let result = try Command.run(arguments, stdin: Data(sample.utf8))
      #expect(!result.stdout.contains("\u{1B}"), "\(arguments)")
    }
  }

  @Test func expandedWithALessLabel() throws {
    let result = try Command.run(
      ["--width", "30", "--expanded", "--less-label", "Show less", "--format", "plain"], stdin: Data(sample.utf8))
    #expect(result.stdout.hasSuffix("\"more\". Show less\n"))
    #expect(result.stdout.split(separator: "\n").count == 4)
  }

  @Test func verbatimShowsMarkupAsTyped() throws {
    let result = try Command.run(["--verbatim", "--format", "plain"], stdin: Data("  **x**  \n".utf8))
    #expect(result.stdout == "**x**\n")
  }

  @Test func readsAFileAndNamesAMissingOne() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-e2e-\(UUID()).md")
    try Data("*hello*".utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(try Command.run([url.path, "--format", "plain"]).stdout == "hello\n")
    let missing = try Command.run(["/nonexistent/file.md"])
    #expect(missing.status == 1)
    #expect(missing.stderr == "unfold: /nonexistent/file.md: no such file\n")
  }

  /// HTML draws what DejaVu lacks in Debian's Noto fonts by default; `--fallback` names the chain instead and
  /// `--no-fallback` drops it; a fallback file that cannot be read is named.
  @Test func fallbackFontsFromTheCommandLine() throws {
    let thai = Data("ภาษาไทย and Latin".utf8)
    let html = try Command.run(["--format", "html"], stdin: thai)
    #expect(html.status == 0 && html.stdout.contains("NotoSansThai-Regular.ttf"))
    let given = try Command.run(
      ["--format", "html", "--fallback", "/usr/share/fonts/truetype/noto/NotoSansThai-Bold.ttf"], stdin: thai)
    #expect(given.stdout.contains("NotoSansThai-Bold.ttf") && !given.stdout.contains("NotoSansThai-Regular.ttf"))
    let none = try Command.run(["--format", "html", "--no-fallback"], stdin: thai)
    #expect(none.status == 0 && !none.stdout.contains("Noto"))
    let missing = try Command.run(["--format", "html", "--fallback", "/nonexistent/Font.ttf"], stdin: thai)
    #expect(missing.status == 1)
    #expect(
      missing.stderr
        == "unfold: /nonexistent/Font.ttf: no such font file (a --fallback file; give another, or --no-fallback)\n")
  }

  /// A font folder of several families (Liberation's) is used, with a note of what is left out.
  @Test func aSystemFontFolderIsUsedWithANote() throws {
    let result = try Command.run(
      ["--format", "html", "--font-dir", "/usr/share/fonts/truetype/liberation2"], stdin: Data("words".utf8))
    #expect(result.status == 0 && result.stdout.contains("LiberationSans-Regular.ttf"))
    #expect(
      result.stderr.hasPrefix(
        "unfold: note: /usr/share/fonts/truetype/liberation2: drawing in Liberation Sans; 7 other faces left out"))
  }

  @Test func invalidUTF8IsARuntimeErrorWithTheByteOffset() throws {
    let result = try Command.run([], stdin: Data([0x61, 0x62, 0x63, 0xFF, 0x64]))
    #expect(result.status == 1)
    #expect(result.stderr == "unfold: standard input: invalid UTF-8 at byte 3\n")
    #expect(result.stdout == "")
  }

  /// UTF-16 input says that it looks like UTF-16 and how to convert it, from a file and from standard input.
  @Test func utf16InputIsNamedWithHowToConvertIt() throws {
    let utf16 = Data([0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00])
    let piped = try Command.run([], stdin: utf16)
    #expect(piped.status == 1)
    #expect(
      piped.stderr
        == "unfold: standard input: invalid UTF-8 at byte 0: it looks like UTF-16 (it starts with a UTF-16 byte order mark); convert it with: iconv -f UTF-16 -t UTF-8 FILE\n"
    )
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-e2e-\(UUID()).txt")
    try Data([0xFE, 0xFF, 0x00, 0x68]).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let file = try Command.run([url.path])
    #expect(file.stderr.hasSuffix("convert it with: iconv -f UTF-16 -t UTF-8 \(url.path)\n"), "\(file.stderr)")
    // Invalid UTF-8 that does not start with a UTF-16 byte order mark is only that.
    #expect(
      try Command.run([], stdin: Data([0xFF, 0x68])).stderr == "unfold: standard input: invalid UTF-8 at byte 0\n")
  }

  /// A collapsed terminal preview reads only the start of its input that settles it, in every mode (a key that is
  /// its own text, verbatim text, a document): a file of 1.1 MB with an invalid byte at its end shows the library's
  /// view of its start, while the expanded view, which reads it all, names the byte.
  @Test(arguments: [[], ["--verbatim"], ["--document"]])
  func aCollapsedPreviewReadsOnlyItsStart(_ mode: [String]) throws {
    let sentence = "The survey team walked the coast road at dawn, counting terns. "
    let text = String(repeating: String(repeating: sentence, count: 6) + "\n\n", count: 3_000)
    var input = Data(text.utf8)
    input.append(0xFF)
    let collapsed = try Command.run(mode + ["--format", "plain", "--width", "40", "--lines", "3"], stdin: input)
    #expect(collapsed.status == 0, "\(collapsed.stderr)")
    let source =
      mode == ["--verbatim"]
      ? TextSource(verbatim: text)
      : mode == ["--document"] ? TextSource(document: text) : TextSource(LocalizedKey(text))
    #expect(collapsed.stdout == Paragraph(source).lineLimit(3).plain(width: 40))
    let expanded = try Command.run(mode + ["--format", "plain", "--width", "40", "--expanded"], stdin: input)
    #expect(
      expanded.status == 1 && expanded.stderr == "unfold: standard input: invalid UTF-8 at byte \(text.utf8.count)\n")
  }

  @Test func nulBytesBecomeReplacementCharactersAndNothingIsTruncated() throws {
    let result = try Command.run(["--format", "plain"], stdin: Data([0x61, 0x00, 0x62, 0x00, 0x63]))
    #expect(result.stdout == "a\u{FFFD}b\u{FFFD}c\n")
  }

  @Test(arguments: [
    (["--bogus"], "unknown flag '--bogus' (see --help)"),
    (["--width", "abc"], "--width needs a whole number, not 'abc'"),
    (["--width", "0"], "--width must be at least 1, not 0"),
    (["--lines"], "--lines needs a value"),
    (["--format", "pdf"], "--format must be one of ansi|plain|html|json|breaks|runs, not 'pdf'"),
    (["--color=sometimes"], "--color must be one of auto|always|never|16|256|truecolor, not 'sometimes'"),
    (["--widht", "3"], "unknown flag '--widht': did you mean --width?"),
    (["--toggle", "above"], "--toggle must be one of inline|below|overlay|none, not 'above'"),
    (["--truncation", "start"], "--truncation must be one of tail|head|middle, not 'start'"),
    (["--preset", "swiftui"], "--preset must be one of expandable-text|read-more-text, not 'swiftui'"),
    (
      ["--text-style", "huge"],
      "--text-style must be one of largeTitle|title|title2|title3|headline|body|callout|subheadline|footnote|caption|caption2, not 'huge'"
    ),
    (
      ["--more-style", "bold purple"],
      "--more-style: 'purple' is not a style attribute or a colour (a name, #rrggbb, rgb(r,g,b) or color(n))"
    ),
    (["a.md", "b.md"], "more than one input file: 'b.md'"),
    (["--engine", "gecko"], "--engine applies to --format html, and json with --width Npx, only"),
    (["--format", "html", "--engine", "trident"], "--engine must be one of blink|gecko|webkit|any, not 'trident'"),
    (
      ["--format", "json", "--width", "1280-280px"],
      "--width range 1280-280px runs backwards: give the narrower width first"
    ),
    (["--format", "json", "--width", "0-300px"], "--width range 0-300px must lie between 1 and 100000 px"),
    (["--format", "json", "--width", "280-1280"], "--width range 280-1280 needs px, as in 280-1280px"),
    (["--format", "json", "--width", "280-1280em"], "--width range 280-1280em needs px, as in 280-1280px"),
    (
      ["--format", "json", "--width", "280.5-300px"],
      "--width range 280.5-300px needs whole numbers of px, as in 280-1280px"
    ),
    (["--format", "plain", "--width", "280-300px"], "--width in px applies to --format html and json only"),
    (["--format", "ansi", "--width", "280-300px"], "--width in px applies to --format html and json only"),
    (
      ["--format", "json", "--width", "280-300px", "--expanded"],
      "--width with a range and --expanded conflict: a range lists the collapsed views"
    ),
    (["--document", "--verbatim"], "--document and --verbatim conflict: a document is markdown"),
    (["--document", "--arg", "x"], "--document and --arg conflict: a document is shown as written, not looked up"),
    (
      ["--document", "--truncation", "middle"],
      "--document and --truncation middle conflict: a document is cut at its tail"
    ),
    (
      ["--document", "--format", "html", "--width", "280-300px"],
      "--document takes one width: no range of widths for documents yet"
    ),
  ])
  func usageErrorsExitWithTwoAndOneLine(_ arguments: [String], _ message: String) throws {
    let result = try Command.run(arguments)
    #expect(result.status == 2)
    #expect(result.stderr == "unfold: \(message)\n")
  }

  /// The command reads a document with `--document`, and shows its blocks with `--format runs`; its HTML holds the
  /// blocks as elements, and its JSON in px their lines.
  @Test func aDocumentFromTheCommandLine() throws {
    let input = Data("# Title\n\n- one\n- two\n".utf8)
    let html = try Command.run(
      ["--document", "--format", "html", "--width", "300px", "--lines", "5", "--font-url", ""], stdin: input)
    #expect(html.status == 0)
    #expect(
      html.stdout.contains(
        "<h1 dir=\"auto\"><strong>Title</strong></h1><ul class=\"unfold-l0 unfold-u0 unfold-tight\">"))
    // --no-autolinks reaches a document's blocks.
    let url = Data("see https://example.org\n".utf8)
    let linked = try Command.run(["--document", "--format", "json", "--width", "40"], stdin: url)
    let unlinked = try Command.run(["--document", "--no-autolinks", "--format", "json", "--width", "40"], stdin: url)
    #expect(linked.stdout.contains("\"link\" : \"https://example.org\""))
    #expect(!unlinked.stdout.contains("\"link\" : \"https"))
    let json = try Command.run(["--document", "--format", "json", "--width", "300px", "--lines", "2"], stdin: input)
    #expect(json.stdout.contains("\"isTruncated\" : true") && json.stdout.contains("\"blocks\" : ["), "\(json.stdout)")
    let plain = try Command.run(["--document", "--format", "plain", "--width", "20", "--lines", "5"], stdin: input)
    #expect(plain.stdout == "# Title\n\n• one\n• two\n")
    let runs = try Command.run(["--document", "--format", "runs"], stdin: input)
    #expect(runs.stdout.hasPrefix("heading 1\n  plain \"Title\"\nlist bullet tight start=1\n"))
  }

  /// `--format json` of a document holds its block tree beside the lines: each block's type and what it holds.
  @Test func aDocumentsJSONHoldsItsBlocks() throws {
    let input = Data("# A *b*\n\n1. [x] done\n\n> q\n\n```sh\nls\n```\n\n| h |\n|--:|\n| c |\n\n---\n".utf8)
    let result = try Command.run(["--document", "--format", "json", "--width", "30"], stdin: input)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let blocks = try #require(object["blocks"] as? [[String: Any]])
    #expect(blocks.map { $0["type"] as? String } == ["heading", "list", "quote", "code", "table", "rule"])
    let runs = try #require(blocks[0]["runs"] as? [[String: Any]])
    #expect(blocks[0]["level"] as? Int == 1)
    #expect(runs.map { $0["text"] as? String } == ["A ", "b"])
    #expect(runs.map { $0["styles"] as? [String] } == [[], ["italic"]])
    #expect(blocks[1]["ordered"] as? Bool == true && blocks[1]["start"] as? Int == 1)
    let item = try #require((blocks[1]["items"] as? [[String: Any]])?.first)
    #expect(item["type"] as? String == "item" && item["task"] as? Bool == true)
    #expect((item["blocks"] as? [[String: Any]])?.first?["type"] as? String == "paragraph")
    #expect(blocks[3]["language"] as? String == "sh" && blocks[3]["text"] as? String == "ls")
    #expect(blocks[4]["alignments"] as? [String] == ["right"])
    let rows = try #require(blocks[4]["rows"] as? [[[[String: Any]]]])
    #expect(rows.map { $0.map { $0.first?["text"] as? String } } == [["h"], ["c"]])
    #expect((object["lines"] as? [Any])?.isEmpty == false)
    // A text that is not a document has no block tree.
    let paragraph = try Command.run(["--format", "json"], stdin: Data("# A".utf8))
    #expect(paragraph.stdout.contains("\"blocks\"") == false)
  }

  @Test func presetsAndPlacementsFromTheCommandLine() throws {
    let input = Data("The quick brown fox jumps over the lazy dog and keeps running far away.".utf8)
    let readMore = try Command.run(
      ["--preset", "read-more-text", "--lines", "2", "--width", "30", "--format", "plain"], stdin: input)
    #expect(readMore.stdout == "The quick brown fox jumps over\nthe lazy dog and keeps running\nRead more\n")
    let expandable = try Command.run(
      ["--preset", "expandable-text", "--lines", "1", "--width", "30", "--format", "plain"], stdin: input)
    #expect(expandable.stdout == "The quick brown fox jumps more\n")
    let head = try Command.run(
      ["--truncation", "head", "--lines", "1", "--width", "30", "--format", "plain", "--ellipsis", "..."], stdin: input)
    #expect(head.stdout == "... more running far away.\n")
  }

  @Test func helpListsEveryFlagAndVersionPrints() throws {
    let help = try Command.run(["--help"])
    #expect(help.status == 0)
    for flag in [
      "--width", "--lines", "--verbatim", "--format", "--expanded", "--more-label", "--less-label", "--color", "--help",
      "--version", "-w,", "-n,", "-e,", "-i, --interactive", "--no-autolinks",
    ] {
      #expect(help.stdout.contains(flag), "\(flag)")
    }
    #expect(try Command.run(["--version"]).stdout == "unfold 0.1.0\n")
    // Help and the version come before the flags are checked against each other, as in swift-argument-parser.
    let conflicting = try Command.run(["--help", "--scroll", "--expanded"])
    #expect(conflicting.status == 0 && conflicting.stdout == help.stdout)
    #expect(try Command.run(["--scroll", "--expanded"]).status == 2)
  }

  @Test func jsonIsTheStableLayoutInterface() throws {
    let result = try Command.run(
      ["--format", "json", "--width", "13", "--lines", "1"], stdin: Data("one **two** three four".utf8))
    let object = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["isTruncated"] as? Bool == true)
    #expect(object["lineCount"] as? Int == 2)
    let lines = try #require(object["lines"] as? [[String: Any]])
    #expect(lines.count == 1)
    #expect(lines[0]["text"] as? String == "one two… more")
    #expect(lines[0]["width"] as? Int == 13)
    let fragments = try #require(lines[0]["fragments"] as? [[String: Any]])
    #expect(fragments.map { $0["text"] as? String } == ["one ", "two", "…", " ", "more"])
    #expect(fragments[1]["styles"] as? [String] == ["bold"])
    #expect(fragments[1]["link"] is NSNull)
    #expect(fragments[4]["role"] as? String == "moreLabel")
  }

  @Test func widthComesFromColumnsWhenNotATerminal() throws {
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "12"
    let result = try Command.run(
      ["--format", "plain"], stdin: Data("aaaa bbbb cccc dddd".utf8), environment: environment)
    #expect(result.stdout == "aaaa bbbb\ncccc dddd\n")
  }

  @Test func breaksFormatMarksEveryPositionInTheChosenProfile() throws {
    let input = Data("a/b (c)".utf8)
    let unicode = try Command.run(["--format", "breaks", "--verbatim"], stdin: input)
    #expect(unicode.stdout == "×a×/÷b×␠÷(×c×)÷\n")
    let chromium = try Command.run(["--format", "breaks", "--verbatim", "--breaks", "chromium"], stdin: input)
    #expect(chromium.stdout == "×a×/×b×␠÷(×c×)÷\n")
    let gecko = try Command.run(["--format", "breaks", "--verbatim", "--breaks", "gecko"], stdin: input)
    #expect(gecko.stdout == "×a×/÷b×␠÷(×c×)÷\n")
    let bad = try Command.run(["--breaks", "icu"])
    #expect(bad.status == 2)
    #expect(bad.stderr == "unfold: --breaks must be one of unicode|chromium|gecko|webkit|webkit-ja|any, not 'icu'\n")
  }

  @Test func widthsProfileChangesWhereLinesBreak() throws {
    // Four families: 8 cells as tmux draws them (legacy), 8 as newer terminals do (modern), but a heart
    // with VS16 is 1 cell in legacy and 2 in modern.
    let input = Data("❤️❤️❤️❤️ x".utf8)
    let legacy = try Command.run(["--format", "plain", "--width", "5"], stdin: input)
    #expect(legacy.stdout == "❤️❤️❤️❤️\nx\n")
    let modern = try Command.run(["--format", "plain", "--width", "5", "--widths", "modern"], stdin: input)
    #expect(modern.stdout == "❤️❤️\n❤️❤️\nx\n")
  }

  var tables: String { TestSupport.repositoryRoot.appendingPathComponent("Fixtures/_tables").path }

  @Test func aKeyIsLookedUpForTheLocaleAndFormattedWithTypedArguments() throws {
    let result = try Command.run(
      ["--strings", tables, "--locale", "pl", "--arg", "22", "--format", "plain", "--width", "80"],
      stdin: Data("%lld new comments\n".utf8))
    #expect(result.status == 0)
    #expect(result.stdout == "22 nowe komentarze do Twojego wpisu o łamaniu wierszy\n")
  }

  /// A UTF-8 byte order mark at the start of the input is not text: the key is found, a verbatim text starts
  /// with its first letter (issue 37, item 8).
  @Test func aByteOrderMarkAtTheStartOfTheInputIsLeftOut() throws {
    let mark = Data([0xEF, 0xBB, 0xBF])
    let key = try Command.run(
      ["--strings", tables, "--locale", "pl", "--arg", "22", "--format", "plain", "--width", "80"],
      stdin: mark + Data("%lld new comments\n".utf8))
    #expect(key.stdout == "22 nowe komentarze do Twojego wpisu o łamaniu wierszy\n")
    let verbatim = try Command.run(["--verbatim", "--format", "plain"], stdin: mark + Data("Hello".utf8))
    #expect(verbatim.stdout == "Hello\n")
    let json = try Command.run(["--format", "json", "--width", "40"], stdin: mark + Data("Hello".utf8))
    #expect(!json.stdout.contains("\u{FEFF}") && !json.stdout.contains("\\ufeff"))
  }

  /// A table file's own name is its table; a table no file holds is a usage error naming the tables
  /// loaded, a key missing from its table a warning; `--check-strings` needs tables (issue 37, item 1).
  @Test func aTableNamedAfterItsFileIsFoundAndMissesAreReported() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-tables-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalog = folder.appendingPathComponent("Comments.xcstrings")
    try Data(
      """
      {"sourceLanguage": "en", "version": "1.0", "strings": {"greeting": {"localizations": {"en": \
      {"stringUnit": {"state": "translated", "value": "Hello **there**"}}}}}}
      """.utf8
    ).write(to: catalog)
    let plain = ["--format", "plain", "--strings", catalog.path]
    let found = try Command.run(plain, stdin: Data("greeting\n".utf8))
    #expect(found.stdout == "Hello there\n")
    #expect(found.stderr == "")
    let otherTable = try Command.run(plain + ["--table", "Localizable"], stdin: Data("greeting".utf8))
    #expect(otherTable.status == 2)
    #expect(otherTable.stdout == "")
    #expect(
      otherTable.stderr
        == "unfold: no table Localizable among the tables loaded (Comments) to look up \"greeting\": give --table NAME\n"
    )
    let folderOfTables = try Command.run(["--format", "plain", "--strings", folder.path], stdin: Data("greeting".utf8))
    #expect(folderOfTables.status == 2)
    let missingKey = try Command.run(plain, stdin: Data("farewell".utf8))
    #expect(missingKey.status == 0)
    #expect(missingKey.stdout == "farewell\n")
    #expect(missingKey.stderr == "unfold: warning: no translation of \"farewell\" in en (table Comments)\n")
    let check = try Command.run(["--check-strings"])
    #expect(check.status == 2)
    #expect(check.stderr == "unfold: --check-strings needs the tables to check: give --strings PATH\n")
  }

  /// An `--arg` that does not fit its specifier, too few or too many, and `--arg` with `--verbatim` are
  /// usage errors naming the specifier, never raw specifiers in the output (issue 37, item 2).
  @Test func argumentsThatDoNotFitTheirSpecifiersAreUsageErrors() throws {
    let key = Data("%lld new comments\n".utf8)
    let flags = ["--strings", tables, "--locale", "pl", "--format", "plain"]
    for (arguments, message) in [
      (["abc"], "unfold: --arg: %lld cannot show argument 1, \"abc\": it takes a whole number\n"),
      (["1.5"], "unfold: --arg: %lld cannot show argument 1, \"1.5\": it takes a whole number\n"),
      (["3", "4"], "unfold: --arg: 2 arguments given, the format reads 1; not shown: \"4\"\n"),
    ] {
      let result = try Command.run(flags + arguments.flatMap { ["--arg", $0] }, stdin: key)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout == "", "\(arguments)")
      #expect(result.stderr == message, "\(arguments)")
    }
    let twoArguments = Data("%1$@ replied to %2$@".utf8)
    let tooFew = try Command.run(["--format", "plain", "--arg", "Ann"], stdin: twoArguments)
    #expect(tooFew.status == 2)
    #expect(tooFew.stderr == "unfold: --arg: %2$@ reads argument 2, but 1 was given\n")
    let both = try Command.run(["--format", "plain", "--arg", "Ann", "--arg", "Bo"], stdin: twoArguments)
    #expect(both.stdout == "Ann replied to Bo\n")
    let verbatim = try Command.run(["--verbatim", "--arg", "3"], stdin: key)
    #expect(verbatim.status == 2)
    #expect(verbatim.stderr.hasPrefix("unfold: --arg and --verbatim conflict"))
    // Without --arg the key is not formatted, as SwiftUI's key without interpolation: a warning says so.
    let none = try Command.run(flags, stdin: key)
    #expect(none.status == 0)
    #expect(none.stderr.contains("warning: no number in argument 1 to choose a plural form"))
  }

  /// Short flags and combined switches (issue 37, item 7).
  @Test func shortFlagsStandForTheLongOnes() throws {
    let long = try Command.run(
      ["--width", "30", "--lines", "2", "--expanded", "--color", "never"], stdin: Data(sample.utf8))
    for flags in [["-w", "30", "-n", "2", "-e"], ["-w30", "-n2", "-e"], ["-w=30", "-en", "2"]] {
      let short = try Command.run(flags + ["--color", "never"], stdin: Data(sample.utf8))
      #expect(short.status == 0, "\(flags)")
      #expect(short.stdout == long.stdout, "\(flags)")
    }
    let unknown = try Command.run(["-x"], stdin: Data(sample.utf8))
    #expect(unknown.status == 2)
    #expect(unknown.stderr == "unfold: unknown flag '-x' (see --help)\n")
    let interactiveFromAPipe = try Command.run(["-i"], stdin: Data(sample.utf8))
    #expect(interactiveFromAPipe.status == 2)
    let interactiveHTML = try Command.run(["-i", "--format", "html", "README.md"])
    #expect(interactiveHTML.stderr.hasPrefix("unfold: --interactive and --format conflict"))
  }

  @Test func aMalformedTableIsARuntimeErrorNamingFileLineAndColumn() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-bad-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("Localizable.strings")
    try Data("\"a\" = \"b\"\n\"c\" = \"d\";\n".utf8).write(to: bad)
    let result = try Command.run(["--strings", bad.path], stdin: Data("a".utf8))
    #expect(result.status == 1)
    #expect(result.stderr == "unfold: \(bad.path):2:1: expected ';' after the value of \"a\", found '\"'\n")
    let missing = try Command.run(["--strings", "/nonexistent/Localizable.xcstrings"], stdin: Data("a".utf8))
    #expect(missing.status == 1)
    #expect(missing.stderr == "unfold: /nonexistent/Localizable.xcstrings: no such file or folder\n")
  }

  @Test func checkStringsResolvesEveryKeyInEveryLanguage() throws {
    let result = try Command.run(["--check-strings", "--strings", tables])
    #expect(result.status == 0)
    #expect(result.stdout == "checked 8 keys in 10 languages (17 translations, 1 table): no problems\n")
  }

  @Test func htmlInPixelsWithTheDefaultFontsAndAStandalonePage() throws {
    let input = Data(sample.utf8)
    let fragment = try Command.run(["--format", "html", "--width", "240px"], stdin: input)
    #expect(fragment.status == 0)
    #expect(fragment.stdout.hasPrefix("<div class=\"unfold\""))
    #expect(fragment.stdout.contains("width:240px;"))
    #expect(fragment.stdout.contains("src:url(\"DejaVuSans.ttf\")"))
    #expect(fragment.stdout.contains("aria-expanded=\"false\""))
    let page = try Command.run(
      ["--format", "html", "--standalone", "--font-size", "15", "--line-height", "22"], stdin: input)
    #expect(page.stdout.hasPrefix("<!DOCTYPE html>"))
    #expect(page.stdout.contains("src:url(\"data:font/ttf;base64,"))
    #expect(page.stdout.contains("font-size:15px;line-height:22px"))
    let named = try Command.run(["--format", "html", "--width", "120px", "--id", "comment-42"], stdin: input)
    #expect(named.stdout.hasPrefix("<div class=\"unfold\" id=\"comment-42\""))
    #expect(named.stdout.contains("aria-controls=\"comment-42-full\""))
    let prefixed = try Command.run(["--format", "html", "--font-url", "/fonts/"], stdin: input)
    #expect(prefixed.stdout.contains("src:url(\"/fonts/DejaVuSans.ttf\")"))
  }

  /// `--stylesheet FILE` writes the rules and faces that fragments share into FILE, the fragment only its own.
  ///
  /// Every fragment of a page writes the same FILE. A file that cannot be written is one line naming it; the flag
  /// needs html, and a whole page carries its own stylesheet.
  @Test func aStylesheetIsWrittenOnceForAPage() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-stylesheet-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("unfold.css").path
    let flags = ["--format", "html", "--font-url", "/fonts/", "--stylesheet", file, "--lines", "1"]
    let first = try Command.run(flags + ["--width", "120px"], stdin: Data("A comment of a few words, cut".utf8))
    #expect(first.status == 0, "\(first.stderr)")
    let stylesheet = try String(contentsOfFile: file, encoding: .utf8)
    #expect(stylesheet.contains("white-space:pre-wrap") && stylesheet.contains("src:url(\"/fonts/DejaVuSans.ttf\")"))
    #expect(first.stdout.firstMatch(of: /<div class="unfold unfold-s[0-9a-f]{8}"/) != nil)
    #expect(!first.stdout.contains("white-space") && !first.stdout.contains("@font-face"))
    let second = try Command.run(flags + ["--width", "100-300px"], stdin: Data("Another one, of other words".utf8))
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == stylesheet)
    let unwritable = folder.appendingPathComponent("missing/unfold.css").path
    let failed = try Command.run(
      ["--format", "html", "--stylesheet", unwritable], stdin: Data("Some words".utf8))
    #expect(failed.status == 1 && failed.stdout.isEmpty)
    #expect(failed.stderr.hasPrefix("unfold: \(unwritable): cannot write the stylesheet"))
    #expect(failed.stderr.split(separator: "\n").count == 1)
    let ansi = try Command.run(["--stylesheet", file], stdin: Data("Some words".utf8))
    #expect(ansi.status == 2 && ansi.stderr.contains("--stylesheet writes an html page's fonts: give --format html"))
    let whole = try Command.run(["--format", "html", "--standalone", "--stylesheet", file], stdin: Data("x".utf8))
    #expect(whole.status == 2 && whole.stderr.contains("--standalone and --stylesheet conflict"))
  }

  /// `--export-fonts DIR` copies the font files that the output names into DIR, whole: a run for a Chinese comment
  /// adds the CJK collection to what a Latin one copied; with `--standalone` the flag is a usage error.
  @Test func theFontsAFragmentNamesAreExported() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-export-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let flags = ["--format", "html", "--font-url", "/fonts/", "--export-fonts", folder.path]
    let latin = try Command.run(flags, stdin: Data("Some words".utf8))
    #expect(latin.status == 0, "\(latin.stderr)")
    let first = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(first.contains("DejaVuSans.ttf") && !first.contains { $0.hasPrefix("NotoSansCJK") }, "\(first)")
    let chinese = try Command.run(flags, stdin: Data("混合 text 中文".utf8))
    #expect(chinese.status == 0, "\(chinese.stderr)")
    let second = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(Set(first).isSubset(of: second) && second.contains("NotoSansCJK-Regular.ttc"), "\(second)")
    let copied = try Data(contentsOf: folder.appendingPathComponent("DejaVuSans.ttf"))
    #expect(copied == (try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))))
    // With --stylesheet the stylesheet declares every face, and the files are those the fragment loads.
    let page = folder.appendingPathComponent("page")
    let css = folder.appendingPathComponent("unfold.css").path
    let shared = try Command.run(
      ["--format", "html", "--stylesheet", css, "--export-fonts", page.path], stdin: Data("Some words".utf8))
    #expect(shared.status == 0, "\(shared.stderr)")
    let loaded = try FileManager.default.contentsOfDirectory(atPath: page.path)
    #expect(loaded.contains("DejaVuSans.ttf") && !loaded.contains { $0.hasPrefix("Noto") }, "\(loaded)")
    #expect(shared.stderr.contains("the page needs DejaVuSans-Bold.ttf") && !shared.stderr.contains("Noto"))
    let whole = try Command.run(
      ["--format", "html", "--standalone", "--export-fonts", folder.path], stdin: Data("x".utf8))
    #expect(whole.status == 2 && whole.stderr.contains("--standalone and --export-fonts conflict"))
  }

  /// `--format json --width A-Bpx` lists the distinct collapsed views, each with the whole px widths that show it,
  /// narrowest first; together they cover the range.
  @Test func aRangeOfWidthsListsEachCollapsedViewOnce() throws {
    let input = Data(
      "Our **release notes** cover every change since the last version, with links to the issues and more.".utf8)
    let result = try Command.run(
      ["--format", "json", "--width", "120-700px", "--lines", "2", "--engine", "blink", "--no-fallback"], stdin: input)
    #expect(result.status == 0, "\(result.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let layouts = try #require(document["layouts"] as? [[String: Any]])
    let intervals = layouts.compactMap { $0["widths"] as? [String: Int] }.map { ($0["from"]!, $0["to"]!) }
    #expect(intervals.first?.0 == 120 && intervals.last?.1 == 700)
    #expect(zip(intervals, intervals.dropFirst()).allSatisfy { $1.0 == $0.1 + 1 })
    #expect(layouts.first?["isTruncated"] as? Bool == true && layouts.last?["isTruncated"] as? Bool == false)
    #expect(document["unit"] as? String == "px/65536")
    // Each view is what a single width shows.
    let single = try Command.run(
      ["--format", "json", "--width", "\(intervals[1].1)px", "--lines", "2", "--engine", "blink", "--no-fallback"],
      stdin: input)
    let view = try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
    let texts = { (lines: Any?) in (lines as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } }
    #expect(texts(view["lines"]) == texts(layouts[1]["lines"]))
  }

  /// `--format html --width A-Bpx` writes one fragment whose container fills its parent within the range, with a
  /// collapsed view for each layout, one for each view that `--format json` lists.
  @Test func aRangeOfWidthsMakesOneFluidFragment() throws {
    let input = Data(
      "Our **release notes** cover every change since the last version, with links to the issues and more.".utf8)
    let flags = ["--width", "120-700px", "--lines", "2", "--no-fallback"]
    let html = try Command.run(["--format", "html", "--id", "n"] + flags, stdin: input)
    #expect(html.status == 0, "\(html.stderr)")
    #expect(html.stdout.contains("width:100%;min-width:120px;max-width:700px;container-type:inline-size"))
    let json = try Command.run(["--format", "json"] + flags, stdin: input)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let layouts = try #require(document["layouts"] as? [[String: Any]])
    #expect(html.stdout.matches(of: /<p class="unfold-v\d+">/).count == layouts.count)
    #expect(html.stdout.matches(of: /@container \(min-width:/).count == layouts.count - 1)
  }

  /// `--text-style` sizes the fonts of json in px as it does html's: a large title takes more lines.
  @Test func aTextStyleSizesTheFontsOfJSON() throws {
    let input = Data("A few words that a large title spreads over more lines than body text does.".utf8)
    func lineCount(_ style: String) throws -> Int? {
      let result = try Command.run(
        ["--format", "json", "--width", "200px", "--no-fallback", "--text-style", style], stdin: input)
      let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      return document?["lineCount"] as? Int
    }
    let body = try #require(try lineCount("body"))
    let title = try #require(try lineCount("largeTitle"))
    #expect(title > body, "\(title) lines in a large title, \(body) in body text")
  }

  /// Cells do not convert to px: `--width 40` for html is a usage error that says so, not a silent 320 px
  /// (issue 37, item 6); `px` for the terminal is one too.
  @Test func aWidthInTheWrongUnitIsAUsageError() throws {
    let html = try Command.run(["--format", "html", "--width", "40"], stdin: Data("Hello".utf8))
    #expect(html.status == 2)
    #expect(html.stderr == "unfold: --width 40 is in cells; html needs px (e.g. --width 40px)\n")
    let wide = try Command.run(["--format", "html", "--width", "320"], stdin: Data("Hello".utf8))
    #expect(wide.stderr == "unfold: --width 320 is in cells; html needs px (e.g. --width 320px)\n")
    #expect(html.stdout.isEmpty)
    let terminal = try Command.run(["--format", "plain", "--width", "300px"], stdin: Data("Hello".utf8))
    #expect(terminal.status == 2)
    let json = try Command.run(["--format", "json", "--width", "40"], stdin: Data("Hello".utf8))
    #expect(json.status == 0)
  }

  /// Flags that contradict each other are a usage error naming both (issue 37, item 9).
  @Test func conflictingFlagsAreAUsageErrorNamingBoth() throws {
    for (flags, message) in [
      (["--scroll", "--truncation", "head"], "--scroll and --truncation conflict"),
      (["--scroll", "--toggle", "below"], "--scroll and --toggle conflict"),
      (["--scroll", "--expanded"], "--scroll and --expanded conflict"),
      (["--text-style", "body", "--format", "plain"], "--text-style and --format plain conflict"),
      (["--id", "comment-42"], "--id names the html container"),
      (["--theme", "light", "--format", "html"], "--theme sets the fade of the terminal's output"),
      (["--font", "/nonexistent/Font.ttf"], "--font sets the fonts of html: give --format html"),
      (["--font-dir", "/usr/share/fonts", "--format", "plain"], "--font-dir sets the fonts of html"),
      (["--fallback", "/nonexistent/Font.ttf"], "--fallback sets the fonts of html"),
      (["--no-fallback", "--format", "breaks"], "--no-fallback sets the fonts of html"),
      (["--font-size", "20"], "--font-size sets the fonts of html"),
      (["--line-height", "20"], "--line-height sets the fonts of html"),
      (["--kerning", "--format", "json"], "--kerning sets the fonts of html: json measures in fonts only with"),
      (["--standalone"], "--standalone writes an html page's fonts: give --format html"),
      (["--font-url", "/fonts/", "--format", "json", "--width", "300px"], "--font-url writes an html page's fonts"),
    ] {
      let result = try Command.run(flags, stdin: Data("Hello".utf8))
      #expect(result.status == 2, "\(flags)")
      #expect(result.stderr.hasPrefix("unfold: \(message)"), "\(flags): \(result.stderr)")
    }
  }

  /// `--theme light` fades the cut line towards a light background, in place of the dark default (issue 37,
  /// item 10).
  @Test func theThemeChoosesWhereTheFadeGoes() throws {
    func greys(_ theme: String) throws -> [Int] {
      let output = try Command.run(
        ["--theme", theme, "--color", "truecolor", "--width", "30"], stdin: Data(sample.utf8)
      ).stdout
      return output.matches(of: /38;2;(\d+);\d+;\d+m/).map { Int($0.1)! }
    }
    let light = try greys("light")
    let dark = try greys("dark")
    #expect(light.count == 6 && dark.count == 6)
    #expect(light == light.sorted() && light.last! > 150, "\(light)")
    #expect(dark == dark.sorted(by: >) && dark.last! < 100, "\(dark)")
  }

  /// A style that no `--font` file gives is drawn in another face, as it is: a note names the styles and the face.
  @Test func stylesWithoutAFontFileAreNamed() throws {
    let folder = "/usr/share/fonts/truetype/dejavu"
    let one = try Command.run(
      ["--format", "html", "--font-url", "", "--font", "\(folder)/DejaVuSans.ttf"], stdin: Data("**b**".utf8))
    #expect(one.status == 0)
    #expect(
      one.stderr
        == "unfold: note: the --font files have no bold, italic, bold italic or code face: drawn in DejaVuSans.ttf as it is (the page turns font synthesis off, so no bold or slant is made up)\n"
    )
    let two = try Command.run(
      [
        "--format", "html", "--font-url", "", "--font", "\(folder)/DejaVuSans.ttf", "--font",
        "\(folder)/DejaVuSans-Bold.ttf",
      ],
      stdin: Data("x".utf8))
    #expect(two.stderr.contains("have no italic or code face: drawn in DejaVuSans.ttf"))
    #expect(two.stderr.contains("have no bold italic face: drawn in DejaVuSans-Bold.ttf"))
    let all = ["DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSans-BoldOblique", "DejaVuSansMono"]
    let whole = try Command.run(
      ["--format", "html", "--font-url", ""] + all.flatMap { ["--font", "\(folder)/\($0).ttf"] }, stdin: Data("x".utf8))
    #expect(whole.status == 0 && whole.stderr.isEmpty)
  }

  /// Fonts named by file name alone (no `--font-url`) are said once, with the files the page needs; an empty
  /// `--font-url` keeps the names without the note, as do a prefix and a whole page.
  @Test func fontsNamedByFileNameAreSaidOnce() throws {
    let input = Data("Some **bold** words and 混合".utf8)
    let bare = try Command.run(["--format", "html", "--width", "200px"], stdin: input)
    #expect(bare.status == 0)
    let notes = bare.stderr.split(separator: "\n").filter { $0.contains("named by file name alone") }
    #expect(notes.count == 1)
    #expect(notes.first?.contains("DejaVuSans.ttf, DejaVuSansMono.ttf") == true)
    #expect(notes.first?.contains("NotoSansCJK-Regular.ttc") == true, "\(bare.stderr)")
    for flags in [["--font-url", ""], ["--font-url", "/fonts/"], ["--standalone"]] {
      let named = try Command.run(["--format", "html", "--width", "200px"] + flags, stdin: input)
      #expect(!named.stderr.contains("named by file name alone"), "\(flags)")
    }
  }

  @Test func fontErrorsNameTheFile() throws {
    let missing = try Command.run(["--format", "html", "--font", "/nonexistent/Font.ttf"], stdin: Data("x".utf8))
    #expect(missing.status == 1)
    #expect(missing.stderr == "unfold: /nonexistent/Font.ttf: no such font file\n")
    let notAFont = try Command.run(["--format", "html", "--font", "/etc/hostname"], stdin: Data("x".utf8))
    #expect(notAFont.status == 1)
    #expect(notAFont.stderr.hasPrefix("unfold: /etc/hostname: not a TrueType or OpenType font"))
    let pixels = try Command.run(["--width", "240px"], stdin: Data("x".utf8))
    #expect(pixels.status == 2)
    #expect(pixels.stderr == "unfold: --width in px applies to --format html and json only\n")
  }

  @Test func jsonInPixelsUsesTheFonts() throws {
    let result = try Command.run(["--format", "json", "--width", "100px", "--lines", "1"], stdin: Data(sample.utf8))
    let object = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["unit"] as? String == "px/65536")
    let lines = try #require(object["lines"] as? [[String: Any]])
    #expect((lines.first?["width"] as? Int ?? .max) <= 100 * 65536)
  }

  @Test func missingGlyphsAreAWarning() throws {
    let result = try Command.run(
      ["--format", "html", "--no-fallback"], stdin: Data("Chinese 中文 is not in DejaVu Sans".utf8))
    #expect(result.status == 0)
    #expect(result.stderr.hasPrefix("unfold: warning: 2 characters have no glyph in the fonts"))
    // Expanded, the whole text is checked and its characters counted in the same pass.
    let expanded = try Command.run(
      ["--format", "html", "--expanded", "--no-fallback"],
      stdin: Data("中文 and 한국어 e\u{301} are not in DejaVu Sans".utf8))
    #expect(expanded.stderr.hasPrefix("unfold: warning: 5 characters have no glyph in the fonts"))
    // The default chain draws Chinese and Korean; Tangut is in none of its fonts.
    let chained = try Command.run(["--format", "html", "--expanded"], stdin: Data("中文 한국어 and 𗀀𗀁".utf8))
    #expect(chained.stderr.hasPrefix("unfold: warning: 2 characters have no glyph in the fonts"))
    // A control character is drawn as its picture, which is what the fonts lack: named as drawn.
    let escape = try Command.run(["--format", "html", "--font-url", ""], stdin: Data("a\u{1B}b".utf8))
    #expect(
      escape.stderr
        == "unfold: warning: 1 character has no glyph in the fonts (the first: \"␛\", drawn for U+001B); the browser chooses their width, so its lines may differ\n"
    )
  }
}

/// The terminal never receives a control from the input: ≥ 30 injection payloads, in text, labels and URLs.
@Suite struct TerminalInjectionTests {
  static let payloads: [String] = [
    "\u{1B}[2J\u{1B}[H", "\u{1B}[31mred", "\u{1B}[1A\u{1B}[2K forged line", "\u{1B}[?1049h", "\u{1B}[?25l",
    "\u{1B}]0;pwned title\u{07}", "\u{1B}]2;title\u{1B}\\", "\u{1B}]52;c;cGF5bG9hZA==\u{07}",
    "\u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\", "\u{1B}P+q544e\u{1B}\\",
    "\u{1B}_APC payload\u{1B}\\",
    "\u{1B}^PM payload\u{1B}\\", "\u{1B}XSOS payload\u{1B}\\", "\u{9B}2J", "\u{9D}0;c1 title\u{9C}", "\u{90}dcs\u{9C}",
    "\u{9E}pm\u{9C}", "\u{9F}apc\u{9C}", "\u{07}bell", "\u{08}\u{08}\u{08}backspaces", "carriage\rreturn",
    "\u{0B}vertical\u{0C}form", "\u{7F}delete", "\u{00}nul", "\u{1B}c reset", "\u{1B}[6n report", "\u{1B}[21t",
    "\u{1B}[>c", "\u{1B}[?2004h paste", "\u{85}next line \u{1B}[s\u{1B}[u", "\u{1B}\u{1B}[[A",
    // Bidi formatting characters ("Trojan Source"): they take part in the engine's reordering, never reach the
    // terminal.
    "\u{202E}evil\u{202C} text", "\u{2067}isolated\u{2069} after", "\u{200F}mark \u{061C}alm \u{200E}",
    "עברית \u{202D}override\u{202C} and \u{2066}x\u{2069}", "\u{202B}embedded \u{202A}both\u{202C}\u{202C}",
  ]

  /// Every escape in the output is one the renderer writes: SGR (`ESC [ … m`) or OSC 8 with an allowed URL.
  static func foreignControls(_ output: String) -> [String] {
    var problems: [String] = []
    let scalars = Array(output.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\u{1B}" {
        let rest = String(String.UnicodeScalarView(scalars[index...].prefix(200)))
        if let match = rest.firstMatch(of: /^\u{1B}\[[0-9;]*m/) {
          index += match.0.unicodeScalars.count
          continue
        }
        if let match = rest.firstMatch(of: /^\u{1B}\]8;(id=[A-Za-z0-9_-]+)?;(https?:|mailto:)?[!-~]*?\u{1B}\\/) {
          if match.2 == nil && !match.0.hasSuffix(";;\u{1B}\\") { problems.append("OSC 8 to \(match.0)") }
          index += match.0.unicodeScalars.count
          continue
        }
        problems.append("escape \(rest.prefix(12).debugDescription)")
      } else if (scalar.value < 0x20 && scalar != "\n") || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
        || [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].contains(
          scalar.value)
      {
        problems.append("control U+\(String(scalar.value, radix: 16))")
      }
      index += 1
    }
    return problems
  }

  @Test func noPayloadReachesTheTerminal() throws {
    #expect(Self.payloads.count >= 30)
    for payload in Self.payloads {
      let inputs: [(String, [String])] = [
        (payload + " and more text that wraps over the width", ["--lines", "1"]),
        ("[text](<https://ok.example/\(payload)>) and [x](\(payload))", []),
        ("plain text long enough to be cut here and there", ["--lines", "1", "--more-label", payload]),
        ("plain", ["--expanded", "--less-label", payload]),
        (payload + " and more text", ["--expanded"]),
      ]
      for (input, flags) in inputs {
        for mode in [[], ["--verbatim"], ["--bidi", "logical"]] {
          for colors in [["--color", "truecolor"], ["--color", "never"]] {
            let result = try Command.run(["--width", "24"] + flags + mode + colors, stdin: Data(input.utf8))
            #expect(result.status == 0)
            let problems = Self.foreignControls(result.stdout)
            #expect(problems.isEmpty, "\(payload.debugDescription) \(flags) \(mode): \(problems)")
          }
        }
      }
    }
  }

  @Test func theCheckCatchesARawEscape() {
    #expect(!Self.foreignControls("a\u{1B}[2Jb").isEmpty)
    #expect(!Self.foreignControls("a\u{202E}b").isEmpty)
    #expect(!Self.foreignControls("a\u{9B}b").isEmpty)
    #expect(!Self.foreignControls("\u{1B}]8;;javascript:x\u{1B}\\").isEmpty)
    #expect(
      Self.foreignControls("\u{1B}[1;34mok\u{1B}[0m\u{1B}]8;id=u1-2;https://e.com/\u{1B}\\x\u{1B}]8;;\u{1B}\\\n")
        .isEmpty)
  }

  @Test func anEndlessInputIsPreviewedWithoutReadingItAll() throws {
    // `yes` never ends: the command can only finish if it stops reading once it knows the preview.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", "yes 'an endless stream of words' | '\(Command.executable.path)' --verbatim --width 30 --format plain",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(
      String(decoding: data, as: UTF8.self)
        == "an endless stream of words\nan endless stream of words\nan endless stream of… more\n")
  }

  @Test func aLongInputCutInTheMiddleShowsItsRealEnd() throws {
    // Only a tail truncation can stop reading early: a middle one shows the last words of the whole input.
    let input = String(repeating: "words in the middle of a long input ", count: 5_000) + "THE END"
    let result = try Command.run(
      ["--verbatim", "--width", "30", "--lines", "2", "--truncation", "middle", "--format", "plain"],
      stdin: Data(input.utf8))
    #expect(result.stdout == "words in the middle of a long\ninput words…nput THE END more\n")
  }

  @Test func helpGivesAnExampleForEveryFlag() throws {
    let help = try Command.run(["--help"]).stdout
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    var missing: [String] = []
    for (index, line) in lines.enumerated() where line.hasPrefix("  -") {
      let block = lines[(index + 1)...].prefix { !$0.hasPrefix("  -") && !$0.isEmpty }
      if !block.contains(where: { $0.contains("e.g. unfold") })
        && !["--help", "--version"].contains(where: { line.contains(" \($0)") })
      {
        missing.append(String(line.prefix(30)))
      }
    }
    #expect(missing.isEmpty, "no example for \(missing)")
  }
}
