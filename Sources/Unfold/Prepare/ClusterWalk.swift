/// One grapheme cluster of a styled text, measured where it stands on its line.
struct Cluster {
  /// Its UTF-8 range in the text.
  var start: Int
  var end: Int
  var character: Character
  /// The style of the run it starts in.
  var style: Style
  /// Its advance at its position (a tab's depends on where it starts).
  var advance: Int

  var isTab: Bool { character.isTab }
  var isHardLineBreak: Bool { character.isHardLineBreak }
  var isSoftHyphen: Bool { character.singleScalar == "\u{00AD}" }
  var isSpace: Bool { character.singleScalar == " " || character.isTab }
}

/// Walks the grapheme clusters of a stretch of a styled text, with their styles and advances; the one place
/// where clusters are measured, for preparing, emergency breaks, cutting and drawing.
struct ClusterWalk: IteratorProtocol {
  private let text: StyledText
  private let measurer: any TextMeasurer
  private var characters: Substring.Iterator
  private var offset: Int
  private var runIndex: Int
  private var runEnd: Int
  /// The position on the line where the next cluster starts.
  private(set) var x: Int

  /// Walks `range` (UTF-8 offsets on cluster boundaries) of `text`, the first cluster standing at `x`.
  init(_ text: StyledText, range: Range<Int>, measurer: any TextMeasurer, x: Int = 0) {
    self.text = text
    self.measurer = measurer
    characters = text.string.utf8Slice(range).makeIterator()
    offset = range.lowerBound
    runIndex = text.runIndex(containing: range.lowerBound)
    runEnd = text.runEnds.isEmpty ? 0 : text.runEnds[runIndex]
    self.x = x
  }

  mutating func next() -> Cluster? {
    guard let character = characters.next() else { return nil }
    let length = character.utf8.count
    while offset >= runEnd && runIndex + 1 < text.runs.count {
      runIndex += 1
      runEnd = text.runEnds[runIndex]
    }
    let style = text.runs.isEmpty ? .plain : text.runs[runIndex].style
    let advance =
      character.isTab ? measurer.tabAdvance(at: x) : measurer.advance(of: character, style: style)
    let cluster = Cluster(
      start: offset, end: offset + length, character: character, style: style, advance: advance)
    offset += length
    x += advance
    return cluster
  }
}

extension StyledText {
  /// The index of the run that holds the UTF-8 offset (the last run for the end offset).
  func runIndex(containing offset: Int) -> Int {
    var low = 0
    var high = runEnds.count - 1
    while low < high {
      let middle = (low + high) / 2
      if runEnds[middle] <= offset { low = middle + 1 } else { high = middle }
    }
    return max(0, low)
  }
}
