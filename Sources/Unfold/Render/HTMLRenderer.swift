import Foundation

/// How an HTML fragment is written.
public struct HTMLOptions: Hashable, Sendable {
  /// Where the page finds the font files the engine measured.
  public enum FontSource: Hashable, Sendable {
    /// `url("<prefix><file name>")`: the server serves the files there.
    case url(prefix: String)
    /// The faces themselves, as base64 `data:` URLs, each cut down to the glyphs the fragment draws (HarfBuzz's
    /// subsetter keeps what shaping them reaches, and every advance): the fragment renders identically anywhere.
    case embedded
  }

  /// The `id` of the container (its CSS, the toggles' `aria-controls` and the full text's id derive from it;
  /// any text, escaped for the attribute and for the CSS selector);
  /// `nil` derives a stable one from the rendering: `unfold-` and eight hex digits of a hash of the text, the
  /// width, the state shown first, the truncation, these options and the fonts (FNV-1a; for a text longer than
  /// 4 KiB, a hash of its bytes eight at a time), the same on every run and machine. So one text at two widths
  /// or in two states on one page has two ids; the same rendering twice on one page (the same bytes) needs an
  /// `id` for each copy.
  public var id: String?
  /// Where the fonts come from; `url(prefix: "")` by default.
  public var fontSource: FontSource
  /// A whole page (`<!DOCTYPE html>`, fonts embedded) instead of a fragment.
  public var standalone: Bool
  /// The duration of the height animation when the text expands or collapses, in seconds (0: none). It is
  /// always off for readers who ask for reduced motion.
  public var animationDuration: Double
  /// The CSS easing of that animation.
  public var animationEasing: String
  /// A CSP nonce for the inline script, for pages whose Content-Security-Policy allows scripts by nonce.
  public var scriptNonce: String?
  /// The `lang` of the paragraph (a BCP 47 tag), which browsers use for line breaking and fonts.
  public var language: String?
  /// A scrolling region this many lines tall instead of truncation (`nil`: truncation).
  public var scrollLines: Int?
  /// The accessible name of a scrolling region (default: the text's first words).
  public var scrollLabel: String?

  /// Creates options; the defaults: fonts by file name, a fragment, a smooth 0.4 s animation.
  public init(
    id: String? = nil, fontSource: FontSource = .url(prefix: ""), standalone: Bool = false,
    animationDuration: Double = 0.4, animationEasing: String = "cubic-bezier(0.4, 0, 0.2, 1)",
    scriptNonce: String? = nil, language: String? = nil, scrollLines: Int? = nil, scrollLabel: String? = nil
  ) {
    self.scrollLines = scrollLines
    self.scrollLabel = scrollLabel
    self.id = id
    self.fontSource = fontSource
    self.standalone = standalone
    self.animationDuration = animationDuration
    self.animationEasing = animationEasing
    self.scriptNonce = scriptNonce
    self.language = language
  }
}

/// Draws a paragraph as HTML that a browser lays out exactly as the engine predicted: the engine's collapsed
/// lines with the ellipsis and a real `<button>`, the whole text for expansion and for screen readers, and a
/// container whose CSS pins every property that changes layout to what the engine measured.
///
/// The structure:
///
///     <div class="unfold" id="…" dir="ltr" data-state="collapsed" data-duration="400" data-easing="…">
///       (written without whitespace between the elements, shown here on lines)
///       <style>@font-face … #id { width: 320px; font: 16px/20px …; white-space: pre-wrap; … }</style>
///       <p class="unfold-collapsed">line<br><span class="unfold-fade">last line</span><span
///         class="unfold-ellipsis">…</span> <button type="button" class="unfold-toggle unfold-more"
///         aria-expanded="false" aria-controls="…-full">more</button></p>
///       <p class="unfold-full" id="…-full" tabindex="-1">the whole text <button … unfold-less>less</button></p>
///       <script>…</script>
///     </div>
///
/// - **Without JavaScript** the whole text shows and no toggle does: nothing is hidden from a reader who
///   cannot expand it. The inline script (no outside dependency, placed right after the markup so it runs
///   before the first paint) switches the container to the collapsed view and wires the toggles.
/// - **Screen readers and keyboards** meet what the eye meets, once: while collapsed, the collapsed lines
///   (ending in the ellipsis) and the button, a WAI-ARIA disclosure with `aria-expanded` and `aria-controls`;
///   the full text is `display: none` until expanded, so nothing hidden takes focus and nothing focusable is
///   hidden from assistive technology. A link is one tab stop in either state: the pieces of a link cut by a
///   line end or by a change of style after its first are `tabindex="-1"` (still links for a click). Focus
///   moves to the less button (or the text) on expanding, and back on collapsing.
/// - **The fade**: the last line's text fades towards its end under a `mask-image` gradient (towards the left
///   for `dir="rtl"`).
/// - **Motion**: the height change animates (``HTMLOptions/animationDuration``), never for readers who ask
///   for reduced motion.
/// - **The toggle** is at least 24 × 24 CSS px to click or touch (padding), without moving the layout (the
///   same negative margin): its box in the line is the label's text.
/// - A text that fits is just the paragraph, with no button and no script.
///
/// Every piece of text, label and attribute goes through ``escape(_:)``; links are drawn only for
/// destinations that ``LinkPolicy`` allows. Raw HTML from the input is shown as text.
public struct HTMLRenderer: Sendable {
  /// The fonts the engine measured with.
  public var fonts: FontSet
  /// How to write the fragment.
  public var options: HTMLOptions

  /// Creates a renderer.
  public init(fonts: FontSet, options: HTMLOptions = HTMLOptions()) {
    self.fonts = fonts
    self.options = options
  }

  /// The HTML for `text`, whose collapsed form is `collapsed`, shown first in `state`.
  public func render(
    _ text: StyledText, collapsed: TruncatedText, truncation: TruncationOptions, state: DisplayState
  ) -> String {
    if let lines = options.scrollLines { return wrapPage(scrolling(text, lines: lines, width: collapsed.width)) }
    let rawID = options.id ?? stableID(for: text, width: collapsed.width, rendering: "\(state.rawValue)|\(truncation)")
    let id = Self.escape(rawID)
    let direction = TextDirection(firstStrongIn: text.string)
    let shownState =
      collapsed.isTruncated && collapsed.toggle != .none ? state : collapsed.isTruncated ? .collapsed : .expanded
    let milliseconds = Int((max(0, options.animationDuration) * 1000).rounded())
    // The text is written twice (collapsed and whole), with the CSS and the script around it.
    var html = UTF8Output(capacity: 2 * text.string.utf8.count + 4_096, sealingEvery: 65_536)
    // Without a toggle there is nothing to wire: the collapsed view is on from the start.
    writeContainer(
      classes: collapsed.isTruncated && collapsed.toggle == .none ? "unfold unfold-on" : "unfold", id: id,
      direction: direction, to: &html)
    html.write(" data-state=\"")
    html.write(shownState.rawValue)
    html.write("\"")
    if collapsed.isTruncated && collapsed.toggle != .none {
      html.write(" data-duration=\"")
      html.write(decimal: milliseconds)
      html.write("\" data-easing=\"")
      Self.writeEscaped(options.animationEasing, to: &html)
      html.write("\"")
    }
    // No whitespace between the elements inside the container: it keeps white-space: pre-wrap, so a
    // newline there would be a line.
    html.write("><style>")
    writeCSS(
      id: rawID, width: collapsed.width, text: text,
      labels: [truncation.moreLabel, truncation.lessLabel ?? "", truncation.ellipsis], to: &html)
    html.write("</style>")
    html.seal()  // the attributes and the CSS, ASCII but for a language or an easing past it
    let hasToggle = collapsed.isTruncated && collapsed.toggle != .none
    if collapsed.isTruncated {
      html.write("<p class=\"unfold-collapsed\">")
      var lastLink: String?
      let fadeLine =
        collapsed.mode == .head
        ? nil : (collapsed.toggle == .below ? collapsed.lines.count - 2 : collapsed.lines.count - 1)
      for (index, line) in collapsed.lines.enumerated() {
        if index > 0 { html.write("<br>") }
        var fading = index == fadeLine
        if fading { html.write("<span class=\"unfold-fade\">") }
        for fragment in line.fragments {
          if fading && fragment.role != .text && fragment.role != .hyphen {
            html.write("</span>")
            fading = false
          }
          switch fragment.role {
          case .moreLabel:
            let overlay = collapsed.toggle == .overlay
            writeToggle(
              label: fragment.text, kind: overlay ? "more unfold-overlay" : "more", expanded: false, id: id, to: &html)
            lastLink = nil
          case .gap where collapsed.toggle == .overlay && fragment.text.count > 1:
            continue  // the padding before an overlaid toggle: the button is placed, not flowed
          default:
            Self.writeInline(fragment.text, style: fragment.style, role: fragment.role, lastLink: &lastLink, to: &html)
          }
        }
        if fading { html.write("</span>") }
      }
      html.write("</p>")
    }
    html.write("<p class=\"unfold-full\" id=\"")
    html.write(id)
    html.write("-full\" tabindex=\"-1\">")
    Self.writeRuns(of: text, to: &html)
    if hasToggle, let less = truncation.lessLabel {
      html.write(collapsed.toggle == .below ? "<br>" : " ")
      writeToggle(label: less, kind: "less", expanded: true, id: id, to: &html)
    }
    html.write("</p>")
    if hasToggle {
      html.write("<script")
      if let nonce = options.scriptNonce {
        html.write(" nonce=\"")
        Self.writeEscaped(nonce, to: &html)
        html.write("\"")
      }
      html.write(">")
      html.write(Self.script)
      html.write("</script>")
    }
    html.write("</div>\n")
    return wrapPage(html.sealedString())
  }

  /// A scrolling region exactly `lines` lines tall, focusable so that a keyboard can scroll it.
  private func scrolling(_ text: StyledText, lines: Int, width: Int) -> String {
    let rawID = options.id ?? stableID(for: text, width: width, rendering: "scroll")
    let id = Self.escape(rawID)
    let direction = TextDirection(firstStrongIn: text.string)
    let words = text.string.split(whereSeparator: \.isWhitespace).prefix(6).joined(separator: " ")
    let label = options.scrollLabel ?? (words.count < text.string.count ? words + "…" : words)
    var html = UTF8Output(capacity: text.string.utf8.count + 4_096)
    writeContainer(classes: "unfold unfold-scroll", id: id, direction: direction, to: &html)
    html.write(" role=\"region\" aria-label=\"")
    Self.writeEscaped(label, to: &html)
    html.write("\" tabindex=\"0\"><style>")
    writeCSS(id: rawID, width: width, text: text, labels: [], to: &html)
    html.write(Self.selector(forID: rawID))
    html.write("{max-height:")
    html.write(Self.px(Double(lines) * fonts.lineHeight))
    html.write(";overflow-y:auto}")
    html.write(Self.selector(forID: rawID))
    html.write(":focus-visible{outline:2px solid Highlight}</style><p class=\"unfold-text\">")
    Self.writeRuns(of: text, to: &html)
    html.write("</p></div>\n")
    return html.string()
  }

  /// The container's opening tag up to its `lang`, left open for the attributes that follow: its classes, its
  /// `id` (escaped already), its direction.
  private func writeContainer(classes: StaticString, id: String, direction: TextDirection, to html: inout UTF8Output) {
    html.write("<div class=\"")
    html.write(classes)
    html.write("\" id=\"")
    html.write(id)
    html.write("\" dir=\"")
    html.write(direction.rawValue)
    html.write("\"")
    if let language = options.language {
      html.write(" lang=\"")
      Self.writeEscaped(language, to: &html)
      html.write("\"")
    }
  }

  /// The fragment, or a whole page around it when ``HTMLOptions/standalone``.
  private func wrapPage(_ html: String) -> String {
    guard options.standalone else { return html }
    let language = options.language.map { " lang=\"\(Self.escape($0))\"" } ?? ""
    return """
      <!DOCTYPE html>
      <html\(language)>
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Unfold</title>
      </head>
      <body>
      \(html)</body>
      </html>

      """
  }

  /// A toggle button that controls the element `<id>-full`.
  private func writeToggle(label: String, kind: String, expanded: Bool, id: String, to html: inout UTF8Output) {
    html.write("<button type=\"button\" class=\"unfold-toggle unfold-")
    html.write(kind)
    html.write(expanded ? "\" aria-expanded=\"true\" aria-controls=\"" : "\" aria-expanded=\"false\" aria-controls=\"")
    html.write(id)
    html.write("-full\">")
    Self.writeEscaped(label, to: &html)
    html.write("</button>")
  }

  /// The whole text, run by run, as inline elements.
  private static func writeRuns(of text: StyledText, to html: inout UTF8Output) {
    var lastLink: String?
    for (range, style) in text.runRanges {
      writeInline(text.text(in: range), style: style, role: .text, lastLink: &lastLink, to: &html)
      html.sealIfLong()
    }
  }

  /// Text of a fragment's style and role as inline elements: a link, then strong, em, del and code, closed in
  /// the reverse order. `lastLink` is the link the text before ended in: a piece of the same link goes on from
  /// it, out of the tab order (one tab stop per link); it becomes this text's link.
  static func writeInline(
    _ text: some StringProtocol, style: Style, role: Fragment.Role, lastLink: inout String?,
    to html: inout UTF8Output
  ) {
    if role != .text && role != .hyphen { lastLink = nil }  // a hyphen inside a link goes on with it
    if role == .ellipsis {
      html.write("<span class=\"unfold-ellipsis\">")
      writeEscaped(text, to: &html)
      html.write("</span>")
      return
    }
    let traits = role == .text ? style.traits : []
    let link = role == .text ? style.link.flatMap(LinkPolicy.safeURL) : nil
    if let link {
      html.write("<a href=\"")
      writeEscaped(link, to: &html)
      html.write(link == lastLink ? "\" tabindex=\"-1\">" : "\">")
    }
    if role == .text { lastLink = link }
    if traits.contains(.bold) { html.write("<strong>") }
    if traits.contains(.italic) { html.write("<em>") }
    if traits.contains(.strikethrough) { html.write("<del>") }
    if traits.contains(.code) { html.write("<code>") }
    writeEscaped(text, to: &html)
    if traits.contains(.code) { html.write("</code>") }
    if traits.contains(.strikethrough) { html.write("</del>") }
    if traits.contains(.italic) { html.write("</em>") }
    if traits.contains(.bold) { html.write("</strong>") }
    if link != nil { html.write("</a>") }
  }

  /// The one escaping function, for text and attribute values alike: `& < > " '` become entities and
  /// control characters become their visible pictures (``VisibleControls``). Tabs and newlines stay.
  public static func escape(_ text: some StringProtocol) -> String {
    var html = UTF8Output()
    writeEscaped(text, to: &html)
    return html.string()
  }

  /// ``escape(_:)``, written to an output: the bytes are read for what to replace, and the stretches between
  /// replacements are written whole. The bytes are read eight at a time, their entries in the table of bytes
  /// looked at combined, for as long as none is one (Docs/PerformanceNotes.md, "HTML output").
  static func writeEscaped(_ text: some StringProtocol, to html: inout UTF8Output) {
    let escapedBytes = Self.escapedBytes  // read once, not through the global's accessor per byte
    escapedBytes.withUnsafeBufferPointer { table in
      text.withUTF8Buffer { bytes in writeEscaped(bytes, table: table, to: &html) }
    }
  }

  /// The loop of ``writeEscaped(_:to:)``, over the bytes and the table (1 for a byte looked at, 0 for any other).
  private static func writeEscaped(
    _ bytes: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>, to html: inout UTF8Output
  ) {
    var clean = 0  // the start of the bytes not written yet
    var offset = 0
    var byteByByte = 0  // where the eight bytes that a wide read found one to look at in end
    while offset < bytes.count {
      if offset >= byteByByte, let base = bytes.baseAddress {
        @inline(__always) func looked(_ k: Int) -> UInt8 { table[Int(base[offset &+ k])] }
        while offset &+ 8 <= bytes.count,
          (looked(0) | looked(1)) | (looked(2) | looked(3)) | ((looked(4) | looked(5)) | (looked(6) | looked(7))) == 0
        {
          offset &+= 8
        }
        byteByByte = offset &+ 8
      }
      guard offset < bytes.count else { break }
      let byte = bytes[offset]
      guard table[Int(byte)] != 0 else {
        offset += 1
        continue
      }
      var length = 1
      let replacement: String
      switch byte {
      case 0x26: replacement = "&amp;"
      case 0x3C: replacement = "&lt;"
      case 0x3E: replacement = "&gt;"
      case 0x22: replacement = "&quot;"
      case 0x27: replacement = "&#x27;"
      case 0xC2:  // a C1 control (C2 80–9F) is replaced, its two bytes
        guard offset + 1 < bytes.count, (0x80...0x9F).contains(bytes[offset + 1]) else {
          offset += 1
          continue
        }
        replacement = String(VisibleControls.visible(Unicode.Scalar(bytes[offset + 1])))
        length = 2
      default: replacement = String(VisibleControls.visible(Unicode.Scalar(byte)))
      }
      html.write(UnsafeBufferPointer(rebasing: bytes[clean..<offset]))
      html.write(replacement)
      offset += length
      clean = offset
    }
    html.write(UnsafeBufferPointer(rebasing: bytes[clean...]))
  }

  /// The bytes that ``escape(_:)`` looks at: `& < > " '`, C0 controls but tab and newline, DEL, and C2 (the
  /// lead byte of the C1 controls).
  private static let escapedBytes: [UInt8] = (0..<256).map { (byte: Int) -> UInt8 in
    let isControl = byte < 0x20 && byte != 0x09 && byte != 0x0A
    return "&<>\"'".utf8.contains(UInt8(byte)) || isControl || byte == 0x7F || byte == 0xC2 ? 1 : 0
  }

  /// The CSS selector of an element by its id, as CSS.escape() writes it: letters, digits, `-`, `_` and
  /// non-ASCII characters as they are, any other character (and a digit that starts the id) as a hex escape.
  /// An id a caller gives ("comment.42", "a b") selects its own element, and nothing in it ends the
  /// `<style>` element.
  static func selector(forID id: String) -> String {
    var result = "#"
    for (index, scalar) in id.unicodeScalars.enumerated() {
      let value = scalar.value
      let isDigit = (0x30...0x39).contains(value)
      let isPlain =
        (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x2D || value == 0x5F
        || value >= 0x80 || isDigit
      if isPlain && !(index == 0 && isDigit) && !(index == 1 && isDigit && id.hasPrefix("-")) {
        result.unicodeScalars.append(scalar)
      } else {
        result += "\\" + String(value, radix: 16) + " "
      }
    }
    return result
  }

  /// `unfold-` and eight hex digits of a hash (``hash(_:)``) of the text and of what else makes the fragment:
  /// the width, `rendering` (the state and the truncation), the options and the fonts. Stable across runs and
  /// machines; the text is hashed alone (a long one is not copied) and its hash mixed with the rest's.
  func stableID(for text: StyledText, width: Int, rendering: String) -> String {
    var options = self.options
    options.id = nil
    let faces = [fonts.regular.path, fonts.bold.path, fonts.italic.path, fonts.boldItalic.path, fonts.monospace.path]
    let rest =
      "\(width)|\(rendering)|\(options)|\(faces.joined(separator: "|"))|\(fonts.size)|\(fonts.lineHeight)|"
      + "\(fonts.kerningAndLigatures)|\(fonts.fallbacks.count)|\(text.runs.count)"
    let hash = Self.hash(text.string) &* 0x0100_0193 ^ Self.hash(rest)
    var output = UTF8Output(capacity: 15)
    output.write("unfold-")
    output.write(hex: hash)
    return output.string()
  }

  static func hexHash(_ text: String) -> String {
    var output = UTF8Output(capacity: 8)
    output.write(hex: hash(text))
    return output.string()
  }

  /// The 32-bit FNV-1a hash of the text's UTF-8 bytes, which ``hexHash(_:)`` writes; for a text longer than 4 KiB,
  /// the 64-bit FNV-1a hash of its bytes eight at a time (as little-endian words, the last few one by one), each
  /// step's high bits shifted down onto its low ones, mixed at the end as MurmurHash3's last step mixes and folded
  /// to 32 bits. Every step is a bijection of the state, so texts that differ in one word differ before the fold.
  ///
  /// A word at a time takes an eighth of the steps of a byte at a time, where each step waits for the
  /// multiplication before it (Docs/PerformanceNotes.md, "HTML output").
  static func hash(_ text: String) -> UInt32 {
    // Over the bytes in a buffer, not through the UTF-8 view.
    text.withUTF8Buffer { bytes in
      guard bytes.count > 4_096, let base = bytes.baseAddress else {
        return bytes.reduce(UInt32(0x811C_9DC5)) { hash, byte in (hash ^ UInt32(byte)) &* 0x0100_0193 }
      }
      let prime: UInt64 = 0x0000_0100_0000_01B3
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325
      var offset = 0
      while offset + 8 <= bytes.count {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
        hash = (hash ^ word) &* prime
        hash ^= hash >> 29  // a product's high bits, down (a change in a word's last byte stayed in 8 bits)
        offset += 8
      }
      for byte in bytes[offset...] { hash = (hash ^ UInt64(byte)) &* prime }
      hash ^= hash >> 33
      hash &*= 0xFF51_AFD7_ED55_8CCD
      hash ^= hash >> 33
      hash &*= 0xC4CE_B9FE_1A85_EC53
      hash ^= hash >> 33
      return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
    }
  }

  /// A CSS length in px, with up to four decimals.
  static func px(_ value: Double) -> String {
    // Ten-thousandths rounded as `%.4f` rounds them (to nearest, ties to even), from integers, since the
    // formatter is slow. A value near a tie whose product with 10,000 is rounded (so the tie may be the
    // product's, not the value's), or one out of range, goes through the formatter.
    let scaled = value * 10_000
    let rounded = scaled.rounded(.toNearestOrEven)
    let isExact = (-scaled).addingProduct(value, 10_000) == 0
    if value >= 0, scaled < 1e15, isExact || abs(abs(scaled - rounded) - 0.5) > 1e-6 {
      let tenThousandths = Int(rounded)
      var text = String(tenThousandths / 10_000)
      var fraction = tenThousandths % 10_000
      if fraction > 0 {
        var digits = 4
        while fraction % 10 == 0 {
          fraction /= 10
          digits -= 1
        }
        let written = String(fraction)
        text += "." + String(repeating: "0", count: digits - written.count) + written
      }
      return text + "px"
    }
    var text = String(format: "%.4f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "px"
  }

  /// Where the page finds a face: its file under the URL prefix, or, embedded, the face subset to `characters`
  /// (the whole file when HarfBuzz cannot subset it).
  private func fontURL(_ face: borrowing FontFace, characters: Set<Unicode.Scalar>) -> String {
    switch options.standalone ? .embedded : options.fontSource {
    case .embedded:
      let data = face.harfBuzz?.subset(keeping: characters) ?? face.data
      return "data:font/ttf;base64," + data.base64EncodedString()
    case .url(let prefix): return prefix + face.fileName
    }
  }

  /// The characters an embedded face must keep: those of the text and the labels, the pictures drawn for control
  /// characters, the space (tabs advance by it) and the hyphens a soft hyphen may show.
  private static func charactersDrawn(_ text: StyledText, labels: [String]) -> Set<Unicode.Scalar> {
    var characters: Set<Unicode.Scalar> = [" ", "-", "\u{2010}"]
    for scalar in text.string.unicodeScalars { characters.insert(VisibleControls.visible(scalar)) }
    for label in labels {
      for scalar in label.unicodeScalars { characters.insert(VisibleControls.visible(scalar)) }
    }
    return characters
  }

  /// The pinned CSS: the fonts the engine measured, and every property that changes line breaking. The fallback
  /// families that draw some cluster of `text` or of `labels` follow the set's own in `font-family`, each face
  /// declared with its own weight and style.
  private func writeCSS(id: String, width: Int, text: StyledText, labels: [String], to css: inout UTF8Output) {
    // The faces are read in place, not copied into an array.
    let embeds = options.standalone || options.fontSource == .embedded
    let characters = embeds ? Self.charactersDrawn(text, labels: labels) : []
    // Embedded faces are subsets: families of other subsets on the same page must not take their place (of
    // two faces of one family, weight and style, the last declared is used).
    let subset =
      embeds ? "-" + Self.hexHash(String(String.UnicodeScalarView(characters.sorted { $0.value < $1.value }))) : ""
    let family =
      "Unfold-"
      + Self.hexHash(
        fonts.regular.path + "|" + fonts.bold.path + "|" + fonts.italic.path + "|" + fonts.boldItalic.path)
      + subset
    let mono = family + "-Mono"
    func writeFace(_ face: borrowing FontFace, family: String, weight: String, style: StaticString) {
      css.write("@font-face{font-family:\"")
      css.write(family)
      css.write("\";src:url(\"")
      css.write(Self.escapeCSSString(fontURL(face, characters: characters)))
      css.write("\");font-weight:")
      css.write(weight)
      css.write(";font-style:")
      css.write(style)
      css.write(";font-display:block}")
    }
    writeFace(fonts.regular, family: family, weight: "400", style: "normal")
    writeFace(fonts.bold, family: family, weight: "700", style: "normal")
    writeFace(fonts.italic, family: family, weight: "400", style: "italic")
    writeFace(fonts.boldItalic, family: family, weight: "700", style: "italic")
    writeFace(fonts.monospace, family: mono, weight: "400", style: "normal")
    var fallbackList = ""
    for index in fallbacksDrawing(text, labels: labels) {
      let fallback = fonts.fallbacks[index]
      let name =
        "Unfold-" + Self.hexHash(fallback.faces.map { "\($0.path)#\($0.index)" }.joined(separator: "|")) + subset
      for face in fallback.faces {
        writeFace(
          face, family: name, weight: String(min(1000, max(1, face.weight))), style: face.isItalic ? "italic" : "normal"
        )
      }
      fallbackList += ",\"" + name + "\""
    }
    let root = Self.selector(forID: id)
    let size = Self.px(fonts.size)
    let widthPixels = Self.px(Double(width) / Double(FontMeasurer.unitsPerPixel))
    let lineHeight = Self.px(fonts.lineHeight)
    for (piece, slot) in Self.cssTemplate {
      css.write(piece)
      switch slot {
      case .root: css.write(root)
      case .width: css.write(widthPixels)
      case .family:
        css.write("\"")
        css.write(family)
        css.write("\"")
        css.write(fallbackList)
      case .mono:
        css.write("\"")
        css.write(mono)
        css.write("\"")
        css.write(fallbackList)
      case .size: css.write(size)
      case .lineHeight: css.write(lineHeight)
      case .kerning: css.write(fonts.kerningAndLigatures ? "auto" : "none")
      case .ligatures: css.write(fonts.kerningAndLigatures ? "normal" : "none")
      case nil: break
      }
    }
  }

  /// What the CSS template leaves to each paragraph.
  private enum CSSSlot: String, CaseIterable {
    case root, width, family, mono, size, lineHeight = "line", kerning, ligatures
  }

  /// The rules after the font faces: the template's pieces as bytes, each followed by its slot (the container's
  /// `#id`, the width, the font families, the font size and line height, kerning and ligatures), cut once rather
  /// than interpolated at every render.
  private static let cssTemplate: [(piece: [UInt8], slot: CSSSlot?)] = {
    let template = """
      $root{display:block;width:$width;max-width:none;margin:0;padding:0;border:0;box-sizing:content-box;\
      font-family:$family;font-size:$size;line-height:$line;font-weight:400;\
      font-style:normal;font-stretch:normal;font-synthesis:none;font-kerning:$kerning;font-variant:normal;\
      font-variant-ligatures:$ligatures;font-feature-settings:normal;font-variation-settings:normal;\
      font-optical-sizing:none;font-size-adjust:none;text-rendering:geometricPrecision;letter-spacing:0;\
      word-spacing:0;text-transform:none;text-indent:0;text-align:start;text-wrap:wrap;white-space:pre-wrap;\
      overflow-wrap:anywhere;word-break:normal;line-break:auto;hyphens:manual;tab-size:8;\
      text-spacing-trim:space-all;text-autospace:no-autospace;\
      -webkit-text-size-adjust:none;text-size-adjust:none;position:relative}\
      $root p{margin:0;padding:0}\
      $root strong{font-weight:700}$root em{font-style:italic}\
      $root code{font-family:$mono;font-size:$size;font-weight:400;font-style:normal;padding:0;margin:0;\
      border:0;letter-spacing:0;background:none}\
      $root a,$root del{padding:0;margin:0;border:0}$root a{color:LinkText}\
      $root .unfold-toggle{font:inherit;font-weight:400;font-style:normal;font-kerning:inherit;\
      font-variant-ligatures:inherit;text-rendering:inherit;letter-spacing:inherit;word-spacing:inherit;\
      text-transform:none;color:LinkText;background:none;border:0;border-radius:4px;padding:4px 8px;\
      margin:-4px -8px;cursor:pointer;position:relative;vertical-align:baseline;text-decoration:underline}\
      $root .unfold-toggle:focus-visible{outline:2px solid Highlight;outline-offset:0}\
      $root .unfold-fade{-webkit-mask-image:linear-gradient(to right,#000 calc(100% - 2.5em),rgba(0,0,0,.3));\
      mask-image:linear-gradient(to right,#000 calc(100% - 2.5em),rgba(0,0,0,.3))}\
      $root[dir=rtl] .unfold-fade{-webkit-mask-image:linear-gradient(to left,#000 calc(100% - 2.5em),\
      rgba(0,0,0,.3));mask-image:linear-gradient(to left,#000 calc(100% - 2.5em),rgba(0,0,0,.3))}\
      $root .unfold-collapsed{position:relative}\
      $root .unfold-overlay{position:absolute;bottom:0;inset-inline-end:0;margin:0;padding:0 0 0 2em;\
      background:linear-gradient(to right,transparent,Canvas 1.5em)}\
      $root[dir=rtl] .unfold-overlay{padding:0 2em 0 0;background:linear-gradient(to left,transparent,Canvas 1.5em)}\
      $root .unfold-collapsed,$root .unfold-toggle{display:none}\
      $root.unfold-on .unfold-toggle{display:inline-block}\
      $root.unfold-on[data-state=collapsed] .unfold-collapsed{display:block}\
      $root.unfold-on[data-state=collapsed] .unfold-full{display:none}
      """
    // Cut by bytes, not by characters.
    let bytes = Array(template.utf8)
    let names = CSSSlot.allCases.map { ($0, Array($0.rawValue.utf8)) }
    var pieces: [(piece: [UInt8], slot: CSSSlot?)] = []
    var start = 0
    while let dollar = bytes[start...].firstIndex(of: UInt8(ascii: "$")) {
      let after = bytes[(dollar + 1)...]
      guard let (slot, name) = names.first(where: { after.starts(with: $0.1) }) else {
        preconditionFailure("an unknown slot in the CSS template")
      }
      pieces.append((Array(bytes[start..<dollar]), slot))
      start = dollar + 1 + name.count
    }
    pieces.append((Array(bytes[start...]), nil))
    return pieces
  }()

  /// The indexes of the fallback families that draw some cluster of `text` or of `labels` (drawn in the regular
  /// style), chosen as the measurer chooses them: the page lists these alone, in the chain's order, so that the
  /// browser picks the same family for every cluster and loads no font that draws nothing.
  private func fallbacksDrawing(_ text: StyledText, labels: [String]) -> [Int] {
    guard !fonts.fallbacks.isEmpty else { return [] }
    var drawn = Set<Int>()
    func visit(_ string: Substring, traits: Style.Traits) {
      // Printable ASCII that the style's face draws needs no fallback: most runs of most texts.
      if string.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), fonts.drawsPrintableASCII(traits: traits) { return }
      for cluster in string {
        if let index = fonts.fallback(drawing: cluster.unicodeScalars, traits: traits) { drawn.insert(index) }
      }
    }
    let utf8 = text.string.utf8
    for (range, style) in text.runRanges {
      let run =
        utf8.index(
          utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
          utf8.startIndex, offsetBy: range.upperBound)
      visit(text.string[run], traits: style.traits)
    }
    for label in labels { visit(label[...], traits: []) }
    return drawn.sorted()
  }

  /// A string for a CSS `url("…")`: quotes, backslashes and line ends escaped.
  private static func escapeCSSString(_ text: String) -> String {
    // Most URLs hold none of these: returned as they are.
    let needsEscape = text.utf8.contains { byte in
      switch byte {
      case 0x22, 0x5C, 0x0A, 0x0D, 0x3C, 0x3E: return true
      default: return false
      }
    }
    guard needsEscape else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"", "\\": result += "\\" + String(scalar)
      case "\n", "\r", "<", ">": result += "\\" + String(scalar.value, radix: 16) + " "
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Wires the toggles: switches to the collapsed view, flips `data-state` and `aria-expanded`, moves focus,
  /// animates the height unless the reader asks for reduced motion.
  static let script = """
    (function(r){var d=+r.dataset.duration||0,e=r.dataset.easing||'ease';r.classList.add('unfold-on');\
    r.querySelectorAll('.unfold-toggle').forEach(function(b){b.addEventListener('click',function(){\
    var x=r.dataset.state==='collapsed',h=r.offsetHeight;r.dataset.state=x?'expanded':'collapsed';\
    r.querySelectorAll('.unfold-toggle').forEach(function(t){t.setAttribute('aria-expanded',String(x))});\
    (r.querySelector(x?'.unfold-less':'.unfold-more')||r.querySelector('.unfold-full')).focus();\
    var m=window.matchMedia&&matchMedia('(prefers-reduced-motion: reduce)').matches;\
    if(d&&!m&&r.animate){r.animate([{height:h+'px',overflow:'hidden'},{height:r.offsetHeight+'px',\
    overflow:'hidden'}],{duration:d,easing:e})}})})})(document.currentScript.parentElement)
    """
}
