import Foundation

/// The Unicode 17.0 properties of one code point that line breaking and cell widths need, read from the
/// generated tables (``UnicodeTables``) with three array lookups.
struct UnicodeProperties: Hashable, Sendable {
  /// The packed value: Line_Break, East_Asian_Width, General_Category and flags (bits 0–19, from the generated
  /// tables), and fields derived from them when the tables are decoded (bits 20–29, ``withDerivedFields(_:)``).
  let raw: UInt32

  /// The properties of a scalar.
  /// - Complexity: O(1).
  @inline(__always)
  init(_ scalar: Unicode.Scalar) {
    raw = UnicodeTables.lookUp(scalar.value)
  }

  /// The properties of a packed value from the tables.
  @inline(__always)
  init(raw: UInt32) { self.raw = raw }

  // The classes are enums of consecutive raw values from 0, stored as their raw value: a field in range is
  // the case itself, with no call to a failable initialiser.
  @inline(__always)
  var lineBreak: LineBreakClass {
    let value = UInt8(raw & 0x3F)
    return value <= LineBreakClass.zwj.rawValue ? unsafeBitCast(value, to: LineBreakClass.self) : .xx
  }
  @inline(__always)
  var eastAsianWidth: EastAsianWidthClass {
    let value = UInt8(raw >> 6 & 0x7)
    return value <= EastAsianWidthClass.w.rawValue ? unsafeBitCast(value, to: EastAsianWidthClass.self) : .n
  }
  @inline(__always)
  var generalCategory: GeneralCategoryClass {
    let value = UInt8(raw >> 9 & 0x1F)
    return value <= GeneralCategoryClass.co.rawValue ? unsafeBitCast(value, to: GeneralCategoryClass.self) : .cn
  }
  /// Whether the code point is a mark (General_Category Mn, Mc or Me), which no engine breaks a line before.
  @inline(__always)
  var isMark: Bool {
    switch generalCategory {
    case .mn, .mc, .me: true
    default: false
    }
  }
  /// The Line_Break class after UAX #14's LB1 (``UAX14/resolve(_:)``), derived when the tables are decoded
  /// (bits 20–25): the rules ask it of every code point.
  @inline(__always)
  var resolvedLineBreak: LineBreakClass { unsafeBitCast(UInt8(raw >> 20 & 0x3F), to: LineBreakClass.self) }
  /// The cells of a code point from U+0080 up on its own (``TerminalCells/width(ofNonASCII:properties:)``),
  /// derived when the tables are decoded (bits 26–27): the same for every code point of these properties, since
  /// the only code points it names (C1 controls, the soft hyphen) get from their properties what it gives them.
  @inline(__always)
  var nonASCIICells: Int { Int(raw >> 26 & 0x3) }

  /// A packed value of the generated tables with the derived fields added.
  static func withDerivedFields(_ raw: UInt32) -> UInt32 {
    let properties = UnicodeProperties(raw: raw & 0xF_FFFF)
    let resolved = UInt32(UAX14.resolve(properties).rawValue)
    // Any code point from U+00A0 up that has these properties: the width depends on them alone there.
    let cells = UInt32(TerminalCells.width(ofNonASCII: "\u{A0}", properties: properties))
    let simple = isGraphemeSimpleByProperties(raw) ? flagGraphemeSimple : 0
    let letters: [GeneralCategoryClass] = [.lu, .ll, .lt, .lm, .lo]
    let runLetter =
      simple != 0 && (resolved == UInt32(LineBreakClass.al.rawValue) || resolved == UInt32(LineBreakClass.hl.rawValue))
        && letters.contains(properties.generalCategory) && cells == 1 ? flagRunLetter : 0
    return raw & 0xF_FFFF | resolved << 20 | cells << 26 | simple | runLetter
  }

  /// A letter of one cell that is simple (``isGraphemeSimple(_:_:)``) and of class AL or HL after LB1, derived when
  /// the tables are decoded (bit 29): two such letters have a cluster boundary and no line break opportunity
  /// between them under every rule set (LB28), which lets the scanner read a run of them as one entry
  /// (``isRunLetter(_:_:)``).
  static let flagRunLetter: UInt32 = 1 << 29

  /// Whether a code point is a letter that the scanner joins into runs (``BreakScanner``): a letter of one or two
  /// UTF-8 bytes (below U+0800: ASCII, Latin with diacritics, Greek, Cyrillic, Armenian, Hebrew, Arabic...) with
  /// ``flagRunLetter`` (among ASCII, the letters A to Z and a to z have it: a test checks).
  ///
  /// Past U+07FF, rules that read back to a base (the Indic conjuncts', GB9c) start; no such rule reads back to these
  /// (``takesPlainMarks(_:_:)``).
  @inline(__always)
  static func isRunLetter(_ raw: UInt32, _ value: UInt32) -> Bool { raw & flagRunLetter != 0 && value < 0x800 }

  var isExtendedPictographic: Bool { raw & UnicodeTables.flagExtendedPictographic != 0 }
  var isEmoji: Bool { raw & UnicodeTables.flagEmoji != 0 }
  var isEmojiPresentation: Bool { raw & UnicodeTables.flagEmojiPresentation != 0 }
  var isEmojiModifier: Bool { raw & UnicodeTables.flagEmojiModifier != 0 }
  var isPrepend: Bool { raw & UnicodeTables.flagPrepend != 0 }

  /// Whether a grapheme cluster boundary stands between this code point and a neighbour that is also
  /// simple, by the rules alone (GB4, GB5, GB999): neither Extend, SpacingMark, Prepend, ZWJ, a Hangul jamo,
  /// a regional indicator, CR, nor a format character.
  ///
  /// Decided from the Unicode 17 properties, conservatively: every combining mark, format character and emoji modifier
  /// is not simple, and the few letters with a grapheme role are named (a test checks every assigned code point against
  /// `Character`). A Hangul syllable (LV, LVT) is simple: the rules that join it (GB6–GB8) need a jamo beside it, which
  /// is not simple, so its boundaries with simple neighbours are GB999's (Korean text went through the standard
  /// library's recognizer at every syllable).
  @inline(__always)
  static func isGraphemeSimple(_ raw: UInt32, _ value: UInt32) -> Bool {
    if value < 0x80 { return value != 0x0D }
    // The properties' part, derived when the tables are decoded (bit 28); the few letters with a grapheme role
    // are named (all from U+0E33 up: most text past ASCII is decided by one comparison).
    guard raw & flagGraphemeSimple != 0 else { return false }
    guard value >= 0x0E33 else { return true }
    switch value {
    case 0x0E33, 0x0EB3: return false  // Thai and Lao SARA AM: SpacingMark
    case 0xFF9E, 0xFF9F: return false  // halfwidth katakana sound marks: Extend
    case 0x16D63, 0x16D67...0x16D6A: return false  // Kirat Rai vowel signs: V
    default: return true
    }
  }

  /// Bit 28 of a packed value: whether a code point of these properties is grapheme-simple, as far as its
  /// properties tell (``isGraphemeSimple(_:_:)`` names the exceptions).
  static let flagGraphemeSimple: UInt32 = 1 << 28

  /// The properties' part of ``isGraphemeSimple(_:_:)``: neither a mark, a format character, a regional
  /// indicator, a Hangul jamo, a prepended mark nor an emoji modifier.
  private static func isGraphemeSimpleByProperties(_ raw: UInt32) -> Bool {
    // The categories and classes as bit masks of their raw values: the packed value is read bit by bit.
    let categories: UInt32 =
      1 << GeneralCategoryClass.mn.rawValue | 1 << GeneralCategoryClass.me.rawValue
      | 1 << GeneralCategoryClass.mc.rawValue | 1 << GeneralCategoryClass.cf.rawValue
    let classes: UInt64 =
      1 << LineBreakClass.ri.rawValue | 1 << LineBreakClass.jl.rawValue | 1 << LineBreakClass.jv.rawValue
      | 1 << LineBreakClass.jt.rawValue
    if categories & 1 << (raw >> 9 & 0x1F) != 0 || classes & 1 << UInt64(raw & 0x3F) != 0 { return false }
    return raw & (UnicodeTables.flagPrepend | UnicodeTables.flagEmojiModifier) == 0
  }

  /// Whether a simple code point (``isGraphemeSimple(_:_:)``) takes plain marks (``isPlainMark(_:_:)``) with no
  /// rule but GB9 deciding: printable ASCII, and the code points from U+00A0 to U+08FF and of Thai and Lao that
  /// are not extended pictographs (GB11 looks back to those).
  ///
  /// No rule reads back to such a base: it is neither a control (GB4), a Hangul jamo, a regional indicator, a prepended
  /// mark (not simple), nor a consonant of the Indic conjunct rule (GB9c: those are from U+0900 up). `raw` may be 0 for
  /// ASCII.
  @inline(__always)
  static func takesPlainMarks(_ raw: UInt32, _ value: UInt32) -> Bool {
    if value < 0x80 { return value >= 0x20 && value != 0x7F }
    return (value >= 0xA0 && value < 0x0900 || value & ~0xFF == 0x0E00)
      && raw & UnicodeTables.flagExtendedPictographic == 0
  }

  /// Whether a code point is a plain mark: a nonspacing or enclosing mark (Grapheme_Extend, so GB9 joins it to
  /// what it follows) of the blocks from U+0300 to U+08FF or of Thai and Lao, none of them an Indic conjunct
  /// linker (GB9c), a joiner (GB11) or a spacing mark.
  ///
  /// A test checks every pair of such a base and mark, before what may follow, against `Character`.
  @inline(__always)
  static func isPlainMark(_ raw: UInt32, _ value: UInt32) -> Bool {
    let category = raw >> 9 & 0x1F
    return (value >= 0x0300 && value < 0x0900 || value & ~0xFF == 0x0E00)
      && (category == UInt32(GeneralCategoryClass.mn.rawValue) || category == UInt32(GeneralCategoryClass.me.rawValue))
  }

  /// ``isGraphemeSimple(_:_:)`` of a code point whose properties are not at hand.
  static func isGraphemeSimple(_ value: UInt32) -> Bool {
    isGraphemeSimple(value < 0x80 ? 0 : UnicodeTables.lookUp(value), value)
  }

  /// East_Asian_Width F, W or H: "East Asian" in the sense of UAX #14.
  var isEastAsian: Bool {
    switch eastAsianWidth {
    case .f, .w, .h: return true
    default: return false
    }
  }
}

extension UnicodeTables {
  /// The decoded tables, built once on first use from the base64 strings of the generated file; one value,
  /// so that a lookup goes through one lazy initialization check, not four.
  ///
  /// The stages are read without bounds checks (four per lookup otherwise): they are copied
  /// into memory that is never freed or written again, and checked once, when decoded, so that every index a
  /// stage holds is inside the next stage (and every first-stage index of a code point up to U+10FFFF inside
  /// the first), which makes every lookup's reads in bounds.
  struct Decoded: @unchecked Sendable {  // immutable memory, never freed: shared safely
    private let stage1: UnsafePointer<UInt16>
    private let stage2: UnsafePointer<UInt16>
    private let stage3: UnsafePointer<UInt16>
    private let values: UnsafePointer<UInt32>
    /// The packed values of the code points of one and two UTF-8 bytes (below U+0800), for lookups without the three
    /// stages: ASCII, and the letters of Latin, Greek, Cyrillic, Hebrew and Arabic text, three dependent loads fewer
    /// each (8 KB, read as a text's scripts need it).
    private let belowU0800: UnsafePointer<UInt32>

    init() {
      let stage1: [UInt16] = decode(stage1Base64)
      let stage2: [UInt16] = decode(stage2Base64)
      let stage3: [UInt16] = decode(stage3Base64)
      let values = (decode(valuesBase64) as [UInt32]).map(UnicodeProperties.withDerivedFields)
      precondition(stage1.count >= 0x110000 >> 8, "corrupt generated table")
      precondition(stage1.allSatisfy { Int($0) << 4 | 0xF < stage2.count }, "corrupt generated table")
      precondition(stage2.allSatisfy { Int($0) << 4 | 0xF < stage3.count }, "corrupt generated table")
      precondition(stage3.allSatisfy { Int($0) < values.count }, "corrupt generated table")
      self.stage1 = Self.immortalCopy(stage1)
      self.stage2 = Self.immortalCopy(stage2)
      self.stage3 = Self.immortalCopy(stage3)
      self.values = Self.immortalCopy(values)
      // The three stages for each code point below U+0800 (the first eight blocks of the first stage).
      let belowU0800 = (0..<0x800).map {
        values[Int(stage3[Int(stage2[Int(stage1[$0 >> 8]) << 4 | $0 >> 4 & 0xF]) << 4 | $0 & 0xF])]
      }
      self.belowU0800 = Self.immortalCopy(belowU0800)
    }

    /// A copy of the array in memory allocated for the rest of the process.
    private static func immortalCopy<T>(_ array: [T]) -> UnsafePointer<T> {
      let memory = UnsafeMutableBufferPointer<T>.allocate(capacity: array.count)
      _ = memory.initialize(from: array)
      return UnsafePointer(memory.baseAddress!)
    }

    /// The packed value of a code point (0 for values past U+10FFFF).
    @inline(__always)
    func lookUp(_ codePoint: UInt32) -> UInt32 {
      guard codePoint < 0x110000 else { return 0 }
      let cp = Int(codePoint)
      let block1 = Int(stage1[cp >> 8])
      let block2 = Int(stage2[block1 << 4 | (cp >> 4 & 0xF)])
      return values[Int(stage3[block2 << 4 | (cp & 0xF)])]
    }

    /// The packed value of an ASCII code point (of the byte's low seven bits).
    @inline(__always)
    func lookUp(ascii byte: UInt8) -> UInt32 { belowU0800[Int(byte & 0x7F)] }

    /// The packed value of a code point of two UTF-8 bytes or fewer (of the value's low eleven bits).
    @inline(__always)
    func lookUp(belowU0800 codePoint: UInt32) -> UInt32 { belowU0800[Int(codePoint & 0x7FF)] }
  }
  /// The tables, for a loop that looks up many code points: read once, they are not checked for their lazy
  /// initialization at each lookup.
  static let decoded = Decoded()

  /// The packed value of a code point (0 for values past U+10FFFF).
  @inline(__always)
  static func lookUp(_ codePoint: UInt32) -> UInt32 {
    decoded.lookUp(codePoint)
  }

  private static func decode<T: FixedWidthInteger>(_ base64: String) -> [T] {
    guard let data = Data(base64Encoded: base64) else { preconditionFailure("corrupt generated table") }
    let count = data.count / MemoryLayout<T>.size
    return data.withUnsafeBytes { bytes in
      (0..<count).map { T(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.size, as: T.self)) }
    }
  }
}
