import Foundation
import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// The pure-Swift font reader and the measurer that follows Chromium's fit rule.
@Suite struct FontTests {
  let fonts = try? FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])

  /// A line that breaks after a soft hyphen in bold text shows a bold hyphen, as browsers draw it: it must fit, and
  /// the line's width and the drawn hyphen are the bold one's (DejaVu Sans Bold's is wider than the regular one's).
  @Test(arguments: [BrowserEngine.blink, .gecko, .webkit])
  func aSoftHyphenShowsTheHyphenOfItsStyle(_ engine: BrowserEngine) throws {
    let measurer = FontMeasurer(try #require(fonts), engine: engine)
    let bold = Style(.bold)
    let (plainHyphen, boldHyphen) = (measurer.width(of: "-"), measurer.width(of: "-", style: bold))
    #expect(boldHyphen > plainHyphen + measurer.unitsPerPixel / 2)
    let string = "Donau\u{AD}dampf"
    let text = StyledText(string, runs: [StyledText.Run(length: string.utf8.count, style: bold)])
    let word = measurer.width(of: "Donau", style: bold)
    // Room for the word and a regular hyphen, not a bold one: the line does not break after the soft hyphen.
    let narrow = LineLayout(text, measurer: measurer, width: word + plainHyphen + measurer.unitsPerPixel / 4)
    #expect(narrow.lines.first.map { text.text(in: $0.range) } != "Donau\u{AD}")
    let wide = LineLayout(text, measurer: measurer, width: word + boldHyphen + measurer.unitsPerPixel / 4)
    let first = try #require(wide.lines.first)
    #expect(first.isHyphenated && first.width == word + boldHyphen)
    let hyphen = try #require(LineDrawer(layout: wide).draw(first).fragments.last)
    #expect(hyphen.role == .hyphen && hyphen.width == boldHyphen && hyphen.style == bold)
  }

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
    func px(_ text: String) -> Double { Double(measurer.width(of: text)) / Double(FontMeasurer.unitsPerPixel) }
    #expect(abs(px("Hello, world") - 94.7812) < 0.001)
    #expect(abs(px("The quick brown fox jumps over the lazy dog.") - 365.7969) < 0.001)
    #expect(abs(px("1234567890 $19.99 (42%)") - 216.0) < 0.001)
    #expect(measurer.width(of: "soft\u{AD}hyphen") == measurer.width(of: "softhyphen"))
    #expect(measurer.width(of: "a\u{200D}b") == measurer.width(of: "ab"))
    #expect(measurer.width(of: "x", style: Style(.bold)) > measurer.width(of: "x"))
    #expect(measurer.width(of: "iiii", style: Style(.code)) == measurer.width(of: "mmmm", style: Style(.code)))
  }

  /// Words of joining scripts are shaped as a whole: their widths are Chromium 156's (measured with kerning and
  /// ligatures off, DejaVu Sans 16 px, in 1/64 px), not the sums of isolated letters.
  @Test func joiningWordsAreMeasuredShapedAsChromiumDraws() throws {
    let measurer = FontMeasurer(try #require(fonts))
    func width(_ text: String) -> Int {
      let layout = LineLayout(StyledText(plain: text), measurer: measurer, width: 1000 * FontMeasurer.unitsPerPixel)
      return layout.lines.map(\.width).reduce(0, +)
    }
    let layoutUnit = FontMeasurer.unitsPerPixel / 64
    #expect(width("خواننده است") == 5588 * layoutUnit)
    #expect(width("ب\u{200C}ب") == 1928 * layoutUnit)
    #expect(width("میگیرد") == 2753 * layoutUnit)
    // Lam and alef make one glyph, narrower than the two isolated letters; a letter's width depends on its
    // neighbours.
    #expect(width("لا") < measurer.width(of: "ل") + measurer.width(of: "ا"))
    #expect(width("بب") != 2 * width("ب"))
    // A line that starts inside a word (an emergency break) is measured from the whole word, as preparing does.
    let text = StyledText(plain: "مُحَرِّكالتخطيط")
    let narrow = LineLayout(text, measurer: measurer, width: 30 * FontMeasurer.unitsPerPixel)
    #expect(narrow.lines.count > 1)
    #expect(narrow.lines.map(\.width).reduce(0, +) == width("مُحَرِّكالتخطيط"))
  }

  /// With kerning and ligatures on, every word is shaped: "AVATAR" is 3849/64 px wide in Chromium 156 (DejaVu Sans
  /// 16 px, rounded up to its layout unit), 4139/64 with both off; "office" takes the ffi ligature.
  @Test func kerningAndLigaturesShapeEveryWord() throws {
    var fonts = try #require(fonts)
    func layoutUnits(_ text: String, _ fonts: FontSet) -> Int {
      let layout = LineLayout(StyledText(plain: text), measurer: FontMeasurer(fonts), width: 1 << 30)
      let units = FontMeasurer.unitsPerPixel / 64
      return (layout.lines[0].width + units - 1) / units
    }
    #expect(layoutUnits("AVATAR", fonts) == 4139)
    let pinnedOffice = layoutUnits("office", fonts)
    fonts.kerningAndLigatures = true
    #expect(layoutUnits("AVATAR", fonts) == 3849)
    #expect(layoutUnits("office", fonts) < pinnedOffice)
    // A label is measured as the page shapes it too.
    #expect(FontMeasurer(fonts).width(of: "AVATAR") < FontMeasurer(try #require(self.fonts)).width(of: "AVATAR"))
  }

  /// Chromium rounds each side of a zero-width non-joiner as an inline item of its own: "ا‌ا" is 570/64 px
  /// wide in Chromium 156, its exact width 569/64.
  @Test func aNonJoinerStartsANewRoundedPiece() throws {
    let measurer = FontMeasurer(try #require(fonts))
    let text = StyledText(plain: "ا\u{200C}ا")
    let exact = 569 * FontMeasurer.unitsPerPixel / 64
    #expect(LineLayout(text, measurer: measurer, width: 1000 * FontMeasurer.unitsPerPixel).lines[0].width == exact)
    // At a width of 568/64 px (plus Chromium's 1/64 of slack) the two rounded halves, 570/64, do not fit.
    #expect(LineLayout(text, measurer: measurer, width: exact - FontMeasurer.unitsPerPixel / 64).lines.count == 2)
    let joined = StyledText(plain: "اا")
    #expect(LineLayout(joined, measurer: measurer, width: exact - FontMeasurer.unitsPerPixel / 64).lines.count == 1)
  }

  /// Chromium starts an inline item where the bidi level changes (ICU's UAX #9, the base direction the first
  /// strong character's) and after a zero-width non-joiner; a measurer that adds exactly needs none.
  @Test func bidiRunsAndNonJoinersStartInlineItems() throws {
    let measurer = FontMeasurer(try #require(fonts))
    func breaks(_ text: String) -> [Int] { ItemBreaks(StyledText(plain: text), measurer: measurer).offsets }
    #expect(breaks("plain English text, 日本語") == [])
    #expect(breaks("abc שלום def") == [4, 12])  // the space after the Hebrew word takes the paragraph's level
    #expect(breaks("שלום abc def!") == [9, 16])  // "abc def" at level 2, "!" back at 1
    #expect(breaks("😀 abc 𐤀 def") == [9, 13])  // offsets in UTF-8 past characters of two UTF-16 units
    #expect(breaks("a\u{200C}b") == [4])
    #expect(ItemBreaks(StyledText(plain: "abc שלום def"), measurer: TerminalCells()).offsets == [])
  }

  @Test func chromiumsFitRoundsEachItemUpToALayoutUnit() throws {
    let measurer = FontMeasurer(try #require(fonts))
    let px = FontMeasurer.unitsPerPixel
    let unit = px / 64  // 1/64 px
    // Two items of 100 px and a hair: each rounds up to the next 1/64 px.
    let hair = 1
    #expect(measurer.fits(items: [100 * px + hair], width: 100 * px))
    #expect(measurer.fits(items: [100 * px + unit + hair], width: 100 * px) == false)
    #expect(measurer.fits(items: [50 * px + hair, 50 * px + hair], width: 100 * px) == false)
    #expect(measurer.fits(items: [50 * px, 50 * px + hair], width: 100 * px))
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

  /// A system font folder with several families gives one family's faces and a monospace face, and names the
  /// files it leaves out; a file that cannot be read is left out with its error, not a refusal of the folder.
  @Test func aFolderOfSeveralFamiliesGivesOneAndNamesTheRest() throws {
    let liberation = try FontSet.folder("/usr/share/fonts/truetype/liberation2")
    func name(_ face: FontFace) -> String { URL(fileURLWithPath: face.path).lastPathComponent }
    #expect(name(liberation.fonts.regular) == "LiberationSans-Regular.ttf")
    #expect(name(liberation.fonts.boldItalic) == "LiberationSans-BoldItalic.ttf")
    #expect(name(liberation.fonts.monospace) == "LiberationMono-Regular.ttf")
    #expect(liberation.leftOut.count == 7 && liberation.leftOut.allSatisfy(\.wasRead))
    let dejaVu = try FontSet.folder(FontSet.dejaVuFolder)
    #expect(name(dejaVu.fonts.regular) == "DejaVuSans.ttf" && name(dejaVu.fonts.monospace) == "DejaVuSansMono.ttf")

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-fonts-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(throws: FontError.self) { try FontSet.folder(folder.path) }
    try Data("not a font".utf8).write(to: folder.appendingPathComponent("Broken.ttf"))
    try FileManager.default.copyItem(
      atPath: "\(FontSet.dejaVuFolder)/DejaVuSans.ttf", toPath: folder.appendingPathComponent("Sans.ttf").path)
    let mixed = try FontSet.folder(folder.path)
    #expect(name(mixed.fonts.regular) == "Sans.ttf")
    #expect(mixed.leftOut.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["Broken.ttf"])
    #expect(mixed.leftOut.first?.wasRead == false && mixed.leftOut.first?.reason.contains("not a") == true)
  }

  /// Advances as FreeType scales them for Chromium, in 1/65536 px: Chromium 156's canvas measures a 1000-unit
  /// em (Noto Sans CJK) as 16.0000305176 px at 16 px, 13.9999389648 at 14 and 19.9999847412 at 20; a
  /// 2048-unit font's advances are exact (DejaVu Sans `a`, 1255 units: 9.8046875 px at 16 px).
  @Test func advancesAreFreeTypesFixedPoint() {
    #expect(GlyphMetrics.linear(1000, unitsPerEm: 1000, size: 16) == 1_048_578)
    #expect(GlyphMetrics.linear(1000, unitsPerEm: 1000, size: 14) == 917_500)
    #expect(GlyphMetrics.linear(1000, unitsPerEm: 1000, size: 20) == 1_310_719)
    #expect(GlyphMetrics.linear(1255, unitsPerEm: 2048, size: 16) == 642_560)
    #expect(GlyphMetrics.linear(0, unitsPerEm: 1000, size: 16) == 0)
  }

  /// A glyph's hinted advance (WebKit's) is the same asked of a face that hinted other glyphs at its size before, as
  /// a face keeps its size set, as of a face just opened: 400 glyphs in random order at 6 sizes, in DejaVu Sans and
  /// Mono, Noto Sans and Noto Sans Arabic.
  @Test func hintedAdvancesDoNotDependOnTheGlyphsBefore() throws {
    let files = [
      "\(FontSet.dejaVuFolder)/DejaVuSans.ttf", "\(FontSet.dejaVuFolder)/DejaVuSansMono.ttf",
      "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf",
    ]
    var random = SplitMix64(state: 17)
    for file in files {
      let data = try Data(contentsOf: URL(fileURLWithPath: file), options: .alwaysMapped)
      let shared = FreeTypeFont(data: data, index: 0)
      // Sizes that come back: the face set to another size between two glyphs of one.
      for size in [16.0, 13.5, 16, 20, 10, 24] {
        for _ in 0..<400 {
          let glyph = random.below(1_500)
          let alone = FreeTypeFont(data: data, index: 0).hintedAdvance(ofGlyph: glyph, size: size)
          #expect(shared.hintedAdvance(ofGlyph: glyph, size: size) == alone, "\(file) glyph \(glyph) at \(size) px")
        }
      }
    }
  }
}

/// The font fallback chain with Debian's Noto fonts (installed by `scripts/install-dependencies`): collections,
/// colour bitmap emoji, CSS font matching within a family, and clusters measured in the first face that draws them.
@Suite struct FontFallbackTests {
  static let cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
  static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

  @Test func readsAFaceOfACollection() throws {
    let face = try FontFace(contentsOf: Self.cjk, index: 0)
    #expect(face.index == 0 && face.unitsPerEm == 1000)
    #expect(face.glyph(for: "中") != 0 && face.glyph(for: "한") != 0)
    let second = try FontFace(contentsOf: Self.cjk, index: 1)
    #expect(second != face && second.familyName != face.familyName)
    #expect(throws: FontError.self) { try FontFace(contentsOf: Self.cjk, index: 999) }
  }

  @Test func readsTheStrikesOfAColourBitmapFont() throws {
    let face = try FontFace(contentsOf: Self.emoji)
    let strike = try #require(face.bitmapStrikes.first)
    #expect(strike.ppem == 109)
    #expect(strike.advances[face.glyph(for: "👍")] == 136)
  }

  @Test func familiesMatchAsCSSDoes() throws {
    let folder = FontSet.dejaVuFolder
    let family = try FontFamily.files(
      ["\(folder)/DejaVuSans.ttf", "\(folder)/DejaVuSans-Bold.ttf", "\(folder)/DejaVuSans-Oblique.ttf"])
    #expect(family.face(weight: 700, italic: false).weight == 700)
    #expect(family.face(weight: 400, italic: true).isItalic)
    #expect(family.face(weight: 700, italic: true).isItalic)  // the style first, then the nearest weight
    #expect(family.face(weight: 300, italic: false).weight == 400)
    #expect(family.face(weight: 600, italic: false).weight == 700)
    #expect(family.face(for: [.code]).weight == 400 && !family.face(for: [.code]).isItalic)
    #expect(throws: FontError.self) { try FontFamily.files([]) }
  }

  @Test func clustersAreMeasuredInTheFirstFaceThatDrawsThem() throws {
    let chain = FontFamily.notoFallbacks()
    try #require(chain.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let alone = FontMeasurer(try FontSet.dejaVu(fallbacks: []))
    let measurer = FontMeasurer(try FontSet.dejaVu(fallbacks: chain))
    // Two ideographs in Noto Sans CJK: a 1000-unit em each, as FreeType scales it.
    #expect(measurer.width(of: "中文") == 2 * GlyphMetrics.linear(1000, unitsPerEm: 1000, size: 16))
    let cjk = StyledText(plain: "a 中文 b")
    #expect(!alone.unpredictableRanges(in: cjk, range: 0..<cjk.string.utf8.count).isEmpty)
    #expect(measurer.unpredictableRanges(in: cjk, range: 0..<cjk.string.utf8.count).isEmpty)
    // What DejaVu draws stays DejaVu's, fallbacks or not.
    #expect(measurer.width(of: "Hello, world") == alone.width(of: "Hello, world"))
    // A flag and a skin-tone sequence are one glyph of the emoji font, 136 px at 109 ppem scaled to 16 px
    // (Chromium lays each out 19.96875 px wide: 19.963 rounded up to 1/64 px).
    let emoji = 136.0 * 16 / 109
    for sequence in ["🇫🇷", "👍🏽", "👨‍👩‍👧", "1️⃣"] {
      let px = Double(measurer.width(of: sequence)) / Double(FontMeasurer.unitsPerPixel)
      #expect(abs(px - emoji) < 0.0001, "\(sequence): \(px) px")
    }
    // A text character with the emoji selector needs a face that maps the pair: DejaVu has ❤ but not ❤️.
    #expect(measurer.width(of: "\u{2764}\u{FE0F}") != alone.width(of: "\u{2764}\u{FE0F}"))
    #expect(measurer.width(of: "\u{2764}") == alone.width(of: "\u{2764}"))
  }

  /// Debian's chain opens its families' files, and reads a face's tables, when measuring first reaches them.
  ///
  /// No file for a text that DejaVu draws, measured and rendered under every engine; then, for a Chinese character,
  /// the tables of the faces before Noto Sans CJK in its style and Noto Sans CJK's, not the emoji font's; for an emoji,
  /// the emoji font's alone. A face read eagerly has its tables at once.
  @Test func theChainsTablesAreReadWhenFirstAsked() throws {
    let fonts = try FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks())
    try #require(fonts.fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let measurer = FontMeasurer(fonts, engine: .blink)
    #expect(fonts.styleFaces.allSatisfy { $0.tables.wasRead })
    let english = StyledText(plain: "Hello, world: a line of plain text.")
    _ = measurer.unpredictableRanges(in: english, range: 0..<english.string.utf8.count)
    #expect(measurer.width(of: "Hello, world") > 0)
    let paragraph = Paragraph(verbatim: english.string, options: TruncationOptions(lineLimit: 1))
    for engine in BrowserEngine.allCases {
      #expect(paragraph.html(width: 120, fonts: fonts, engine: engine).html.contains("Hello"))
    }
    #expect(!fonts.fallbacks.contains { $0.wasOpened })
    // Sets of the chain made again are equal, their families compared by their files without opening them.
    #expect(try FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks()) == fonts)
    #expect(!fonts.fallbacks.contains { $0.wasOpened })
    let chain = fonts.fallbacks.map { $0.face(for: []) }
    let read = { chain.map(\.tables.wasRead) }
    #expect(!read().contains(true))
    let emoji = try #require(fonts.emojiFamily)
    _ = measurer.width(of: "😀")
    #expect(read().enumerated().allSatisfy { $0.element == ($0.offset == emoji) })
    let cjk = try #require(chain.firstIndex { $0.path.contains("CJK") })
    _ = measurer.width(of: "中")
    #expect(read().enumerated().allSatisfy { $0.element == ($0.offset <= cjk || $0.offset == emoji) })
    #expect(try FontFace(contentsOf: "\(FontSet.dejaVuFolder)/DejaVuSans.ttf").tables.wasRead)
  }

  /// A face whose tables are read on first use is made from its table directory alone: a character map that
  /// cannot be read is an error when the face is read at once, and a face that draws nothing when read later.
  @Test func aFaceReadLaterWithABrokenCharacterMapDrawsNothing() throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(FontSet.dejaVuFolder)/DejaVuSans.ttf")))
    // The table directory's record of 'cmap': its table's count of encodings set to 0.
    let count = Int(bytes[4]) << 8 | Int(bytes[5])
    let record = try #require((0..<count).map { 12 + $0 * 16 }.first { bytes[$0..<$0 + 4].elementsEqual("cmap".utf8) })
    let offset = (record + 8..<record + 12).reduce(0) { $0 << 8 | Int(bytes[$1]) }
    bytes[offset + 2] = 0
    bytes[offset + 3] = 0
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-broken-cmap.ttf").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: FontError.self) { try FontFace(contentsOf: path) }
    let later = try FontFace(contentsOf: path, tablesOnFirstUse: true)
    #expect(later.weight == 400 && !later.tables.wasRead)
    #expect(later.glyph(for: "a") == 0 && later.glyph(for: "😀") == 0 && later.tables.wasRead)
    #expect(later.lacksGlyph(forASCII: 0x61) && !later.lacksGlyph(forASCII: 0x20))
  }

  /// A family of the chain whose files turn out missing or unreadable when first opened is one face that draws
  /// nothing: the text goes on to the next family, and nothing fails.
  @Test func aChainFamilyWhoseFilesCannotBeReadDrawsNothing() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-not-a-font.ttf").path
    try Data("not a font".utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let broken = FontFamily(opening: [path, "/nonexistent/unfold-missing.ttf"])
    #expect(!broken.wasOpened)
    #expect(broken.faces.count == 1 && broken.wasOpened)
    #expect(broken.faces[0].glyph(for: "中") == 0 && broken.faces[0].data.isEmpty)
    let cjk = FontFamily(opening: ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"])
    try #require(cjk.faces[0].glyph(for: "中") != 0, "Noto Sans CJK is missing: run scripts/install-dependencies")
    let fonts = try FontSet.dejaVu(fallbacks: [broken, cjk])
    #expect(fonts.fallback(drawing: ["中"], traits: []) == 1)
    #expect(FontMeasurer(fonts).width(of: "中") == FontMeasurer(try FontSet.dejaVu(fallbacks: [cjk])).width(of: "中"))
  }

  /// The page declares the fallback families that draw some cluster of the text or of the labels, after the
  /// set's own in `font-family`, and no other: a browser loads no font that draws nothing.
  @Test func thePageListsTheFamiliesThatDraw() throws {
    let fonts = try FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks())
    func css(_ markdown: String, moreLabel: String = "more") -> String {
      var truncation = TruncationOptions(lineLimit: 1)
      truncation.moreLabel = moreLabel
      let paragraph = Paragraph(TextSource(LocalizedKey(markdown)), options: truncation)
      return paragraph.html(width: 80, fonts: fonts, state: .collapsed, options: HTMLOptions(id: "p")).html
    }
    let latin = css("Plain **Latin** words, long enough to be cut at eighty pixels.")
    #expect(!latin.contains("Noto"))
    let cjk = css("Latin and 中文 and more words after them.")
    #expect(cjk.contains("NotoSansCJK-Regular.ttc") && cjk.contains("NotoSansCJK-Bold.ttc"))
    #expect(!cjk.contains("NotoSansThai") && !cjk.contains("NotoColorEmoji"))
    #expect(cjk.contains(#"font-family:"Unfold-"#) && cjk.contains(#"","Unfold-"#))
    let thai = css("Latin words and a label that needs a font of its own.", moreLabel: "อ่านต่อ")
    #expect(thai.contains("NotoSansThai-Regular.ttf") && !thai.contains("NotoSansCJK"))
    let emoji = css("Thanks \u{1F44D}\u{1F3FD} for the long post, it is great!")
    #expect(emoji.contains("NotoColorEmoji.ttf") && !emoji.contains("NotoSansCJK"))
  }

  /// An embedded subset keeps what the shaper draws in place of a character, so that words shape in it as in the
  /// whole file: Thai's and Lao's SARA AM (drawn as NIKHAHIT and SARA AA) and Bengali's two-part vowel signs.
  @Test(arguments: [
    ("NotoSansThai-Regular", "น้ำคำกำลัง"), ("NotoSansLao-Regular", "ນ້ຳຄຳ"), ("NotoSansBengali-Regular", "কোলো বৌ"),
  ])
  func aSubsetShapesAsTheWholeFont(file: String, word: String) throws {
    let whole = try FontFace(contentsOf: "/usr/share/fonts/truetype/noto/\(file).ttf")
    let characters = HTMLRenderer.charactersDrawn(StyledText(plain: word), labels: [])
    let data = try #require(whole.harfBuzz?.subset(keeping: characters))
    let subset = try FontFace(data: data, path: "subset.ttf")
    let scalars = Array(word.unicodeScalars)
    let shaped = try #require(whole.harfBuzz?.shape(scalars))
    let shapedInSubset = try #require(subset.harfBuzz?.shape(scalars))
    #expect(shaped.map(\.advance) == shapedInSubset.map(\.advance))
    #expect(!shapedInSubset.contains { $0.glyph == 0 }, "the subset draws a missing glyph")
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
        + "Ελληνικά, עברית ועוד, हिन्दी में, عربي مُحَرِّك لا می\u{200C}گیرد, a verylongwordthatneedsanemergencybreak, "
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
    let fonts = try FontSet.dejaVu(fallbacks: [])
    var kerned = fonts
    kerned.kerningAndLigatures = true
    let measurers: [(any TextMeasurer, [Int])] = [
      (TerminalCells(), [1, 4, 9, 23, 80]),
      (FontMeasurer(fonts), [1, 40, 97, 300].map { $0 * FontMeasurer.unitsPerPixel }),
      (FontMeasurer(kerned), [40, 97, 300].map { $0 * FontMeasurer.unitsPerPixel }),
    ]
    var lines = 0
    for (measurer, widths) in measurers {
      for width in widths {
        let layout = LineLayout(text, measurer: measurer, width: width)
        let drawer = LineDrawer(layout: layout)
        for line in layout.lines {
          var walked = drawer.draw(line.contentRange)
          if line.isHyphenated {  // the hyphen of the soft hyphen's style
            let style = text.hyphenStyle(before: line.contentEnd)
            walked.fragments.append(
              Fragment(text: "-", style: style, width: measurer.width(of: "-", style: style), role: .hyphen))
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
