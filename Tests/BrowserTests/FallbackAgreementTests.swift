import Foundation
import TestSupport
import Testing
import Unfold
import UnfoldCorpus

/// Chromium's lines against the engine's for text that DejaVu Sans cannot draw, with Debian's Noto fonts as the
/// fallback chain: CJK, Korean, emoji sequences and mixed text must break where the engine predicts.
///
/// Not serialized: each test has its own font folder and Chromium processes, and the suite is the longest, so its
/// tests share the cores when the others are done.
@Suite struct FallbackAgreementTests {
  static let corpus = FallbackCorpus.paragraphs(perLanguage: 16)
  static let shapingCorpus = FallbackCorpus.paragraphs(perLanguage: 12, languages: FallbackCorpus.shapingLanguages)
  static let widths: [Double] = [160, 200, 240, 300, 360, 480, 600, 720]

  /// A folder of links to every font file of the set, so that one URL prefix reaches them all.
  static func fontFolder(for fonts: FontSet) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-fonts-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let faces =
      [fonts.regular, fonts.bold, fonts.italic, fonts.boldItalic, fonts.monospace]
      + fonts.fallbacks.flatMap(\.faces)
    for face in faces {
      let link = folder.appendingPathComponent(URL(fileURLWithPath: face.path).lastPathComponent)
      if !FileManager.default.fileExists(atPath: link.path) {
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: face.path)
      }
    }
    return folder
  }

  /// At 16 px: `EngineAgreementTests` runs a smaller corpus of both kinds in each engine at 14, 16 and 20 px.
  @Test(arguments: [16.0])
  func chromiumBreaksWhereTheEngineDoesWithFallbackFonts(size: Double) throws {
    try expectAgreement(corpus: Self.corpus, size: size)
  }

  /// Arabic, Persian and Urdu (joining forms, lam-alef, ZWNJ), Hebrew with points, Devanagari and Bengali
  /// (conjuncts, reordered vowel signs), Vietnamese (stacked diacritics, some decomposed) and Latin mixed with
  /// right-to-left words: each word is shaped as a whole, as the browser shapes it (at 16 px, as above).
  @Test(arguments: [16.0])
  func chromiumBreaksWhereTheEngineDoesInShapedScripts(size: Double) throws {
    try expectAgreement(corpus: Self.shapingCorpus, size: size)
  }

  /// Both corpora with the browser's typographic defaults, kerning and ligatures on: every word shaped.
  @Test func chromiumBreaksWhereTheEngineDoesWithKerningAndLigatures() throws {
    try expectAgreement(corpus: Self.corpus + Self.shapingCorpus, size: 16, kerningAndLigatures: true)
  }

  private func expectAgreement(
    corpus: [(language: String, markdown: String)], size: Double, kerningAndLigatures: Bool = false
  ) throws {
    let fallbacks = FontFamily.notoFallbacks()
    try #require(fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    var fonts = try FontSet.dejaVu(size: size, lineHeight: (size * 1.25).rounded(), fallbacks: fallbacks)
    fonts.kerningAndLigatures = kerningAndLigatures
    let folder = try Self.fontFolder(for: fonts)
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try LineAgreementTests.agreement(
      fonts: fonts, fontSource: .url(prefix: "file://\(folder.path)/"), corpus: corpus, widths: Self.widths)
    result.report("DejaVu Sans and Noto at \(size) px\(kerningAndLigatures ? ", kerning and ligatures on" : "")")
    #expect(result.fontsLoaded, "the fonts did not load in Chromium")
    #expect(result.total == corpus.count * Self.widths.count)
    #expect(result.rate >= 0.995, "\(result.agree) of \(result.total)")
    #expect(result.moreLines == 0, "Chromium drew more lines than the engine predicted")
    #expect(result.toggleProblems.isEmpty, "\(result.toggleProblems.count) collapsed views differ")
  }

  /// Fonts embedded in the page are cut down to the glyphs it draws (HarfBuzz's subsetter): a paragraph of every
  /// script of both corpora, its fonts embedded, stays small and breaks in Chromium exactly where the engine
  /// says, as with the whole files.
  @Test func embeddedSubsetFontsBreakAsTheWholeFiles() throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: FontFamily.notoFallbacks())
    let languages = FallbackCorpus.languages + FallbackCorpus.shapingLanguages
    let corpus = FallbackCorpus.paragraphs(perLanguage: 2)
    var generator = SplitMix64(state: 3)
    let mixed = languages.map { FallbackCorpus.paragraph($0, &generator) }.joined(separator: " ")
    let options = HTMLOptions(fontSource: .embedded)
    let html = Paragraph(TextSource(LocalizedKey(mixed))).html(width: 300, fonts: fonts, options: options).html
    // The whole files are tens of megabytes (Noto Sans CJK alone is 19 MB); the subsets of 16 scripts' faces, each
    // in every style the paragraph uses, make about 2 MB.
    #expect(html.utf8.count < 2_500_000, "\(html.utf8.count) bytes")
    let result = try LineAgreementTests.agreement(
      fonts: fonts, fontSource: .embedded, corpus: corpus + [("und", mixed)], widths: [160, 300, 480])
    result.report("Embedded subsets of DejaVu Sans and Noto at 16 px")
    #expect(result.fontsLoaded, "the fonts did not load in Chromium")
    #expect(result.agree == result.total, "\(result.agree) of \(result.total)")
    #expect(result.toggleProblems.isEmpty, "\(result.toggleProblems.count) collapsed views differ")
  }
}
