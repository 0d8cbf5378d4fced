import Foundation
import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// Bad and extreme input across the API: each gets a defined result, never a crash or lost text.
@Suite struct BadInputTests {
  let text = "The quick brown fox jumps over the lazy dog and keeps running far away."

  @Test func aWidthOfZeroOrLessActsAsOne() throws {
    let paragraph = Paragraph(verbatim: text).lineLimit(2)
    for width in [0, -1, Int.min] {
      #expect(paragraph.plain(width: width) == paragraph.plain(width: 1))
      #expect(paragraph.plain(width: width, state: .expanded) == paragraph.plain(width: 1, state: .expanded))
    }
    let fonts = try FontSet.dejaVu(fallbacks: [])
    for width in [0.0, -3.0, -.infinity, .nan] {
      #expect(paragraph.html(width: width, fonts: fonts).html.contains("The"))
    }
  }

  @Test func aLineLimitOfZeroOrLessActsAsOne() {
    for limit in [0, -4, Int.min] {
      #expect(
        Paragraph(verbatim: text).lineLimit(limit).plain(width: 30)
          == Paragraph(verbatim: text).lineLimit(1).plain(width: 30))
    }
  }

  /// A width narrower than the label: never a cut label, never a line wider than the width (issue 37, item 12).
  ///
  /// A label that fits a line alone goes below the text; one wider than the line is not drawn.
  @Test func aWidthNarrowerThanTheLabel() {
    let narrow = Paragraph(verbatim: text).lineLimit(1).moreLabel("Read more").plain(width: 4)
    #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 4 })
    #expect(!narrow.contains("Read"))
    #expect(narrow.hasSuffix("…\n"))
    let below = Paragraph(verbatim: text).lineLimit(1).moreLabel("Read more").plain(width: 10)
    #expect(below.split(separator: "\n").last == "Read more")
    #expect(below.split(separator: "\n").allSatisfy { $0.count <= 10 })
  }

  /// Ten megabytes without a space: a collapsed view lays out its start only; an expanded one breaks it at
  /// grapheme boundaries into lines of exactly the width.
  @Test func aTenMegabyteWord() {
    let word = String(repeating: "abcdefghij", count: 1_000_000)
    let collapsed = Paragraph(verbatim: word).lineLimit(3).truncated(width: 80, state: .collapsed)
    #expect(collapsed.isTruncated && collapsed.lines.count == 3)
    #expect(collapsed.lines.map(\.width) == [80, 80, 80])
    let megabyte = String(word.prefix(1_000_000))
    let layout = LineLayout(StyledText(plain: megabyte), width: 80)
    #expect(layout.lines.count == 12_500)
    #expect(layout.lines.allSatisfy { $0.width == 80 })
  }

  /// One base with 100,000 combining marks is one grapheme cluster of one cell: it stands on a line of its
  /// own when it must, and every mark reaches the output.
  @Test func aHundredThousandCombiningMarksOnOneBase() throws {
    let cluster = "e" + String(repeating: "\u{301}", count: 100_000)
    let source = "before " + cluster + " after"
    #expect(source.count == 7 + 1 + 6)  // "before ", the cluster, " after"
    let output = Paragraph(verbatim: source).lineLimit(2).plain(width: 6, state: .expanded)
    #expect(output == "before\n" + cluster + "\nafter\n")
    let html = Paragraph(verbatim: source).html(width: 300, fonts: try FontSet.dejaVu(fallbacks: []), state: .expanded)
      .html
    #expect(html.unicodeScalars.filter { $0 == "\u{301}" }.count == 100_000)
  }

  /// Deeply nested emphasis, links and brackets parse without deep recursion and keep every letter.
  @Test func deeplyNestedMarkup() {
    // 2,499 levels of strong around one of emphasis, within one chunk.
    let stars = String(repeating: "*", count: 4_999)
    let emphasis = MarkdownParser.parse(stars + "a" + stars)
    #expect(emphasis.text.string == "a")
    #expect(emphasis.text.runs.first?.style.traits == [.bold, .italic])
    // Past 16 KiB the paragraph is parsed in pieces: what spans a cut stays literal, with a diagnostic.
    let deeper = String(repeating: "*", count: 20_000)
    let split = MarkdownParser.parse(deeper + "a" + deeper)
    #expect(split.text.string.contains("a") && split.diagnostics.map(\.kind) == [.paragraphSplit])
    let links = String(repeating: "[", count: 30_000) + "x" + String(repeating: "](https://e.com)", count: 30_000)
    let parsed = MarkdownParser.parse(links)
    #expect(parsed.text.string.contains("x"))
    #expect(!Paragraph(LocalizedKey(links)).plain(width: 40, state: .expanded).isEmpty)
  }
}

/// The invariants of issue 9, over generated texts at random widths, limits, modes and placements.
@Suite struct InvariantTests {
  /// Generated paragraphs: words in several scripts, emoji, combining marks, tabs, newlines, soft hyphens,
  /// controls, escape sequences, very long words and markdown markers.
  static func paragraphs(count: Int, seed: UInt64) -> [String] {
    var random = SplitMix64(state: seed)
    let pieces = [
      "word", "quick", "über", "naïve", "日本語", "한국어", "العربية", "עברית", "हिन्दी", "ไทย", "👨‍👩‍👧", "🇺🇸", "e\u{301}",
      "a\tb", "\n", "\n\n", "soft\u{AD}hyphen", "\u{1B}[31mred", "\u{07}", "\u{85}", "x\u{200B}y",
      "verylongwordwithoutanyspaceatallthatmustbebroken", "**bold**", "*it*", "~~gone~~", "`code`",
      "[link](https://example.com)", "<b>", "&amp;", "  ", " ",
    ]
    return (0..<count).map { _ in
      (0..<(1 + random.below(40))).map { _ in random.pick(pieces) }.joined(separator: random.pick([" ", " ", ""]))
    }
  }

  @Test func layoutsAndTruncationsKeepTheirPromises() {
    var random = SplitMix64(state: 9)
    let modes: [TruncationMode] = [.tail, .middle, .head]
    let toggles: [TogglePlacement] = [.inline, .below, .overlay, .none]
    for text in Self.paragraphs(count: 300, seed: 1) {
      let styled = TextSource(LocalizedKey(text)).resolve().text
      let width = 1 + random.below(60)
      let options = TruncationOptions(
        lineLimit: 1 + random.below(5), mode: random.pick(modes), toggle: random.pick(toggles),
        reservesSpace: random.below(4) == 0)
      let violation = Invariants.truncationViolation(
        styled, measurer: TerminalCells(), width: width, options: options)
      #expect(violation == nil, "width \(width): \(text.debugDescription)")
    }
  }

  /// An expanded view written from the runs of the lines that draw as one fragment per run is the view
  /// written from every line drawn: 400 generated paragraphs (tabs, soft hyphens, controls, combining marks,
  /// links, styles) at random widths, colour levels, limits and toggles.
  @Test func writingFromRunsIsWritingTheDrawnLines() {
    var random = SplitMix64(state: 17)
    let toggles: [TogglePlacement] = [.inline, .below, .overlay, .none]
    var perRunLines = 0
    for text in Self.paragraphs(count: 400, seed: 21) {
      let styled = TextSource(LocalizedKey(text)).resolve().text
      let width = 1 + random.below(60)
      let options = TruncationOptions(
        lineLimit: 1 + random.below(5), toggle: random.pick(toggles), reservesSpace: random.below(4) == 0)
      let measurer = TerminalCells()
      let context = LineLayout(
        text: styled, measurer: measurer, breaker: .unicode, width: width, lines: [], isComplete: true)
      func lines() -> WholeTextLines<SegmentStream> {
        WholeTextLines(
          SegmentStream(styled, measurer: measurer, breaker: .unicode, width: LineWidth(width)),
          drawer: LineDrawer(layout: context),
          options: options, state: .expanded)
      }
      var counting = lines()
      while let drawn = counting.nextDrawn(perRun: true) { if case .runs = drawn { perRunLines += 1 } }
      let renderer = ANSIRenderer(colors: random.pick([ColorLevel.none, .ansi16, .ansi256, .truecolor]))
      #expect(
        renderer.render(perRun: lines(), text: styled) == renderer.render(lines: lines(), fadeLine: nil),
        "width \(width): \(text.debugDescription)")
    }
    #expect(perRunLines > 1_000)
  }

  /// Lines written in visual order from the text's runs (``ANSIRenderer/write(perRun:text:direction:width:into:)``)
  /// are the bytes of the same lines drawn and then reordered by the paragraph's levels, for texts that mix Hebrew, Arabic, brackets,
  /// styles and links with left-to-right text, in paragraphs of both directions and at many widths.
  @Test func linesInVisualOrderFromTheRunsAreTheDrawnLinesReordered() {
    let texts = [
      String(repeating: "Plain **English** words, and [a link](https://a.example.org) too. ", count: 4)
        + "Then שלום (עולם) once.",
      "שלום **עולם**, זהו טקסט [עם קישור](https://b.example.org) and some English (in brackets) 123.",
      "مرحبا *بالعالم*، هذا نص ~~عربي~~ طويل مع `code` وأرقام 2026 (بين قوسين) ونهاية.",
      "Mixed: abc אבג def دجه, ghi — (xyz) [עברית] end.",
      "**Bold words שלום עולם then more** and *italic مرحبا with English* [a link עם קישור](https://c.example.org).",
    ]
    let measurer = TerminalCells()
    var random = SplitMix64(state: 38)
    for text in texts {
      let styled = TextSource(LocalizedKey(text)).resolve().text
      for direction in [TextDirection.ltr, .rtl] {
        for _ in 0..<12 {
          let width = 6 + Int(random.next() % 50)
          let context = LineLayout(
            text: styled, measurer: measurer, breaker: .unicode, width: width, lines: [], isComplete: true)
          func lines() -> WholeTextLines<SegmentStream> {
            WholeTextLines(
              SegmentStream(styled, measurer: measurer, breaker: .unicode, width: LineWidth(width)),
              drawer: LineDrawer(layout: context), options: TruncationOptions(), state: .expanded)
          }
          let renderer = ANSIRenderer(colors: .ansi256)
          var perRun = ANSIRenderer.Writer(capacity: 0)
          var uncut = lines()
          renderer.write(perRun: &uncut, text: styled, direction: direction, width: width, into: &perRun)
          #expect(
            perRun.string
              == renderer.render(
                lines: lines(), fadeLine: nil, direction: direction, width: width,
                paragraph: ParagraphLevels(levels: BidiLevels(styled.string, direction: direction), text: styled.string)
              ),
            "\(direction) width \(width): \(text)")
        }
      }
    }
  }

  /// An expanded view of markdown written a part at a time, the parts cut after blank lines, is the view of the
  /// whole text: 300 generated documents of paragraphs (with markup that spans their lines) and blank lines of
  /// several kinds (spaces, tabs, CRLF, several in a row), cut into parts of 1 to 200 bytes, at random widths,
  /// colour levels, limits, less labels and toggles, reserved space included.
  @Test func writingAnExpandedViewInPartsIsWritingItWhole() {
    var random = SplitMix64(state: 23)
    let toggles: [TogglePlacement] = [.inline, .below, .overlay, .none]
    let blankLines = ["\n\n", "\n \n", "\n\t\n", "\n\n\n", "\r\n\r\n", "\n\n  "]
    let spans = ["*one\ntwo*", "**bold\nline**", "~~gone\nnow~~", "[link\ntext](https://example.com)", "`code\nspan`"]
    let paragraphs = Self.paragraphs(count: 1_200, seed: 29)
    var cut = 0
    for index in 0..<300 {
      let document = paragraphs[(4 * index)..<(4 * index + 4)].map {
        random.pick(spans) + " " + $0.replacingOccurrences(of: "\n\n", with: "\n") + " " + random.pick(spans)
          + random.pick(blankLines)
      }.joined()
      let width = 1 + random.below(60)
      let partLength = 1 + random.below(200)
      let paragraph = Paragraph(
        LocalizedKey(document),
        options: TruncationOptions(
          lineLimit: 1 + random.below(120), lessLabel: random.pick([nil, "less", "Show less"]),
          toggle: random.pick(toggles), reservesSpace: random.below(3) == 0))
      let renderer = ANSIRenderer(colors: random.pick([ColorLevel.none, .ansi16, .truecolor]))
      var normalized = TextSource.normalizingLineEnds(document)
      let isCut =
        normalized.utf8.count > 2 * partLength
        && normalized.withUTF8 { Chunking.firstBoundary(in: $0, from: partLength) } != nil
      if isCut { cut += 1 }
      #expect(
        paragraph.expandedWriter(width: width, renderer: renderer).render(paragraph.source, partLength: partLength)
          == paragraph.ansi(width: width, state: .expanded, renderer: renderer),
        "width \(width), parts of \(partLength): \(document.debugDescription)")
    }
    #expect(cut > 200)
  }

  /// Terminal output holds no control character but the renderer's own SGR and OSC 8 sequences and newlines.
  @Test func terminalOutputHoldsNoForeignControl() {
    for (index, text) in Self.paragraphs(count: 200, seed: 3).enumerated() {
      for state in [DisplayState.collapsed, .expanded] {
        let output = Paragraph(LocalizedKey(text)).lineLimit(1 + index % 4)
          .ansi(width: 10 + index % 50, state: state, renderer: ANSIRenderer(colors: .truecolor))
        #expect(Invariants.foreignControl(inTerminalOutput: output) == nil, "\(text.debugDescription)")
      }
    }
  }

  /// A font URL prefix that could end the stylesheet's string or the style element is escaped in CSS (URLs
  /// without such characters are written as they are).
  @Test func fontURLsAreEscapedInTheStylesheet() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    let html = Paragraph(verbatim: "Hello").html(
      width: 240, fonts: fonts, state: .expanded,
      options: HTMLOptions(id: "p", fontSource: .url(prefix: "a\"b\\c<\n>/"))
    ).html
    #expect(!html.contains("a\"b"))
    #expect(html.contains("src:url(\"a\\\"b\\\\c\\3c \\a \\3e /DejaVuSans.ttf\")"))
    let plain = Paragraph(verbatim: "Hello").html(
      width: 240, fonts: fonts, state: .expanded, options: HTMLOptions(id: "p", fontSource: .url(prefix: "/fonts/"))
    ).html
    #expect(plain.contains("src:url(\"/fonts/DejaVuSans.ttf\")"))
  }

  /// CSS lengths are written from integers, not through the formatter: the same text as `%.4f` with its
  /// trailing zeros dropped, for sixty-fourths of a pixel (every width), exact ties, values a hair from a tie,
  /// and random sizes.
  @Test func cssLengthsAreTheFormattersText() {
    func reference(_ value: Double) -> String {
      var text = String(format: "%.4f", value)
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
      return text + "px"
    }
    var values: [Double] = (0..<70_000).map { Double($0) / 64 }
    values += [
      0, 0.00005, 0.00015, 0.00025, 1.00005, 2.50005, 0.03125, 0.09375, 13.333333, 16, 18.62, 1e10, 123_456.789_05,
    ]
    var random = SplitMix64(state: 41)
    for _ in 0..<20_000 {
      let value = Double(random.below(1 << 40)) / Double(1 << random.below(40))
      values += [value, value.nextUp, value.nextDown, (value * 10_000).rounded() / 10_000 + 0.00005]
    }
    for value in values where value >= 0 {
      #expect(HTMLRenderer.px(value) == reference(value), "\(value)")
    }
  }

  /// A paragraph's id hashes its text: FNV-1a's 32 bits up to 4 KiB (values from the reference algorithm, so that
  /// short texts keep their ids), and above that the 64-bit FNV-1a of little-endian words, mixed and folded (values
  /// from an implementation in Python).
  ///
  /// A byte changed anywhere in a long text changes the id (the hash of words without the shift in each step gave two
  /// pairs of texts one id among these).
  @Test func paragraphIDsHashTheirText() {
    #expect(HTMLRenderer.hash("") == 0x811C_9DC5 && HTMLRenderer.hash("a") == 0xE40C_292C)
    let block = String(repeating: "abcdefgh", count: 512)
    #expect(HTMLRenderer.hash(block) == 0x29F3_FDC5)  // 4,096 bytes: byte by byte
    #expect(HTMLRenderer.hash(block + "i") == 0x4BDC_5289)
    #expect(HTMLRenderer.hash(String(repeating: "Größe 日本語 ", count: 400)) == 0xEE6F_9552)
    var ids: Set<UInt32> = [HTMLRenderer.hash(block + block)]
    for position in stride(from: 0, to: 8_192, by: 31) {
      var bytes = Array((block + block).utf8)
      bytes[position] = UInt8(ascii: "X")
      ids.insert(HTMLRenderer.hash(String(decoding: bytes, as: UTF8.self)))
    }
    #expect(ids.count == 1 + (8_192 + 30) / 31)  // every byte of a word among them
  }

  /// The HTML escape replaces what the rule of one code point at a time replaces, and nothing else: every code
  /// point to U+00FF alone and between letters, and 2,000 generated strings of entities' characters,
  /// controls, C2 bytes of other code points, CJK and emoji (20 more long enough for several batches of
  /// replacements), and 2,000 of a few of them apart in stretches of letters up to 24 bytes long (the escape reads
  /// eight bytes at a time where none is replaced).
  @Test func htmlEscapeIsTheRuleOfOneCodePointAtATime() {
    func reference(_ text: String) -> String {
      var result = ""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#x27;"
        default: result.unicodeScalars.append(VisibleControls.visible(scalar))
        }
      }
      return result
    }
    var texts = (0...0xFF).map { String(UnicodeScalar(UInt8($0))) }
    texts += (0...0xFF).map { "a\(UnicodeScalar(UInt8($0)))b" }
    var random = SplitMix64(state: 51)
    let pieces = [
      "&", "<", ">", "\"", "'", "\u{7}", "\u{1B}", "\t", "\n", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "é", "¢", "中",
      "😀", "ab",
    ]
    texts += (0..<2_000).map { _ in (0..<random.below(12)).map { _ in random.pick(pieces) }.joined() }
    texts += (0..<20).map { _ in (0..<(300 + random.below(600))).map { _ in random.pick(pieces) }.joined() }
    func letters() -> String { String(repeating: "x", count: random.below(25)) }
    texts += (0..<2_000).map { _ in
      (0..<random.below(5)).map { _ in letters() + random.pick(pieces) }.joined() + letters()
    }
    for text in texts {
      #expect(HTMLRenderer.escape(text) == reference(text), "\(text.debugDescription)")
      #expect(HTMLRenderer.escape(text.dropFirst()) == reference(String(text.dropFirst())))
    }
  }

  /// HTML output is well formed and executes nothing but the renderer's toggle script.
  @Test func htmlIsWellFormedWithoutExecutableVectors() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    for (index, text) in Self.paragraphs(count: 150, seed: 4).enumerated() {
      let html = Paragraph(LocalizedKey(text)).lineLimit(1 + index % 4)
        .html(width: Double(60 + index * 7 % 400), fonts: fonts, state: index % 2 == 0 ? .collapsed : .expanded).html
      #expect(Invariants.htmlViolation(html) == nil, "\(text.debugDescription)")
    }
  }

  /// A page far longer than its output's stretch (sealed into the string every 64 KiB, between runs) is well
  /// formed and holds each sentence of the whole text once, in order, after its collapsed lines.
  @Test func aLongPageIsWrittenWholeAcrossItsStretches() throws {
    var markdown = ""
    for index in 0..<2_000 {
      markdown += "Sentence \(index) has **bold**, [a link](https://example.com/\(index % 5)) & ünïcödé 中文. "
      if index % 9 == 8 { markdown += "\n\n" }
    }
    let html = Paragraph(LocalizedKey(markdown)).lineLimit(3)
      .html(width: 400, fonts: try FontSet.dejaVu(fallbacks: []), state: .expanded).html
    #expect(html.utf8.count > 200_000)
    #expect(Invariants.htmlViolation(html) == nil)
    let whole = try #require(html.ranges(of: "class=\"unfold-full\"").first)
    let numbers = html[whole.upperBound...].ranges(of: "Sentence ").map { range in
      Int(html[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }
    #expect(numbers == Array(0..<2_000))
  }

  /// An output trusts its bytes as UTF-8 only when each piece of a string was cut at code points: the check
  /// agrees with full validation on every cut of a text with code points of each length, and a piece cut inside
  /// one is repaired as `String(decoding:as:)` repairs it, with the stretches sealed before and after it intact.
  @Test func anOutputTrustsOnlyPiecesCutAtCodePoints() {
    let bytes = Array("aé中😀b\u{301}".utf8)
    bytes.withUnsafeBufferPointer { buffer in
      for start in 0...buffer.count {
        for end in start...buffer.count {
          let piece = UnsafeBufferPointer(rebasing: buffer[start..<end])
          #expect(
            piece.isCutAtCodePoints == (String(validating: piece, as: UTF8.self) != nil),
            "bytes \(start)..<\(end)")
        }
      }
      var output = UTF8Output(capacity: 64, sealingEvery: 4)
      output.write("sealed ")
      output.sealIfLong()
      output.write(UnsafeBufferPointer(rebasing: buffer[0..<5]))  // "aé" and two bytes of 中
      output.write(ascii: 0x2E)
      output.sealIfLong()
      output.write(UnsafeBufferPointer(rebasing: buffer[5..<10]))  // the last byte of 中 and 😀
      let result = output.sealedString()
      #expect(result == "sealed aé\u{FFFD}.\u{FFFD}😀")
      #expect(String(validating: Array(result.utf8), as: UTF8.self) == result)
    }
  }

  /// Numbers are written as `String(_:)` and `String(_:radix:)` write them (a link's number and the hash in its id):
  /// zero, one digit, every length up to the widest values, negatives, and hexadecimal with its leading zeros.
  @Test func anOutputWritesNumbersAsTheStandardLibrary() {
    var random = SplitMix64(state: 3)
    let decimals =
      [0, 1, -1, 7, -7, 10, 42, -100, 999, Int.max, Int.min]
      + (0..<200).map { _ in Int(bitPattern: UInt(random.next() >> random.below(64))) }
    let hexes: [UInt32] =
      [0, 1, 0xF, 0x10, 0xABC, 0xDEAD_BEEF, .max] + (0..<200).map { _ in UInt32(truncatingIfNeeded: random.next()) }
    var output = UTF8Output()
    var expected = ""
    for value in decimals {
      output.write(decimal: value)
      output.write(ascii: 0x20)
      expected += "\(value) "
    }
    for value in hexes {
      output.write(hex: value)
      output.write(ascii: 0x20)
      let digits = String(value, radix: 16)
      expected += String(repeating: "0", count: 8 - digits.count) + digits + " "
    }
    #expect(output.string() == expected)
  }
  /// The checks themselves catch what they look for.
  @Test func theChecksCatchViolations() {
    #expect(Invariants.invalidUTF8("ok é 中 😀") == nil)
    let notUTF8 = [0x61, 0xFF, 0x62].withUnsafeBufferPointer { unsafe String(copying: UTF8Span(unchecked: $0.span)) }
    #expect(Invariants.invalidUTF8(notUTF8) != nil)
    #expect(Invariants.foreignControl(inTerminalOutput: "ok \u{1B}[1;31mred\u{1B}[0m\n") == nil)
    #expect(
      Invariants.foreignControl(inTerminalOutput: "\u{1B}]8;id=1;https://e.com\u{1B}\\x\u{1B}]8;;\u{1B}\\") == nil)
    #expect(Invariants.foreignControl(inTerminalOutput: "a\u{1B}[2Jb") != nil)
    #expect(Invariants.foreignControl(inTerminalOutput: "bell\u{07}") != nil)
    #expect(Invariants.foreignControl(inTerminalOutput: "c1\u{9B}31m") != nil)
    #expect(Invariants.foreignControl(inTerminalOutput: "\u{1B}]8;;x\u{07}") != nil)
    #expect(Invariants.htmlViolation("<p class=\"a\">x<br>y</p><script nonce=\"n\">if (a < b) {}</script>") == nil)
    #expect(Invariants.htmlViolation("<p>x") != nil)
    #expect(Invariants.htmlViolation("<p><b>x</p></b>") != nil)
    #expect(Invariants.htmlViolation("<a href=x>y</a>") != nil)
    #expect(Invariants.htmlViolation("<img src=\"x\" onerror=\"alert(1)\">") != nil)
    #expect(Invariants.htmlViolation("<a href=\"javascript:alert(1)\">y</a>") != nil)
    // A URL's scheme as a browser reads it: references decoded, tabs and newlines dropped, leading spaces too.
    for href in [
      "JaVaScRiPt:alert(1)", " \tjavascript:x", "java&#x09;script:x", "&#106;avascript:x", "java\nscript:x",
      "data:text/html,x", "vbscript:x",
    ] {
      #expect(Invariants.htmlViolation("<a href=\"\(href)\">y</a>") != nil, "\(href.debugDescription)")
    }
    // An https URL that holds the text `javascript:` after its host (what the fuzzer's mutations made, and the
    // old check for that text anywhere in a tag took for a script), a relative one, mailto.
    for href in ["https://ok.examjavascript:alert(1)", "#more", "mailto:a@b.c", "/javascript:x", "a&amp;b"] {
      #expect(Invariants.htmlViolation("<a href=\"\(href)\">y</a>") == nil, "\(href.debugDescription)")
    }
    #expect(Invariants.htmlViolation("<script></script><script></script>") != nil)
    #expect(Invariants.htmlViolation("1 < 2") != nil)
  }
}

/// The link policy's fast path for clean ASCII destinations decides as the general path does.
@Suite struct LinkPolicyTests {
  @Test func theCleanPathIsTheGeneralPath() {
    let pieces = [
      "http", "HTTPS", "hTtP", "MAILto", "mailto", "javascript", "data", "ftp", ":", "//", "/", "?", "#", "a", "Z",
      "0", "-", ".", "@", "[",
      " ", "\t", "\n", "\u{0}", "\u{7F}", "\"", "'", "<", ">", "\\", "`", "é", "中", "%41", "x@y.z",
    ]
    var random = SplitMix64(state: 3)
    for _ in 0..<20_000 {
      let destination = (0..<random.below(8)).map { _ in random.pick(pieces) }.joined()
      if let clean = LinkPolicy.cleanSafeURL(destination) {
        #expect(clean == LinkPolicy.normalizedSafeURL(destination), "\(destination.debugDescription)")
      }
      #expect(LinkPolicy.safeURL(destination) == LinkPolicy.normalizedSafeURL(destination))
    }
    #expect(LinkPolicy.cleanSafeURL("HTTPS://example.com/a?b#c") == "https://example.com/a?b#c")
    #expect(LinkPolicy.safeURL("javascript:alert(1)") == nil)
  }
}
