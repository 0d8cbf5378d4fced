/// Draws truncated text for a terminal: SGR styles at the terminal's colour level, OSC 8 hyperlinks, a styled
/// toggle label and a fading edge before the ellipsis; or plain text with no escape at all.
///
/// | what | drawn as |
/// | --- | --- |
/// | bold, italic, strikethrough | SGR 1, 3, 9 |
/// | code | cyan |
/// | link (http, https, mailto) | an OSC 8 hyperlink (with an `id`, so that a link broken across lines stays one link) around underlined text; other links show their text only |
/// | more and less labels | ``toggleStyle`` (bold blue by default) |
/// | the last characters before the ellipsis | a fade towards the background: a 24-bit gradient, a grey ramp of the 256 colours, or faint with 16 colours |
///
/// Styles are opened per fragment and reset at its end, so none leaks past a line end; hyperlinks are closed
/// at every line end. Every character of text, label and ellipsis goes through `visible(_:width:)`, and
/// every URL through `LinkPolicy`: no control character or escape sequence from the input reaches the
/// terminal.
public struct ANSIRenderer: Sendable {
  /// Which background the fade goes towards: a theme, or the colour the terminal reports (the renderer never
  /// asks the terminal itself; ``init(terminalReply:)`` reads its answer to an OSC 11 query).
  public enum Background: Hashable, Sendable {
    /// Light text on a dark background (most terminals).
    case dark
    /// Dark text on a light background.
    case light
    /// The terminal's background colour: the fade goes from grey text (light or dark by the colour's luminance)
    /// most of the way towards it.
    case rgb(red: UInt8, green: UInt8, blue: UInt8)

    /// The colour of a terminal's answer to `OSC 11 ; ?` (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by `ESC \` or
    /// BEL, each channel of 1 to 4 hex digits, as xterm, VTE, kitty, iTerm2 and tmux answer); nil for anything
    /// else.
    public init?(terminalReply reply: some StringProtocol) {
      guard let start = reply.range(of: "]11;rgb:") else { return nil }
      var body = reply[start.upperBound...]
      if let end = body.firstIndex(where: { $0 == "\u{1B}" || $0 == "\u{07}" }) { body = body[..<end] }
      let channels = body.split(separator: "/", omittingEmptySubsequences: false)
      guard channels.count == 3 else { return nil }
      var values: [UInt8] = []
      for channel in channels {
        guard (1...4).contains(channel.count), let value = UInt32(channel, radix: 16) else { return nil }
        let maximum = UInt32(1) << (4 * UInt32(channel.count)) - 1
        values.append(UInt8((value * 255 + maximum / 2) / maximum))
      }
      self = .rgb(red: values[0], green: values[1], blue: values[2])
    }

    /// Whether text on it is dark: a light theme, or a colour whose relative luminance is above one half.
    package var isLight: Bool {
      switch self {
      case .dark: return false
      case .light: return true
      case .rgb(let red, let green, let blue):
        return 0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue) > 127.5
      }
    }

    /// `light` when `COLORFGBG` says the background is white or light grey (7 or 15), else `dark`.
    public static func detect(environment: [String: String]) -> Background {
      guard let value = environment["COLORFGBG"], let last = value.split(separator: ";").last, let index = Int(last)
      else {
        return .dark
      }
      return index == 7 || index == 15 ? .light : .dark
    }
  }

  /// The colour level; `none` draws plain text.
  public var colors: ColorLevel
  /// The style of the more and less labels.
  public var toggleStyle: TerminalStyle
  /// The background the fade goes towards.
  public var background: Background

  private var isLightBackground: Bool { background.isLight }
  /// How many characters before the ellipsis fade (0 for no fade): the last ones before the first mark, the
  /// faintest next to it.
  public var fadeLength: Int

  /// The default style of the labels: bold blue.
  public static let defaultToggleStyle: TerminalStyle = {
    var style = TerminalStyle()
    style.attributes = [1]
    style.foreground = .ansi(4)
    return style
  }()

  /// Creates a renderer; by default with the 16 colours.
  public init(
    colors: ColorLevel = .ansi16, toggleStyle: TerminalStyle = ANSIRenderer.defaultToggleStyle,
    background: Background = .dark, fadeLength: Int = 6
  ) {
    self.colors = colors
    self.toggleStyle = toggleStyle
    self.background = background
    self.fadeLength = fadeLength
  }

  /// Whether a line that holds right-to-left text is written in visual order (`VisualOrder`), and a
  /// right-to-left paragraph's lines aligned to the right of the width: what a terminal that draws cells as
  /// given needs (most do).
  ///
  /// Off for a terminal that reorders lines itself (mlterm; GNOME Terminal, Konsole with bidi on): the lines are then
  /// written in logical order, as stored.
  public var reordersRightToLeft = true

  /// The bytes to print: each line followed by a newline.
  public func render(_ text: TruncatedText) -> String {
    render(
      lines: text.lines, fadeLine: fadeLineIndex(text), direction: visualDirection(of: text.lines), width: text.width,
      paragraph: text.paragraphLevels)
  }

  /// ``visualDirection(of:)`` of the text of `lines`, read fragment by fragment.
  func visualDirection(of lines: [DisplayLine]) -> TextDirection? {
    guard reordersRightToLeft, lines.contains(where: { Self.reorders($0, .ltr) }) else { return nil }
    for line in lines {
      for fragment in line.fragments {
        if let direction = TextDirection.firstStrong(in: fragment.text) { return direction }
      }
    }
    return .ltr
  }

  /// The base direction to reorder lines at, when the text needs reordering and the renderer reorders; `nil`
  /// when lines are written as stored.
  func visualDirection(of text: String) -> TextDirection? {
    guard reordersRightToLeft, VisualOrder.holdsLevelChange(text) else { return nil }
    return TextDirection(firstStrongIn: text)
  }

  /// The bytes of lines drawn one at a time (see ``WholeTextLines``), `fadeLine` fading; `capacity` is a guess at
  /// the size of the output, reserved up front so that a long output is not copied as it doubles.
  ///
  /// With a `direction`, each line is written in visual order, a right-to-left one aligned to the right of `width`; a
  /// line with a direction of its own (a document's block's) is written in that one. With a `paragraph`, a line is
  /// reordered by its paragraph's levels, else as a paragraph of its own.
  func render(
    lines: some Sequence<DisplayLine>, fadeLine: Int?, capacity: Int = 0, direction: TextDirection? = nil,
    width: Int? = nil, paragraph: ParagraphLevels? = nil
  ) -> String {
    var writer = Writer(capacity: capacity)
    let resolver = direction.map { _ in VisualOrder.LineResolver() }
    for (lineIndex, line) in lines.enumerated() {
      let fade = lineIndex == fadeLine ? fadedCharacters(line) : []
      if let direction, let resolver, case let base = line.direction ?? direction, Self.reorders(line, base) {
        writeVisually(
          line, fade: fade, direction: base, width: width, resolver: resolver,
          paragraph: line.direction == nil ? paragraph : nil, into: &writer)
        writer.endLine()
        continue
      }
      for (fragmentIndex, fragment) in line.fragments.enumerated() {
        guard let faded = fade.first(where: { $0.fragment == fragmentIndex }) else {
          writer.write(fragment, renderer: self)
          continue
        }
        writeClusters(
          VisualOrder.clusters(of: fragment.text, fragment: fragmentIndex), of: fragment, fade: faded, into: &writer)
      }
      writer.endLine()
    }
    return writer.string
  }

  /// The bytes of an expanded text's lines (see ``WholeTextLines/nextDrawn(perRun:)``): a line that draws as one
  /// fragment per run is written from the text's runs, with no fragment made; the others as drawn.
  ///
  /// The same bytes as ``render(lines:fadeLine:capacity:)`` of the drawn lines (a test compares them), without a
  /// `String` and a width per fragment that this renderer reads neither of (Docs/PerformanceNotes.md, "Terminal
  /// output").
  ///
  /// The lines are consumed, not copied: they carry the layout's state (scanner, segmenter and fitter, some twenty
  /// arrays).
  func render<Lines>(perRun lines: consuming WholeTextLines<Lines>, text: StyledText, capacity: Int = 0) -> String {
    var writer = Writer(capacity: capacity)
    write(perRun: &lines, text: text, into: &writer)
    return writer.string
  }

  /// Writes the lines of ``render(perRun:text:capacity:)`` to `writer`, which may hold lines before them; with a
  /// `direction` (``visualDirection(of:)`` of the whole text), each in visual order, aligned in `width`: the text's
  /// bidi levels resolved once, each line reordered by them (``BidiLevels/visualRuns(of:in:)``).
  func write<Lines>(
    perRun lines: inout WholeTextLines<Lines>, text: StyledText, direction: TextDirection? = nil, width: Int? = nil,
    into writer: inout Writer
  ) {
    let resolver = direction.map { _ in VisualOrder.LineResolver() }
    let levels = direction.map { BidiLevels(text.string, direction: $0) }
    let paragraph = levels.map { ParagraphLevels(levels: $0, text: text.string) }
    while let drawn = lines.nextDrawn(perRun: true) {
      switch drawn {
      case .display(let line):
        if let direction, let resolver, Self.reorders(line, direction) {
          writeVisually(
            line, fade: [], direction: direction, width: width, resolver: resolver, paragraph: paragraph,
            into: &writer)
        } else {
          for fragment in line.fragments { writer.write(fragment, renderer: self) }
        }
      case .runs(let line, let firstRun, let isClean):
        let range = line.contentRange
        guard !range.isEmpty else { break }
        // Written from the text's bytes, a run at a time: whether it has anything to replace is read from them
        // too, not through each run's substring.
        text.string.withUTF8Buffer { bytes in
          if let direction, let resolver, let runs = levels?.visualRuns(of: range, in: bytes) {
            return writeVisually(
              runsOf: line, runs: runs, firstRun: firstRun, isClean: isClean, text: text, bytes: bytes,
              direction: direction, width: width, resolver: resolver, into: &writer)
          }
          var run = firstRun
          var start = range.lowerBound
          while start < range.upperBound {
            let end = min(text.runEnds[run], range.upperBound)
            writer.write(
              bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]), style: text.style(ofRun: run), isClean: isClean,
              renderer: self)
            start = end
            run += 1
          }
        }
      }
      writer.endLine()
    }
  }

  /// Whether a drawn line of a paragraph of `direction` needs writing in visual order: all of a right-to-left
  /// paragraph's lines do (a neutral at an end moves), a left-to-right one's when they hold bidi characters.
  private static func reorders(_ line: DisplayLine, _ direction: TextDirection) -> Bool {
    direction == .rtl || line.fragments.contains { VisualOrder.holdsLevelChange($0.text) }
  }

  /// Writes a line of the text's bytes `line`, whose first run is `firstRun`, in visual order: each of its
  /// direction runs `runs` (``BidiLevels/visualRuns(of:in:)``) a style run at a time, a
  /// right-to-left one's style runs in reverse and their clusters drawn in reverse
  /// (``VisualOrder/drawnRightToLeft(utf8:into:starts:)``).
  ///
  /// The bytes that ``writeVisually(_:fade:direction:width:into:)`` writes for the drawn line, with no fragment or
  /// cluster made (Docs/PerformanceNotes.md, "Right-to-left text in the terminal").
  private func writeVisually(
    runsOf line: LineLayout.Line, runs: [VisualOrder.Run], firstRun: Int, isClean: Bool, text: StyledText,
    bytes: UnsafeBufferPointer<UInt8>, direction: TextDirection, width: Int?, resolver: VisualOrder.LineResolver,
    into writer: inout Writer
  ) {
    if direction == .rtl, let width, width > line.width { writer.appendSpaces(width - line.width) }
    let range = line.contentRange
    for visual in runs {
      let lower = range.lowerBound + visual.range.lowerBound
      let upper = range.lowerBound + visual.range.upperBound
      // The style runs the direction run overlaps, the first and the last: a right-to-left one's are written
      // from the last.
      var first = firstRun
      while text.runEnds[first] <= lower { first += 1 }
      var last = first
      while text.runEnds[last] < upper { last += 1 }
      for index in 0...(last - first) {
        let run = visual.isRightToLeft ? last - index : first + index
        let start = run == first ? lower : text.runEnds[run - 1]
        let end = min(text.runEnds[run], upper)
        guard start < end else { continue }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let style = text.style(ofRun: run)
        guard visual.isRightToLeft else {
          writer.write(bytes: slice, style: style, isClean: isClean, renderer: self)
          continue
        }
        resolver.withDrawnRightToLeft(slice) { writer.write(bytes: $0, style: style, isClean: isClean, renderer: self) }
      }
    }
  }

  /// Writes a line in visual order (`VisualOrder`): a right-to-left one aligned to the right of `width`, each
  /// fragment's clusters that stand together drawn together.
  private func writeVisually(
    _ line: DisplayLine, fade: [FadedCharacters], direction: TextDirection, width: Int?,
    resolver: VisualOrder.LineResolver, paragraph: ParagraphLevels? = nil, into writer: inout Writer
  ) {
    if direction == .rtl, let width, width > line.width { writer.appendSpaces(width - line.width) }
    guard !fade.isEmpty else {
      // A piece at a time, as the fragment it is part of is written, and as a line written from the text's runs
      // writes it.
      for piece in VisualOrder.pieces(of: line, direction: direction, resolver: resolver, paragraph: paragraph) {
        let fragment = line.fragments[piece.fragment]
        var text = fragment.text
        text.withUTF8 { bytes in
          let slice = UnsafeBufferPointer(rebasing: bytes[piece.range])
          guard piece.isRightToLeft else { return writer.write(bytes: slice, of: fragment, renderer: self) }
          resolver.withDrawnRightToLeft(slice) { writer.write(bytes: $0, of: fragment, renderer: self) }
        }
      }
      return
    }
    let clusters = VisualOrder.clusters(of: line, direction: direction, resolver: resolver, paragraph: paragraph)
    var start = 0
    while start < clusters.count {
      let fragment = clusters[start].fragment
      var end = start + 1
      while end < clusters.count, clusters[end].fragment == fragment { end += 1 }
      let faded = fade.first { $0.fragment == fragment }
      let pieces = clusters[start..<end]
      writeClusters(
        faded == nil ? Array(pieces) : VisualOrder.splitIntoClusters(pieces, of: line.fragments[fragment]),
        of: line.fragments[fragment], fade: faded, into: &writer)
      start = end
    }
  }

  /// Writes clusters of one fragment in the order given, in its style: the fading ones with their step, one by
  /// one, the others in stretches of equal style; a tab as wide as its fragment (one alone).
  private func writeClusters(
    _ clusters: some Collection<VisualOrder.Cluster>, of fragment: Fragment, fade: FadedCharacters?,
    into writer: inout Writer
  ) {
    let link = writer.openLink(for: fragment.style, role: fragment.role, renderer: self)
    let codes = sgr(for: fragment, isLink: link != nil)
    var pending = ""
    var pendingCodes = codes
    for cluster in clusters {
      var clusterCodes = codes
      if let fade, fade.range.contains(cluster.range.lowerBound) {
        let step = fade.firstStep + fragment.text[fade.range.lowerBound..<cluster.range.lowerBound].count
        clusterCodes += fadeCodes(step: step, of: fadeLength)
      }
      let characters = VisualOrder.drawn(fragment.text[cluster.range], isRightToLeft: cluster.isRightToLeft)
      if clusterCodes != pendingCodes {
        writer.append(pending, escape: Self.escape(pendingCodes))
        (pending, pendingCodes) = ("", clusterCodes)
      }
      pending += Self.visible(characters, width: characters == "\t" ? fragment.width : 1)
    }
    writer.append(pending, escape: Self.escape(pendingCodes))
  }

  /// The output of one rendering and what it carries from fragment to fragment: the open hyperlink, the
  /// numbering of links, the last link policy decided and the escapes made.
  struct Writer {
    /// The output, sealed 16 KiB at a time (``UTF8Output``), not a `String` that checks its capacity, the slice's
    /// alignment and whether it stays ASCII at each of the many small appends (an escape, a run, a reset).
    private var output: UTF8Output
    private var openLink: String?
    private var previousLink: String?  // the link of the last fragment drawn, across line ends
    private var linkOrdinal = 0
    // A link's fragments follow each other, and a style's escape is the same every time: both are decided once.
    // The hash of the link's URL goes into its id.
    private var policy: (destination: String, url: String?, hash: UInt32)?
    /// The escapes made, by key: a text uses a few styles, found by a look along a short array (a dictionary
    /// hashed each fragment's key and grew three times for a comment).
    private var escapes: [(key: Int, escape: String)] = []
    /// Whether plain text outside a link has no escape (known once its escape is made: key 0).
    private var plainIsBare = false

    init(capacity: Int) {
      output = UTF8Output(capacity: capacity, sealingEvery: 16_384)
      escapes.reserveCapacity(8)
    }

    /// The output written, made a string.
    var string: String {
      mutating get { output.sealedString() }
    }

    /// Appends text as it is.
    mutating func append(_ text: some StringProtocol) { output.write(text) }

    /// Appends `count` spaces, a line's alignment, with no string made for them.
    mutating func appendSpaces(_ count: Int) {
      for _ in 0..<max(0, count) { output.write(ascii: 0x20) }
    }

    /// Appends text in the style that `escape` opens, reset after it.
    mutating func append(_ text: some StringProtocol, escape: String) {
      guard !escape.isEmpty, !text.isEmpty else { return append(text) }
      append(escape)
      append(text)
      append(ANSIRenderer.reset)
    }

    /// Opens (or keeps, or closes) the hyperlink of a fragment of `style` and `role`; its safe URL, if any.
    mutating func openLink(for style: Style, role: Fragment.Role, renderer: ANSIRenderer) -> String? {
      var link: String?
      if renderer.colors > .none, role == .text, let destination = style.link {
        if policy?.destination != destination {
          let url = LinkPolicy.safeURL(destination)
          policy = (destination, url, url.map(HTMLRenderer.hash) ?? 0)
        }
        link = policy?.url
      }
      if link != openLink {
        if openLink != nil { append(ANSIRenderer.closeLink) }
        if let link {
          if link != previousLink { linkOrdinal += 1 }
          // OSC 8 with an id made of the URL's hash and the link's number, written piece by piece rather than
          // interpolated into a string (Docs/PerformanceNotes.md, "Writing output").
          output.write("\u{1B}]8;id=u")
          output.write(hex: policy?.hash ?? 0)
          output.write(ascii: UInt8(ascii: "-"))
          output.write(decimal: linkOrdinal)
          output.write(ascii: UInt8(ascii: ";"))
          output.write(link)
          output.write("\u{1B}\\")
        }
        openLink = link
      }
      previousLink = role == .text || role == .hyphen ? link : previousLink
      return link
    }

    /// Writes a fragment.
    mutating func write(_ fragment: Fragment, renderer: ANSIRenderer) {
      var text = fragment.text
      text.withUTF8 { write(bytes: $0, of: fragment, renderer: renderer) }
    }

    /// Writes `bytes`, the text of `fragment` or a piece of it cut at code points, in the fragment's style and
    /// role.
    mutating func write(bytes: UnsafeBufferPointer<UInt8>, of fragment: Fragment, renderer: ANSIRenderer) {
      write(
        bytes: bytes, style: fragment.style, role: fragment.role, width: fragment.width, isClean: false,
        renderer: renderer)
    }

    /// Writes `bytes` in the escape of `style` and `role`, as they are when clean (known so with `isClean`), else
    /// with their controls made visible (a tab as wide as `width`).
    private mutating func write(
      bytes: UnsafeBufferPointer<UInt8>, style: Style, role: Fragment.Role, width: Int, isClean: Bool,
      renderer: ANSIRenderer
    ) {
      let escape = escape(style: style, role: role, renderer: renderer)
      if isClean || ANSIRenderer.isClean(bytes: bytes) {  // a tab is not clean: it is drawn as spaces
        guard !escape.isEmpty, !bytes.isEmpty else { return output.write(bytes) }
        append(escape)
        output.write(bytes)
        append(ANSIRenderer.reset)
      } else {
        append(ANSIRenderer.visible(String(decoding: bytes, as: UTF8.self), width: width), escape: escape)
      }
    }

    /// Writes a run of text's bytes (no tab among them: ``LineDrawer`` draws such a line per run only without
    /// one) in its style, as ``write(_:renderer:)`` writes a fragment of them; `isClean` when the line drawer
    /// found the bytes clean already (``isClean(bytes:)`` then is not asked again).
    mutating func write(bytes: UnsafeBufferPointer<UInt8>, style: Style, isClean: Bool, renderer: ANSIRenderer) {
      // A plain run outside a link whose escape is none (most runs of most texts): its bytes as they are, what the
      // general path below writes for it, without looking its escape and link up (strings copied, retained and
      // released at every run).
      if plainIsBare, style.link == nil, style.traits.isEmpty, openLink == nil,
        isClean || ANSIRenderer.isClean(bytes: bytes)
      {
        previousLink = nil
        return output.write(bytes)
      }
      write(bytes: bytes, style: style, role: .text, width: 0, isClean: isClean, renderer: renderer)
    }

    /// The escape of a fragment of `style` and `role` (made once per key), its link opened first.
    private mutating func escape(style: Style, role: Fragment.Role, renderer: ANSIRenderer) -> String {
      let isLink = openLink(for: style, role: role, renderer: renderer) != nil
      let key = ANSIRenderer.escapeKey(style: style, role: role, isLink: isLink)
      if let known = escapes.first(where: { $0.key == key }) { return known.escape }
      let escape =
        ANSIRenderer.textEscape(key: key, colors: renderer.colors)
        ?? ANSIRenderer.escape(renderer.sgr(style: style, role: role, isLink: isLink))
      escapes.append((key, escape))
      if key == 0 { plainIsBare = escape.isEmpty }
      return escape
    }

    /// Ends a line: its hyperlink closed, a newline.
    mutating func endLine() {
      if openLink != nil { append(ANSIRenderer.closeLink) }
      openLink = nil
      output.write(ascii: 0x0A)
      output.sealIfLong()
    }
  }

  private static let closeLink = "\u{1B}]8;;\u{1B}\\"

  /// The escape that opens SGR `codes`; empty for none.
  private static func escape(_ codes: [String]) -> String {
    codes.isEmpty ? "" : "\u{1B}[\(codes.joined(separator: ";"))m"
  }

  private static let reset = "\u{1B}[0m"

  /// What decides a fragment's SGR codes (``sgr(for:isLink:)``), as a number: its role, whether it is a link,
  /// and its traits.
  private static func escapeKey(style: Style, role: Fragment.Role, isLink: Bool) -> Int {
    if role == .moreLabel || role == .lessLabel { return -1 }
    if role == .marker { return -3 }
    guard role == .text else { return -2 }
    return Int(style.traits.rawValue) << 1 | (isLink ? 1 : 0)
  }

  /// The line that fades: the cut line of a collapsed, truncated text (the last text line when the toggle is
  /// below); none for head truncation, whose cut is at the start.
  private func fadeLineIndex(_ text: TruncatedText) -> Int? {
    guard colors > .none, fadeLength > 0, text.state == .collapsed, text.isTruncated, text.mode != .head else {
      return nil
    }
    if text.toggle == .below { return text.lines.count >= 2 ? text.lines.count - 2 : nil }
    return text.lines.lastIndex { line in line.fragments.contains { $0.role == .ellipsis || $0.role == .moreLabel } }
      ?? (text.lines.isEmpty ? nil : text.lines.count - 1)
  }

  /// Characters of a fragment that fade (``fadedCharacters(_:)``).
  private struct FadedCharacters {
    /// The index of the fragment in its line.
    let fragment: Int
    let range: Range<String.Index>
    /// The fade's step of the first.
    let firstStep: Int
  }

  /// The characters of a line that fade, by text fragment: the last `fadeLength` characters of text before the
  /// first mark (ellipsis, gap, label) or the end of the line, with their steps, the one just before the mark at
  /// the last step (the faintest) whatever the length of the text before it; text after the mark (a middle
  /// truncation's end) does not fade.
  ///
  /// Found by walking back from the mark (counting every character of the line walked its clusters twice).
  private func fadedCharacters(_ line: DisplayLine) -> [FadedCharacters] {
    let fragments = line.fragments
    var faded: [FadedCharacters] = []
    var remaining = fadeLength
    var index = fragments.firstIndex { $0.role == .ellipsis || $0.role == .gap || $0.isToggle } ?? fragments.count
    while remaining > 0, index > 0 {
      index -= 1
      guard fragments[index].role == .text else { continue }
      let text = fragments[index].text
      var lower = text.endIndex
      var taken = 0
      while taken < remaining, lower > text.startIndex {
        lower = text.index(before: lower)
        taken += 1
      }
      if taken > 0 {
        faded.append(FadedCharacters(fragment: index, range: lower..<text.endIndex, firstStep: remaining - taken))
      }
      remaining -= taken
    }
    return faded
  }

  /// The colour of fade step `step` of `count`: from a light grey towards the background.
  private func fadeCodes(step: Int, of count: Int) -> [String] {
    let fraction = Double(step + 1) / Double(count + 1)
    if case .rgb(let red, let green, let blue) = background, colors > .ansi16 {
      // From grey text most of the way to the background, channel by channel (a fade to a dark blue ends blue).
      let text = isLightBackground ? 58.0 : 198.0
      let shade = { (target: UInt8) in UInt8((text + (Double(target) - text) * 0.8 * fraction).rounded()) }
      let (r, g, b) = (shade(red), shade(green), shade(blue))
      if colors == .ansi256 { return ["38", "5", String(TerminalStyle.nearestPalette(r, g, b))] }
      return ["38", "2", String(r), String(g), String(b)]
    }
    switch colors {
    case .none: return []
    case .ansi16: return ["2"]
    case .ansi256:
      let (from, to) = background == .dark ? (250.0, 238.0) : (238.0, 252.0)
      return ["38", "5", String(Int((from + (to - from) * fraction).rounded()))]
    case .truecolor:
      let (from, to) = background == .dark ? (198.0, 58.0) : (58.0, 208.0)
      let value = String(Int((from + (to - from) * fraction).rounded()))
      return ["38", "2", value, value, value]
    }
  }

  private func sgr(for fragment: Fragment, isLink: Bool) -> [String] {
    sgr(style: fragment.style, role: fragment.role, isLink: isLink)
  }

  private func sgr(style: Style, role: Fragment.Role, isLink: Bool) -> [String] {
    guard colors > .none else { return [] }
    if role == .moreLabel || role == .lessLabel { return toggleStyle.sgr(colors) }
    if role == .marker { return ["2"] }  // a document's bullets, bars, borders and gutter: faint beside the text
    guard role == .text else { return [] }
    return Self.textCodes(style.traits, isLink: isLink, colors: colors)
  }

  /// The SGR codes of text with `traits`, a link or not, at a colour level above none.
  private static func textCodes(_ traits: Style.Traits, isLink: Bool, colors: ColorLevel) -> [String] {
    var codes: [String] = []
    if traits.contains(.bold) { codes.append("1") }
    if traits.contains(.italic) { codes.append("3") }
    if isLink { codes.append("4") }
    if traits.contains(.strikethrough) { codes.append("9") }
    if traits.contains(.code) { codes += TerminalStyle.codes(.ansi(6), level: colors, background: false) }
    return codes
  }

  /// The escapes of text at every colour level above none, by ``escapeKey(style:role:isLink:)`` (the four traits
  /// and whether it is a link): the same at every such level, since code's colour is one of the 16 (a test
  /// compares them), and made once per process rather than per rendering.
  private static let textEscapes = madeTextEscapes(colors: .ansi16)

  /// The escape of text whose ``escapeKey(style:role:isLink:)`` is `key`, at `colors`: from ``textEscapes``
  /// when the key is one of text of the four traits.
  static func textEscape(key: Int, colors: ColorLevel) -> String? {
    colors > .none && textEscapes.indices.contains(key) ? textEscapes[key] : nil
  }

  /// The escapes of text at `colors`, a level above none, by key: made once for ``textEscapes``, and for every
  /// level by the tests.
  static func madeTextEscapes(colors: ColorLevel) -> [String] {
    (0..<32).map { key in
      escape(textCodes(Style.Traits(rawValue: UInt8(key >> 1)), isLink: key & 1 == 1, colors: colors))
    }
  }

  /// The one escaping function: control characters become their visible pictures (`VisibleControls`), a
  /// tab becomes `width` spaces, a newline becomes a space (lines end with the engine's own newline), a soft
  /// hyphen is dropped (terminals would draw it; the engine measures it as nothing), and so is a bidi formatting
  /// character (zero wide; it took part in the reordering, and would reorder again in a terminal that does).
  package static func visible(_ text: some StringProtocol, width: Int) -> String {
    // A tab alone, compared as a byte rather than as a string.
    if text.utf8.count == 1 && text.utf8.first == 0x09 { return String.repeated(" ", count: max(0, width)) }
    if isClean(text) { return String(text) }
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar == "\n" || scalar == "\t" {
        result += " "
      } else if scalar == "\u{00AD}" || VisibleControls.isBidiControl(scalar) {
        continue
      } else {
        result.unicodeScalars.append(VisibleControls.visible(scalar))
      }
    }
    return result
  }

  /// Whether `text` holds nothing that ``visible(_:width:)`` replaces.
  ///
  /// Most text does not: C0 controls and DEL are single bytes, C1 controls and the soft hyphen are C2 80–9F and C2 AD,
  /// the bidi formatting characters start with D8 or E2. Such text is drawn as it is, not rebuilt code point by code
  /// point.
  static func isClean(_ text: some StringProtocol) -> Bool {
    text.withUTF8Buffer { isClean(bytes: $0) }
  }

  /// ``isClean(_:)`` of UTF-8 bytes.
  static func isClean(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    // Eight bytes at a time while none is below 0x20, DEL, C2, D8 or E2 (`mayHoldControl`); from the first block that
    // holds one, byte by byte.
    var start = 0
    while start + 8 <= bytes.count {
      if UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self).mayHoldControl { break }
      start += 8
    }
    var (previous, beforePrevious): (UInt8, UInt8) = (0, 0)  // neither C2, D8 nor E2 ends a block read whole
    for byte in bytes[start...] {
      if byte.isControl(after: previous) || (previous == 0xC2 && byte == 0xAD)
        || byte.endsBidiControl(after: previous, beforePrevious)
      {
        return false
      }
      (beforePrevious, previous) = (previous, byte)
    }
    return true
  }
}
