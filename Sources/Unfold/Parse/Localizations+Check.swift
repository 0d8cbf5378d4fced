extension Localizations {
  /// What checking one key in one language found.
  public struct Finding: Hashable, Sendable, CustomStringConvertible {
    /// The table.
    public var table: String
    /// The language.
    public var language: String
    /// The key.
    public var key: String
    /// What the resolution reported.
    public var diagnostic: Diagnostic

    /// `table/language: "key": message`.
    public var description: String {
      "\(table)/\(language): \(key.debugDescription): \(diagnostic.message)"
    }
  }

  /// What ``check()`` found.
  public struct Report: Hashable, Sendable {
    /// The number of keys resolved: (table, language, key) triples.
    public var resolved: Int
    /// What the resolutions reported, in order of their descriptions.
    public var findings: [Finding]
  }

  /// Resolves every key of every table in every language it has, with sample arguments for its specifiers
  /// (each number from 0 to 3, then 5, 11, 21 and 101, so that every plural form is reached; `x` for text),
  /// and returns what the resolutions reported.
  public func check() -> Report {
    var findings: Set<Finding> = []
    var resolved = 0
    for table in tableNames {
      for language in languages(table: table) {
        for key in keys(table: table, language: language) {
          resolved += 1
          let kinds = Self.argumentKinds(key: key, entry: entry(for: key, locale: language, table: table))
          for number in [0, 1, 2, 3, 5, 11, 21, 101] {
            let arguments = kinds.map { kind -> FormatArgument in
              switch kind {
              case .signed, .unsigned, .floating: return .text(String(number))
              case .character: return .text("65")
              default: return .text("x")
              }
            }
            let source = TextSource(
              kinds.isEmpty ? LocalizedKey(key) : LocalizedKey(key, arguments: arguments),
              TextSource.Localization(self, locale: language, table: table))
            for diagnostic in source.resolve().diagnostics {
              findings.insert(Finding(table: table, language: language, key: key, diagnostic: diagnostic))
            }
          }
        }
      }
    }
    return Report(resolved: resolved, findings: findings.sorted { $0.description < $1.description })
  }

  /// The kind of each argument a key takes: from the key's own specifiers, else from the translation's
  /// (a key such as `files_count` whose translation reads `%lld files`).
  private static func argumentKinds(key: String, entry: LocalizedEntry?) -> [FormatSpecifier.Kind] {
    var formats = [key]
    if FormatString(key).specifiers.isEmpty, let entry {
      formats = strings(of: entry.value) + entry.substitutions.values.flatMap { $0.forms.values }
    }
    var kinds: [Int: FormatSpecifier.Kind] = [:]
    for format in formats {
      let parsed = FormatString(format)
      for (specifier, number) in zip(parsed.specifiers, parsed.argumentNumbers) where kinds[number] == nil {
        if specifier.kind == .variable {
          let substitution = entry?.substitutions[specifier.variable ?? ""]
          kinds[substitution?.argumentNumber ?? number] = .signed
        } else {
          kinds[number] = specifier.kind
        }
      }
      for substitution in entry?.substitutions.values.map({ $0 }) ?? [] {
        if let number = substitution.argumentNumber, kinds[number] == nil { kinds[number] = .signed }
      }
    }
    let count = kinds.keys.max() ?? 0
    return (0..<count).map { kinds[$0 + 1] ?? .object }
  }

  private static func strings(of value: LocalizedValue) -> [String] {
    switch value {
    case .string(let string): return [string]
    case .plural(let forms): return forms.values.flatMap(strings(of:))
    case .device(let forms): return forms.values.flatMap(strings(of:))
    }
  }
}
