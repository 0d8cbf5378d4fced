import Foundation
import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// The classes of input on which cmark-gfm 0.29.0.gfm.6 takes polynomial time (its pathological tests and
/// long paragraphs mixing emphasis and links) stay linear through the parser: a paragraph is parsed in pieces
/// of at most ``Chunking/maximumChunk`` bytes, cut at line ends, with a diagnostic.
@Suite(.serialized) struct SlowInputTests {
  static let classes = SlowInputs.classes

  /// The processor time of `body` on this thread: other tests and processes running meanwhile do not count, as they
  /// would in wall-clock time.
  static func time(_ body: () -> Void) -> Double {
    func now() -> Double {
      var spec = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
      return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    let start = now()
    body()
    return now() - start
  }

  /// How much longer `large` takes than `small`, twice the input: the two run in turn, five times each, and each
  /// keeps its least processor time; a ratio of 2.5 or more is measured again, up to three times in all, since a
  /// shared machine can slow one side (a cost that grows faster than the input stays over it every time).
  ///
  /// `report` is given each measurement's two times.
  static func doublingRatios(
    _ small: () -> Void, _ large: () -> Void, report: (Double, Double) -> Void = { _, _ in }
  ) -> [Double] {
    var ratios: [Double] = []
    for _ in 0..<3 {
      var (smallTime, largeTime) = (Double.infinity, Double.infinity)
      for _ in 0..<5 {
        smallTime = min(smallTime, time(small))
        largeTime = min(largeTime, time(large))
      }
      report(smallTime, largeTime)
      ratios.append(largeTime / smallTime)
      if largeTime / smallTime < 2.5 { break }
    }
    return ratios
  }

  /// Twice the input takes at most 2.5 times as long (a complexity check; the times are printed, not asserted),
  /// measured by ``doublingRatios(_:_:report:)`` (without the 16 KiB pieces, `![[]()` takes 17 times as long for
  /// twice the input).
  @Test(arguments: 0..<classes.count)
  func doublingTheInputAtMostDoublesTheTime(_ index: Int) {
    let (name, make) = Self.classes[index]
    let (smallInput, largeInput) = (make(100_000), make(200_000))
    let ratios = Self.doublingRatios({ _ = MarkdownParser.parse(smallInput) }, { _ = MarkdownParser.parse(largeInput) })
    {
      small, large in
      print(
        "\(name): 100 KB \(String(format: "%.1f", small * 1e3)) ms, 200 KB \(String(format: "%.1f", large * 1e3)) ms")
    }
    #expect(ratios.min()! < 2.5, "\(name): \(ratios.map { String(format: "%.2f×", $0) })")
  }

  /// The lazy stream of an expanded terminal view stays linear where UAX #14 needs context that no place near a
  /// line's end gives (a paragraph without two plain clusters in a row is one window of the scanner): doubling a
  /// paragraph of such text at most doubles its time, measured as above. (Read back to the window's start at
  /// every line, `a-a-a-…` took 4 times as long for twice the text.)
  @Test(arguments: [
    ("a-", 1), ("a-", 3), ("“\u{16}\u{16}\u{16}\u{16}\u{16}", 2), ("x\u{2060}", 1), ("1.", 1), ("(a) ", 2),
  ])
  func theLazyStreamStaysLinearWithoutPlacesToStart(_ unit: String, _ width: Int) {
    func layOut(_ text: StyledText) {
      var lines = CellStream(text, measurer: TerminalCells(), breaker: .unicode, width: LineWidth(width))
      while lines.next() != nil {}
    }
    let small = StyledText(plain: String(repeating: unit, count: 12_000 / unit.unicodeScalars.count))
    let large = StyledText(plain: String(repeating: unit, count: 24_000 / unit.unicodeScalars.count))
    let ratios = Self.doublingRatios({ layOut(small) }, { layOut(large) })
    #expect(
      ratios.min()! < 2.5, "\(unit.debugDescription) at width \(width): \(ratios.map { String(format: "%.2f×", $0) })")
  }

  /// A long paragraph is cut at line ends: no text is lost, constructs within a line keep their style, and a
  /// diagnostic says so; a short one is one piece with no diagnostic.
  @Test func aLongParagraphIsParsedInPiecesCutAtLineEnds() {
    let line = "word *emphasis* and [a link](https://example.com) here\n"
    let paragraph = String(repeating: line, count: 1_000)  // about 55 KB
    let result = MarkdownParser.parse(paragraph)
    #expect(result.text.string == String(repeating: "word emphasis and a link here\n", count: 1_000))
    #expect(result.text.runs.filter { $0.style.traits.contains(.italic) }.count == 1_000)
    #expect(result.text.runs.filter { $0.style.link == "https://example.com" }.count == 1_000)
    #expect(result.diagnostics.map(\.kind) == [.paragraphSplit])
    #expect(MarkdownParser.parse(String(repeating: line, count: 100)).diagnostics.isEmpty)
  }

  /// Without line ends a paragraph is cut after a space, and without spaces at a code point boundary.
  @Test func cutsFallBackToSpacesThenCodePoints() {
    let words = Substring(String(repeating: "spaced words ", count: 3_000))
    let wordPieces = Chunking.cut(words)
    #expect(wordPieces.count > 1 && wordPieces.dropLast().allSatisfy { $0.hasSuffix(" ") })
    #expect(wordPieces.joined() == words)
    let ideographs = Substring(String(repeating: "日本語", count: 4_000))  // 36 KB, no space
    let pieces = Chunking.cut(ideographs)
    #expect(pieces.count == 3)
    #expect(pieces.allSatisfy { $0.utf8.count <= Chunking.maximumChunk && $0.utf8.count % 3 == 0 })
    #expect(pieces.joined() == ideographs)
    let parsed = MarkdownParser.parse(String(ideographs))
    #expect(parsed.text.string == String(ideographs))
  }
}
