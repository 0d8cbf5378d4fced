import Foundation

/// A value that fills a specifier of a localized format.
///
/// Interpolating into a ``LocalizedKey`` makes them with the types SwiftUI uses; the command line makes
/// ``text(_:)`` arguments, which take the type of the specifier they fill.
public enum FormatArgument: Hashable, Sendable {
  /// A string, for `%@`. Markdown inside it is not interpreted.
  case string(String)
  /// A styled text, for `%@`: it keeps its styles wherever the translation puts it.
  case styled(StyledText)
  /// A signed integer, for `%d`, `%i`, `%ld`, `%lld` (and `%u`, `%x`, `%o` when not negative).
  case int(Int64)
  /// An unsigned integer, for `%u`, `%lu`, `%llu`, `%x`, `%o` (and `%d` when it fits).
  case uint(UInt64)
  /// A floating-point number, for `%f`, `%lf`, `%e`, `%g`.
  case double(Double)
  /// Text with no type of its own (from the command line): it is read as the specifier's type.
  case text(String)

  /// A short description for diagnostics.
  var summary: String {
    switch self {
    case .string(let value): return "the string \(value.debugDescription)"
    case .styled(let value): return "the styled text \(value.string.debugDescription)"
    case .int(let value): return "the integer \(value)"
    case .uint(let value): return "the unsigned integer \(value)"
    case .double(let value): return "the number \(value)"
    case .text(let value): return "\(value.debugDescription)"
    }
  }

  /// The plural operands of a numeric argument, as the number would be written.
  var pluralOperands: PluralOperands? {
    switch self {
    case .int(let value): return PluralOperands(Int(clamping: value))
    case .uint(let value): return PluralOperands(Int(clamping: value))
    case .double(let value): return PluralOperands(value)
    case .text(let value): return PluralOperands(decimal: value.trimmingCharacters(in: .whitespaces))
    case .string, .styled: return nil
    }
  }
}
