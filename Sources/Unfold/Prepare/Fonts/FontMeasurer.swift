import Synchronization

/// Measures text in a ``FontSet`` as one browser engine lays it out, with kerning and ligatures off (the CSS the
/// HTML renderer pins says so).
///
/// - Each grapheme cluster's advance is the sum of its glyphs' `hmtx` advances, in the face its style is
///   drawn in, scaled to the font size by the engine's arithmetic. Default-ignorable
///   characters (format characters, variation selectors, the soft hyphen) are not drawn and have no advance;
///   control characters are measured as the pictures the renderer draws for them.
/// - A cluster that the style's face cannot draw is measured in the first fallback face that can (see
///   ``FontSet``): shaped by HarfBuzz when it has more than one character (an emoji sequence is one glyph),
///   and in a colour bitmap font (Noto Color Emoji) from its bitmaps' advances, scaled from the strike that
///   the browser's font engine picks (the smallest at least the font size, else the largest).
/// - The unit (``unitsPerPixel-property``): 1/65536 CSS px for Blink and WebKit, fine enough that sums stay exact (an
///   advance at 16 px in a 2048-unit font is a whole number of them); Gecko's app unit, 1/60 px, for Gecko.
/// - A line fits as the engine decides. Blink: each inline item (a run of one style) is rounded up to 1/64 px,
///   and their sum must not pass the width rounded down to 1/64 px, plus 1/64 px. Gecko: the sum of app units
///   is at most the width in app units (``layoutWidth(pixels:)``). WebKit: the sum is at most the width rounded
///   down to its layout unit, 1/64 px.
/// - ``BrowserEngine/any`` measures each cluster in all three and takes the widest, rounds items up as Blink
///   does, and fits a line in the width rounded down to 1/64 px with nothing added: a line it fits, fits in each.
package struct FontMeasurer: TextMeasurer {
  /// The faces and size (a copy of the set; measuring reads the storage's).
  package var fonts: FontSet { storage.fonts }
  /// The engine measured for.
  package let engine: BrowserEngine

  /// The faces, held by reference, so that a measurer is a word.
  ///
  /// A measurer of five faces inline is a hundred bytes, copied at every call through ``TextMeasurer``.
  private final class Storage: Sendable {
    let fonts: FontSet
    /// For ``BrowserEngine/any``: a measurer of each engine.
    let engines: [FontMeasurer]
    /// For ``BrowserEngine/any``: the widest of the engines' advances of each ASCII character in each face, in
    /// 1/65536 px, in the order of `FontSet.scaledASCIIAdvances` (a table read, not three measurers asked).
    let widestASCII: [Int]
    /// The number of the font set among the process's (``ShapedWords/FontsID``), which keys its shaped words.
    let fontsID: Int
    init(_ fonts: FontSet, engines: [FontMeasurer] = []) {
      self.fonts = fonts
      self.engines = engines
      fontsID = engines.isEmpty ? ShapedWords.FontsID.of(fonts) : 0
      let tables = engines.map { ($0, $0.storage.fonts.scaledASCIIAdvances) }
      widestASCII = (engines.isEmpty ? [] : tables[0].1).indices.map { index in
        tables.contains { $0.1[index] == FontSet.measuredInFallback }
          ? FontSet.measuredInFallback : tables.reduce(0) { max($0, $1.0.inPixelFractions($1.1[index])) }
      }
    }
  }
  private let storage: Storage

  /// Whether every word is shaped (``FontSet/kerningAndLigatures``), read without copying the set.
  var shapesEveryWord: Bool { storage.fonts.kerningAndLigatures }

  /// Creates a measurer for `engine`.
  package init(_ fonts: FontSet, engine: BrowserEngine = .blink) {
    self.engine = engine
    storage = Self.storage(for: fonts, engine: engine)
  }

  /// A font set and an engine, as ``made`` keeps their storage: the faces and the fallback families by identity (a
  /// face or a family loaded again is another), and what else the tables depend on.
  private struct Made: Hashable {
    var faces: [ObjectIdentifier]
    var size: Double
    var lineHeight: Double
    var kerning: Bool
    var engine: BrowserEngine

    /// The key of a set: made at every render, so each face's identity is read in place (the faces copied out of
    /// their families by key paths took 93,000 instructions, a twentieth of a 300-byte comment's HTML), and a
    /// family's without opening its files.
    init(_ fonts: FontSet, engine: BrowserEngine) {
      faces = [
        ObjectIdentifier(fonts.regular.freeType), ObjectIdentifier(fonts.bold.freeType),
        ObjectIdentifier(fonts.italic.freeType), ObjectIdentifier(fonts.boldItalic.freeType),
        ObjectIdentifier(fonts.monospace.freeType),
      ]
      faces.reserveCapacity(5 + fonts.fallbacks.count)
      for family in fonts.fallbacks.indices { faces.append(fonts.fallbacks[family].identity) }
      (size, lineHeight, kerning, self.engine) = (fonts.size, fonts.lineHeight, fonts.kerningAndLigatures, engine)
    }
  }

  /// The storage made for each font set and engine, kept for the process (at most 32, all dropped when more come).
  ///
  /// Making one scales every ASCII advance of every face in the engine's arithmetic (hinted by FreeType for
  /// WebKit): two thirds of a 300-byte comment's HTML when each render made its own. A storage holds its set, so
  /// the faces and families whose identities key it stay alive, and an identity is never another's.
  private static let made = Mutex<[Made: Storage]>([:])

  /// The storage of a measurer of `fonts` for `engine`: the one made before, or a new one.
  private static func storage(for fonts: FontSet, engine: BrowserEngine) -> Storage {
    let key = Made(fonts, engine: engine)
    if let storage = made.withLock({ $0[key] }) { return storage }
    let storage: Storage
    if engine == .any {
      // Blink's measurer's set is also this one's: its tables are in Blink's unit, which is this one's.
      let engines = BrowserEngine.engines.map { FontMeasurer(fonts, engine: $0) }
      storage = Storage(engines[0].fonts, engines: engines)
    } else {
      var measured = fonts
      measured.metrics = GlyphMetrics(engine)
      storage = Storage(measured)
    }
    made.withLock { made in
      if made.count >= 32 { made.removeAll() }
      made[key] = storage
    }
    return storage
  }

  /// For ``BrowserEngine/any``, a measurer of each engine, in the order of ``BrowserEngine/engines``; empty for
  /// another engine.
  package var engineMeasurers: [FontMeasurer] { storage.engines }

  /// Units per CSS px of Blink's measurer (and WebKit's, and ``BrowserEngine/any``'s).
  package static let unitsPerPixel = 65536

  /// Units per CSS px: 65536, or 60 for Gecko (its app units).
  package var unitsPerPixel: Int { storage.fonts.metrics.unitsPerPixel }

  /// `px/65536`, or `px/60` for Gecko.
  package var unit: WidthUnit { engine == .gecko ? .appUnits : .pixelFractions }

  /// The width in this unit that a line may fill in a container `pixels` CSS px wide, as the engine turns a CSS
  /// length into its own unit: Blink's rounded (its fit rule rounds down to 1/64 px), Gecko's rounded to app
  /// units, WebKit's and ``BrowserEngine/any``'s rounded down to 1/64 px.
  package func layoutWidth(pixels: Double) -> Int {
    let pixels = max(0, pixels)
    switch engine {
    case .blink: return Int((pixels * 65536).rounded())
    case .gecko: return Int((pixels * 60).rounded())
    case .webkit, .any: return Int((pixels * 64).rounded(.down) + 1e-9) << 10
    }
  }

  /// Tab stops every eight spaces, as CSS `tab-size: 8` puts them.
  package var tabInterval: Int { 8 * advance(of: " ", style: .plain) }

  /// Blink's layout unit, 1/64 px, in this measurer's unit, for Blink and ``BrowserEngine/any``; 0 (widths
  /// add up exactly) for Gecko and WebKit.
  package var itemRounding: Int { engine == .blink || engine == .any ? Self.unitsPerPixel / 64 : 0 }

  /// The advance of a cluster drawn in `style`.
  package func advance(of cluster: Character, style: Style) -> Int {
    if cluster.isHardLineBreak { return 0 }
    if engine == .any { return widest { $0.advance(of: cluster, style: style) } }
    return advance(ofGlyphsOf: cluster.unicodeScalars, style: style)
  }

  /// The advance of a cluster of one code point, as ``advance(of:style:)`` measures it, with no `Character` made
  /// (as the protocol's default makes).
  package func advance(ofScalar scalar: Unicode.Scalar, style: Style) -> Int {
    if Cluster.startsHardLineBreak(scalar.value) { return 0 }
    if engine == .any { return widest { $0.advance(ofScalar: scalar, style: style) } }
    return advance(ofGlyphsOf: CollectionOfOne(scalar), style: style)
  }

  /// The advance of a cluster given as its code points (CR LF, the one hard line break of two, is 0).
  package func advance(ofScalars scalars: some Collection<Unicode.Scalar>, style: Style) -> Int {
    var iterator = scalars.makeIterator()
    if iterator.next() == "\r" && iterator.next() == "\n" && iterator.next() == nil { return 0 }
    if engine == .any { return widest { $0.advance(ofScalars: scalars, style: style) } }
    return advance(ofGlyphsOf: scalars, style: style)
  }

  /// The width of a string drawn in one style on one line, tabs expanded from `startX`, its words shaped as in a
  /// paragraph (`WordShaper`).
  package func width(ofLine text: String, style: Style, startX: Int) -> Int {
    // A label, a gap or a hyphen that nothing shapes (most are, and they are measured at every cut): its clusters.
    if !shapesEveryWord, !text.unicodeScalars.contains(where: WordShaper.shapesInContext) {
      return sumOfAdvances(of: text, style: style, startX: startX)
    }
    let count = text.utf8.count
    let styled = StyledText(text, runs: count == 0 ? [] : [StyledText.Run(length: count, style: style)])
    var walk = ClusterWalk(styled, range: 0..<count, measurer: self, x: startX)
    var width = 0
    while let cluster = walk.next() { width += cluster.advance }
    return width
  }

  /// The advance of one ASCII character: its glyph's, as ``advance(of:style:)`` measures it.
  package func advance(ofASCII byte: UInt8, style: Style) -> Int {
    if Cluster.startsHardLineBreak(UInt32(byte)) { return 0 }
    // The set's table of ASCII advances at its size, read in place (a face borrowed per character is copied).
    let advance =
      engine == .any
      ? storage.widestASCII[FontSet.faceIndex(for: style.traits) << 7 | Int(byte & 0x7F)]
      : storage.fonts.scaledASCIIAdvance(byte, traits: style.traits)
    return advance != FontSet.measuredInFallback ? advance : self.advance(ofScalar: Unicode.Scalar(byte), style: style)
  }

  /// The widest of the engines' widths, in 1/65536 px, for ``BrowserEngine/any``.
  private func widest(_ width: (FontMeasurer) -> Int) -> Int {
    storage.engines.reduce(0) { max($0, $1.inPixelFractions(width($1))) }
  }

  /// A width of this measurer's in 1/65536 px: Gecko's app units rounded up, so that a width never shrinks.
  @inline(__always)
  private func inPixelFractions(_ width: Int) -> Int { engine == .gecko ? (width * 65536 + 59) / 60 : width }

  /// The sum of the glyphs' advances of the code points, ignorable ones left out; in the first fallback face
  /// that draws the cluster when the style's face does not.
  private func advance(ofGlyphsOf scalars: some Collection<Unicode.Scalar>, style: Style) -> Int {
    let size = storage.fonts.size
    if let emoji = storage.fonts.emojiFallback(drawing: scalars, traits: style.traits) {
      let cluster = Array(scalars)
      return storage.fonts.withFallbackFace(emoji, traits: style.traits) { self.advance(of: cluster, in: $0) }
    }
    var advance = 0
    var lacksGlyph = false
    let metrics = storage.fonts.metrics
    for scalar in scalars where !Self.isIgnorable(scalar) {
      let visible = VisibleControls.visible(scalar)
      if metrics == .blink {
        var glyph = storage.fonts.glyphAdvance(visible, traits: style.traits)
        if glyph.units < 0 {
          if !Self.isWhitespace(scalar) { lacksGlyph = true }
          glyph.units = storage.fonts.withFace(for: style) { $0.advance(ofGlyph: 0) }
        }
        advance += GlyphMetrics.linear(glyph.units, unitsPerEm: glyph.unitsPerEm, size: size)
      } else {
        advance += storage.fonts.withFace(for: style) { face in
          let glyph = face.glyph(for: visible)
          if glyph == 0 && !Self.isWhitespace(scalar) { lacksGlyph = true }
          return metrics.scale(face.advance(ofGlyph: glyph), glyph: glyph, in: face, size: size)
        }
      }
    }
    if !storage.fonts.fallbacks.isEmpty,
      lacksGlyph || storage.fonts.withFace(for: style, { Self.needsVariationGlyph(scalars, in: $0) })
    {
      // An array, read once per face of the chain (the collection a caller passes may be a lazy view, each read
      // of it a call through the standard library's generic code: half of preparing a Thai comment).
      let cluster = Array(scalars)
      if let index = storage.fonts.firstFallback(drawing: cluster, traits: style.traits) {
        return storage.fonts.withFallbackFace(index, traits: style.traits) { self.advance(of: cluster, in: $0) }
      }
    }
    return advance
  }

  /// Whether `face` has a glyph for each character of a cluster that needs one, and for the pair of its first
  /// character and an emoji variation selector in it.
  static func draws(_ scalars: some Collection<Unicode.Scalar>, _ face: borrowing FontFace) -> Bool {
    for scalar in scalars where !isIgnorable(scalar) && !isWhitespace(scalar) {
      if face.glyph(for: VisibleControls.visible(scalar)) == 0 { return false }
    }
    return !needsVariationGlyph(scalars, in: face)
  }

  /// Whether a cluster holds an emoji variation selector (U+FE0E, U+FE0F) after its first character and the
  /// face's character map has no glyph for the pair: Chromium then draws the cluster in a later face.
  private static func needsVariationGlyph(_ scalars: some Collection<Unicode.Scalar>, in face: borrowing FontFace)
    -> Bool
  {
    guard let first = scalars.first,
      let selector = scalars.dropFirst().first(where: { $0.value == 0xFE0E || $0.value == 0xFE0F })
    else { return false }
    return face.harfBuzz?.hasVariationGlyph(first, selector: selector) != true
  }

  /// The advance of a cluster in a fallback face: its one glyph's, or the glyphs HarfBuzz shapes it into; from
  /// the bitmaps of a colour bitmap font.
  private func advance(of scalars: some Collection<Unicode.Scalar>, in face: borrowing FontFace) -> Int {
    let size = storage.fonts.size
    var glyphs: [ShapedGlyph]
    if scalars.count > 1, let shaped = face.harfBuzz?.shape(scalars), !shaped.isEmpty {
      glyphs = shaped
    } else {
      glyphs = scalars.filter { !Self.isIgnorable($0) }.map {
        let glyph = face.glyph(for: VisibleControls.visible($0))
        return ShapedGlyph(glyph: glyph, advance: face.advance(ofGlyph: glyph), cluster: 0)
      }
    }
    let metrics = storage.fonts.metrics
    // A colour bitmap font: the strike the browser's font engine picks for the size.
    if let strike = face.bitmapStrikes.first(where: { Double($0.ppem) >= size }) ?? face.bitmapStrikes.last {
      return glyphs.reduce(0) {
        $0
          + ($1.glyph < strike.advances.count
            ? metrics.scaleBitmap(Int(strike.advances[$1.glyph]), ppem: strike.ppem, size: size) : 0)
      }
    }
    let complex = metrics == .webkit && GlyphMetrics.webKitMeasuresComplex(scalars)
    return glyphs.reduce(0) {
      $0 + metrics.scale($1.advance, glyph: $1.glyph, in: face, size: size, complex: complex)
    }
  }

  /// Whether a line of inline items fits `width`, by the engine's rule (see the type's documentation).
  package func fits(items: [Int], width: Int) -> Bool {
    let rounding = itemRounding
    guard rounding > 0 else { return items.reduce(0, +) <= width }
    let total = items.reduce(0) { $0 + ($1 + rounding - 1) / rounding }
    return total <= width / rounding + (engine == .any ? 0 : 1)
  }

  /// The clusters in `range` that have a character with no glyph in their face: the browser draws them in
  /// another font, whose width the engine cannot know.
  ///
  /// One pass over the bytes with the grapheme reader that `ClusterWalk` uses, a cluster's face taken from
  /// the run it starts in, an ASCII character checked against its face's bits: walking clusters (each with
  /// its style) and borrowing a face per cluster would be two fifths of the HTML pipeline of a long text.
  package func unpredictableRanges(in text: StyledText, range: Range<Int>) -> [Range<Int>] {
    unpredictableClusters(in: text, range: range).ranges
  }

  /// ``unpredictableRanges(in:range:)`` and the number of clusters in them, counted on the way rather than after.
  ///
  /// A text whose every character has a glyph (most text in the scripts that the fonts cover) is found so by a
  /// pass over its code points first, with no grapheme to read and no walk of its clusters.
  /// `checksCodePointsFirst: false` walks at once (what a test compares).
  func unpredictableClusters(
    in text: StyledText, range: Range<Int>, checksCodePointsFirst: Bool = true
  ) -> (ranges: [Range<Int>], clusters: Int) {
    var ranges: [Range<Int>] = []
    var clusters = 0
    guard !range.isEmpty else { return (ranges, clusters) }
    // The clusters before the paragraph where a code point may be missing are not walked.
    var range = range
    if checksCodePointsFirst {
      guard let uncertain = firstUncertainParagraph(in: text, range: range) else { return (ranges, clusters) }
      range = uncertain..<range.upperBound
    }
    // The faces' ASCII bits, read once: a face read per character through the captured set is copied.
    let asciiWithoutGlyph = fonts.asciiWithoutGlyph
    text.string.withUTF8Buffer { bytes in
      let tables = UnicodeTables.decoded
      var reader = GraphemeState()  // its recognizer apart, as the scanner keeps them
      var recognizer = Unicode._CharacterRecognizer()
      var run = text.runIndex(containing: range.lowerBound)
      var traits = text.runs.isEmpty ? [] : text.runs[run].style.traits
      var clusterStart = range.lowerBound
      var isMissing = false  // whether the open cluster has a character with no glyph
      // The last range of missing clusters, extended here and appended when a cluster that is not missing ends it
      // (extended in the array, each missing cluster would ask whether the array's storage is shared).
      var (missingStart, missingEnd) = (0, -1)
      var position = range.lowerBound
      while true {
        let isEnd = position >= range.upperBound
        let (value, length, startsCluster) =
          isEnd ? (0, 0, true) : reader.read(bytes, at: position, tables: tables, recognizer: &recognizer)
        if startsCluster {
          // The open cluster ends here.
          if isMissing, position > range.lowerBound {
            clusters += 1
            if missingEnd == clusterStart {
              missingEnd = position
            } else {
              if missingEnd >= 0 { ranges.append(missingStart..<missingEnd) }
              (missingStart, missingEnd) = (clusterStart, position)
            }
          }
          if isEnd {
            if missingEnd >= 0 { ranges.append(missingStart..<missingEnd) }
            break
          }
          clusterStart = position
          isMissing = false
          if position >= text.runEnds[run] {
            while position >= text.runEnds[run] && run + 1 < text.runs.count { run += 1 }
            traits = text.runs[run].style.traits
          }
        }
        if !isMissing {
          if value < 0x80 {
            isMissing =
              FontFace.contains(value, asciiWithoutGlyph[FontSet.faceIndex(for: traits)])
              && lacksGlyph(Unicode.Scalar(validUTF8: value), traits: traits)
          } else {
            isMissing = lacksGlyph(Unicode.Scalar(validUTF8: value), traits: traits)
          }
        }
        position += length
        // Printable ASCII after printable ASCII in a face that draws all of it (DejaVu's do): clusters of their
        // own, none missing, passed over up to the last of the stretch, which the reader reads (the boundary
        // between two simple code points needs nothing of those between them). Counted as part of the open
        // cluster, which is not missing either.
        if !isMissing, value < 0x80, UInt8(value).isPrintableASCII,
          Self.drawsPrintableASCII(asciiWithoutGlyph[FontSet.faceIndex(for: traits)])
        {
          let end = min(range.upperBound, text.runEnds[run])
          while position + 1 < end, bytes[position].isPrintableASCII, bytes[position + 1].isPrintableASCII {
            position += 1
          }
        }
      }
    }
    return (ranges, clusters)
  }

  /// Where the walk of clusters must start: the start of the first paragraph (a line after a line feed, where a
  /// cluster always starts) in `range` with a code point that has no glyph in the face of its run (and needs one:
  /// not ignorable, not white space) or with a run boundary inside a cluster; `nil` when there is none.
  ///
  /// Before it, every cluster's code points are drawn by the face of the run the cluster starts in, which is what
  /// ``unpredictableClusters(in:range:checksCodePointsFirst:)`` checks: none is missing.
  private func firstUncertainParagraph(in text: StyledText, range: Range<Int>) -> Int? {
    let asciiWithoutGlyph = fonts.asciiWithoutGlyph
    return text.string.withUTF8Buffer { bytes in
      var run = text.runIndex(containing: range.lowerBound)
      var traits = text.runs.isEmpty ? [] : text.runs[run].style.traits
      var bits = asciiWithoutGlyph[FontSet.faceIndex(for: traits)]
      var runEnd = text.runs.isEmpty ? Int.max : text.runEnds[run]
      var paragraph = range.lowerBound
      var position = range.lowerBound
      while position < range.upperBound {
        if position >= runEnd {
          // A run starts here: it must start a cluster too.
          guard GraphemeReader.startsCluster(at: position, in: bytes) else { return paragraph }
          while position >= text.runEnds[run] && run + 1 < text.runs.count { run += 1 }
          traits = text.runs[run].style.traits
          bits = asciiWithoutGlyph[FontSet.faceIndex(for: traits)]
          runEnd = text.runEnds[run]
        }
        let byte = bytes[position]
        if byte < 0x80 {
          if FontFace.contains(UInt32(byte), bits) { return paragraph }
          position += 1
          if byte == 0x0A { paragraph = position }
          continue
        }
        let (value, length) = bytes.decodeScalar(at: position)
        if lacksGlyph(Unicode.Scalar(validUTF8: value), traits: traits) { return paragraph }
        position += length
      }
      return nil
    }
  }

  /// Whether a code point past ASCII is missing from the face of `traits`: it has no glyph there and needs one
  /// (it is neither ignorable nor white space).
  ///
  /// An ASCII character is looked up in the face's bits instead (``FontSet/asciiWithoutGlyph``).
  @inline(__always)
  private func lacksGlyph(_ scalar: Unicode.Scalar, traits: Style.Traits) -> Bool {
    // The face's character map first: most characters are in it, and the other two look properties up.
    let visible = VisibleControls.visible(scalar)
    return storage.fonts.glyph(for: visible, traits: traits) == 0 && !Self.isIgnorable(scalar)
      && !Self.isWhitespace(scalar)
      && !storage.fonts.fallbackHasGlyph(for: visible, traits: traits)
  }

  /// Whether a face with these ``FontFace/asciiWithoutGlyph`` bits draws every printable ASCII character.
  @inline(__always)
  static func drawsPrintableASCII(_ bits: (low: UInt64, high: UInt64)) -> Bool {
    bits.low & 0xFFFF_FFFF_0000_0000 == 0 && bits.high & 0x7FFF_FFFF_FFFF_FFFF == 0
  }

  /// Unicode's White_Space characters (a browser draws them as space, from any font).
  static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
  }

  /// Characters a browser does not draw: format characters (ZWJ, ZWSP, the soft hyphen...), variation
  /// selectors, the combining grapheme joiner, Hangul fillers.
  static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0xFE00...0xFE0F, 0xE0100...0xE01EF: return true
    default:
      let properties = UnicodeProperties(scalar)
      return properties.generalCategory == .cf && !properties.isPrepend
    }
  }
}

extension FontMeasurer {
  /// The advances of the clusters of a word that the browser shapes as a whole (`WordShaper`): the word cut where
  /// the face that draws its clusters changes (the style's face, or the fallback that draws a cluster it cannot),
  /// each piece shaped by HarfBuzz with the set's features and the rest of the word as context, each glyph's
  /// advance counted to the cluster of the character it comes from (a ligature's to its first).
  ///
  /// A piece in a colour bitmap face, or one HarfBuzz cannot read, is measured cluster by cluster. `clusterStarts`
  /// holds each cluster's index in `scalars` and one past the last. `context` holds the code points the word joins on
  /// either side in another face: Blink shapes with them, as it shapes an element with the text around it.
  /// `elementStarts` holds the indexes of the clusters where an element starts (a style changes in one face): WebKit
  /// shapes each element's text alone, so its pieces end there too. WebKit keeps what shaping adds to an advance to a
  /// fraction of a pixel when it measures the word in its complex path.
  func shapedAdvances(
    of scalars: [Unicode.Scalar], clusterStarts: [Int], style: Style,
    context: (before: [UInt32], after: [UInt32]) = ([], []), elementStarts: [Int] = []
  ) -> [Int] {
    if engine == .any {
      var widest = [Int](repeating: 0, count: clusterStarts.count - 1)
      for measurer in storage.engines {
        let advances = measurer.shapedAdvances(
          of: scalars, clusterStarts: clusterStarts, style: style, context: context, elementStarts: elementStarts)
        for (index, value) in advances.enumerated() {
          widest[index] = max(widest[index], measurer.inPixelFractions(value))
        }
      }
      return widest
    }
    guard scalars.count <= ShapedWords.longestWord else {
      return shaped(scalars, clusterStarts: clusterStarts, style: style, context: context, elementStarts: elementStarts)
    }
    let key = ShapedWords.Key(
      fonts: storage.fontsID, metrics: storage.fonts.metrics.index, traits: style.traits.rawValue,
      scalars: scalars.lazy.map(\.value), clusterStarts: clusterStarts, before: context.before, after: context.after,
      elementStarts: elementStarts)
    return ShapedWords.shared.advances(of: key) {
      shaped(scalars, clusterStarts: clusterStarts, style: style, context: context, elementStarts: elementStarts)
    }
  }

  /// ``shapedAdvances(of:clusterStarts:style:context:elementStarts:)`` of one engine, shaped now.
  private func shaped(
    _ scalars: [Unicode.Scalar], clusterStarts: [Int], style: Style, context: (before: [UInt32], after: [UInt32]),
    elementStarts: [Int]
  ) -> [Int] {
    let fonts = storage.fonts
    let count = clusterStarts.count - 1
    let values = scalars.map(\.value)
    // The face of each cluster: -1 for the style's own, else the index of the fallback family.
    var faces = [Int](repeating: -1, count: count)
    if !fonts.fallbacks.isEmpty {
      for index in 0..<count {
        faces[index] =
          fonts.fallback(drawing: scalars[clusterStarts[index]..<clusterStarts[index + 1]], traits: style.traits) ?? -1
      }
    }
    let complex = fonts.metrics == .webkit && GlyphMetrics.webKitMeasuresComplex(scalars)
    // WebKit shapes each element's text alone: a word's piece also ends where an element starts.
    var pieceEnds = fonts.metrics == .webkit ? elementStarts[...] : []
    var advances = [Int](repeating: 0, count: count)
    var first = 0
    while first < count {
      while let next = pieceEnds.first, next <= first { pieceEnds.removeFirst() }
      let limit = pieceEnds.first ?? count
      var end = first + 1
      while end < limit, faces[end] == faces[first] { end += 1 }
      let piece = clusterStarts[first]..<clusterStarts[end]
      func shape(_ face: borrowing FontFace) -> (glyphs: [ShapedGlyph], face: FontFace)? {
        guard face.bitmapStrikes.isEmpty, let harfBuzz = face.harfBuzz else { return nil }
        // Blink shapes a run of one face with the text around it as context (a letter takes its joining form from
        // a neighbour in another face); Gecko and WebKit shape the run alone.
        let glyphs =
          fonts.metrics == .blink
          ? harfBuzz.shape(
            context.before + values + context.after,
            range: piece.lowerBound + context.before.count..<piece.upperBound + context.before.count,
            pinned: !fonts.kerningAndLigatures
          ).map {
            ShapedGlyph(glyph: $0.glyph, advance: $0.advance, cluster: $0.cluster - context.before.count)
          }
          : harfBuzz.shape(Array(values[piece]), range: 0..<piece.count, pinned: !fonts.kerningAndLigatures).map {
            ShapedGlyph(glyph: $0.glyph, advance: $0.advance, cluster: $0.cluster + piece.lowerBound)
          }
        return (glyphs, copy face)
      }
      let shaped =
        faces[first] < 0
        ? fonts.withFace(for: style, shape) : fonts.withFallbackFace(faces[first], traits: style.traits, shape)
      if let shaped {
        for glyph in shaped.glyphs {
          // The cluster that holds the glyph's first character: the last whose start is not past it.
          var cluster = first
          var upper = end - 1
          while cluster < upper {
            let middle = (cluster + upper + 1) / 2
            if clusterStarts[middle] <= glyph.cluster { cluster = middle } else { upper = middle - 1 }
          }
          advances[cluster] += fonts.metrics.scale(
            glyph.advance, glyph: glyph.glyph, in: shaped.face, size: fonts.size, complex: complex)
        }
      } else {
        for index in first..<end {
          advances[index] = advance(ofScalars: scalars[clusterStarts[index]..<clusterStarts[index + 1]], style: style)
        }
      }
      first = end
    }
    return advances
  }
}
