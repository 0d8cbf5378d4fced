/// HTML that ``Paragraph/html(width:fonts:engine:state:options:)`` wrote, and what the engine could not predict
/// in it.
///
/// Printed, it is its HTML.
public struct RenderedHTML: Sendable, CustomStringConvertible {
  /// The fragment, or the whole page with ``HTMLOptions/standalone``.
  public let html: String
  /// Finds the diagnostics when they are read.
  private let findDiagnostics: @Sendable () -> [Diagnostic]

  /// HTML and what finds its diagnostics.
  init(html: String, diagnostics: @escaping @Sendable () -> [Diagnostic]) {
    self.html = html
    self.findDiagnostics = diagnostics
  }

  /// What the engine could not predict, found when read (for an expanded text, a walk of every cluster that the
  /// fonts may not cover): characters with no glyph in the fonts, whose width the browser chooses (one
  /// ``Diagnostic/Kind/unpredictableWidth`` naming how many and the first), and values out of range that were
  /// clamped (``Diagnostic/Kind/valueOutOfRange``: a width below 1 px or not a number, a line limit below 1).
  public var diagnostics: [Diagnostic] { findDiagnostics() }

  /// The HTML.
  public var description: String { html }
}
