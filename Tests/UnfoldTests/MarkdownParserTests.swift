import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// The parse stage: inline-only markdown with whitespace preserved, as SwiftUI's `Text` does.
@Suite struct MarkdownParserTests {
  func dump(_ markdown: String) -> String { MarkdownParser.parse(markdown).text.debugDump() }

  @Test func eachStyleAndItsNesting() {
    #expect(
      dump("**b** *i* ~~s~~ `c` [l](https://x.y)") == """
        bold "b"
        plain " "
        italic "i"
        plain " "
        strikethrough "s"
        plain " "
        code "c"
        plain " "
        link="https://x.y" "l"

        """)
    #expect(
      dump("**a *b* [`c`](http://d)**") == """
        bold "a "
        bold italic "b"
        bold " "
        bold code link="http://d" "c"

        """)
  }

  /// A backtick fence is a code span, as Apple's inline-only parse reads it: the info string and the lines joined
  /// by spaces in one span, the newline after the closing fence kept; a tilde fence stays literal.
  @Test func aBacktickFenceIsACodeSpanAndATildeFenceIsText() {
    let fenced = MarkdownParser.parse("Try:\n```swift\nlet p = 1\nprint(p)\n```\nafter").text
    #expect(
      fenced.debugDump() == """
        plain "Try:\\n"
        code "swift let p = 1 print(p) "
        plain "\\nafter"

        """)
    let tilde = MarkdownParser.parse("~~~\nlet p = 1\n~~~\nafter").text
    #expect(tilde.debugDump() == "plain \"~~~\\nlet p = 1\\n~~~\\nafter\"\n")
  }

  @Test func blockSyntaxStaysLiteralAndWhitespaceIsKept() {
    let text = MarkdownParser.parse("# Heading\n- item *one*\n> quote\n\n    indented code\n```\nfence\n```").text
    #expect(text.string == "# Heading\n- item one\n> quote\n\n    indented code\nfence")
    #expect(MarkdownParser.parse("  lead  and trail  \nnext").text.string == "  lead  and trail  \nnext")
    #expect(MarkdownParser.parse("a\n\n\nb  ").text.string == "a\n\n\nb  ")
  }

  @Test func codeSpansFollowCommonMarkAcrossNewlines() {
    #expect(dump("`code\nspan`  and ``` x ```") == "code \"code span\"\nplain \"  and \"\ncode \"x\"\n")
    #expect(dump("`\nx\n`") == "code \"x\"\n")
    #expect(dump("``  a  ``") == "code \" a \"\n")
  }

  @Test func escapesEntitiesRawHTMLAndImages() {
    #expect(MarkdownParser.parse("\\*x\\* &amp; &copy; &#42;").text.string == "*x* & © *")
    #expect(MarkdownParser.parse("<b>raw</b> <!-- c -->").text.string == "<b>raw</b> <!-- c -->")
    #expect(dump("![alt *x*](i.png)") == "plain \"alt \"\nitalic \"x\"\n")
  }

  @Test func backslashBeforeNewlineIsALineBreakButAnEscapedBackslashIsNot() {
    #expect(MarkdownParser.parse("a\\\nb").text.string == "a\nb")
    #expect(MarkdownParser.parse("a\\\\\nb").text.string == "a\\\nb")
    #expect(MarkdownParser.parse("a \\ b").text.string == "a \\ b")
  }

  @Test func aBackslashBeforeTheNewlineThatEndsAChunkIsALineBreak() {
    #expect(MarkdownParser.parse("foo\\\n").text.string == "foo\n")
    #expect(MarkdownParser.parse("foo\\\n\nbar").text.string == "foo\n\nbar")
    #expect(MarkdownParser.parse("a  \n\nb").text.string == "a  \n\nb")
  }

  @Test func aDestinationWithANewlineIsNoLink() {
    #expect(dump("[link](foo\nbar)") == "plain \"[link](foo\\nbar)\"\n")
    #expect(dump("x [*a*](b\nc) y") == "plain \"x [\"\nitalic \"a\"\nplain \"](b\\nc) y\"\n")
    #expect(MarkdownParser.parse("<http://a\nb>", autolinks: false).text.debugDump() == "plain \"<http://a\\nb>\"\n")
    // As on GitHub, the bare URL before the newline is a link of its own.
    #expect(dump("<http://a\nb>") == "plain \"<\"\nlink=\"http://a\" \"http://a\"\nplain \"\\nb>\"\n")
    #expect(dump("[](a\nb)") == "plain \"[](a\\nb)\"\n")
    #expect(dump("![*i*](a\nb)") == "plain \"![\"\nitalic \"i\"\nplain \"](a\\nb)\"\n")
  }

  @Test func aNewlineAroundADestinationIsSpace() {
    #expect(dump("[link](   /uri\n  \"title\"  )") == "link=\"/uri\" \"link\"\n")
  }

  @Test func singleTildeStrikesAndTripleDoesNot() {
    #expect(dump("~a~ ~~~b~~~") == "strikethrough \"a\"\nplain \" ~~~b~~~\"\n")
  }

  @Test func emphasisDoesNotCrossABlankLine() {
    #expect(dump("*a\n\nb*") == "plain \"*a\\n\\nb*\"\n")
    #expect(dump("*a\nb*") == "italic \"a\\nb\"\n")
  }

  @Test func aChunkThatUsesEverySentinelIsLiteralWithADiagnostic() {
    let spaces = (0x2000...0x200A).map { String(UnicodeScalar($0)!) }.joined() + "\u{202F}\u{205F}\u{3000}"
    let result = MarkdownParser.parse("**x** \(spaces)\n\n**y**")
    #expect(result.text.string == "**x** \(spaces)\n\ny")
    #expect(result.diagnostics.map(\.kind) == [.literalFallback])
    #expect(result.diagnostics.first?.offset == 0)
  }

  /// The newline's stand-in is a space the chunk does not hold: with every other candidate present (and a
  /// 4-byte emoji and other 3-byte characters around them), each one in turn must be the one chosen, and the
  /// others come back unchanged.
  @Test func theSentinelIsTheOneCandidateTheChunkLacks() {
    let candidates = (0x2000...0x200A).map { UnicodeScalar($0)! } + ["\u{202F}", "\u{205F}", "\u{3000}"]
    for missing in candidates {
      let others = candidates.filter { $0 != missing }.map { "\($0)😀語" }.joined()
      let result = MarkdownParser.parse("\(others) *a\nb*")
      #expect(result.text.string == "\(others) a\nb")
      #expect(result.diagnostics.isEmpty)
    }
  }

  /// Blank lines (of spaces and tabs, too) are literal pieces between the chunks, at the start and the end as
  /// well; a chunk keeps the newline of its last line; `onlyBlankLines` is true after the last chunk only.
  @Test func piecesAlternateBetweenBlankLinesAndChunks() {
    var text = "\n \t\na\nb\n\n\nc \n  \n"
    let pieces = Chunking.pieces(of: text)
    // "\n \t\n", "a\nb\n", "\n\n", "c \n", "  \n"
    #expect(pieces == [.literal(0..<4), .markdown(4..<8), .literal(8..<10), .markdown(10..<13), .literal(13..<16)])
    #expect(Chunking.pieces(of: "") == [])
    #expect(Chunking.pieces(of: "x") == [.markdown(0..<1)])
    #expect(Chunking.pieces(of: "\n\n") == [.literal(0..<2)])
    #expect(Chunking.pieces(of: "a\n\nb") == [.markdown(0..<2), .literal(2..<3), .markdown(3..<4)])
    let ends = text.withUTF8 { bytes in
      pieces.compactMap { piece -> Bool? in
        guard case .markdown(let chunk) = piece else { return nil }
        return Chunking.onlyBlankLines(after: chunk.upperBound, in: bytes)
      }
    }
    #expect(ends == [false, true])
  }

  /// Trimming a chunk's trailing spaces and tabs by its bytes trims what trimming its characters does: 5,000
  /// random texts of letters, spaces, tabs, a combining mark (which a space before it carries), a prepended
  /// mark (which takes the space after it) and ideographs.
  @Test func trimmingTrailingSpacesByBytesIsTrimmingThemByCharacters() {
    let pieces = ["a", " ", "\t", "\u{301}", "\u{600}", "語", "é", "\n"]
    var random = SplitMix64(state: 0x7124)
    for _ in 0..<5_000 {
      var text = (0..<random.below(8)).map { _ in random.pick(pieces) }.joined()
      let byCharacters = text[...].trimmingSuffix(while: { $0 == " " || $0 == "\t" })
      let trimmed = text.withUTF8 { Chunking.trailingSpacesAndTabs(of: 0..<$0.count, in: $0) }
      #expect(text.utf8.count - trimmed == byCharacters.utf8.count, "\(text.debugDescription)")
    }
  }

  /// Each chunk's tree is made in an arena of the parsing thread and freed with it once read: none is left
  /// after a parse, of a comment or of a document of many chunks, nor after one shown as literal text.
  @Test func theArenaOfEachChunkIsFreedAfterTheParse() {
    let paragraph = "Words with **bold**, *italic*, ~~struck~~, `code`, [a link](https://e.com) and &amp;.\n"
    for markdown in [
      paragraph, String(repeating: paragraph + "\n", count: 400),
      String(repeating: paragraph, count: 400),
      // Every candidate sentinel in a chunk of two lines, then a chunk that is parsed.
      "**a**" + (0x2000...0x200A).map { String(Unicode.Scalar($0)!) }.joined() + "\u{202F}\u{205F}\u{3000}\nb\n\n*c*",
    ] {
      let text = MarkdownParser.parse(markdown).text
      #expect(!text.runs.isEmpty)
      #expect(MarkdownParser.arenaBlocksOnThisThread == 0)
    }
  }

  /// gfm.6 changes a process-global table on every parse and loses styles under concurrency without the
  /// lock: 8 tasks × 1,000 parses of a comment with every style (strikethrough is the extension that races).
  @Test func parsesFromManyTasksWithoutLosingStyles() async {
    let comment = "~~x~~ **y** *z* `c` [l](https://e.com) ~w~ plain text after\nand a second line"
    let expected = MarkdownParser.parse(comment).text
    #expect(expected.runs.count == 12)
    let lost = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          (0..<1_000).reduce(0) { count, _ in count + (MarkdownParser.parse(comment).text == expected ? 0 : 1) }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(lost == 0)
  }
}

/// The byte searches the parser's scans are made of, against a naive search.
@Suite struct UTF8SearchTests {
  /// A newline's stand-in (three bytes, found by its lead byte and compared) is found where a naive search finds
  /// it, among its lead byte alone, other code points that share it and the other candidates.
  @Test func aSentinelIsFoundWhereANaiveSearchFindsIt() {
    let pieces = ["a", "\u{2000}", "\u{2001}", "\u{3000}", "中", "\u{E2}", " ", "\n", "é", "—", "\u{2000}\u{2001}"]
    let sentinels: [Unicode.Scalar] = ["\u{2000}", "\u{2001}", "\u{3000}"]
    var random = SplitMix64(state: 11)
    for _ in 0..<3_000 {
      let text = (0..<random.below(12)).map { _ in random.pick(pieces) }.joined()
      let sentinel = random.pick(sentinels)
      let pattern = Array(String(sentinel).utf8)
      let bytes = Array(text.utf8)
      let naive = bytes.indices.first { bytes[$0...].starts(with: pattern) }
      let found = bytes.withUnsafeBufferPointer { SentinelBytes(sentinel).firstOffset(in: $0) }
      #expect(found == naive, "\(text.debugDescription) \(pattern)")
      // The first candidate the text lacks.
      let chosen = bytes.withUnsafeBufferPointer { Sentinel.choose(for: $0) }
      #expect(chosen == Sentinel.candidates.first { !text.unicodeScalars.contains($0) })
    }
    let all = Array(Sentinel.candidates.map(String.init).joined().utf8)
    #expect(all.withUnsafeBufferPointer { Sentinel.choose(for: $0) } == nil)
    #expect(all.dropFirst(3).withUnsafeBufferPointer { Sentinel.choose(for: $0) } == Sentinel.candidates[0])
  }

  /// The parser hands cmark's bytes to the builder, which checks only that each piece is cut at code points;
  /// were they ever not, `build()` checks them all and repairs them run by run (U+FFFD, as `String(decoding:)`),
  /// the runs' lengths with them: no crash, no text lost.
  ///
  /// A character split between two pieces stays whole.
  @Test func theBuilderRepairsBytesThatAreNotUTF8RunByRun() {
    var builder = StyledText.Builder()
    builder.append("ab")
    [0xFF, 0x41, 0xE4, 0xB8].withUnsafeBufferPointer { builder.append(utf8: $0, style: Style(.bold)) }
    [0xAD, 0x43].withUnsafeBufferPointer { builder.append(utf8: $0, style: Style(.italic)) }
    builder.append("d", style: Style(.italic))
    let text = builder.build()
    #expect(text.string == "ab\u{FFFD}A\u{FFFD}\u{FFFD}Cd")
    #expect(text.runs.map(\.length) == [2, 7, 5])
    #expect(text.runs.map(\.style) == [.plain, Style(.bold), Style(.italic)])
    // Across the builder's flushes to its string (every 64 KiB): a run begun before one is repaired in place.
    var long = StyledText.Builder()
    long.append(String(repeating: "a", count: 70_000))
    [0xFF].withUnsafeBufferPointer { long.append(utf8: $0, style: .plain) }
    [0x62, 0xC3].withUnsafeBufferPointer { long.append(utf8: $0, style: Style(.bold)) }
    let longText = long.build()
    #expect(longText.string == String(repeating: "a", count: 70_000) + "\u{FFFD}b\u{FFFD}")
    #expect(longText.runs.map(\.length) == [70_003, 4])
    var valid = StyledText.Builder()
    "中".utf8.map { $0 }.withUnsafeBufferPointer { valid.append(utf8: $0, style: .plain) }
    #expect(valid.build() == StyledText(plain: "中"))
    var split = StyledText.Builder()
    [0x61, 0xE4, 0xB8].withUnsafeBufferPointer { split.append(utf8: $0, style: .plain) }
    [0xAD].withUnsafeBufferPointer { split.append(utf8: $0, style: Style(.bold)) }
    #expect(split.build().string == "a中")
  }
}
