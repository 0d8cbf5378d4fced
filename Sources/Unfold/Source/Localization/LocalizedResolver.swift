/// Turns a localized key into styled text, in Apple's order: look the key up, choose the device and plural
/// forms, expand plural variables, parse the translated format as markdown, then fill in the arguments (so
/// markdown inside an argument stays literal, and a styled argument keeps its styles wherever the
/// translation moves it).
struct LocalizedResolver {
  var localizations: Localizations
  var locale: String
  var table: String
  var device: String
  var defaultValue: String?

  func resolve(_ key: LocalizedKey) -> TextSource.Resolved {
    var (format, diagnostics) = self.format(for: key)
    let parsed = MarkdownParser.parse(format)
    diagnostics += parsed.diagnostics
    guard key.hasFormatting else { return TextSource.Resolved(text: parsed.text, diagnostics: diagnostics) }
    let formatted = LocalizedFormatter(locale: locale).format(parsed.text, arguments: key.arguments)
    return TextSource.Resolved(text: formatted.text, diagnostics: diagnostics + formatted.diagnostics)
  }

  /// The markdown of the key's translation (or of the key itself), before parsing and formatting.
  func format(for key: LocalizedKey) -> (String, [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    let format: String
    if let entry = localizations.entry(for: key.key, locale: locale, table: table) {
      format = expand(entry, arguments: key.arguments, formatting: key.hasFormatting, &diagnostics)
    } else {
      if localizations.hasTable(table) {
        let language = localizations.language(for: locale, table: table)
        diagnostics.append(
          Diagnostic(
            .missingKey, offset: 0,
            message: "no translation of \(key.key.debugDescription) in \(language) (table \(table))"))
      }
      format = defaultValue ?? key.key
    }
    return (format, diagnostics)
  }

  /// The format of an entry with its device and plural forms chosen and its plural variables expanded.
  private func expand(
    _ entry: LocalizedEntry, arguments: [FormatArgument], formatting: Bool, _ diagnostics: inout [Diagnostic]
  ) -> String {
    let format = choose(entry.value, arguments: arguments, &diagnostics)
    guard formatting, !entry.substitutions.isEmpty || format.contains("%#@") else { return format }
    return expandVariables(format, entry.substitutions, arguments: arguments, depth: 0, &diagnostics)
  }

  /// Chooses the device form, then the plural form of a value (a top-level plural varies with the argument
  /// of the first numeric specifier of its `other` form, else the first argument).
  private func choose(
    _ value: LocalizedValue, arguments: [FormatArgument], _ diagnostics: inout [Diagnostic]
  ) -> String {
    switch value {
    case .string(let string):
      return string
    case .device(let forms):
      let chosen = forms[device] ?? forms["other"] ?? forms.sorted { $0.key < $1.key }.first?.value
      return chosen.map { choose($0, arguments: arguments, &diagnostics) } ?? ""
    case .plural(let forms):
      let other = forms[.other].map { choose($0, arguments: arguments, &diagnostics) } ?? ""
      let parsed = FormatString(other)
      let numbers = parsed.argumentNumbers
      let index = parsed.specifiers.firstIndex { [.signed, .unsigned, .floating].contains($0.kind) }
      let number = index.map { numbers[$0] } ?? 1
      let category = self.category(of: arguments, number: number, forms: Set(forms.keys), &diagnostics)
      guard let form = forms[category] ?? forms[.other] else { return other }
      return choose(form, arguments: arguments, &diagnostics)
    }
  }

  /// The plural category of argument `number` (1-based) in the locale; `zero` for the value 0 whenever the
  /// forms have one, as Apple does.
  private func category(
    of arguments: [FormatArgument], number: Int, forms: Set<PluralCategory>, _ diagnostics: inout [Diagnostic]
  ) -> PluralCategory {
    guard number >= 1, number <= arguments.count, let operands = arguments[number - 1].pluralOperands else {
      diagnostics.append(
        Diagnostic(
          .missingArgument, offset: 0, message: "no number in argument \(number) to choose a plural form; using other"))
      return .other
    }
    if forms.contains(.zero) && operands.n == 0 && operands.v == 0 { return .zero }
    let category = PluralRules.category(for: operands, locale: locale)
    // A variation with only `other` is a deliberate single form; a missing form among others is a gap.
    if !forms.contains(category) && forms.contains(.other) && category != .other && forms.count > 1 {
      diagnostics.append(
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
    _ diagnostics: inout [Diagnostic]
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
          of: arguments, number: argument, forms: Set(substitution.forms.keys), &diagnostics)
        guard let form = substitution.forms[category] ?? substitution.forms[.other] else {
          result += specifier.text
          continue
        }
        let own = form.replacingOccurrences(of: "%arg", with: "%\(argument)$\(substitution.formatSpecifier)")
        result += expandVariables(
          Self.positioning(own, argument: argument), substitutions, arguments: arguments, depth: depth + 1,
          &diagnostics)
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
