/// Where a paragraph's text comes from: verbatim text, a localized key whose translation is inline markdown, or a
/// markdown document.
///
/// The modes stay apart, the first two as `Text(verbatim:)` and `Text(LocalizedStringKey)` do in SwiftUI:
/// - verbatim text is shown as given, with no lookup and no markdown; its leading and trailing whitespace
///   (spaces, tabs, newlines) is trimmed, as ExpandableText's `init(verbatim:)` does;
/// - a localized key is looked up in string tables for a locale (falling back to a default value or the key
///   itself), its plural and device forms are chosen, the translated format is parsed as inline markdown
///   (`MarkdownParser`, every space and newline kept), and then the key's arguments fill its specifiers
///   (`LocalizedFormatter`), so markdown inside an argument stays literal;
/// - a document is block markdown, as GitHub shows an issue's body: paragraphs, headings, lists, quotes, code,
///   tables and rules (see ``Block``), laid out and cut as one text under one line budget.
///
/// In both modes `\r\n` and `\r` become `\n`, and NUL becomes U+FFFD.
public struct TextSource: Hashable, Sendable {
  /// The two modes.
  public enum Mode: Hashable, Sendable {
    /// Shown as given.
    case verbatim(String)
    /// Looked up, then parsed as markdown, then formatted.
    case localized(LocalizedKey, Localization)
    /// Block markdown, parsed into blocks.
    case document(String)
  }

  /// Where and how a localized key is looked up.
  public struct Localization: Hashable, Sendable {
    /// The string tables.
    public var localizations: Localizations
    /// The reader's locale (`es-MX`, `ar`, `pt_BR`): it chooses the language, the plural rules and how
    /// numbers are written.
    public var locale: String
    /// The table (`Localizable` by default).
    public var table: String
    /// The device whose forms are chosen in a catalog's device variations (`iphone`, `ipad`, `mac`...);
    /// `other` when the device has none.
    public var device: String
    /// Shown instead of the key when the key has no translation.
    public var defaultValue: String?
    /// Whether bare URLs (`https://…`, `www.…`) and e-mail addresses in the markdown become links, as
    /// GitHub shows them (see `MarkdownParser`); SwiftUI's `Text` leaves them text.
    ///
    /// On by default.
    public var autolinks: Bool

    /// Creates a lookup.
    public init(
      _ localizations: Localizations, locale: String = "en", table: String = "Localizable", device: String = "other",
      defaultValue: String? = nil, autolinks: Bool = true
    ) {
      self.localizations = localizations
      self.locale = locale
      self.table = table
      self.device = device
      self.defaultValue = defaultValue
      self.autolinks = autolinks
    }
  }

  /// The mode and its content.
  public let mode: Mode
  /// Whether a document's bare URLs, `www.` addresses and e-mail addresses become links (``Paragraph/autolinks(_:)``;
  /// a key's is its ``Localization/autolinks``).
  package var documentAutolinks = true

  /// Text shown as given: no lookup, no markdown, outer whitespace trimmed.
  public init(verbatim text: String) { mode = .verbatim(text) }

  /// Whether the source is a document.
  package var isDocument: Bool {
    if case .document = mode { return true }
    return false
  }

  /// A markdown document: its blocks parsed with cmark-gfm's block parser and its tables, strikethrough and task
  /// lists, bare URLs made links.
  public init(document markdown: String) { mode = .document(markdown) }

  /// A localized key: looked up in `table` (the key itself when missing), then parsed as markdown and
  /// formatted for `locale`.
  public init(_ key: LocalizedKey, table: StringsTable = .empty, locale: String = "en") {
    var localizations = Localizations(developmentLanguage: locale)
    localizations.add(table, language: locale)
    mode = .localized(key, Localization(localizations, locale: locale))
  }

  /// A localized key looked up in string tables (see ``Localization``).
  public init(_ key: LocalizedKey, _ localization: Localization) { mode = .localized(key, localization) }

  /// The styled text and any diagnostics from producing it.
  public struct Resolved: Hashable, Sendable {
    /// The text to lay out.
    public var text: StyledText
    /// Problems met on the way (see ``Diagnostic``).
    public var diagnostics: [Diagnostic]
  }

  /// `\r\n` and `\r` become `\n`; NUL becomes U+FFFD.
  static func normalizingLineEnds(_ text: String) -> String {
    guard text.utf8Contains(anyOf: 0x0D, 0x00) else { return text }
    var result = String.UnicodeScalarView()
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      defer { previousWasCR = scalar == "\r" }
      switch scalar {
      case "\r": result.append("\n")
      case "\n" where previousWasCR: continue
      case "\0": result.append("\u{FFFD}")
      default: result.append(scalar)
      }
    }
    return String(result)
  }

  /// Without leading and trailing spaces, tabs and newlines.
  static func trimmingWhitespace(_ text: String) -> Substring {
    let isOuter: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
    guard let first = text.firstIndex(where: { !isOuter($0) }) else { return "" }
    return text[first...].trimmingSuffix(while: isOuter)
  }
}
