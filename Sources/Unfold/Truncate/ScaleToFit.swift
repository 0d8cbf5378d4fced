extension Truncator {
  /// The collapsed view of `text` in `fonts`, or in the largest smaller size that makes it fit its line limit: the
  /// font shrinks in steps of 1/2 px, down to `minimumScaleFactor` of its size (1: never), its line height in
  /// proportion, rounded; the text is truncated only when it still does not fit.
  ///
  /// Returns the fonts chosen and the view in them.
  ///
  /// - Parameters:
  /// - width: the width of a line in CSS px.
  static func scaledToFit(
    _ text: StyledText, fonts: FontSet, engine: BrowserEngine, breaker: LineBreaker, width: Double,
    options: TruncationOptions, minimumScaleFactor: Double
  ) -> (fonts: FontSet, collapsed: TruncatedText) {
    func collapsed(_ fonts: FontSet) -> TruncatedText {
      let measurer = FontMeasurer(fonts, engine: engine)
      return truncate(
        text, measurer: measurer, breaker: breaker, width: measurer.layoutWidth(pixels: width), options: options,
        state: .collapsed, countingAllLines: false, findsUnpredictableRanges: true)
    }
    let shown = collapsed(fonts)
    guard shown.isTruncated && minimumScaleFactor < 1 else { return (fonts, shown) }
    let smallest = fonts.size * minimumScaleFactor
    var size = fonts.size - 0.5
    while size >= smallest - 1e-9 {
      var smaller = fonts
      smaller.lineHeight = (fonts.lineHeight * size / fonts.size).rounded()
      smaller.size = size
      let attempt = collapsed(smaller)
      if !attempt.isTruncated { return (smaller, attempt) }
      size -= 0.5
    }
    return (fonts, shown)
  }
}
