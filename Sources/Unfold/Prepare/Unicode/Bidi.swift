internal import CICU

/// The one door to ICU's bidi properties and its bidi algorithm (UAX #9).
///
/// The engine's own algorithm (``BidiLevels``) reads each character's class, bracket and mirror here, and the tests
/// compare its levels and runs with ICU's (``levels(ofUTF16:base:into:)``, ``Lines``), which Chromium runs. No
/// other file calls ICU for bidi.
enum Bidi {
  /// Writes the embedding level of each UTF-16 unit of `text` into `levels` (room for as many), every paragraph of
  /// it at `base` (0 left to right, 1 right to left); whether ICU resolved them.
  static func levels(ofUTF16 text: UnsafeBufferPointer<UInt16>, base: UInt8, into levels: UnsafeMutablePointer<UInt8>)
    -> Bool
  {
    guard text.count < Int(Int32.max) else { return false }
    return unfold_icu_bidi_levels(text.baseAddress, Int32(text.count), base, levels) == 0
  }

  /// Whether a code point's Bidi_Class is R, AL or AN, or an explicit embedding, override, isolate or their end:
  /// what may take a level above a left-to-right paragraph's.
  static func takesLevel(_ value: UInt32) -> Bool { unfold_icu_takes_level(value) != 0 }

  /// A code point's Bidi_Class (ICU's UCharDirection value).
  static func bidiClass(_ value: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: unfold_icu_bidi_class(value)) }

  /// Whether a code point's Bidi_Class is BN (a joiner, the soft hyphen, a control, a tag).
  static func isBoundaryNeutral(_ value: UInt32) -> Bool { unfold_icu_is_boundary_neutral(value) != 0 }

  /// The mirrored form of a code point drawn right to left (`(` for `)`), or the code point itself.
  static func mirror(_ value: UInt32) -> UInt32 { unfold_icu_mirror(value) }

  /// The Bidi_Class of each code point of UTF-8 `text` (ICU's UCharDirection values), the byte offset where it
  /// starts, and a paired bracket's key, written into the buffers (room for `text.count` each), as
  /// `unfold_icu_bidi_classes` describes; how many code points there are, or -1 for bytes that are not UTF-8.
  ///
  /// With a `stop`, the classes end before the first character of class L after the first one, whose offset `stop`
  /// receives.
  static func classes(
    ofUTF8 text: UnsafeBufferPointer<UInt8>, classes: UnsafeMutablePointer<UInt8>,
    offsets: UnsafeMutablePointer<Int32>, brackets: UnsafeMutablePointer<UInt32>, stop: UnsafeMutablePointer<Int32>?
  ) -> Int {
    guard let base = text.baseAddress, text.count < Int(Int32.max) else { return -1 }
    return Int(unfold_icu_bidi_classes(base, Int32(text.count), classes, offsets, brackets, stop))
  }

  /// An ICU bidi object that resolves line after line, its memory reused.
  final class Lines {
    private let bidi = unfold_icu_bidi_open()

    deinit { unfold_icu_bidi_close(bidi) }

    /// The runs of one direction of `text` (one line at `base`) in visual order, left to right: each run's first
    /// UTF-16 offset, its length and whether it is right to left, written into the buffers (room for `capacity`);
    /// how many runs there are, or -1 when ICU fails.
    func runs(
      ofUTF16 text: UnsafeBufferPointer<UInt16>, base: UInt8, starts: UnsafeMutablePointer<Int32>,
      lengths: UnsafeMutablePointer<Int32>, rightToLeft: UnsafeMutablePointer<UInt8>, capacity: Int
    ) -> Int {
      guard text.count < Int(Int32.max), capacity < Int(Int32.max) else { return -1 }
      return Int(
        unfold_icu_bidi_line_runs(
          bidi, text.baseAddress, Int32(text.count), base, starts, lengths, rightToLeft, Int32(capacity)))
    }
  }
}
