/// What a reader sees of a document (``Block``s) in one state: the lines of every block, with the markers, bars and
/// indents of the containers around it, under one line budget.
///
/// The blocks become *pieces*: the leaves (paragraphs, headings, code, tables, rules, HTML) and the blank lines
/// between blocks, each with the prefix of its first line and of its other lines (a list item's marker, then an
/// indent as wide; a quote's bar on every line). A piece is laid out in the width left after its prefix:
///
///     # Release notes                 heading: `#` marks, the text bold
///
///     • Faster layout, measured       a tight list: no blank line between items
///       against three browsers        the hanging indent of the item
///     • ☑ Tables                      a task
///
///     │ A quote, its bar on           a quote
///     │ every line
///
///       let x = 1                     code in a gutter of two cells, not reflowed;
///     ↪ + 2                           a line wider than the width wraps, marked
///
/// Collapsed, the lines are counted across every block: `lineLimit` counts each visual line, the blank lines between
/// blocks included (unless `collapsesBlankLines`, which leaves them out of the collapsed view). The cut falls where the
/// budget ends, inside any block: a paragraph's or heading's last shown line ends with the ellipsis and the toggle,
/// cut back to make room as a paragraph's is; code shows whole lines and a table whole rows (and its bottom border),
/// with the ellipsis and the toggle on a line of their own after them, as after a rule. When the budget ends on the
/// blank line between two blocks, the block before it takes the marks.
///
/// A document is cut at its tail only: the truncation mode applies to paragraphs.
///
/// For HTML (``Marks/boxes(_:)``) the marks are the CSS's: a piece's prefix is the room its containers' boxes take,
/// with no text; a heading has no `#` marks, code no gutter, and a table's cells are laid out in columns of whole px
/// with no borders (``cellTable(alignments:rows:width:boxes:)``).
package struct DocumentLines {
  let measurer: any TextMeasurer
  let breaker: LineBreaker
  let width: Int
  let options: TruncationOptions
  let marks: Marks
  /// HTML's headings by level (`h1` first): the measurer of their text, in fonts of their size, and their line
  /// height in 1/64 CSS px; empty for a terminal, whose headings are as tall as the text.
  let headings: [(measurer: any TextMeasurer, lineHeight: Int)]
  /// The heights of HTML's lines, in 1/64 CSS px: the text's line height, and the height that a collapsed view may
  /// take besides its line limit (`nil` for none); `nil` for a terminal, whose lines count as 1.
  let heights: (budget: Int?, lineHeight: Int)?

  /// How the marks of containers take room.
  package enum Marks: Sendable {
    /// Drawn as text before the lines: a terminal's.
    case drawn
    /// Drawn by CSS in boxes of whole px: HTML's.
    case boxes(DocumentBoxes)
  }

  /// Lines of documents measured by `measurer`, broken by `breaker`, `width` wide, truncated as `options` say, their
  /// marks as `marks` say.
  package init(
    measurer: any TextMeasurer, breaker: LineBreaker, width: Int, options: TruncationOptions, marks: Marks = .drawn,
    headings: [(measurer: any TextMeasurer, lineHeight: Int)] = [], heights: (budget: Int?, lineHeight: Int)? = nil
  ) {
    (self.measurer, self.breaker, self.width, self.options, self.marks) = (measurer, breaker, width, options, marks)
    (self.headings, self.heights) = (headings, heights)
  }

  /// A leaf block, or the blank line between two blocks, with the prefixes of the containers around it.
  struct Piece {
    enum Content {
      /// A paragraph, a heading or HTML: text that wraps.
      case text(StyledText)
      /// Code: lines kept as written, wrapped at the width with a mark.
      case code(StyledText)
      case table(alignments: [Block.Alignment], rows: [[StyledText]])
      case rule
      case blank
      /// The rest of a document whose start is laid out (``DocumentLines/truncated(settledPrefixOf:)``): reached
      /// before the cut, it leaves the view unsettled.
      case rest
    }

    /// The prefix of the piece's first line.
    var first: [Fragment]
    /// The prefix of its other lines, as wide as the first's.
    var rest: [Fragment]
    var content: Content
    /// A heading's level whose text has a measurer of its own (``DocumentLines/headings``); 0 for the rest.
    var level = 0
    /// The direction of a blank line or a rule, which has no text: the block's before it in its container, so that a
    /// right-to-left quote's bar stays on the right (``DocumentLines/pieces(of:)``).
    var inheritedDirection: TextDirection?

    var isBlank: Bool {
      if case .blank = content { return true }
      return false
    }

    /// Whether the piece is a blank line or a rule.
    var hasNoText: Bool {
      switch content {
      case .blank, .rule: true
      default: false
      }
    }

    /// The direction of the piece's first strong character, left to right when it has none.
    var direction: TextDirection {
      switch content {
      case .text(let text), .code(let text): TextDirection(firstStrongIn: text.string)
      case .table(_, let rows):
        rows.lazy.flatMap { $0 }.lazy.compactMap { TextDirection.firstStrong(in: $0.string) }.first ?? .ltr
      case .rule, .blank, .rest: inheritedDirection ?? .ltr
      }
    }
  }

  /// The cells of a code block's gutter, where a wrapped line's continuation shows its mark.
  static let gutter = (line: "  ", continuation: "↪ ")
  /// A quote's bar, and the bullets of lists by depth.
  static let bar = "│ "
  static let bullets = ["•", "◦", "▪"]
  /// The boxes of a task that is open and done.
  static let taskBoxes = (open: "☐", done: "☑")
  /// Columns of tab stops in code.
  static let tabSize = 4

  /// The lines of `blocks` in `state`.
  ///
  /// Collapsed, at most `lineLimit` lines with the cut; expanded, every line and the less label on a line of its own
  /// when the document needs truncating. With `countingAllLines`, a collapsed document is laid out to its end, so that
  /// its line count is known.
  package func truncated(_ blocks: [Block], state: DisplayState, countingAllLines: Bool = false) -> TruncatedText {
    view(pieces(of: blocks), state: state, countingAllLines: countingAllLines).text
  }

  /// A view of a document, and where each leaf's lines are in it.
  package struct View {
    /// The lines, as ``DocumentLines/truncated(_:state:countingAllLines:)`` gives them.
    package var text: TruncatedText
    /// The range in `text` of the lines of each leaf shown.
    ///
    /// The leaves (paragraphs, headings, HTML, code, tables, rules, empty items) are the document's first ones, in
    /// reading order. A cut leaf's range ends with the line of the ellipsis
    /// and the toggle; a toggle on a line after the whole view is in no range.
    package var leaves: [Range<Int>]
    /// The height of the lines: in 1/64 CSS px for HTML (a heading's lines taller), their number for a terminal.
    package var height: Int
  }

  /// The lines of `blocks` in `state`, and where each leaf's are: what the HTML of a document writes block by block.
  package func view(_ blocks: [Block], state: DisplayState) -> View {
    view(pieces(of: blocks), state: state, countingAllLines: true)
  }

  /// Each table of `blocks` in reading order, laid out for HTML in the width its containers leave it.
  package func tables(of blocks: [Block], boxes: DocumentBoxes) -> [CellTable] {
    pieces(of: blocks).compactMap { piece in
      guard case .table(let alignments, let rows) = piece.content else { return nil }
      return cellTable(alignments: alignments, rows: rows, width: contentWidth(piece), boxes: boxes)
    }
  }

  /// The lines of `pieces` in `state` (``truncated(_:state:countingAllLines:)``); collapsed, a piece of the rest of
  /// the document reached before the cut leaves the view untruncated, with the lines before it.
  private func view(_ pieces: [Piece], state: DisplayState, countingAllLines: Bool) -> View {
    let limit = options.effectiveLineLimit
    let collapsed = state == .collapsed
    var lines: [DisplayLine] = []
    var height = 0  // of the lines, with a height budget
    // The pieces drawn, where their lines start in `lines` and the height before them, for a cut that moves back to
    // the piece before.
    var drawnPieces: [(index: Int, start: Int, height: Int)] = []
    var skipped = (lines: 0, height: 0)  // blank lines left out of a collapsed view
    // The lines of the cut view, with the piece cut, where its lines start and the height before them.
    var cut: (lines: [DisplayLine], toggleBelow: Bool, piece: Int, start: Int, height: Int)?
    var counted: (lines: Int, height: Int)?  // the expanded document's, once known
    // How many lines of `piece` the budget leaves after `count` lines that are `height` tall.
    func linesLeft(for piece: Piece, after count: Int, height: Int) -> Int {
      guard let budget = heights?.budget else { return limit - count }  // a budget of lines alone
      return min(limit - count, max(0, budget - height) / lineHeight(of: piece))
    }
    for (index, piece) in pieces.enumerated() {
      if cut != nil {
        let count = self.lines(of: piece).count
        counted!.lines += count
        counted!.height += count * lineHeight(of: piece)
        continue
      }
      if piece.isBlank && collapsed && options.collapsesBlankLines {
        skipped = (skipped.lines + 1, skipped.height + lineHeight(of: piece))
        continue
      }
      if case .rest = piece.content { break }
      let remaining = linesLeft(for: piece, after: lines.count, height: height)
      let drawn = self.lines(of: piece, limit: collapsed && !countingAllLines ? remaining + 1 : nil)
      if collapsed,
        drawn.count > remaining || (drawn.count == remaining && pieces[(index + 1)...].contains { !$0.isBlank })
      {
        counted = (
          lines.count + skipped.lines + drawn.count, height + skipped.height + drawn.count * lineHeight(of: piece)
        )
        var (cutIndex, visible) = (index, remaining)
        if piece.isBlank || remaining == 0, let previous = drawnPieces.popLast() {
          cutIndex = previous.index
          visible = linesLeft(for: pieces[cutIndex], after: previous.start, height: previous.height)
          lines.removeSubrange(previous.start...)
          height = previous.height
        }
        let shown = cutLines(of: pieces[cutIndex], visible: visible)
        cut = (lines + shown.lines, shown.toggleBelow, cutIndex, lines.count, height)
        guard countingAllLines else { break }
        continue
      }
      drawnPieces.append((index, lines.count, height))
      lines += drawn
      height += drawn.count * lineHeight(of: piece)
    }
    if cut == nil { counted = (lines.count + skipped.lines, height + skipped.height) }
    // The budget exceeded by the whole document: its lines, or its height.
    let exceeds = { (count: (lines: Int, height: Int)) in
      count.lines > limit || self.heights?.budget.map { count.height > $0 } == true
    }
    // Blank lines left out, everything else shown: the view still differs from the expanded one, and the last block
    // takes the toggle, as a paragraph's last line does (``TruncationOptions/collapsesBlankLines``).
    if collapsed, cut == nil, let count = counted, exceeds(count), let last = drawnPieces.popLast() {
      let shown = cutLines(of: pieces[last.index], visible: lines.count - last.start)
      cut = (Array(lines[..<last.start]) + shown.lines, shown.toggleBelow, last.index, last.start, last.height)
    }
    let isTruncated = cut != nil || counted.map(exceeds) == true
    var leaves = drawnPieces.indices.compactMap { number -> Range<Int>? in
      let (index, start, _) = drawnPieces[number]
      guard !pieces[index].isBlank else { return nil }
      return start..<(number + 1 < drawnPieces.count ? drawnPieces[number + 1].start : lines.count)
    }
    // The lines after the blocks' (a toggle below, reserved blank lines, the less label) are the text's height.
    let textLine = heights?.lineHeight ?? 1
    if let cut {
      lines = cut.lines
      leaves.append(cut.start..<lines.count)
      height = cut.height + (lines.count - cut.start) * lineHeight(of: pieces[cut.piece])
      if cut.toggleBelow, let label = labels().more.nonEmpty {
        lines.append(DisplayLine(fragments: [label]))
        height += textLine
      }
    } else if collapsed {
      let reserved = options.reservedBlankLines(after: lines.count)
      lines += Array(repeating: DisplayLine(fragments: []), count: reserved)
      height += reserved * textLine
    } else if isTruncated, let less = options.lessLabel, options.toggle != .none, !less.isEmpty {
      lines.append(DisplayLine(fragments: [Fragment(text: less, width: measurer.width(of: less), role: .lessLabel)]))
      height += textLine
    }
    let text = TruncatedText(
      lines: lines, isTruncated: isTruncated, lineCount: counted?.lines, state: state, width: width,
      unit: measurer.unit,
      mode: .tail, toggle: options.toggle, diagnostics: Truncator.widthOutOfRange(width, unit: measurer.unit))
    return View(text: text, leaves: leaves, height: height)
  }

  /// The collapsed view of the document `markdown` laid out from a start of it that settles it, or `nil` when none
  /// does (the whole document is then to be laid out), so that a preview of a book costs what a preview of a comment
  /// does.
  ///
  /// A start cut after a line end parses into the whole document's blocks but for its last top-level block, which
  /// the rest may continue (a list's next item, a fence's closing line), and but for link reference definitions in
  /// the rest, which make a literal `[label]` of the start a link. So the blocks before the last are laid out with the
  /// rest of the document after them, and settle the view when its cut falls inside them and their text holds no `[`
  /// outside code. The starts tried grow from 4 KiB fourfold.
  package func truncated(settledPrefixOf markdown: String, autolinks: Bool = true) -> TruncatedText? {
    var length = 4_096
    let bytes = markdown.utf8.count
    while length < bytes {
      defer { length *= 4 }
      let utf8 = markdown.utf8
      let limit = utf8.index(utf8.startIndex, offsetBy: length)
      guard let newline = utf8[..<limit].lastIndex(of: UInt8(ascii: "\n")) else { continue }
      let blocks = MarkdownParser.parseDocument(String(markdown[...newline]), autolinks: autolinks)
      guard blocks.count >= 2 else { continue }
      let settled = Array(blocks.dropLast())
      guard !Block.text(of: settled).holdsBracketOutsideCode else { return nil }
      let view = self.view(
        pieces(of: settled) + [
          Piece(first: [], rest: [], content: .blank), Piece(first: [], rest: [], content: .rest),
        ],
        state: .collapsed, countingAllLines: false
      ).text
      if view.isTruncated { return view }
    }
    return nil
  }

  // MARK: - Pieces

  /// The pieces of `blocks`, in reading order; a blank line or a rule inside a container takes the direction of the
  /// piece before it (of the next one when it comes first).
  func pieces(of blocks: [Block]) -> [Piece] {
    var result: [Piece] = []
    append(blocks, first: [], rest: [], isTight: false, listDepth: 0, to: &result)
    var before: TextDirection?
    for index in result.indices {
      switch result[index].content {
      case .blank, .rule:
        guard !result[index].first.isEmpty else { continue }
        result[index].inheritedDirection =
          before ?? result[(index + 1)...].first { !$0.hasNoText }?.direction
      default: before = result[index].direction
      }
    }
    return result
  }

  /// Appends the pieces of sibling blocks: the first line of the first takes `first` as its prefix, every other line
  /// `rest`; a blank line separates them unless they are the blocks of a tight list's item.
  private func append(
    _ blocks: [Block], first: [Fragment], rest: [Fragment], isTight: Bool, listDepth: Int, to result: inout [Piece]
  ) {
    for (index, block) in blocks.enumerated() {
      if index > 0 && !isTight { result.append(Piece(first: trimmed(rest), rest: [], content: .blank)) }
      let lead = index == 0 ? first : rest
      switch block {
      case .paragraph(let text): result.append(Piece(first: lead, rest: rest, content: .text(text)))
      case .html(let html): result.append(Piece(first: lead, rest: rest, content: .text(StyledText(plain: html))))
      case .heading(let level, let text) where marks.boxes != nil:
        result.append(Piece(first: lead, rest: rest, content: .text(text.adding(.bold)), level: level))
      case .heading(let level, let text):
        let marks = String.repeated("#", count: max(1, min(6, level))) + " "
        result.append(
          Piece(
            first: lead + [marker(marks)], rest: rest + [marker(String.repeated(" ", count: marks.count))],
            content: .text(text.adding(.bold))))
      case .code(_, let code): result.append(Piece(first: lead, rest: rest, content: .code(Self.codeText(code))))
      case .rule: result.append(Piece(first: lead, rest: rest, content: .rule))
      case .table(let alignments, let rows):
        result.append(Piece(first: lead, rest: rest, content: .table(alignments: alignments, rows: rows)))
      case .quote(let blocks):
        let bar = marks.boxes.map { indent($0.quoteIndent) } ?? marker(Self.bar)
        append(
          blocks, first: lead + [bar], rest: rest + [bar], isTight: false, listDepth: listDepth, to: &result)
      case .list(let ordered, let start, let isTightList, let items):
        appendList(
          items, ordered: ordered, start: start, isTight: isTightList, first: lead, rest: rest, listDepth: listDepth,
          to: &result)
      case .item(_, let blocks):
        append(blocks, first: lead, rest: rest, isTight: isTight, listDepth: listDepth, to: &result)
      }
    }
  }

  /// Appends the pieces of a list's items, each marked with its bullet or number (right-aligned to the widest) and
  /// its task box, its lines after the first indented as far.
  private func appendList(
    _ items: [Block], ordered: Bool, start: Int, isTight: Bool, first: [Fragment], rest: [Fragment], listDepth: Int,
    to result: inout [Piece]
  ) {
    if let boxes = marks.boxes {
      // The browser draws the markers in the list's indent.
      let indent = indent(boxes.listIndent(lastNumber: ordered ? start + max(0, items.count - 1) : nil))
      for (index, item) in items.enumerated() {
        if index > 0 && !isTight { result.append(Piece(first: rest, rest: [], content: .blank)) }
        let blocks = item.asItem.blocks
        let lead = (index == 0 ? first : rest) + [indent]
        if blocks.isEmpty { result.append(Piece(first: lead, rest: rest + [indent], content: .text(.empty))) }
        append(blocks, first: lead, rest: rest + [indent], isTight: isTight, listDepth: listDepth + 1, to: &result)
      }
      return
    }
    let numbers = items.indices.map { ordered ? "\(start + $0)." : Self.bullets[listDepth % Self.bullets.count] }
    let widest = numbers.map { measurer.width(of: $0) }.max() ?? 0
    for (index, item) in items.enumerated() {
      if index > 0 && !isTight { result.append(Piece(first: trimmed(rest), rest: [], content: .blank)) }
      let (task, blocks) = item.asItem
      let pad = String.repeated(" ", count: max(0, widest - measurer.width(of: numbers[index])))
      var mark = pad + numbers[index] + " "
      if let task {
        let box = task ? Self.taskBoxes.done : Self.taskBoxes.open
        mark = ordered ? mark + box + " " : pad + box + " "
      }
      let lead = (index == 0 ? first : rest) + [marker(mark)]
      let indent = rest + [marker(String.repeated(" ", count: measurer.width(of: mark)))]
      if blocks.isEmpty {
        result.append(Piece(first: lead, rest: indent, content: .text(.empty)))
      }
      append(blocks, first: lead, rest: indent, isTight: isTight, listDepth: listDepth + 1, to: &result)
    }
  }

  private func marker(_ text: String) -> Fragment {
    Fragment(text: text, width: measurer.width(of: text), role: .marker)
  }

  /// The room of a box `pixels` CSS px wide, with no text (``Marks/boxes(_:)``).
  private func indent(_ pixels: Int) -> Fragment {
    Fragment(text: "", width: pixels * (marks.boxes?.unitsPerPixel ?? 1), role: .marker)
  }

  /// A prefix without its trailing spaces: the prefix of a blank line.
  private func trimmed(_ prefix: [Fragment]) -> [Fragment] {
    var result = prefix
    while let last = result.last {
      let text = String(last.text[...].trimmingSuffix(while: { $0 == " " }))
      if text.isEmpty {
        result.removeLast()
        continue
      }
      result[result.count - 1] = marker(text)
      break
    }
    return result
  }

  /// Code as the code style's text, its tabs expanded to stops every ``tabSize`` columns (counted in characters).
  static func codeText(_ code: String) -> StyledText {
    // Most code has no tab: its text as it is (appended Character by Character, a code block's 54,000 characters
    // took 17 M instructions of the benchmark's 1 MB document).
    guard code.utf8Contains(anyOf: 0x09) else {
      return StyledText(code, runs: [StyledText.Run(length: code.utf8.count, style: Style(.code))])
    }
    var expanded = ""
    var column = 0
    for character in code {
      switch character {
      case "\t":
        let spaces = tabSize - column % tabSize
        expanded += String.repeated(" ", count: spaces)
        column += spaces
      case "\n":
        expanded.append(character)
        column = 0
      default:
        expanded.append(character)
        column += 1
      }
    }
    return StyledText(expanded, runs: [StyledText.Run(length: expanded.utf8.count, style: Style(.code))])
  }

  // MARK: - Lines of a piece

  /// The measurer of a piece's text: a heading's own in HTML.
  private func measurer(for piece: Piece) -> any TextMeasurer {
    piece.level > 0 && piece.level <= headings.count ? headings[piece.level - 1].measurer : measurer
  }

  /// The height of each of a piece's lines in 1/64 CSS px (1 with no height budget).
  private func lineHeight(of piece: Piece) -> Int {
    guard let heights else { return 1 }
    return piece.level > 0 && piece.level <= headings.count ? headings[piece.level - 1].lineHeight : heights.lineHeight
  }

  /// The width that a piece's text is laid out in: the line's less its prefix, at least 1.
  private func contentWidth(_ piece: Piece) -> Int {
    max(1, width - piece.first.reduce(0) { $0 + $1.width })
  }

  /// The lines of a piece, prefixed; at most `limit` of them when given (more being then left out).
  func lines(of piece: Piece, limit: Int? = nil) -> [DisplayLine] {
    Self.prefixed(contentLines(of: piece, limit: limit), by: piece)
  }

  /// A piece's content lines after its prefixes: the first line's, then the others'; each in the direction of the
  /// piece's first strong character (every block finds its own, as `dir="auto"` does).
  private static func prefixed(_ lines: [DisplayLine], by piece: Piece) -> [DisplayLine] {
    let direction = piece.direction
    // Each prefix's markers merged once, not again for every line (a list item's or a quote's lines, a table's).
    let first = DisplayLine(markers: piece.first, then: []).fragments
    let rest = lines.count > 1 ? DisplayLine(markers: piece.rest, then: []).fragments : []
    return lines.enumerated().map { index, line in
      DisplayLine(markers: index == 0 ? first : rest, then: line.fragments, direction: direction)
    }
  }

  /// The lines of a piece without its prefixes.
  private func contentLines(of piece: Piece, limit: Int?) -> [DisplayLine] {
    let width = contentWidth(piece)
    switch piece.content {
    case .blank, .rest: return [DisplayLine(fragments: [])]
    case .rule where marks.boxes != nil: return [DisplayLine(fragments: [])]
    case .rule: return [DisplayLine(fragments: [marker(String.repeated("─", count: width))])]
    case .text(let text) where text.string.isEmpty:
      return [DisplayLine(fragments: [])]
    case .text(let text):
      let layout = LineLayout(
        text, measurer: measurer(for: piece), breaker: breaker, width: width, lineLimit: limit,
        recordsBreakOffsets: false)
      let drawer = LineDrawer(layout: layout)
      return layout.lines.prefix(limit ?? .max).map { drawer.draw($0) }
    case .code(let text):
      return codeLines(text, width: width, limit: limit)
    case .table(let alignments, let rows):
      let table =
        marks.boxes.map { cellTable(alignments: alignments, rows: rows, width: width, boxes: $0).lines }
        ?? tableLines(alignments: alignments, rows: rows, width: width).lines
      return Array(table.prefix(limit ?? .max))
    }
  }

  /// Code laid out in the width less the gutter, every line that starts a line of the code after two spaces, every
  /// line that continues one after the mark; empty code, a line of its gutter alone (a fence with nothing inside still
  /// shows, as every block takes a line).
  private func codeLines(_ text: StyledText, width: Int, limit: Int?) -> [DisplayLine] {
    guard limit.map({ $0 > 0 }) ?? true else { return [] }
    if let boxes = marks.boxes {  // padding on both sides, the continuations unmarked
      guard !text.string.isEmpty else { return [DisplayLine(fragments: [])] }
      let layout = LineLayout(
        text, measurer: measurer, breaker: breaker, width: max(1, width - 2 * boxes.codePadding * boxes.unitsPerPixel),
        lineLimit: limit, recordsBreakOffsets: false)
      let drawer = LineDrawer(layout: layout)
      return layout.lines.prefix(limit ?? .max).map { drawer.draw($0) }
    }
    let gutter = (line: marker(Self.gutter.line), continuation: marker(Self.gutter.continuation))
    guard !text.string.isEmpty else { return [DisplayLine(fragments: [gutter.line])] }
    let layout = LineLayout(
      text, measurer: measurer, breaker: breaker, width: max(1, width - gutter.line.width), lineLimit: limit,
      recordsBreakOffsets: false)
    let drawer = LineDrawer(layout: layout)
    let bytes = Array(text.string.utf8)
    return layout.lines.prefix(limit ?? .max).map { line in
      let start = line.range.lowerBound
      let startsLine = start == 0 || bytes[start - 1] == UInt8(ascii: "\n")
      return DisplayLine(fragments: [startsLine ? gutter.line : gutter.continuation] + drawer.draw(line).fragments)
    }
  }

  // MARK: - The cut

  /// The labels, measured.
  private func labels() -> MeasuredLabels { MeasuredLabels(options, measurer: measurer) }

  /// The first `visible` lines of a piece, the last of them with the ellipsis and the toggle: text cut back to
  /// make room for them; code, a table or a rule shown in whole lines (a table in whole rows) with the marks on a
  /// line of their own; and whether the toggle goes below the lines, on a line of its own (where the options put it,
  /// or where it does not fit after the ellipsis, or in the width that the piece's containers leave).
  private func cutLines(of piece: Piece, visible: Int) -> (lines: [DisplayLine], toggleBelow: Bool) {
    let width = contentWidth(piece)
    let measurer = measurer(for: piece)  // a heading's labels are drawn at its size
    let labels = MeasuredLabels(options, measurer: measurer)
    var options = labels.fitting(options, width: width)
    // A label wider than the width left inside the containers goes below them, on a line of the whole width.
    if options.toggle == .none, labels.fitting(self.options, width: self.width).toggle != .none {
      options.toggle = .below
    }
    options.mode = .tail
    let marks = labels.marks(options, width: width)
    let below = options.toggle == .below
    let prefixed = { (lines: [DisplayLine]) in Self.prefixed(lines, by: piece) }
    switch piece.content {
    case .text(let text) where text.string.isEmpty:  // an empty item: its marker, then the marks
      return (prefixed([DisplayLine(fragments: marks)]), below)
    case .text(let text):
      options.lineLimit = visible
      if options.toggle == .below { options.toggle = .none }  // the label goes below the whole document
      let layout = LineLayout(
        text, measurer: measurer, breaker: breaker, width: width, lineLimit: visible, recordsBreakOffsets: true)
      let truncated = Truncator.truncate(
        layout, options: options, state: .collapsed, findsUnpredictableRanges: false, continues: true)
      return (prefixed(truncated.lines), below)
    case .code(let text):
      let shown = codeLines(text, width: width, limit: visible - 1)
      let gutter = self.marks.boxes == nil ? [marker(Self.gutter.line)] : []
      return (prefixed(shown + [DisplayLine(fragments: gutter + marks)]), below)
    case .table(let alignments, let rows):
      if let boxes = self.marks.boxes {
        let table = cellTable(alignments: alignments, rows: rows, width: width, boxes: boxes)
        let rowsShown = table.rowEnds.lastIndex { $0 <= visible - 1 }
        let shown = rowsShown.map { Array(table.lines.prefix(table.rowEnds[$0])) } ?? []
        return (prefixed(shown + [DisplayLine(fragments: marks)]), below)
      }
      let table = tableLines(alignments: alignments, rows: rows, width: width)
      // Whole rows and the bottom border, in the lines before the marks'.
      let rowsShown = table.rowEnds.lastIndex { $0 + 1 <= visible - 1 }
      let shown = rowsShown.map { Array(table.lines.prefix(table.rowEnds[$0])) + [table.lines[table.lines.count - 1]] }
      return (prefixed((shown ?? []) + [DisplayLine(fragments: marks)]), below)
    case .rule:
      let rule = contentLines(of: piece, limit: nil)
      return (prefixed((visible > 1 ? rule : []) + [DisplayLine(fragments: marks)]), below)
    case .blank, .rest:
      return (prefixed([DisplayLine(fragments: marks)]), below)
    }
  }

  // MARK: - Tables

  /// A table of HTML (``Marks/boxes(_:)``): its columns' widths and each cell's lines, and the lines the table takes.
  package struct CellTable {
    /// The width of each column's text in CSS px (a cell's padding around it).
    package var columns: [Int]
    /// The lines of each row's cells, a cell for every column; the header's in bold.
    package var cells: [[[DisplayLine]]]
    /// The table's lines: each row as many as its tallest cell takes, a line holding the text of each cell's line.
    package var lines: [DisplayLine]
    /// After each row (the header first), the number of lines up to and including it.
    package var rowEnds: [Int]
  }

  /// A table laid out for HTML.
  ///
  /// It takes the width (in the measurer's unit) less each cell's padding: each column as wide as its widest cell in
  /// whole px when the table fits, else narrowed as ``narrowed(_:toFit:)`` narrows (to no less than a px), the cells
  /// wrapping in them. No border takes room: a row is as tall as its tallest cell.
  package func cellTable(
    alignments: [Block.Alignment], rows: [[StyledText]], width: Int, boxes: DocumentBoxes
  ) -> CellTable {
    let columns = max(alignments.count, rows.map(\.count).max() ?? 0)
    guard columns > 0 else { return CellTable(columns: [], cells: [], lines: [], rowEnds: []) }
    let unit = boxes.unitsPerPixel
    // Each cell laid out once in a width it does not reach, and again only in a column narrower than its lines.
    let unbounded = rows.enumerated().map { rowIndex, row in
      (0..<columns).map { column in
        let text = column < row.count ? row[column] : .empty
        return LineLayout(
          rowIndex == 0 ? text.adding(.bold) : text, measurer: measurer, breaker: breaker, width: 1 << 30,
          lineLimit: nil, recordsBreakOffsets: false)
      }
    }
    let natural = unbounded.map { row in row.map { (($0.lines.map(\.width).max() ?? 0) + unit - 1) / unit } }
    let room = width / unit - columns * 2 * boxes.cellPadding
    let widths = Self.narrowed(
      (0..<columns).map { column in max(1, natural.map { $0[column] }.max() ?? 0) }, toFit: max(columns, room))
    var table = CellTable(columns: widths, cells: [], lines: [], rowEnds: [])
    for (rowIndex, row) in unbounded.enumerated() {
      let cells = (0..<columns).map { column -> [DisplayLine] in
        let layout =
          natural[rowIndex][column] <= widths[column]
          ? row[column].at(width: widths[column] * unit)
          : LineLayout(
            row[column].text, measurer: measurer, breaker: breaker, width: widths[column] * unit, lineLimit: nil,
            recordsBreakOffsets: false)
        let drawer = LineDrawer(layout: layout)
        return layout.lines.map { drawer.draw($0) }
      }
      table.cells.append(cells)
      for line in 0..<max(1, cells.map(\.count).max() ?? 1) {
        table.lines.append(DisplayLine(fragments: cells.flatMap { line < $0.count ? $0[line].fragments : [] }))
      }
      table.rowEnds.append(table.lines.count)
    }
    return table
  }

  /// Column `widths` narrowed to add up to at most `room`, none below 1.
  ///
  /// The widest are cut to one level, the leftmost of them one cell below the rest where the room is not a multiple
  /// (as narrowing the leftmost widest column a cell at a time does). The level is found by a search, not a cell at a
  /// time, so that a cell of a megabyte costs no more than a short one.
  static func narrowed(_ widths: [Int], toFit room: Int) -> [Int] {
    guard widths.reduce(0, +) > room else { return widths }
    let total = { (level: Int) in widths.reduce(0) { $0 + min($1, level) } }
    // The highest level at which the capped widths fit, at least 1.
    var (low, high) = (1, widths.max() ?? 1)
    while low < high {
      let middle = (low + high + 1) / 2
      if total(middle) <= room { low = middle } else { high = middle - 1 }
    }
    var result = widths.map { min($0, low) }
    var extra = room - total(low)
    for index in result.indices.reversed() where extra > 0 && widths[index] > low {
      result[index] += 1
      extra -= 1
    }
    return result
  }

  /// A table drawn with box-drawing borders: its lines, and after each row (the header first) the number of lines up
  /// to and including it.
  ///
  /// Each column is as wide as its widest cell when the table fits the width; otherwise the widest columns shrink
  /// until it does (to no less than a cell), and cells wrap in their column.
  func tableLines(
    alignments: [Block.Alignment], rows: [[StyledText]], width: Int
  ) -> (lines: [DisplayLine], rowEnds: [Int]) {
    let columns = max(alignments.count, rows.map(\.count).max() ?? 0)
    guard columns > 0 else { return ([], []) }
    // Each cell laid out once in a width it does not reach: its lines end where it breaks, and they stay its lines in
    // any column at least as wide as the widest of them; a narrower column lays the cell out again.
    let unbounded = rows.map { row in
      (0..<columns).map { column in
        LineLayout(
          column < row.count ? row[column] : .empty, measurer: measurer, breaker: breaker, width: 1 << 30,
          lineLimit: nil, recordsBreakOffsets: false)
      }
    }
    let natural = unbounded.map { row in row.map { $0.lines.map(\.width).max() ?? 0 } }
    let widths = Self.narrowed(
      (0..<columns).map { column in max(1, natural.map { $0[column] }.max() ?? 0) },
      toFit: max(columns, width - (3 * columns + 1)))
    // The borders' and the padding's characters, measured once, each a code point (as a string, each was 900
    // instructions): a table's markers are most of its characters.
    let measured = { (scalar: Unicode.Scalar) in
      (text: String(scalar), width: measurer.advance(ofScalar: scalar, style: .plain))
    }
    let (space, rule, bar) = (measured(" "), measured("─"), measured("│"))
    func border(_ left: Unicode.Scalar, _ middle: Unicode.Scalar, _ right: Unicode.Scalar) -> DisplayLine {
      let (left, middle, right) = (measured(left), measured(middle), measured(right))
      var text = left.text
      for (index, columnWidth) in widths.enumerated() {
        if index > 0 { text += middle.text }
        text += String.repeated(rule.text, count: columnWidth + 2)
      }
      let width =
        left.width + widths.reduce(0) { $0 + ($1 + 2) * rule.width } + (widths.count - 1) * middle.width + right.width
      return DisplayLine(fragments: [Fragment(text: text + right.text, width: width, role: .marker)])
    }
    var lines = [border("┌", "┬", "┐")]
    var rowEnds: [Int] = []
    for (rowIndex, row) in unbounded.enumerated() {
      let cells = (0..<columns).map { column -> [DisplayLine] in
        let layout =
          natural[rowIndex][column] <= widths[column]
          ? row[column].at(width: widths[column])
          : LineLayout(
            row[column].text, measurer: measurer, breaker: breaker, width: widths[column], lineLimit: nil,
            recordsBreakOffsets: false)
        let drawer = LineDrawer(layout: layout)
        return layout.lines.map { drawer.draw($0) }
      }
      let height = max(1, cells.map(\.count).max() ?? 1)
      for lineIndex in 0..<height {
        // The markers between two cells' text, gathered into one fragment: the bar and the padding around it.
        var fragments: [Fragment] = []
        var pending = (text: bar.text, width: bar.width)
        func pad(_ count: Int) {
          pending.text += String.repeated(space.text, count: count)
          pending.width += count * space.width
        }
        for column in 0..<columns {
          let line = lineIndex < cells[column].count ? cells[column][lineIndex].fragments : []
          let free = max(0, widths[column] - line.reduce(0) { $0 + $1.width })
          let alignment = column < alignments.count ? alignments[column] : .none
          let before = alignment == .right ? free : alignment == .center ? free / 2 : 0
          pad(1 + before)
          if !line.isEmpty {
            fragments.append(Fragment(text: pending.text, width: pending.width, role: .marker))
            fragments += line.map { rowIndex == 0 ? $0.adding(.bold) : $0 }
            pending = ("", 0)
          }
          pad(free - before + 1)
          pending.text += bar.text
          pending.width += bar.width
        }
        fragments.append(Fragment(text: pending.text, width: pending.width, role: .marker))
        lines.append(DisplayLine(fragments: fragments))
      }
      if rowIndex == 0 { lines.append(border("├", "┼", "┤")) }
      rowEnds.append(lines.count)
    }
    lines.append(border("└", "┴", "┘"))
    return (lines, rowEnds)
  }
}

extension DocumentLines.Marks {
  /// The boxes of HTML's marks; nil for drawn ones.
  var boxes: DocumentBoxes? {
    if case .boxes(let boxes) = self { return boxes }
    return nil
  }
}

extension StyledText {
  /// Whether a `[` stands in the text outside code: a link's text that a reference definition may resolve.
  var holdsBracketOutsideCode: Bool {
    string.utf8.contains(UInt8(ascii: "["))
      && runRanges.contains { range, style in
        !style.traits.contains(.code) && string.utf8Slice(range).utf8.contains(UInt8(ascii: "["))
      }
  }
}

extension DisplayLine {
  /// A line of `markers` and then `fragments`, each run of markers one fragment: drawn in one escape.
  init(markers: [Fragment], then fragments: [Fragment], direction: TextDirection? = nil) {
    var merged: [Fragment] = []
    merged.reserveCapacity(markers.count + fragments.count)
    func add(_ fragment: Fragment) {
      if fragment.role == .marker, let last = merged.last, last.role == .marker {
        merged[merged.count - 1] = Fragment(
          text: last.text + fragment.text, width: last.width + fragment.width, role: .marker)
      } else {
        merged.append(fragment)
      }
    }
    // The two arrays read one after the other (joined, they were copied into a third per line).
    for fragment in markers { add(fragment) }
    for fragment in fragments { add(fragment) }
    self.init(fragments: merged, direction: direction)
  }
}

extension Fragment {
  /// The fragment with `trait` added to its style, when it is text.
  func adding(_ trait: Style.Traits) -> Fragment {
    guard role == .text else { return self }
    var fragment = self
    fragment.style.traits.insert(trait)
    return fragment
  }

  /// The fragment, or nil when its text is empty.
  var nonEmpty: Fragment? { text.isEmpty ? nil : self }
}
