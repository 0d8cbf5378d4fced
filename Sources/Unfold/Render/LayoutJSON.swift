import Foundation

/// The stable JSON form of a truncated text, read by tools and tests (`unfold --format json`).
///
///     {"isTruncated": true, "lineCount": 5, "lines": [{"fragments": [{"link": null, "role": "text",
///       "styles": ["bold"], "text": "Hello"}], "text": "Hello", "width": 5}]}
///
/// Keys are sorted; `lineCount` is the number of lines of the expanded text (labels excluded), or `null`
/// when it was not counted; the lines are the ones shown in the state, labels included where they are drawn.
package enum LayoutJSON {
  /// The JSON text, one object, pretty-printed with sorted keys.
  package static func encode(_ text: TruncatedText) -> String { encode(Document(text)) }

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

    init(_ text: TruncatedText) {
      isTruncated = text.isTruncated
      lineCount = text.lineCount
      lines = text.lines.map(Line.init)
      state = text.state.rawValue
      unit = text.unit.name
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(isTruncated, forKey: .isTruncated)
      try container.encode(lineCount, forKey: .lineCount)
      try container.encode(lines, forKey: .lines)
      try container.encode(state, forKey: .state)
      try container.encode(unit, forKey: .unit)
    }

    enum CodingKeys: String, CodingKey { case isTruncated, lineCount, lines, state, unit }
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
