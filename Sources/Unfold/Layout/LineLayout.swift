/// A styled text broken into lines for one width.
///
/// The lines tile the text: each line's range starts where the previous one ended, and together they cover
/// every UTF-8 offset. What a line draws is its range up to ``Line/contentEnd``: trailing spaces hang past
/// the end of the line and a newline is not drawn.
public struct LineLayout: Sendable {
  /// One line.
  public struct Line: Hashable, Sendable {
    /// The UTF-8 range of the text the line holds, trailing spaces and newline included.
    public var range: Range<Int>
    /// The end of what is drawn: the range without its hanging trailing spaces and newline.
    public var contentEnd: Int
    /// The width of what is drawn.
    public var width: Int

    /// The UTF-8 range of what is drawn.
    public var contentRange: Range<Int> { range.lowerBound..<contentEnd }
  }

  /// The text laid out.
  public let text: StyledText
  /// The measurer of its widths.
  public let measurer: any TextMeasurer
  /// The breaker of its lines.
  public let breaker: LineBreaker
  /// The width of a line.
  public let width: Int
  /// The lines, in order.
  public let lines: [Line]
  /// Whether the lines cover the whole text; `false` when a line limit stopped the layout early because
  /// the text needs more lines than the limit.
  public let isComplete: Bool

  /// Lays out a styled text, measuring as it goes, and stops as soon as it knows the text exceeds
  /// `lineLimit` lines: showing 3 lines of a long text costs what its first lines cost.
  ///
  /// - Parameters:
  ///   - width: the width of a line; below 1 acts as 1.
  ///   - lineLimit: the number of lines wanted, or `nil` for all of them.
  /// - Complexity: O(*k*) in the length of the text laid out.
  public init(
    _ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .simple,
    width: Int, lineLimit: Int? = nil
  ) {
    self = Self.fit(
      Segmenter(text, measurer: measurer, breaker: breaker), text: text, measurer: measurer,
      breaker: breaker, width: width, lineLimit: lineLimit)
  }

  init(
    text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: Int, lines: [Line],
    isComplete: Bool
  ) {
    self.text = text
    self.measurer = measurer
    self.breaker = breaker
    self.width = width
    self.lines = lines
    self.isComplete = isComplete
  }

  static func fit(
    _ segments: some IteratorProtocol<Segment>, text: StyledText, measurer: any TextMeasurer,
    breaker: LineBreaker, width: Int, lineLimit: Int?
  ) -> LineLayout {
    var segments = segments
    var fitter = LineFitter(text: text, measurer: measurer, width: max(1, width))
    let limit = lineLimit.map { max(1, $0) } ?? Int.max
    var isComplete = true
    while let segment = segments.next() {
      if fitter.lines.count >= limit {
        isComplete = false
        break
      }
      fitter.add(segment)
      if fitter.lines.count > limit || (fitter.lines.count == limit && fitter.hasOpenLine) {
        isComplete = false
        break
      }
    }
    if isComplete { fitter.finish() }
    return LineLayout(
      text: text, measurer: measurer, breaker: breaker, width: max(1, width),
      lines: Array(fitter.lines.prefix(limit)), isComplete: isComplete)
  }
}

/// Places segments on lines greedily: a segment goes on the current line if its content fits after the
/// hanging spaces of the one before; otherwise it starts a new line; a segment wider than a whole line is
/// broken at grapheme boundaries.
struct LineFitter {
  let text: StyledText
  let measurer: any TextMeasurer
  let width: Int
  private(set) var lines: [LineLayout.Line] = []

  /// The start of the open line, or `nil` between lines.
  private var lineStart: Int?
  /// The width of the content placed on the open line.
  private var x = 0
  private var contentEnd = 0
  private var hasContent = false
  /// The trailing spaces of the last segment placed: they count only if more content follows.
  private var spaces: Range<Int> = 0..<0
  private var spacesWidth = 0
  private var spacesHaveTab = false

  init(text: StyledText, measurer: any TextMeasurer, width: Int) {
    self.text = text
    self.measurer = measurer
    self.width = width
  }

  var hasOpenLine: Bool { lineStart != nil }

  mutating func add(_ segment: Segment) {
    if lineStart == nil { open(at: segment.start) }
    if !segment.hasContent && !hasContent {
      // Spaces at the start of a line (of the text, or after a newline) are drawn and count.
      place(segment.start..<segment.spaceEnd)
    } else if segment.hasContent {
      let startX = hasContent ? x + pendingSpacesWidth() : x
      let contentWidth =
        segment.hasTab ? measure(segment.start..<segment.contentEnd, at: startX) : segment.contentWidth
      if startX + contentWidth <= width {
        x = startX
        x += contentWidth
        contentEnd = segment.contentEnd
        hasContent = true
      } else if hasContent {
        close(at: segment.start)
        open(at: segment.start)
        if segment.contentWidth <= width && !segment.hasTab {
          x = segment.contentWidth
          contentEnd = segment.contentEnd
          hasContent = true
        } else {
          place(segment.start..<segment.contentEnd)
        }
      } else {
        place(segment.start..<segment.contentEnd)
      }
    }
    if segment.hasContent {
      spaces = segment.contentEnd..<segment.spaceEnd
      spacesWidth = segment.spaceWidth
      spacesHaveTab = segment.hasTab
    } else if hasContent && contentEnd < segment.start {
      // Spaces with no content after the content of the line: they hang with the ones before.
      spaces = spaces.lowerBound..<segment.spaceEnd
      spacesWidth += segment.spaceWidth
      spacesHaveTab = spacesHaveTab || segment.hasTab
    } else {
      spaces = contentEnd..<contentEnd
      spacesWidth = 0
      spacesHaveTab = false
    }
    if segment.isMandatoryBreak {
      close(at: segment.end)
    }
  }

  mutating func finish() {
    close(at: text.string.utf8.count)
  }

  private mutating func open(at offset: Int) {
    lineStart = offset
    x = 0
    contentEnd = offset
    hasContent = false
    spaces = offset..<offset
    spacesWidth = 0
    spacesHaveTab = false
  }

  private mutating func close(at end: Int) {
    guard let start = lineStart else { return }
    lines.append(LineLayout.Line(range: start..<end, contentEnd: contentEnd, width: x))
    lineStart = nil
  }

  /// Places clusters one by one as content, starting new lines where the next cluster does not fit
  /// (never leaving a line empty).
  private mutating func place(_ range: Range<Int>) {
    var walk = ClusterWalk(text, range: range, measurer: measurer, x: x)
    while let cluster = walk.next() {
      if hasContent && x + cluster.advance > width, let start = lineStart, cluster.start > start {
        close(at: cluster.start)
        open(at: cluster.start)
        walk = ClusterWalk(text, range: cluster.start..<range.upperBound, measurer: measurer, x: 0)
        continue
      }
      x += cluster.advance
      contentEnd = cluster.end
      hasContent = true
    }
  }

  private func pendingSpacesWidth() -> Int {
    spacesHaveTab ? measure(spaces, at: x) : spacesWidth
  }

  private func measure(_ range: Range<Int>, at startX: Int) -> Int {
    var walk = ClusterWalk(text, range: range, measurer: measurer, x: startX)
    while walk.next() != nil {}
    return walk.x - startX
  }
}
