import Foundation
import Testing

@testable import Unfold

/// The source stage: verbatim and localized keys stay apart.
@Suite struct TextSourceTests {
  @Test func verbatimTrimsOuterWhitespaceAndParsesNothing() {
    let text = TextSource(verbatim: "\n \t**not bold** `x`  \n\n").resolve().text
    #expect(text == StyledText(plain: "**not bold** `x`"))
  }

  @Test func aKeyIsLookedUpThenParsed() {
    let table = StringsTable(["greeting": "Hello, **world**"])
    let text = TextSource("greeting", table: table).resolve().text
    #expect(text.string == "Hello, world")
    #expect(text.runs.last?.style == Style(.bold))
  }

  @Test func aMissingKeyShowsTheKeyAsMarkdown() {
    #expect(TextSource("*hi*").resolve().text.runs == [StyledText.Run(length: 2, style: Style(.italic))])
    let variable = "**from a variable**"
    #expect(TextSource(LocalizedKey(variable)).resolve().text.string == "from a variable")
  }

  @Test func lineEndsAreNormalisedAndNULBecomesAReplacementCharacter() {
    #expect(TextSource(verbatim: "a\r\nb\rc\0d").resolve().text.string == "a\nb\nc\u{FFFD}d")
    #expect(TextSource(LocalizedKey("a\r\n*b*\0")).resolve().text.string == "a\nb\u{FFFD}")
  }

  @Test func utf8ValidationNamesTheFirstBadByte() {
    #expect(UTF8Validation.firstInvalidOffset(in: Array("héllo".utf8)) == nil)
    #expect(UTF8Validation.firstInvalidOffset(in: [0x61, 0x62, 0xFF, 0x63]) == 2)
    #expect(UTF8Validation.firstInvalidOffset(in: [0x61, 0xC3]) == 1)
    #expect(UTF8Validation.firstInvalidOffset(in: [0xED, 0xA0, 0x80]) == 0)  // a surrogate
    #expect(UTF8Validation.firstInvalidOffset(in: [0xC0, 0xAF]) == 0)  // overlong
  }

  @Test func utf8ValidationInMemoryAgreesWithTheParserOfAnyCollection() {
    // Pieces of ASCII runs (long enough for the eight-byte steps), valid sequences of every length and broken
    // ones, joined at random: the offset found in memory is the one that the parser of any collection finds.
    let pieces: [[UInt8]] = [
      Array("plain ASCII text, ".utf8), Array("é".utf8), Array("中".utf8), Array("😀".utf8), [0x61], [0xFF], [0xC3],
      [0xE4, 0xB8], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0x80], Array("12345678".utf8),
    ]
    let valid = pieces.filter { String(validating: $0, as: UTF8.self) != nil }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var mismatches = 0
    var invalid = 0
    for text in 0..<3_000 {
      // Every other text of valid pieces only, so that both outcomes are checked.
      let choices = text % 2 == 0 ? valid : pieces
      var bytes: [UInt8] = []
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      for _ in 0..<Int((state >> 40) % 8) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes += choices[Int((state >> 33) % UInt64(choices.count))]
      }
      let expected = UTF8Validation.firstInvalidOffset(parsing: bytes)
      if expected != nil { invalid += 1 }
      if UTF8Validation.firstInvalidOffset(in: bytes) != expected { mismatches += 1 }
      if UTF8Validation.firstInvalidOffset(in: Data(bytes)) != expected { mismatches += 1 }
      if UTF8Validation.firstInvalidOffset(in: ([0x20] + bytes)[1...]) != expected { mismatches += 1 }
    }
    #expect(mismatches == 0)
    #expect(invalid > 1_000 && invalid < 1_500)  // both outcomes were checked
  }
}
