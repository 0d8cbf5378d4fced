import Foundation

/// A family of faces in a font fallback chain: the face that draws a style is the one CSS font matching picks
/// among the family's `@font-face` rules, each declared with its face's own weight and style.
///
/// A ``FontSet`` draws each grapheme cluster in the first face of its chain that has a glyph for every
/// character of the cluster: the style's own face, then each fallback family's face for the style, in order,
/// as a browser given `font-family: "set", "fallback 1", "fallback 2"…` chooses.
public struct FontFamily: Sendable, Hashable {
  /// The faces, each declared to the browser with its own weight and style.
  package var faces: [FontFace]

  /// Creates a family of faces.
  /// - Precondition: `faces` is not empty.
  package init(_ faces: [FontFace]) {
    precondition(!faces.isEmpty, "a font family needs a face")
    self.faces = faces
  }

  /// A family from font files (each face 0 of its file).
  /// - Throws: ``FontError`` naming a file that cannot be read.
  public static func files(_ paths: [String]) throws(FontError) -> FontFamily {
    try files(paths, tablesOnFirstUse: false)
  }

  /// A family from font files, their tables read now or when measuring first asks for them (see
  /// ``FontFace/init(contentsOf:index:tablesOnFirstUse:)``).
  package static func files(_ paths: [String], tablesOnFirstUse: Bool) throws(FontError) -> FontFamily {
    guard !paths.isEmpty else { throw FontError(path: "", message: "a font family needs a file") }
    var faces: [FontFace] = []
    for path in paths { faces.append(try FontFace(contentsOf: path, tablesOnFirstUse: tablesOnFirstUse)) }
    return FontFamily(faces)
  }

  /// The face CSS font matching chooses for a weight and style: faces of the style first (italic, else
  /// normal), then by weight as CSS Fonts 4 §5.2 orders them: for 400 to 500, the weights up to 500 above
  /// it, then those below it, then those above 500; below 400, those below it, then those above; above 500,
  /// those above it, then those below.
  package func face(weight: Int, italic: Bool) -> FontFace {
    let styled = faces.filter { $0.isItalic == italic }
    let pool = styled.isEmpty ? faces : styled
    func rank(_ face: FontFace) -> (Int, Int) {
      let candidate = face.weight
      if candidate == weight { return (0, 0) }
      switch weight {
      case 400...500:
        if candidate > weight && candidate <= 500 { return (1, candidate) }
        if candidate < weight { return (2, -candidate) }
        return (3, candidate)
      case ..<400:
        return candidate < weight ? (1, -candidate) : (2, candidate)
      default:
        return candidate > weight ? (1, candidate) : (2, -candidate)
      }
    }
    return pool.min { rank($0) < rank($1) } ?? faces[0]
  }

  /// The face that draws text of `traits` in this family: code in its regular face (the page pins code to
  /// weight 400, normal style), other text by bold and italic.
  func face(for traits: Style.Traits) -> FontFace {
    traits.contains(.code)
      ? face(weight: 400, italic: false)
      : face(weight: traits.contains(.bold) ? 700 : 400, italic: traits.contains(.italic))
  }

  /// The families of Debian's Noto fonts that are installed, in the order of the default fallback chain:
  /// Noto Sans for Latin, Greek and Cyrillic that the main face lacks; the scripts of `fonts-noto-core`
  /// (Arabic, Hebrew, Armenian, Georgian, Ethiopic, Thai, Lao, Khmer, Myanmar and the Indic scripts); Noto
  /// Sans CJK from `fonts-noto-cjk` (its first face, Japanese, which a browser given the collection draws);
  /// Noto Color Emoji from `fonts-noto-color-emoji`.
  ///
  /// A family whose files are missing is left out. Each face's tables are read when measuring first asks for them,
  /// so that a text that needs no fallback reads none: a face whose tables then turn out malformed draws nothing.
  public static func notoFallbacks() -> [FontFamily] {
    let core = "/usr/share/fonts/truetype/noto"
    let cjk = "/usr/share/fonts/opentype/noto"
    let scripts = [
      "NotoSans", "NotoSansArabic", "NotoSansHebrew", "NotoSansArmenian", "NotoSansGeorgian", "NotoSansEthiopic",
      "NotoSansThai", "NotoSansLao", "NotoSansKhmer", "NotoSansMyanmar", "NotoSansDevanagari", "NotoSansBengali",
      "NotoSansGurmukhi", "NotoSansGujarati", "NotoSansOriya", "NotoSansTamil", "NotoSansTelugu",
      "NotoSansKannada", "NotoSansMalayalam", "NotoSansSinhala",
    ]
    var families: [FontFamily] = []
    func add(_ paths: [String]) {
      let present = paths.filter { FileManager.default.fileExists(atPath: $0) }
      guard !present.isEmpty, let family = try? FontFamily.files(present, tablesOnFirstUse: true) else { return }
      families.append(family)
    }
    for script in scripts {
      let styles = script == "NotoSans" ? ["Regular", "Bold", "Italic", "BoldItalic"] : ["Regular", "Bold"]
      add(styles.map { "\(core)/\(script)-\($0).ttf" })
    }
    add(["\(cjk)/NotoSansCJK-Regular.ttc", "\(cjk)/NotoSansCJK-Bold.ttc"])
    add(["\(core)/NotoColorEmoji.ttf"])
    return families
  }
}
