import TestSupport
import Testing
import Unfold
import UnfoldCorpus

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

  /// No line is wider than the width (issue 37, item 12): a label that does not fit after the ellipsis goes on a
  /// line of its own below (where the ellipsis is not drawn); a label wider than the line is not drawn at all,
  /// nor an ellipsis wider than it.
  @Test func noLineIsWiderThanTheWidth() {
    #expect(shown("abcdefgh", width: 3, lines: 1) == ["ab…"])
    #expect(shown("abcdefgh ijk", width: 5, lines: 1) == ["abcde", "more"])
    #expect(shown("abcdefgh ijk", width: 6, lines: 1) == ["… more"])
    var random = SplitMix64(state: 41)
    // (No tab: a middle cut moves a tab, whose width depends on where it stands.)
    let words = ["a", "bb", "ccc", "dddd", "eeeeeeeee", "日本語", "👍🏽", "x-y"]
    for _ in 0..<400 {
      let text = (0..<(1 + random.below(12))).map { _ in random.pick(words) }.joined(separator: " ")
      let width = 1 + random.below(30)
      let options = TruncationOptions(
        lineLimit: 1 + random.below(3), moreLabel: random.pick(["more", "Read more", "…"]),
        lessLabel: random.pick([nil, "less", "Show less"]), ellipsis: random.pick(["…", "...", " [more text] "]),
        mode: random.pick([.tail, .head, .middle]), toggle: random.pick([.inline, .below, .overlay, .none]))
      for state in DisplayState.allCases {
        let truncated = Truncator.truncate(StyledText(plain: text), width: width, options: options, state: state)
        // A single cluster wider than the line is the one thing that cannot be made narrower.
        for line in truncated.lines where line.text.count > 1 {
          #expect(line.width <= width, "\(text.debugDescription) at \(width), \(state): '\(line.text)'")
        }
      }
    }
  }

  @Test func expandedShowsEveryLineAndTheLessLabelWhereItFits() {
    #expect(shown("a b c d", width: 4, lines: 1, state: .expanded, less: "less") == ["a b", "c d", "less"])
    #expect(shown("a b c d", width: 3, lines: 1, state: .expanded, less: "less") == ["a b", "c d"])
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

  /// A wider width never shows fewer characters (issue 37, item 3), in every mode: random texts at widths 1 to
  /// 200 cells, and in px in DejaVu Sans, from the width where `… more` fits on the cut line (below it the label
  /// goes on a line of its own, which shows a whole line more of text).
  @Test(arguments: [TruncationMode.tail, .head, .middle])
  func aWiderWidthNeverShowsLess(_ mode: TruncationMode) throws {
    var random = SplitMix64(state: 43)
    let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "xi", "omicron", "日本語", "a"]
    func shownCount(_ truncated: TruncatedText) -> Int {
      truncated.lines.reduce(0) { count, line in
        // Spaces left out: one that ends a line hangs, and is not drawn.
        count + line.fragments.filter { $0.role == .text }.reduce(0) { $0 + $1.text.count { $0 != " " } }
      }
    }
    let fonts = try FontSet.dejaVu(fallbacks: [])
    var failures: [String] = []
    for _ in 0..<40 {
      let text = StyledText(plain: (0..<(5 + random.below(30))).map { _ in random.pick(words) }.joined(separator: " "))
      let options = TruncationOptions(lineLimit: 1 + random.below(3), mode: mode)
      var previous = 0
      for width in 8...200 {
        let shown = shownCount(Truncator.truncate(text, width: width, options: options, state: .collapsed))
        if shown < previous {
          failures.append("\(text.string.debugDescription), \(options.lineLimit) lines, \(width) cells")
        }
        previous = shown
      }
      previous = 0
      // (A head cut puts a gap after the label too.)
      let marks = FontMeasurer(fonts).width(of: "… more ") / FontMeasurer.unitsPerPixel + 1
      for pixels in stride(from: marks, through: 600, by: 7) {
        let truncated = Truncator.truncate(
          text, measurer: FontMeasurer(fonts), breaker: .chromium, width: pixels * FontMeasurer.unitsPerPixel,
          options: options, state: .collapsed)
        let shown = shownCount(truncated)
        if shown < previous {
          failures.append("\(text.string.debugDescription), \(options.lineLimit) lines, \(pixels) px")
        }
        previous = shown
      }
    }
    #expect(failures.isEmpty, "\(failures.count) widths show less than a narrower one: \(failures.prefix(3))")
  }
}
