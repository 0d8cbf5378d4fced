import Foundation

extension Localizations {
  /// Loads string tables from a file or a folder, and returns the problems, one per bad file: a bad file
  /// never takes the others down.
  ///
  /// - A `.strings` or `.stringsdict` file belongs to the language of the `<language>.lproj` folder it is in
  ///   (`Base.lproj`, or no such folder: the development language); its table is its file name.
  /// - A `.xcstrings` catalog holds every language of its table; its `sourceLanguage` becomes the development
  ///   language.
  /// - A folder is searched (six levels deep) for `.lproj` folders and catalogs.
  ///
  /// Within a language, `.stringsdict` entries override `.strings` entries, whatever the order of loading.
  @discardableResult
  public mutating func load(_ path: String) -> [LocalizationError] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      return [LocalizationError(file: path, message: "no such file or folder")]
    }
    if !isFolder.boolValue { return loadFile(path).map { [$0] } ?? [] }
    var problems: [LocalizationError] = []
    for file in Self.tableFiles(in: URL(fileURLWithPath: path), depth: 0) {
      if let problem = loadFile(file) { problems.append(problem) }
    }
    return problems
  }

  /// Loads one file; the problem, if any.
  private mutating func loadFile(_ path: String) -> LocalizationError? {
    let url = URL(fileURLWithPath: path)
    let table = url.deletingPathExtension().lastPathComponent
    let folder = url.deletingLastPathComponent().lastPathComponent
    let language =
      folder.hasSuffix(".lproj") && folder != "Base.lproj" ? String(folder.dropLast(6)) : developmentLanguage
    guard let data = FileManager.default.contents(atPath: path) else {
      return LocalizationError(file: path, message: "cannot read the file")
    }
    do {
      switch url.pathExtension {
      case "strings":
        add(try Self.readStrings(data, file: path), table: table, language: language)
      case "stringsdict":
        let entries = try Self.readStringsDict(data, file: path)
        if !entries.entries.isEmpty {
          pluralTables[table, default: [:]][Self.normalize(language), default: .empty].merge(entries)
        }
      case "xcstrings":
        let catalog = try Self.readCatalog(data, file: path)
        developmentLanguage = Self.normalize(catalog.sourceLanguage)
        for (language, entries) in catalog.languages {
          add(entries, table: table, language: language)
        }
      default:
        return LocalizationError(file: path, message: "expected a .strings, .stringsdict or .xcstrings file")
      }
      return nil
    } catch {
      return error
    }
  }

  /// The table files below a folder, `.strings` before `.stringsdict`, in a stable order.
  private static func tableFiles(in folder: URL, depth: Int) -> [String] {
    guard depth <= 6,
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { return [] }
    var files: [String] = []
    for name in names.sorted() where !name.hasPrefix(".") {
      let url = folder.appendingPathComponent(name)
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
      if isFolder.boolValue {
        files += tableFiles(in: url, depth: depth + 1)
      } else if ["strings", "stringsdict", "xcstrings"].contains(url.pathExtension) {
        files.append(url.path)
      }
    }
    return files
  }

  // MARK: - .strings

  /// The pairs of a `.strings` file (text in UTF-8 or UTF-16, or a binary property list).
  static func readStrings(_ data: Data, file: String) throws(LocalizationError) -> StringsTable {
    if data.starts(with: Array("bplist".utf8)) {
      let node = try PropertyListReader.read(data, file: file)
      var strings: [String: String] = [:]
      for (key, value) in try node.dictionary(file, "the table") {
        strings[key] = try value.string(file, "the value of \(key.debugDescription)")
      }
      return StringsTable(strings)
    }
    let text = try TableText.decode(Array(data), file: file)
    var parser = StringsFileParser(text, file: file)
    var strings: [String: String] = [:]
    for (key, value) in try parser.parse() { strings[key] = value }
    return StringsTable(strings)
  }

  // MARK: - .stringsdict

  /// The entries of a `.stringsdict` file: a format (`NSStringLocalizedFormatKey`) and its plural variables.
  static func readStringsDict(_ data: Data, file: String) throws(LocalizationError) -> StringsTable {
    let root = try PropertyListReader.read(data, file: file)
    var entries: [String: LocalizedEntry] = [:]
    for (key, node) in try root.dictionary(file, "the table") {
      let members = try node.dictionary(file, "the entry \(key.debugDescription)")
      guard let formatNode = node.member("NSStringLocalizedFormatKey") else {
        throw node.error(file, "expected NSStringLocalizedFormatKey in the entry \(key.debugDescription)")
      }
      let format = try formatNode.string(file, "NSStringLocalizedFormatKey of \(key.debugDescription)")
      var substitutions: [String: PluralSubstitution] = [:]
      for (name, variable) in members where name != "NSStringLocalizedFormatKey" {
        guard case .dictionary = variable.value else { continue }  // e.g. a comment string
        let what = "the variable \(name) of \(key.debugDescription)"
        let type = try variable.member("NSStringFormatSpecTypeKey")?.string(
          file, "NSStringFormatSpecTypeKey of \(what)")
        let valueType =
          try variable.member("NSStringFormatValueTypeKey")?.string(file, "NSStringFormatValueTypeKey of \(what)")
          ?? "@"
        var forms: [PluralCategory: String] = [:]
        for category in PluralCategory.allCases {
          if let form = variable.member(category.rawValue) {
            forms[category] = try form.string(file, "the \(category.rawValue) form of \(what)")
          }
        }
        if type != nil && type != "NSStringPluralRuleType" {
          // Other rule types (width, device) are not plural rules: their `other` form serves.
          forms = forms[.other].map { [.other: $0] } ?? [:]
        }
        guard forms[.other] != nil else { throw variable.error(file, "expected an 'other' form in \(what)") }
        substitutions[name] = PluralSubstitution(formatSpecifier: valueType, forms: forms)
      }
      entries[key] = LocalizedEntry(.string(format), substitutions: substitutions)
    }
    return StringsTable(entries: entries)
  }

  // MARK: - .xcstrings

  /// A String Catalog: its source language and its translations by language.
  struct Catalog {
    var sourceLanguage: String
    var languages: [String: StringsTable]
  }

  /// Reads a String Catalog (JSON): `stringUnit`s, `variations.plural`, `variations.device` (nested plurals
  /// too) and `substitutions` with `argNum` and `formatSpecifier`.
  ///
  /// Units in state `new` with an empty value are missing; a string with no localization is its key in the source
  /// language; a string marked `shouldTranslate: false` shows its source value in every language.
  static func readCatalog(_ data: Data, file: String) throws(LocalizationError) -> Catalog {
    var reader = JSONReader(Array(data), file: file)
    let root = try reader.read()
    _ = try root.dictionary(file, "the catalog")
    guard let sourceNode = root.member("sourceLanguage") else {
      throw root.error(file, "expected \"sourceLanguage\" in the catalog")
    }
    let source = try sourceNode.string(file, "\"sourceLanguage\"")
    guard let stringsNode = root.member("strings") else {
      throw root.error(file, "expected \"strings\" in the catalog")
    }
    var languages: [String: [String: LocalizedEntry]] = [:]
    var untranslatable: [(key: String, entry: LocalizedEntry)] = []
    for (key, node) in try stringsNode.dictionary(file, "\"strings\"") {
      _ = try node.dictionary(file, "the string \(key.debugDescription)")
      var sourceEntry = LocalizedEntry(.string(key))
      if let localizations = node.member("localizations") {
        for (language, localization) in try localizations.dictionary(
          file, "the localizations of \(key.debugDescription)")
        {
          let what = "\(key.debugDescription) in \(language)"
          guard let entry = try catalogEntry(localization, file: file, what: what) else { continue }
          languages[language, default: [:]][key] = entry
          if language == source { sourceEntry = entry }
        }
      }
      if languages[source]?[key] == nil { languages[source, default: [:]][key] = sourceEntry }
      if case .scalar("false") = node.member("shouldTranslate")?.value {
        untranslatable.append((key, sourceEntry))
      }
    }
    for (key, entry) in untranslatable {
      for language in languages.keys where languages[language]?[key] == nil { languages[language]?[key] = entry }
    }
    return Catalog(sourceLanguage: source, languages: languages.mapValues { StringsTable(entries: $0) })
  }

  /// One language of one catalog string; `nil` when it has no usable value.
  private static func catalogEntry(_ node: DocumentNode, file: String, what: String) throws(LocalizationError)
    -> LocalizedEntry?
  {
    _ = try node.dictionary(file, what)
    guard let value = try catalogValue(node, file: file, what: what) else { return nil }
    var substitutions: [String: PluralSubstitution] = [:]
    if let substitutionsNode = node.member("substitutions") {
      for (name, substitution) in try substitutionsNode.dictionary(file, "the substitutions of \(what)") {
        let where_ = "the substitution \(name) of \(what)"
        _ = try substitution.dictionary(file, where_)
        var argumentNumber: Int?
        if let argNode = substitution.member("argNum") {
          guard case .scalar(let text) = argNode.value, let number = Int(text), number >= 1 else {
            throw argNode.error(
              file, "expected a positive whole number for \"argNum\" of \(where_), found \(argNode.kind)")
          }
          argumentNumber = number
        }
        let specifier =
          try substitution.member("formatSpecifier")?.string(file, "\"formatSpecifier\" of \(where_)") ?? "lld"
        guard case .plural(let forms)? = try catalogValue(substitution, file: file, what: where_) else {
          throw substitution.error(file, "expected plural variations in \(where_)")
        }
        var strings: [PluralCategory: String] = [:]
        for (category, form) in forms {
          if case .string(let text) = form { strings[category] = text }
        }
        substitutions[name] = PluralSubstitution(
          argumentNumber: argumentNumber, formatSpecifier: specifier, forms: strings)
      }
    }
    return LocalizedEntry(value, substitutions: substitutions)
  }

  /// A `stringUnit` or `variations` node as a value; `nil` when there is nothing usable.
  private static func catalogValue(_ node: DocumentNode, file: String, what: String) throws(LocalizationError)
    -> LocalizedValue?
  {
    if let unit = node.member("stringUnit") {
      _ = try unit.dictionary(file, "the stringUnit of \(what)")
      guard let valueNode = unit.member("value") else {
        throw unit.error(file, "expected \"value\" in the stringUnit of \(what)")
      }
      let value = try valueNode.string(file, "the value of \(what)")
      let state = try unit.member("state")?.string(file, "the state of \(what)") ?? "translated"
      if state == "new" && value.isEmpty { return nil }
      return .string(value)
    }
    guard let variations = node.member("variations") else { return nil }
    _ = try variations.dictionary(file, "the variations of \(what)")
    if let plural = variations.member("plural") {
      var forms: [PluralCategory: LocalizedValue] = [:]
      for (name, form) in try plural.dictionary(file, "the plural variations of \(what)") {
        guard let category = PluralCategory(rawValue: name) else {
          throw form.error(
            file,
            "expected a plural category (zero, one, two, few, many, other) in \(what), found \(name.debugDescription)")
        }
        if let value = try catalogValue(form, file: file, what: "the \(name) form of \(what)") {
          forms[category] = value
        }
      }
      return forms.isEmpty ? nil : .plural(forms)
    }
    if let device = variations.member("device") {
      var forms: [String: LocalizedValue] = [:]
      for (name, form) in try device.dictionary(file, "the device variations of \(what)") {
        if let value = try catalogValue(form, file: file, what: "the \(name) form of \(what)") { forms[name] = value }
      }
      return forms.isEmpty ? nil : .device(forms)
    }
    throw variations.error(file, "expected \"plural\" or \"device\" in the variations of \(what)")
  }
}
