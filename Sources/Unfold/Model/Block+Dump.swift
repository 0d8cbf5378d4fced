extension Block {
  /// A stable, human-readable dump of blocks: one line per block, indented by two spaces per level of nesting,
  /// the styled text of a leaf below it (``StyledText/debugDump()``), indented one level more.
  ///
  ///     list bullet tight start=1
  ///       item task=done
  ///         paragraph
  ///           bold "Ship"
  ///           plain " it"
  ///
  /// Golden files store this format; it changes only when the parse changes.
  package static func debugDump(_ blocks: [Block], indent: Int = 0) -> String {
    blocks.map { $0.debugDump(indent: indent) }.joined()
  }

  private func debugDump(indent: Int) -> String {
    let pad = String(repeating: "  ", count: indent)
    let text = { (text: StyledText) in
      text.debugDump().split(separator: "\n").map { "\(pad)  \($0)\n" }.joined()
    }
    switch self {
    case .paragraph(let content): return "\(pad)paragraph\n" + text(content)
    case .heading(let level, let content): return "\(pad)heading \(level)\n" + text(content)
    case .list(let ordered, let start, let isTight, let items):
      return "\(pad)list \(ordered ? "ordered" : "bullet") \(isTight ? "tight" : "loose") start=\(start)\n"
        + Self.debugDump(items, indent: indent + 1)
    case .item(let task, let blocks):
      let mark = task.map { $0 ? " task=done" : " task=open" } ?? ""
      return "\(pad)item\(mark)\n" + Self.debugDump(blocks, indent: indent + 1)
    case .quote(let blocks): return "\(pad)quote\n" + Self.debugDump(blocks, indent: indent + 1)
    case .code(let language, let code):
      return "\(pad)code\(language.isEmpty ? "" : " " + language.quotedForDump) \(code.quotedForDump)\n"
    case .html(let html): return "\(pad)html \(html.quotedForDump)\n"
    case .rule: return "\(pad)rule\n"
    case .table(let alignments, let rows):
      return "\(pad)table \(alignments.map(\.rawValue).joined(separator: " "))\n"
        + rows.enumerated().map { index, cells in
          "\(pad)  \(index == 0 ? "header" : "row")\n"
            + cells.map {
              "\(pad)    cell\n" + $0.debugDump().split(separator: "\n").map { "\(pad)      \($0)\n" }.joined()
            }
            .joined()
        }.joined()
    }
  }
}
