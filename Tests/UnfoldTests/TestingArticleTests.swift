import Testing
import Unfold

/// The example of the article on testing truncation (`TestingTruncation.md`), as it is written there.
@Suite struct TestingArticleTests {
  @Test func aLongCommentShowsThreeLinesAndAToggle() {
    let comment = Paragraph(
      LocalizedKey(
        "Some **bold** words in a sentence that is long enough to wrap over the line limit of this fixture.")
    )
    .lineLimit(3)
    let shown = comment.truncated(width: 30, state: .collapsed, countingAllLines: true)
    #expect(shown.isTruncated)
    #expect(
      shown.debugDump() == """
        collapsed, truncated, 4 lines expanded, width 30 cells
        1 (29) "Some bold words in a sentence"
          5 text plain "Some "
          4 text bold "bold"
          20 text plain " words in a sentence"
        2 (27) "that is long enough to wrap"
          27 text plain "that is long enough to wrap"
        3 (28) "over the line limit of… more"
          22 text plain "over the line limit of"
          1 ellipsis plain "…"
          1 gap plain " "
          4 moreLabel plain "more"

        """)
  }

  /// A clamped value shows in the dump.
  @Test func aClampedValueShowsInTheDump() {
    let dump = Paragraph(verbatim: "Short.").lineLimit(0).truncated(width: 20, state: .collapsed).debugDump()
    #expect(dump.hasSuffix("diagnostic valueOutOfRange: lineLimit 0 is below 1: 1 line is shown\n"))
  }
}
