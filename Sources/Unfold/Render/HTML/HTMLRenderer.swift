import Foundation

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
/// destinations that `LinkPolicy` allows. Raw HTML from the input is shown as text.
package struct HTMLRenderer: Sendable {
  /// The fonts the engine measured with.
  package var fonts: FontSet
  /// How to write the fragment.
  package var options: HTMLOptions

  /// Creates a renderer.
  package init(fonts: FontSet, options: HTMLOptions = HTMLOptions()) {
    self.fonts = fonts
    self.options = options
  }

  /// The HTML for `text`, whose collapsed form is `collapsed`, shown first in `state`, in a container `width` CSS px
  /// wide (by default the layout's width, in its unit).
  package func render(
    _ text: StyledText, collapsed: TruncatedText, truncation: TruncationOptions, state: DisplayState,
    width: Double? = nil
  ) -> String {
    let pixels = width ?? Double(collapsed.width) / Double(collapsed.unit.unitsPerPixel ?? FontMeasurer.unitsPerPixel)
    if let lines = options.scrollLines {
      return wrapPage(scrolling(text, lines: lines, width: collapsed.width, pixels: pixels))
    }
    let rawID =
      options.id
      ?? stableID(
        for: text, width: collapsed.width,
        rendering: "\(state.rawValue)|\(Self.description(of: .truncation(truncation)))")
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
      id: rawID, width: pixels, text: text,
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
  private func scrolling(_ text: StyledText, lines: Int, width: Int, pixels: Double) -> String {
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
    writeCSS(id: rawID, width: pixels, text: text, labels: [], to: &html)
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
  /// the reverse order.
  ///
  /// `lastLink` is the link the text before ended in: a piece of the same link goes on from it, out of the tab order
  /// (one tab stop per link); it becomes this text's link.
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
}
