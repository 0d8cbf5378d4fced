/// A styled text measured once, ready to be laid out at any width with arithmetic only.
///
/// Preparing finds the break opportunities and measures every segment between them; ``layout(width:lineLimit:)``
/// then walks these numbers, so laying the same text out at another width measures nothing again (except the
/// clusters of a word wider than the line, which it breaks at grapheme boundaries).
///
///     let prepared = PreparedText(text, measurer: TerminalCells())
///     let narrow = prepared.layout(width: 30)
///     let wide = prepared.layout(width: 80)
public struct PreparedText: Sendable {
  /// The text.
  public let text: StyledText
  /// The measurer that measured it.
  public let measurer: any TextMeasurer
  /// The breaker that found its opportunities.
  public let breaker: LineBreaker
  let segments: [Segment]
  /// The sum of the segments' widths, content and spaces: how many lines a width makes, about.
  let totalWidth: Int

  /// Prepares a text.
  /// - Complexity: O(*n*) in the length of the text.
  public init(_ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .unicode) {
    self.text = text
    self.measurer = measurer
    self.breaker = breaker
    self.segments = Array(IteratorSequence(Segmenter(text, measurer: measurer, breaker: breaker)))
    self.totalWidth = segments.reduce(0) { $0 + $1.contentWidth + $1.spaceWidth }
  }

  /// Lays the text out in lines no wider than `width`.
  ///
  /// - Parameters:
  ///   - width: the width of a line, in the measurer's unit; below 1 acts as 1.
  ///   - lineLimit: when set, the layout stops as soon as it knows that the text needs more lines than
  ///     this, and reports ``LineLayout/isComplete`` as `false`.
  /// - Complexity: O(*s*) in the number of segments laid out.
  public func layout(width: Int, lineLimit: Int? = nil) -> LineLayout {
    LineLayout.fit(
      segments.makeIterator(), text: text, measurer: measurer, breaker: breaker, width: width,
      lineLimit: lineLimit, expected: (segments.count, totalWidth))
  }

  /// The break opportunities that preparing found, in order.
  public var breakOpportunities: [BreakOpportunity] {
    segments.dropLast().map {
      BreakOpportunity(offset: $0.end, kind: $0.isMandatoryBreak ? .mandatory : .allowed)
    }
  }
}
