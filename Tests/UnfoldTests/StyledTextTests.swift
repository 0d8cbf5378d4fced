import TestSupport
import Testing
import UnfoldCorpus

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

  /// A style that ends or starts inside a character moves to the character's end: the vowel sign goes with the
  /// emphasised letter it follows, an emoji sequence stays in one link, a run inside one character vanishes, and CR LF stays whole.
  @Test func aRunEndInsideACharacterMovesToItsEnd() {
    let link = Style(link: "https://example.com")
    #expect(
      MarkdownParser.parse("*বালত*ি ok").text.runs == [
        .init(length: "বালতি".utf8.count, style: Style(.italic)), .init(length: 3, style: .plain),
      ])
    #expect(
      MarkdownParser.parse("[🧑🏻](https://example.com)\u{200D}💻 a").text.runs.first
        == .init(length: "🧑🏻\u{200D}💻".utf8.count, style: link))
    #expect(MarkdownParser.parse("e*\u{301}*x").text.runs == [.init(length: 4, style: .plain)])
    #expect(
      StyledText("a\r\nb", runs: [.init(length: 2, style: .plain), .init(length: 2, style: Style(.bold))]).runs == [
        .init(length: 3, style: .plain), .init(length: 1, style: Style(.bold)),
      ])
  }

  /// Over random texts of letters (Latin, Bengali, Thai, Arabic, CJK), marks, joiners, emoji parts, jamo and CR LF, cut into runs at random code points:
  /// every run ends at a character boundary, no run is empty, and each character has the style of the run that
  /// held its first code point.
  @Test func everyRunEndsAtACharacterWithItsFirstCodePointsStyle() {
    var random = SplitMix64(state: 5)
    let pieces: [Unicode.Scalar] = [
      "a", " ", "\r", "\n", "\u{301}", "\u{9BF}", "\u{9CD}", "ক", "\u{200D}", "🧑", "\u{1F3FB}", "🇫", "🇷", "ด",
      "\u{E49}", "\u{1100}", "\u{1161}", "\u{FE0F}", "\u{600}", "ب", "中", "か", "\u{3099}", "。",
    ]
    let styles = [Style.plain, Style(.bold), Style(.italic)]
    for _ in 0..<2_000 {
      var scalars = String.UnicodeScalarView()
      var runs: [StyledText.Run] = []
      for _ in 0..<(1 + random.below(8)) {
        var piece = String.UnicodeScalarView()
        for _ in 0..<(1 + random.below(4)) { piece.append(random.pick(pieces)) }
        scalars.append(contentsOf: piece)
        runs.append(.init(length: String(piece).utf8.count, style: random.pick(styles)))
      }
      let string = String(scalars)
      let text = StyledText(string, runs: runs)
      var runStart = 0
      var expected: [Style] = []
      for character in string {
        var offset = 0
        var index = 0
        let position = runStart
        while index < runs.count, offset + runs[index].length <= position {
          offset += runs[index].length
          index += 1
        }
        expected.append(runs[min(index, runs.count - 1)].style)
        runStart += character.utf8.count
      }
      var actual: [Style] = []
      var ends = Set<Int>()
      var end = 0
      for run in text.runs {
        #expect(run.length > 0)
        end += run.length
        ends.insert(end)
      }
      var position = 0
      var boundaries = Set([0])
      for character in string {
        actual.append(text.runs[text.runIndex(containing: position)].style)
        position += character.utf8.count
        boundaries.insert(position)
      }
      #expect(ends.isSubset(of: boundaries), "runs of \(string.unicodeScalars.map(\.value)): \(text.runs)")
      #expect(actual == expected, "\(string.unicodeScalars.map(\.value)) in \(runs)")
    }
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
