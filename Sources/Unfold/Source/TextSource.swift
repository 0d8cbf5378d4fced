/// Where a paragraph's text comes from: verbatim text, or a localized key whose translation is markdown.
///
/// The two modes stay apart, as `Text(verbatim:)` and `Text(LocalizedStringKey)` do in SwiftUI:
/// - verbatim text is shown as given, with no lookup and no markdown; its leading and trailing whitespace
///   (spaces, tabs, newlines) is trimmed, as ExpandableText's `init(verbatim:)` does;
/// - a localized key is looked up in a table (falling back to the key itself), and the result is parsed as
///   inline markdown (``MarkdownParser``), keeping every space and newline.
///
/// In both modes `\r\n` and `\r` become `\n`, and NUL becomes U+FFFD.
public struct TextSource: Hashable, Sendable {
  /// The two modes.
  public enum Mode: Hashable, Sendable {
    /// Shown as given.
    case verbatim(String)
    /// Looked up, then parsed as markdown.
    case localized(LocalizedKey, table: StringsTable)
  }

  /// The mode and its content.
  public let mode: Mode

  /// Text shown as given: no lookup, no markdown, outer whitespace trimmed.
  public init(verbatim text: String) { mode = .verbatim(text) }

  /// A localized key: looked up in `table` (the key itself when missing), then parsed as markdown.
  public init(_ key: LocalizedKey, table: StringsTable = .empty) { mode = .localized(key, table: table) }

  /// The styled text and any diagnostics from producing it.
  public struct Resolved: Hashable, Sendable {
    /// The text to lay out.
    public var text: StyledText
    /// Problems met on the way (see ``Diagnostic``).
    public var diagnostics: [Diagnostic]
  }

  /// Produces the styled text.
  public func resolve() -> Resolved {
    switch mode {
    case .verbatim(let text):
      let normalized = Self.normalizingLineEnds(text)
      return Resolved(text: StyledText(plain: String(Self.trimmingWhitespace(normalized))), diagnostics: [])
    case .localized(let key, let table):
      let result = MarkdownParser.parse(Self.normalizingLineEnds(table.lookUp(key)))
      return Resolved(text: result.text, diagnostics: result.diagnostics)
    }
  }

  /// `\r\n` and `\r` become `\n`; NUL becomes U+FFFD.
  static func normalizingLineEnds(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0D || $0 == 0x00 }) else { return text }
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
