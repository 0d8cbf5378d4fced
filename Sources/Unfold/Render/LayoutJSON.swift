import Foundation

/// The stable JSON form of a truncated text, read by tools and tests (`unfold --format json`).
///
///     {"isTruncated": true, "lineCount": 5, "lines": [{"fragments": [{"link": null, "role": "text",
///       "styles": ["bold"], "text": "Hello"}], "text": "Hello", "width": 5}]}
///
/// Keys are sorted; `lineCount` is the number of lines of the expanded text (labels excluded), or `null`
/// when it was not counted; the lines are the ones shown in the state, labels included where they are drawn.
package enum LayoutJSON {
  /// The JSON text, one object, pretty-printed with sorted keys; with the `blocks` of a document, their tree under
  /// `blocks` too (see the CommandFormats article).
  package static func encode(_ text: TruncatedText, blocks: [Block]? = nil) -> String {
    encode(Document(text, blocks: blocks))
  }

  /// The JSON text of the collapsed views over a range of widths, one object.
  ///
  ///     {"layouts": [{"isTruncated": true, "lines": […], "widths": {"from": 280, "to": 301}}, …],
  ///      "state": "collapsed", "unit": "px/65536"}
  ///
  /// The layouts are in the order of their widths; each line's `width` is in the unit, as laid out at `from`.
  package static func encode(_ layouts: [WidthLayout]) -> String {
    encode(
      Ranges(
        layouts: layouts.map(RangeLayout.init), state: DisplayState.collapsed.rawValue,
        unit: layouts.first?.view.unit.name ?? ""))
  }

  private static func encode(_ document: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  private struct Ranges: Encodable {
    var layouts: [RangeLayout]
    var state: String
    var unit: String
  }

  private struct RangeLayout: Encodable {
    var widths: Interval
    var isTruncated: Bool
    var lines: [Line]

    init(_ layout: WidthLayout) {
      widths = Interval(from: layout.widths.lowerBound, to: layout.widths.upperBound)
      isTruncated = layout.view.isTruncated
      lines = layout.view.lines.map(Line.init)
    }
  }

  private struct Interval: Encodable {
    var from: Int
    var to: Int
  }

  private struct Document: Encodable {
    var isTruncated: Bool
    var lineCount: Int?
    var lines: [Line]
    var state: String
    var unit: String
    var blocks: [BlockNode]?

    init(_ text: TruncatedText, blocks: [Block]?) {
      isTruncated = text.isTruncated
      lineCount = text.lineCount
      lines = text.lines.map(Line.init)
      state = text.state.rawValue
      unit = text.unit.name
      self.blocks = blocks?.map(BlockNode.init)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(isTruncated, forKey: .isTruncated)
      try container.encode(lineCount, forKey: .lineCount)
      try container.encode(lines, forKey: .lines)
      try container.encode(state, forKey: .state)
      try container.encode(unit, forKey: .unit)
      try container.encodeIfPresent(blocks, forKey: .blocks)
    }

    enum CodingKeys: String, CodingKey { case isTruncated, lineCount, lines, state, unit, blocks }
  }

  /// A block of a document: its `type` and what that type holds (text as `runs`, children as `blocks` or `items`).
  private struct BlockNode: Encodable {
    let block: Block

    init(_ block: Block) { self.block = block }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      let nodes = { (blocks: [Block]) in blocks.map(BlockNode.init) }
      switch block {
      case .paragraph(let text):
        try container.encode("paragraph", forKey: .type)
        try container.encode(Run.runs(of: text), forKey: .runs)
      case .heading(let level, let text):
        try container.encode("heading", forKey: .type)
        try container.encode(level, forKey: .level)
        try container.encode(Run.runs(of: text), forKey: .runs)
      case .list(let ordered, let start, let isTight, let items):
        try container.encode("list", forKey: .type)
        try container.encode(ordered, forKey: .ordered)
        try container.encode(start, forKey: .start)
        try container.encode(isTight, forKey: .tight)
        try container.encode(nodes(items), forKey: .items)
      case .item(let task, let blocks):
        try container.encode("item", forKey: .type)
        try container.encode(task, forKey: .task)
        try container.encode(nodes(blocks), forKey: .blocks)
      case .quote(let blocks):
        try container.encode("quote", forKey: .type)
        try container.encode(nodes(blocks), forKey: .blocks)
      case .code(let language, let text):
        try container.encode("code", forKey: .type)
        try container.encode(language, forKey: .language)
        try container.encode(text, forKey: .text)
      case .html(let text):
        try container.encode("html", forKey: .type)
        try container.encode(text, forKey: .text)
      case .rule:
        try container.encode("rule", forKey: .type)
      case .table(let alignments, let rows):
        try container.encode("table", forKey: .type)
        try container.encode(alignments.map(\.rawValue), forKey: .alignments)
        try container.encode(rows.map { $0.map(Run.runs(of:)) }, forKey: .rows)
      }
    }

    enum CodingKeys: String, CodingKey {
      case type, runs, level, ordered, start, tight, items, task, blocks, language, text, alignments, rows
    }
  }

  /// A run of a block's text: its characters, styles and link, as a fragment's.
  private struct Run: Encodable {
    var text: String
    var styles: [String]
    var link: String?

    static func runs(of text: StyledText) -> [Run] {
      text.runRanges.map { range, style in
        Run(text: String(text.text(in: range)), styles: style.traits.names, link: style.link)
      }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(text, forKey: .text)
      try container.encode(styles, forKey: .styles)
      try container.encode(link, forKey: .link)
    }

    enum CodingKeys: String, CodingKey { case text, styles, link }
  }

  private struct Line: Encodable {
    var text: String
    var width: Int
    var fragments: [Piece]

    init(_ line: DisplayLine) {
      text = line.text
      width = line.width
      fragments = line.fragments.map(Piece.init)
    }
  }

  private struct Piece: Encodable {
    var text: String
    var styles: [String]
    var link: String?
    var role: String

    init(_ fragment: Fragment) {
      text = fragment.text
      styles = fragment.style.traits.names
      link = fragment.style.link
      role = fragment.role.rawValue
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(text, forKey: .text)
      try container.encode(styles, forKey: .styles)
      try container.encode(link, forKey: .link)
      try container.encode(role, forKey: .role)
    }

    enum CodingKeys: String, CodingKey { case text, styles, link, role }
  }
}
