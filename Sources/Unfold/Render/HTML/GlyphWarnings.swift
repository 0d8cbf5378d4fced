import Foundation

/// The warning of an HTML rendering whose fonts cannot draw some of its characters: the browser then chooses their
/// width, so its lines may differ from the prediction.
enum GlyphWarnings {
  /// The diagnostic for the characters of `text` that `fonts` cannot draw: in the whole text, or in the ranges of
  /// the collapsed view (`shownRanges`).
  static func diagnostics(
    in text: StyledText, fonts: FontSet, wholeText: Bool, shownRanges: [Range<Int>]
  ) -> [Diagnostic] {
    let measurer = FontMeasurer(fonts)
    // The whole text's ranges come with their characters counted; a collapsed view's are counted by the
    // engine's grapheme reader, not by `Substring.count`.
    let whole = wholeText ? measurer.unpredictableClusters(in: text, range: 0..<text.string.utf8.count) : nil
    let ranges = whole?.ranges ?? shownRanges
    guard let first = ranges.first else { return [] }
    let count =
      whole?.clusters
      ?? text.string.withUTF8Buffer { bytes in ranges.reduce(0) { $0 + GraphemeReader.clusterCount(bytes, $1) } }
    // What is drawn is named: a control character's picture (`␛` for ESC), which is what has no glyph.
    let written = text.text(in: first).prefix(8)
    let drawn = String(String.UnicodeScalarView(written.unicodeScalars.map(VisibleControls.visible)))
    let controls = written.unicodeScalars.filter(VisibleControls.isReplaced).map {
      String(format: "U+%04X", $0.value)
    }
    let pictures = controls.isEmpty ? "" : ", drawn for \(controls.joined(separator: ", "))"
    return [
      Diagnostic(
        .unpredictableWidth, offset: first.lowerBound,
        message:
          "\(count == 1 ? "1 character has" : "\(count) characters have") no glyph in the fonts (the first: \(drawn.debugDescription)\(pictures)); the browser chooses their width, so its lines may differ"
      )
    ]
  }
}
