/// One grapheme cluster of a styled text, measured where it stands on its line.
struct Cluster {
  /// Its UTF-8 range in the text.
  var start: Int
  var end: Int
  /// Its first code point, and the whole cluster when it has more than one.
  var first: Unicode.Scalar
  var multiple: Character?
  /// The style of the run it starts in.
  var style: Style
  /// Its advance at its position (a tab's depends on where it starts).
  var advance: Int
  /// What it is, decided from its code points as they were read (not from a `Character`, whose UTF-8 view
  /// cost a tenth of preparing to ask again).
  var isTab = false
  var isHardLineBreak = false
  var isSoftHyphen = false
  var isSpace = false

  var character: Character { multiple ?? Character(first) }

  /// Its advance by `measurer` when it starts at `x` on its line.
  func measuredAdvance(by measurer: any TextMeasurer, at x: Int) -> Int {
    if isTab { return measurer.tabAdvance(at: x) }
    if let multiple { return measurer.advance(of: multiple, style: style) }
    if first.isASCII { return measurer.advance(ofASCII: UInt8(first.value), style: style) }
    return measurer.advance(ofScalar: first, style: style)
  }

  /// A cluster of `first` alone, or of `first` and more (`multiple`, with `second` its second code point).
  init(
    start: Int, end: Int, first: Unicode.Scalar, second: Unicode.Scalar?, multiple: Character?, style: Style,
    advance: Int
  ) {
    self.start = start
    self.end = end
    self.first = first
    self.multiple = multiple
    self.style = style
    self.advance = advance
    (isTab, isSpace, isSoftHyphen, isHardLineBreak) = Self.kind(of: first.value, second: second)
  }

  /// What a cluster is, from its first code point and its second (`nil` for a cluster of one): a tab, a
  /// space (a tab is one too), a soft hyphen, a hard line break.
  @inline(__always)
  static func kind(
    of first: UInt32, second: Unicode.Scalar?
  ) -> (isTab: Bool, isSpace: Bool, isSoftHyphen: Bool, isHardLineBreak: Bool) {
    guard let second else {
      return (first == 0x09, first == 0x20 || first == 0x09, first == 0xAD, startsHardLineBreak(first))
    }
    // The only hard line break of two code points is CR LF: a CR joins nothing else (GB4, GB5).
    return (false, false, false, first == 0x0D && second == "\n")
  }

  /// Whether a cluster that starts with this code point is a hard line break: LF, VT, FF, CR (and CR LF),
  /// NEL, LS and PS are controls, so clusters of their own (GB4, GB5), as ``Character/isHardLineBreak``.
  static func startsHardLineBreak(_ value: UInt32) -> Bool {
    switch value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
    default: return false
    }
  }
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
  private var runs: RunCursor
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
    runs = RunCursor(text, at: range.lowerBound)
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
        return cluster(first: Unicode.Scalar(byte), second: nil, multiple: nil, length: 1)
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
    var second: Unicode.Scalar?
    while position < end {
      let scalar = scalars[position]
      if recognizer.hasBreak(before: scalar) {
        isPositionRecognized = true
        break
      }
      length += UTF8.width(scalar)
      if second == nil { second = scalar }
      position = scalars.index(after: position)
    }
    let multiple = second.map { _ in Character(String(scalars[start..<position])) }
    return cluster(first: first, second: second, multiple: multiple, length: length)
  }

  /// The cluster that starts at `offset`, measured, and the walk moved past it.
  private mutating func cluster(
    first: Unicode.Scalar, second: Unicode.Scalar?, multiple: Character?, length: Int
  ) -> Cluster {
    var cluster = Cluster(
      start: offset, end: offset + length, first: first, second: second, multiple: multiple,
      style: runs.style(at: offset), advance: 0)
    cluster.advance = cluster.measuredAdvance(by: measurer, at: x)
    offset += length
    x += cluster.advance
    return cluster
  }
}

/// The style at increasing UTF-8 offsets of a styled text, the run found once and kept while offsets stay in
/// it (rather than looked up in the text at each cluster).
struct RunCursor {
  private let runs: [StyledText.Run]
  private let runEnds: [Int]
  private var runIndex: Int
  private var runEnd: Int
  private var style: Style

  /// A cursor at `offset`.
  init(_ text: StyledText, at offset: Int) {
    runs = text.runs
    runEnds = text.runEnds
    runIndex = text.runIndex(containing: offset)
    runEnd = runEnds.isEmpty ? 0 : runEnds[runIndex]
    style = runs.isEmpty ? .plain : runs[runIndex].style
  }

  /// The style of the run that holds `offset`, at or after the offsets asked before.
  @inline(__always)
  mutating func style(at offset: Int) -> Style {
    if offset >= runEnd {
      while offset >= runEnd && runIndex + 1 < runs.count {
        runIndex += 1
        runEnd = runEnds[runIndex]
      }
      style = runs.isEmpty ? .plain : runs[runIndex].style
    }
    return style
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
