import Foundation

/// A CLDR plural category.
package enum PluralCategory: String, Hashable, Sendable, CaseIterable {
  /// Used for 0 in Arabic, Welsh and a few more; and, as on Apple platforms, for the value 0 in every
  /// language when a translation gives a `zero` form.
  case zero
  /// Singular in most languages.
  case one
  /// Dual.
  case two
  /// Paucal, such as 2–4 in Russian and Polish.
  case few
  /// Large numbers or a separate plural form, such as 5–20 in Russian.
  case many
  /// Everything else; every language has it.
  case other
}

/// The operands of the CLDR plural rules (LDML, part 3): the absolute value `n`, its integer digits `i`,
/// the number of visible fraction digits `v` (with trailing zeros) and `w` (without), and the visible
/// fraction digits `f` (with trailing zeros) and `t` (without).
package struct PluralOperands: Hashable, Sendable {
  /// The absolute value.
  package var n: Double
  /// The integer digits.
  package var i: Int
  /// The number of visible fraction digits, with trailing zeros.
  package var v: Int
  /// The number of visible fraction digits, without trailing zeros.
  package var w: Int
  /// The visible fraction digits, with trailing zeros.
  package var f: Int
  /// The visible fraction digits, without trailing zeros.
  package var t: Int

  /// The operands of an integer.
  package init(_ value: Int) {
    let magnitude = value.magnitude > UInt(Int.max) ? Int.max : Int(value.magnitude)
    n = Double(magnitude)
    i = magnitude
    v = 0
    w = 0
    f = 0
    t = 0
  }

  /// The operands of a number as written in decimal digits (`"1.50"` has `v` 2 and `t` 5); `nil` when the
  /// text is not a plain decimal number.
  package init?(decimal text: some StringProtocol) {
    var digits = Substring(text)
    if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
    let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let integerPart = parts.first, !integerPart.isEmpty, integerPart.allSatisfy(\.isASCIIDigit)
    else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.allSatisfy(\.isASCIIDigit), parts.count == 1 || !fraction.isEmpty else { return nil }
    let trimmed = fraction.reversed().drop { $0 == "0" }
    i = Int(integerPart.suffix(18)) ?? Int.max
    v = fraction.count
    w = trimmed.count
    f = Int(fraction.prefix(18)) ?? 0
    t = Int(String(trimmed.reversed()).prefix(18)) ?? 0
    n = Double("\(integerPart).\(fraction.isEmpty ? "0" : fraction)") ?? Double(i)
  }

  /// The operands of a floating-point number as Swift writes it shortest (`1.0` has `v` 1, `2.5` has
  /// `f` 5).
  package init(_ value: Double) {
    let text = value.isFinite ? "\(value.magnitude)" : "0"
    self =
      PluralOperands(decimal: text.contains("e") ? String(format: "%.0f", value.magnitude) : text) ?? PluralOperands(0)
  }
}

/// Chooses plural categories by the CLDR 41 rules of every language CLDR has (generated into
/// ``PluralRulesTable`` by `scripts/generate-plural-rules.py`).
package enum PluralRules {
  /// The CLDR version of the rules.
  package static var cldrVersion: String { PluralRulesTable.cldrVersion }

  /// The category of `operands` in `locale` (a BCP 47 or POSIX identifier such as `pt-BR`, `sr_Latn`,
  /// `zh-Hant-TW`).
  ///
  /// A locale CLDR does not know falls back to its language, then to the root rules (only `other`).
  package static func category(for operands: PluralOperands, locale: String) -> PluralCategory {
    PluralRulesTable.category(set: ruleSet(for: locale), operands)
  }

  /// The categories a locale uses, in the order `zero one two few many other`.
  package static func categories(locale: String) -> [PluralCategory] {
    let set = ruleSet(for: locale)
    let used = Set(PluralRulesTable.samples.filter { $0.set == set }.map(\.category))
    return PluralCategory.allCases.filter { used.contains($0) || $0 == .other }
  }

  static func ruleSet(for locale: String) -> Int {
    let parts = locale.replacingOccurrences(of: "-", with: "_").lowercased().split(separator: "_")
    var candidate = parts
    while !candidate.isEmpty {
      if let set = PluralRulesTable.setByLanguage[candidate.joined(separator: "_")] { return set }
      candidate.removeLast()
    }
    return PluralRulesTable.setByLanguage["root"] ?? 0
  }
}

extension PluralRulesTable {
  /// Whether `x` is a whole number inside one of the ranges.
  @inline(__always)
  static func within(_ x: Double, _ ranges: [ClosedRange<Int>]) -> Bool {
    guard x == x.rounded(.towardZero) else { return false }
    return ranges.contains { Double($0.lowerBound) <= x && x <= Double($0.upperBound) }
  }
}

extension Character {
  /// Whether the character is one of `0`…`9`.
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
