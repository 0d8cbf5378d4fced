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
///     print(comment.ansi(width: 40, colors: .truecolor), terminator: "")
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
  public var cellWidths: TerminalCells.Profile
  /// The break rules; `nil` uses each target's own: `unicode` for the terminal, the engine's for HTML.
  public var breakRules: LineBreaker.Rules?
  /// The text style whose size and line height the HTML uses (the fonts' own when `nil`).
  public var textStyle: TextStyle?
  /// The smallest factor the HTML may scale the font by to make the text fit its line limit (1: never).
  public var minimumScaleFactor: Double
  /// The HTML height animation.
  public struct Animation: Hashable, Sendable {
    /// The duration in seconds; 0 for none.
    public var duration: Double
    /// The CSS easing function.
    public var easing: String
  }

  /// The duration and easing of the HTML height animation.
  public var animation: Animation
  /// Whether the text scrolls in a viewport of `lineLimit` lines instead of truncating.
  public var isScrollable: Bool

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
    self.animation = Animation(duration: 0.4, easing: "cubic-bezier(0.4, 0, 0.2, 1)")
    self.isScrollable = false
  }

  /// A paragraph from a localized key (a string literal, or `LocalizedKey(variable)`), as `Text("…")`.
  public init(_ key: LocalizedKey, options: TruncationOptions = .default) {
    self.init(TextSource(key), options: options)
  }

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
  /// The text style: font size and line height in HTML.
  public func textStyle(_ style: TextStyle) -> Paragraph { with { $0.textStyle = style } }
  /// The text style, as SwiftUI's `.font(_:)`.
  public func font(_ style: TextStyle) -> Paragraph { textStyle(style) }
  /// How far the HTML may shrink the font to make the text fit (`minimumScaleFactor`), between 0 and 1.
  public func minimumScaleFactor(_ factor: Double) -> Paragraph {
    with { $0.minimumScaleFactor = min(1, max(0.1, factor)) }
  }
  /// The HTML height animation: duration in seconds (0: none) and CSS easing.
  public func expandAnimation(duration: Double, easing: String = "cubic-bezier(0.4, 0, 0.2, 1)") -> Paragraph {
    with { $0.animation = Animation(duration: duration, easing: easing) }
  }
  /// A viewport of `lineLimit` lines that scrolls instead of truncating.
  public func scrollable(_ scrollable: Bool = true) -> Paragraph { with { $0.isScrollable = scrollable } }
  /// Whether bare URLs, `www.` addresses and e-mail addresses in a localized key's markdown become links (on
  /// by default, as on GitHub; SwiftUI's `Text` leaves them text). Verbatim text has no links either way.
  public func autolinks(_ on: Bool) -> Paragraph {
    with {
      guard case .localized(let key, var localization) = $0.source.mode else { return }
      localization.autolinks = on
      $0.source = TextSource(key, localization)
    }
  }
  /// How terminal cells are counted.
  public func cellWidths(_ profile: TerminalCells.Profile) -> Paragraph { with { $0.cellWidths = profile } }
  /// The line breaking rules.
  public func breakRules(_ rules: LineBreaker.Rules) -> Paragraph { with { $0.breakRules = rules } }

  // MARK: - Layout

  /// What a reader sees in a terminal `width` cells wide, in `state`.
  ///
  /// - Parameters:
  ///   - width: the width of a line in cells.
  ///   - state: collapsed or expanded.
  ///   - countingAllLines: lay out the whole text even when collapsed, so that the line count is known
  ///     (collapsed layout otherwise stops at the line limit).
  ///
  /// A collapsed text is laid out from a prefix that settles its view: verbatim text, and the markdown of a
  /// key without arguments up to a blank line (see `collapsedView(isSettledBy:width:)`), so that a preview
  /// of a book costs what a preview of a comment does.
  public func truncated(width: Int, state: DisplayState, countingAllLines: Bool = false) -> TruncatedText {
    if state == .collapsed, !countingAllLines, collapsedViewNeedsOnlyAPrefix, let prefixes = source.prefixes() {
      // 8 KiB first: room for 4 KiB of visible lines and the 4 KiB after them that settle the view (16 KiB
      // made a collapsed preview of a 10 KB text lay it all out, and one of a book twice what it needed). A
      // prefix of markdown that holds no blank line to cut after is skipped for a longer one.
      var length = 8_192
      while length < prefixes.byteCount {
        if let prefix = prefixes.resolved(bytes: length), let layout = settledLayout(of: prefix, width: width) {
          var truncated = Truncator.truncate(layout, options: options, state: state)
          truncated.diagnostics += Truncator.widthOutOfRange(width, unit: .cells)
          return truncated
        }
        length *= 4
      }
    }
    return Truncator.truncate(
      source.resolve().text, measurer: TerminalCells(profile: cellWidths),
      breaker: LineBreaker(rules: breakRules ?? .unicode),
      width: width, options: options, state: state, countingAllLines: countingAllLines)
  }

  /// Whether the collapsed terminal view depends only on a start of the text: for a tail truncation that
  /// neither collapses blank lines nor scrolls (head and middle truncations show the end).
  public var collapsedViewNeedsOnlyAPrefix: Bool {
    options.mode == .tail && !options.collapsesBlankLines && !isScrollable
  }

  /// Whether `prefix`, the start of a longer verbatim text, settles that text's collapsed terminal view at
  /// `width` cells: its layout stops at the line limit at least 4 KiB before the prefix ends. What follows
  /// then cannot change the visible lines (line breaking and grapheme clusters look ahead far less), and the
  /// text is truncated. The command reads a verbatim input until this holds.
  package func collapsedView(isSettledBy prefix: String, width: Int) -> Bool {
    settledLayout(of: TextSource(verbatim: prefix).resolve().text, width: width) != nil
  }

  /// The collapsed layout of `text`, the start of a longer one, when it settles the longer text's view.
  private func settledLayout(of text: StyledText, width: Int) -> LineLayout? {
    let layout = LineLayout(
      text, measurer: TerminalCells(profile: cellWidths), breaker: LineBreaker(rules: breakRules ?? .unicode),
      width: width, lineLimit: options.effectiveLineLimit)
    guard !layout.isComplete, let last = layout.lines.last,
      text.string.utf8.count >= last.range.upperBound + 4096
    else { return nil }
    return layout
  }

  /// What a scrollable paragraph shows from a line on.
  public struct Viewport: Hashable, Sendable {
    /// At most `lineLimit` lines.
    public var lines: [DisplayLine]
    /// The index of the first of them among all the lines.
    public var firstLine: Int
    /// The number of lines of the whole text.
    public var lineCount: Int
  }

  /// The lines of a scrollable paragraph from `firstLine` (clamped so that the viewport stays full): at most
  /// `lineLimit` lines, and the total line count.
  public func viewport(width: Int, firstLine: Int) -> Viewport {
    let all = truncated(width: width, state: .expanded).lines
    let height = options.effectiveLineLimit
    let first = max(0, min(firstLine, all.count - height))
    return Viewport(lines: Array(all.dropFirst(first).prefix(height)), firstLine: first, lineCount: all.count)
  }

  // MARK: - Targets

  /// Terminal output at a colour level (`none` is plain text).
  public func ansi(width: Int, colors: ColorLevel = .ansi16, state: DisplayState = .collapsed) -> String {
    ansi(width: width, state: state, renderer: ANSIRenderer(colors: colors))
  }

  /// Terminal output: styled with the 16 colours when `colors`, plain otherwise.
  public func ansi(width: Int, state: DisplayState, colors: Bool) -> String {
    ansi(width: width, state: state, renderer: ANSIRenderer(colors: colors))
  }

  /// Plain text: the lines with no escape at all, each ended by a newline. Right-to-left text is in logical order,
  /// as stored (the order to compare in a test); with `visualOrder`, as the terminal output draws it: reordered
  /// for a terminal that does not reorder, and a right-to-left paragraph's lines aligned to the right of `width`
  /// with spaces.
  public func plain(width: Int, state: DisplayState = .collapsed, visualOrder: Bool = false) -> String {
    var renderer = ANSIRenderer(colors: .none)
    renderer.reordersRightToLeft = visualOrder
    return ansi(width: width, state: state, renderer: renderer)
  }

  /// Terminal output drawn by `renderer` (its colour level, label style and fade). A scrollable paragraph
  /// draws its first `lineLimit` lines.
  public func ansi(width: Int, state: DisplayState, renderer: ANSIRenderer) -> String {
    if isScrollable {
      let viewport = viewport(width: width, firstLine: 0)
      return renderer.render(
        TruncatedText(
          lines: viewport.lines, isTruncated: false, lineCount: viewport.lineCount, state: .expanded, width: width,
          unit: .cells))
    }
    if state == .expanded { return expandedANSI(width: width, renderer: renderer, partLength: Self.expandedPart) }
    return renderer.render(truncated(width: width, state: state))
  }

  /// The length of markdown that an expanded terminal view parses, lays out and writes at a time (see
  /// ``expandedANSI(width:renderer:partLength:)``): long enough that a part's fixed costs (a scanner's buffers, a
  /// cmark parser) weigh little (Docs/PerformanceNotes.md, "Terminal output").
  static let expandedPart = 131_072

  /// The expanded terminal view, laid out, drawn and written line by line: neither the lines nor their fragments
  /// are all held at once.
  ///
  /// The markdown of a key without arguments longer than two parts of `partLength` bytes is also parsed a part
  /// at a time: cut after the first blank line at least `partLength` bytes into the rest, where the text parses
  /// as the whole does (chunks between blank lines parse independently, see ``MarkdownParser``) and a line
  /// always ends. Each part is parsed, laid out and written before the next is parsed, into the same output:
  /// the same bytes as the whole text's view (a test compares them), from a styled text that takes the same
  /// memory again and again instead of the whole text's worth of new pages.
  func expandedANSI(width: Int, renderer: ANSIRenderer, partLength: Int) -> String {
    let measurer = TerminalCells(profile: cellWidths)
    let breaker = LineBreaker(rules: breakRules ?? .unicode)
    // The direction lines are reordered at, from the whole text, whichever part a line is in.
    var direction: TextDirection?
    func write(_ text: StyledText, linesBefore: Int, endsText: Bool, into writer: inout ANSIRenderer.Writer) -> Int {
      let context = LineLayout(
        text: text, measurer: measurer, breaker: breaker, width: max(1, width), lines: [], isComplete: true)
      let drawer = LineDrawer(layout: context)
      var lines = WholeTextLines(
        Layout.stream(text, measurer: measurer, breaker: breaker, width: LineWidth(width)), drawer: drawer,
        options: drawer.fitting(options), state: .expanded, linesBefore: linesBefore, endsText: endsText)
      renderer.write(perRun: &lines, text: text, direction: direction, width: width, into: &writer)
      return lines.linesGiven
    }
    guard let prefixes = source.prefixes(), prefixes.isMarkdown, prefixes.byteCount > 2 * partLength else {
      let text = source.resolve().text
      direction = renderer.visualDirection(of: text.string)
      // The text, a newline per line, and the escapes of each styled run and link, with a sixteenth to spare:
      // an output that outgrows its reservation is copied into twice the room.
      let escapes = text.runs.reduce(0) { sum, run in
        sum + (run.style == .plain ? 0 : 16) + (run.style.link.map { 2 * $0.utf8.count + 48 } ?? 0)
      }
      let estimate = text.string.utf8.count + text.string.utf8.count / 32 + escapes
      var writer = ANSIRenderer.Writer(capacity: estimate + estimate / 16)
      _ = write(text, linesBefore: 0, endsText: true, into: &writer)
      return writer.string
    }
    var markdown = TextSource.normalizingLineEnds(prefixes.whole)
    direction = renderer.visualDirection(of: markdown)
    let count = markdown.utf8.count
    // The markdown's length and a quarter to spare, the escapes unknown before the parts are parsed: the markup
    // that makes a style is about as long as its escapes, a link's escape holds its destination twice.
    var writer = ANSIRenderer.Writer(capacity: count + count / 4)
    var (start, linesBefore) = (0, 0)
    while start < count {
      let end =
        count - start <= partLength
        ? count : markdown.withUTF8 { Chunking.firstBoundary(in: $0, from: start + partLength) } ?? count
      let text = MarkdownParser.parse(&markdown, utf8: start..<end, autolinks: prefixes.autolinks)
      linesBefore = write(text, linesBefore: linesBefore, endsText: end == count, into: &writer)
      start = end
    }
    return writer.string
  }

  /// HTML that a browser lays out as the engine predicts, first shown in `state`: `width` in CSS px,
  /// measured in `fonts` (see ``HTMLRenderer``) as `engine` measures and breaks lines; the default, ``BrowserEngine/any``,
  /// is a fragment that every engine shows as predicted. Line breaking follows the engine's rules unless
  /// ``breakRules`` says otherwise. The result's ``RenderedHTML/diagnostics`` name what the engine could not
  /// predict (characters with no glyph in the fonts), found only when read.
  ///
  /// With a ``textStyle``, its size and line height replace the fonts'; with a ``minimumScaleFactor`` below
  /// 1, the font shrinks in steps of 1/2 px, down to that factor, until the text fits its line limit, and is
  /// truncated only when it still does not.
  public func html(
    width: Double, fonts: FontSet, engine: BrowserEngine = .any, state: DisplayState = .collapsed,
    options: HTMLOptions = HTMLOptions()
  ) -> RenderedHTML {
    let (width, clamped) = Self.pixels(width)
    var text = source.resolve().text
    var fonts = fonts
    if let textStyle {
      fonts.size = textStyle.size
      fonts.lineHeight = textStyle.lineHeight
      if textStyle.isBold { text = text.bold() }
    }
    let breaker = breaker(for: engine, language: options.language)
    func collapsed(_ fonts: FontSet) -> TruncatedText {
      let measurer = FontMeasurer(fonts, engine: engine)
      return Truncator.truncate(
        text, measurer: measurer, breaker: breaker, width: measurer.layoutWidth(pixels: width), options: self.options,
        state: .collapsed, countingAllLines: false, findsUnpredictableRanges: true)
    }
    var shown = collapsed(fonts)
    if shown.isTruncated && minimumScaleFactor < 1 && !isScrollable {
      let smallest = fonts.size * minimumScaleFactor
      var size = fonts.size - 0.5
      while size >= smallest - 1e-9 {
        var smaller = fonts
        smaller.lineHeight = (fonts.lineHeight * size / fonts.size).rounded()
        smaller.size = size
        let attempt = collapsed(smaller)
        if !attempt.isTruncated {
          fonts = smaller
          shown = attempt
          break
        }
        size -= 0.5
      }
    }
    var htmlOptions = options
    htmlOptions.animationDuration = animation.duration
    htmlOptions.animationEasing = animation.easing
    if isScrollable { htmlOptions.scrollLines = self.options.effectiveLineLimit }
    let html = HTMLRenderer(fonts: fonts, options: htmlOptions).render(
      text, collapsed: shown, truncation: self.options, state: state, width: max(0, width))
    // The whole text is looked at only when the diagnostics are read, and only when more than the collapsed
    // view shows: two fifths of the benchmark's HTML pipeline, whose text is in eleven scripts.
    let wholeText = state == .expanded || isScrollable
    let shownRanges = shown.unpredictableRanges
    let outOfRange = clamped + shown.diagnostics
    return RenderedHTML(html: html) { [text, fonts] in
      outOfRange + Self.unpredictableWidths(in: text, fonts: fonts, wholeText: wholeText, shownRanges: shownRanges)
    }
  }

  /// The widest a width in CSS px may be, as `unfold --width` allows.
  static let widestPixels = 100_000.0

  /// A width in CSS px clamped to 1 ... ``widestPixels`` (a width that is not a number to 1), and the
  /// ``Diagnostic/Kind/valueOutOfRange`` that says so when it was out of range.
  static func pixels(_ width: Double) -> (Double, [Diagnostic]) {
    let clamped = width.isNaN ? 1 : min(widestPixels, max(1, width))
    guard clamped != width else { return (width, []) }
    let message =
      "width \(width) px is \(width.isNaN ? "not a number" : width < 1 ? "below 1 px" : "above 100000 px"): the lines are laid out \(Int(clamped)) px wide"
    return (clamped, [Diagnostic(.valueOutOfRange, offset: 0, message: message)])
  }

  /// The diagnostic for the characters of `text` that `fonts` cannot draw: in the whole text, or in the ranges of
  /// the collapsed view (`shownRanges`).
  private static func unpredictableWidths(
    in text: StyledText, fonts: FontSet, wholeText: Bool, shownRanges: [Range<Int>]
  ) -> [Diagnostic] {
    let measurer = FontMeasurer(fonts)
    // The whole text's ranges come with their characters counted; a collapsed view's are counted by the
    // engine's grapheme reader, not by `Substring.count`.
    let whole = wholeText ? measurer.unpredictableClusters(in: text, range: 0..<text.string.utf8.count) : nil
    let ranges = whole?.ranges ?? shownRanges
    guard let first = ranges.first else { return [] }
    let count =
      whole?.clusters
      ?? text.string.withUTF8Buffer { bytes in ranges.reduce(0) { $0 + GraphemeReader.clusterCount(bytes, $1) } }
    // What is drawn is named: a control character's picture (`␛` for ESC), which is what has no glyph.
    let written = text.text(in: first).prefix(8)
    let drawn = String(String.UnicodeScalarView(written.unicodeScalars.map(VisibleControls.visible)))
    let controls = written.unicodeScalars.filter(VisibleControls.isReplaced).map {
      String(format: "U+%04X", $0.value)
    }
    let pictures = controls.isEmpty ? "" : ", drawn for \(controls.joined(separator: ", "))"
    return [
      Diagnostic(
        .unpredictableWidth, offset: first.lowerBound,
        message:
          "\(count == 1 ? "1 character has" : "\(count) characters have") no glyph in the fonts (the first: \(drawn.debugDescription)\(pictures)); the browser chooses their width, so its lines may differ"
      )
    ]
  }

  /// The break rules of `engine` for a page in `language`, unless ``breakRules`` says otherwise.
  private func breaker(for engine: BrowserEngine, language: String? = nil) -> LineBreaker {
    LineBreaker(rules: breakRules ?? LineBreaker.Rules(engine, language: language))
  }

  /// The layout as JSON (see ``LayoutJSON``), in terminal cells, with the line count always counted.
  public func json(width: Int, state: DisplayState) -> String {
    LayoutJSON.encode(truncated(width: width, state: state, countingAllLines: true))
  }

  /// The layout in CSS px, measured in `fonts` as `engine` lays it out (with its break rules unless ``breakRules``
  /// says otherwise), as JSON (widths in the measurer's unit: 1/65536 px, or 1/60 px for Gecko).
  public func json(width: Double, fonts: FontSet, engine: BrowserEngine = .any, state: DisplayState) -> String {
    let width = Self.pixels(width).0
    let measurer = FontMeasurer(fonts, engine: engine)
    return LayoutJSON.encode(
      Truncator.truncate(
        source.resolve().text, measurer: measurer, breaker: breaker(for: engine),
        width: measurer.layoutWidth(pixels: width), options: options, state: state, countingAllLines: true))
  }

  /// The text with its break opportunities marked (see `BreakNotation`).
  public func breaks() -> String {
    BreakNotation.render(source.resolve().text.string, breaker: LineBreaker(rules: breakRules ?? .unicode))
  }

}
