/// How one browser engine turns a glyph's advance in font units into a width at a font size, and in which unit
/// the widths add up: what `FontMeasurer` measures for each ``BrowserEngine``. Measured in the engines here
/// (each printable ASCII character and Latin-1 letter alone and in words, in DejaVu Sans and Liberation Sans at
/// 13.5, 14, 16 and 20 px, read back with `getBoundingClientRect`):
///
/// - ``blink``: the advance scaled as FreeType scales it for Skia, in 1/65536 px, summed exactly; at the fit,
///   each inline item is rounded up to Blink's layout unit, 1/64 px.
/// - ``gecko``: each glyph's advance rounded to Gecko's app unit, 1/60 px, and summed in app units.
/// - ``webkit``: FreeType's hinted advance (the glyph loaded with its hinting, at the size), which WebKitGTK
///   uses at a device scale of 1: whole pixels for hinted outlines (`iiiiiiiiii` is 40 px where Blink's is
///   44.45); what shaping adds to it (kerning, a narrower half form) is rounded to whole pixels in WebKit's simple
///   path and kept in its complex path (``webKitMeasuresComplex(_:)``). Safari measures with CoreText instead,
///   whose advances are not hinted; it cannot run here.
enum GlyphMetrics: Hashable, Sendable {
  case blink, gecko, webkit

  /// A number for each engine's metrics (a key of ``ShapedWords``).
  var index: UInt8 {
    switch self {
    case .blink: 0
    case .gecko: 1
    case .webkit: 2
    }
  }

  /// The metrics of one engine (``BrowserEngine/any`` has none of its own).
  init(_ engine: BrowserEngine) {
    switch engine {
    case .gecko: self = .gecko
    case .webkit: self = .webkit
    case .blink, .any: self = .blink
    }
  }

  /// Units per CSS px.
  var unitsPerPixel: Int { self == .gecko ? 60 : 65536 }

  /// Font units of a face of `unitsPerEm` at `size` px in 1/65536 px, as FreeType scales an advance for Skia: the
  /// size in 1/64 px, the scale in 16.16 (`FT_DivFix`), the advance in 1/65536 px (`FT_MulDiv`), each rounded.
  ///
  /// A 2048-unit font's advances come out exact; a 1000-unit font's em is 16.0000305 px at 16 px, so that three such
  /// glyphs in one inline item take 48 1/64 px in Chromium.
  @inline(__always)
  static func linear(_ units: Int, unitsPerEm: Int, size: Double) -> Int {
    let scale = ((Int(size * 64) << 16) + unitsPerEm / 2) / max(1, unitsPerEm)
    return (units * scale + 32) >> 6
  }

  /// The width in this unit of `units` font units of `glyph`'s advance in `face` (its `hmtx` advance, or a
  /// shaped advance that adds positioning to it) at `size` px.
  ///
  /// `complex`: whether WebKit measures the text in its complex path (``webKitMeasuresComplex(_:)``), where what
  /// shaping adds keeps its fraction of a pixel.
  @inline(__always)
  func scale(_ units: Int, glyph: Int, in face: borrowing FontFace, size: Double, complex: Bool = false) -> Int {
    switch self {
    case .blink: return Self.linear(units, unitsPerEm: face.unitsPerEm, size: size)
    case .gecko: return Self.appUnits(Self.linear(units, unitsPerEm: face.unitsPerEm, size: size))
    case .webkit:
      guard let hinted = face.hintedAdvance(ofGlyph: glyph, size: size) else {
        return Self.linear(units, unitsPerEm: face.unitsPerEm, size: size)
      }
      // Hinting moves the glyph's own advance; what shaping adds to it (kerning, a conjunct's narrower half form)
      // is scaled, and rounded to whole pixels in the simple path (kerned Latin) but not in the complex one
      // (`शब्द` is 24.216 px at 16 px in Noto Sans Devanagari: 11 + 6 − 0.784 + 8); a mark that shaping gives no
      // advance has none.
      guard units != 0 else { return 0 }
      let added = units - face.advance(ofGlyph: glyph)
      guard added != 0 else { return hinted << 10 }
      let scaled = Self.linear(added, unitsPerEm: face.unitsPerEm, size: size)
      return hinted << 10 + (complex ? scaled : ((scaled + 32768) >> 16) << 16)
    }
  }

  /// Whether WebKit measures a text that holds `scalars` in its complex path, where HarfBuzz's positions are kept
  /// to fractions of a pixel (`FontCascade::characterRangeCodePath`): combining marks, Hebrew points, Arabic to
  /// Burmese, jamo, the other Brahmic and joining scripts, variation selectors, regional indicators and emoji
  /// modifiers.
  ///
  /// Latin, Cyrillic, Greek and CJK text is measured in the simple path.
  static func webKitMeasuresComplex(_ scalars: some Sequence<Unicode.Scalar>) -> Bool {
    scalars.contains { scalar in
      let value = scalar.value
      guard value >= 0x2E5 else { return false }
      // The first range past `value` (each pair a start and an end): inside it when its start is not past it.
      var (low, high) = (0, complexPathRanges.count / 2)
      while low < high {
        let middle = (low + high) / 2
        if complexPathRanges[2 * middle + 1] < value { low = middle + 1 } else { high = middle }
      }
      return low < complexPathRanges.count / 2 && complexPathRanges[2 * low] <= value && value != 0x5BE
    }
  }

  /// The code points that WebKit's `FontCascade::characterRangeCodePath` sends to the complex path, as pairs of
  /// a first and a last code point, ascending.
  private static let complexPathRanges: [UInt32] = [
    0x02E5, 0x02E9, 0x0300, 0x036F, 0x0591, 0x05CF, 0x0600, 0x109F, 0x1100, 0x11FF, 0x135D, 0x135F, 0x1700, 0x18AF,
    0x1900, 0x194F, 0x1980, 0x19DF, 0x1A00, 0x1CFF, 0x1DC0, 0x1DFF, 0x20D0, 0x20FF, 0x26F9, 0x26F9, 0x2CEF, 0x2CF1,
    0x302A, 0x302F, 0x3099, 0x309C, 0xA67C, 0xA67D, 0xA6F0, 0xA6F1, 0xA800, 0xABFF, 0xD7B0, 0xD7FF, 0xFE00, 0xFE0F,
    0xFE20, 0xFE2F, 0x10A00, 0x10A5F, 0x11000, 0x110CF, 0x11100, 0x111DF, 0x11200, 0x1124F, 0x112B0, 0x1137F,
    0x11400, 0x114DF, 0x11580, 0x1165F, 0x11680, 0x116CF, 0x11700, 0x11CBF, 0x16B00, 0x16B8F, 0x1E900, 0x1E95F,
    0x1F1E6, 0x1F1FF, 0x1F3FB, 0x1F3FF, 0xE0000, 0xE007F, 0xE0100, 0xE01EF,
  ]

  /// A colour bitmap glyph's width in this unit, from its strike's advance in pixels at `ppem`, drawn at `size`:
  /// Noto Color Emoji's 136 at 109 ppem is 19.963 px at 16 px, which Blink keeps to 1/65536 px, Gecko rounds to 20 and
  /// WebKit to 19.96875 (1/64 px).
  func scaleBitmap(_ advance: Int, ppem: Int, size: Double) -> Int {
    // Skia scales the strike's advance by size / ppem; Blink truncates it to 1/65536 px.
    let pixels = Double(advance) * size / Double(ppem)
    switch self {
    case .blink: return Int(pixels * 65536)
    case .gecko: return Int(pixels.rounded()) * 60  // whole pixels
    case .webkit: return Int((pixels * 64).rounded()) << 10  // layout units
    }
  }

  /// A width in 1/65536 px rounded to app units (1/60 px).
  @inline(__always)
  static func appUnits(_ pixelFractions: Int) -> Int { (pixelFractions * 60 + 32768) >> 16 }
}
