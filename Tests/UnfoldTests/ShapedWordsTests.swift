import Testing

@testable import Unfold

/// The cache of shaped words (``ShapedWords``): the advances it hands out are shaping's, under every engine, from
/// every thread, and it keeps to its bytes.
@Suite(.serialized) struct ShapedWordsTests {
  /// Texts whose words are shaped: Arabic, Hebrew with points, Devanagari, Thai, Burmese, and Latin next to them.
  static let texts = [
    "مرحبا بالعالم، هذا نص باللغة العربية. يقيس المحرك كل كلمة مرة واحدة ثم يقطع الأسطر. مرحبا بالعالم!",
    "שָׁלוֹם עוֹלָם, זֶה טֶקְסְט עִם נִקּוּד. שָׁלוֹם again and עוֹלָם.",
    "नमस्ते दुनिया, यह एक लंबा वाक्य है जो शब्दों में टूटता है। नमस्ते फिर से।",
    "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ เครื่องมือนี้วัดความกว้างของทุกคำเพียงครั้งเดียว ภาษาไทย",
    "မြန်မာစာသည် စကားလုံးများကြားတွင် နေရာလွတ်မထားပါ။ မြန်မာစာသည် ဤကိရိယာ",
  ]

  /// The lines and widths of `text` prepared under `engine` at a few widths.
  static func lines(of text: String, fonts: FontSet, engine: BrowserEngine) -> [[Int]] {
    let prepared = PreparedText(
      MarkdownParser.parse(text).text, measurer: FontMeasurer(fonts, engine: engine),
      breaker: LineBreaker(rules: .init(engine)))
    return [90, 160, 240].map { px in
      prepared.layout(width: px * FontMeasurer.unitsPerPixel).lines.flatMap { [$0.range.upperBound, $0.width] }
    }
  }

  /// Each text laid out from an empty cache (where a word repeated within it is shaped once) and again from the full
  /// one gives the same lines and widths, under every engine, and the second time asks the cache. (Other suites
  /// prepare text at the same time, so the counts are only seen to grow.)
  @Test(arguments: BrowserEngine.engines + [.any])
  func wordsFromTheCacheAreTheWordsShaped(engine: BrowserEngine) throws {
    let fonts = try FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks())
    for text in Self.texts {
      ShapedWords.shared.removeAll()
      let cold = Self.lines(of: text, fonts: fonts, engine: engine)
      let before = ShapedWords.shared.statistics
      let warm = Self.lines(of: text, fonts: fonts, engine: engine)
      #expect(warm == cold, "\(engine) \(text)")
      #expect(ShapedWords.shared.statistics.hits > before.hits, "\(text)")
    }
  }

  /// Sets of other sizes or files do not read each other's words.
  @Test func aWordIsKeptPerFontSet() throws {
    let small = try FontSet.dejaVu(size: 12, fallbacks: FontFamily.notoFallbacks())
    let large = try FontSet.dejaVu(size: 24, fallbacks: FontFamily.notoFallbacks())
    #expect(ShapedWords.FontsID.of(small) != ShapedWords.FontsID.of(large))
    #expect(ShapedWords.FontsID.of(small) == ShapedWords.FontsID.of(small))
    let text = Self.texts[0]
    ShapedWords.shared.removeAll()
    _ = Self.lines(of: text, fonts: large, engine: .blink)
    let afterLarge = Self.lines(of: text, fonts: small, engine: .blink)
    ShapedWords.shared.removeAll()
    #expect(Self.lines(of: text, fonts: small, engine: .blink) == afterLarge)
  }

  /// A measurer's tables are made once per font set and engine: a set of another size, line height, features or
  /// files gets its own, and the same files loaded again measure alike.
  @Test func aMeasurerIsMadeForEachFontSet() throws {
    let fonts = try FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks())
    var larger = fonts
    larger.size = 20
    var taller = fonts
    taller.lineHeight = 30
    var kerned = fonts
    kerned.kerningAndLigatures = true
    for engine in BrowserEngine.engines + [.any] {
      #expect(FontMeasurer(fonts, engine: engine).fonts.size == 16)
      #expect(FontMeasurer(larger, engine: engine).fonts.size == 20)
      #expect(FontMeasurer(taller, engine: engine).fonts.lineHeight == 30)
      #expect(FontMeasurer(kerned, engine: engine).fonts.kerningAndLigatures)
      #expect(!FontMeasurer(fonts, engine: engine).fonts.kerningAndLigatures)
      let text = "Wide words, wider WWW."
      let small = FontMeasurer(fonts, engine: engine).width(of: text)
      #expect(FontMeasurer(larger, engine: engine).width(of: text) > small)
      let reloaded = try FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks())
      #expect(FontMeasurer(reloaded, engine: engine).width(of: text) == small)
    }
  }

  /// Eight threads preparing the texts at once from one cache get what one thread gets alone.
  @Test func threadsShareTheCache() async throws {
    let fonts = try FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks())
    ShapedWords.shared.removeAll()
    let alone = Self.texts.map { Self.lines(of: $0, fonts: fonts, engine: .blink) }
    ShapedWords.shared.removeAll()
    let together = await withTaskGroup(of: (Int, [[Int]]).self) { group in
      for task in 0..<8 {
        group.addTask {
          let index = task % Self.texts.count
          return (index, Self.lines(of: Self.texts[index], fonts: fonts, engine: .blink))
        }
      }
      var results: [(Int, [[Int]])] = []
      for await result in group { results.append(result) }
      return results
    }
    for (index, lines) in together { #expect(lines == alone[index]) }
  }

  /// A cache holds at most its bytes, and a word asked again and again stays while others come and go.
  @Test func theCacheKeepsToItsBytes() {
    let cache = ShapedWords(byteLimit: 20_000)
    func key(_ value: Int) -> ShapedWords.Key {
      ShapedWords.Key(
        fonts: 1, metrics: 0, traits: 0, scalars: [UInt32(bitPattern: Int32(value)), 0x627], clusterStarts: [0, 1, 2],
        before: [],
        after: [], elementStarts: [])
    }
    var shaped = 0
    for value in 0..<5_000 {
      _ = cache.advances(of: key(value)) {
        shaped += 1
        return [value, 1]
      }
      #expect(cache.advances(of: key(-1)) { [-1, -1] } == [-1, -1])
      #expect(cache.statistics.bytes <= cache.byteLimit)
    }
    #expect(shaped == 5_000)
    var again = 0
    _ = cache.advances(of: key(-1)) {
      again += 1
      return []
    }
    #expect(again == 0)
    // The oldest words are gone, the newest are there.
    #expect(cache.advances(of: key(0)) { [7] } == [7])
    #expect(cache.advances(of: key(4_999)) { [7] } == [4_999, 1])
  }
}
