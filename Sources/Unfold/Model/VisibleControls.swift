/// How control characters in user text are shown: as visible pictures, never as controls.
///
/// Both renderers draw every control character that the engine did not write itself through this mapping,
/// and the terminal measurer measures the picture, so layout and drawing agree:
/// - C0 controls (U+0000–U+001F) except tab and newline become their Control Pictures (U+2400–U+241F: `␛`
///   for ESC, `␇` for BEL...);
/// - DEL (U+007F) becomes `␡` (U+2421);
/// - C1 controls (U+0080–U+009F) become U+FFFD.
///
/// Tab and newline are layout, not characters: the layout expands tabs and breaks lines at newlines.
///
/// The bidi formatting characters (``isBidiControl(_:)``) take part in the reordering of right-to-left text and
/// are zero wide; the terminal never receives them, since a terminal that reorders would let them reorder what
/// follows ("Trojan Source").
package enum VisibleControls {
  /// Whether a scalar is a bidi formatting character: ALM, LRM, RLM, the embeddings and overrides (LRE, RLE, PDF,
  /// LRO, RLO) and the isolates (LRI, RLI, FSI, PDI).
  @inline(__always)
  package static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// The visible stand-in for a control scalar, or `nil` when the scalar is not a control to replace.
  package static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
    switch scalar.value {
    case 0x09, 0x0A: return nil
    case 0x00...0x1F: return Unicode.Scalar(0x2400 + scalar.value)
    case 0x7F: return "\u{2421}"
    case 0x80...0x9F: return "\u{FFFD}"
    default: return nil
    }
  }

  /// The scalar as drawn: its replacement when it is a control to replace, else itself.
  @inline(__always)
  package static func visible(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    replacement(for: scalar) ?? scalar
  }

  /// Whether a scalar is a control that ``replacement(for:)`` replaces.
  @inline(__always)
  package static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
    replacement(for: scalar) != nil
  }
}
