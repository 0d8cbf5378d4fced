import Testing
import Unfold

/// The prepare stage: cell widths and break opportunities.
@Suite struct PrepareTests {
  let cells = TerminalCells()

  @Test(arguments: [
    ("A", 1), ("中", 2), ("Ａ", 2), ("한", 2), ("e\u{301}", 1), ("\u{301}", 0), ("😀", 2),
    ("👨‍👩‍👧", 2), ("🇺🇸", 2), ("\u{200B}", 0), ("\u{1B}", 1), ("\u{7F}", 1), ("\u{9B}", 1),
    ("\u{1112}\u{1161}\u{11AB}", 2), ("…", 1), ("\n", 0),
  ])
  func clusterWidths(_ cluster: String, _ width: Int) {
    #expect(cells.advance(of: Character(cluster), style: .plain) == width)
  }

  @Test func tabsAdvanceToTheNextStop() {
    #expect(cells.width(of: "\t") == 8)
    #expect(cells.width(of: "abc\t") == 8)
    #expect(cells.width(of: "abcdefgh\tx") == 17)
  }

  @Test func opportunitiesFallAfterSpacesAndAtNewlines() {
    let offsets = LineBreaker.simple.allOpportunities(in: "ab  cd\nef \n\ng").map {
      "\($0.offset)\($0.kind == .mandatory ? "!" : "")"
    }
    #expect(offsets == ["4", "7!", "11!", "12!"])
    #expect(LineBreaker.simple.allOpportunities(in: "  lead").map(\.offset) == [2])
    #expect(LineBreaker.simple.allOpportunities(in: "end\n").isEmpty)
  }

  @Test func preparedTextReportsTheSameOpportunities() {
    let text = StyledText(plain: "one two\nthree")
    #expect(PreparedText(text).breakOpportunities == LineBreaker.simple.allOpportunities(in: text.string))
  }
}
