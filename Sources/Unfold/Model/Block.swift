/// A block of a markdown document (``TextSource/init(document:)``), as cmark-gfm parses GitHub Flavored Markdown:
/// leaves that hold styled text (paragraphs, headings, table cells), code and raw HTML kept as written, and
/// containers (lists, their items, quotes) that hold blocks.
///
///     - [x] **Ship** it        .list(ordered: false, start: 1, isTight: true, items: [
///     - [ ] Tell `everyone`      .item(task: true, blocks: [.paragraph(…)]),
///                                .item(task: false, blocks: [.paragraph(…)])])
///
/// Containers nest at most 16 deep: the blocks of a deeper container are kept, at that depth, in the
/// container around it.
public indirect enum Block: Hashable, Sendable {
  /// A paragraph: text that wraps (a soft line break is a space, a hard one a newline).
  case paragraph(StyledText)
  /// A heading of level 1 to 6 (`#` to `######`, or underlined with `=` or `-`).
  case heading(level: Int, StyledText)
  /// A bullet (`ordered` false) or numbered list whose first number is `start`; a tight list has no blank
  /// line between its items. Each item is an ``item(task:blocks:)``.
  case list(ordered: Bool, start: Int, isTight: Bool, items: [Block])
  /// An item of a list: `task` is `nil` for an ordinary item, `false` for `[ ]` and `true` for `[x]`.
  case item(task: Bool?, blocks: [Block])
  /// A block quote (`>`).
  case quote([Block])
  /// Fenced or indented code, its lines as written, with the first word of a fence's info string as
  /// `language` (empty for none).
  case code(language: String, text: String)
  /// A block of raw HTML, shown as the text it is.
  case html(String)
  /// A thematic break (`---`, `***`, `___`).
  case rule
  /// A table: its rows, the header first, each with a cell per column, and each column's alignment.
  case table(alignments: [Alignment], rows: [[StyledText]])

  /// How a table column's cells are aligned (`:--`, `:-:`, `--:` in the delimiter row).
  public enum Alignment: String, Hashable, Sendable {
    /// No alignment given: the start of the line.
    case none
    /// `:--`.
    case left
    /// `:-:`.
    case center
    /// `--:`.
    case right
  }

  /// How deep containers (lists, items, quotes) nest before their blocks are kept in the container around them.
  package static let maximumDepth = 16
}

extension Block {
  /// A list's child as an item: its task state and blocks; another block (which cmark-gfm does not make) stands for
  /// an item that holds it.
  var asItem: (task: Bool?, blocks: [Block]) {
    if case .item(let task, let blocks) = self { return (task, blocks) }
    return (nil, [self])
  }

  /// The text of blocks with no markers: each leaf's text, sibling blocks apart by a blank line (a tight list's
  /// items by a newline), a table's cells by a tab and its rows by a newline; what a paragraph of a document holds
  /// for the targets that read text, not blocks.
  package static func text(of blocks: [Block], separator: String = "\n\n") -> StyledText {
    var builder = StyledText.Builder()
    for (index, block) in blocks.enumerated() {
      if index > 0 { builder.append(separator) }
      switch block {
      case .paragraph(let text), .heading(_, let text): builder.append(text)
      case .code(_, let text): builder.append(text, style: Style(.code))
      case .html(let text): builder.append(text)
      case .rule: break
      case .quote(let blocks): builder.append(Self.text(of: blocks))
      case .item(_, let blocks): builder.append(Self.text(of: blocks, separator: separator))
      case .list(_, _, let isTight, let items): builder.append(Self.text(of: items, separator: isTight ? "\n" : "\n\n"))
      case .table(_, let rows):
        for (rowIndex, row) in rows.enumerated() {
          if rowIndex > 0 { builder.append("\n") }
          for (cellIndex, cell) in row.enumerated() {
            if cellIndex > 0 { builder.append("\t") }
            builder.append(cell)
          }
        }
      }
    }
    return builder.build()
  }
}
