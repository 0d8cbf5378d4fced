import Foundation
import TestSupport
import Testing

@testable import Unfold

/// Runs every fixture under `Fixtures/` and compares each output with its expected file.
///
/// Re-record with `UNFOLD_RECORD=1 swift test --filter FixtureTests`, then review every changed file
/// (`git diff Fixtures`): a golden file is a claim about what users see. A missing expected file fails the
/// test (and is written when recording). Every HTML output, collapsed and expanded, is well formed.
@Suite struct FixtureTests {
  static let recording = ProcessInfo.processInfo.environment["UNFOLD_RECORD"] == "1"

  @Test func thereAreEnoughFixtures() {
    #expect(Fixture.all.count >= 40, "found \(Fixture.all.count) fixtures")
  }

  @Test(arguments: Fixture.all)
  func goldenOutputs(_ fixture: Fixture) throws {
    for (file, actual) in try fixture.outputs() {
      if file.hasSuffix(".html") {
        #expect(
          Invariants.htmlViolation(actual) == nil, "\(fixture.name)/\(file): \(Invariants.htmlViolation(actual) ?? "")")
      }
      let url = fixture.directory.appendingPathComponent(file)
      let expected = try? String(decoding: Data(contentsOf: url), as: UTF8.self)
      if Self.recording {
        if expected != actual { try Data(actual.utf8).write(to: url) }
        continue
      }
      guard let expected else {
        Issue.record("\(fixture.name)/\(file) is missing (record with UNFOLD_RECORD=1)")
        continue
      }
      let diff = TestSupport.lineDiff(expected: expected, actual: actual)
      #expect(diff.isEmpty, "\(fixture.name)/\(file) differs:\n\(diff)")
    }
  }

  @Test(arguments: Fixture.all)
  func invariantsHold(_ fixture: Fixture) throws {
    let paragraph = try fixture.paragraph()
    let options = try fixture.options()
    if paragraph.isScrollable { return }  // a viewport, not a truncation
    let source = paragraph.source.resolve().text
    let expanded = paragraph.truncated(width: options.width, state: .expanded)
    let count = try #require(expanded.lineCount)
    for state in DisplayState.allCases {
      let shown = paragraph.truncated(width: options.width, state: state)
      let problems = TestSupport.invariantViolations(
        shown, source: source, lineLimit: paragraph.options.lineLimit, expandedLineCount: count,
        inOrder: !paragraph.source.isDocument)
      #expect(problems.isEmpty, "\(fixture.name) \(state): \(problems.joined(separator: "; "))")
    }
    // Nothing lost: the expanded layout's lines tile the text exactly.
    let layout = LineLayout(source, width: options.width)
    let tiled = layout.lines.map { source.text(in: $0.range) }.joined()
    #expect(tiled == source.string, "\(fixture.name): lines do not tile the text")
  }
}
