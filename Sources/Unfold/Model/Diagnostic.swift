/// A non-fatal problem that the engine met and handled, reported with the result instead of printed.
public struct Diagnostic: Hashable, Sendable {
  /// What happened.
  public enum Kind: String, Hashable, Sendable {
    /// A chunk of markdown was shown as literal text instead of being parsed.
    case literalFallback
    /// A paragraph longer than the parser takes at once was parsed in pieces cut at line ends (see
    /// `MarkdownParser`): emphasis or a link that spans a cut shows as written.
    case paragraphSplit
    /// The string tables hold no table of the name looked up (they hold others); the default value or the
    /// key is shown.
    case missingTable
    /// A key has no translation in the chosen language; the default value or the key is shown.
    case missingKey
    /// A specifier reads an argument that was not given; the specifier is shown as written.
    case missingArgument
    /// An argument does not fit its specifier; the specifier is shown as written.
    case wrongArgumentType
    /// More arguments were given than the format reads (and than a plural form chooses by); the extra ones
    /// are not shown.
    case unusedArgument
    /// The positions of the specifiers skip an argument; the specifiers after the gap are shown as written.
    case argumentGap
    /// A `%` that starts no valid specifier, or a plural variable with no definition; shown as written.
    case invalidSpecifier
    /// A plural form the value needs is missing; `other` is shown.
    case missingPluralForm
    /// Characters with no glyph in the fonts: the browser chooses their width.
    case unpredictableWidth
    /// Emphasis or strikethrough markers (`*`, `_`, `~`) next to text that stay literal, because CommonMark's
    /// flanking rules let them neither open nor close (`**%1$@**さん`: a closing `**` between punctuation and a
    /// letter), as in SwiftUI; reported by `Localizations.check()`.
    case literalMarkup
    /// A value out of its range, clamped into it: a line limit below 1 (1 line is shown), a width below 1 (1 cell,
    /// or 1 px), a width in px that is not a number or above 100,000 px.
    case valueOutOfRange
  }

  /// What happened.
  public var kind: Kind
  /// Where in the input it happened, as a UTF-8 byte offset into the text handed to the stage (0 when the
  /// problem is about the whole text).
  public var offset: Int
  /// One line for people.
  public var message: String

  /// Creates a diagnostic.
  package init(_ kind: Kind, offset: Int, message: String) {
    self.kind = kind
    self.offset = offset
    self.message = message
  }
}
