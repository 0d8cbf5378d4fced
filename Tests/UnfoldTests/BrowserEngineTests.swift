import Foundation
import Testing

@testable import Unfold

/// The engine profiles without a browser: which engine an agent is, each engine's unit, fit and breaks, and the CSS
/// that makes every engine choose the measured face. (Their lines in real browsers: `EngineAgreementTests`.)
@Suite struct BrowserEngineTests {
  @Test(arguments: [
    ("Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0", BrowserEngine.gecko),
    ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36", .blink),
    (
      "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36 Edg/156.0",
      .blink
    ),
    (
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15",
      .webkit
    ),
    (
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/156.0 Mobile/15E148 Safari/604.1",
      .webkit
    ),
    (
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/140.0 Mobile/15E148 Safari/605.1.15",
      .webkit
    ),
    (
      "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0 Mobile Safari/537.36",
      .blink
    ),
    ("curl/8.5.0", .any),
    ("", .any),
  ])
  func anAgentNamesItsEngine(_ agent: String, _ engine: BrowserEngine) {
    #expect(BrowserEngine(userAgent: agent) == engine)
  }

  @Test func eachEngineMeasuresInItsOwnArithmetic() throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])
    let blink = FontMeasurer(fonts, engine: .blink)
    let gecko = FontMeasurer(fonts, engine: .gecko)
    let webkit = FontMeasurer(fonts, engine: .webkit)
    let any = FontMeasurer(fonts, engine: .any)
    // DejaVu Sans's "i" is 569 of 2048 units: 4.4453125 px, 267 app units in Gecko, 4 hinted pixels in WebKit.
    #expect(blink.width(of: "iiiiiiiiii") == 291_328 * 10)
    #expect(gecko.width(of: "iiiiiiiiii") == 2670)
    #expect(webkit.width(of: "iiiiiiiiii") == 40 * 65536)
    #expect(any.width(of: "iiiiiiiiii") == (267 * 65536 + 59) / 60 * 10)  // Gecko's, the widest
    #expect(webkit.width(of: "mmmmmmmmmm") == 160 * 65536)
    #expect(any.width(of: "mmmmmmmmmm") == 160 * 65536)
    #expect(gecko.unit == .appUnits && gecko.unitsPerPixel == 60)
    #expect(gecko.layoutWidth(pixels: 333.3) == 19_998)
    #expect(webkit.layoutWidth(pixels: 333.3) == 21_331 << 10)
    #expect(blink.layoutWidth(pixels: 333.3) == Int((333.3 * 65536).rounded()))
    // A line of exactly the width fits in Gecko and WebKit; Blink allows 1/64 px more; any allows nothing more.
    #expect(gecko.fits(items: [2670], width: 2670) && !gecko.fits(items: [2671], width: 2670))
    #expect(blink.fits(items: [100 * 65536 + 1024], width: 100 * 65536))
    #expect(!any.fits(items: [100 * 65536 + 1], width: 100 * 65536))
  }

  static func breaks(_ text: String, _ rules: LineBreaker.Rules) -> String {
    BreakNotation.render(text, breaker: LineBreaker(rules: rules))
  }

  @Test func eachEngineBreaksByItsOwnRules() {
    let url = "see https://example.org/docs"
    #expect(Self.breaks(url, .chromium) == "×s×e×e×␠÷h×t×t×p×s×:×/×/×e×x×a×m×p×l×e×.×o×r×g×/×d×o×c×s÷\n")
    #expect(Self.breaks(url, .gecko) == "×s×e×e×␠÷h×t×t×p×s×:×/×/÷e×x×a×m×p×l×e×.×o×r×g×/÷d×o×c×s÷\n")
    #expect(Self.breaks(url, .webkit) == Self.breaks(url, .chromium))
    #expect(Self.breaks(url, .anyEngine) == Self.breaks(url, .chromium))
    // A hyphen before a digit: Blink and WebKit break in a date, Gecko never.
    #expect(Self.breaks("2024-06", .chromium) == "×2×0×2×4×-÷0×6÷\n")
    #expect(Self.breaks("2024-06", .gecko) == "×2×0×2×4×-×0×6÷\n")
    #expect(Self.breaks("2024-06", .anyEngine) == "×2×0×2×4×-×0×6÷\n")
    // Small kana: Blink breaks before them, Gecko never, WebKit only on a page in Japanese.
    #expect(Self.breaks("東京ッ", .chromium) == "×東÷京÷ッ÷\n")
    #expect(Self.breaks("東京ッ", .gecko) == "×東÷京×ッ÷\n")
    #expect(Self.breaks("東京ッ", .webkit) == "×東÷京×ッ÷\n")
    #expect(Self.breaks("東京ッ", .webkitJapanese) == "×東÷京÷ッ÷\n")
    #expect(LineBreaker.Rules(.webkit, language: "ja-JP") == .webkitJapanese)
    #expect(LineBreaker.Rules(.webkit, language: "en") == .webkit)
    // WebKit keeps a hyphen with a Latin-1 letter after it.
    #expect(Self.breaks("peut-être", .chromium) == "×p×e×u×t×-÷ê×t×r×e÷\n")
    #expect(Self.breaks("peut-être", .webkit) == "×p×e×u×t×-×ê×t×r×e÷\n")
  }

  /// Inside a run of Thai, Lao, Khmer or Burmese, Blink and WebKit break at the words of ICU's dictionaries, Gecko
  /// at those of ICU4X's LSTM models (Firefox's lines in `EngineAgreementTests` hold these), and `any` only where
  /// both do.
  @Test func geckoFindsWordsWithICU4XsModels() {
    // ICU4X's own example: both find the same four words.
    let thai = "×ภ×า×ษ×า÷ไ×ท×ย÷ภ×า×ษ×า÷ไ×ท×ย÷\n"
    #expect(Self.breaks("ภาษาไทยภาษาไทย", .chromium) == thai)
    #expect(Self.breaks("ภาษาไทยภาษาไทย", .gecko) == thai)
    // The model splits สวัสดี, which the dictionary keeps whole.
    #expect(Self.breaks("สวัสดีครับ", .chromium) == "×ส×วั×ส×ดี÷ค×รั×บ÷\n")
    #expect(Self.breaks("สวัสดีครับ", .gecko) == "×ส×วั×ส÷ดี÷ค×รั×บ÷\n")
    #expect(Self.breaks("สวัสดีครับ", .anyEngine) == Self.breaks("สวัสดีครับ", .chromium))
    // ICU4X's line segmenter breaks at the end of a run, before closing punctuation too.
    #expect(Self.breaks("ไทย)ไทย", .gecko) == "×ไ×ท×ย÷)×ไ×ท×ย÷\n")
    #expect(Self.breaks("ไทย)ไทย", .chromium) == "×ไ×ท×ย×)×ไ×ท×ย÷\n")
    #expect(Self.breaks("ไทย)ไทย", .anyEngine) == "×ไ×ท×ย×)×ไ×ท×ย÷\n")
    // Never before a mark: the model ends a word after က in စကား, but Gecko keeps U+102C AA in က's cluster.
    #expect(Self.breaks("စကားလုံးသည်", .gecko) == "×စ×က×ာ×း÷လုံ×း÷သ×ည်÷\n")
    // A script without a model (Tai Tham) stays whole in Gecko.
    #expect(Self.breaks("ᨠᩅ᩠ᨾᩯᨷ", .gecko) == "×ᨠ×ᩅ᩠×ᨾᩯ×ᨷ÷\n")
  }

  /// WebKit finds a text box's words in the box alone, and breaks where a box starts only if ICU does after the
  /// last two characters of the box before (WebKitGTK breaks `เห็นติ[ดกัน]ก[ด]*น้*ำน้ำคำ` as `เห็น|ติดกันกดน้ำ|น้ำคำ`,
  /// where the whole run breaks at every word).
  @Test func webKitFindsWordsBoxByBox() {
    let boxes = ["เห็นติ", "ดกัน", "ก", "ด", "น้", "ำน้ำคำ"]
    let scalars = Array(boxes.joined().unicodeScalars)
    var starts: [Int] = []
    for box in boxes.dropLast() { starts.append((starts.last ?? 0) + box.unicodeScalars.count) }
    let expected = ["เห็น", "เห็นติดกันกดน้ำ"].map(\.unicodeScalars.count)
    #expect(DictionaryBreaks.boxBoundaries(in: scalars, boxes: starts) == expected)
    #expect(DictionaryBreaks.boundaries(in: scalars).count == 5)
  }

  /// WebKit's scan skips ahead to ICU's next boundary and compares the character it stops at with the one it
  /// asked ICU at: between `၊` and `*` it compares two asterisks, so it takes no break where ICU has one
  /// (WebKitGTK keeps `ဘာသာ*၊*မြန်မာ` whole); `any` breaks only where WebKit does.
  @Test func webKitsScanComparesAStaleCharacter() {
    let text = "ဘာသာ*၊*မြန်မာ"
    #expect(Self.breaks(text, .chromium).contains("၊÷*"))
    #expect(Self.breaks(text, .webkit).contains("၊×*"))
    #expect(Self.breaks(text, .anyEngine).contains("၊×*"))
    // With no stale character to compare (a letter before the mark), WebKit breaks where ICU does.
    #expect(Self.breaks("ဘာသာ၊*မြန်မာ", .webkit) == Self.breaks("ဘာသာ၊*မြန်မာ", .chromium))
  }

  /// Under `any`, a text is shown uncut only if every engine's own lines fit the limit.
  ///
  /// A Windows path wider than 200 px breaks between two letters in `any`'s three lines, where Gecko breaks after `C:` and takes four; with a
  /// limit of 3 the view is cut (its last line ends with the ellipsis and the toggle), with 4 it is not. A text whose
  /// lines all end at breaks every engine allows is not checked further, and stays uncut.
  @Test func anyShowsATextUncutOnlyIfEveryEngineFitsIt() throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])
    func view(_ string: String, _ engine: BrowserEngine, limit: Int) -> TruncatedText {
      let measurer = FontMeasurer(fonts, engine: engine)
      return Truncator.truncate(
        StyledText(plain: string), measurer: measurer, breaker: LineBreaker(rules: .init(engine)),
        width: measurer.layoutWidth(pixels: 200), options: TruncationOptions(lineLimit: limit), state: .collapsed)
    }
    let path = #"C:\Users\someone\Documents\report-final-v2.docx docs here here"#
    #expect(view(path, .gecko, limit: 9).lineCount == 4)
    #expect(view(path, .blink, limit: 9).lineCount == 3)
    let cut = view(path, .any, limit: 3)
    #expect(cut.isTruncated && cut.lines.count == 3)
    #expect(cut.lines.last?.fragments.contains { $0.role == .moreLabel } == true)
    #expect(!view(path, .any, limit: 4).isTruncated)
    let words = "Short words that wrap onto a second line and a third at this width"
    #expect(view(words, .any, limit: 3).lineCount == 3 && !view(words, .any, limit: 3).isTruncated)
  }

  /// WebKit shapes each element's part of a word alone (an Arabic word's letters do not join across a link), and
  /// keeps to a fraction of a pixel what shaping adds in its complex path (a Devanagari half form), as WebKitGTK
  /// lays them out; Blink and Gecko shape across elements of one face.
  @Test func webKitShapesEachElementAlone() throws {
    let fallbacks = FontFamily.notoFallbacks()
    try #require(fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: fallbacks)
    func width(_ markdown: String, _ engine: BrowserEngine) -> Double {
      let text = TextSource(LocalizedKey(markdown)).resolve().text
      let measurer = FontMeasurer(fonts, engine: engine)
      let laid = Truncator.truncate(
        text, measurer: measurer, breaker: LineBreaker(rules: .init(engine)), width: measurer.layoutWidth(pixels: 1000),
        state: .expanded)
      return Double(laid.lines.first?.width ?? 0) / Double(measurer.unitsPerPixel)
    }
    #expect(width("المعاينة", .webkit) == 49)
    #expect(width("[المعاي](https://example.com)نة", .webkit) == 57)
    #expect(width("~~المعاي~~نة", .webkit) == 57)
    for engine in [BrowserEngine.blink, .gecko] {
      #expect(width("[المعاي](https://example.com)نة", engine) == width("المعاينة", engine))
    }
    // Hinted advances 11, 6 and 8 px; the half form of ब is 49 units narrower, 0.784 px.
    #expect(abs(width("शब्द", .webkit) - 24.216) < 0.0001)
    #expect(abs(width("पंक्तियाँ", .webkit) - 43.832) < 0.0001)
  }

  /// Each style is a family of its own, so that no engine draws a style's missing glyph from another style's face;
  /// an emoji of emoji presentation is drawn first in the emoji family, listed first for exactly its characters.
  @Test func thePageChoosesTheMeasuredFace() throws {
    let fallbacks = FontFamily.notoFallbacks()
    try #require(fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: fallbacks)
    let html = Paragraph("**bold** *italic* 😀 🚀").html(width: 300, fonts: fonts).html
    #expect(html.contains("-Bold\";src:url(\"DejaVuSans-Bold.ttf\")"))
    #expect(html.contains("-Italic\";src:url(\"DejaVuSans-Oblique.ttf\")"))
    #expect(html.contains("unicode-range:U+1F600,U+1F680;"))
    let emoji = try #require(html.firstMatch(of: /font-family:("Unfold-[0-9a-f-]+-Emoji"),/)?.output.1)
    #expect(html.contains("font-family:\(emoji),\"Unfold-"))
    // DejaVu Sans draws 😀 in outline; the measurer takes the colour emoji's advance, as the page draws it.
    let measurer = FontMeasurer(fonts, engine: .blink)
    #expect(measurer.width(of: "😀") == measurer.width(of: "🚀"))
    // Gecko drops a downloaded colour bitmap font: every other face leaves 😀 and 🚀 out, so Gecko draws them in
    // the system's emoji font, and the joiner, selectors and the rest of the text stay in DejaVu Sans.
    #expect(
      html.contains(
        "\"DejaVuSans.ttf\");font-weight:400;font-style:normal;unicode-range:U+0-1F5FF,U+1F601-1F67F,U+1F681-10FFFF;"))
    let gecko = FontMeasurer(fonts, engine: .gecko)
    #expect(gecko.width(of: "😀") == gecko.width(of: "🚀"))
    // A fragment without emoji declares DejaVu Sans whole, under another name: on one page, its face would draw
    // 😀 in the other fragment too (a browser takes the last face of a family that has the character).
    let plain = Paragraph("**bold** *italic*").html(width: 300, fonts: fonts).html
    #expect(!plain.contains("unicode-range"))
    let family = /font-family:"(Unfold-[0-9a-f-]+)";src:url\("DejaVuSans.ttf"\)/
    let names = [html, plain].compactMap { $0.firstMatch(of: family).map { String($0.output.1) } }
    #expect(names.count == 2 && names[0] != names[1])
  }
}
