import Testing
import Unfold

/// The truncate stage: the cut, the labels, the states.
@Suite struct TruncatorTests {
  func shown(
    _ text: String, width: Int, lines: Int = 3, state: DisplayState = .collapsed, less: String? = nil
  ) -> [String] {
    Truncator.truncate(
      StyledText(plain: text), width: width, options: TruncationOptions(lineLimit: lines, lessLabel: less),
      state: state
    ).lines.map(\.text)
  }

  @Test func theLastLineIsCutSoThatEllipsisAndLabelFit() {
    #expect(shown("one two three four five six", width: 12, lines: 1) == ["one… more"])
    #expect(shown("alpha beta gamma delta", width: 16, lines: 1) == ["alpha beta… more"])
  }

  @Test func aCutInsideAWordWhenTheLastBreakIsTooFarBack() {
    #expect(shown("a bcdefghijklmn opq", width: 16, lines: 1) == ["a bcdefghi… more"])
  }

  @Test func textThatFitsHasNoToggle() {
    let result = Truncator.truncate(StyledText(plain: "short"), width: 10, state: .collapsed)
    #expect(!result.isTruncated)
    #expect(result.lines.map(\.text) == ["short"])
    #expect(result.lineCount == 1)
  }

  @Test func aLabelIsNeverCutEvenWhenTheLineIsTooNarrow() {
    #expect(shown("abcdefgh", width: 3, lines: 1) == ["… more"])
  }

  @Test func expandedShowsEveryLineAndTheLessLabelWhereItFits() {
    #expect(shown("a b c d", width: 3, lines: 1, state: .expanded, less: "less") == ["a b", "c d", "less"])
    #expect(shown("a b c d", width: 8, lines: 1, state: .expanded, less: "x") == ["a b c d"])
    #expect(shown("aa bb cc dd", width: 8, lines: 1, state: .expanded, less: "less") == ["aa bb cc", "dd less"])
  }

  @Test func collapsedLayoutDoesNotCountLinesUnlessAsked() {
    let text = StyledText(plain: String(repeating: "word ", count: 1000))
    #expect(Truncator.truncate(text, width: 20, state: .collapsed).lineCount == nil)
    #expect(Truncator.truncate(text, width: 20, state: .collapsed, countingAllLines: true).lineCount == 250)
  }

  @Test func stylesSurviveTheCut() {
    var builder = StyledText.Builder()
    builder.append("plain ")
    builder.append("bold words here", style: Style(.bold))
    let result = Truncator.truncate(
      builder.build(), width: 16, options: TruncationOptions(lineLimit: 1), state: .collapsed)
    #expect(result.lines[0].fragments.map(\.role) == [.text, .text, .ellipsis, .gap, .moreLabel])
    #expect(result.lines[0].fragments[1].style == Style(.bold))
    #expect(result.lines[0].text == "plain bold… more")
  }
}
