import Testing
import Unfold

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
}
