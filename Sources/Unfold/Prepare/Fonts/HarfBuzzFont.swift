internal import CHarfBuzz
import Foundation

/// One face of a font file loaded into HarfBuzz, the shaper Chromium uses: immutable once made, shared by every
/// copy of its ``FontFace`` and safe to use from any thread (each call shapes in a buffer of its own).
///
/// The only file that imports HarfBuzz: nothing of it leaves here but glyph numbers, advances in font units and
/// the bytes of subset fonts.
final class HarfBuzzFont: @unchecked Sendable {
  private let font: OpaquePointer

  /// Loads face `index` of the file at `path` (mapped by HarfBuzz, not copied); `nil` when HarfBuzz cannot read it.
  convenience init?(path: String, index: Int) {
    guard let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
    self.init(blob: blob, index: index)
  }

  /// Loads face `index` of a font file's bytes (copied); `nil` when HarfBuzz cannot read them.
  convenience init?(data: Data, index: Int) {
    let blob = data.withUnsafeBytes { bytes -> OpaquePointer? in
      guard let base = bytes.baseAddress, bytes.count <= Int(UInt32.max) else { return nil }
      return hb_blob_create(
        base.assumingMemoryBound(to: CChar.self), UInt32(bytes.count), HB_MEMORY_MODE_DUPLICATE, nil, nil)
    }
    guard let blob else { return nil }
    self.init(blob: blob, index: index)
  }

  private init?(blob: OpaquePointer, index: Int) {
    defer { hb_blob_destroy(blob) }
    guard let face = hb_face_create(blob, UInt32(index)) else { return nil }
    defer { hb_face_destroy(face) }
    guard hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else { return nil }
    hb_font_make_immutable(font)
    self.font = font
  }

  deinit { hb_font_destroy(font) }

  /// The glyphs that HarfBuzz draws for `scalars`, each with its advance in font units, in logical order:
  /// shaped as one run whose script, direction and language HarfBuzz guesses from the text, with kerning and
  /// ligatures off as the CSS that the page pins says (`font-kerning: none; font-variant-ligatures: none`).
  func shape(_ scalars: some Collection<Unicode.Scalar>) -> [ShapedGlyph] {
    let values = scalars.map(\.value)
    return shape(values, range: 0..<values.count)
  }

  /// The glyphs that HarfBuzz draws for `values[range]` (code points), shaped as ``shape(_:)`` does, with the code
  /// points around the range as context (a letter joins a neighbour drawn in another face, as the browser
  /// shapes it); a glyph's cluster is the index in `values` of its cluster's first code point.
  ///
  /// Not `pinned`, the font's default features stay on (kerning, standard and contextual ligatures), as the browser's
  /// defaults.
  func shape(_ values: [UInt32], range: Range<Int>, pinned: Bool = true) -> [ShapedGlyph] {
    guard let buffer = hb_buffer_create() else { return [] }
    defer { hb_buffer_destroy(buffer) }
    values.withUnsafeBufferPointer {
      hb_buffer_add_utf32(buffer, $0.baseAddress, Int32($0.count), UInt32(range.lowerBound), Int32(range.count))
    }
    hb_buffer_guess_segment_properties(buffer)
    hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS)
    (pinned ? Self.pinnedFeatures : []).withUnsafeBufferPointer {
      hb_shape(font, buffer, $0.baseAddress, UInt32($0.count))
    }
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
      let positions = hb_buffer_get_glyph_positions(buffer, &count)
    else { return [] }
    var glyphs: [ShapedGlyph] = []
    glyphs.reserveCapacity(Int(count))
    let isBackward = hb_buffer_get_direction(buffer) == HB_DIRECTION_RTL
    for index in 0..<Int(count) {
      let at = isBackward ? Int(count) - 1 - index : index
      glyphs.append(
        ShapedGlyph(
          glyph: Int(infos[at].codepoint), advance: Int(positions[at].x_advance), cluster: Int(infos[at].cluster)))
    }
    return glyphs
  }

  /// Whether the face's character map has a glyph for `scalar` followed by the variation selector `selector`
  /// (its format 14 subtable).
  func hasVariationGlyph(_ scalar: Unicode.Scalar, selector: Unicode.Scalar) -> Bool {
    var glyph: hb_codepoint_t = 0
    return hb_font_get_variation_glyph(font, scalar.value, selector.value, &glyph) != 0
  }

  /// The face cut down to the glyphs that draw `scalars` (with what shaping them can reach: joining forms,
  /// ligatures, marks), as a font file's bytes: the same advances and metrics, so that a page that embeds it
  /// lays out as one that loads the whole file.
  ///
  /// `nil` when HarfBuzz cannot subset the face.
  func subset(keeping scalars: some Sequence<Unicode.Scalar>) -> Data? {
    guard let input = hb_subset_input_create_or_fail() else { return nil }
    defer { hb_subset_input_destroy(input) }
    let unicodes = hb_subset_input_unicode_set(input)
    for scalar in scalars { hb_set_add(unicodes, scalar.value) }
    guard let face = hb_font_get_face(font), let subset = hb_subset_or_fail(face, input) else { return nil }
    defer { hb_face_destroy(subset) }
    guard let blob = hb_face_reference_blob(subset) else { return nil }
    defer { hb_blob_destroy(blob) }
    var length: UInt32 = 0
    guard let bytes = hb_blob_get_data(blob, &length), length > 0 else { return nil }
    return Data(bytes: bytes, count: Int(length))
  }

  /// The features that Chromium turns off for `font-kerning: none` and `font-variant-ligatures: none`.
  private static let pinnedFeatures: [hb_feature_t] = ["-kern", "-liga", "-clig", "-dlig", "-hlig", "-calt"].map {
    name in
    var feature = hb_feature_t()
    _ = hb_feature_from_string(name, -1, &feature)
    return feature
  }
}

/// One glyph of shaped text: its number in the face, its advance in font units, and the index of the first code
/// point of the cluster it belongs to.
struct ShapedGlyph: Hashable, Sendable {
  var glyph: Int
  var advance: Int
  var cluster: Int
}
