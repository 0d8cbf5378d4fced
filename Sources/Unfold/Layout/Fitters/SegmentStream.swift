/// The lines of a whole text laid out lazily, a window of the segmenter at a time, each handed out as soon as it
/// is closed and then forgotten: what writing a long text line by line needs, in memory that does not grow
/// with the text.
///
/// A window's segments are placed where the segmenter made them, by ``SegmentFitter/addAll(_:)``.
struct SegmentStream: IteratorProtocol {
  private var segments: Segmenter
  private var fitter: SegmentFitter<[LineLayout.Line]>
  private var handedOut = 0
  private var isFinished = false

  /// The lines of `text` at `width`, without their break offsets, from the UTF-8 offset
  /// `start`, the start of a line (or of the text).
  init(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: LineWidth, from start: Int = 0) {
    segments = Segmenter(text, measurer: measurer, breaker: breaker, from: start)
    fitter = SegmentFitter(text: text, measurer: measurer, width: width, recordsBreakOffsets: false)
  }

  mutating func next() -> LineLayout.Line? {
    while handedOut == fitter.lines.count {
      fitter.forgetLines()
      handedOut = 0
      if isFinished { return nil }
      if !segments.nextWindow({ fitter.addAll($0) }) {
        fitter.finish()
        isFinished = true
      }
    }
    defer { handedOut += 1 }
    return fitter.lines[handedOut]
  }
}
