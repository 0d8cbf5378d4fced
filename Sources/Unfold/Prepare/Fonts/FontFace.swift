import Foundation
import Synchronization

/// One face of a TrueType or OpenType font file or collection (`.ttc`), read for measuring: glyph advances
/// (`hmtx`, or the strikes of a colour bitmap font: `CBLC`/`CBDT`), the character map (`cmap` formats 4 and 12),
/// units per em (`head`), line metrics (`hhea`, `OS/2`), weight, style and fixed pitch (`OS/2`, `post`); and the
/// face loaded into HarfBuzz, which shapes the clusters that need it.
///
/// A value type: the tables are copied into arrays once, and the file's bytes are kept (mapped, not read) for
/// embedding the font in a standalone page.
public struct FontFace: Sendable, Hashable {
  /// The file the face was read from.
  public let path: String
  /// The face's index in a font collection (`.ttc`); 0 in a file of one face.
  ///
  /// A browser given the collection in `@font-face` draws its first face, so only face 0 of a collection measures what
  /// a page shows.
  package let index: Int
  /// The file's bytes.
  package let data: Data
  /// Font units per em.
  package let unitsPerEm: Int
  /// Ascender, descender (negative) and line gap in font units (`OS/2` typographic values when the font
  /// asks for them, else `hhea`).
  package let ascender: Int
  /// Descender in font units (negative below the baseline).
  package let descender: Int
  /// Line gap in font units.
  package let lineGap: Int
  /// The weight class (400 regular, 700 bold).
  package let weight: Int
  /// Whether the face is italic or oblique.
  package let isItalic: Bool
  /// Whether every glyph has the same advance (a monospace face).
  package let isFixedPitch: Bool
  /// Whether the face says it has serifs (`OS/2` PANOSE: a Latin text face of a serif style, 2–10).
  package let hasSerifs: Bool
  /// The family name, when the `name` table has one.
  package let familyName: String?

  /// The last component of ``path``, what a stylesheet names the file by (found once, not per page).
  package let fileName: String
  /// Whether the face is a colour bitmap font (`CBLC`/`CBDT`, no outlines: Noto Color Emoji), from its table
  /// directory alone.
  let hasColourBitmaps: Bool
  /// The tables measuring reads, shared by every copy of the face: read when the face is made, or for a face of
  /// Debian's fallback chain when first asked (``FaceTables``).
  let tables: FaceTables

  /// The ASCII code points that the face draws no glyph for, as `FontMeasurer` draws them (a control as its
  /// picture; spaces and line ends need none): bit `b` of `low` for code point `b`, of `high` for `64 + b`.
  ///
  /// The most common clusters are checked against it, with no lookup.
  var asciiWithoutGlyph: (low: UInt64, high: UInt64) { tables.asciiWithoutGlyph }
  /// The advance in font units of each ASCII code point's glyph (a control's picture's).
  var asciiAdvances: [UInt16] { tables.asciiAdvances }
  /// The advances of a colour bitmap font's glyphs (`CBLC`/`CBDT`, no outlines: Noto Color Emoji), which a
  /// browser takes from the bitmaps, not from `hmtx`; empty for a font with outlines.
  var bitmapStrikes: [BitmapStrike] { tables.bitmapStrikes }
  /// The face in HarfBuzz, for the clusters that need shaping; `nil` where HarfBuzz cannot read the file.
  var harfBuzz: HarfBuzzFont? { tables.harfBuzz }
  /// The face in FreeType, for WebKit's hinted advances (opened when first asked).
  let freeType: FreeTypeFont

  /// Two faces are equal when they are the same face of the same file with the same bytes.
  public static func == (lhs: FontFace, rhs: FontFace) -> Bool {
    lhs.path == rhs.path && lhs.index == rhs.index && lhs.data == rhs.data
  }
  /// Hashes the path and the index.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(index)
  }

  /// Reads a font file; `index` chooses a face of a collection (`.ttc`).
  /// - Throws: ``FontError`` naming the file and what is missing or malformed.
  public init(contentsOf path: String, index: Int = 0) throws(FontError) {
    try self.init(contentsOf: path, index: index, tablesOnFirstUse: false)
  }

  /// Reads a font file; `index` chooses a face of a collection (`.ttc`).
  ///
  /// With `tablesOnFirstUse`, only the table directory and the few values that name and place the face are read
  /// now; the character map, the advances, the bitmap strikes and HarfBuzz's face when measuring first asks for
  /// them (most faces of a fallback chain never are), and a face whose tables then cannot be read draws nothing.
  /// - Throws: ``FontError`` naming the file and what is missing or malformed.
  package init(contentsOf path: String, index: Int = 0, tablesOnFirstUse: Bool) throws(FontError) {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
      throw FontError(
        path: path, message: FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such font file"
      )
    }
    try self.init(data: data, path: path, index: index, tablesOnFirstUse: tablesOnFirstUse) {
      HarfBuzzFont(path: path, index: index)
    }
  }

  /// Reads a font from its bytes; `path` names it in errors, `index` chooses a face of a collection.
  public init(data: Data, path: String, index: Int = 0) throws(FontError) {
    try self.init(data: data, path: path, index: index, tablesOnFirstUse: false) {
      HarfBuzzFont(data: data, index: index)
    }
  }

  private init(
    data: Data, path: String, index: Int, tablesOnFirstUse: Bool, harfBuzz: @escaping @Sendable () -> HarfBuzzFont?
  ) throws(FontError) {
    // Read in place, the file mapped: a copy of its bytes would make the Noto chain's 40 faces 100 MB of memory.
    let reader = SFNTReader(bytes: data.startIndex == 0 ? data : Data(data), path: path)
    let tables = try reader.tableDirectory(face: index)
    func table(_ tag: String) throws(FontError) -> Range<Int> {
      guard let range = tables[tag] else {
        throw FontError(path: path, message: "no '\(tag)' table: not a font this engine can measure")
      }
      return range
    }
    let head = try table("head")
    let hhea = try table("hhea")
    let hmtx = try table("hmtx")
    let cmap = try table("cmap")
    unitsPerEm = Int(try reader.u16(head, 18))
    guard unitsPerEm > 0 else { throw FontError(path: path, message: "units per em is 0") }
    let metricCount = Int(try reader.u16(hhea, 34))
    var ascender = Int(try reader.i16(hhea, 4))
    var descender = Int(try reader.i16(hhea, 6))
    var lineGap = Int(try reader.i16(hhea, 8))
    var weight = 400
    var italic = (try reader.u16(head, 44)) & 2 != 0
    var hasSerifs = false
    if let os2 = tables["OS/2"], os2.count >= 78 {
      weight = Int(try reader.u16(os2, 4))
      let panose = try reader.u16(os2, 32)  // bFamilyType, bSerifStyle
      hasSerifs = panose >> 8 == 2 && (2...10).contains(panose & 0xFF)
      let selection = try reader.u16(os2, 62)
      italic = italic || selection & 1 != 0 || selection & (1 << 9) != 0
      if selection & (1 << 7) != 0 {  // USE_TYPO_METRICS
        ascender = Int(try reader.i16(os2, 68))
        descender = Int(try reader.i16(os2, 70))
        lineGap = Int(try reader.i16(os2, 72))
      }
    }
    self.ascender = ascender
    self.descender = descender
    self.lineGap = lineGap
    self.weight = weight
    self.isItalic = italic
    self.hasSerifs = hasSerifs
    if let post = tables["post"] {
      self.isFixedPitch = try reader.u32(post, 12) != 0
    } else {
      self.isFixedPitch = false
    }
    self.familyName = tables["name"].flatMap { name in try? reader.copy(of: name).familyName(0..<name.count) }
    self.path = path
    self.index = index
    self.freeType = FreeTypeFont(data: data, index: index)
    let bitmaps = tables["CBLC"].flatMap { cblc in tables["CBDT"].map { (cblc, $0) } }
    hasColourBitmaps = bitmaps != nil && tables["glyf"] == nil && tables["CFF "] == nil
    let strikes = hasColourBitmaps ? bitmaps : nil
    self.fileName = Self.fileName(of: path)
    self.data = data
    @Sendable func read() throws(FontError) -> FaceTables.Tables {
      try reader.faceTables(hmtx: hmtx, metricCount: metricCount, cmap: cmap, bitmaps: strikes, harfBuzz: harfBuzz)
    }
    if tablesOnFirstUse {
      self.tables = FaceTables { (try? read()) ?? .drawingNothing }
    } else {
      self.tables = FaceTables(try read())
    }
  }

  /// A face that draws nothing: one of Debian's chain whose file cannot be read when a lookup first reaches it
  /// (regular weight and style, no glyph for any character, no bytes to embed).
  package init(drawingNothing path: String) {
    (self.path, index, data, fileName) = (path, 0, Data(), Self.fileName(of: path))
    (unitsPerEm, ascender, descender, lineGap) = (1000, 0, 0, 0)
    (weight, isItalic, isFixedPitch, hasSerifs, familyName) = (400, false, false, false, nil)
    hasColourBitmaps = false
    tables = FaceTables(.drawingNothing)
    freeType = FreeTypeFont(data: data, index: 0)
  }

  /// The last component of a path (a `URL` made for it took 5,000 instructions, a tenth of opening a face).
  private static func fileName(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }

  /// Whether the face draws no glyph for an ASCII code point, as `FontMeasurer` draws it.
  @inline(__always)
  func lacksGlyph(forASCII value: UInt32) -> Bool { Self.contains(value, asciiWithoutGlyph) }

  /// Whether an ASCII code point is in a set of them as bits (``asciiWithoutGlyph``).
  @inline(__always)
  static func contains(_ value: UInt32, _ bits: (low: UInt64, high: UInt64)) -> Bool {
    (value < 64 ? bits.low >> value : bits.high >> (value & 63)) & 1 != 0
  }

  /// The glyph of a code point; 0 (`.notdef`) when the font has none.
  package func glyph(for scalar: Unicode.Scalar) -> Int { tables.glyph(for: scalar) }

  /// The advance of a glyph in font units (glyphs past the metrics reuse the last advance).
  package func advance(ofGlyph glyph: Int) -> Int { tables.advance(ofGlyph: glyph) }

  /// The advance of a glyph hinted at `size` px, in 1/64 px, as WebKitGTK lays it out (``GlyphMetrics/webkit``);
  /// `nil` when FreeType cannot load it.
  func hintedAdvance(ofGlyph glyph: Int, size: Double) -> Int? {
    freeType.hintedAdvance(ofGlyph: glyph, size: size)
  }

}

/// A font file that cannot be used.
public struct FontError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file.
  public var path: String
  /// What is wrong.
  public var message: String

  /// Creates an error.
  package init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// `path: message`.
  public var description: String { "\(path): \(message)" }
}

/// Big-endian numbers read from bytes indexed from 0, with bounds checks: a font file's, or a copy of one of its
/// tables.
private protocol BigEndianReader {
  associatedtype Bytes: RandomAccessCollection<UInt8> where Bytes.Index == Int
  var bytes: Bytes { get }
  /// The file, named in errors.
  var path: String { get }
}

extension BigEndianReader {
  func fail(_ message: String) -> FontError { FontError(path: path, message: message) }

  func u16(_ table: Range<Int>, _ offset: Int) throws(FontError) -> UInt16 {
    let at = table.lowerBound + offset
    guard offset >= 0, at + 2 <= table.upperBound, at + 2 <= bytes.count else { throw fail("a table ends too early") }
    return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
  }

  /// The family name (name ID 16, else 1) from a Windows Unicode or a Macintosh Roman record.
  func familyName(_ table: Range<Int>) throws(FontError) -> String? {
    let count = Int(try u16(table, 2))
    let storage = Int(try u16(table, 4))
    var found: [UInt16: String] = [:]
    for index in 0..<count {
      let record = 6 + index * 12
      let platform = try u16(table, record)
      let nameID = try u16(table, record + 6)
      guard nameID == 1 || nameID == 16 else { continue }
      let length = Int(try u16(table, record + 8))
      let offset = Int(try u16(table, record + 10))
      let start = table.lowerBound + storage + offset
      guard start + length <= table.upperBound else { continue }
      let raw = bytes[start..<start + length]
      if platform == 3 || platform == 0 {
        var units: [UInt16] = []
        var index = raw.startIndex
        while index + 1 < raw.endIndex {
          units.append(UInt16(raw[index]) << 8 | UInt16(raw[index + 1]))
          index += 2
        }
        found[nameID] = String(decoding: units, as: UTF16.self)
      } else if platform == 1, found[nameID] == nil {
        found[nameID] = String(decoding: raw, as: UTF8.self)
      }
    }
    return found[16] ?? found[1]
  }

  func i16(_ table: Range<Int>, _ offset: Int) throws(FontError) -> Int16 {
    Int16(bitPattern: try u16(table, offset))
  }

  func u32(_ table: Range<Int>, _ offset: Int) throws(FontError) -> UInt32 {
    UInt32(try u16(table, offset)) << 16 | UInt32(try u16(table, offset + 2))
  }
}

/// A table's bytes copied out of the file, for a table read byte by byte.
private struct TableCopy: BigEndianReader {
  let bytes: [UInt8]
  let path: String

  func characterMap(_ cmap: Range<Int>) throws(FontError) -> ([UInt16], [(start: UInt32, end: UInt32, glyph: UInt32)]) {
    let count = Int(try u16(cmap, 2))
    var format12: Range<Int>?
    var format4: Range<Int>?
    for index in 0..<count {
      let platform = try u16(cmap, 4 + index * 8)
      let encoding = try u16(cmap, 6 + index * 8)
      let offset = Int(try u32(cmap, 8 + index * 8))
      let subtable = cmap.lowerBound + offset..<cmap.upperBound
      let format = try u16(subtable, 0)
      let unicode = platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))
      guard unicode else { continue }
      if format == 12 && format12 == nil { format12 = subtable }
      if format == 4 && format4 == nil { format4 = subtable }
    }
    var basic = [UInt16](repeating: 0, count: 0x10000)
    var groups: [(start: UInt32, end: UInt32, glyph: UInt32)] = []
    if let table = format12 {
      let groupCount = Int(try u32(table, 12))
      guard groupCount <= (table.count - 16) / 12 else { throw fail("the character map has more groups than bytes") }
      for index in 0..<groupCount {
        let start = try u32(table, 16 + index * 12)
        let end = try u32(table, 20 + index * 12)
        let glyph = try u32(table, 24 + index * 12)
        guard start <= end, end <= 0x10FFFF else { continue }
        if start < 0x10000 {
          for value in start...min(end, 0xFFFF) {
            basic[Int(value)] = UInt16(truncatingIfNeeded: glyph + (value - start))
          }
        }
        if end >= 0x10000 {
          let from = max(start, 0x10000)
          groups.append((from, end, glyph + (from - start)))
        }
      }
      groups.sort { $0.start < $1.start }
    } else if let table = format4 {
      let segments = Int(try u16(table, 6)) / 2
      for segment in 0..<segments {
        let end = try u16(table, 14 + segment * 2)
        let start = try u16(table, 16 + segments * 2 + segment * 2)
        let delta = try u16(table, 16 + segments * 4 + segment * 2)
        let rangeOffsetAt = 16 + segments * 6 + segment * 2
        let rangeOffset = try u16(table, rangeOffsetAt)
        guard start <= end else { continue }
        for code in start...end where code != 0xFFFF {
          var glyph: UInt16
          if rangeOffset == 0 {
            glyph = code &+ delta
          } else {
            let at = rangeOffsetAt + Int(rangeOffset) + 2 * Int(code - start)
            glyph = (try? u16(table, at)) ?? 0
            if glyph != 0 { glyph = glyph &+ delta }
          }
          basic[Int(code)] = glyph
        }
      }
    } else {
      throw fail("no Unicode character map (cmap format 4 or 12)")
    }
    return (basic, groups)
  }
}

/// The tables of a face by tag, in the file's order: a face lists a score of them, and a few are looked up once
/// (hashed into a dictionary, they were a fifth of opening a face).
private struct TableDirectory {
  var tables: [(tag: String, range: Range<Int>)] = []

  /// The bytes of the table `tag`, if the face has one (the first, if it lists two).
  subscript(_ tag: String) -> Range<Int>? { tables.first { $0.tag == tag }?.range }
}

/// Reads big-endian values and tables out of an sfnt file, with bounds checks.
private struct SFNTReader: BigEndianReader {
  /// The file's bytes, indexed from 0.
  let bytes: Data
  let path: String

  /// The bytes of `table`, copied, indexed from 0: read in place, each byte of the mapped file is a `Data`
  /// subscript that checks exclusive access.
  func copy(of table: Range<Int>) -> TableCopy { TableCopy(bytes: Array(bytes[table]), path: path) }

  /// The tables measuring reads: the advances (`hmtx`), the character map, each ASCII code point's glyph as drawn,
  /// a colour bitmap font's strikes and HarfBuzz's face.
  func faceTables(
    hmtx: Range<Int>, metricCount: Int, cmap: Range<Int>, bitmaps: (cblc: Range<Int>, cbdt: Range<Int>)?,
    harfBuzz: () -> HarfBuzzFont?
  ) throws(FontError) -> FaceTables.Tables {
    var advances: [UInt16] = []
    advances.reserveCapacity(metricCount)
    let metrics = copy(of: hmtx)  // as the character map below
    for index in 0..<metricCount { advances.append(try metrics.u16(0..<hmtx.count, index * 4)) }
    guard !advances.isEmpty else { throw fail("no horizontal metrics") }
    // The character map read from a copy of its bytes: read in place, each byte of the mapped file is a `Data`
    // subscript that checks exclusive access, more than half of loading the Noto chain (203 M instructions of 361 M).
    let (basicPlane, groups) = try copy(of: cmap).characterMap(0..<cmap.count)
    var strikes: [BitmapStrike] = []
    if let bitmaps { strikes = try bitmapStrikes(bitmaps.cblc, bitmaps.cbdt) }
    return FaceTables.Tables(
      advances: advances, basicPlane: basicPlane, groups: groups, bitmapStrikes: strikes, harfBuzz: harfBuzz())
  }

  /// The tables of face `face`: the file's own, or those of one face of a collection (`ttcf`), whose offsets
  /// count from the file's start too.
  func tableDirectory(face: Int) throws(FontError) -> TableDirectory {
    let all = 0..<bytes.count
    guard bytes.count >= 12 else { throw fail("not a TrueType or OpenType font (\(bytes.count) bytes)") }
    var start = 0
    if try u32(all, 0) == 0x7474_6366 {
      let faces = Int(try u32(all, 8))
      guard face >= 0, face < faces else { throw fail("no face \(face) in a collection of \(faces)") }
      start = Int(try u32(all, 12 + 4 * face))
    } else if face != 0 {
      throw fail("no face \(face): the file holds one")
    }
    let version = try u32(all, start)
    guard version == 0x0001_0000 || version == 0x4F54_544F || version == 0x7472_7565 else {
      throw fail("not a TrueType or OpenType font")
    }
    let count = Int(try u16(all, start + 4))
    // The records read from a copy of them, as the tables below (``copy(of:)``).
    let records = copy(of: start + 12..<min(bytes.count, start + 12 + count * 16))
    let listed = 0..<records.bytes.count
    var tables = TableDirectory()
    for index in 0..<count {
      let record = index * 16
      let tag = String(
        decoding: records.bytes[min(record, listed.upperBound)..<min(record + 4, listed.upperBound)], as: UTF8.self)
      let offset = Int(try records.u32(listed, record + 8))
      let length = Int(try records.u32(listed, record + 12))
      guard offset + length <= bytes.count else { throw fail("the '\(tag)' table lies past the end of the file") }
      tables.tables.append((tag, offset..<offset + length))
    }
    return tables
  }

  /// The strikes of a colour bitmap font and each glyph's advance in them (`CBLC` indexes the glyphs' images in
  /// `CBDT`; small and big glyph metrics both hold the advance at their fifth byte).
  ///
  /// Index formats 1 to 5 and image formats 17 to 19 (metrics with the image, or in the index) are read; other glyphs
  /// have no advance.
  func bitmapStrikes(_ cblc: Range<Int>, _ cbdt: Range<Int>) throws(FontError) -> [BitmapStrike] {
    let sizes = Int(try u32(cblc, 4))
    guard sizes <= cblc.count / 48 else { throw fail("the 'CBLC' table has more strikes than bytes") }
    var strikes: [BitmapStrike] = []
    for size in 0..<sizes {
      let record = 8 + size * 48
      let arrayOffset = Int(try u32(cblc, record))
      let subtableCount = Int(try u32(cblc, record + 8))
      let ppem = Int(try u16(cblc, record + 44) & 0xFF)  // ppemY
      let lastGlyph = Int(try u16(cblc, record + 42))
      guard ppem > 0, subtableCount <= cblc.count / 8 else { continue }
      var advances = [UInt16](repeating: 0, count: lastGlyph + 1)
      let array = cblc.lowerBound + arrayOffset..<cblc.upperBound
      for subtable in 0..<subtableCount {
        let first = Int(try u16(array, subtable * 8))
        let last = Int(try u16(array, subtable * 8 + 2))
        let header = array.lowerBound + Int(try u32(array, subtable * 8 + 4))..<cblc.upperBound
        let indexFormat = try u16(header, 0)
        let imageFormat = try u16(header, 2)
        let imageData = cbdt.lowerBound + Int(try u32(header, 4))..<cbdt.upperBound
        guard first <= last, last <= lastGlyph else { continue }
        func record(_ glyph: Int, imageOffset: Int?, indexMetrics: Int?) throws(FontError) {
          guard glyph <= lastGlyph else { return }
          if imageFormat == 19, let indexMetrics {
            advances[glyph] = UInt16(try u16(header, indexMetrics + 4) >> 8)
          } else if imageFormat == 17 || imageFormat == 18, let imageOffset {
            advances[glyph] = UInt16(try u16(imageData, imageOffset + 4) >> 8)
          }
        }
        switch indexFormat {
        case 1, 3:
          for glyph in first...last {
            let offset =
              indexFormat == 1
              ? Int(try u32(header, 8 + (glyph - first) * 4)) : Int(try u16(header, 8 + (glyph - first) * 2))
            try record(glyph, imageOffset: offset, indexMetrics: nil)
          }
        case 2:
          for glyph in first...last { try record(glyph, imageOffset: nil, indexMetrics: 12) }
        case 4:
          let count = Int(try u32(header, 8))
          guard count <= header.count / 4 else { continue }
          for pair in 0..<count {
            let glyph = Int(try u16(header, 12 + pair * 4))
            try record(glyph, imageOffset: Int(try u16(header, 14 + pair * 4)), indexMetrics: nil)
          }
        case 5:
          let count = Int(try u32(header, 20))
          guard count <= header.count / 2 else { continue }
          for entry in 0..<count {
            try record(Int(try u16(header, 24 + entry * 2)), imageOffset: nil, indexMetrics: 12)
          }
        default: continue
        }
      }
      strikes.append(BitmapStrike(ppem: ppem, advances: advances))
    }
    return strikes.sorted { $0.ppem < $1.ppem }
  }
}

/// The tables of a face that measuring reads, read once, by the first thread that asks (or when the face is made),
/// and shared by every copy of the face.
///
/// Debian's fallback chain is 45 faces, and a text that needs none of them reads none: their character maps alone
/// were 37 M instructions at every start of `unfold` (Docs/PerformanceNotes.md, "Fonts").
final class FaceTables: @unchecked Sendable {
  /// What is read.
  struct Tables {
    var advances: [UInt16]
    var basicPlane: [UInt16]
    var groups: [(start: UInt32, end: UInt32, glyph: UInt32)]
    /// See ``FontFace/asciiWithoutGlyph``.
    var asciiWithoutGlyph: (low: UInt64, high: UInt64) = (0, 0)
    /// See ``FontFace/asciiAdvances``.
    var asciiAdvances: [UInt16] = []
    var bitmapStrikes: [BitmapStrike]
    var harfBuzz: HarfBuzzFont?

    /// Tables of these values, with each ASCII code point's glyph as drawn (a control's picture, in the basic
    /// plane) looked up once for both ASCII tables.
    init(
      advances: [UInt16], basicPlane: [UInt16], groups: [(start: UInt32, end: UInt32, glyph: UInt32)],
      bitmapStrikes: [BitmapStrike], harfBuzz: HarfBuzzFont?
    ) {
      self.advances = advances
      self.basicPlane = basicPlane
      self.groups = groups
      self.bitmapStrikes = bitmapStrikes
      self.harfBuzz = harfBuzz
      for value in 0..<UInt32(0x80) {
        let scalar = Unicode.Scalar(value)!
        let drawn = Int(VisibleControls.visible(scalar).value)
        let glyph = drawn < basicPlane.count ? Int(basicPlane[drawn]) : 0
        asciiAdvances.append(advances[min(glyph, advances.count - 1)])
        guard glyph == 0, !FontMeasurer.isWhitespace(scalar), !FontMeasurer.isIgnorable(scalar) else { continue }
        if value < 64 { asciiWithoutGlyph.low |= 1 << value } else { asciiWithoutGlyph.high |= 1 << (value - 64) }
      }
    }

    /// The tables of a face that draws nothing: no glyph for any character.
    ///
    /// A lookup past the empty character map finds none. A face's until it is read, and a face's that cannot be read.
    static let drawingNothing = Tables(advances: [0], basicPlane: [], groups: [], bitmapStrikes: [], harfBuzz: nil)
  }

  /// Reads the tables once, when a lookup first asks for them.
  private let reading: Once
  /// How the tables are read, until they are.
  private nonisolated(unsafe) var read: (@Sendable () -> Tables)?
  /// The tables but the three that every lookup reads, written once by ``reading``; empty until then.
  private nonisolated(unsafe) var storage: Tables
  /// The glyph of each code point below U+10000, the code points above it as sorted ranges, and each glyph's
  /// advance, in memory of the tables' own (allocated once, freed with them): read from a class's arrays, each
  /// lookup retained and released them, and a Chinese character looked up in the twenty faces before Noto Sans
  /// CJK took eight times as long.
  private nonisolated(unsafe) var plane = UnsafeMutableBufferPointer<UInt16>(start: nil, count: 0)
  private nonisolated(unsafe) var groups =
    UnsafeMutableBufferPointer<(start: UInt32, end: UInt32, glyph: UInt32)>(start: nil, count: 0)
  private nonisolated(unsafe) var advances = UnsafeMutableBufferPointer<UInt16>(start: nil, count: 0)

  /// Tables read already.
  init(_ tables: Tables) {
    reading = Once(isDone: true)
    storage = tables
    install(tables)
  }

  /// Tables read by `read` when first asked.
  init(reading read: @escaping @Sendable () -> Tables) {
    reading = Once()
    self.read = read
    storage = .drawingNothing
  }

  deinit {
    plane.deallocate()
    groups.deallocate()
    advances.deallocate()
  }

  /// Keeps `tables`, the three looked up most in memory of their own.
  private func install(_ tables: Tables) {
    plane = .allocate(capacity: tables.basicPlane.count)
    _ = plane.initialize(from: tables.basicPlane)
    groups = .allocate(capacity: tables.groups.count)
    _ = groups.initialize(from: tables.groups)
    advances = .allocate(capacity: tables.advances.count)
    _ = advances.initialize(from: tables.advances)
    storage = tables
    (storage.basicPlane, storage.groups, storage.advances) = ([], [], [])
  }

  /// Reads the tables if they are not yet.
  @inline(__always)
  private func ensureRead() {
    if !reading.isDone { readNow() }
  }

  /// Reads the tables, on the first lookup (a closure made at every lookup retained the tables: a Chinese comment's
  /// lookups in the chain took a third longer).
  @inline(never)
  private func readNow() {
    reading.run {
      guard let read else { return }
      install(read())
      self.read = nil
    }
  }

  /// Whether the tables are read (a test's question).
  var wasRead: Bool { reading.isDone }

  /// See ``FontFace/asciiWithoutGlyph``.
  var asciiWithoutGlyph: (low: UInt64, high: UInt64) {
    ensureRead()
    return storage.asciiWithoutGlyph
  }
  /// See ``FontFace/asciiAdvances``.
  var asciiAdvances: [UInt16] {
    ensureRead()
    return storage.asciiAdvances
  }
  /// See ``FontFace/bitmapStrikes``.
  var bitmapStrikes: [BitmapStrike] {
    ensureRead()
    return storage.bitmapStrikes
  }
  /// See ``FontFace/harfBuzz``.
  var harfBuzz: HarfBuzzFont? {
    ensureRead()
    return storage.harfBuzz
  }

  /// The glyph of a code point; 0 (`.notdef`) when the face has none.
  @inline(__always)
  func glyph(for scalar: Unicode.Scalar) -> Int {
    ensureRead()
    let value = scalar.value
    if value < 0x10000 { return value < plane.count ? Int(plane[Int(value)]) : 0 }
    var low = 0
    var high = groups.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let group = groups[middle]
      if value < group.start {
        high = middle - 1
      } else if value > group.end {
        low = middle + 1
      } else {
        return Int(group.glyph + (value - group.start))
      }
    }
    return 0
  }

  /// The advance of a glyph in font units (glyphs past the metrics reuse the last advance).
  @inline(__always)
  func advance(ofGlyph glyph: Int) -> Int {
    ensureRead()
    return Int(advances[min(glyph, advances.count - 1)])
  }
}

/// One strike of a colour bitmap font: its size in pixels per em, and each glyph's advance in its pixels.
struct BitmapStrike: Hashable, Sendable {
  var ppem: Int
  var advances: [UInt16]
}
