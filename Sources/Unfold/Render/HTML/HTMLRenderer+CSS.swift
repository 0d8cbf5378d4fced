import Foundation

/// The container's stylesheet: the font faces (embedded subsets or linked files), the rules that pin every
/// property that changes layout to what the engine measured, and the CSS lengths they are written in.
extension HTMLRenderer {
  /// A CSS length in px, with up to four decimals.
  static func px(_ value: Double) -> String {
    // Ten-thousandths rounded as `%.4f` rounds them (to nearest, ties to even), from integers, since the
    // formatter is slow. A value near a tie whose product with 10,000 is rounded (so the tie may be the
    // product's, not the value's), or one out of range, goes through the formatter.
    let scaled = value * 10_000
    let rounded = scaled.rounded(.toNearestOrEven)
    let isExact = (-scaled).addingProduct(value, 10_000) == 0
    if value >= 0, scaled < 1e15, isExact || abs(abs(scaled - rounded) - 0.5) > 1e-6 {
      let tenThousandths = Int(rounded)
      var text = String(tenThousandths / 10_000)
      var fraction = tenThousandths % 10_000
      if fraction > 0 {
        var digits = 4
        while fraction % 10 == 0 {
          fraction /= 10
          digits -= 1
        }
        let written = String(fraction)
        text += "." + String(repeating: "0", count: digits - written.count) + written
      }
      return text + "px"
    }
    var text = String(format: "%.4f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "px"
  }

  /// Where the page finds a face: its file under the URL prefix, or, embedded, the face subset to `characters`
  /// (the whole file when HarfBuzz cannot subset it).
  private func fontURL(_ face: borrowing FontFace, characters: Set<Unicode.Scalar>) -> String {
    switch options.standalone ? .embedded : options.fontSource {
    case .embedded:
      let data = face.harfBuzz?.subset(keeping: characters) ?? face.data
      return "data:font/ttf;base64," + data.base64EncodedString()
    case .url(let prefix): return prefix + face.fileName
    }
  }

  /// The characters an embedded face must keep: those of the text and the labels, the pictures drawn for control
  /// characters, the space (tabs advance by it), the hyphens a soft hyphen may show, and what a shaper draws in
  /// place of a character (``shapedAs(_:)``).
  static func charactersDrawn(_ text: StyledText, labels: [String]) -> Set<Unicode.Scalar> {
    var characters: Set<Unicode.Scalar> = [" ", "-", "\u{2010}"]
    for scalar in text.string.unicodeScalars { characters.insert(VisibleControls.visible(scalar)) }
    for label in labels {
      for scalar in label.unicodeScalars { characters.insert(VisibleControls.visible(scalar)) }
    }
    // Each distinct character once, not each occurrence.
    for scalar in characters where scalar.value >= 0xC0 { characters.formUnion(shapedAs(scalar)) }
    return characters
  }

  /// The characters that HarfBuzz may look up in place of `scalar`: its canonical decomposition (a two-part vowel
  /// sign, `ো` as `ে` and `া`; a letter and its accent), and, for Thai's and Lao's SARA AM, NIKHAHIT and SARA AA,
  /// which the Thai shaper always draws instead.
  ///
  /// A subset without them draws the missing glyph, 600 units wide in Noto Sans Thai where the whole font's NIKHAHIT
  /// has none: WebKitGTK laid such lines out wider.
  static func shapedAs(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
    switch scalar.value {
    case 0x0E33: return ["\u{0E4D}", "\u{0E32}"]
    case 0x0EB3: return ["\u{0ECD}", "\u{0EB2}"]
    default:
      let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
      return decomposed.count == 1 && decomposed.first == scalar ? [] : Array(decomposed)
    }
  }

  /// The families a container's rules name: one per style, each listed with the fallback families that draw some of
  /// its text (and the colour emoji family first, for the emoji it draws).
  struct Families {
    /// The regular style's family, and the bold, italic, bold italic and monospace ones'.
    var regular, bold, italic, boldItalic, mono: String
    /// What comes before each style's family in `font-family` (the emoji family and a comma, or nothing) and what
    /// comes after it (a comma before each fallback family).
    var before = "", after = ""
  }

  /// The pinned CSS of one container: the fonts the engine measured, and every property that changes line breaking.
  ///
  /// The fallback families that draw some cluster of `text` or of `labels` follow the set's own in `font-family`, each
  /// face declared with its own weight and style. With ``linksStylesheet``, the rules and faces that are the same for
  /// every text (``pageStylesheet()``) are left to the page.
  func writeCSS(id: String, width: ContainerWidth, text: StyledText, labels: [String], to css: inout UTF8Output) {
    let families = writeFaces(text: text, labels: labels, to: &css)
    let root = Self.selector(forID: id)
    if !linksStylesheet { Self.write(Self.sharedTemplate, root: root, families: families, fonts: fonts, to: &css) }
    let widthRules: String
    switch width {
    case .fixed(let pixels): widthRules = "width:" + Self.px(pixels) + ";max-width:none"
    case .range(let range):
      // Its parent's width, never narrower or wider than the range, and the container that the views' queries ask.
      widthRules =
        "width:100%;min-width:\(range.lowerBound)px;max-width:\(range.upperBound)px;container-type:inline-size"
    }
    Self.write(Self.ownTemplate, root: root, width: widthRules, families: families, fonts: fonts, to: &css)
  }

  /// The stylesheet that fragments written with ``linksStylesheet`` share: every face of the fonts (by URL, so a face
  /// loads only when a fragment's text needs it) and the rules that are the same for every text, for the containers
  /// of the class ``pageClass`` at the specificity of an id, as a fragment's own.
  ///
  /// Faces embedded as subsets, and faces whose range leaves the emoji to the emoji family, stay in the fragments.
  func pageStylesheet() -> String {
    var css = UTF8Output(capacity: 8_192)
    let embeds = options.standalone || options.fontSource == .embedded
    let families = familyNames(variant: "")
    if !embeds {
      writeFaces(of: families, characters: [], to: &css)
      for fallback in fonts.fallbacks {
        writeFaces(of: fallback, family: fallbackName(fallback, variant: ""), characters: [], to: &css)
      }
    }
    let root = ":is(." + pageClass + ",#" + pageClass + ")"
    Self.write(Self.sharedTemplate, root: root, families: families, fonts: fonts, to: &css)
    return css.string()
  }

  /// The font files that a page of `texts` (each with the labels drawn with it) loads, each named as
  /// ``pageStylesheet()`` names it: the set's own faces and the faces of the fallback families that draw something of
  /// the texts; cut by HarfBuzz's subsetter to the characters that the texts draw when `subsets` (the whole file when
  /// it cannot), else whole.
  package func pageFontFiles(_ texts: [(text: StyledText, labels: [String])], subsets: Bool) -> [(
    name: String, data: Data
  )] {
    var characters = Set<Unicode.Scalar>()
    var drawing = Set<Int>()
    for (text, labels) in texts {
      if subsets { characters.formUnion(Self.charactersDrawn(text, labels: labels)) }
      drawing.formUnion(fallbacksDrawing(text, labels: labels).families)
    }
    var faces = fonts.styleFaces
    for index in drawing.sorted() { faces += fonts.fallbacks[index].faces }
    var files: [(name: String, data: Data)] = []
    var named = Set<String>()
    for face in faces where named.insert(face.fileName).inserted {
      files.append((face.fileName, subsets ? face.harfBuzz?.subset(keeping: characters) ?? face.data : face.data))
    }
    return files
  }

  /// The class of the containers that ``pageStylesheet()`` styles: `unfold-s` and a hash of the fonts' files and of
  /// their kerning, so that pages of two font sets keep their rules apart.
  var pageClass: String {
    let faces = fonts.styleFaces.map(\.path)
    return "unfold-s" + Self.hexHash(faces.joined(separator: "|") + "|\(fonts.kerningAndLigatures)")
  }

  /// The faces of one container, and the families its rules name.
  ///
  /// Embedded faces are subsets of what the container draws, and when the emoji family draws some of it, the other
  /// families leave those emoji to it: such faces are the container's own, in families of their own (a variant of
  /// the name). The others are the same for every text: with ``linksStylesheet`` the page declares them.
  private func writeFaces(text: StyledText, labels: [String], to css: inout UTF8Output) -> Families {
    let embeds = options.standalone || options.fontSource == .embedded
    let characters = embeds ? Self.charactersDrawn(text, labels: labels) : []
    // Embedded faces are subsets: families of other subsets on the same page must not take their place (of
    // two faces of one family, weight and style, the last declared is used).
    let subset =
      embeds ? "-" + Self.hexHash(String(String.UnicodeScalarView(characters.sorted { $0.value < $1.value }))) : ""
    let (drawing, emojiFirst) = fallbacksDrawing(text, labels: labels)
    // Every face but the colour emoji family's leaves the emoji's own characters (😀, not U+FE0F or U+200D) to that
    // family, so that an engine that cannot load it (Gecko drops a colour bitmap font) draws them in its own emoji
    // font, in colour, rather than in an outline of DejaVu Sans. The families' names tell the characters apart: of
    // two faces of one family, weight and style on a page, a browser takes the last declared whose range has the
    // character, so another fragment's face would draw them again.
    // Empty unless the emoji family draws some (asked first, so that a text that needs no fallback opens no family).
    let emojiRange = Self.range(of: emojiFirst)
    let textRange = emojiRange == nil ? nil : Self.range(excluding: emojiFirst)
    let variant = subset + (emojiRange.map { "-" + Self.hexHash($0) } ?? "")
    var families = familyNames(variant: variant)
    let declares = !linksStylesheet || !variant.isEmpty
    if declares { writeFaces(of: families, range: textRange, characters: characters, to: &css) }
    // The colour emoji family again, first, for the emoji it draws (see FontSet.emojiFallback(drawing:traits:)):
    // only those characters, so that an earlier face keeps the rest of the family's characters.
    if let emojiRange, let emoji = fonts.emojiFamily {
      let fallback = fonts.fallbacks[emoji]
      let name = fallbackName(fallback, variant: variant) + "-Emoji"
      writeFaces(of: fallback, family: name, range: emojiRange, characters: characters, to: &css)
      families.before = "\"" + name + "\","
    }
    for index in drawing {
      let name = fallbackName(fonts.fallbacks[index], variant: variant)
      if declares {
        writeFaces(
          of: fonts.fallbacks[index], family: name, range: index == fonts.emojiFamily ? nil : textRange,
          characters: characters, to: &css)
      }
      families.after += ",\"" + name + "\""
    }
    return families
  }

  /// The names of the set's families, one per style (a browser that lacks a glyph in the face of a style goes on to
  /// the next family of the list, as the measurer does: WebKit tries the family's faces of other styles first when
  /// they are one family, and an italic Arabic letter came out in DejaVu Sans's regular face, not in Noto Sans
  /// Arabic's): `Unfold-`, a hash of the faces' files, and `variant`.
  private func familyNames(variant: String) -> Families {
    let family =
      "Unfold-"
      + Self.hexHash(
        fonts.regular.path + "|" + fonts.bold.path + "|" + fonts.italic.path + "|" + fonts.boldItalic.path)
      + variant
    return Families(
      regular: family, bold: family + "-Bold", italic: family + "-Italic", boldItalic: family + "-BoldItalic",
      mono: family + "-Mono")
  }

  /// A fallback family's name: a hash of its faces, and `variant`.
  private func fallbackName(_ fallback: FontFamily, variant: String) -> String {
    "Unfold-" + Self.hexHash(fallback.faces.map { "\($0.path)#\($0.index)" }.joined(separator: "|")) + variant
  }

  /// An `@font-face` rule; an embedded face is cut to `characters`.
  private func writeFace(
    _ face: borrowing FontFace, family: String, weight: String, style: StaticString, range: String? = nil,
    characters: Set<Unicode.Scalar>, to css: inout UTF8Output
  ) {
    css.write("@font-face{font-family:\"")
    css.write(family)
    css.write("\";src:url(\"")
    css.write(Self.escapeCSSString(fontURL(face, characters: characters)))
    css.write("\");font-weight:")
    css.write(weight)
    css.write(";font-style:")
    css.write(style)
    if let range {
      css.write(";unicode-range:")
      css.write(range)
    }
    css.write(";font-display:block}")
  }

  /// The set's own five faces, each in the family of its style in `families`.
  private func writeFaces(
    of families: Families, range: String? = nil, characters: Set<Unicode.Scalar>, to css: inout UTF8Output
  ) {
    let faces: [(FontFace, String, String, StaticString)] = [
      (fonts.regular, families.regular, "400", "normal"), (fonts.bold, families.bold, "700", "normal"),
      (fonts.italic, families.italic, "400", "italic"), (fonts.boldItalic, families.boldItalic, "700", "italic"),
      (fonts.monospace, families.mono, "400", "normal"),
    ]
    for (face, family, weight, style) in faces {
      writeFace(face, family: family, weight: weight, style: style, range: range, characters: characters, to: &css)
    }
  }

  /// The faces of a fallback family, each with its own weight and style.
  private func writeFaces(
    of fallback: FontFamily, family: String, range: String? = nil, characters: Set<Unicode.Scalar>,
    to css: inout UTF8Output
  ) {
    for face in fallback.faces {
      writeFace(
        face, family: family, weight: String(min(1000, max(1, face.weight))),
        style: face.isItalic ? "italic" : "normal", range: range, characters: characters, to: &css)
    }
  }

  /// The line height: a number (a multiple of the font size) when it makes exactly the set's line height, else px.
  ///
  /// A number grows with the text when the reader's browser draws it larger than measured (a minimum font size):
  /// 32 px text on lines of 20 px would overlap. It is written only when it is exact in 32-bit floating point, as
  /// engines multiply (1.25 for 20 px at 16 px), so that the lines are as tall as measured.
  static func lineHeight(_ fonts: FontSet) -> String {
    let ratio = fonts.lineHeight / fonts.size
    let exact =
      (ratio * 10_000).rounded() == ratio * 10_000 && Double(Float(ratio)) == ratio
      && Float(ratio) * Float(fonts.size) == Float(fonts.lineHeight)
    return exact ? String(px(ratio).dropLast(2)) : px(fonts.lineHeight)
  }

  /// A template's pieces with its slots filled: `root` the container's selector, `width` its width's rules.
  private static func write(
    _ template: [(piece: [UInt8], slot: CSSSlot?)], root: String, width: String = "", families: Families,
    fonts: FontSet, to css: inout UTF8Output
  ) {
    for (piece, slot) in template {
      css.write(piece)
      guard let slot else { continue }
      switch slot {
      case .root: css.write(root)
      case .width: css.write(width)
      case .family, .mono, .bold, .italic, .boldItalic:
        css.write(families.before)
        css.write("\"")
        css.write(
          slot == .family
            ? families.regular
            : slot == .mono
              ? families.mono : slot == .bold ? families.bold : slot == .italic ? families.italic : families.boldItalic)
        css.write("\"")
        css.write(families.after)
        // A generic family last, for a page whose font files fail to load: text like the fonts' own rather than
        // the browser's default serif.
        css.write(slot == .mono ? ",monospace" : fonts.regular.hasSerifs ? ",serif" : ",sans-serif")
      case .size: css.write(px(fonts.size))
      case .lineHeight: css.write(lineHeight(fonts))
      case .kerning: css.write(fonts.kerningAndLigatures ? "auto" : "none")
      case .ligatures: css.write(fonts.kerningAndLigatures ? "normal" : "none")
      }
    }
  }

  /// The rules that show one collapsed view of a range at a time.
  ///
  /// The first shows below the second's narrowest width, and each later one from its narrowest width on (`from`, in
  /// whole CSS px, narrowest first), by a container query on the container's own width: a later query that matches
  /// overrides an earlier one.
  func writeViewRules(id: String, from: [Int], to css: inout UTF8Output) {
    let root = Self.selector(forID: id)
    for (index, width) in from.enumerated() {
      if index > 0 {
        css.write("@container (min-width:")
        css.write(decimal: width)
        css.write("px){")
      }
      css.write(root)
      css.write(" .unfold-collapsed>p{display:none}")
      css.write(root)
      css.write(" p.unfold-v")
      css.write(decimal: index)
      css.write("{display:block}")
      if index > 0 { css.write("}") }
    }
  }

  /// What the CSS template leaves to each paragraph.
  private enum CSSSlot: String, CaseIterable {
    // (`boldItalic` before `bold`: a slot is found by the first name that its text starts with.)
    case root, width, family, mono, boldItalic, bold, italic, size, lineHeight = "line", kerning, ligatures
  }

  /// The rules that are the same for every text of a font set, whether a fragment carries them or a page's
  /// stylesheet does (``pageStylesheet()``): the template's pieces as bytes, each followed by its slot (the
  /// container's selector, kerning and ligatures), cut once rather than interpolated at every render.
  ///
  /// Every property that moves a line is pinned at the specificity of an id, on the container and on every element in
  /// it (`$root *`: the text properties inherited, no margin, padding or border), so that a site's rules for `p`, `a`
  /// or `code` move no line. The colours (links, the toggle, its
  /// focus ring, the overlay's background) are the page's to choose: they come last, inside `:where()`, so that any
  /// rule of the site's overrides them, and read custom properties that a site sets anywhere above the container
  /// (`--unfold-link-color`, `--unfold-toggle-color`, `--unfold-focus-color`, `--unfold-overlay-background`), each
  /// defaulting to a system colour (`LinkText`, `Highlight`, `Canvas`) of the page's `color-scheme`.
  private static let sharedTemplate = template(
    """
    $root{display:block;margin:0;padding:0;border:0;box-sizing:content-box;font-weight:400;\
    font-style:normal;font-stretch:normal;font-synthesis:none;font-kerning:$kerning;font-variant:normal;\
    font-variant-ligatures:$ligatures;font-feature-settings:normal;font-variation-settings:normal;\
    font-optical-sizing:none;font-size-adjust:none;text-rendering:geometricPrecision;letter-spacing:0;\
    word-spacing:0;text-transform:none;text-indent:0;text-align:start;text-wrap:wrap;white-space:pre-wrap;\
    overflow-wrap:anywhere;word-break:normal;line-break:auto;hyphens:manual;tab-size:8;\
    text-spacing-trim:space-all;text-autospace:no-autospace;\
    -webkit-text-size-adjust:none;text-size-adjust:none;position:relative}\
    $root *{font:inherit;font-kerning:inherit;font-variant-ligatures:inherit;font-feature-settings:inherit;\
    font-variation-settings:inherit;font-synthesis:inherit;font-optical-sizing:inherit;font-size-adjust:inherit;\
    letter-spacing:inherit;word-spacing:inherit;text-transform:inherit;text-rendering:inherit;text-indent:inherit;\
    text-align:inherit;white-space:inherit;tab-size:inherit;hyphens:inherit;overflow-wrap:inherit;\
    word-break:inherit;line-break:inherit;text-spacing-trim:inherit;text-autospace:inherit;margin:0;padding:0;\
    border:0;vertical-align:baseline;float:none}\
    $root :is(a,strong,em,del,code,span){display:inline}\
    $root strong{font-weight:700}$root em{font-style:italic}$root code{font-weight:400;font-style:normal}\
    $root .unfold-toggle{font:inherit;font-weight:400;font-style:normal;font-kerning:inherit;\
    font-variant-ligatures:inherit;text-rendering:inherit;letter-spacing:inherit;word-spacing:inherit;\
    text-transform:none;border:0;border-radius:4px;padding:4px 8px;\
    margin:-4px -8px;cursor:pointer;position:relative;vertical-align:baseline;text-decoration:underline}\
    $root .unfold-fade{-webkit-mask-image:linear-gradient(to right,#000 calc(100% - 2.5em),rgba(0,0,0,.3));\
    mask-image:linear-gradient(to right,#000 calc(100% - 2.5em),rgba(0,0,0,.3))}\
    $root[dir=rtl] .unfold-fade{-webkit-mask-image:linear-gradient(to left,#000 calc(100% - 2.5em),\
    rgba(0,0,0,.3));mask-image:linear-gradient(to left,#000 calc(100% - 2.5em),rgba(0,0,0,.3))}\
    $root .unfold-collapsed{position:relative}\
    $root .unfold-overlay{position:absolute;bottom:0;inset-inline-end:0;margin:0;padding:0 0 0 2em}\
    $root[dir=rtl] .unfold-overlay{padding:0 2em 0 0}\
    $root .unfold-collapsed,$root .unfold-toggle{display:none}\
    $root.unfold-on .unfold-toggle{display:inline-block}\
    $root.unfold-on[data-state=collapsed] .unfold-collapsed{display:block}\
    $root.unfold-on[data-state=collapsed] .unfold-full{display:none}\
    :where($root a){color:var(--unfold-link-color,LinkText)}\
    :where($root .unfold-toggle){color:var(--unfold-toggle-color,LinkText);background:none}\
    :where($root .unfold-toggle:focus-visible){outline:2px solid var(--unfold-focus-color,Highlight);outline-offset:0}\
    :where($root .unfold-overlay){background:linear-gradient(to right,transparent,\
    var(--unfold-overlay-background,Canvas) 1.5em)}\
    :where($root[dir=rtl] .unfold-overlay){background:linear-gradient(to left,transparent,\
    var(--unfold-overlay-background,Canvas) 1.5em)}
    """)

  /// The rules that every container carries itself: its width, the font's size and line height, and the families
  /// that draw its text.
  private static let ownTemplate = template(
    """
    $root{$width;font-family:$family;font-size:$size;line-height:$line}\
    $root strong{font-family:$bold}$root em{font-family:$italic}$root strong em,$root em strong{font-family:$boldItalic}\
    $root code{font-family:$mono;font-size:$size}
    """)

  /// A CSS template cut at its slots (`$` and a slot's name), by bytes, not by characters.
  private static func template(_ text: String) -> [(piece: [UInt8], slot: CSSSlot?)] {
    let bytes = Array(text.utf8)
    let names = CSSSlot.allCases.map { ($0, Array($0.rawValue.utf8)) }
    var pieces: [(piece: [UInt8], slot: CSSSlot?)] = []
    var start = 0
    while let dollar = bytes[start...].firstIndex(of: UInt8(ascii: "$")) {
      let after = bytes[(dollar + 1)...]
      guard let (slot, name) = names.first(where: { after.starts(with: $0.1) }) else {
        preconditionFailure("an unknown slot in the CSS template")
      }
      pieces.append((Array(bytes[start..<dollar]), slot))
      start = dollar + 1 + name.count
    }
    pieces.append((Array(bytes[start...]), nil))
    return pieces
  }

  /// The indexes of the fallback families that draw some cluster of `text` or of `labels` (drawn in the regular
  /// style), chosen as the measurer chooses them: the page lists these alone, in the chain's order, so that the
  /// browser picks the same family for every cluster and loads no font that draws nothing.
  private func fallbacksDrawing(_ text: StyledText, labels: [String]) -> (families: [Int], emojiFirst: Set<UInt32>) {
    guard !fonts.fallbacks.isEmpty else { return ([], []) }
    var drawn = Set<Int>()
    var emojiFirst = Set<UInt32>()
    var cluster: [Unicode.Scalar] = []
    let tables = UnicodeTables.decoded
    /// The family that draws the cluster gathered, if a fallback does.
    func visitCluster(traits: Style.Traits, drawsASCII: Bool) {
      defer { cluster.removeAll(keepingCapacity: true) }
      if drawsASCII, cluster.count == 1, cluster[0].value &- 0x20 < 0x5F { return }
      guard let index = fonts.fallback(drawing: cluster, traits: traits) else { return }
      drawn.insert(index)
      // The cluster's every character past ASCII (a modifier, a joiner, a tag), so that no engine looks for one of
      // them in another face.
      if index == fonts.emojiFamily, fonts.emojiFallback(drawing: cluster, traits: traits) != nil {
        for scalar in cluster where scalar.value >= 0x80 { emojiFirst.insert(scalar.value) }
      }
    }
    /// The clusters of a run's bytes, read by the engine's grapheme reader (through `String`, Character by Character,
    /// a seventh of a comment's HTML in the generator's scripts).
    func visit(_ bytes: UnsafeBufferPointer<UInt8>, traits: Style.Traits) {
      let drawsASCII = fonts.drawsPrintableASCII(traits: traits)
      // Printable ASCII that the style's face draws needs no fallback: most runs of most texts.
      if drawsASCII, bytes.allSatisfy({ $0 &- 0x20 < 0x5F }) { return }
      var reader = GraphemeReader()
      var position = 0
      while position < bytes.count {
        let (value, length, startsCluster) = reader.read(bytes, at: position, tables: tables)
        if startsCluster, !cluster.isEmpty { visitCluster(traits: traits, drawsASCII: drawsASCII) }
        cluster.append(Unicode.Scalar(validUTF8: value))
        position += length
      }
      if !cluster.isEmpty { visitCluster(traits: traits, drawsASCII: drawsASCII) }
    }
    text.string.withUTF8Buffer { bytes in
      for (range, style) in text.runRanges {
        visit(UnsafeBufferPointer(rebasing: bytes[range]), traits: style.traits)
      }
    }
    for label in labels { label.withUTF8Buffer { visit($0, traits: []) } }
    return (drawn.sorted(), emojiFirst)
  }

  /// A `unicode-range` of the characters of `emojiFirst`; nil when it is empty.
  private static func range(of emojiFirst: Set<UInt32>) -> String? {
    emojiFirst.isEmpty
      ? nil : emojiFirst.sorted().map { "U+" + String($0, radix: 16, uppercase: true) }.joined(separator: ",")
  }

  /// A `unicode-range` of every character but those of `emojiFirst` of emoji presentation.
  private static func range(excluding emojiFirst: Set<UInt32>) -> String? {
    let excluded = emojiFirst.filter { UnicodeProperties(Unicode.Scalar($0)!).isEmojiPresentation }.sorted()
    guard !excluded.isEmpty else { return nil }
    var ranges: [String] = []
    var start: UInt32 = 0
    for value in excluded {
      if value > start {
        ranges.append(
          "U+" + String(start, radix: 16, uppercase: true) + "-" + String(value - 1, radix: 16, uppercase: true))
      }
      start = value + 1
    }
    ranges.append("U+" + String(start, radix: 16, uppercase: true) + "-10FFFF")
    return ranges.joined(separator: ",")
  }

  /// A string for a CSS `url("…")`: quotes, backslashes and line ends escaped.
  private static func escapeCSSString(_ text: String) -> String {
    // Most URLs hold none of these: returned as they are.
    let needsEscape = text.utf8.contains { byte in
      switch byte {
      case 0x22, 0x5C, 0x0A, 0x0D, 0x3C, 0x3E: return true
      default: return false
      }
    }
    guard needsEscape else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"", "\\": result += "\\" + String(scalar)
      case "\n", "\r", "<", ">": result += "\\" + String(scalar.value, radix: 16) + " "
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
