/// The key of a localized string, written as a string literal.
///
/// Like SwiftUI's `LocalizedStringKey`, a literal becomes a key, while a `String` variable needs an explicit
/// conversion, so that text from users is never parsed as markdown by accident:
///
///     TextSource("Read the **docs**")           // a key: looked up, then markdown
///     TextSource(LocalizedKey(titleFromServer)) // explicit
///     TextSource(verbatim: commentFromUser)     // shown as given
public struct LocalizedKey: Hashable, Sendable, ExpressibleByStringLiteral {
  /// The key as written.
  public let key: String

  /// Creates a key from a string variable, explicitly.
  public init(_ key: String) { self.key = key }

  /// Creates a key from a string literal.
  public init(stringLiteral value: String) { self.key = value }
}

/// A strings table: translations by key, for one language.
///
/// Full string-table files (`.strings`, `.stringsdict`, `.xcstrings`) come later; for now a table is built in
/// memory.
public struct StringsTable: Hashable, Sendable {
  /// The translations by key.
  public var entries: [String: String]

  /// Creates a table.
  public init(_ entries: [String: String] = [:]) { self.entries = entries }

  /// The table with no entries: every key shows as itself.
  public static let empty = StringsTable()

  /// The translation of a key, falling back to the key itself.
  public func lookUp(_ key: LocalizedKey) -> String { entries[key.key] ?? key.key }
}
