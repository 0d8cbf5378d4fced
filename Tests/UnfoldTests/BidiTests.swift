import Testing
import UnfoldCorpus

@testable import Unfold

/// The engine's own UAX #9 (``BidiLevels``) against ICU's, which Chromium runs.
struct BidiTests {
  /// Pieces of random text: strong letters of both directions, numbers of both kinds, their separators and
  /// terminators, spaces, neutrals, paired brackets, marks, joiners, tabs, paragraph separators, and every explicit
  /// embedding, override and isolate.
  static let pieces = [
    "a", "B", "é", "ש", "ל", "ע", "ب", "1", "2", "١", "٢", "+", "-", "$", "%", "#", ",", ".", ":", "/", " ", "  ",
    "!", "?", "\"", "*", "&", "—", "'", "\u{05B8}", "\u{064E}", "\u{0301}", "٪", "،", "°", "€", "\u{00A0}", "😀",
    "中", "\u{2212}", "״", "\u{0661}\u{066B}", "(", ")", "[", "]", "{", "}", "«", "»", "\u{2329}", "\u{3009}",
    "\u{200D}", "\u{00AD}", "\t", "\n", "\u{2029}", "\u{200E}", "\u{200F}", "\u{061C}", "\u{202A}", "\u{202B}",
    "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
  ]

  /// ICU's level of each code point of `text`, every paragraph at `direction`.
  static func icuLevels(_ text: String, direction: TextDirection) -> [UInt8] {
    let units = Array(text.utf16)
    var levels = [UInt8](repeating: 0, count: units.count)
    let resolved = units.withUnsafeBufferPointer { units in
      levels.withUnsafeMutableBufferPointer {
        Bidi.levels(ofUTF16: units, base: direction == .rtl ? 1 : 0, into: $0.baseAddress!)
      }
    }
    #expect(resolved)
    var perScalar: [UInt8] = []
    var unit = 0
    for scalar in text.unicodeScalars {
      perScalar.append(levels[unit])
      unit += scalar.utf16.count
    }
    return perScalar
  }

  /// The engine's level of each code point of `text`.
  static func ownLevels(_ text: String, direction: TextDirection) -> [UInt8] {
    let levels = BidiLevels(text, direction: direction)
    var perScalar: [UInt8] = []
    var offset = 0
    for scalar in text.unicodeScalars {
      perScalar.append(levels.level(at: offset))
      offset += scalar.utf8.count
    }
    return perScalar
  }

  /// The order in which the code points of each paragraph of `text` are drawn at `levels` (L2), X9's removed
  /// characters left out: what the levels of a text with explicit embeddings must agree on, since ICU sets
  /// levels that draw alike to one (all of an override's characters at the paragraph's level when none takes
  /// another direction).
  static func visualOrder(_ text: String, levels: [UInt8]) -> [UInt8] {
    let scalars = Array(text.unicodeScalars)
    var order: [Int] = []
    var start = 0
    while start < scalars.count {
      var end = start
      while end < scalars.count, !["\n", "\u{2029}"].contains(scalars[end]) { end += 1 }
      var indices = Array(start..<end).filter { index in
        let value = scalars[index].value
        return !Bidi.isBoundaryNeutral(value) && !(0x202A...0x202E).contains(value)
      }
      if let highest = indices.map({ levels[$0] }).max(),
        let lowestOdd = indices.map({ levels[$0] }).filter({ $0 & 1 == 1 }).min()
      {
        for level in stride(from: highest, through: lowestOdd, by: -1) {
          var k = 0
          while k < indices.count {
            guard levels[indices[k]] >= level else {
              k += 1
              continue
            }
            var e = k
            while e < indices.count, levels[indices[e]] >= level { e += 1 }
            indices[k..<e].reverse()
            k = e
          }
        }
      }
      order += indices + [end]
      start = end + 1
    }
    return order.map { UInt8(truncatingIfNeeded: $0) }
  }

  /// Whether an FSI in `text` meets a paragraph separator before a strong character or a PDI: ICU then counts the
  /// isolate as neither direction, and a right-to-left text with nothing else left to right is all at level 1,
  /// where UAX #9 puts the isolate's neutrals at level 2 (X5c: P2 finds no strong character, so the isolate is
  /// left to right).
  static func holdsFirstStrongIsolateClosedByParagraph(_ text: String) -> Bool {
    var seeking = false
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x2068: seeking = true
      case 0x0A, 0x0D,
        0x2029 where seeking:
        return true
      case 0x2069: seeking = false
      default:
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: seeking = false
        default: break
        }
      }
    }
    return false
  }

  /// Random lines and paragraphs, in texts of both directions, resolve to ICU's levels, code point by code point.
  @Test(arguments: [(1, 16), (8, 60)])
  func randomTextsResolveAsICUResolvesThem(shortest: Int, longest: Int) {
    var random = SplitMix64(state: UInt64(17 + longest))
    var mismatches = 0
    for _ in 0..<6_000 {
      let count = shortest + Int(random.next() % UInt64(longest - shortest + 1))
      // Fewer explicit characters than others, so that most texts take the usual paths.
      let text = (0..<count).map { _ -> String in
        let index = Int(random.next() % UInt64(Self.pieces.count))
        return index >= Self.pieces.count - 12 && random.next() % 4 != 0 ? "a" : Self.pieces[index]
      }.joined()
      let explicit = text.unicodeScalars.contains {
        (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
      }
      for direction in [TextDirection.ltr, .rtl] {
        if direction == .rtl, Self.holdsFirstStrongIsolateClosedByParagraph(text) { continue }
        var own = Self.ownLevels(text, direction: direction)
        var icu = Self.icuLevels(text, direction: direction)
        if explicit {
          own = Self.visualOrder(text, levels: own)
          icu = Self.visualOrder(text, levels: icu)
        }
        if own != icu {
          mismatches += 1
          if mismatches < 20 {
            Issue.record(
              "\(direction) \(text.unicodeScalars.map { String($0.value, radix: 16) }) own \(own) icu \(icu)")
          }
        }
      }
    }
    #expect(mismatches == 0)
  }
}
