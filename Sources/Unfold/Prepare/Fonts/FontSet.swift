import Foundation

/// The faces a paragraph is drawn in, at a size: regular, bold, italic, bold italic, and a monospace face for
/// code; the fallback families for the characters they lack; the line height.
///
/// What the HTML renderer pins in its CSS is exactly this.
///
/// Each grapheme cluster is drawn in the first face that has a glyph for each of its characters: the style's
/// own face, then each fallback family's face for the style (see ``FontFamily``). A cluster with an emoji
/// variation selector (U+FE0E, U+FE0F) needs a face that maps the pair, as Chromium asks. A cluster that no
/// face draws is measured in the style's face and reported as unpredictable: the browser draws it in a font
/// of its own choosing.
public struct FontSet: Sendable, Hashable {
  /// The regular face.
  public var regular: FontFace { didSet { scaleASCIIAdvances() } }
  /// The bold face (the regular one when missing: the browser is told not to synthesize).
  public var bold: FontFace { didSet { scaleASCIIAdvances() } }
  /// The italic face.
  public var italic: FontFace { didSet { scaleASCIIAdvances() } }
  /// The bold italic face.
  public var boldItalic: FontFace { didSet { scaleASCIIAdvances() } }
  /// The face of inline code.
  public var monospace: FontFace { didSet { scaleASCIIAdvances() } }
  /// The font size in CSS px.
  public var size: Double { didSet { scaleASCIIAdvances() } }
  /// The line height in CSS px.
  public var lineHeight: Double
  /// The families that draw what the set's faces cannot, in order (the page lists them after the set's own
  /// family in `font-family`, code's too).
  public var fallbacks: [FontFamily] {
    didSet {
      chain = FallbackChain(fallbacks)
      scaleASCIIAdvances()
    }
  }
  /// Whether text is drawn with the browser's typographic defaults, kerning and ligatures on (the page says
  /// `font-kerning: auto; font-variant-ligatures: normal`), and measured shaped word by word as the browser
  /// shapes it; by default both are off, pinned by the page, and only the scripts that need it are shaped.
  public var kerningAndLigatures = false
  /// The engine arithmetic that scales the faces' advances to the size (`FontMeasurer` sets it).
  var metrics = GlyphMetrics.blink {
    didSet { if metrics != oldValue { scaleASCIIAdvances() } }
  }

  /// Creates a set; missing faces fall back to the regular one.
  public init(
    regular: FontFace, bold: FontFace? = nil, italic: FontFace? = nil, boldItalic: FontFace? = nil,
    monospace: FontFace? = nil, size: Double = 16, lineHeight: Double? = nil, fallbacks: [FontFamily] = []
  ) {
    self.regular = regular
    self.bold = bold ?? regular
    self.italic = italic ?? regular
    self.boldItalic = boldItalic ?? bold ?? italic ?? regular
    self.monospace = monospace ?? regular
    self.size = size
    self.lineHeight = lineHeight ?? (size * 1.25).rounded()
    self.fallbacks = fallbacks
    chain = FallbackChain(fallbacks)
    scaleASCIIAdvances()
  }

  /// Two sets are equal when their faces, size, line height, fallbacks and typography are (the tables made from
  /// them follow).
  public static func == (lhs: FontSet, rhs: FontSet) -> Bool {
    lhs.regular == rhs.regular && lhs.bold == rhs.bold && lhs.italic == rhs.italic && lhs.boldItalic == rhs.boldItalic
      && lhs.monospace == rhs.monospace && lhs.size == rhs.size && lhs.lineHeight == rhs.lineHeight
      && lhs.fallbacks == rhs.fallbacks && lhs.kerningAndLigatures == rhs.kerningAndLigatures
      && lhs.metrics == rhs.metrics
  }

  /// The set's own faces, one per style: regular, bold, italic, bold italic, monospace.
  package var styleFaces: [FontFace] { [regular, bold, italic, boldItalic, monospace] }

  /// Hashes the faces, the size, the line height, the fallbacks and the typography.
  public func hash(into hasher: inout Hasher) {
    for face in [regular, bold, italic, boldItalic, monospace] { hasher.combine(face) }
    hasher.combine(size)
    hasher.combine(lineHeight)
    hasher.combine(fallbacks)
    hasher.combine(kerningAndLigatures)
    hasher.combine(metrics)
  }

  /// The advance of each ASCII character's glyph in each face, at the size, in `FontMeasurer`'s unit (or
  /// ``measuredInFallback``): 128 per face, in the order of ``faceIndex(for:)``, made again whenever a face or the
  /// size changes, so that an ASCII letter is measured with no division and rounding.
  private(set) var scaledASCIIAdvances: [Int] = []

  private mutating func scaleASCIIAdvances() {
    var advances: [Int] = []
    var withoutGlyph: [(low: UInt64, high: UInt64)] = []
    for face in [regular, bold, italic, boldItalic, monospace] {
      for value in 0..<UInt32(0x80) {
        if !fallbacks.isEmpty, face.lacksGlyph(forASCII: value) {
          // Drawn by a fallback face, if one has it: looked up when measured, so that the chain is read only
          // when a text needs it (DejaVu has no control pictures).
          advances.append(Self.measuredInFallback)
          continue
        }
        let glyph = face.glyph(for: VisibleControls.visible(Unicode.Scalar(value)!))
        advances.append(metrics.scale(Int(face.asciiAdvances[Int(value)]), glyph: glyph, in: face, size: size))
      }
      withoutGlyph.append(face.asciiWithoutGlyph)
    }
    scaledASCIIAdvances = advances
    asciiWithoutGlyph = withoutGlyph
  }

  /// The fallback families' faces for each style, made from ``fallbacks`` when a lookup first needs them.
  private var chain: FallbackChain

  /// Runs `body` with the fallback face `index` (in ``fallbacks``) for text of `traits`, borrowed.
  @inline(__always)
  func withFallbackFace<Result>(_ index: Int, traits: Style.Traits, _ body: (borrowing FontFace) -> Result) -> Result {
    chain.withFaces(style: Self.faceIndex(for: traits)) { body($0[index]) }
  }

  /// Whether some fallback face for text of `traits` has a glyph for `scalar`.
  @inline(__always)
  func fallbackHasGlyph(for scalar: Unicode.Scalar, traits: Style.Traits) -> Bool {
    chain.withTables(style: Self.faceIndex(for: traits)) { Self.firstFace(in: $0, drawing: scalar) } != nil
  }

  /// The index in ``fallbacks`` of the family that draws a cluster (its characters) in place of the face for
  /// `traits`: the colour emoji family for an emoji (``emojiFallback(drawing:traits:)``); else, when the face cannot
  /// draw it, the first whose face for the traits has every glyph it needs; nil when the style's own face draws it
  /// or no family does.
  ///
  /// The measurer measures the cluster in that face; the page lists that family.
  func fallback(drawing scalars: some Collection<Unicode.Scalar>, traits: Style.Traits) -> Int? {
    guard !fallbacks.isEmpty else { return nil }
    if let emoji = emojiFallback(drawing: scalars, traits: traits) { return emoji }
    guard !withFace(for: Style(traits), { FontMeasurer.draws(scalars, $0) }) else { return nil }
    return firstFallback(drawing: scalars, traits: traits)
  }

  /// The index in ``fallbacks`` of the first colour emoji family (a bitmap font, or a family named for emoji).
  var emojiFamily: Int? { chain.emojiFamily }

  /// The colour emoji family, for a cluster that starts with a character of emoji presentation (Unicode's
  /// `Emoji_Presentation`: 😀, 🚀, not ☺ or ❤ without U+FE0F) and holds no text presentation selector (U+FE0E),
  /// when that family draws it: readers expect colour, and a page lists that family first for those characters
  /// (`unicode-range`), so every engine draws them there even where an earlier face has an outline (DejaVu Sans
  /// has 😀; WebKit drew it from the emoji font once another emoji on the page needed that font).
  ///
  /// Every other face of the page leaves those characters out of its `unicode-range`, so Gecko, which drops the bitmaps
  /// of a downloaded font (its face fails to load), draws them in the system's emoji font, in colour.
  func emojiFallback(drawing scalars: some Collection<Unicode.Scalar>, traits: Style.Traits) -> Int? {
    guard let first = scalars.first, UnicodeProperties(first).isEmojiPresentation, let emojiFamily,
      !scalars.contains("\u{FE0E}"),
      withFallbackFace(emojiFamily, traits: traits, { FontMeasurer.draws(scalars, $0) })
    else { return nil }
    return emojiFamily
  }

  /// Whether the face for `traits` itself draws every printable ASCII character.
  func drawsPrintableASCII(traits: Style.Traits) -> Bool {
    withFace(for: Style(traits)) { FontMeasurer.drawsPrintableASCII($0.asciiWithoutGlyph) }
  }

  /// The index in ``fallbacks`` of the first family whose face for `traits` draws a cluster.
  func firstFallback(drawing scalars: some Collection<Unicode.Scalar>, traits: Style.Traits) -> Int? {
    let index = Self.faceIndex(for: traits)
    // A cluster of one character that needs a glyph (most of them): the character maps alone.
    if scalars.count == 1, let scalar = scalars.first, !FontMeasurer.isIgnorable(scalar),
      !FontMeasurer.isWhitespace(scalar)
    {
      let visible = VisibleControls.visible(scalar)
      return chain.withTables(style: index) { Self.firstFace(in: $0, drawing: visible) }
    }
    return chain.withFaces(style: index) { faces in faces.firstIndex { FontMeasurer.draws(scalars, $0) } }
  }

  /// The index of the first of `faces` with a glyph for `scalar`.
  @inline(__always)
  private static func firstFace(in faces: UnsafeBufferPointer<Unmanaged<FaceTables>>, drawing scalar: Unicode.Scalar)
    -> Int?
  {
    for index in faces.indices where faces[index]._withUnsafeGuaranteedRef({ $0.glyph(for: scalar) }) != 0 {
      return index
    }
    return nil
  }

  /// The traits that a face of ``faceIndex(for:)`` draws.
  fileprivate static func traits(ofFace index: Int) -> Style.Traits {
    switch index {
    case 1: [.bold]
    case 2: [.italic]
    case 3: [.bold, .italic]
    case 4: [.code]
    default: []
    }
  }

  /// The advance of an ASCII character's glyph in the face a style of `traits` is drawn in, in `FontMeasurer`'s
  /// unit (``scaledASCIIAdvances``); ``measuredInFallback`` for one that face lacks and a fallback may draw.
  @inline(__always)
  func scaledASCIIAdvance(_ byte: UInt8, traits: Style.Traits) -> Int {
    scaledASCIIAdvances[Self.faceIndex(for: traits) << 7 | Int(byte & 0x7F)]
  }

  /// The face that draws a style: code in the monospace face, else by bold and italic.
  package func face(for style: Style) -> FontFace {
    withFace(for: style) { copy $0 }
  }

  /// Runs `body` with the face `style` is drawn in, borrowed: returning a face copies it, with the six
  /// references it holds, which measuring did at every cluster.
  @inline(__always)
  func withFace<Result>(for style: Style, _ body: (borrowing FontFace) -> Result) -> Result {
    switch Self.faceIndex(for: style.traits) {
    case 0: return body(regular)
    case 1: return body(bold)
    case 2: return body(italic)
    case 3: return body(boldItalic)
    default: return body(monospace)
    }
  }

  /// In ``scaledASCIIAdvances``, an ASCII character that the style's face lacks, measured as any other cluster (in
  /// the fallback face that draws it).
  static var measuredInFallback: Int { -1 }

  /// The ASCII code points that each of the set's faces draws no glyph for, in the order of ``faceIndex(for:)``
  /// (bits as ``FontFace/asciiWithoutGlyph``; a fallback face may draw them), made again with
  /// ``scaledASCIIAdvances``.
  private(set) var asciiWithoutGlyph: [(low: UInt64, high: UInt64)] = []

  /// The glyph of a code point in the face a style of `traits` is drawn in, read in place: a face borrowed by
  /// ``withFace(for:_:)`` in a loop over clusters would be copied at every cluster.
  @inline(__always)
  func glyph(for scalar: Unicode.Scalar, traits: Style.Traits) -> Int {
    switch Self.faceIndex(for: traits) {
    case 0: regular.tables.glyph(for: scalar)
    case 1: bold.tables.glyph(for: scalar)
    case 2: italic.tables.glyph(for: scalar)
    case 3: boldItalic.tables.glyph(for: scalar)
    default: monospace.tables.glyph(for: scalar)
    }
  }

  /// The advance in font units of a code point's glyph in the face a style of `traits` is drawn in, and that face's
  /// units per em, read in place (a face borrowed by ``withFace(for:_:)`` per cluster would be copied five times);
  /// the units are -1 when the face has no glyph for it.
  @inline(__always)
  func glyphAdvance(_ scalar: Unicode.Scalar, traits: Style.Traits) -> (units: Int, unitsPerEm: Int) {
    /// The advance in one face, from its tables alone.
    @inline(__always)
    func advance(_ tables: FaceTables) -> Int {
      let glyph = tables.glyph(for: scalar)
      return glyph == 0 ? -1 : tables.advance(ofGlyph: glyph)
    }
    switch Self.faceIndex(for: traits) {
    case 0: return (advance(regular.tables), regular.unitsPerEm)
    case 1: return (advance(bold.tables), bold.unitsPerEm)
    case 2: return (advance(italic.tables), italic.unitsPerEm)
    case 3: return (advance(boldItalic.tables), boldItalic.unitsPerEm)
    default: return (advance(monospace.tables), monospace.unitsPerEm)
    }
  }

  /// Which face draws a style of `traits`: 0 regular, 1 bold, 2 italic, 3 bold italic, 4 monospace (code).
  @inline(__always)
  static func faceIndex(for traits: Style.Traits) -> Int {
    traits.contains(.code) ? 4 : (traits.contains(.bold) ? 1 : 0) + (traits.contains(.italic) ? 2 : 0)
  }

  /// The folder of Debian's `fonts-dejavu-core`.
  package static let dejaVuFolder = "/usr/share/fonts/truetype/dejavu"

  /// DejaVu Sans (regular, bold, oblique, bold oblique) and DejaVu Sans Mono, from `fonts-dejavu-core`, with
  /// the fallback families given: by default Debian's Noto fonts that are installed
  /// (``FontFamily/notoFallbacks()``), the chain `unfold` uses, so that Chinese, Thai or emoji are measured in the
  /// faces that draw them; `[]` for none.
  /// - Throws: ``FontError`` naming the missing file.
  public static func dejaVu(
    size: Double = 16, lineHeight: Double? = nil, fallbacks: [FontFamily] = FontFamily.notoFallbacks()
  ) throws(FontError) -> FontSet {
    let folder = dejaVuFolder
    return FontSet(
      regular: try FontFace(contentsOf: "\(folder)/DejaVuSans.ttf"),
      bold: try FontFace(contentsOf: "\(folder)/DejaVuSans-Bold.ttf"),
      italic: try FontFace(contentsOf: "\(folder)/DejaVuSans-Oblique.ttf"),
      boldItalic: try FontFace(contentsOf: "\(folder)/DejaVuSans-BoldOblique.ttf"),
      monospace: try FontFace(contentsOf: "\(folder)/DejaVuSansMono.ttf"), size: size, lineHeight: lineHeight,
      fallbacks: fallbacks)
  }

  /// A set from font files, each placed by what its tables say: fixed pitch → monospace, else by weight
  /// (600 and above is bold) and italic.
  ///
  /// Two files for one place, or none for the regular place, is an error.
  public static func files(_ paths: [String], size: Double = 16, lineHeight: Double? = nil) throws(FontError) -> FontSet
  {
    var places: [String: FontFace] = [:]
    for path in paths {
      let face = try FontFace(contentsOf: path)
      let place = face.isFixedPitch ? "monospace" : (face.weight >= 600 ? "bold" : "") + (face.isItalic ? "italic" : "")
      let name = place.isEmpty ? "regular" : place
      if let other = places[name] {
        throw FontError(path: path, message: "a second \(name) face besides \(other.path)")
      }
      places[name] = face
    }
    guard let regular = places["regular"] else {
      throw FontError(path: paths.first ?? "", message: "no regular face among the fonts given")
    }
    return FontSet(
      regular: regular, bold: places["bold"], italic: places["italic"], boldItalic: places["bolditalic"],
      monospace: places["monospace"], size: size, lineHeight: lineHeight)
  }

  /// A set from a folder of font files, such as a system font folder that holds several families (Liberation's
  /// holds Sans, Serif and Mono, each in four styles): ``FontFolder/fonts`` and the files left out.
  ///
  /// The `.ttf`, `.otf` and `.ttc` files (a collection's first face) are read; a file that cannot be read is
  /// left out with its error. The text family is one with a regular face, preferring a name with "Sans", then
  /// the most faces, then the first name; its faces take the places of ``files(_:size:lineHeight:)``, the weight
  /// nearest 400 (regular, italic) or 700 (bold, bold italic) where two compete. The monospace face is the
  /// upright fixed-pitch face of weight nearest 400, preferring a family that shares the text family's first
  /// word. Every other face is left out.
  /// - Throws: ``FontError`` when the folder cannot be listed or holds no readable face with a regular style.
  public static func folder(_ path: String, size: Double = 16, lineHeight: Double? = nil) throws(FontError)
    -> FontFolder
  {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
      throw FontError(path: path, message: "no such font folder")
    }
    var leftOut: [FontFolder.LeftOut] = []
    var faces: [FontFace] = []
    for name in names.sorted() where [".ttf", ".otf", ".ttc"].contains(where: { name.lowercased().hasSuffix($0) }) {
      do throws(FontError) {
        faces.append(try FontFace(contentsOf: "\(path)/\(name)"))
      } catch {
        leftOut.append(FontFolder.LeftOut(path: error.path, reason: error.message, wasRead: false))
      }
    }
    func family(_ face: FontFace) -> String {
      face.familyName ?? URL(fileURLWithPath: face.path).deletingPathExtension().lastPathComponent
    }
    func isRegular(_ face: FontFace) -> Bool { face.weight < 600 && !face.isItalic }
    let proportional = Dictionary(grouping: faces.filter { !$0.isFixedPitch }, by: family)
    let candidates = proportional.filter { $0.value.contains(where: isRegular) }
    guard
      let chosen = candidates.keys.min(by: { lhs, rhs in
        let left = (lhs.localizedCaseInsensitiveContains("sans") ? 0 : 1, -candidates[lhs]!.count, lhs)
        let right = (rhs.localizedCaseInsensitiveContains("sans") ? 0 : 1, -candidates[rhs]!.count, rhs)
        return left < right
      }), let textFaces = candidates[chosen]
    else { throw FontError(path: path, message: "no readable font with a regular face in the folder") }
    /// The face of a place nearest `weight`, among those of the style and boldness.
    func place(bold: Bool, italic: Bool) -> FontFace? {
      textFaces.filter { ($0.weight >= 600) == bold && $0.isItalic == italic }
        .min { abs($0.weight - (bold ? 700 : 400)) < abs($1.weight - (bold ? 700 : 400)) }
    }
    let firstWord = chosen.split(separator: " ").first.map(String.init) ?? chosen
    let monospace = faces.filter { $0.isFixedPitch && !$0.isItalic }.min { lhs, rhs in
      func rank(_ face: FontFace) -> (Int, Int, String) {
        (family(face).hasPrefix(firstWord) ? 0 : 1, abs(face.weight - 400), face.path)
      }
      return rank(lhs) < rank(rhs)
    }
    let set = FontSet(
      regular: place(bold: false, italic: false)!, bold: place(bold: true, italic: false),
      italic: place(bold: false, italic: true), boldItalic: place(bold: true, italic: true), monospace: monospace,
      size: size, lineHeight: lineHeight)
    let used = Set([set.regular, set.bold, set.italic, set.boldItalic, set.monospace].map(\.path))
    for face in faces where !used.contains(face.path) {
      let reason =
        family(face) == chosen || face.isFixedPitch && family(face) == monospace.map(family)
        ? "another face of \(family(face)) for the same place" : "another family (\(family(face)))"
      leftOut.append(FontFolder.LeftOut(path: face.path, reason: reason, wasRead: true))
    }
    return FontFolder(fonts: set, leftOut: leftOut.sorted { $0.path < $1.path })
  }
}

/// What ``FontSet/folder(_:size:lineHeight:)`` made of a folder of fonts.
public struct FontFolder: Sendable {
  /// A file of the folder that the set does not use, and why.
  public struct LeftOut: Sendable, Hashable {
    /// The file.
    public var path: String
    /// Why: the file cannot be read (the reader's message), or the set has its place filled already.
    public var reason: String
    /// Whether the file was read (it is left out for its family or style, not for an error).
    public var wasRead: Bool
  }

  /// The set: one family's faces and a monospace face.
  public var fonts: FontSet
  /// The files left out, by path.
  public var leftOut: [LeftOut]
}

/// The fallback families' faces for each of a set's styles, in the order of ``FontSet/faceIndex(for:)``, and the
/// colour emoji family: made when a lookup first needs them, so that a text that needs no fallback opens none of
/// the chain's files.
///
/// Shared by the copies of a set, and made again only when its ``FontSet/fallbacks`` change.
private final class FallbackChain: @unchecked Sendable {
  private let families: [FontFamily]
  /// The number of families, the faces of each style.
  private let count: Int
  /// Makes the faces once.
  private let making = Once()
  /// The faces, a style's after the one before's, one per family; in memory of the chain's own, read in place
  /// where a character is looked up in the chain.
  ///
  /// A face passed to a closure per fallback family is copied, its references retained and released: three
  /// quarters of preparing a Chinese comment (Docs/PerformanceNotes.md, "HTML output"). A reference to its tables
  /// read from an array is retained and released too: three quarters of a lookup in the chain.
  private nonisolated(unsafe) var faces = UnsafeMutableBufferPointer<FontFace>(start: nil, count: 0)
  /// The tables of ``faces``, unmanaged: the faces hold them.
  private nonisolated(unsafe) var tables = UnsafeMutableBufferPointer<Unmanaged<FaceTables>>(start: nil, count: 0)
  private nonisolated(unsafe) var emoji: Int?

  init(_ families: [FontFamily]) {
    (self.families, count) = (families, families.count)
  }

  deinit {
    _ = faces.deinitialize()
    faces.deallocate()
    tables.deallocate()
  }

  /// Runs `body` with the faces of a style (its index in ``FontSet/faceIndex(for:)``), one per family.
  @inline(__always)
  func withFaces<Result>(style: Int, _ body: (UnsafeBufferPointer<FontFace>) -> Result) -> Result {
    make()
    return body(UnsafeBufferPointer(start: faces.baseAddress.map { $0 + style * count }, count: count))
  }

  /// Runs `body` with the tables of a style's faces.
  @inline(__always)
  func withTables<Result>(style: Int, _ body: (UnsafeBufferPointer<Unmanaged<FaceTables>>) -> Result) -> Result {
    make()
    return body(UnsafeBufferPointer(start: tables.baseAddress.map { $0 + style * count }, count: count))
  }

  /// The index of the first colour emoji family: a bitmap font, or a family named for emoji.
  var emojiFamily: Int? {
    make()
    return emoji
  }

  @inline(__always)
  private func make() {
    if !making.isDone { makeNow() }
  }

  @inline(never)
  private func makeNow() {
    making.run {
      let made = (0..<5).flatMap { style in families.map { $0.face(for: FontSet.traits(ofFace: style)) } }
      faces = .allocate(capacity: made.count)
      _ = faces.initialize(from: made)
      tables = .allocate(capacity: made.count)
      _ = tables.initialize(from: made.map { Unmanaged.passUnretained($0.tables) })
      emoji = families.firstIndex {
        let face = $0.face(for: [])
        return face.hasColourBitmaps || face.familyName.map(Self.namesEmoji) == true
      }
    }
  }

  /// Whether a family name says emoji, in any case (`Noto Color Emoji`, `Twemoji`).
  private static func namesEmoji(_ name: String) -> Bool {
    let letters = Array(name.utf8.lazy.map { $0 | 0x20 })
    return letters.count >= 5 && (0...letters.count - 5).contains { letters[$0..<$0 + 5].elementsEqual("emoji".utf8) }
  }
}
