import Foundation

/// Writes numbers the way a locale does: its decimal and grouping separators and its digits (Arabic-Indic in
/// `ar-EG`, Persian in `fa`), from Foundation's locale data.
///
/// It calls `String(format:locale:)` with exactly one argument of the type its one conversion reads
/// (`%llu` with a `UInt64`, `%.Nf` with a `Double`): the only way that function is safe. (`NumberFormatter`
/// on Linux ignores its fraction-digit limits, so it is not used for that.)
struct LocaleNumbers {
  let locale: Locale

  init(_ identifier: String) {
    locale = Locale(identifier: identifier.replacingOccurrences(of: "-", with: "_"))
  }

  private func formatter(fractionDigits: Int) -> NumberFormatter {
    let formatter = NumberFormatter()
    formatter.locale = locale
    formatter.numberStyle = .decimal
    formatter.usesGroupingSeparator = true
    formatter.minimumFractionDigits = fractionDigits
    formatter.maximumFractionDigits = fractionDigits
    formatter.roundingMode = .halfEven
    return formatter
  }

  /// The magnitude of an integer with grouping, in the locale's digits (no sign).
  func integer(_ magnitude: UInt64) -> String {
    String(format: "%llu", locale: locale, magnitude)
  }

  /// The magnitude of a number with `precision` fraction digits, grouped (no sign).
  func decimal(_ magnitude: Double, precision: Int) -> String {
    guard magnitude.isFinite else { return magnitude.isNaN ? "nan" : "inf" }
    return String(format: "%.\(min(max(precision, 0), 30))f", locale: locale, magnitude)
  }

  /// The locale's decimal separator.
  var decimalSeparator: String { formatter(fractionDigits: 0).decimalSeparator ?? "." }

  /// The locale's digits 0…9.
  var digits: [String] {
    let formatter = formatter(fractionDigits: 0)
    formatter.usesGroupingSeparator = false
    return (0...9).map { formatter.string(from: NSNumber(value: $0)) ?? String($0) }
  }

  /// ASCII digits and the decimal point of a C-formatted number, in the locale's forms.
  func localizing(_ text: String) -> String {
    let digits = digits
    let separator = decimalSeparator
    var result = ""
    for character in text {
      if let digit = character.wholeNumberValue, character.isASCII {
        result += digits[digit]
      } else if character == "." {
        result += separator
      } else {
        result.append(character)
      }
    }
    return result
  }
}
