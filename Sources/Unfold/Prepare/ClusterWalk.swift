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
///
/// It reads code points and asks Swift's own grapheme recognizer (the one `Character` iteration runs) where
/// clusters start: iterating the `Character`s of a slice cut through the UTF-8 view made the standard library
/// look for the cluster boundary before every index again (a tenth of preparing).
struct ClusterWalk: IteratorProtocol {
  private let text: StyledText
  private let measurer: any TextMeasurer
  private let scalars: String.UnicodeScalarView
  private let utf8: String.UTF8View
  private var position: String.Index
  private let end: String.Index
  private var recognizer = Unicode._CharacterRecognizer()
  /// Whether the recognizer has already seen the code point at `position` (it starts the next cluster).
  private var isPositionRecognized = false
  private var offset: Int
  private var runIndex: Int
  private var runEnd: Int
  /// The position on the line where the next cluster starts.
  private(set) var x: Int

  /// Walks `range` (UTF-8 offsets on cluster boundaries) of `text`, the first cluster standing at `x`.
  init(_ text: StyledText, range: Range<Int>, measurer: any TextMeasurer, x: Int = 0) {
    self.text = text
    self.measurer = measurer
    utf8 = text.string.utf8
    scalars = text.string.unicodeScalars
    position = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
    end = utf8.index(position, offsetBy: range.count)
    offset = range.lowerBound
    runIndex = text.runIndex(containing: range.lowerBound)
    runEnd = text.runEnds.isEmpty ? 0 : text.runEnds[runIndex]
    self.x = x
  }

  mutating func next() -> Cluster? {
    guard position < end else { return nil }
    let start = position
    // An ASCII byte followed by another (or by the end), CR aside, is a cluster of its own: no recognizer.
    let byte = utf8[position]
    if byte < 0x80, byte != 0x0D {
      let after = utf8.index(after: position)
      if after == end || utf8[after] < 0x80 {
        position = after
        isPositionRecognized = false
        return cluster(Character(Unicode.Scalar(byte)), length: 1)
      }
    }
    let first = scalars[position]
    if !isPositionRecognized {
      // A cluster starts here, so a fresh recognizer is in the right state: no rule looks back across a
      // cluster boundary.
      recognizer = Unicode._CharacterRecognizer()
      _ = recognizer.hasBreak(before: first)
    }
    var length = UTF8.width(first)
    position = scalars.index(after: position)
    isPositionRecognized = false
    var count = 1
    while position < end {
      let scalar = scalars[position]
      if recognizer.hasBreak(before: scalar) {
        isPositionRecognized = true
        break
      }
      length += UTF8.width(scalar)
      count += 1
      position = scalars.index(after: position)
    }
    return cluster(count == 1 ? Character(first) : Character(String(scalars[start..<position])), length: length)
  }

  /// The cluster that starts at `offset`, measured, and the walk moved past it.
  private mutating func cluster(_ character: Character, length: Int) -> Cluster {
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
