import Foundation

/// A family of faces in a font fallback chain: the face that draws a style is the one CSS font matching picks
/// among the family's `@font-face` rules, each declared with its face's own weight and style.
///
/// A ``FontSet`` draws each grapheme cluster in the first face of its chain that has a glyph for every
/// character of the cluster: the style's own face, then each fallback family's face for the style, in order,
/// as a browser given `font-family: "set", "fallback 1", "fallback 2"…` chooses.
public struct FontFamily: Sendable, Hashable {
  /// The faces, shared by the family's copies: given, or read from their files when first asked.
  private let source: Faces

  /// The faces, each declared to the browser with its own weight and style.
  ///
  /// A family of Debian's chain (``notoFallbacks()``) opens its files here, the first time: a file that cannot be
  /// read is left out, and a family of none has one face that draws nothing.
  package var faces: [FontFace] { source.faces }

  /// Creates a family of faces.
  /// - Precondition: `faces` is not empty.
  package init(_ faces: [FontFace]) {
    precondition(!faces.isEmpty, "a font family needs a face")
    source = Faces(faces)
  }

  /// A family of font files (each face 0 of its file) opened when ``faces`` is first asked for, each face's tables
  /// when measuring first reaches them (``FontFace/init(contentsOf:index:tablesOnFirstUse:)``).
  /// - Precondition: `paths` is not empty.
  package init(opening paths: [String]) {
    precondition(!paths.isEmpty, "a font family needs a file")
    source = Faces(opening: paths)
  }

  /// A family from font files (each face 0 of its file).
  /// - Throws: ``FontError`` naming a file that cannot be read.
  public static func files(_ paths: [String]) throws(FontError) -> FontFamily {
    guard !paths.isEmpty else { throw FontError(path: "", message: "a font family needs a file") }
    var faces: [FontFace] = []
    for path in paths { faces.append(try FontFace(contentsOf: path)) }
    return FontFamily(faces)
  }

  /// Two families are equal when they are read from the same files: one opened when first asked by its files'
  /// paths (without opening them), one of faces given by its faces; never one of each.
  public static func == (lhs: FontFamily, rhs: FontFamily) -> Bool {
    if lhs.source === rhs.source { return true }
    switch (lhs.source.paths, rhs.source.paths) {
    case (let left?, let right?): return left == right
    case (nil, nil): return lhs.faces == rhs.faces
    default: return false
    }
  }

  /// Hashes the files' paths.
  public func hash(into hasher: inout Hasher) {
    if let paths = source.paths { hasher.combine(paths) } else { hasher.combine(faces) }
  }

  /// The family among the process's: the same for every copy of this value, another for a family made again.
  var identity: ObjectIdentifier { ObjectIdentifier(source) }

  /// Whether the family's faces are read (a test's question): at once for faces given, else when first asked for.
  var wasOpened: Bool { source.opening.isDone }

  /// What tells the family's faces apart from other families' (``ShapedWords/FontsID``): the files' paths of a family
  /// opened when first asked (without opening them), else each face's path, index and size.
  var filesKey: String {
    if let key = source.pathsKey { return key }
    return faces.map { "|\($0.path)#\($0.index):\($0.data.count)" }.joined()
  }

  /// The faces of a family and, for one opened when first asked, its files.
  private final class Faces: @unchecked Sendable {
    /// The files of a family opened when first asked; `nil` for faces given.
    let paths: [String]?
    /// ``paths`` in one string, made once (each font set's measurer for each engine asks).
    let pathsKey: String?
    /// Opens the files once.
    let opening: Once
    /// The faces, written once by ``opening``.
    private nonisolated(unsafe) var storage: [FontFace]

    init(_ faces: [FontFace]) {
      (paths, pathsKey, storage) = (nil, nil, faces)
      opening = Once(isDone: true)
    }

    init(opening paths: [String]) {
      (self.paths, pathsKey, storage) = (paths, "open:" + paths.joined(separator: "|"), [])
      opening = Once()
    }

    var faces: [FontFace] {
      opening.run {
        guard let paths else { return }
        storage = paths.compactMap { try? FontFace(contentsOf: $0, tablesOnFirstUse: true) }
        if storage.isEmpty { storage = [FontFace(drawingNothing: paths[0])] }
      }
      return storage
    }
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
  /// A family whose files are missing is left out. Each family opens its files, and each face reads its tables, when
  /// measuring or a page first asks for them, so that a text that needs no fallback reads none: a file that then
  /// turns out malformed draws nothing.
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
      if !present.isEmpty { families.append(FontFamily(opening: present)) }
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
