/// A document as HTML: its blocks as semantic elements (`h1`–`h6`, `ul`/`ol`/`li`, `blockquote`, `pre`/`code`,
/// `table`, `hr`, `p`), with CSS that pins the spacing and the indents to what ``DocumentLines`` measured.
///
///     <div class="unfold unfold-document" id="…" dir="ltr" data-state="collapsed" …><style>…</style>
///       <div class="unfold-collapsed">      the blocks up to the cut, each leaf's lines apart by <br>, every
///         <h2 dir="auto">…</h2>             element closed, the last shown line with the ellipsis and the toggle
///         <ul class="…"><li dir="auto"><p dir="auto">line<br>line<span class="unfold-ellipsis">…</span> <button…
///       </div>
///       <div class="unfold-full" id="…-full" tabindex="-1">the whole document, reflowed by the browser</div>
///       <script>…</script>
///     </div>
///
/// The blank line between two blocks is a margin of one line height; a list's markers are the browser's, in an
/// indent as wide as ``DocumentBoxes`` says; a task is a disabled checkbox in that indent; a quote's bar is a
/// border; a table has fixed columns of the widths measured, its rules drawn without taking room. Each leaf, item,
/// quote and table takes its direction from its own text (`dir="auto"`).
extension HTMLRenderer {
  /// What a document's HTML is written from: its blocks, its collapsed view, and its tables laid out.
  package struct Document {
    /// The blocks.
    package var blocks: [Block]
    /// The collapsed view (``DocumentLines/view(_:state:)``), its leaves' lines.
    package var collapsed: DocumentLines.View
    /// Each table of the document, in reading order, laid out in the width left to it.
    package var tables: [DocumentLines.CellTable]
    /// The room the marks take.
    package var boxes: DocumentBoxes

    /// A document's HTML source.
    package init(
      blocks: [Block], collapsed: DocumentLines.View, tables: [DocumentLines.CellTable], boxes: DocumentBoxes
    ) {
      (self.blocks, self.collapsed, self.tables, self.boxes) = (blocks, collapsed, tables, boxes)
    }
  }

  /// The HTML of `document`, first shown in `state`, in a container `width` CSS px wide.
  package func render(
    _ document: Document, truncation: TruncationOptions, state: DisplayState, width: Double,
    uniqueID: (String) -> String = { $0 }
  ) -> String {
    let text = Block.text(of: document.blocks)
    let view = document.collapsed.text
    let rendering =
      "document|\(state.rawValue)|\(Self.description(of: .truncation(truncation)))|\(document.collapsed.height)"
    let rawID = options.id ?? uniqueID(stableID(for: text, width: view.width, rendering: rendering))
    let id = Self.escape(rawID)
    let hasToggle = view.isTruncated && truncation.toggle != .none
    var html = UTF8Output(capacity: 2 * text.string.utf8.count + 8_192, sealingEvery: 65_536)
    writeOpening(
      classes: view.isTruncated && !hasToggle ? "unfold unfold-document unfold-on" : "unfold unfold-document", id: id,
      direction: TextDirection(firstStrongIn: text.string), isTruncated: view.isTruncated, hasToggle: hasToggle,
      state: state, to: &html)
    html.write("><style>")
    // The digits and the period of a list's markers, which the browser draws in the container's font.
    writeCSS(id: rawID, width: .fixed(width), text: text, labels: truncation.labels + ["0123456789."], to: &html)
    writeDocumentCSS(id: rawID, document: document, collapsesBlankLines: truncation.collapsesBlankLines, to: &html)
    html.write("</style>")
    html.seal()
    if view.isTruncated {
      html.write("<div class=\"unfold-collapsed\">")
      var writer = DocumentWriter(renderer: self, id: id, document: document, collapsed: true)
      writer.write(document.blocks, listDepth: 0, to: &html)
      // A toggle below the whole view.
      if let last = document.collapsed.leaves.last, last.upperBound < view.lines.count {
        html.write("<p class=\"unfold-end\">")
        writeLines(view.lines[last.upperBound...], fadeLine: nil, overlay: false, id: id, to: &html)
        html.write("</p>")
      }
      html.write("</div>")
    }
    html.write("<div class=\"unfold-full\" id=\"")
    html.write(id)
    html.write("-full\" tabindex=\"-1\">")
    var writer = DocumentWriter(renderer: self, id: id, document: document, collapsed: false)
    writer.write(document.blocks, listDepth: 0, to: &html)
    if hasToggle, let less = truncation.lessLabel {
      html.write("<p class=\"unfold-end\">")
      writeToggle(label: less, kind: "less", expanded: true, id: id, to: &html)
      html.write("</p>")
    }
    html.write("</div>")
    if hasToggle { writeScript(to: &html) }
    html.write("</div>\n")
    return wrapPage(html.sealedString())
  }

  /// Writes the blocks of a document as elements, in either view: collapsed, each leaf with its lines up to the cut
  /// and no element after it; expanded, every leaf with its runs, for the browser to lay out.
  private struct DocumentWriter {
    let renderer: HTMLRenderer
    let id: String
    let document: Document
    let collapsed: Bool
    /// The next leaf and the next table, in reading order.
    var leaf = 0, table = 0

    init(renderer: HTMLRenderer, id: String, document: Document, collapsed: Bool) {
      (self.renderer, self.id, self.document, self.collapsed) = (renderer, id, document, collapsed)
    }

    /// Whether the collapsed view has written every leaf it shows.
    var isDone: Bool { collapsed && leaf >= document.collapsed.leaves.count }

    /// Whether the current leaf is the one cut, whose lines end with the ellipsis and the toggle.
    var isCut: Bool { collapsed && document.collapsed.text.isTruncated && leaf == document.collapsed.leaves.count - 1 }

    mutating func write(_ blocks: [Block], listDepth: Int, to html: inout UTF8Output) {
      for block in blocks where !isDone { write(block, listDepth: listDepth, to: &html) }
    }

    private mutating func write(_ block: Block, listDepth: Int, to html: inout UTF8Output) {
      switch block {
      case .paragraph(let text): writeText("p", text, to: &html)
      case .html(let text): writeText("p", StyledText(plain: text), to: &html)
      case .heading(let level, let text):
        let elements: [StaticString] = ["h1", "h2", "h3", "h4", "h5", "h6"]
        writeText(elements[max(1, min(6, level)) - 1], text.adding(.bold), to: &html)
      case .code(_, let code): writeCode(DocumentLines.codeText(code), to: &html)
      case .rule: writeRule(to: &html)
      case .table(let alignments, let rows): writeTable(alignments: alignments, rows: rows, to: &html)
      case .quote(let blocks):
        html.write("<blockquote dir=\"auto\">")
        write(blocks, listDepth: listDepth, to: &html)
        html.write("</blockquote>")
      case .list(let ordered, let start, let isTight, let items):
        writeList(items, ordered: ordered, start: start, isTight: isTight, listDepth: listDepth, to: &html)
      case .item(_, let blocks): write(blocks, listDepth: listDepth, to: &html)
      }
    }

    /// A list: the class of its indent (by the digits of its widest number), its bullets' by depth, whether it is
    /// tight; each item's blocks, a task's box first.
    private mutating func writeList(
      _ items: [Block], ordered: Bool, start: Int, isTight: Bool, listDepth: Int, to html: inout UTF8Output
    ) {
      html.write(ordered ? "<ol" : "<ul")
      if ordered, start != 1 {
        html.write(" start=\"")
        html.write(decimal: start)
        html.write("\"")
      }
      html.write(" class=\"unfold-l")
      html.write(decimal: DocumentBoxes.digits(lastNumber: ordered ? start + max(0, items.count - 1) : nil))
      if !ordered {
        html.write(" unfold-u")
        html.write(decimal: listDepth % DocumentLines.bullets.count)
      }
      html.write(isTight ? " unfold-tight\">" : "\">")
      for item in items where !isDone {
        let (task, blocks) = item.asItem
        html.write(task == nil ? "<li dir=\"auto\">" : "<li dir=\"auto\" class=\"unfold-task\">")
        if let task {
          html.write(task ? "<input type=\"checkbox\" disabled checked>" : "<input type=\"checkbox\" disabled>")
        }
        if blocks.isEmpty { writeText("p", .empty, to: &html) }
        write(blocks, listDepth: listDepth + 1, to: &html)
        html.write("</li>")
      }
      html.write(ordered ? "</ol>" : "</ul>")
    }

    /// The current leaf's lines in the collapsed view.
    private var lines: ArraySlice<DisplayLine> { document.collapsed.text.lines[document.collapsed.leaves[leaf]] }

    /// Text that wraps: collapsed, its lines (the cut one's last fading, with the ellipsis and the toggle); an empty
    /// text a line of its own.
    private mutating func writeText(_ element: StaticString, _ text: StyledText, to html: inout UTF8Output) {
      defer { leaf += 1 }
      open(element, to: &html)
      if collapsed {
        let lines = self.lines
        let hasText = lines.contains { $0.fragments.contains { !($0.role == .marker && $0.text.isEmpty) } }
        if hasText {
          renderer.writeLines(
            lines, fadeLine: isCut ? lines.indices.last : nil, overlay: document.collapsed.text.toggle == .overlay,
            id: id, to: &html)
        } else {
          html.write("<br>")
        }
      } else if text.string.isEmpty {
        html.write("<br>")
      } else {
        HTMLRenderer.writeRuns(of: text, to: &html)
      }
      close(element, to: &html)
    }

    /// Whether the current leaf is cut before its first line: its place holds the line of the ellipsis and the
    /// toggle alone, a block of its own.
    private var isCutBeforeItsLines: Bool { isCut && lines.count == 1 }

    /// Code: collapsed, its lines shown, and the ellipsis and the toggle on a line after it when it is cut.
    private mutating func writeCode(_ text: StyledText, to html: inout UTF8Output) {
      defer { leaf += 1 }
      guard !isCutBeforeItsLines else { return writeMarks(to: &html) }
      open("pre", to: &html)
      if collapsed {
        let lines = isCut ? self.lines.dropLast() : self.lines
        if !text.string.isEmpty { renderer.writeLines(lines, fadeLine: nil, overlay: false, id: id, to: &html) }
      } else {
        HTMLRenderer.writeRuns(of: text, to: &html)
      }
      close("pre", to: &html)
      writeMarks(to: &html)
    }

    /// A rule; cut, the ellipsis and the toggle on a line after it.
    private mutating func writeRule(to html: inout UTF8Output) {
      defer { leaf += 1 }
      if !isCutBeforeItsLines { html.write("<hr>") }
      writeMarks(to: &html)
    }

    /// A table: fixed columns of the widths laid out; collapsed, its rows that the view shows, their cells' lines.
    private mutating func writeTable(
      alignments: [Block.Alignment], rows: [[StyledText]], to html: inout UTF8Output
    ) {
      defer { (leaf, table) = (leaf + 1, table + 1) }
      guard !isCutBeforeItsLines else { return writeMarks(to: &html) }
      let laidOut = document.tables[table]
      let shownRows =
        collapsed
        ? laidOut.rowEnds.lastIndex { $0 <= self.lines.count - (isCut ? 1 : 0) }.map { $0 + 1 } ?? 0
        : laidOut.rowEnds.count
      if shownRows > 0 {
        html.write("<table dir=\"auto\" class=\"unfold-t")
        html.write(decimal: table)
        html.write("\"><colgroup>")
        for _ in laidOut.columns { html.write("<col>") }
        html.write("</colgroup>")
        for rowIndex in 0..<shownRows {
          if rowIndex == 0 { html.write("<thead>") }
          if rowIndex == 1 { html.write("<tbody>") }
          html.write("<tr>")
          for column in laidOut.columns.indices {
            html.write(rowIndex == 0 ? "<th" : "<td")
            switch column < alignments.count ? alignments[column] : .none {
            case .none: break
            case .left: html.write(" class=\"unfold-al\"")
            case .center: html.write(" class=\"unfold-ac\"")
            case .right: html.write(" class=\"unfold-ar\"")
            }
            html.write(">")
            if collapsed {
              renderer.writeLines(
                laidOut.cells[rowIndex][column][...], fadeLine: nil, overlay: false, id: id, to: &html)
            } else if column < rows[rowIndex].count {
              let cell = rows[rowIndex][column]
              HTMLRenderer.writeRuns(of: rowIndex == 0 ? cell.adding(.bold) : cell, to: &html)
            }
            html.write(rowIndex == 0 ? "</th>" : "</td>")
          }
          html.write("</tr>")
          if rowIndex == 0 { html.write("</thead>") }
        }
        if shownRows > 1 { html.write("</tbody>") }
        html.write("</table>")
      }
      writeMarks(to: &html)
    }

    /// After a cut leaf that shows its marks on a line of their own (code, a rule, a table), that line: right after
    /// the leaf's lines, or in the leaf's place, after the blank line before it, when it shows none.
    private func writeMarks(to html: inout UTF8Output) {
      guard isCut, let marks = lines.last else { return }
      html.write(isCutBeforeItsLines ? "<p>" : "<p class=\"unfold-end\">")
      renderer.writeLines([marks][...], fadeLine: nil, overlay: false, id: id, to: &html)
      html.write("</p>")
    }

    private func open(_ element: StaticString, to html: inout UTF8Output) {
      html.write("<")
      html.write(element)
      html.write(" dir=\"auto\">")
    }

    private func close(_ element: StaticString, to html: inout UTF8Output) {
      html.write("</")
      html.write(element)
      html.write(">")
    }
  }
}

extension HTMLRenderer {
  /// The rules of a document's elements.
  ///
  /// Every element's display is pinned; the blank line between two blocks is a margin of one line height (none inside a
  /// tight list's items, none in a collapsed view that collapses blank lines); the lists' indents and markers, the
  /// quotes' bars, the code's and the cells' padding as ``DocumentBoxes`` says; each table's fixed columns. The colours
  /// of the bars, rules and code come from custom properties that a site may set (`--unfold-quote-color`,
  /// `--unfold-rule-color`, `--unfold-code-background`).
  func writeDocumentCSS(id: String, document: Document, collapsesBlankLines: Bool, to css: inout UTF8Output) {
    let root = Self.selector(forID: id)
    let boxes = document.boxes
    let line = Self.px(fonts.lineHeight)
    let gray = "var(--unfold-rule-color,GrayText)"
    var rules: [(String, String)] = [
      (":is(p,h1,h2,h3,h4,h5,h6,pre,blockquote,ul,ol,hr,div)", "display:block"),
      ("li", "display:list-item;list-style-position:outside"),
      // (A task's box, first in its item, takes no line: the block after it has no margin.)
      (
        ":is(.unfold-collapsed,.unfold-full,blockquote,li)>:not(input)+*," + root + " :is(ul,ol)>li+li",
        "margin-block-start:" + line
      ),
      (".unfold-tight>li+li," + root + " .unfold-tight>li>*+*," + root + " p.unfold-end", "margin-block-start:0"),
      (
        "blockquote",
        "border-inline-start:\(boxes.quoteBar)px solid var(--unfold-quote-color,GrayText);"
          + "padding-inline-start:\(boxes.quotePadding)px"
      ),
      ("ol", "list-style-type:decimal"), (".unfold-u0", "list-style-type:disc"),
      (".unfold-u1", "list-style-type:circle"), (".unfold-u2", "list-style-type:square"),
      ("li.unfold-task", "list-style-type:none;position:relative"),
      (
        ".unfold-task>input",
        "position:absolute;inset-inline-end:100%;top:" + Self.px((fonts.lineHeight - fonts.size) / 2)
          + ";width:1em;height:1em;margin:0;margin-inline-end:.4em"
      ),
      (
        "pre",
        "padding-inline:\(boxes.codePadding)px;min-height:\(line);"
          + "background:var(--unfold-code-background,rgba(127,127,127,.12))"
      ),
      ("hr", "height:\(line);background:linear-gradient(\(gray),\(gray)) center/100% 1px no-repeat"),
      ("table", "display:table;table-layout:fixed;border-collapse:separate;border-spacing:0"),
      ("thead", "display:table-header-group"), ("tbody", "display:table-row-group"), ("tr", "display:table-row"),
      ("colgroup", "display:table-column-group"), ("col", "display:table-column"),
      (
        ":is(th,td)",
        "display:table-cell;padding-inline:\(boxes.cellPadding)px;vertical-align:top;box-shadow:inset 0 -1px \(gray)"
      ),
      (".unfold-al", "text-align:left"), (".unfold-ac", "text-align:center"), (".unfold-ar", "text-align:right"),
    ]
    // Headings at their sizes (and code in them: the fragment's rules size code at the text's size).
    for (index, scale) in DocumentBoxes.headingScales.enumerated() where scale != 1 {
      let heading = DocumentBoxes.headingFonts(fonts, level: index + 1)
      rules.append(("h\(index + 1)", "font-size:\(Self.px(heading.size));line-height:\(Self.px(heading.lineHeight))"))
      rules.append(("h\(index + 1) code", "font-size:\(Self.px(heading.size))"))
    }
    for (digits, indent) in boxes.listIndents.enumerated() {
      rules.append((".unfold-l\(digits)", "padding-inline-start:\(indent)px"))
    }
    for (index, table) in document.tables.enumerated() {
      let columns = table.columns.map { $0 + 2 * boxes.cellPadding }
      rules.append((".unfold-t\(index)", "width:\(columns.reduce(0, +))px"))
      for (column, width) in columns.enumerated() {
        rules.append((".unfold-t\(index)>colgroup>col:nth-child(\(column + 1))", "width:\(width)px"))
      }
    }
    if collapsesBlankLines { rules.append((".unfold-collapsed *", "margin-block-start:0")) }
    for (selector, declarations) in rules {
      css.write(root)
      css.write(" ")
      css.write(selector)
      css.write("{")
      css.write(declarations)
      css.write("}")
    }
  }
}
