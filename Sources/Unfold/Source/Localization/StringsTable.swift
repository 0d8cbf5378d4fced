/// A translation as string tables hold it: a string, or forms chosen by a plural category or a device.
package indirect enum LocalizedValue: Hashable, Sendable {
  /// One string (a format, with specifiers and plural variables).
  case string(String)
  /// Forms by plural category, chosen by a numeric argument.
  case plural([PluralCategory: LocalizedValue])
  /// Forms by device (`iphone`, `ipad`, `mac`, ..., `other`), chosen by the configured device.
  case device([String: LocalizedValue])
}

/// A plural variable of a format (`%#@name@`): which argument chooses the form, and the forms.
package struct PluralSubstitution: Hashable, Sendable {
  /// The 1-based argument that chooses the form; `nil` takes the variable's own place among the format's
  /// specifiers.
  package var argumentNumber: Int?
  /// The conversion for the argument without `%` (`d`, `lld`, `f`...): what `%arg` and unpositioned
  /// specifiers in the forms stand for.
  package var formatSpecifier: String
  /// The forms by plural category.
  package var forms: [PluralCategory: String]

  /// Creates a substitution.
  package init(argumentNumber: Int? = nil, formatSpecifier: String, forms: [PluralCategory: String]) {
    self.argumentNumber = argumentNumber
    self.formatSpecifier = formatSpecifier
    self.forms = forms
  }
}

/// The translation of one key: its value and the plural variables its format uses.
package struct LocalizedEntry: Hashable, Sendable {
  /// The value.
  package var value: LocalizedValue
  /// The plural variables, by name.
  package var substitutions: [String: PluralSubstitution]

  /// Creates an entry.
  package init(_ value: LocalizedValue, substitutions: [String: PluralSubstitution] = [:]) {
    self.value = value
    self.substitutions = substitutions
  }
}

/// The translations of one table in one language.
public struct StringsTable: Hashable, Sendable {
  /// The translations by key.
  package var entries: [String: LocalizedEntry]

  /// Creates a table of plain strings.
  public init(_ strings: [String: String] = [:]) {
    entries = strings.mapValues { LocalizedEntry(.string($0)) }
  }

  /// Creates a table of entries.
  package init(entries: [String: LocalizedEntry]) { self.entries = entries }

  /// The table with no entries: every key shows as itself.
  public static let empty = StringsTable()

  /// Adds the entries of `other`, which win over existing ones (as a `.stringsdict` wins over a `.strings`).
  package mutating func merge(_ other: StringsTable) {
    entries.merge(other.entries) { _, new in new }
  }
}
