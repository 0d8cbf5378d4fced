import Foundation

/// A paragraph to show: its source and how it truncates, with modifiers that read like SwiftUI's and one
/// call per target.
///
///     let comment = Paragraph("A **long** comment…")          // a localized key, as Text("…")
///       .lineLimit(3)
///       .truncationMode(.tail)
///       .moreLabel("Read more")
///       .lessLabel("Show less")
///       .toggle(.inline)
///     print(comment.ansi(width: 40, renderer: ANSIRenderer(colors: .truecolor)), terminator: "")
///     let html = comment.html(width: 320, fonts: try FontSet.dejaVu()).html   // and its .diagnostics
///     let layout = comment.truncated(width: 40, state: .collapsed)   // lines, isTruncated, lineCount
///
/// Every modifier returns a changed copy; a `Paragraph` is a value.
public struct Paragraph: Sendable {
  /// Where the text comes from.
  public var source: TextSource
  /// Line limit, labels, ellipsis, mode and toggle placement.
  public var options: TruncationOptions
  /// How terminal cells are counted (``TerminalCells/Profile-swift.enum/legacy`` by default).
  package var cellWidths: TerminalCells.Profile
  /// The break rules; `nil` uses each target's own: `unicode` for the terminal, the engine's for HTML.
  package var breakRules: LineBreaker.Rules?
  /// The text style whose size and line height the HTML uses (the fonts' own when `nil`).
  package var textStyle: TextStyle?
  /// The smallest factor the HTML may scale the font by to make the text fit its line limit (1: never).
  package var minimumScaleFactor: Double
  /// Whether the text scrolls in a viewport of `lineLimit` lines instead of truncating.
  package var isScrollable: Bool
  /// The height in CSS px that a document's collapsed HTML may take besides its line limit (``maxHeight(_:)``).
  package var maxHeight: Double?

  /// Creates a paragraph.
  public init(
    _ source: TextSource, options: TruncationOptions = .default, cellWidths: TerminalCells.Profile = .legacy,
    breakRules: LineBreaker.Rules? = nil
  ) {
    self.source = source
    self.options = options
    self.cellWidths = cellWidths
    self.breakRules = breakRules
    self.textStyle = nil
    self.minimumScaleFactor = 1
    self.isScrollable = false
    self.maxHeight = nil
  }

  /// A paragraph from a localized key (a string literal, or `LocalizedKey(variable)`), as `Text("…")`.
  public init(_ key: LocalizedKey, options: TruncationOptions = .default) {
    self.init(TextSource(key), options: options)
  }

  /// A markdown document (``TextSource/init(document:)``): its blocks laid out and cut under one line limit.
  public init(document markdown: String, options: TruncationOptions = .default) {
    self.init(TextSource(document: markdown), options: options)
  }

  /// The blocks of the text: a document's, parsed; a verbatim text or a key is one paragraph.
  public var blocks: [Block] { source.blocks() }

  /// A paragraph shown as given, as `Text(verbatim:)`.
  public init(verbatim text: String, options: TruncationOptions = .default) {
    self.init(TextSource(verbatim: text), options: options)
  }

  private func with(_ change: (inout Paragraph) -> Void) -> Paragraph {
    var copy = self
    change(&copy)
    return copy
  }

  // MARK: - Modifiers

  /// The number of lines shown collapsed; with `reservesSpace`, always that many.
  public func lineLimit(_ limit: Int, reservesSpace: Bool = false) -> Paragraph {
    with {
      $0.options.lineLimit = limit
      $0.options.reservesSpace = reservesSpace
    }
  }

  /// Where the text is cut: tail, head or middle.
  public func truncationMode(_ mode: TruncationMode) -> Paragraph { with { $0.options.mode = mode } }
  /// The label that expands the text.
  public func moreLabel(_ label: String) -> Paragraph { with { $0.options.moreLabel = label } }
  /// The label that collapses it again (`nil`: none).
  public func lessLabel(_ label: String?) -> Paragraph { with { $0.options.lessLabel = label } }
  /// The mark at the cut.
  public func ellipsis(_ ellipsis: String) -> Paragraph { with { $0.options.ellipsis = ellipsis } }
  /// Where the toggle goes.
  public func toggle(_ placement: TogglePlacement) -> Paragraph { with { $0.options.toggle = placement } }
  /// While collapsed, a run of blank lines shows as one.
  public func collapsesBlankLines(_ collapses: Bool = true) -> Paragraph {
    with { $0.options.collapsesBlankLines = collapses }
  }
  /// All the truncation options at once (``TruncationOptions/expandableText``, ``TruncationOptions/readMoreText``).
  public func truncation(_ options: TruncationOptions) -> Paragraph { with { $0.options = options } }
  /// The text style, as SwiftUI's `.font(_:)`: font size and line height in HTML.
  public func font(_ style: TextStyle) -> Paragraph { with { $0.textStyle = style } }
  /// How far the HTML may shrink the font to make the text fit (`minimumScaleFactor`), between 0 and 1.
  public func minimumScaleFactor(_ factor: Double) -> Paragraph {
    with { $0.minimumScaleFactor = min(1, max(0.1, factor)) }
  }
  /// The height in CSS px that a document's collapsed HTML may take, as well as `lineLimit` lines; `nil` for none.
  ///
  /// A heading's lines are taller than the text's: a height budget shows fewer lines of a document of large
  /// headings. The terminal and paragraphs count lines only.
  public func maxHeight(_ pixels: Double?) -> Paragraph { with { $0.maxHeight = pixels.map { max(0, $0) } } }
  /// A viewport of `lineLimit` lines that scrolls instead of truncating.
  public func scrollable(_ scrollable: Bool = true) -> Paragraph { with { $0.isScrollable = scrollable } }
  /// Whether bare URLs, `www.` addresses and e-mail addresses in a localized key's markdown or a document become
  /// links (on by default, as on GitHub; SwiftUI's `Text` leaves them text).
  ///
  /// Verbatim text has no links either way.
  public func autolinks(_ on: Bool) -> Paragraph {
    with {
      switch $0.source.mode {
      case .localized(let key, var localization):
        localization.autolinks = on
        $0.source = TextSource(key, localization)
      case .document: $0.source.documentAutolinks = on
      case .verbatim: break
      }
    }
  }
  /// How terminal cells are counted.
  public func cellWidths(_ profile: TerminalCells.Profile) -> Paragraph { with { $0.cellWidths = profile } }
  /// The line breaking rules.
  public func breakRules(_ rules: LineBreaker.Rules) -> Paragraph { with { $0.breakRules = rules } }
}
