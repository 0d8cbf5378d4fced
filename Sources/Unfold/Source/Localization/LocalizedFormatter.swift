import Foundation

/// Fills the specifiers of a localized format with arguments, for a locale, and never crashes or reads a
/// wrong argument.
///
/// Each specifier reads its argument (the next in turn, or `%n$`'s), checked against the conversion: `%@`
/// takes a string or a styled text; `%d %i` a signed integer (or an unsigned one that fits); `%u %x %X %o` an
/// integer that is not negative (or a negative one as its bit pattern, as C does); `%f %e %g` a floating-point
/// number; `%c` a character code or a one-character string; `%s` a string. Untyped arguments (``FormatArgument/text(_:)``)
/// are read as the specifier's type. When something does not fit, the specifier is shown as written and a
/// diagnostic says why:
/// - too few arguments (`missingArgument`);
/// - too many: an argument after the last one any specifier reads, when no specifier is invalid
///   (`unusedArgument`; nothing is shown for it);
/// - an argument of the wrong type (`wrongArgumentType`);
/// - a gap in the positions (`%1$@ %3$@` never reads argument 2): the specifiers after the gap
///   (`argumentGap`);
/// - an unknown conversion, or a `%` that starts none (`invalidSpecifier`; the text stays as written).
///
/// Numbers are written for the locale: grouping, decimal separator and digits (`1.234.567,5` in `de`,
/// `١٬٢٣٤` in `ar-EG`). Flags `-` (left-justify), `0` (zero padding), `+` and space (sign), `#` (alternate
/// form for `%x %o`), a width and a precision work as in C; `%@` ignores the width, as Foundation does.
package struct LocalizedFormatter: Sendable {
  /// The locale numbers are written for, as a BCP 47 or POSIX identifier (`de-DE`, `ar_EG`).
  package var locale: String

  /// Creates a formatter.
  package init(locale: String) { self.locale = locale }

  /// Fills the specifiers of a styled format; styled arguments keep their styles, combined with the style
  /// around the specifier.
  package func format(_ format: StyledText, arguments: [FormatArgument]) -> (
    text: StyledText, diagnostics: [Diagnostic]
  ) {
    self.format(format, arguments: arguments, choosingForms: [])
  }

  /// Fills the specifiers; `choosingForms` are the arguments that chose a plural form, which count as read
  /// (a form for one may leave its number out: "One comment").
  func format(
    _ format: StyledText, arguments: [FormatArgument], choosingForms: Set<Int>
  ) -> (text: StyledText, diagnostics: [Diagnostic]) {
    let runs = format.runRanges.map { (FormatString(format.text(in: $0.range)), $0.style, $0.range.lowerBound) }
    // The argument numbers across the whole format: the implicit turn runs on from one run to the next.
    var next = 1
    var numbers: [[Int]] = []
    for (parsed, _, _) in runs {
      numbers.append(
        parsed.specifiers.map { specifier in
          if let position = specifier.position { return position }
          defer { next += 1 }
          return next
        })
    }
    let used = Set(numbers.joined())
    let firstGap = used.max().flatMap { maximum in (1..<maximum).first { !used.contains($0) } }
    var diagnostics: [Diagnostic] = []
    let lastRead = max(used.max() ?? 0, choosingForms.max() ?? 0)
    // An invalid specifier was most likely meant for the argument left over: it is reported instead.
    if arguments.count > lastRead, runs.allSatisfy({ $0.0.invalid.isEmpty }) {
      let extra = arguments[lastRead...].map(\.summary).joined(separator: ", ")
      diagnostics.append(
        Diagnostic(
          .unusedArgument, offset: 0,
          message: "\(arguments.count) arguments given, the format reads \(lastRead); not shown: \(extra)"))
    }
    if let firstGap {
      diagnostics.append(
        Diagnostic(
          .argumentGap, offset: 0,
          message: "argument \(firstGap) is never used; the specifiers after it are shown as written"))
    }
    let numbersFormatter = LocaleNumbers(locale)
    var builder = StyledText.Builder()
    for ((parsed, style, runStart), runNumbers) in zip(runs, numbers) {
      for invalid in parsed.invalid {
        diagnostics.append(
          Diagnostic(
            .invalidSpecifier, offset: runStart + invalid.offset,
            message: "'\(invalid.text)' is not a format specifier; shown as written"))
      }
      var specifierIndex = 0
      for token in parsed.tokens {
        switch token {
        case .literal(let text):
          builder.append(text, style: style)
        case .specifier(let specifier):
          let number = runNumbers[specifierIndex]
          specifierIndex += 1
          let offset = runStart + specifier.offset
          if let firstGap, number > firstGap {
            builder.append(specifier.text, style: style)
            continue
          }
          guard specifier.kind != .variable else {
            builder.append(specifier.text, style: style)
            diagnostics.append(
              Diagnostic(
                .invalidSpecifier, offset: offset,
                message: "plural variable \(specifier.text) has no definition; shown as written"))
            continue
          }
          guard number <= arguments.count else {
            builder.append(specifier.text, style: style)
            diagnostics.append(
              Diagnostic(
                .missingArgument, offset: offset,
                message:
                  "\(specifier.text) reads argument \(number), but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given"
              ))
            continue
          }
          let argument = arguments[number - 1]
          if case .styled(let styled) = argument, specifier.kind == .object {
            for (range, argumentStyle) in styled.runRanges {
              var combined = style
              combined.traits.formUnion(argumentStyle.traits)
              combined.link = argumentStyle.link ?? style.link
              builder.append(styled.text(in: range), style: combined)
            }
          } else if let text = render(specifier, argument, numbersFormatter) {
            builder.append(text, style: style)
          } else {
            builder.append(specifier.text, style: style)
            diagnostics.append(
              Diagnostic(
                .wrongArgumentType, offset: offset,
                message: "\(specifier.text) cannot show argument \(number), \(argument.summary): it takes "
                  + specifier.kind.takes))
          }
        }
      }
    }
    return (builder.build(), diagnostics)
  }

  /// Fills the specifiers of a plain format.
  package func format(_ format: String, arguments: [FormatArgument]) -> (text: String, diagnostics: [Diagnostic]) {
    let result = self.format(StyledText(plain: format), arguments: arguments)
    return (result.text.string, result.diagnostics)
  }

  /// The text for one specifier and its argument, or `nil` when the argument does not fit.
  private func render(_ specifier: FormatSpecifier, _ argument: FormatArgument, _ numbers: LocaleNumbers) -> String? {
    switch specifier.kind {
    case .object, .cString:
      switch argument {
      case .string(let value), .text(let value):
        if specifier.kind == .cString, let precision = specifier.precision { return String(value.prefix(precision)) }
        return value
      case .styled(let value): return value.string
      default: return nil
      }
    case .signed:
      guard let value = signedValue(argument) else { return nil }
      return pad(
        specifier,
        sign(specifier, negative: value < 0) + minimumDigits(specifier, numbers.integer(value.magnitude), numbers),
        numeric: true, numbers)
    case .unsigned:
      guard let value = unsignedValue(argument, length: specifier.length) else { return nil }
      let digits: String
      switch specifier.conversion {
      case "x": digits = (specifier.flags.contains("#") && value != 0 ? "0x" : "") + String(value, radix: 16)
      case "X":
        digits = (specifier.flags.contains("#") && value != 0 ? "0X" : "") + String(value, radix: 16, uppercase: true)
      case "o", "O": digits = (specifier.flags.contains("#") && value != 0 ? "0" : "") + String(value, radix: 8)
      default: digits = numbers.integer(value)
      }
      return pad(specifier, minimumDigits(specifier, digits, numbers), numeric: true, numbers)
    case .floating:
      guard let value = doubleValue(argument) else { return nil }
      let precision = specifier.precision ?? 6
      let body: String
      switch specifier.conversion {
      case "f", "F": body = numbers.decimal(value.magnitude, precision: precision)
      default:
        // %e %g %a: C's own notation for one checked Double, then the locale's digits and separator.
        let c =
          "%." + String(min(precision, 30)) + (specifier.flags.contains("#") ? "#" : "") + String(specifier.conversion)
        body = numbers.localizing(String(format: c.replacingOccurrences(of: ".#", with: "#."), value.magnitude))
      }
      return pad(
        specifier, sign(specifier, negative: value < 0 || (value == 0 && value.sign == .minus)) + body, numeric: true,
        numbers)
    case .character:
      switch argument {
      case .int(let code): return Unicode.Scalar(UInt32(clamping: code)).map { String(Character($0)) }
      case .uint(let code): return Unicode.Scalar(UInt32(clamping: code)).map { String(Character($0)) }
      case .string(let value), .text(let value):
        if value.count == 1 { return value }
        if case .text = argument, let code = UInt32(value), let scalar = Unicode.Scalar(code) {
          return String(Character(scalar))
        }
        return nil
      default: return nil
      }
    case .variable:
      return nil
    }
  }

  private func signedValue(_ argument: FormatArgument) -> Int64? {
    switch argument {
    case .int(let value): return value
    case .uint(let value): return value <= UInt64(Int64.max) ? Int64(value) : nil
    case .text(let value): return Int64(value.trimmingCharacters(in: .whitespaces))
    default: return nil
    }
  }

  private func unsignedValue(_ argument: FormatArgument, length: String) -> UInt64? {
    switch argument {
    case .uint(let value): return value
    case .int(let value):
      if value >= 0 { return UInt64(value) }
      return length.hasPrefix("l") || length == "q"
        ? UInt64(bitPattern: value) : UInt64(UInt32(truncatingIfNeeded: value))
    case .text(let value):
      let trimmed = value.trimmingCharacters(in: .whitespaces)
      return UInt64(trimmed) ?? Int64(trimmed).map { unsignedValue(.int($0), length: length) ?? 0 }
    default: return nil
    }
  }

  private func doubleValue(_ argument: FormatArgument) -> Double? {
    switch argument {
    case .double(let value): return value
    case .text(let value): return Double(value.trimmingCharacters(in: .whitespaces))
    default: return nil
    }
  }

  private func sign(_ specifier: FormatSpecifier, negative: Bool) -> String {
    if negative { return "-" }
    if specifier.flags.contains("+") { return "+" }
    if specifier.flags.contains(" ") { return " " }
    return ""
  }

  /// An integer's digits padded with zeros to the precision (C's minimum number of digits).
  private func minimumDigits(_ specifier: FormatSpecifier, _ digits: String, _ numbers: LocaleNumbers) -> String {
    guard let precision = specifier.precision, digits.count < precision else { return digits }
    return String(repeating: numbers.digits[0], count: precision - digits.count) + digits
  }

  /// Pads to the width: spaces on the left, on the right with `-`, zeros after the sign with `0`.
  private func pad(_ specifier: FormatSpecifier, _ text: String, numeric: Bool, _ numbers: LocaleNumbers) -> String {
    guard let width = specifier.width, text.count < width else { return text }
    let count = width - text.count
    if specifier.flags.contains("-") { return text + String(repeating: " ", count: count) }
    if numeric && specifier.flags.contains("0") && specifier.precision == nil
      || specifier.kind == .floating && specifier.flags.contains("0")
    {
      let signLength = text.first.map { "+- ".contains($0) } == true ? 1 : 0
      return String(text.prefix(signLength)) + String(repeating: numbers.digits[0], count: count)
        + text.dropFirst(signLength)
    }
    return String(repeating: " ", count: count) + text
  }
}

extension FormatSpecifier.Kind {
  /// What a specifier of this kind shows, for diagnostics.
  var takes: String {
    switch self {
    case .object: return "a string"
    case .cString: return "a string"
    case .signed: return "a whole number"
    case .unsigned: return "a whole number, not negative"
    case .floating: return "a number"
    case .character: return "a character or its code"
    case .variable: return "a plural variable's number"
    }
  }
}
