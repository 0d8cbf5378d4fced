import Foundation
import TestSupport
import Testing
import Unfold
import UnfoldCorpus

/// Each engine's lines against its profile's, and the `any` fragment in every engine: Chromium (Blink), Firefox ESR
/// (Gecko) and WebKitGTK (WebKit), with the default font chain (DejaVu Sans and Debian's Noto fonts), on a Latin,
/// Cyrillic, Greek, Vietnamese and Armenian corpus and a multilingual one (Chinese, Japanese, Korean, Thai, Lao,
/// Khmer, Burmese, emoji, Arabic, Persian, Urdu, Hebrew, Hindi, Bengali, mixed right-to-left), at 8 widths from 160
/// to 720 px and 3 font sizes, expanded and collapsed to 3 lines.
///
/// Not serialized: each test has its own browser and font folder.
@Suite struct EngineAgreementTests {
  static let widths: [Double] = [160, 200, 240, 300, 360, 480, 600, 720]
  static let sizes = [14.0, 16.0, 20.0]
  static let corpus =
    Corpus.paragraphs(perLanguage: 8, languages: Corpus.languages + ["hy"])
    + FallbackCorpus.paragraphs(perLanguage: 6)
    + FallbackCorpus.paragraphs(perLanguage: 5, languages: FallbackCorpus.shapingLanguages)

  /// The word models that the Gecko profile runs are the installed Firefox's own (read from its `libxul.so` by
  /// `scripts/extract-gecko-word-models.py`): a Firefox with other models fails here, not in a reader's browser.
  @Test func geckoWordModelsAreFirefoxs() throws {
    try Self.expectScriptPasses("scripts/extract-gecko-word-models.py", "--check")
  }

  /// The dictionaries that the Blink profile reads are the installed Chromium's own (those that differ from the
  /// system ICU's read from its `icudtl.dat` by `scripts/extract-chromium-dictionaries.py`): a Chromium with other
  /// dictionaries fails here.
  @Test func blinkDictionariesAreChromiums() throws {
    try Self.expectScriptPasses("scripts/extract-chromium-dictionaries.py", "--check")
  }

  /// Runs a script of the repository with `arguments` and expects it to succeed.
  static func expectScriptPasses(_ script: String, _ arguments: String...) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", TestSupport.repositoryRoot.appendingPathComponent(script).path] + arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(message)")
  }

  /// The default chain at `size`, in a folder of links that one URL prefix reaches, for `body`.
  static func withFonts<T>(size: Double, _ body: (FontSet, HTMLOptions.FontSource) throws -> T) throws -> T {
    let fallbacks = FontFamily.notoFallbacks()
    try #require(fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let fonts = try FontSet.dejaVu(size: size, lineHeight: (size * 1.25).rounded(), fallbacks: fallbacks)
    let folder = try FallbackAgreementTests.fontFolder(for: fonts)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(fonts, .url(prefix: "file://\(folder.path)/"))
  }

  /// The corpus in `engine`'s browser at each size, measured for `profile`, each size's figures reported and
  /// checked by `check`: the fonts loaded, every collapsed view exact, no text shown uncut over the limit.
  static func expectAgreement(
    of profile: BrowserEngine, in engine: BrowserEngine, _ check: (Double, LineAgreementTests.Agreement) -> Void
  ) throws {
    try Browser.with(engine) { browser in
      for size in sizes {
        try withFonts(size: size) { fonts, source in
          let result = try LineAgreementTests.agreement(
            fonts: fonts, fontSource: source, corpus: corpus, widths: widths, profile: profile, in: browser)
          result.report("\(profile) profile in \(engine) at \(size) px")
          let (loaded, toggles, uncut) = (result.fontsLoaded, result.toggleProblems.count, result.uncutTooLong.count)
          #expect(loaded, "the fonts did not load in \(engine)")
          #expect(toggles == 0, "collapsed views differ at \(size) px")
          #expect(uncut == 0, "uncut texts take more lines at \(size) px")
          check(size, result)
        }
      }
    }
  }

  /// With its own profile, each engine draws the lines the profile predicts in at least 99.5% of the expanded
  /// cases, never more lines, and every collapsed view exactly.
  @Test(arguments: BrowserEngine.engines)
  func eachEngineBreaksWhereItsProfileSays(_ engine: BrowserEngine) throws {
    try Self.expectAgreement(of: engine, in: engine) { size, result in
      let (total, rate, moreLines) = (result.total, result.rate, result.moreLines)
      #expect(total == Self.corpus.count * Self.widths.count)
      #expect(rate >= 0.995, "\(result.agree) of \(result.total) at \(size) px")
      #expect(moreLines == 0, "\(engine) drew more lines than its profile predicted at \(size) px")
    }
  }

  /// The `any` fragment in each engine: every collapsed view has exactly the predicted lines with the toggle on
  /// the last, and a text shown uncut fits the limit.
  @Test(arguments: BrowserEngine.engines)
  func anyFragmentHoldsIn(_ engine: BrowserEngine) throws {
    try Self.expectAgreement(of: .any, in: engine) { _, _ in }
  }

  /// Under `any`, a text with words wider than the line is shown uncut only if it fits the limit in each engine.
  ///
  /// URLs, Windows and Unix paths and long words among short ones, at 120 to 300 px: under `any` such a word breaks
  /// between two clusters, where an engine may break earlier at a break of its own (Gecko after `C:`) and take more
  /// lines. A text shown uncut still fits the limit in each engine, and every collapsed view is exact, the one that
  /// fits `any`'s lines but not an engine's too.
  @Test(arguments: BrowserEngine.engines)
  func anyShowsATextUncutOnlyIfItFitsEveryEngine(_ engine: BrowserEngine) throws {
    let words = ["Stay", "see", "the", "docs", "at", "and", "then", "read", "more", "here", "or", "there"]
    let long = [
      "https://example.org/docs/page?id=26&lang=en", "https://example.com/a/b/c/d/e/f/g/h",
      "path/to/the/file/name.swift",
      "https://en.wikipedia.org/wiki/Line_breaking_rules_in_East_Asian_languages",
      "C:\\Users\\someone\\Documents\\report-final-v2.docx", "user@example.com/with/slashes?and=queries&more=1",
      "Donaudampfschifffahrtsgesellschaftskapitän",
    ]
    var random = SplitMix64(state: 5)
    let corpus = (0..<120).map { _ in
      (
        language: "en",
        markdown: (0..<(2 + random.below(8))).map { _ in
          random.below(3) == 0 ? random.pick(long) : random.pick(words)
        }.joined(separator: " ")
      )
    }
    try Browser.with(engine) { browser in
      try Self.withFonts(size: 16) { fonts, source in
        let result = try LineAgreementTests.agreement(
          fonts: fonts, fontSource: source, corpus: corpus, widths: [120, 140, 160, 180, 200, 240, 300], profile: .any,
          in: browser)
        result.report("any profile in \(engine), words wider than the line")
        #expect(result.fontsLoaded, "the fonts did not load in \(engine)")
        #expect(result.uncutTooLong.isEmpty, "uncut texts take more lines in \(engine)")
        #expect(result.toggleProblems.isEmpty, "collapsed views differ in \(engine)")
      }
    }
  }

  /// Styles that start or end inside words, at random code points (``FallbackCorpus/insideWordParagraphs``), in
  /// fifteen languages at 16 px: every collapsed view exact and no engine drawing more lines than predicted, with
  /// its own profile and with `any`; each engine's lines agree with its profile's in at least 99.5% of the cases.
  @Test(arguments: BrowserEngine.engines)
  func stylesInsideWordsHoldIn(_ engine: BrowserEngine) throws {
    let corpus = FallbackCorpus.insideWordParagraphs(
      perLanguage: 8,
      languages: ["emoji", "vi", "zh", "ja", "ko", "th", "lo", "km", "my", "ar", "fa", "ur", "he", "hi", "bn"])
    try Browser.with(engine) { browser in
      try Self.withFonts(size: 16) { fonts, source in
        for profile in [engine, .any] {
          let result = try LineAgreementTests.agreement(
            fonts: fonts, fontSource: source, corpus: corpus, widths: [160, 240, 360, 480], profile: profile,
            in: browser)
          result.report("styles inside words, \(profile) profile in \(engine)")
          let (toggles, uncut, rate) = (result.toggleProblems.count, result.uncutTooLong.count, result.rate)
          #expect(result.fontsLoaded, "the fonts did not load in \(engine)")
          #expect(toggles == 0, "collapsed views differ, \(profile) profile")
          #expect(uncut == 0, "uncut texts take more lines, \(profile) profile")
          if profile == engine {
            #expect(result.moreLines == 0, "\(engine) drew more lines than its profile predicted")
            #expect(rate >= 0.995, "\(result.agree) of \(result.total)")
          }
        }
      }
    }
  }

  /// Kerning and ligatures on (the browser's defaults, every word shaped), the fonts embedded as subsets
  /// (`--standalone`), and fragments of an `HTMLPage` that share its stylesheet and its exported subsets, a smaller
  /// corpus at 16 px: each engine with its own profile, and `any`, as above.
  @Test(arguments: BrowserEngine.engines)
  func kerningEmbeddedFontsAndPagesHoldIn(_ engine: BrowserEngine) throws {
    let corpus =
      Corpus.paragraphs(perLanguage: 3, languages: Corpus.languages + ["hy"])
      + FallbackCorpus.paragraphs(perLanguage: 2)
      + FallbackCorpus.paragraphs(perLanguage: 2, languages: FallbackCorpus.shapingLanguages)
    try Browser.with(engine) { browser in
      for (kerning, embedded, asPage) in [(true, false, false), (false, true, false), (false, false, true)] {
        try Self.withFonts(size: 16) { fonts, source in
          var fonts = fonts
          fonts.kerningAndLigatures = kerning
          for profile in [engine, .any] {
            let result = try LineAgreementTests.agreement(
              fonts: fonts, fontSource: embedded ? .embedded : source, corpus: corpus, widths: [160, 300, 480],
              profile: profile, in: browser, asPage: asPage)
            let name = kerning ? "kerning and ligatures on" : embedded ? "embedded subsets" : "one stylesheet a page"
            result.report("\(profile) profile in \(engine), \(name)")
            let (loaded, toggles, uncut) = (
              result.fontsLoaded, result.toggleProblems.count, result.uncutTooLong.count
            )
            #expect(loaded, "the fonts did not load in \(engine)")
            #expect(toggles == 0, "collapsed views differ, \(name)")
            #expect(uncut == 0, "uncut texts take more lines, \(name)")
            if profile == engine {
              let (rate, moreLines) = (result.rate, result.moreLines)
              #expect(rate >= 0.995, "\(result.agree) of \(result.total), \(name)")
              #expect(moreLines == 0, "\(engine) drew more lines than its profile predicted, \(name)")
            }
          }
        }
      }
    }
  }
}
