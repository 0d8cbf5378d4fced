extension Localizations {
  /// What checking one key in one language found.
  package struct Finding: Hashable, Sendable, CustomStringConvertible {
    /// The table.
    package var table: String
    /// The language.
    package var language: String
    /// The key.
    package var key: String
    /// What the resolution reported.
    package var diagnostic: Diagnostic

    /// `table/language: "key": message`.
    package var description: String {
      "\(table)/\(language): \(key.debugDescription): \(diagnostic.message)"
    }
  }

  /// What ``check()`` found.
  package struct Report: Hashable, Sendable {
    /// The number of translations resolved: (table, language, key) triples.
    package var resolved: Int
    /// The number of distinct keys: (table, key) pairs.
    package var keys: Int
    /// The number of distinct languages.
    package var languages: Int
    /// The number of tables.
    package var tables: Int
    /// What the resolutions reported, in order of their descriptions.
    package var findings: [Finding]

    /// One line in English: `checked 2 keys in 3 languages (6 translations, 1 table): no problems`.
    package var summary: String {
      func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
      let problems = findings.isEmpty ? "no problems" : count(findings.count, "problem")
      return
        "checked \(count(keys, "key")) in \(count(languages, "language")) (\(count(resolved, "translation")), \(count(tables, "table"))): \(problems)"
    }
  }

  /// Resolves every key of every table in every language it has, with sample arguments for its specifiers
  /// (each number from 0 to 3, then 5, 11, 21 and 101, so that every plural form is reached; `x` for text),
  /// and returns what the resolutions reported.
  package func check() -> Report {
    var findings: Set<Finding> = []
    var resolved = 0
    var (keysSeen, languagesSeen) = (Set<[String]>(), Set<String>())
    for table in tableNames {
      for language in languages(table: table) {
        languagesSeen.insert(language)
        for key in keys(table: table, language: language) {
          resolved += 1
          keysSeen.insert([table, key])
          let entry = entry(for: key, locale: language, table: table)
          let kinds = Self.argumentKinds(key: key, entry: entry)
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
            let resolved = source.resolve()
            var diagnostics = resolved.diagnostics
            if let literal = Self.literalMarkup(in: resolved.text, escaped: Self.escapedMarkers(of: entry, key: key)) {
              diagnostics.append(literal)
            }
            for diagnostic in diagnostics {
              findings.insert(Finding(table: table, language: language, key: key, diagnostic: diagnostic))
            }
          }
        }
      }
    }
    return Report(
      resolved: resolved, keys: keysSeen.count, languages: languagesSeen.count, tables: tableNames.count,
      findings: findings.sorted { $0.description < $1.description })
  }

  /// The first run of emphasis or strikethrough markers that the markdown left literal in `text` (outside code)
  /// where the translation meant markup, as a ``Diagnostic/Kind/literalMarkup``: a run of two or more (`**`), or a
  /// single marker that another literal one of its kind pairs with (`*a*b` cut by a flanking rule).
  ///
  /// A marker between spaces (`5 * 3`), alone (`2*3`), inside a word (`file_name`) or escaped by the translation (one
  /// of `escaped`) is literal by design.
  static func literalMarkup(in text: StyledText, escaped: Set<Character>) -> Diagnostic? {
    var candidates: [(markers: String, offset: Int)] = []
    var offset = 0
    for run in text.runs {
      defer { offset += run.length }
      guard !run.style.traits.contains(.code) else { continue }
      let utf8 = text.string.utf8
      let start = utf8.index(utf8.startIndex, offsetBy: offset)
      let characters = Array(text.string[start..<utf8.index(start, offsetBy: run.length)])
      var (i, at) = (0, offset)
      while i < characters.count {
        let marker = characters[i]
        guard "*_~".contains(marker), !escaped.contains(marker) else {
          at += marker.utf8.count
          i += 1
          continue
        }
        var j = i
        while j < characters.count, characters[j] == marker { j += 1 }
        let before = i > 0 ? characters[i - 1] : nil
        let after = j < characters.count ? characters[j] : nil
        func isText(_ character: Character?) -> Bool { character.map { !$0.isWhitespace } ?? false }
        func isWordy(_ character: Character?) -> Bool { character.map { $0.isLetter || $0.isNumber } ?? false }
        if (isText(before) || isText(after)) && !(marker == "_" && isWordy(before) && isWordy(after)) {
          candidates.append((String(characters[i..<j]), at))
        }
        at += j - i
        i = j
      }
    }
    guard
      let first = candidates.first(where: { candidate in
        candidate.markers.count >= 2 || candidates.filter { $0.markers.first == candidate.markers.first }.count >= 2
      })
    else { return nil }
    return Diagnostic(
      .literalMarkup, offset: first.offset,
      message:
        "\(first.markers) stays literal: by CommonMark's flanking rules it neither opens nor closes here, as in SwiftUI"
    )
  }

  /// The markers a translation escapes (`\*`), which it means to show.
  private static func escapedMarkers(of entry: LocalizedEntry?, key: String) -> Set<Character> {
    let formats = entry.map { strings(of: $0.value) + $0.substitutions.values.flatMap { $0.forms.values } } ?? [key]
    var escaped: Set<Character> = []
    for format in formats {
      for marker in "*_~" where format.contains("\\\(marker)") { escaped.insert(marker) }
    }
    return escaped
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
