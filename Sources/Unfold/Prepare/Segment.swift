/// The text between two break opportunities, measured once: what layout places as a unit.
///
///     "quick␠␠" + next segment        start ──content── contentEnd ──spaces── spaceEnd ──newline── end
///
/// Trailing spaces hang: they count only when another segment follows on the same line.
struct Segment: Hashable, Sendable {
  var start: Int
  /// The end of the content: everything but trailing spaces, tabs and a newline.
  var contentEnd: Int
  /// The end of the trailing spaces and tabs.
  var spaceEnd: Int
  /// The start of the next segment.
  var end: Int
  /// The width of the content, standing at the start of a line.
  var contentWidth: Int
  /// The width of the trailing spaces; only meaningful without tabs.
  var spaceWidth: Int
  /// Whether a tab makes widths depend on the position on the line.
  var hasTab: Bool
  /// Whether a line must end after this segment.
  var isMandatoryBreak: Bool
  /// Whether the segment ends with a soft hyphen: a line that breaks after it shows a hyphen.
  var endsWithSoftHyphen: Bool

  var hasContent: Bool { contentEnd > start }
}

/// Cuts a styled text into segments at the break opportunities of a ``LineBreaker``, lazily, a window of the
/// ``BreakScanner`` at a time: the clusters and opportunities it found in one pass are measured here, in one
/// loop per window over its arrays.
struct Segmenter: IteratorProtocol {
  private let measurer: any TextMeasurer
  private var scanner: BreakScanner
  /// The segments of the windows read so far that are complete, and the next one to hand out.
  private var ready: [Segment] = []
  private var readyIndex = 0
  /// The segment that the next window may continue (a long paragraph is cut between clusters that may
  /// not break).
  private var open: Segment?
  /// The width of the open segment so far.
  private var openWidth = 0
  private var runs: RunCursor
  /// Where the next cluster stands on a line that would hold the whole text (for tabs).
  private var x = 0

  init(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker) {
    self.measurer = measurer
    scanner = BreakScanner(text.string, from: 0, rules: breaker.rules)
    runs = RunCursor(text, at: 0)
  }

  mutating func next() -> Segment? {
    while readyIndex == ready.count {
      ready.removeAll(keepingCapacity: true)
      readyIndex = 0
      guard scanner.scanWindow() else {
        defer { open = nil }
        return open
      }
      measureWindow()
    }
    defer { readyIndex += 1 }
    return ready[readyIndex]
  }

  /// Measures the clusters of the scanner's window and cuts them into segments.
  private mutating func measureWindow() {
    let clusters = scanner.clusters
    let scalars = scanner.scalars
    let measurer = self.measurer
    var open = self.open
    var width = openWidth
    var x = self.x
    for k in 0..<scanner.clusterCount {
      let cluster = clusters[k]
      let start = cluster.offset
      if var segment = open, cluster.kind != .none {
        segment.isMandatoryBreak = cluster.kind == .mandatory
        ready.append(segment)
        open = nil
      }
      if open == nil {
        open = Segment(
          start: start, contentEnd: start, spaceEnd: start, end: start, contentWidth: 0, spaceWidth: 0,
          hasTab: false, isMandatoryBreak: false, endsWithSoftHyphen: false)
        width = 0
      }
      let firstIndex = cluster.scalar
      let endIndex = clusters[k + 1].scalar
      let first = scalars[firstIndex].scalar
      let count = endIndex - firstIndex
      let kind = Cluster.kind(of: first.value, second: count > 1 ? scalars[firstIndex + 1].scalar : nil)
      let advance: Int
      if kind.isTab {
        advance = measurer.tabAdvance(at: x)
      } else if count == 1 {
        let style = runs.style(at: start)
        advance =
          first.isASCII
          ? measurer.advance(ofASCII: UInt8(first.value), style: style)
          : measurer.advance(ofScalar: first, style: style)
      } else {
        advance = measurer.advance(
          ofScalars: scalars[firstIndex..<endIndex].lazy.map(\.scalar), style: runs.style(at: start))
      }
      x += advance
      width += advance
      open!.add(end: clusters[k + 1].offset, kind: kind, width: width)
    }
    self.open = open
    openWidth = width
    self.x = x
  }
}

extension Segment {
  /// Adds the next cluster, which ends at `end`; `width` is the segment's width with it.
  @inline(__always)
  mutating func add(end: Int, kind: Cluster.Kind, width: Int) {
    self.end = end
    if kind.isTab { hasTab = true }
    endsWithSoftHyphen = kind.isSoftHyphen
    if kind.isHardLineBreak {
      // only the end of a segment holds a hard line break
    } else if kind.isSpace {
      spaceEnd = end
      spaceWidth = width - contentWidth
    } else {
      contentEnd = end
      spaceEnd = end
      contentWidth = width
      spaceWidth = 0
    }
  }
}
