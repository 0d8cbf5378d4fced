import Testing
import Unfold

/// The layout stage: greedy lines, hanging spaces, emergency breaks, early exit.
@Suite struct LayoutTests {
  func lines(_ text: String, width: Int, limit: Int? = nil) -> [String] {
    let styled = StyledText(plain: text)
    return LineLayout(styled, width: width, lineLimit: limit).lines.map {
      String(styled.text(in: $0.contentRange))
    }
  }

  @Test func wordsWrapAtSpacesAndTrailingSpacesHang() {
    #expect(lines("the quick brown fox", width: 9) == ["the quick", "brown fox"])
    #expect(lines("abc     def", width: 4) == ["abc", "def"])
    let layout = LineLayout(StyledText(plain: "ab   cd"), width: 3)
    #expect(layout.lines.map(\.width) == [2, 2])
    #expect(layout.lines.map(\.range) == [0..<5, 5..<7])
  }

  @Test func newlinesBreakAndATrailingNewlineAddsNoLine() {
    #expect(lines("a\nb\n\nc", width: 10) == ["a", "b", "", "c"])
    #expect(lines("a\n", width: 10) == ["a"])
    #expect(lines("a\n\n", width: 10) == ["a", ""])
    #expect(lines("", width: 10) == [])
  }

  @Test func aWordWiderThanTheLineBreaksAtGraphemeBoundaries() {
    #expect(lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    #expect(lines("x 中文字", width: 3) == ["x", "中", "文", "字"])
    #expect(lines("e\u{301}e\u{301}e\u{301}", width: 2) == ["e\u{301}e\u{301}", "e\u{301}"])
    #expect(lines("😀", width: 1) == ["😀"])
  }

  @Test func leadingSpacesOfALineCount() {
    #expect(lines("  ab cd", width: 5) == ["  ab", "cd"])
    #expect(LineLayout(StyledText(plain: "x\n\tab"), width: 20).lines.map(\.width) == [1, 10])
  }

  @Test func aLimitStopsTheLayoutEarly() {
    let long = String(repeating: "word ", count: 200_000)
    let layout = LineLayout(StyledText(plain: long), width: 20, lineLimit: 3)
    #expect(layout.lines.count == 3)
    #expect(!layout.isComplete)
    #expect(layout.lines.last!.range.upperBound < 100)
    let exact = LineLayout(StyledText(plain: "a\nb\nc"), width: 20, lineLimit: 3)
    #expect(exact.isComplete && exact.lines.count == 3)
  }

  @Test func relayoutOfPreparedTextMatchesAFreshLayout() {
    let text = StyledText(plain: "The quick brown fox jumps over the lazy dog\nand\tthen some 中文 text.")
    let prepared = PreparedText(text)
    for width in 1...50 {
      #expect(prepared.layout(width: width).lines == LineLayout(text, width: width).lines, "width \(width)")
    }
  }

  @Test func widthBelowOneActsAsOne() {
    #expect(lines("ab", width: 0) == ["a", "b"])
    #expect(lines("ab", width: -5) == ["a", "b"])
  }
}
