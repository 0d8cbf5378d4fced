import Testing
import Unfold

/// The model: coalesced runs and their dump.
@Suite struct StyledTextTests {
  @Test func adjacentEqualRunsMergeAndEmptyRunsVanish() {
    let text = StyledText(
      "abcdef",
      runs: [
        .init(length: 2, style: .plain), .init(length: 0, style: Style(.bold)), .init(length: 1, style: .plain),
        .init(length: 3, style: Style(.bold)),
      ])
    #expect(text.runs == [.init(length: 3, style: .plain), .init(length: 3, style: Style(.bold))])
  }

  @Test func theBuilderKeepsStylesOfAppendedTexts() {
    var inner = StyledText.Builder()
    inner.append("x", style: Style(.code))
    var outer = StyledText.Builder()
    outer.append("a ")
    outer.append(inner.build())
    #expect(outer.build().debugDump() == "plain \"a \"\ncode \"x\"\n")
  }

  @Test func theDumpEscapesWhatIsInvisible() {
    #expect(StyledText(plain: "a\n\t\"\\\u{1B}").debugDump() == "plain \"a\\n\\t\\\"\\\\\\u{1B}\"\n")
  }
}
