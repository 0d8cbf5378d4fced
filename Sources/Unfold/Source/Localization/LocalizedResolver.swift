/// Looks a localized key up, in Apple's order: the key's entry, the device and plural forms, the plural
/// variables expanded; the markdown of the translation (or of the key) that ``resolve(_:)`` (in Parse) parses
/// before it fills in the arguments.
struct LocalizedResolver {
  var localizations: Localizations
  var locale: String
  var table: String
  var device: String
  var defaultValue: String?
  var autolinks: Bool

  /// What a lookup met: its diagnostics, and the arguments (1-based) that chose a plural form.
  struct Lookup {
    var diagnostics: [Diagnostic] = []
    var choosers: Set<Int> = []
  }

  /// The markdown of the key's translation (or of the key itself), before parsing and formatting.
  func format(for key: LocalizedKey) -> (String, [Diagnostic]) {
    var lookup = Lookup()
    let format = self.format(for: key, &lookup)
    return (format, lookup.diagnostics)
  }

  /// ``format(for:)``, adding what the lookup met to `lookup`.
  func format(for key: LocalizedKey, _ lookup: inout Lookup) -> String {
    let format: String
    if let entry = localizations.entry(for: key.key, locale: locale, table: table) {
      format = expand(entry, arguments: key.arguments, formatting: key.hasFormatting, &lookup)
    } else {
      if localizations.hasTable(table) {
        let language = localizations.language(for: locale, table: table)
        lookup.diagnostics.append(
          Diagnostic(
            .missingKey, offset: 0,
            message: "no translation of \(key.key.debugDescription) in \(language) (table \(table))"))
      } else if !localizations.tableNames.isEmpty {
        // Tables were loaded, none of this name: most often a table named after its file, not `Localizable`.
        let names = localizations.tableNames.joined(separator: ", ")
        lookup.diagnostics.append(
          Diagnostic(
            .missingTable, offset: 0,
            message: "no table \(table) among the tables loaded (\(names)) to look up \(key.key.debugDescription)"))
      }
      format = defaultValue ?? key.key
    }
    return format
  }

  /// The format of an entry with its device and plural forms chosen and its plural variables expanded.
  private func expand(
    _ entry: LocalizedEntry, arguments: [FormatArgument], formatting: Bool, _ lookup: inout Lookup
  ) -> String {
    let format = choose(entry.value, arguments: arguments, &lookup)
    if !formatting, let first = FormatString(format).specifiers.first {
      // A key without arguments is not formatted (as SwiftUI's): its translation's specifiers show as written.
      lookup.diagnostics.append(
        Diagnostic(
          .missingArgument, offset: 0,
          message: "\(first.text) in the translation is shown as written: the key has no arguments"))
    }
    guard formatting, !entry.substitutions.isEmpty || format.contains("%#@") else { return format }
    return expandVariables(format, entry.substitutions, arguments: arguments, depth: 0, &lookup)
  }

  /// Chooses the device form, then the plural form of a value (a top-level plural varies with the argument
  /// of the first numeric specifier of its `other` form, else the first argument).
  private func choose(
    _ value: LocalizedValue, arguments: [FormatArgument], _ lookup: inout Lookup
  ) -> String {
    switch value {
    case .string(let string):
      return string
    case .device(let forms):
      let chosen = forms[device] ?? forms["other"] ?? forms.sorted { $0.key < $1.key }.first?.value
      return chosen.map { choose($0, arguments: arguments, &lookup) } ?? ""
    case .plural(let forms):
      let other = forms[.other].map { choose($0, arguments: arguments, &lookup) } ?? ""
      let parsed = FormatString(other)
      let numbers = parsed.argumentNumbers
      let index = parsed.specifiers.firstIndex { [.signed, .unsigned, .floating].contains($0.kind) }
      let number = index.map { numbers[$0] } ?? 1
      let category = self.category(of: arguments, number: number, forms: Set(forms.keys), &lookup)
      guard let form = forms[category] ?? forms[.other] else { return other }
      return choose(form, arguments: arguments, &lookup)
    }
  }

  /// The plural category of argument `number` (1-based) in the locale; `zero` for the value 0 whenever the
  /// forms have one, as Apple does.
  private func category(
    of arguments: [FormatArgument], number: Int, forms: Set<PluralCategory>, _ lookup: inout Lookup
  ) -> PluralCategory {
    lookup.choosers.insert(number)
    guard number >= 1, number <= arguments.count, let operands = arguments[number - 1].pluralOperands else {
      lookup.diagnostics.append(
        Diagnostic(
          .missingArgument, offset: 0, message: "no number in argument \(number) to choose a plural form; using other"))
      return .other
    }
    if forms.contains(.zero) && operands.n == 0 && operands.v == 0 { return .zero }
    let category = PluralRules.category(for: operands, locale: locale)
    // A variation with only `other` is a deliberate single form; a missing form among others is a gap.
    if !forms.contains(category) && forms.contains(.other) && category != .other && forms.count > 1 {
      lookup.diagnostics.append(
        Diagnostic(
          .missingPluralForm, offset: 0,
          message: "no \(category.rawValue) form for argument \(number) in \(locale); using other"))
    }
    return category
  }

  /// Replaces each `%#@name@` by the chosen form of its substitution, and makes every specifier positional
  /// so that arguments keep their numbers after the expansion.
  private func expandVariables(
    _ format: String, _ substitutions: [String: PluralSubstitution], arguments: [FormatArgument], depth: Int,
    _ lookup: inout Lookup
  ) -> String {
    let parsed = FormatString(format)
    let numbers = parsed.argumentNumbers
    var result = ""
    var specifierIndex = 0
    for token in parsed.tokens {
      switch token {
      case .literal(let text):
        result += text.replacingOccurrences(of: "%", with: "%%")
      case .specifier(let specifier):
        let number = numbers[specifierIndex]
        specifierIndex += 1
        guard let name = specifier.variable else {
          result += specifier.positioned(number)
          continue
        }
        guard let substitution = substitutions[name], depth < 4 else {
          result += specifier.text  // left for the formatter to report
          continue
        }
        let argument = substitution.argumentNumber ?? number
        let category = self.category(
          of: arguments, number: argument, forms: Set(substitution.forms.keys), &lookup)
        guard let form = substitution.forms[category] ?? substitution.forms[.other] else {
          result += specifier.text
          continue
        }
        let own = form.replacingOccurrences(of: "%arg", with: "%\(argument)$\(substitution.formatSpecifier)")
        result += expandVariables(
          Self.positioning(own, argument: argument), substitutions, arguments: arguments, depth: depth + 1,
          &lookup)
      }
    }
    return result
  }

  /// A plural form's unpositioned specifiers all read the variable's argument.
  private static func positioning(_ form: String, argument: Int) -> String {
    FormatString(form).tokens.map { token -> String in
      switch token {
      case .literal(let text): return text.replacingOccurrences(of: "%", with: "%%")
      case .specifier(let specifier):
        return specifier.position == nil && specifier.variable == nil
          ? specifier.positioned(argument) : specifier.text
      }
    }.joined()
  }
}

extension FormatSpecifier {
  /// The specifier as written, with an explicit argument number.
  func positioned(_ number: Int) -> String {
    var rest = Substring(text.dropFirst())  // after the %
    if position != nil, let dollar = rest.firstIndex(of: "$") { rest = rest[rest.index(after: dollar)...] }
    return "%\(number)$\(rest)"
  }
}
