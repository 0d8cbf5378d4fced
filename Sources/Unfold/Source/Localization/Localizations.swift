/// String tables in every language, as an app bundle has them: table name → language → translations.
///
/// Fill it with ``load(_:)`` from `.strings`, `.stringsdict` and `.xcstrings` files, or from folders of
/// `<language>.lproj` folders and catalogs; or with ``add(_:table:language:)`` in code.
///
/// Lookup follows Apple's rules:
/// - the language is chosen once per table: the first of the locale's candidates that the table has
///   (`es-MX`, then `es`), else the development language;
/// - a key missing from that language shows the default value when one is given, else the key itself;
///   there is no per-key fallback to another language;
/// - in a `.xcstrings` catalog, a string with no localization for the language is its key (the source
///   language's text), and units in state `new` with an empty value count as missing.
public struct Localizations: Hashable, Sendable {
  /// The language used when none of the locale's candidates has the table (`CFBundleDevelopmentRegion`).
  public var developmentLanguage: String
  /// The tables: table name → language (lower case, `-` separated) → translations.
  package internal(set) var tables: [String: [String: StringsTable]] = [:]
  /// The entries of `.stringsdict` files, which override the tables' entries.
  package internal(set) var pluralTables: [String: [String: StringsTable]] = [:]

  /// Creates empty localizations.
  public init(developmentLanguage: String = "en") {
    self.developmentLanguage = Self.normalize(developmentLanguage)
  }

  /// Adds a table's translations for a language; entries already there are replaced by the new ones.
  ///
  /// An empty table adds nothing.
  public mutating func add(_ table: StringsTable, table name: String = "Localizable", language: String) {
    guard !table.entries.isEmpty else { return }
    tables[name, default: [:]][Self.normalize(language), default: .empty].merge(table)
  }

  /// The names of the tables.
  package var tableNames: [String] { Set(tables.keys).union(pluralTables.keys).sorted() }

  /// Whether a table exists in some language.
  package func hasTable(_ table: String) -> Bool { tables[table] != nil || pluralTables[table] != nil }

  /// The languages a table has.
  package func languages(table: String = "Localizable") -> [String] {
    Set((tables[table] ?? [:]).keys).union((pluralTables[table] ?? [:]).keys).sorted()
  }

  /// The keys of a table in a language.
  package func keys(table: String = "Localizable", language: String) -> [String] {
    let language = Self.normalize(language)
    let keys = Set((tables[table]?[language]?.entries ?? [:]).keys)
    return keys.union((pluralTables[table]?[language]?.entries ?? [:]).keys).sorted()
  }

  /// The language chosen for `locale` in `table` (see the type's documentation).
  public func language(for locale: String, table: String = "Localizable") -> String {
    let available = Set(languages(table: table))
    for candidate in Self.candidates(for: locale) where available.contains(candidate) {
      return candidate
    }
    return developmentLanguage
  }

  /// The entry for a key in the language chosen for `locale`, or `nil` when that language lacks it.
  package func entry(for key: String, locale: String, table: String = "Localizable") -> LocalizedEntry? {
    guard hasTable(table) else { return nil }  // no language to choose (a key without tables, most of them)
    let language = language(for: locale, table: table)
    return pluralTables[table]?[language]?.entries[key] ?? tables[table]?[language]?.entries[key]
  }

  /// `es_MX` → `es-mx`.
  static func normalize(_ language: String) -> String {
    // A tag in ASCII without `_` or capitals is normal already ("en", "es-mx"): returned as it is, with no
    // Foundation replacing at every paragraph made from a key.
    if language.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "_") && !(0x41...0x5A).contains($0) }) {
      return language
    }
    return language.replacingOccurrences(of: "_", with: "-").lowercased()
  }

  /// A locale's languages, most specific first: `zh-Hant-TW` → `zh-hant-tw`, `zh-hant`, `zh`.
  static func candidates(for locale: String) -> [String] {
    var parts = normalize(locale).split(separator: "-").map(String.init)
    var result: [String] = []
    while !parts.isEmpty {
      result.append(parts.joined(separator: "-"))
      parts.removeLast()
    }
    return result
  }
}
