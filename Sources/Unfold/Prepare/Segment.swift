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

/// Cuts a styled text into segments at the break opportunities of a ``LineBreaker``, lazily.
struct Segmenter: IteratorProtocol {
  private var clusters: ClusterWalk
  private var opportunities: LineBreaker.Opportunities
  private var nextOpportunity: BreakOpportunity?
  private var pending: Cluster?

  init(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker) {
    clusters = ClusterWalk(text, range: 0..<text.string.utf8.count, measurer: measurer)
    opportunities = breaker.opportunities(in: text.string)
    nextOpportunity = opportunities.next()
    pending = clusters.next()
  }

  mutating func next() -> Segment? {
    guard let first = pending else { return nil }
    var segment = Segment(
      start: first.start, contentEnd: first.start, spaceEnd: first.start, end: first.start,
      contentWidth: 0, spaceWidth: 0, hasTab: false, isMandatoryBreak: false,
      endsWithSoftHyphen: false)
    var width = 0
    while let cluster = pending {
      if cluster.start > segment.start, let opportunity = nextOpportunity, opportunity.offset == cluster.start {
        segment.isMandatoryBreak = opportunity.kind == .mandatory
        nextOpportunity = opportunities.next()
        break
      }
      width += cluster.advance
      segment.end = cluster.end
      if cluster.isTab { segment.hasTab = true }
      segment.endsWithSoftHyphen = cluster.isSoftHyphen
      if cluster.isHardLineBreak {
        // only the end of a segment holds a hard line break
      } else if cluster.isSpace {
        segment.spaceEnd = cluster.end
        segment.spaceWidth = width - segment.contentWidth
      } else {
        segment.contentEnd = cluster.end
        segment.spaceEnd = cluster.end
        segment.contentWidth = width
        segment.spaceWidth = 0
      }
      pending = clusters.next()
    }
    return segment
  }
}
