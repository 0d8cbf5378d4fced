/// Resolving a source: its text looked up (``LocalizedResolver``), parsed as markdown (a localized key's) and
/// formatted with its arguments. In Parse, above the sources, since it parses.
extension TextSource {
  /// Produces the styled text.
  public func resolve() -> Resolved {
    switch mode {
    case .verbatim(let text):
      let normalized = Self.normalizingLineEnds(text)
      return Resolved(text: StyledText(plain: String(Self.trimmingWhitespace(normalized))), diagnostics: [])
    case .localized(let key, let localization):
      return Self.resolver(localization).resolve(key)
    case .document:
      return Resolved(text: Block.text(of: blocks()), diagnostics: [])
    }
  }

  /// The blocks of a document; a verbatim text or a key is one paragraph.
  func blocks() -> [Block] {
    guard case .document(let markdown) = mode else { return [.paragraph(resolve().text)] }
    return MarkdownParser.parseDocument(markdown, autolinks: documentAutolinks)
  }

  private static func resolver(_ localization: Localization) -> LocalizedResolver {
    LocalizedResolver(
      localizations: localization.localizations, locale: localization.locale, table: localization.table,
      device: localization.device, defaultValue: localization.defaultValue, autolinks: localization.autolinks)
  }

  /// The source's text before resolving (a key's markdown looked up once), to resolve a start of it at a
  /// time; nil for a key with arguments, whose formatting needs the whole text.
  func prefixes() -> Prefixes? {
    switch mode {
    case .document: return nil
    case .verbatim(let text): return Prefixes(whole: text, isMarkdown: false, autolinks: false)
    case .localized(let key, let localization):
      guard !key.hasFormatting else { return nil }
      return Prefixes(
        whole: Self.resolver(localization).format(for: key).0, isMarkdown: true, autolinks: localization.autolinks)
    }
  }

  /// Starts of a source's text, resolved.
  struct Prefixes {
    let whole: String
    let isMarkdown: Bool
    /// Whether the markdown's bare URLs become links.
    let autolinks: Bool

    /// The length of the whole text in UTF-8 bytes.
    var byteCount: Int { whole.utf8.count }

    /// The styled text of a start of the text, cut where what follows cannot change how it reads:
    /// verbatim text at a character boundary; markdown after a blank line (chunks between blank lines parse
    /// independently, see `MarkdownParser`), so the result is the start of what ``resolve()`` gives.
    ///
    /// Nil when the text is no longer than `bytes`, or when markdown has no blank line before `bytes`.
    func resolved(bytes: Int) -> StyledText? {
      guard bytes < whole.utf8.count else { return nil }
      guard isMarkdown else {
        let end = whole.utf8.index(whole.utf8.startIndex, offsetBy: bytes)
        return TextSource(verbatim: String(whole[..<end])).resolve().text
      }
      guard let end = Chunking.lastBoundary(in: whole, before: bytes) else { return nil }
      return MarkdownParser.parse(String(whole[..<end]), autolinks: autolinks).text
    }

    /// The markdown parsed a part at a time, each part cut after the first blank line at least `length` bytes into
    /// the rest, where the text parses as the whole does and a line always ends.
    func parts(length: Int) -> MarkdownParts {
      MarkdownParts(markdown: TextSource.normalizingLineEnds(whole), length: length, autolinks: autolinks)
    }
  }
}

/// A markdown text parsed a part at a time (``TextSource/Prefixes/parts(length:)``): the parts' styled texts, one
/// after another, are the whole text's, and only one is held at a time.
struct MarkdownParts: IteratorProtocol {
  /// The markdown, its line ends normalized.
  private(set) var markdown: String
  private let length: Int
  private let autolinks: Bool
  private var start = 0

  init(markdown: String, length: Int, autolinks: Bool) {
    self.markdown = markdown
    self.length = length
    self.autolinks = autolinks
  }

  /// The next part's styled text, and whether it ends the text.
  mutating func next() -> (text: StyledText, endsText: Bool)? {
    let count = markdown.utf8.count
    guard start < count else { return nil }
    let end =
      count - start <= length
      ? count : markdown.withUTF8 { [start, length] in Chunking.firstBoundary(in: $0, from: start + length) } ?? count
    let text = MarkdownParser.parse(&markdown, utf8: start..<end, autolinks: autolinks)
    start = end
    return (text, end == count)
  }
}

extension LocalizedResolver {
  /// Turns a localized key into styled text, in Apple's order: the format looked up, parsed as markdown, then
  /// the arguments filled in (so markdown inside an argument stays literal, and a styled argument keeps its
  /// styles wherever the translation moves it).
  func resolve(_ key: LocalizedKey) -> TextSource.Resolved {
    var lookup = Lookup()
    let format = self.format(for: key, &lookup)
    let parsed = MarkdownParser.parse(format, autolinks: autolinks)
    let diagnostics = lookup.diagnostics + parsed.diagnostics
    guard key.hasFormatting else { return TextSource.Resolved(text: parsed.text, diagnostics: diagnostics) }
    let formatted = LocalizedFormatter(locale: locale).format(
      parsed.text, arguments: key.arguments, choosingForms: lookup.choosers)
    return TextSource.Resolved(text: formatted.text, diagnostics: diagnostics + formatted.diagnostics)
  }
}
