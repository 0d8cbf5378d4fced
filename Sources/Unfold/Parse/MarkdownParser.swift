internal import CCmarkGFM
import Foundation
import Synchronization

/// Parses inline markdown into styled text, with the semantics of SwiftUI's `Text` for a localized string.
///
/// Only inline syntax is interpreted (bold, italic, strikethrough, code spans, links, autolinks, escapes and
/// entities), and, unless `autolinks` is off, bare URLs, `www.` addresses and e-mail addresses become links as
/// on GitHub (`Autolinks`; SwiftUI's `Text` leaves them text); block syntax (headings, lists, quotes, fences, indented code) stays literal, and every newline
/// and space stays where it was, as Apple's `inlineOnlyPreservingWhitespace` does. Raw HTML is shown as
/// literal text; an image shows its alt text.
///
/// The input is parsed in chunks separated by blank lines, so emphasis cannot span a blank line (Apple's
/// parser lets it), and a paragraph longer than 16 KiB is parsed in pieces cut at line ends (or spaces), with
/// a ``Diagnostic/Kind/paragraphSplit`` diagnostic: emphasis or a link across a cut shows as written. This
/// keeps the cost of cmark-gfm 0.29.0.gfm.6's polynomial inputs linear in the length of the text.
///
/// A document (``parseDocument(_:autolinks:)``) is read by cmark-gfm's block parser instead, whole, into ``Block``s
/// whose text the same inline walk reads.
///
/// This is the only file that touches cmark-gfm. Every call into the library holds one process-wide lock,
/// because gfm.6 changes a process-global table on every parse.
package enum MarkdownParser {
  /// The result of a parse: the styled text and what went wrong on the way.
  package struct Result: Hashable, Sendable {
    /// The styled text.
    package var text: StyledText
    /// Chunks that could not be parsed and were kept as literal text, paragraphs parsed in pieces.
    package var diagnostics: [Diagnostic]
  }

  /// Parses markdown.
  ///
  /// `\r\n` and `\r` become `\n` and NUL becomes U+FFFD first (cmark-gfm would start a new line at a CR,
  /// and the columns it reports would no longer point into the chunk: the fuzzer found text lost that way).
  /// - Complexity: O(*n*) in the length of the markdown: a chunk is at most 16 KiB.
  package static func parse(_ markdown: String, autolinks: Bool = true) -> Result {
    var markdown = TextSource.normalizingLineEnds(markdown)
    return markdown.withUTF8 { parsed($0, autolinks: autolinks) }
  }

  /// The styled text of the UTF-8 bytes `range` of `markdown`, whose line ends are already normalized (see
  /// ``parse(_:)``) and which is cut after blank lines, or at its ends: the part of ``parse(_:)``'s text that
  /// they make (chunks between blank lines parse independently).
  ///
  /// Read in place, not copied.
  static func parse(_ markdown: inout String, utf8 range: Range<Int>, autolinks: Bool) -> StyledText {
    markdown.withUTF8 { parsed(UnsafeBufferPointer(rebasing: $0[range]), autolinks: autolinks).text }
  }

  /// The parse of normalized markdown's UTF-8 bytes, into a builder with room for them.
  private static func parsed(_ bytes: UnsafeBufferPointer<UInt8>, autolinks: Bool) -> Result {
    var builder = StyledText.Builder()
    builder.reserveCapacity(bytes.count)  // the text is the markdown less its markup, mostly
    // Room for a run per 16 bytes, reserved without counting them: the room that the runs made leave untouched
    // takes no memory. A text of more runs, of delimiters mostly, grows the array.
    builder.reserveRuns(bytes.count / 16 + 16)
    var diagnostics: [Diagnostic] = []
    var document = Inlines.Document()
    defer {
      document.close()
      unfold_arena_release()  // the block that the chunks' trees shared
    }
    // The pieces are read as ranges of the text's bytes, and handed on as bytes, not as substrings.
    parse(bytes, document: &document, into: &builder, diagnostics: &diagnostics)
    let text = builder.build()
    return Result(text: autolinks ? Autolinks.linking(text) : text, diagnostics: diagnostics)
  }

  /// Parses the markdown whose UTF-8 bytes are `bytes`.
  private static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, document: inout Inlines.Document, into builder: inout StyledText.Builder,
    diagnostics: inout [Diagnostic]
  ) {
    var pieces = Chunking.Pieces(bytes)
    while let piece = pieces.next() {
      guard case .markdown(let paragraph) = piece else {
        builder.append(utf8: UnsafeBufferPointer(rebasing: bytes[piece.range]), style: .plain)
        continue
      }
      let isLastPiece = Chunking.onlyBlankLines(after: paragraph.upperBound, in: bytes)
      guard paragraph.count > Chunking.maximumChunk else {
        parseChunk(paragraph, isLast: isLastPiece, bytes, document: &document, into: &builder, &diagnostics)
        continue
      }
      diagnostics.append(
        Diagnostic(
          .paragraphSplit, offset: paragraph.lowerBound,
          message:
            "a paragraph of \(paragraph.count) bytes is parsed in pieces of at most "
            + "\(Chunking.maximumChunk) bytes cut at line ends; emphasis or a link across a cut shows as written"))
      let chunks = Chunking.cut(String(decoding: UnsafeBufferPointer(rebasing: bytes[paragraph]), as: UTF8.self)[...])
      var start = paragraph.lowerBound
      for (index, chunk) in chunks.enumerated() {
        let end = start + chunk.utf8.count
        parseChunk(
          start..<end, isLast: isLastPiece && index == chunks.count - 1, bytes, document: &document, into: &builder,
          &diagnostics)
        start = end
      }
    }
  }

  /// Parses one chunk, the bytes `chunk` of `bytes`; `isLast` when no chunk follows it.
  private static func parseChunk(
    _ chunk: Range<Int>, isLast: Bool, _ bytes: UnsafeBufferPointer<UInt8>, document: inout Inlines.Document,
    into builder: inout StyledText.Builder, _ diagnostics: inout [Diagnostic]
  ) {
    // cmark trims trailing spaces from a paragraph; keep them as literal text. (A chunk that ends with a newline
    // has none: the newline's sentinel is the last character.)
    let contentEnd = chunk.upperBound - Chunking.trailingSpacesAndTabs(of: chunk, in: bytes)
    let content = UnsafeBufferPointer(rebasing: bytes[chunk.lowerBound..<contentEnd])
    if let sentinel = Sentinel.choose(for: content) {
      Inlines.parse(content, sentinel: sentinel, document: &document, isLast: isLast, into: &builder)
    } else {
      builder.append(utf8: content, style: .plain)
      diagnostics.append(
        Diagnostic(
          .literalFallback, offset: chunk.lowerBound,
          message: "a chunk uses every candidate newline sentinel; shown as literal text"))
    }
    if contentEnd < chunk.upperBound {
      builder.append(utf8: UnsafeBufferPointer(rebasing: bytes[contentEnd..<chunk.upperBound]), style: .plain)
    }
  }
}

extension MarkdownParser {
  /// The blocks of cmark's arena that this thread holds: none between parses, since the block that a document's
  /// chunks share is freed when the document is parsed (for tests).
  static var arenaBlocksOnThisThread: Int { Int(unfold_arena_block_count()) }

  /// cmark-gfm's own rendering of a whole document to HTML, as `cmark-gfm --to html` does (no extension, default
  /// options), in this process: the peer that the benchmark compares the pipeline with, timed without a
  /// process start-up.
  ///
  /// Not a renderer of this engine (`HTMLRenderer` is).
  package static func cmarkReferenceHTML(_ markdown: String) -> String {
    Inlines.lock.withLock { _ in
      guard let html = cmark_markdown_to_html(markdown, markdown.utf8.count, CMARK_OPT_DEFAULT) else { return "" }
      defer { free(html) }
      return String(cString: html)
    }
  }
}

/// Runs cmark-gfm's inline parser alone on one chunk and walks the result into styled text.
private enum Inlines {
  /// Registers the core extensions exactly once per process and finds strikethrough.
  ///
  /// The engine's one unchecked escape hatch: a C pointer is not `Sendable`, but this one names a
  /// registry entry that cmark-gfm never changes or frees after registration, and it is only used inside
  /// ``lock``.
  nonisolated(unsafe) static let strikethrough: OpaquePointer? = {
    cmark_gfm_core_extensions_ensure_registered()
    return cmark_find_syntax_extension("strikethrough")
  }()

  /// Held around every call into cmark-gfm (see the type's documentation).
  static let lock = Mutex(())

  /// The cmark parser of one document, made at its first chunk and used for every chunk rather than made per
  /// chunk: inline parsing keeps nothing in it between calls but its allocator and
  /// extensions.
  ///
  /// Used and freed only inside ``lock``: freed with the last chunk, so that a document of one chunk (a comment) takes
  /// the lock once.
  struct Document: ~Copyable {
    private var parser: OpaquePointer?
    /// The bytes of the chunk being parsed, as cmark reads them, and the styles of the nodes around the one being
    /// read: kept from chunk to chunk (an array of each made per chunk was an allocation and a deallocation).
    var bytes: [UInt8] = []
    var styles: [Style] = []

    /// The parser, made on first use with strikethrough attached; `nil` if cmark cannot make one.
    ///
    /// Call inside ``lock``.
    mutating func parserInsideLock() -> OpaquePointer? {
      if let parser { return parser }
      guard let extensionPointer = strikethrough,
        let made = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, unfold_arena_allocator())
      else { return nil }
      cmark_parser_attach_syntax_extension(made, extensionPointer)
      parser = made
      return made
    }

    /// Frees the parser.
    ///
    /// Call inside ``lock``.
    mutating func closeInsideLock() {
      guard let parser else { return }
      cmark_parser_free(parser)
      self.parser = nil
    }

    /// Frees the parser if the last chunk did not (it was shown as literal text).
    mutating func close() {
      guard parser != nil else { return }
      lock.withLock { _ in closeInsideLock() }
    }
  }

  /// Parses one chunk and appends its styled text to `builder`.
  static func parse(
    _ chunk: UnsafeBufferPointer<UInt8>, sentinel: Unicode.Scalar, document: inout Document, isLast: Bool,
    into builder: inout StyledText.Builder
  ) {
    // The chunk as cmark reads it, NUL-terminated: newlines become the sentinel, copied a stretch at a time
    // between them.
    var bytes = document.bytes
    document.bytes = []  // moved out and back, so that writing does not copy it
    defer { document.bytes = bytes }
    bytes.removeAll(keepingCapacity: true)
    bytes.reserveCapacity(chunk.count + chunk.count / 8 + 1)
    copy(chunk, sentinel: sentinel, into: &bytes)
    bytes.append(0)
    // cmark parses inside the lock; the tree it made is read and freed after it, since reading a tree touches
    // no global state (gfm.6's shared table is in use only while it parses): the lock is held for a fraction
    // of a parse, and texts parsed from several tasks wait for each other less.
    //
    // The tree's nodes and buffers come from an arena of this thread, freed at once after the tree is read (see
    // `unfold_arena_allocator` in the C shim); the parser, made before the span, lives on the heap.
    let tree = lock.withLock { _ -> Tree? in
      defer { if isLast { document.closeInsideLock() } }
      guard let parser = document.parserInsideLock() else { return nil }
      unfold_arena_begin()
      guard let paragraph = cmark_node_new_with_mem(CMARK_NODE_PARAGRAPH, unfold_arena_allocator()) else {
        unfold_arena_end()
        return nil
      }
      bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_string_content(paragraph, $0.baseAddress) }
      }
      cmark_manage_extensions_special_characters(parser, 1)
      cmark_parse_inlines(parser, paragraph, nil, CMARK_OPT_DEFAULT)
      cmark_manage_extensions_special_characters(parser, 0)
      return Tree(root: paragraph)
    }
    guard let tree else { return builder.append(utf8: chunk, style: .plain) }
    // The tree is not freed node by node (`cmark_node_free`): every node, literal and buffer of it lives in the
    // arena, whose end frees them at once, and the free function does nothing for them. LeakSanitizer runs
    // every test.
    defer { unfold_arena_end() }
    bytes.removeLast()  // the terminator; columns index the rest
    walk(tree.root, sentinel: sentinel, bytes: bytes, styles: &document.styles, into: &builder)
  }

  /// Appends a chunk's bytes to `bytes` as cmark reads them: each newline the sentinel, the stretches between
  /// them copied whole.
  ///
  /// The chunk holds no NUL, which would end cmark's string: both entries of the parser normalize the text first
  /// (``TextSource/normalizingLineEnds(_:)``), so none is looked for here. A function of the type, not a nested one,
  /// which would hold the caller's array in a box and check every write for exclusive access.
  private static func copy(_ buffer: UnsafeBufferPointer<UInt8>, sentinel: Unicode.Scalar, into bytes: inout [UInt8]) {
    guard let base = buffer.baseAddress else { return }
    assert(buffer.offset(of: 0x00) == nil, "a chunk holds no NUL: the text is normalized first")
    let sentinelBytes = UTF8.encode(sentinel)!  // held inline, no array per chunk
    var start = 0
    while start < buffer.count {
      // The next newline, found with memchr.
      let newline = memchr(base + start, 0x0A, buffer.count - start).map {
        UnsafeRawPointer($0) - UnsafeRawPointer(base)
      }
      let end = newline ?? buffer.count
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
      guard end < buffer.count else { break }
      bytes.append(contentsOf: sentinelBytes)
      start = end + 1
    }
  }

  /// A node of an inline tree (a complete C type in the shim either way it reads nodes).
  typealias Node = UnsafeMutablePointer<cmark_node>

  /// The inline tree of one chunk, made inside the lock and read after it by the thread that made it, and by
  /// no other (what lets it leave the lock's closure).
  private struct Tree: @unchecked Sendable {
    let root: Node
  }

  /// Appends the inline tree under `root` to `builder` as styled text.
  ///
  /// Nothing from C outlives this call.
  ///
  /// The tree is walked by its links (first child, next sibling, parent) in the order of cmark's iterator: a
  /// container is entered before its children and left after them, a leaf (text, code, a break, inline HTML)
  /// only entered. (The iterator was a call into the library per event, and made and freed per chunk.)
  ///
  /// Without a `sentinel`, the tree is a block's, parsed from the document as written: a soft line break is a space.
  fileprivate static func walk(
    _ root: Node, sentinel: Unicode.Scalar?, bytes: [UInt8], styles stack: inout [Style],
    into builder: inout StyledText.Builder
  ) {
    stack.removeAll(keepingCapacity: true)
    stack.append(.plain)
    let pattern = sentinel.map(SentinelBytes.init) ?? .none
    let strikethroughType = ccmark_node_strikethrough()
    var next = unfold_node_first_child(root)
    while let node = next {
      let isContainer = enter(node, strikethroughType, sentinel, pattern, bytes, &stack, &builder)
      if isContainer, let child = unfold_node_first_child(node) {
        next = child
        continue
      }
      // Leave the node if it was entered as a container, then every ancestor that this was the last child of.
      var left = node
      if isContainer { leave(left, sentinel, pattern, bytes, &stack, &builder) }
      next = unfold_node_next(left)
      while next == nil, let parent = unfold_node_parent(left), parent != root {
        leave(parent, sentinel, pattern, bytes, &stack, &builder)
        left = parent
        next = unfold_node_next(left)
      }
    }
  }

  /// The destination of a link or an image in cmark's memory, read in place.
  private static func url(of node: Node) -> UnsafeBufferPointer<UInt8> { bytes(of: node, unfold_node_url) }

  /// Bytes of a node in cmark's memory, as one of the shim's readers gives them (a pointer and a count; empty for
  /// none): valid until the tree is freed.
  @inline(__always)
  private static func bytes(
    of node: Node, _ read: (Node, UnsafeMutablePointer<Int32>) -> UnsafePointer<UInt8>?
  ) -> UnsafeBufferPointer<UInt8> {
    var length: Int32 = 0
    let pointer = read(node, &length)
    return UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : Int(length))
  }

  /// The destination of a link or an image, trimmed of sentinels at both ends; `nil` when a newline is left inside
  /// it: cmark saw the sentinel as an ordinary character there, so the link is no link, and its source shows as
  /// written. (Searched as bytes, and trimmed only when it holds one: a link's code points were decoded twice.)
  private static func destination(of node: Node, _ sentinel: Unicode.Scalar?, _ pattern: SentinelBytes) -> String? {
    let url = url(of: node)
    guard let sentinel, pattern.firstOffset(in: url) != nil else { return String(decoding: url, as: UTF8.self) }
    let trimmed = String(decoding: url, as: UTF8.self).trimmingScalars(sentinel)
    return trimmed.withUTF8Buffer { pattern.firstOffset(in: $0) == nil } ? trimmed : nil
  }

  /// Enters `node`: appends a leaf's text, or pushes a container's style.
  ///
  /// Whether the node was entered as a container, which the walk goes into and leaves after its children: not a leaf,
  /// nor a link shown whole as its source.
  private static func enter(
    _ node: Node, _ strikethroughType: cmark_node_type, _ sentinel: Unicode.Scalar?, _ pattern: SentinelBytes,
    _ bytes: [UInt8], _ stack: inout [Style], _ builder: inout StyledText.Builder
  ) -> Bool {
    let type = unfold_node_type(node)
    var style = stack[stack.count - 1]
    switch type {
    case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
      if let destination = destination(of: node, sentinel, pattern) {
        if type == CMARK_NODE_LINK { style.link = destination }  // an image shows its alt text
        stack.append(style)
        return true
      }
      let first = unfold_node_first_child(node)
      guard let first, unfold_node_start_column(first) != unfold_node_start_column(node) else {
        // A link with no text, or an autolink (gfm.6 reports an autolink's columns one byte late): the whole
        // source is literal, and the walk does not go in.
        let start = Int(unfold_node_start_column(node))
        let end = Int(unfold_node_end_column(node))
        let (lower, upper) = first == nil ? (start, end + 1) : (start - 1, end)
        appendSlice(lower, upper, bytes, pattern, style, &builder)
        return false
      }
      // The source from the start of the link up to the start of its first child.
      appendSlice(
        Int(unfold_node_start_column(node)), Int(unfold_node_start_column(first)), bytes, pattern, style, &builder)
      stack.append(style)
    case CMARK_NODE_EMPH, CMARK_NODE_STRONG, strikethroughType:
      style.traits.insert(type == CMARK_NODE_EMPH ? .italic : type == CMARK_NODE_STRONG ? .bold : .strikethrough)
      stack.append(style)
    case CMARK_NODE_TEXT:
      let literal = literal(of: node)
      if !isLineBreakBackslash(node, literal: literal, pattern: pattern) {
        appendRestoringNewlines(literal, pattern, style, &builder)
      }
      return false
    case CMARK_NODE_HTML_INLINE:
      appendRestoringNewlines(literal(of: node), pattern, style, &builder)
      return false
    case CMARK_NODE_CODE:
      style.traits.insert(.code)
      let literal = literal(of: node)
      if let sentinel, pattern.firstOffset(in: literal) != nil {
        builder.append(codeSpan(String(decoding: literal, as: UTF8.self), sentinel: sentinel), style: style)
      } else {
        builder.append(utf8: literal, style: style)
      }
      return false
    case CMARK_NODE_SOFTBREAK:
      builder.append(pattern.isNone ? " " : "\n", style: style)
      return false
    case CMARK_NODE_LINEBREAK:
      builder.append("\n", style: style)
      return false
    default:
      // Another container (none that the parser makes in a paragraph): its children, in the style around it.
      stack.append(style)
    }
    return true
  }

  /// Leaves a container that ``enter(_:_:_:_:_:_:_:)`` entered: pops its style, and appends the source after a
  /// literal link's last child.
  private static func leave(
    _ node: Node, _ sentinel: Unicode.Scalar?, _ pattern: SentinelBytes, _ bytes: [UInt8],
    _ stack: inout [Style], _ builder: inout StyledText.Builder
  ) {
    let type = unfold_node_type(node)
    stack.removeLast()
    guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE, pattern.firstOffset(in: url(of: node)) != nil,
      destination(of: node, sentinel, pattern) == nil, let last = unfold_node_last_child(node)
    else { return }
    // The source after the last child up to the end of the link.
    let sourceStart = endColumn(of: last) + 1
    appendSlice(sourceStart, Int(unfold_node_end_column(node)) + 1, bytes, pattern, stack[stack.count - 1], &builder)
  }

  /// The column of a node's last byte in the chunk.
  ///
  /// cmark-gfm's strikethrough extension leaves the end column of the text it makes of an unmatched `~` at 0: such a
  /// node ends where its literal does (a container where its last child does). Read as set, the source after a literal
  /// link's last child was its whole source again (`[a~](:⏎.)` showed `[a~a~](:⏎.)`).
  private static func endColumn(of node: Node) -> Int {
    let start = Int(unfold_node_start_column(node))
    let end = Int(unfold_node_end_column(node))
    guard end < start else { return end }
    let length = literal(of: node).count
    if length == 0, let last = unfold_node_last_child(node) { return endColumn(of: last) }
    return start + length - 1
  }

  /// Appends the chunk's bytes `start..<end` (clamped to it) as they were written: each sentinel a newline again.
  private static func appendSlice(
    _ start: Int, _ end: Int, _ bytes: [UInt8], _ pattern: SentinelBytes, _ style: Style,
    _ builder: inout StyledText.Builder
  ) {
    let lower = min(max(0, start), bytes.count)
    let upper = min(max(lower, end), bytes.count)
    bytes.withUnsafeBufferPointer { bytes in
      appendRestoringNewlines(UnsafeBufferPointer(rebasing: bytes[lower..<upper]), pattern, style, &builder)
    }
  }

  /// The bytes of a node's literal in cmark's memory (empty for none): read in place, valid until the tree is
  /// freed, with no `String` made and no copy by `cmark_node_get_literal`.
  private static func literal(of node: Node) -> UnsafeBufferPointer<UInt8> { bytes(of: node, unfold_node_literal) }

  /// A backslash written right before a newline is a line break (CommonMark): Apple's parser makes it a
  /// break, which shows as the newline alone.
  ///
  /// cmark sees the sentinel instead of a newline, so it leaves a one-byte literal backslash node, which this finds. An
  /// escaped backslash (`\\`) spans two bytes.
  private static func isLineBreakBackslash(
    _ node: Node, literal: UnsafeBufferPointer<UInt8>, pattern: SentinelBytes
  ) -> Bool {
    guard literal.count == 1, literal[0] == UInt8(ascii: "\\"),
      unfold_node_end_column(node) == unfold_node_start_column(node),
      let next = unfold_node_next(node), unfold_node_type(next) == CMARK_NODE_TEXT
    else { return false }
    return pattern.firstOffset(in: Self.literal(of: next)) == 0
  }

  /// Appends the text with each sentinel made a newline again, compared as UTF-8 bytes (every sentinel is
  /// three), the stretches between them appended whole.
  private static func appendRestoringNewlines(
    _ text: UnsafeBufferPointer<UInt8>, _ pattern: SentinelBytes, _ style: Style, _ builder: inout StyledText.Builder
  ) {
    var rest = text
    while let at = pattern.firstOffset(in: rest) {
      builder.append(utf8: UnsafeBufferPointer(rebasing: rest[..<at]), style: style)
      builder.append("\n", style: style)
      rest = UnsafeBufferPointer(rebasing: rest[(at + 3)...])
    }
    builder.append(utf8: rest, style: style)
  }

  /// A code span's newlines are spaces (CommonMark), and one space is stripped from each end when both ends
  /// are spaces; cmark already did that where the ends were real spaces, so it is redone only where an end
  /// was a newline.
  private static func codeSpan(_ text: String, sentinel: Unicode.Scalar) -> String {
    let scalars = text.unicodeScalars
    guard scalars.contains(sentinel) else { return text }
    let endsWithSentinel = scalars.first == sentinel || scalars.last == sentinel
    var result = String.UnicodeScalarView(scalars.map { $0 == sentinel ? " " : $0 })
    if endsWithSentinel, result.count >= 2, result.first == " ", result.last == " ",
      result.contains(where: { $0 != " " })
    {
      result.removeFirst()
      result.removeLast()
    }
    return String(result)
  }
}

extension MarkdownParser {
  /// The blocks of a markdown document, as cmark-gfm's block parser finds them with the table, strikethrough and
  /// task-list extensions (see ``Block``); unless `autolinks` is off, bare URLs, `www.` addresses and e-mail addresses
  /// in the blocks' text become links, as in ``parse(_:autolinks:)``.
  ///
  /// `\r\n` and `\r` become `\n` and NUL becomes U+FFFD first.
  package static func parseDocument(_ markdown: String, autolinks: Bool = true) -> [Block] {
    var markdown = TextSource.normalizingLineEnds(markdown)
    return markdown.withUTF8 { Blocks.parse($0, autolinks: autolinks) }
  }
}

/// Runs cmark-gfm's block parser on a whole document and reads its tree into ``Block`` values.
private enum Blocks {
  typealias Node = Inlines.Node

  /// The parsed tree and the task-list extension that marks its task items.
  struct Parsed: @unchecked Sendable {
    let root: Node
    let tasklist: OpaquePointer?
  }

  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, autolinks: Bool) -> [Block] {
    // The whole parse, block and inline, runs inside the lock (the inline parser changes gfm.6's shared table);
    // the tree is read after it, and freed.
    let parsed = Inlines.lock.withLock { _ -> Parsed? in
      guard let strikethrough = Inlines.strikethrough, let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else {
        return nil
      }
      defer { cmark_parser_free(parser) }
      let tasklist = cmark_find_syntax_extension("tasklist")
      for syntax in [strikethrough, cmark_find_syntax_extension("table"), tasklist] {
        if let syntax { cmark_parser_attach_syntax_extension(parser, syntax) }
      }
      bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
      return cmark_parser_finish(parser).map { Parsed(root: $0, tasklist: tasklist) }
    }
    guard let parsed else {
      return [.paragraph(StyledText(plain: String(decoding: bytes, as: UTF8.self)))]
    }
    defer { cmark_node_free(parsed.root) }
    var reader = Reader(tasklist: parsed.tasklist, autolinks: autolinks)
    return reader.blocks(in: parsed.root, depth: 0)
  }

  /// Reads a tree's blocks.
  struct Reader {
    let tasklist: OpaquePointer?
    let autolinks: Bool
    let types = (
      strikethrough: ccmark_node_strikethrough(), table: ccmark_node_table(), row: ccmark_node_table_row()
    )
    /// The styles of the inline nodes around the one being read, kept from leaf to leaf.
    var styles: [Style] = []

    /// The blocks that are children of `node`, a container `depth` containers deep.
    ///
    /// A container at ``Block/maximumDepth`` keeps the blocks of the containers inside it as its own (their
    /// markers left out; a list's, in one item): a tree as deep as the input is long reads in bounded recursion.
    mutating func blocks(in node: Node, depth: Int) -> [Block] {
      var result: [Block] = []
      var next = unfold_node_first_child(node)
      while let child = next {
        next = unfold_node_next(child)
        if depth >= Block.maximumDepth, isContainer(child) {
          result += flattened(child)
        } else if let block = block(child, depth: depth) {
          result.append(block)
        }
      }
      if depth >= Block.maximumDepth, unfold_node_type(node) == CMARK_NODE_LIST, !result.isEmpty {
        return [.item(task: nil, blocks: result)]
      }
      return result
    }

    func isContainer(_ node: Node) -> Bool {
      let type = unfold_node_type(node)
      return type == CMARK_NODE_LIST || type == CMARK_NODE_ITEM || type == CMARK_NODE_BLOCK_QUOTE
    }

    /// The leaf blocks under a container, in order, read by the tree's links with no recursion.
    mutating func flattened(_ container: Node) -> [Block] {
      var result: [Block] = []
      var next = unfold_node_first_child(container)
      while let node = next {
        if isContainer(node), let child = unfold_node_first_child(node) {
          next = child
          continue
        }
        if !isContainer(node), let block = block(node, depth: Block.maximumDepth) { result.append(block) }
        var left = node
        next = unfold_node_next(left)
        while next == nil, let parent = unfold_node_parent(left), parent != container {
          left = parent
          next = unfold_node_next(left)
        }
      }
      return result
    }

    /// The block that `node` is, `depth` containers deep; nil for a node that is no block.
    mutating func block(_ node: Node, depth: Int) -> Block? {
      let type = unfold_node_type(node)
      switch type {
      case CMARK_NODE_PARAGRAPH: return .paragraph(text(of: node))
      case CMARK_NODE_HEADING: return .heading(level: Int(cmark_node_get_heading_level(node)), text(of: node))
      case CMARK_NODE_THEMATIC_BREAK: return .rule
      case CMARK_NODE_CODE_BLOCK:
        let info = String(cString: cmark_node_get_fence_info(node))
        let language = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        return .code(language: language, text: literal(of: node))
      case CMARK_NODE_HTML_BLOCK: return .html(literal(of: node))
      case CMARK_NODE_BLOCK_QUOTE: return .quote(blocks(in: node, depth: depth + 1))
      case CMARK_NODE_LIST:
        let ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
        return .list(
          ordered: ordered, start: ordered ? Int(cmark_node_get_list_start(node)) : 1,
          isTight: cmark_node_get_list_tight(node) != 0, items: blocks(in: node, depth: depth + 1))
      case CMARK_NODE_ITEM:
        let isTask = tasklist != nil && cmark_node_get_syntax_extension(node) == tasklist
        return .item(
          task: isTask ? cmark_gfm_extensions_get_tasklist_item_checked(node) : nil,
          blocks: blocks(in: node, depth: depth + 1))
      case types.table: return table(node)
      default: return nil
      }
    }

    /// A table's alignments and rows.
    mutating func table(_ node: Node) -> Block {
      let columns = Int(cmark_gfm_extensions_get_table_columns(node))
      let alignments = (0..<columns).map { column -> Block.Alignment in
        guard let bytes = cmark_gfm_extensions_get_table_alignments(node) else { return .none }
        switch bytes[column] {
        case UInt8(ascii: "l"): return .left
        case UInt8(ascii: "c"): return .center
        case UInt8(ascii: "r"): return .right
        default: return .none
        }
      }
      var rows: [[StyledText]] = []
      var row = unfold_node_first_child(node)
      while let current = row, unfold_node_type(current) == types.row {
        var cells: [StyledText] = []
        var cell = unfold_node_first_child(current)
        while let each = cell {
          cells.append(text(of: each))
          cell = unfold_node_next(each)
        }
        rows.append(cells)
        row = unfold_node_next(current)
      }
      return .table(alignments: alignments, rows: rows)
    }

    /// The styled text of a leaf's inlines.
    mutating func text(of node: Node) -> StyledText {
      var builder = StyledText.Builder()
      Inlines.walk(node, sentinel: nil, bytes: [], styles: &styles, into: &builder)
      let text = builder.build()
      return autolinks ? Autolinks.linking(text) : text
    }

    /// A code or HTML block's text, without the newline that ends its last line.
    func literal(of node: Node) -> String {
      guard let literal = cmark_node_get_literal(node) else { return "" }
      let text = String(cString: literal)
      return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
  }
}
