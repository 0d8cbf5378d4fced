import Foundation
import TestSupport
import Testing

@testable import Unfold

/// CLDR 41 plural rules, generated from plurals.xml.
@Suite struct PluralRulesTests {
  @Test func everySampleOfEveryRuleFallsInItsCategory() {
    var failures: [String] = []
    for (set, category, number) in PluralRulesTable.samples {
      guard let operands = PluralOperands(decimal: number) else {
        failures.append("unreadable sample \(number)")
        continue
      }
      let actual = PluralRulesTable.category(set: set, operands)
      if actual != category { failures.append("set \(set): \(number) is \(actual), CLDR says \(category)") }
    }
    print(
      "CLDR \(PluralRules.cldrVersion) plural samples: \(PluralRulesTable.samples.count - failures.count) of \(PluralRulesTable.samples.count) fall in their category"
    )
    #expect(failures.isEmpty, "\(failures.prefix(20))")
    #expect(PluralRulesTable.setByLanguage.count == 218)
  }

  @Test(arguments: [
    ("en", 0, PluralCategory.other), ("en", 1, .one), ("en", 2, .other),
    ("fr", 0, .one), ("fr", 1, .one), ("fr", 2, .other), ("fr", 1_000_000, .many),
    ("ru", 1, .one), ("ru", 3, .few), ("ru", 5, .many), ("ru", 11, .many), ("ru", 21, .one), ("ru", 22, .few),
    ("uk", 1, .one), ("uk", 4, .few), ("uk", 12, .many), ("uk", 101, .one),
    ("pl", 1, .one), ("pl", 2, .few), ("pl", 5, .many), ("pl", 22, .few), ("pl", 25, .many),
    ("ar", 0, .zero), ("ar", 1, .one), ("ar", 2, .two), ("ar", 3, .few), ("ar", 11, .many), ("ar", 100, .other),
    ("ja", 1, .other), ("ja", 0, .other),
    ("cy", 0, .zero), ("cy", 1, .one), ("cy", 2, .two), ("cy", 3, .few), ("cy", 6, .many), ("cy", 7, .other),
  ])
  func integers(_ locale: String, _ value: Int, _ category: PluralCategory) {
    #expect(PluralRules.category(for: PluralOperands(value), locale: locale) == category)
  }

  @Test func decimalOperands() {
    // English "1.0" is other (v = 1); Russian decimals are other; French 1.5 is one (i = 1).
    #expect(PluralRules.category(for: PluralOperands(decimal: "1.0")!, locale: "en") == .other)
    #expect(PluralRules.category(for: PluralOperands(decimal: "1")!, locale: "en") == .one)
    #expect(PluralRules.category(for: PluralOperands(decimal: "2.5")!, locale: "ru") == .other)
    #expect(PluralRules.category(for: PluralOperands(decimal: "1.5")!, locale: "fr") == .one)
    #expect(PluralRules.category(for: PluralOperands(1.5), locale: "fr") == .one)
    let operands = PluralOperands(decimal: "12.340")!
    #expect((operands.i, operands.v, operands.w, operands.f, operands.t) == (12, 3, 2, 340, 34))
    #expect(PluralOperands(decimal: "1,5") == nil)
  }

  @Test func localesFallBackToTheirLanguage() {
    #expect(PluralRules.category(for: PluralOperands(3), locale: "ru-RU") == .few)
    #expect(PluralRules.category(for: PluralOperands(0), locale: "pt_PT") == .other)
    #expect(PluralRules.category(for: PluralOperands(0), locale: "pt-BR") == .one)
    #expect(PluralRules.category(for: PluralOperands(1), locale: "xx-unknown") == .other)
    #expect(PluralRules.categories(locale: "ar") == [.zero, .one, .two, .few, .many, .other])
    #expect(PluralRules.categories(locale: "ja") == [.other])
  }

  @Test func generatedRulesAreUpToDate() throws {
    for (name, recorded) in PluralRulesTable.sourceHashes {
      let data = try Data(contentsOf: TestSupport.repositoryRoot.appendingPathComponent(name))
      #expect(UnicodeTablesTests.fnv1a64(data) == recorded, "\(name) changed: run scripts/generate-plural-rules.py")
    }
  }
}
