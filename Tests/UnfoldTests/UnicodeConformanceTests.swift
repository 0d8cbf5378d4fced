import Foundation
import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// The official Unicode 17.0 conformance files, copied into `Data/Unicode/17.0.0`.
@Suite struct UnicodeConformanceTests {
  static let folder = TestSupport.repositoryRoot.appendingPathComponent("Data/Unicode/17.0.0")

  /// The cases of a break test file: the scalars, and for each position after a scalar whether it breaks.
  static func cases(_ file: String) throws -> [(scalars: [Unicode.Scalar], breaks: [Bool], line: Int)] {
    let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    var result: [(scalars: [Unicode.Scalar], breaks: [Bool], line: Int)] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
      guard content.contains("÷") else { continue }
      var scalars: [Unicode.Scalar] = []
      var breaks: [Bool] = []
      for token in content.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
        switch token {
        case "÷": breaks.append(true)
        case "×": breaks.append(false)
        default:
          guard let value = UInt32(token, radix: 16), let scalar = Unicode.Scalar(value) else { continue }
          scalars.append(scalar)
        }
      }
      result.append((scalars, breaks, number + 1))
    }
    return result
  }

  /// The pair table decides as the rules do: random strings of the code points of LineBreakTest (every
  /// class, marks, ZWJ, East Asian and other brackets and quotes, emoji, aksaras), with and without it (and
  /// without the runs of letters it makes one unit).
  @Test func thePairTableDecidesAsTheRules() throws {
    let pool = Array(Set(try Self.cases("LineBreakTest.txt").flatMap(\.scalars))).sorted { $0.value < $1.value }
    var random = SplitMix64(state: 14)
    var differences = 0
    for _ in 0..<30_000 {
      let scalars = (0..<(2 + random.below(10))).map { _ in random.pick(pool) }
      if UAX14.breaks(scalars) != UAX14.breaks(scalars, usePairTable: false) { differences += 1 }
    }
    // Spaces often, so that the table of decisions after spaces meets every class before and after them.
    let spaces: [Unicode.Scalar] = [" ", " ", "\u{3000}"]
    for _ in 0..<30_000 {
      let scalars = (0..<(2 + random.below(10))).map { _ in
        random.below(3) == 0 ? random.pick(spaces) : random.pick(pool)
      }
      if UAX14.breaks(scalars) != UAX14.breaks(scalars, usePairTable: false) { differences += 1 }
    }
    // Letters often, runs of letters of the same properties among them (a run is one unit with the table, one
    // unit per letter without it), beside U+25CC (an aksara to LB28a, with the properties of other symbols),
    // marks, ZWJ, quotes, hyphens and digits.
    let aksaras = pool.filter { [.ak, .ap, .as, .vf, .vi].contains(UnicodeProperties($0).lineBreak) }
    let letters: [Unicode.Scalar] =
      ["a", "b", "Q", "ж", "ы", "ก", "ข", "◊", "\u{25CC}", "\u{301}", "\u{200D}"] + aksaras
    #expect(letters.map { UnicodeProperties($0).raw }.filter { $0 == UnicodeProperties("\u{25CC}").raw }.count == 2)
    for _ in 0..<30_000 {
      let scalars = (0..<(2 + random.below(12))).map { _ in
        random.below(3) == 0 ? random.pick(pool) : random.pick(letters)
      }
      if UAX14.breaks(scalars) != UAX14.breaks(scalars, usePairTable: false) { differences += 1 }
    }
    // Numbers with their prefixes, suffixes, separators and brackets (LB25 reads past the pair), beside letters,
    // spaces, hyphens and quotes.
    let numbers: [Unicode.Scalar] = [
      "1", "9", "$", "%", "\u{20AC}", "\u{2030}", ".", ",", "/", ":", "(", ")", "[", "]", "-", " ", "a", "\"",
      "\u{201C}", "\u{300C}", "\u{FF08}", "+", "#",
    ]
    for _ in 0..<30_000 {
      let scalars = (0..<(2 + random.below(12))).map { _ in
        random.below(6) == 0 ? random.pick(pool) : random.pick(numbers)
      }
      if UAX14.breaks(scalars) != UAX14.breaks(scalars, usePairTable: false) { differences += 1 }
    }
    #expect(pool.count > 300)
    #expect(differences == 0)
  }

  @Test func lineBreakTestPassesEveryCase() throws {
    let cases = try Self.cases("LineBreakTest.txt")
    var failures: [String] = []
    for (scalars, breaks, line) in cases {
      let actions = UAX14.breaks(scalars)
      // breaks[0] is before the first scalar (×), breaks[i] after scalar i-1; the last is the end (÷).
      let actual = [false] + (1..<scalars.count).map { actions[$0] != .prohibited } + [true]
      if actual != breaks { failures.append("line \(line)") }
      if failures.count > 50 { break }
    }
    print("LineBreakTest 17.0: \(cases.count - failures.count) of \(cases.count) cases pass")
    #expect(cases.count == 19_338)
    #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(20).joined(separator: ", "))")
  }

  /// Swift's `Character` follows the grapheme rules of the standard library, which predate Unicode 17's GB9c
  /// conjunct rules for Myanmar, Balinese and Khmer: 758 of the 766 cases of GraphemeBreakTest 17.0 pass.
  ///
  /// The engine never breaks inside a `Character`; the figure is recorded here so that a toolchain update that changes
  /// it is noticed.
  @Test func graphemeBreakTestFigureOfTheStandardLibrary() throws {
    let cases = try Self.cases("GraphemeBreakTest.txt")
    var passed = 0
    for (scalars, breaks, _) in cases {
      var string = ""
      string.unicodeScalars.append(contentsOf: scalars)
      var expected: [[Unicode.Scalar]] = []
      var current: [Unicode.Scalar] = []
      for (index, scalar) in scalars.enumerated() {
        if index > 0 && breaks[index] {
          expected.append(current)
          current = []
        }
        current.append(scalar)
      }
      expected.append(current)
      if string.map({ Array($0.unicodeScalars) }) == expected { passed += 1 }
    }
    print("GraphemeBreakTest 17.0: Swift's Character passes \(passed) of \(cases.count)")
    #expect(cases.count == 766)
    #expect(passed == 758)
  }
}

extension UnicodeConformanceTests {
  /// The advance of a cluster of one code point, asked without a Character, is the Character's, in both
  /// terminal profiles and in a font.
  @Test func scalarAdvancesAreTheCharacters() throws {
    let font = FontMeasurer(try FontSet.dejaVu(fallbacks: []))
    for value in UInt32(0)..<0x3_0000 where value != 0x09 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      for measurer in [TerminalCells(profile: .legacy), TerminalCells(profile: .modern)] as [any TextMeasurer] {
        #expect(
          measurer.advance(ofScalar: scalar, style: .plain) == measurer.advance(of: Character(scalar), style: .plain))
      }
      if value % 7 == 0 {
        // In each face in turn.
        let style = [Style.plain, Style(.bold), Style(.italic), Style([.bold, .italic]), Style(.code)][
          Int(value / 7 % 5)]
        #expect(font.advance(ofScalar: scalar, style: style) == font.advance(of: Character(scalar), style: style))
      }
    }
  }

  /// The advance of a cluster of several code points, asked without a Character, is the Character's: every
  /// GraphemeBreakTest cluster, emoji sequences, CR LF.
  @Test func scalarsAdvancesAreTheCharacters() throws {
    let measurers: [any TextMeasurer] = [
      TerminalCells(profile: .legacy), TerminalCells(profile: .modern), FontMeasurer(try FontSet.dejaVu(fallbacks: [])),
    ]
    let samples = ["\r\n", "👨‍👩‍👧", "👍🏽", "❤️", "❤\u{FE0E}", "🇺🇸", "1\u{FE0F}\u{20E3}", "e\u{301}", "क्षि"]
    var clusters = samples.joined().filter { $0.unicodeScalars.count > 1 }
    for (scalars, _, _) in try Self.cases("GraphemeBreakTest.txt") {
      var string = ""
      string.unicodeScalars.append(contentsOf: scalars)
      clusters += string.filter { $0.unicodeScalars.count > 1 }
    }
    for cluster in clusters {
      for measurer in measurers {
        #expect(
          measurer.advance(ofScalars: Array(cluster.unicodeScalars)[...], style: .plain)
            == measurer.advance(of: cluster, style: .plain), "\(cluster.unicodeScalars.map(\.value))")
      }
    }
  }

  /// Every assigned code point the grapheme reader calls simple stands alone beside a letter, beside itself,
  /// beside a control and beside an ideograph, as `Character` iteration (the standard library's data) has it:
  /// a boundary the reader decides without the recognizer is one the recognizer would decide.
  @Test func simpleCodePointsAreClustersOfTheirOwn() {
    var checked = 0
    for value in UInt32(0x80)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let properties = UnicodeProperties(scalar)
      guard properties.generalCategory != .cn, UnicodeProperties.isGraphemeSimple(properties.raw, value) else {
        continue
      }
      checked += 1
      for neighbour in ["a", "\u{85}", "中", "\n", String(scalar)] {
        var pair = neighbour
        pair.unicodeScalars.append(scalar)
        var reversed = String(scalar)
        reversed += neighbour
        #expect(pair.count == 2 && reversed.count == 2, "U+\(String(value, radix: 16, uppercase: true))")
      }
    }
    #expect(checked > 250_000)
  }

  /// The letters that the scanner joins into runs (``UnicodeProperties/isRunLetter(_:_:)``): among ASCII, A to Z
  /// and a to z; below U+0800, letters of one cell and of classes AL or HL.
  ///
  /// Between any two of them (each checked beside letters of four scripts, on both sides) `Character` iteration has a
  /// boundary and UAX #14 no opportunity, under both rule sets: what joining them into one entry takes for granted.
  @Test func runLettersAreClustersOfTheirOwnWithNoBreakBetween() {
    let ascii = (0..<0x80).filter { UnicodeProperties.isRunLetter(UnicodeTables.lookUp(UInt32($0)), UInt32($0)) }
    #expect(ascii == Array(0x41...0x5A) + Array(0x61...0x7A))
    var checked = 0
    let partners: [Unicode.Scalar] = ["a", "ж", "\u{5D0}", "\u{628}", "é"]
    for value in UInt32(0x80)..<0x800 {
      guard let scalar = Unicode.Scalar(value), UnicodeProperties.isRunLetter(UnicodeTables.lookUp(value), value)
      else { continue }
      checked += 1
      let name = "U+\(String(value, radix: 16, uppercase: true))"
      #expect(Character(scalar).isLetter && TerminalCells().width(of: String(scalar)) == 1, "\(name)")
      for partner in partners {
        for pair in [[partner, scalar], [scalar, partner]] {
          var text = ""
          text.unicodeScalars.append(contentsOf: pair)
          #expect(text.count == 2, "\(name)")
          #expect(UAX14.breaks(pair)[1] == .prohibited, "\(name)")
          #expect(LineBreaker.chromium.allOpportunities(in: text).isEmpty, "\(name)")
        }
      }
    }
    #expect(checked > 1_000)
    // Not digits, marks, spaces, punctuation, symbols or letters past U+07FF.
    for scalar in ["1", "\u{301}", "\u{A0}", "§", "\u{5BE}", "\u{60C}", "\u{E01}", "中", "\u{10D0}"] as [Unicode.Scalar]
    {
      #expect(!UnicodeProperties.isRunLetter(UnicodeTables.lookUp(scalar.value), scalar.value), "\(scalar)")
    }
  }

  /// The font measurer's white space is Unicode's (which the standard library looks up by binary search).
  @Test func whiteSpaceIsUnicodes() {
    for value in UInt32(0)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      if FontMeasurer.isWhitespace(scalar) != scalar.properties.isWhitespace {
        Issue.record("U+\(String(value, radix: 16))")
      }
    }
  }

  /// The terminal's and the fonts' advance of an ASCII byte, asked without a Character, is the Character's: the
  /// fonts' from the set's table of scaled advances, which follows a change of the size or of a face after the set
  /// was made (at 13.5 px; bold drawn in the italic face); with fallbacks, a character the face lacks (a control's
  /// picture) is measured in the fallback that draws it, under every engine.
  @Test func asciiAdvancesAreTheCharacters() {
    var resized = try! FontSet.dejaVu(fallbacks: [])
    resized.size = 13.5
    var boldInItalic = try! FontSet.dejaVu(fallbacks: [])
    boldInItalic.bold = boldInItalic.italic
    // Noto Sans Symbols 2 draws the control pictures that DejaVu lacks.
    let symbols = (try? FontFamily.files(["/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"])).map { [$0] }
    #expect(symbols != nil, "fonts-noto-core is missing: run scripts/install-dependencies")
    let pictures = try! FontSet.dejaVu(fallbacks: (symbols ?? []) + FontFamily.notoFallbacks())
    let measurers = [
      FontMeasurer(try! FontSet.dejaVu(fallbacks: [])), FontMeasurer(resized), FontMeasurer(boldInItalic),
      FontMeasurer(try! FontSet.dejaVu()), FontMeasurer(pictures), FontMeasurer(pictures, engine: .any),
      FontMeasurer(pictures, engine: .webkit),
    ]
    // ESC in Noto Sans Symbols 2's picture, not in DejaVu's missing glyph.
    #expect(measurers[4].advance(ofASCII: 0x1B, style: .plain) != measurers[0].advance(ofASCII: 0x1B, style: .plain))
    for font in measurers {
      for byte in UInt8(0)..<0x80 where byte != 0x09 {
        #expect(
          TerminalCells().advance(ofASCII: byte, style: .plain)
            == TerminalCells().advance(of: Character(Unicode.Scalar(byte)), style: .plain))
        for style in [Style.plain, Style(.bold), Style(.italic), Style([.italic, .bold]), Style(.code)] {
          #expect(
            font.advance(ofASCII: byte, style: style)
              == font.advance(of: Character(Unicode.Scalar(byte)), style: style))
        }
      }
    }
  }

  /// The engine reads clusters from code points with the standard library's grapheme recognizer (and ASCII
  /// bytes without it): its clusters must be `Character`s, on each GraphemeBreakTest string alone and on all
  /// of them joined with ASCII between them (so that clusters follow clusters and both paths alternate).
  @Test func clusterWalkAndLineBreakerFindTheCharacters() throws {
    let cases = try Self.cases("GraphemeBreakTest.txt")
    var strings = cases.map { scalars, _, _ in
      var string = ""
      string.unicodeScalars.append(contentsOf: scalars)
      return string
    }
    strings.append(strings.joined(separator: "a"))
    strings.append("a\r\nb\rc\u{85}\u{2028}d\u{2029}\u{0B}\u{0C}\t \u{AD}e\u{AD}\u{301}\r\u{301}")
    strings.append(strings.dropLast().joined())
    for string in strings {
      let expected = characterOffsets(string)
      let text = StyledText(plain: string)
      var walk = ClusterWalk(text, range: 0..<string.utf8.count, measurer: TerminalCells())
      var starts: [Int] = []
      var characters = string.makeIterator()
      while let cluster = walk.next() {
        starts.append(cluster.start)
        // What the walk decided from code points is what the Character says.
        guard let character = characters.next() else { break }
        #expect(Character(String(string.utf8Slice(cluster.start..<cluster.end))) == character)
        #expect(cluster.isTab == character.isTab && cluster.isHardLineBreak == character.isHardLineBreak)
        #expect(cluster.isSoftHyphen == (character.singleScalar == "\u{AD}"))
        #expect(cluster.isSpace == (character.singleScalar == " " || character.isTab))
      }
      #expect(starts == expected, "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
      // The scanner that preparing and the line breaker read with finds the same clusters, window by window.
      var scanner = BreakScanner(string, from: 0, rules: .unicode)
      var scanned: [Int] = []
      while scanner.scanWindow() { scanned += scanner.clusterOffsets }
      #expect(scanned == expected)
      // Every opportunity falls on a cluster start.
      let opportunities = LineBreaker.unicode.allOpportunities(in: string).map(\.offset)
      #expect(Set(opportunities).isSubset(of: Set(expected)))
    }
  }
}

/// The generated tables match the data files and the generator in the repository.
@Suite struct UnicodeTablesTests {
  static func fnv1a64(_ data: Data) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return hash
  }

  @Test func tablesAreUpToDateWithTheirDataAndGenerator() throws {
    #expect(UnicodeTables.sourceHashes.count == 6)
    for (name, recorded) in UnicodeTables.sourceHashes {
      let path = name.hasPrefix("scripts/") ? name : "Data/Unicode/17.0.0/\(name)"
      let data = try Data(contentsOf: TestSupport.repositoryRoot.appendingPathComponent(path))
      #expect(
        Self.fnv1a64(data) == recorded,
        "\(path) changed since the tables were generated: run scripts/generate-unicode-tables.py")
    }
  }

  @Test(arguments: [
    (UInt32(0x41), LineBreakClass.al, EastAsianWidthClass.na), (0x4E2D, .id, .w), (0x20, .sp, .na), (0x3002, .cl, .w),
    (0x1F600, .id, .w), (0x2010, .hh, .a), (0x0E01, .sa, .n), (0x1F1FA, .ri, .n), (0xAD, .ba, .a), (0x2FFFD, .id, .w),
    (0x10FFFF, .xx, .n),
  ])
  func propertiesOfKnownCodePoints(_ value: UInt32, _ lineBreak: LineBreakClass, _ width: EastAsianWidthClass) throws {
    let properties = UnicodeProperties(try #require(Unicode.Scalar(value)))
    #expect(properties.lineBreak == lineBreak)
    #expect(properties.eastAsianWidth == width)
  }

  @Test func flagsAndCategories() {
    #expect(UnicodeProperties("\u{1F600}").isEmojiPresentation)
    #expect(UnicodeProperties("\u{2764}").isEmoji && !UnicodeProperties("\u{2764}").isEmojiPresentation)
    #expect(UnicodeProperties("\u{1F3FD}").isEmojiModifier)
    #expect(UnicodeProperties("\u{0600}").isPrepend && UnicodeProperties("\u{0600}").generalCategory == .cf)
    #expect(UnicodeProperties("\u{0301}").generalCategory == .mn)
    #expect(UnicodeProperties("\u{201C}").generalCategory == .pi)
    #expect(UnicodeProperties("\u{1FFFD}").isExtendedPictographic)
  }
}

/// The packed properties read their classes by reinterpreting a field's bits: every field value reads as the
/// failable initialiser reads it, and out of range as the default class.
@Suite struct PackedPropertyTests {
  @Test func everyFieldValueReadsAsItsRawValue() {
    for value in UInt32(0)..<64 {
      let properties = UnicodeProperties(raw: value)
      #expect(properties.lineBreak == LineBreakClass(rawValue: UInt8(value)) ?? .xx)
    }
    for value in UInt32(0)..<8 {
      #expect(UnicodeProperties(raw: value << 6).eastAsianWidth == EastAsianWidthClass(rawValue: UInt8(value)) ?? .n)
    }
    for value in UInt32(0)..<32 {
      #expect(
        UnicodeProperties(raw: value << 9).generalCategory == GeneralCategoryClass(rawValue: UInt8(value)) ?? .cn)
    }
  }

  /// The fields derived when the tables are decoded (the class after LB1, a code point's cells from DEL up,
  /// grapheme simplicity) are what the rules they stand for give, at every code point; so are the classes of
  /// hard line breaks.
  @Test func derivedFieldsAreTheRulesAtEveryCodePoint() {
    var wrong: [String] = []
    for value in UInt32(0)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let properties = UnicodeProperties(scalar)
      if properties.resolvedLineBreak != UAX14.resolve(properties) { wrong.append("class of U+\(value)") }
      if value >= 0x7F, properties.nonASCIICells != TerminalCells.width(ofNonASCII: scalar, properties: properties) {
        wrong.append("cells of U+\(value)")
      }
      // The scanner takes the classes of hard line breaks for the code points that start them.
      if LineBreakSet.bkCrLfNl.contains(properties.lineBreak) != Cluster.startsHardLineBreak(value) {
        wrong.append("hard line break U+\(value)")
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    #expect(UnicodeProperties("\u{AD}").nonASCIICells == 0 && UnicodeProperties("\u{85}").nonASCIICells == 1)
    #expect(UnicodeProperties("中").nonASCIICells == 2 && UnicodeProperties("\u{301}").nonASCIICells == 0)
  }

  /// The direct tables below U+0800 (ASCII, and code points of two UTF-8 bytes) hold what the three stages hold.
  @Test func directLookupsAreTheThreeStages() {
    let tables = UnicodeTables.decoded
    let wrong = (UInt32(0)..<0x800).filter { tables.lookUp(belowU0800: $0) != tables.lookUp($0) }
    #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    #expect((UInt8(0)..<0x80).allSatisfy { tables.lookUp(ascii: $0) == tables.lookUp(UInt32($0)) })
    #expect(tables.lookUp(belowU0800: 0x5D0) == UnicodeProperties("א").raw)
  }
}
