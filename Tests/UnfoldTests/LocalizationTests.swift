import Foundation
import Testing

@testable import Unfold

/// Localized keys, string tables, lookup and formatting.
@Suite struct LocalizedKeyTests {
  @Test func keysAreBuiltAsSwiftUIBuildsThem() {
    let name = "Ann"
    let count = 3
    let ratio = 0.5
    let small: Int32 = 7
    let unsigned: UInt = 9
    let key: LocalizedKey = "Hi \(name), \(count) items, \(ratio), \(small), \(unsigned), 100% done"
    #expect(key.key == "Hi %@, %lld items, %lf, %d, %llu, 100%% done")
    #expect(key.arguments == [.string("Ann"), .int(3), .double(0.5), .int(7), .uint(9)])
    // Every integer and floating-point type takes SwiftUI's specifier for its width and sign.
    let widths: LocalizedKey =
      "\(Int64(-1)) \(Int8(-2)) \(Int16(3)) \(UInt64(4)) \(UInt8(5)) \(UInt32(6)) \(Float(0.25)) \(7)"
    #expect(widths.key == "%lld %d %d %llu %u %u %f %lld")
    #expect(widths.arguments == [.int(-1), .int(-2), .int(3), .uint(4), .uint(5), .uint(6), .double(0.25), .int(7)])
    #expect(key.hasFormatting)
    let plain: LocalizedKey = "100% plain"
    #expect(plain.key == "100% plain")
    #expect(!plain.hasFormatting)
    let specified: LocalizedKey = "\(3.14159, specifier: "%.2f") and \(255, specifier: "%x")"
    #expect(specified.key == "%.2f and %x")
  }

  @Test func aLiteralWithoutInterpolationIsNotFormatted() {
    #expect(TextSource("100% sure").resolve().text.string == "100% sure")
    let count = 2
    #expect(TextSource("100% of \(count)").resolve().text.string == "100% of 2")
  }

  @Test func markdownIsParsedBeforeArgumentsGoIn() {
    let input = "**not bold** `x`"
    let text = TextSource("Comment: \(input) *end*").resolve().text
    #expect(text.debugDump() == "plain \"Comment: **not bold** `x` \"\nitalic \"end\"\n")
  }

  @Test func aStyledArgumentKeepsItsStylesWhereTheTranslationMovesIt() {
    var localizations = Localizations(developmentLanguage: "en")
    localizations.add(
      StringsTable(["Hello, %@! You have %lld messages": "%2$lld Nachrichten für *%1$@*"]), language: "de")
    let name = StyledText(plain: "Ann").bold()
    let source = TextSource(
      "Hello, \(name)! You have \(3) messages", TextSource.Localization(localizations, locale: "de-AT"))
    #expect(source.resolve().text.debugDump() == "plain \"3 Nachrichten für \"\nbold italic \"Ann\"\n")
  }
}

@Suite struct LocalizationLookupTests {
  func localizations() -> Localizations {
    var result = Localizations(developmentLanguage: "en")
    result.add(StringsTable(["greeting": "Hello", "only.en": "English only"]), language: "en")
    result.add(StringsTable(["greeting": "Hola"]), language: "es")
    result.add(StringsTable(["greeting": "¡Quihubo!"]), language: "es-MX")
    result.add(StringsTable(["greeting": "Bonjour"]), language: "fr")
    return result
  }

  func text(_ key: String, _ locale: String, defaultValue: String? = nil) -> TextSource.Resolved {
    TextSource(LocalizedKey(key), TextSource.Localization(localizations(), locale: locale, defaultValue: defaultValue))
      .resolve()
  }

  @Test func localesFallBackAsApplesDo() {
    #expect(text("greeting", "es-MX").text.string == "¡Quihubo!")
    #expect(text("greeting", "es-AR").text.string == "Hola")
    #expect(text("greeting", "es_ES").text.string == "Hola")
    #expect(text("greeting", "de-DE").text.string == "Hello")
    #expect(text("greeting", "FR").text.string == "Bonjour")
  }

  /// A language tag already normal is returned as it is; any other is normalized as Foundation does it.
  @Test func languageTagsAreNormalizedAsBefore() {
    let tags = [
      "en", "es-mx", "es_MX", "ES", "zh-Hant-TW", "zh_hant_tw", "sr-Latn", "x", "", "de-de", "İt", "ß-DE", "é-fr",
      "EN_us", "a-b-c_d",
    ]
    for tag in tags {
      #expect(Localizations.normalize(tag) == tag.replacingOccurrences(of: "_", with: "-").lowercased(), "\(tag)")
    }
    // A key with no table in the localizations is not looked up (and has no missing-key diagnostic).
    let empty = TextSource(LocalizedKey("greeting"), TextSource.Localization(Localizations(), locale: "es_MX"))
    #expect(empty.resolve().text.string == "greeting")
    #expect(empty.resolve().diagnostics.isEmpty)
  }

  @Test func aMissingKeyShowsTheDefaultValueOrTheKeyWithNoPerKeyFallback() {
    let missing = text("only.en", "fr")
    #expect(missing.text.string == "only.en")
    #expect(missing.diagnostics.map(\.kind) == [.missingKey])
    #expect(text("only.en", "fr", defaultValue: "Défaut").text.string == "Défaut")
    #expect(text("only.en", "en").text.string == "English only")
  }
}

@Suite struct StringsFileTests {
  func read(_ text: String) throws -> [String: String] {
    try Localizations.readStrings(Data(text.utf8), file: "t.strings").entries.mapValues {
      guard case .string(let value) = $0.value else { return "?" }
      return value
    }
  }

  func error(_ data: Data) -> String? {
    do {
      _ = try Localizations.readStrings(data, file: "t.strings")
      return nil
    } catch {
      return error.description
    }
  }

  @Test func commentsEscapesAndForms() throws {
    let table = try read(
      """
      /* block
         comment */
      // line comment
      "tab" = "a\\tb\\"q\\"\\n\\\\";
      "uni" = "\\U00e9\\UD83D\\UDE00 \\101";
      "same";
      unquoted = value_1;
      'single' = 'quotes';
      "dup" = "first"; "dup" = "second";
      """)
    #expect(table["tab"] == "a\tb\"q\"\n\\")
    #expect(table["uni"] == "é😀 A")
    #expect(table["same"] == "same")
    #expect(table["unquoted"] == "value_1")
    #expect(table["single"] == "quotes")
    #expect(table["dup"] == "second")
  }

  @Test func utf16BothByteOrdersWithAndWithoutBOM() throws {
    let text = "\"k\" = \"välue 😀\";"
    let utf16 = Array(text.utf16)
    let little = utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let big = utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    for bytes in [[0xFF, 0xFE] + little, [0xFE, 0xFF] + big, little, big, [0xEF, 0xBB, 0xBF] + Array(text.utf8)] {
      let table = try Localizations.readStrings(Data(bytes), file: "t.strings")
      #expect(table.entries["k"]?.value == .string("välue 😀"))
    }
  }

  @Test func malformedFilesNameTheLineColumnAndWhatWasExpected() {
    #expect(
      error(Data("\"a\" = \"b\"\n\"c\" = \"d\";".utf8))
        == "t.strings:2:1: expected ';' after the value of \"a\", found '\"'")
    #expect(error(Data("\"a\" = \"b".utf8)) == "t.strings:1:7: unterminated string: expected a closing \"")
    #expect(
      error(Data("\"a\" = { \"x\" = \"y\"; };".utf8))
        == "t.strings:1:7: expected a string value for \"a\", found a nested dictionary")
    #expect(error(Data("/* open".utf8)) == "t.strings:1:1: unterminated comment: expected '*/'")
    #expect(error(Data("\"a\" \"b\";".utf8)) == "t.strings:1:5: expected '=' or ';' after the key \"a\", found '\"'")
    #expect(error(Data([0x22, 0x61, 0x22, 0x3B, 0xFF])) == "t.strings: invalid UTF-8 at byte 4")
  }

  @Test func aLoneSurrogateBecomesAReplacementCharacter() throws {
    #expect(try read("\"k\" = \"a\\UD83Db\";")["k"] == "a\u{FFFD}b")
  }
}

@Suite struct StringsDictAndCatalogTests {
  static let stringsdict = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>%lld apples</key>
      <dict>
        <key>NSStringLocalizedFormatKey</key>
        <string>%#@apples@</string>
        <key>apples</key>
        <dict>
          <key>NSStringFormatSpecTypeKey</key>
          <string>NSStringPluralRuleType</string>
          <key>NSStringFormatValueTypeKey</key>
          <string>lld</string>
          <key>zero</key>
          <string>no apples</string>
          <key>one</key>
          <string>%lld apple</string>
          <key>few</key>
          <string>%lld apples (few)</string>
          <key>other</key>
          <string>%lld apples</string>
        </dict>
      </dict>
    </dict>
    </plist>
    """

  func localizations(_ files: [(name: String, text: String)]) throws -> (Localizations, [LocalizationError]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-l10n-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, text) in files {
      let url = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    var result = Localizations()
    let errors = result.load(folder.path).map {
      var error = $0
      error.file = URL(fileURLWithPath: error.file).lastPathComponent
      return error
    }
    return (result, errors)
  }

  func show(_ key: LocalizedKey, _ localizations: Localizations, _ locale: String, device: String = "other") -> String {
    TextSource(key, TextSource.Localization(localizations, locale: locale, device: device)).resolve().text.string
  }

  @Test func pluralVariablesOverrideStringsAndZeroIsApples() throws {
    let (localizations, errors) = try localizations([
      ("en.lproj/Localizable.strings", "\"%lld apples\" = \"(from .strings) %lld apples\";"),
      ("en.lproj/Localizable.stringsdict", Self.stringsdict),
      ("ru.lproj/Localizable.stringsdict", Self.stringsdict),
    ])
    #expect(errors.isEmpty)
    #expect(show("\(0) apples", localizations, "en") == "no apples")
    #expect(show("\(1) apples", localizations, "en") == "1 apple")
    #expect(show("\(2) apples", localizations, "en") == "2 apples")
    #expect(show("\(3) apples", localizations, "ru") == "3 apples (few)")
  }

  /// A form that leaves its number out ("no apples") reads the argument that chose it: no extra argument.
  ///
  /// Too many arguments, a table the tables lack and a translation's specifiers without arguments are reported, never
  /// silent (issue 37, items 1 and 2).
  @Test func argumentAndTableProblemsAreDiagnostics() throws {
    let (localizations, _) = try localizations([("en.lproj/Localizable.stringsdict", Self.stringsdict)])
    func diagnostics(_ key: LocalizedKey, table: String = "Localizable") -> [Diagnostic.Kind] {
      TextSource(key, TextSource.Localization(localizations, locale: "en", table: table)).resolve().diagnostics
        .map(\.kind)
    }
    #expect(diagnostics("\(0) apples").isEmpty)
    #expect(show("\(0) apples", localizations, "en") == "no apples")
    #expect(diagnostics(LocalizedKey("%lld apples", arguments: [.int(1), .int(2)])) == [.unusedArgument])
    #expect(diagnostics("\(1) apples", table: "Errors") == [.missingTable])
    // Without arguments the key is not formatted (as SwiftUI's): the translation shows as written.
    #expect(show(LocalizedKey("%lld apples"), localizations, "en") == "%#@apples@")
    #expect(diagnostics(LocalizedKey("%lld apples")) == [.missingArgument])
  }

  @Test func catalogsWithDeviceVariationsSubstitutionsAndStates() throws {
    let catalog = """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "tap" : { "localizations" : {
            "en" : { "variations" : { "device" : {
              "ipad" : { "stringUnit" : { "state" : "translated", "value" : "Tap (iPad)" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "Tap" } } } } },
            "de" : { "stringUnit" : { "state" : "new", "value" : "" } } } },
          "%@ has %lld photos" : { "localizations" : {
            "en" : {
              "stringUnit" : { "state" : "translated", "value" : "%1$@ has %#@photos@" },
              "substitutions" : { "photos" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
                "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg photo" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg photos" } } } } } } },
            "pl" : {
              "stringUnit" : { "state" : "needs_review", "value" : "%1$@ ma %#@photos@" },
              "substitutions" : { "photos" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
                "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg zdjęcie" } },
                "few" : { "stringUnit" : { "state" : "translated", "value" : "%arg zdjęcia" } },
                "many" : { "stringUnit" : { "state" : "translated", "value" : "%arg zdjęć" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg zdjęcia" } } } } } } } } },
          "Untranslated" : { },
          "ok" : { "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "gut" } } } }
        },
        "version" : "1.0"
      }
      """
    let (localizations, errors) = try localizations([("Localizable.xcstrings", catalog)])
    #expect(errors.isEmpty)
    #expect(show("tap", localizations, "en", device: "ipad") == "Tap (iPad)")
    #expect(show("tap", localizations, "en", device: "mac") == "Tap")
    #expect(show("tap", localizations, "de") == "tap")
    #expect(show("Untranslated", localizations, "en") == "Untranslated")
    let ann = "Ann"
    #expect(show("\(ann) has \(1) photos", localizations, "en") == "Ann has 1 photo")
    #expect(show("\(ann) has \(22) photos", localizations, "pl") == "Ann ma 22 zdjęcia")
    #expect(show("\(ann) has \(25) photos", localizations, "pl") == "Ann ma 25 zdjęć")
    // German has no translation of it: the key in English, the number written for German.
    #expect(show("\(ann) has \(1_000) photos", localizations, "de") == "Ann has 1.000 photos")
  }

  @Test func malformedTablesAreReportedAndTheOthersStillLoad() throws {
    let (localizations, errors) = try localizations([
      ("en.lproj/Good.strings", "\"ok\" = \"fine\";"),
      ("en.lproj/Bad.strings", "\"a\" = \"b\"\n\"c\" = \"d\""),
      (
        "Wrong.xcstrings",
        "{ \"sourceLanguage\" : \"en\", \"strings\" : { \"k\" : { \"localizations\" : { \"en\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : 5 } } } } } }"
      ),
      ("Broken.xcstrings", "{ \"sourceLanguage\" : \"en\", \"strings\" : { \"k\" : [ } }"),
      ("en.lproj/Bad.stringsdict", "<plist><dict><key>k</key><string>no dict</string></dict></plist>"),
      ("en.lproj/Unclosed.stringsdict", "<plist><dict><key>k</key>"),
    ])
    #expect(localizations.entry(for: "ok", locale: "en", table: "Good") != nil)
    let messages = errors.map(\.description).sorted()
    #expect(messages.count == 5)
    #expect(messages.contains("Bad.strings:2:1: expected ';' after the value of \"a\", found '\"'"))
    #expect(
      messages.contains("Wrong.xcstrings:1:130: expected a string for the value of \"k\" in en, found the value 5"))
    #expect(messages.contains("Broken.xcstrings:1:50: expected a value, found '}'"))
    #expect(messages.contains("Bad.stringsdict:1:26: expected a dictionary for the entry \"k\", found a string"))
    #expect(
      messages.contains(
        "Unclosed.stringsdict:1:26: not a well-formed property list (the document ends before its elements are closed)")
    )
  }
}

/// `Localizations.check()`: every key of every table resolved in every language, and a summary that counts what
/// it names.
@Suite struct LocalizationCheckTests {
  /// A folder of `<language>.lproj/Localizable.strings` tables, each from its lines.
  static func tables(_ languages: [String: String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-check-\(UUID())")
    for (language, strings) in languages {
      let lproj = folder.appendingPathComponent("\(language).lproj")
      try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
      try Data(strings.utf8).write(to: lproj.appendingPathComponent("Localizable.strings"))
    }
    return folder
  }

  @Test func theSummaryCountsKeysLanguagesAndTranslations() throws {
    let folder = try Self.tables([
      "en": "\"greeting\" = \"Hello\";\n\"bye\" = \"Bye\";\n",
      "fr": "\"greeting\" = \"Bonjour\";\n\"bye\" = \"Salut\";\n",
      "de": "\"greeting\" = \"Hallo\";\n\"bye\" = \"Tschüss\";\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    var localizations = Localizations()
    #expect(localizations.load(folder.path).isEmpty)
    let report = localizations.check()
    #expect(report.summary == "checked 2 keys in 3 languages (6 translations, 1 table): no problems")
    let one = Localizations.Report(resolved: 1, keys: 1, languages: 1, tables: 1, findings: report.findings)
    #expect(one.summary == "checked 1 key in 1 language (1 translation, 1 table): no problems")
  }

  /// Emphasis that a translation cannot open or close is reported with its language and key; markers that are
  /// literal by design are not.
  @Test func markersLeftLiteralInATranslationAreReported() throws {
    let folder = try Self.tables([
      "en": "\"reply\" = \"**%1$@** replied\";\n\"math\" = \"2*3 and 5 * 3 in file_name\";\n",
      "ja": "\"reply\" = \"**%1$@**さんが返信しました\";\n\"math\" = \"2*3 と \\\\*そのまま\\\\*\";\n",
      "de": "\"reply\" = \"~~%1$@~~hat geantwortet\";\n\"math\" = \"`**` bleibt\";\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    var localizations = Localizations()
    #expect(localizations.load(folder.path).isEmpty)
    let findings = localizations.check().findings
    #expect(
      findings.map(\.description) == [
        "Localizable/de: \"reply\": ~~ stays literal: by CommonMark's flanking rules it neither opens nor closes here, as in SwiftUI",
        "Localizable/ja: \"reply\": ** stays literal: by CommonMark's flanking rules it neither opens nor closes here, as in SwiftUI",
      ])
    #expect(findings.allSatisfy { $0.diagnostic.kind == .literalMarkup })
  }
}
