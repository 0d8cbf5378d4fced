/// How one browser engine turns a glyph's advance in font units into a width at a font size, and in which unit
/// the widths add up: what ``FontMeasurer`` measures for each ``BrowserEngine``. Measured in the engines here
/// (each printable ASCII character and Latin-1 letter alone and in words, in DejaVu Sans and Liberation Sans at
/// 13.5, 14, 16 and 20 px, read back with `getBoundingClientRect`):
///
/// - ``blink``: the advance scaled as FreeType scales it for Skia, in 1/65536 px, summed exactly; at the fit,
///   each inline item is rounded up to Blink's layout unit, 1/64 px.
/// - ``gecko``: each glyph's advance rounded to Gecko's app unit, 1/60 px, and summed in app units.
/// - ``webkit``: FreeType's hinted advance (the glyph loaded with its hinting, at the size), which WebKitGTK
///   uses at a device scale of 1: whole pixels for hinted outlines (`iiiiiiiiii` is 40 px where Blink's is
///   44.45). Safari measures with CoreText instead, whose advances are not hinted; it cannot run here.
enum GlyphMetrics: Hashable, Sendable {
  case blink, gecko, webkit

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
  /// size in 1/64 px, the scale in 16.16 (`FT_DivFix`), the advance in 1/65536 px (`FT_MulDiv`), each rounded. A
  /// 2048-unit font's advances come out exact; a 1000-unit font's em is 16.0000305 px at 16 px, so that three
  /// such glyphs in one inline item take 48 1/64 px in Chromium.
  @inline(__always)
  static func linear(_ units: Int, unitsPerEm: Int, size: Double) -> Int {
    let scale = ((Int(size * 64) << 16) + unitsPerEm / 2) / max(1, unitsPerEm)
    return (units * scale + 32) >> 6
  }

  /// The width in this unit of `units` font units of `glyph`'s advance in `face` (its `hmtx` advance, or a
  /// shaped advance that adds positioning to it) at `size` px.
  @inline(__always)
  func scale(_ units: Int, glyph: Int, in face: borrowing FontFace, size: Double) -> Int {
    switch self {
    case .blink: return Self.linear(units, unitsPerEm: face.unitsPerEm, size: size)
    case .gecko: return Self.appUnits(Self.linear(units, unitsPerEm: face.unitsPerEm, size: size))
    case .webkit:
      guard let hinted = face.hintedAdvance(ofGlyph: glyph, size: size) else {
        return Self.linear(units, unitsPerEm: face.unitsPerEm, size: size)
      }
      // Hinting moves the glyph's own advance; what shaping adds to it (kerning, marks) is scaled and rounded to
      // whole pixels too, and a mark that shaping gives no advance has none.
      guard units != 0 else { return 0 }
      let added = units - face.advance(ofGlyph: glyph)
      guard added != 0 else { return hinted << 10 }
      return hinted << 10 + ((Self.linear(added, unitsPerEm: face.unitsPerEm, size: size) + 32768) >> 16) << 16
    }
  }

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
