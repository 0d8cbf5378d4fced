import Foundation
import TestSupport
import Testing

@testable import Unfold

/// The pure-Swift font reader and the measurer that follows Chromium's fit rule.
@Suite struct FontTests {
  let fonts = try? FontSet.dejaVu(size: 16, lineHeight: 20)

  @Test func readsTheTablesOfDejaVuSans() throws {
    let fonts = try #require(fonts)
    #expect(fonts.regular.unitsPerEm == 2048)
    #expect(fonts.regular.familyName == "DejaVu Sans")
    #expect(fonts.bold.weight == 700 && !fonts.bold.isItalic)
    #expect(fonts.italic.isItalic)
    #expect(fonts.monospace.isFixedPitch && !fonts.regular.isFixedPitch)
    #expect(fonts.regular.glyph(for: "A") != 0)
    #expect(fonts.regular.glyph(for: "中") == 0)
    #expect(fonts.regular.glyph(for: "😀") != 0)  // past U+FFFF: from the format-12 map
  }

  @Test func widthsMatchChromiumsNumbers() throws {
    // From measurements of Chromium 156 with kerning and ligatures off (browser-fidelity notes): 16 px.
    let measurer = FontMeasurer(try #require(fonts))
    func px(_ text: String) -> Double { Double(measurer.width(of: text)) / 4096 }
    #expect(abs(px("Hello, world") - 94.7812) < 0.001)
    #expect(abs(px("The quick brown fox jumps over the lazy dog.") - 365.7969) < 0.001)
    #expect(abs(px("1234567890 $19.99 (42%)") - 216.0) < 0.001)
    #expect(measurer.width(of: "soft\u{AD}hyphen") == measurer.width(of: "softhyphen"))
    #expect(measurer.width(of: "a\u{200D}b") == measurer.width(of: "ab"))
    #expect(measurer.width(of: "x", style: Style(.bold)) > measurer.width(of: "x"))
    #expect(measurer.width(of: "iiii", style: Style(.code)) == measurer.width(of: "mmmm", style: Style(.code)))
  }

  @Test func chromiumsFitRoundsEachItemUpToALayoutUnit() throws {
    let measurer = FontMeasurer(try #require(fonts))
    let unit = 64  // 1/64 px in 1/4096 px
    // Two items of 100 px and a hair: each rounds up to the next 1/64 px.
    let hair = 1
    #expect(measurer.fits(items: [100 * 4096 + hair], width: 100 * 4096))
    #expect(measurer.fits(items: [100 * 4096 + unit + hair], width: 100 * 4096) == false)
    #expect(measurer.fits(items: [50 * 4096 + hair, 50 * 4096 + hair], width: 100 * 4096) == false)
    #expect(measurer.fits(items: [50 * 4096, 50 * 4096 + hair], width: 100 * 4096))
  }

  /// Advances are rounded as `Double.rounded()` rounds, halves away from zero, without calling it: at halves, just
  /// below and above them, and at random values of every magnitude.
  @Test func advancesRoundAsTheCLibraryDoes() {
    var values: [Double] = [0, 0.5, 1.5, 2.5, 0.49999999999999994, 0x1p52 - 0.5, 0x1p52, 0x1p60 + 0x1p8, -0.5, -2.5]
    for whole in [0.0, 1, 2, 3, 1023, 4096, 0x1p40] {
      for offset in [0.5, 0.5.nextDown, 0.5.nextUp, 0, 0.25, 0.75, 1.0.nextDown] { values.append(whole + offset) }
    }
    var state: UInt64 = 7
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      values.append(Double(state >> 11) / Double(1 << Int(state % 53)))
    }
    let wrong = values.filter { FontMeasurer.rounded($0) != Int($0.rounded()) }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }

  @Test func missingGlyphsAreReportedAsRanges() throws {
    let measurer = FontMeasurer(try #require(fonts))
    let text = StyledText(plain: "ab 中文 c あ 😀")
    let ranges = measurer.unpredictableRanges(in: text, range: 0..<text.string.utf8.count)
    #expect(ranges.map { String(text.text(in: $0)) } == ["中文", "あ"])
  }

  /// A text whose code points all have glyphs is found to have no unpredictable cluster by a pass over its code
  /// points, with the result of the walk of its clusters: texts of pieces that DejaVu draws and pieces it does
  /// not (Devanagari, CJK, Thai, Hangul jamo, emoji sequences and flags, a letter with 70 marks), in styles cut
  /// anywhere (inside clusters too: a mark that one face draws and another does not, after a letter of the
  /// other), whole and between cluster boundaries.
  @Test func codePointsCheckedFirstGiveTheWalksResult() throws {
    let measurer = FontMeasurer(try #require(fonts))
    let pieces = [
      "word", "über", "e\u{301}", "Ελληνικά", "עברית", "العربية", "кириллица", "\u{7}", "\u{AD}", "\u{FE0F}", " ",
      "\n", "x\u{200D}y", "a\u{346}", "हिन्दी", "中", "😀", "👨‍👩‍👧", "🇯🇵🇫🇷🇩", "👍🏽", "ภาษาไทย", "\u{1100}\u{1161}\u{11A8}",
      "\r\n", "a" + String(repeating: "\u{301}", count: 70) + "中",
    ]
    let traits: [Style.Traits] = [[], .bold, .italic, [.bold, .italic], .code]
    var random = SplitMix64(state: 41)
    var (empty, found) = (0, 0)
    for _ in 0..<2_000 {
      // Mostly pieces that DejaVu draws, so that many texts have no missing glyph.
      let drawn = random.below(2) == 0
      let string = (0..<(1 + random.below(12))).map { _ in
        random.pick(drawn ? Array(pieces.prefix(13)) : pieces)
      }.joined()
      var runs: [StyledText.Run] = []
      var left = string.utf8.count
      while left > 0 {
        let length = min(left, 1 + random.below(9))
        runs.append(StyledText.Run(length: length, style: Style(random.pick(traits))))
        left -= length
      }
      let text = StyledText(string, runs: runs)
      let boundaries = text.string.indices.map { text.string.utf8.distance(from: text.string.startIndex, to: $0) }
      let start = random.below(3) == 0 ? random.pick(boundaries) : 0
      let end = random.below(3) == 0 ? max(start, random.pick(boundaries)) : text.string.utf8.count
      let range = start..<end
      let first = measurer.unpredictableClusters(in: text, range: range)
      let walked = measurer.unpredictableClusters(in: text, range: range, checksCodePointsFirst: false)
      #expect(first.ranges == walked.ranges && first.clusters == walked.clusters, "\(string.debugDescription)")
      if walked.ranges.isEmpty { empty += 1 } else { found += 1 }
    }
    #expect(empty > 400 && found > 400)
    // U+0346 has a glyph in DejaVu Sans, none in DejaVu Sans Mono: after a letter in code, it is missing.
    let split = StyledText("a\u{346}", runs: [.init(length: 1, style: Style(.code)), .init(length: 2, style: .plain)])
    #expect(measurer.unpredictableClusters(in: split, range: 0..<3).ranges == [0..<3])
  }

  /// The ASCII bits of every face are the glyph lookups they stand for, and the ranges found with them are
  /// the ranges of the clusters with a missing glyph found one by one through the borrowed faces: 300
  /// generated paragraphs in every style, with controls (drawn as pictures) and CJK (missing in DejaVu).
  @Test func asciiBitsAreTheGlyphLookups() throws {
    let fonts = try #require(fonts)
    for face in [fonts.regular, fonts.bold, fonts.italic, fonts.boldItalic, fonts.monospace] {
      for value in UInt32(0)..<0x80 {
        let scalar = Unicode.Scalar(value)!
        let expected =
          !FontMeasurer.isWhitespace(scalar) && !FontMeasurer.isIgnorable(scalar)
          && face.glyph(for: VisibleControls.visible(scalar)) == 0
        #expect(face.lacksGlyph(forASCII: value) == expected, "\(face.path) \(value)")
      }
    }
    let measurer = FontMeasurer(fonts)
    var random = SplitMix64(state: 33)
    for markdown in InvariantTests.paragraphs(count: 300, seed: 31) {
      let text = TextSource(
        LocalizedKey(
          markdown
            + " 中\u{301}x\u{7}é `\u{7}\u{1B}` **\u{7}\u{1B}** *\u{7}\u{1B}* word\u{301}s \u{0600}123 ab\u{200D}cd")
      )
      .resolve().text
      let boundaries = text.string.indices.map { text.string.utf8.distance(from: text.string.startIndex, to: $0) }
      // The whole text, or a range between two cluster boundaries.
      let start = random.below(3) == 0 ? random.pick(boundaries) : 0
      let end = random.below(3) == 0 ? max(start, random.pick(boundaries)) : text.string.utf8.count
      var expected: [Range<Int>] = []
      var walk = ClusterWalk(text, range: start..<end, measurer: nil)
      while let cluster = walk.next() {
        let style = text.style(ofRun: cluster.run)
        let missing = text.string.utf8Slice(cluster.start..<cluster.end).unicodeScalars.contains { scalar in
          !FontMeasurer.isIgnorable(scalar) && !FontMeasurer.isWhitespace(scalar)
            && fonts.face(for: style).glyph(for: VisibleControls.visible(scalar)) == 0
        }
        guard missing else { continue }
        if let last = expected.last, last.upperBound == cluster.start {
          expected[expected.count - 1] = last.lowerBound..<cluster.end
        } else {
          expected.append(cluster.start..<cluster.end)
        }
      }
      let (ranges, clusters) = measurer.unpredictableClusters(in: text, range: start..<end)
      #expect(ranges == expected)
      #expect(clusters == expected.reduce(0) { $0 + text.text(in: $1).count })
    }
  }

  /// The grapheme reader's count of characters is Swift's, on generated paragraphs and ranges of them.
  @Test func clusterCountIsTheCharacterCount() {
    var random = SplitMix64(state: 41)
    for markdown in InvariantTests.paragraphs(count: 300, seed: 43) {
      let text = StyledText(plain: markdown + "\r\n🇺🇸🇫🇷👩🏽‍💻각")
      let boundaries =
        [0] + text.string.indices.map { text.string.utf8.distance(from: text.string.startIndex, to: $0) }
        + [text.string.utf8.count]
      let start = random.pick(boundaries)
      let end = max(start, random.pick(boundaries))
      let count = text.string.withUTF8Buffer { GraphemeReader.clusterCount($0, start..<end) }
      #expect(count == text.text(in: start..<end).count, "\(markdown.debugDescription)")
    }
  }

  @Test func facesArePlacedByTheirTables() throws {
    let folder = FontSet.dejaVuFolder
    let set = try FontSet.files(
      ["\(folder)/DejaVuSansMono.ttf", "\(folder)/DejaVuSans-Bold.ttf", "\(folder)/DejaVuSans.ttf"], size: 14)
    #expect(set.regular.path.hasSuffix("DejaVuSans.ttf") && set.bold.path.hasSuffix("DejaVuSans-Bold.ttf"))
    #expect(set.monospace.path.hasSuffix("DejaVuSansMono.ttf") && set.italic == set.regular)
    #expect(set.lineHeight == 18)
    #expect(throws: FontError.self) { try FontSet.files(["\(folder)/DejaVuSans.ttf", "\(folder)/DejaVuSerif.ttf"]) }
    #expect(throws: FontError.self) { try FontFace(data: Data([0, 1, 2]), path: "tiny.ttf") }
  }
}

/// Drawing a line of one style reuses the width the layout computed instead of walking its clusters again, and
/// a line of several styles measures its runs by byte where it can: for every line of texts in many scripts,
/// styles (in a few runs, and in many cut anywhere), tabs, soft hyphens and lines wider than the width, in
/// terminal cells and in font units, the line drawn must be the one the cluster walk draws.
@Suite struct LineDrawingTests {
  @Test func linesDrawAsTheClusterWalkDraws() throws {
    var builder = StyledText.Builder()
    builder.append("Plain words and ")
    builder.append("bold ones", style: Style(.bold))
    builder.append(
      " then 日本語の文章が続きます。 e\u{301}toile, 👨‍👩‍👧 and 🇺🇸 flags, a\ttab, hy\u{AD}phen\u{AD}ated, "
        + "Ελληνικά, עברית ועוד, हिन्दी में, a verylongwordthatneedsanemergencybreak, "
        + "\u{200B}zero width\r\nand CR LF.")
    builder.append(" A link.", style: Style(link: "https://example.com"))
    let single = builder.build()
    // The same text in many runs, cut at random places (inside clusters and code points too), for lines of
    // several styles.
    var random = SplitMix64(state: 5)
    var runs: [StyledText.Run] = []
    var left = single.string.utf8.count
    let styles = [Style.plain, Style(.bold), Style(.italic), Style(.code), Style(link: "https://example.com")]
    while left > 0 {
      let length = min(left, 1 + random.below(12))
      let style = random.pick(styles.filter { $0 != runs.last?.style })
      runs.append(StyledText.Run(length: length, style: style))
      left -= length
    }
    for text in [single, StyledText(single.string, runs: runs)] {
      try drawEveryLine(of: text)
    }
  }

  func drawEveryLine(of text: StyledText) throws {
    let fonts = try FontSet.dejaVu()
    let measurers: [(any TextMeasurer, [Int])] = [
      (TerminalCells(), [1, 4, 9, 23, 80]),
      (FontMeasurer(fonts), [1, 40 * 4096, 97 * 4096, 300 * 4096]),
    ]
    var lines = 0
    for (measurer, widths) in measurers {
      for width in widths {
        let layout = LineLayout(text, measurer: measurer, width: width)
        let drawer = LineDrawer(layout: layout)
        for line in layout.lines {
          var walked = drawer.draw(line.contentRange)
          if line.isHyphenated {
            walked.fragments.append(Fragment(text: "-", width: measurer.width(of: "-"), role: .hyphen))
          }
          #expect(drawer.draw(line) == walked, "width \(width), line \(line.range)")
          // A line cut before an ellipsis and a label draws what is kept as a walk of it draws it.
          for suffix in [0, measurer.width(of: "… more")] {
            let mark = Fragment(text: "…", width: suffix, role: .ellipsis)
            var kept = drawer.draw(line.range.lowerBound..<drawer.cutEnd(line, suffix: [suffix]).end)
            kept.fragments.append(mark)
            #expect(drawer.cut(line, marks: [mark], overlay: false) == kept, "width \(width), line \(line.range)")
          }
          lines += 1
        }
      }
    }
    #expect(lines > 100)
  }
}
