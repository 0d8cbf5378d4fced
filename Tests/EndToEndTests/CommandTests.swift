import Foundation
import TestSupport
import Testing

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

  @Test func invalidUTF8IsARuntimeErrorWithTheByteOffset() throws {
    let result = try Command.run([], stdin: Data([0x61, 0x62, 0x63, 0xFF, 0x64]))
    #expect(result.status == 1)
    #expect(result.stderr == "unfold: standard input: invalid UTF-8 at byte 3\n")
    #expect(result.stdout == "")
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
    (["--more-style", "bold purple"], "--more-style: 'purple' is not a style attribute or a colour (a name, #rrggbb, rgb(r,g,b) or color(n))"),
    (["a.md", "b.md"], "more than one input file: 'b.md'"),
  ])
  func usageErrorsExitWithTwoAndOneLine(_ arguments: [String], _ message: String) throws {
    let result = try Command.run(arguments)
    #expect(result.status == 2)
    #expect(result.stderr == "unfold: \(message)\n")
  }

  @Test func helpListsEveryFlagAndVersionPrints() throws {
    let help = try Command.run(["--help"])
    #expect(help.status == 0)
    for flag in [
      "--width", "--lines", "--verbatim", "--format", "--expanded", "--more-label", "--less-label", "--color", "--help",
      "--version",
    ] {
      #expect(help.stdout.contains(flag), "\(flag)")
    }
    #expect(try Command.run(["--version"]).stdout == "unfold 0.1.0\n")
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
    let bad = try Command.run(["--breaks", "icu"])
    #expect(bad.status == 2)
    #expect(bad.stderr == "unfold: --breaks must be one of unicode|chromium, not 'icu'\n")
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
    #expect(result.stdout == "checked 17 keys in 1 tables: 0 problems\n")
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
    #expect(page.stdout.contains("font-size:15px;line-height:22px;"))
    let prefixed = try Command.run(["--format", "html", "--font-url", "/fonts/"], stdin: input)
    #expect(prefixed.stdout.contains("src:url(\"/fonts/DejaVuSans.ttf\")"))
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
    #expect(object["unit"] as? String == "px/4096")
    let lines = try #require(object["lines"] as? [[String: Any]])
    #expect((lines.first?["width"] as? Int ?? .max) <= 100 * 4096)
  }

  @Test func missingGlyphsAreAWarning() throws {
    let result = try Command.run(["--format", "html"], stdin: Data("Chinese 中文 is not in DejaVu Sans".utf8))
    #expect(result.status == 0)
    #expect(result.stderr.hasPrefix("unfold: warning: 2 characters have no glyph in the fonts"))
  }
}
