/// The room that the HTML of a document gives the marks of its containers, in whole CSS px: the CSS draws them
/// (a list's `::marker`, a quote's border, a code block's and a cell's padding), so a block's text is laid out in the
/// width they leave, and the stylesheet writes the same lengths (`HTMLRenderer`).
///
/// Whole px, so that a width less the marks is exact in every engine's unit.
package struct DocumentBoxes: Hashable, Sendable {
  /// A quote's bar (its `border-inline-start`) and the space after it.
  package var quoteBar: Int, quotePadding: Int
  /// The indent of a list by the digits of its widest number (0 for a bullet list): room for the marker the browser
  /// draws, at least one and a half times the font size.
  package var listIndents: [Int]
  /// The space around a code block's text on both sides, and around a table cell's text.
  package var codePadding: Int, cellPadding: Int
  /// The measurer's units in a CSS px.
  package var unitsPerPixel: Int
  /// The size of a heading's text, by level (`h1` first), as a multiple of the text's: its line height grows as
  /// much, rounded to a whole px.
  package static let headingScales = [2, 1.5, 1.25, 1, 1, 1]

  /// The boxes for text of `fonts`, marker widths measured by `measurer`.
  package init(fonts: FontSet, measurer: FontMeasurer) {
    let size = fonts.size
    quoteBar = max(2, Int((size / 4).rounded()))
    quotePadding = Int((size * 0.75).rounded())
    codePadding = Int((size / 2).rounded())
    cellPadding = Int((size / 2).rounded())
    unitsPerPixel = measurer.unitsPerPixel
    let least = Int((size * 1.5).rounded())
    // A number's marker is its digits and ". ": an ordered list's start is below a billion, so eleven digits at most.
    listIndents = (0...11).map { [upp = measurer.unitsPerPixel] digits in
      guard digits > 0 else { return least }
      let marker = measurer.width(of: String(repeating: "0", count: digits) + ". ")
      return max(least, (marker + upp - 1) / upp)
    }
  }

  /// The quote's bar and the space after it.
  package var quoteIndent: Int { quoteBar + quotePadding }

  /// `fonts` at the size of a heading of `level`, its line height grown as much and rounded to a whole px.
  package static func headingFonts(_ fonts: FontSet, level: Int) -> FontSet {
    var scaled = fonts
    let scale = headingScales[max(1, min(6, level)) - 1]
    guard scale != 1 else { return fonts }
    scaled.size = fonts.size * scale
    scaled.lineHeight = (fonts.lineHeight * scale).rounded()
    return scaled
  }

  /// The indent of a list whose numbers end at `last` (nil for bullets).
  package func listIndent(lastNumber last: Int?) -> Int { listIndents[Self.digits(lastNumber: last)] }

  /// The digits of a list's widest number, as the class of its indent says: 0 for bullets.
  package static func digits(lastNumber last: Int?) -> Int { last.map { min(11, String($0).count) } ?? 0 }
}
