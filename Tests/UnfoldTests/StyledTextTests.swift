import TestSupport
import Testing

@testable import Unfold

/// The model: coalesced runs and their dump.
@Suite struct StyledTextTests {
  /// The run that holds an offset, found by a search without branches, is the one a walk along the runs finds:
  /// every offset of 2,000 random texts of 1 to 40 runs, the end offset included (the last run); so is the one
  /// looked for from a hint, before or after the answer, near or far, or out of range.
  @Test func theRunHoldingAnOffsetIsTheOneAWalkFinds() {
    var random = SplitMix64(state: 77)
    let styles = [Style.plain, Style(.bold)]
    for _ in 0..<2_000 {
      var builder = StyledText.Builder()
      for index in 0..<(1 + random.below(40)) {
        builder.append(String(repeating: "a", count: 1 + random.below(5)), style: styles[index % 2])
      }
      let text = builder.build()
      var ends: [Int] = []
      for run in text.runs { ends.append((ends.last ?? 0) + run.length) }
      for offset in 0...text.string.utf8.count {
        let walked = ends.firstIndex { $0 > offset } ?? ends.count - 1
        #expect(text.runIndex(containing: offset) == walked, "offset \(offset) of runs ending at \(ends)")
        let hint = random.below(ends.count + 2) - 1
        #expect(text.runIndex(containing: offset, from: hint) == walked, "offset \(offset) from run \(hint)")
      }
    }
    #expect(StyledText(plain: "").runIndex(containing: 0) == 0)
  }

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
