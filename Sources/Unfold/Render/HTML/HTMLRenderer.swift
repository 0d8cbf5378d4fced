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
  /// Whether the fragment is for a page that holds ``pageStylesheet()``: its container has the class ``pageClass``
  /// and carries only its own rules.
  package var linksStylesheet: Bool

  /// Creates a renderer.
  package init(fonts: FontSet, options: HTMLOptions = HTMLOptions(), linksStylesheet: Bool = false) {
    self.fonts = fonts
    self.options = options
    self.linksStylesheet = linksStylesheet
  }

  /// The HTML for `text`, whose collapsed form is `collapsed`, shown first in `state`, in a container `width` CSS px
  /// wide (by default the layout's width, in its unit).
  ///
  /// `uniqueID` makes an id derived from the rendering unique on the page (a caller's id is used as it is).
  package func render(
    _ text: StyledText, collapsed: TruncatedText, truncation: TruncationOptions, state: DisplayState,
    width: Double? = nil, uniqueID: (String) -> String = { $0 }
  ) -> String {
    let pixels = width ?? Double(collapsed.width) / Double(collapsed.unit.unitsPerPixel ?? FontMeasurer.unitsPerPixel)
    let rendering = "\(state.rawValue)|\(Self.description(of: .truncation(truncation)))"
    return wrapPage(
      fragment(
        text, views: [(collapsed, nil)], truncation: truncation, state: state, width: .fixed(pixels),
        idKey: (collapsed.width, rendering), uniqueID: uniqueID))
  }

  /// The HTML for `text` in a container as wide as its parent, clamped to `widths`: each of `views`, the distinct
  /// collapsed views over those widths, narrowest first, is shown by a container query at the widths that show it.
  ///
  /// Below the range the narrowest view shows, above it the widest; the whole text reflows in the container.
  /// `uniqueID` is as in ``render(_:collapsed:truncation:state:width:uniqueID:)``.
  package func render(
    _ text: StyledText, views: [WidthLayout], truncation: TruncationOptions, state: DisplayState,
    widths: ClosedRange<Int>, uniqueID: (String) -> String = { $0 }
  ) -> String {
    let rendering = "\(state.rawValue)|\(Self.description(of: .truncation(truncation)))|\(widths.upperBound)"
    return wrapPage(
      fragment(
        text, views: views.map { ($0.view, $0.widths.lowerBound) }, truncation: truncation, state: state,
        width: .range(widths), idKey: (widths.lowerBound, rendering), uniqueID: uniqueID))
  }

  /// How wide the container is.
  enum ContainerWidth {
    /// A fixed width in CSS px.
    case fixed(Double)
    /// The width of the container's parent, clamped to a range of whole CSS px.
    case range(ClosedRange<Int>)
  }

  /// The container: its CSS, the collapsed views (each with the narrowest width in whole px that shows it, for a
  /// range), the whole text and the script; a scrolling region when ``HTMLOptions/scrollLines`` says so.
  ///
  /// `idKey` is what the id hashes besides the text and the options, when the caller gives none; `uniqueID` makes
  /// that id unique on the page.
  private func fragment(
    _ text: StyledText, views: [(view: TruncatedText, from: Int?)], truncation: TruncationOptions,
    state: DisplayState, width: ContainerWidth, idKey: (width: Int, rendering: String),
    uniqueID: (String) -> String
  ) -> String {
    if let lines = options.scrollLines {
      let rawID = options.id ?? uniqueID(stableID(for: text, width: idKey.width, rendering: "scroll"))
      return scrolling(text, lines: lines, width: width, rawID: rawID)
    }
    let rawID = options.id ?? uniqueID(stableID(for: text, width: idKey.width, rendering: idKey.rendering))
    let id = Self.escape(rawID)
    let direction = TextDirection(firstStrongIn: text.string)
    let isTruncated = views.contains { $0.view.isTruncated }
    let toggle = truncation.toggle
    let hasToggle = isTruncated && toggle != .none
    // The text is written twice (collapsed and whole), with the CSS and the script around it.
    var html = UTF8Output(capacity: 2 * text.string.utf8.count + 4_096, sealingEvery: 65_536)
    writeOpening(
      classes: isTruncated && toggle == .none ? "unfold unfold-on" : "unfold", id: id, direction: direction,
      isTruncated: isTruncated, hasToggle: hasToggle, state: state, to: &html)
    // No whitespace between the elements inside the container: it keeps white-space: pre-wrap, so a
    // newline there would be a line.
    html.write("><style>")
    writeCSS(
      id: rawID, width: width, text: text,
      labels: truncation.labels, to: &html)
    if isTruncated, case .range = width { writeViewRules(id: rawID, from: views.compactMap(\.from), to: &html) }
    html.write("</style>")
    html.seal()  // the attributes and the CSS, ASCII but for a language or an easing past it
    if isTruncated {
      if case .range = width {
        html.write("<div class=\"unfold-collapsed\">")
        for (index, view) in views.enumerated() {
          html.write("<p class=\"unfold-v")
          html.write(decimal: index)
          html.write("\">")
          writeLines(of: view.view, id: id, to: &html)
          html.write("</p>")
        }
        html.write("</div>")
      } else if let view = views.first?.view {
        html.write("<p class=\"unfold-collapsed\">")
        writeLines(of: view, id: id, to: &html)
        html.write("</p>")
      }
    }
    html.write("<p class=\"unfold-full\" id=\"")
    html.write(id)
    html.write("-full\" tabindex=\"-1\">")
    Self.writeRuns(of: text, to: &html)
    if hasToggle, let less = truncation.lessLabel {
      html.write(toggle == .below ? "<br>" : " ")
      writeToggle(label: less, kind: "less", expanded: true, id: id, to: &html)
    }
    html.write("</p>")
    if hasToggle { writeScript(to: &html) }
    html.write("</div>\n")
    return html.sealedString()
  }

  /// The container's opening tag, left open after its state: the state shown first (`state` when a toggle switches
  /// it; else collapsed when truncated, without a toggle, and expanded when not) and, with a toggle, the animation.
  ///
  /// The `classes` of a view truncated without a toggle include `unfold-on`: there is nothing to wire, and the
  /// collapsed view is on from the start.
  func writeOpening(
    classes: StaticString, id: String, direction: TextDirection, isTruncated: Bool, hasToggle: Bool,
    state: DisplayState, to html: inout UTF8Output
  ) {
    writeContainer(classes: classes, id: id, direction: direction, to: &html)
    html.write(" data-state=\"")
    html.write((hasToggle ? state : isTruncated ? .collapsed : .expanded).rawValue)
    html.write("\"")
    guard hasToggle else { return }
    html.write(" data-duration=\"")
    html.write(decimal: Int((max(0, options.animationDuration) * 1000).rounded()))
    html.write("\" data-easing=\"")
    Self.writeEscaped(options.animationEasing, to: &html)
    html.write("\"")
  }

  /// The script that wires the toggles, with the options' nonce.
  func writeScript(to html: inout UTF8Output) {
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

  /// A collapsed view's lines, `<br>` between them, the last one fading when the view is a tail cut.
  private func writeLines(of view: TruncatedText, id: String, to html: inout UTF8Output) {
    let fadeLine =
      !view.isTruncated || view.mode == .head
      ? nil : (view.toggle == .below ? view.lines.count - 2 : view.lines.count - 1)
    writeLines(view.lines[...], fadeLine: fadeLine, overlay: view.toggle == .overlay, id: id, to: &html)
  }

  /// Lines of a collapsed view, `<br>` between them, the text of the one at `fadeLine` fading, the toggle placed over
  /// the end of the line when `overlay`; their markers (a document's room for its containers) are the CSS's.
  func writeLines(
    _ lines: ArraySlice<DisplayLine>, fadeLine: Int?, overlay: Bool, id: String, to html: inout UTF8Output
  ) {
    var lastLink: String?
    for (index, line) in zip(lines.indices, lines) {
      if index > lines.startIndex { html.write("<br>") }
      var fading = index == fadeLine
      if fading { html.write("<span class=\"unfold-fade\">") }
      for fragment in line.fragments where !(fragment.role == .marker && fragment.text.isEmpty) {
        if fading && fragment.role != .text && fragment.role != .hyphen {
          html.write("</span>")
          fading = false
        }
        switch fragment.role {
        case .moreLabel:
          writeToggle(
            label: fragment.text, kind: overlay ? "more unfold-overlay" : "more", expanded: false, id: id, to: &html)
          lastLink = nil
        case .gap where overlay && fragment.text.count > 1:
          continue  // the padding before an overlaid toggle: the button is placed, not flowed
        default:
          Self.writeInline(fragment.text, style: fragment.style, role: fragment.role, lastLink: &lastLink, to: &html)
        }
      }
      if fading { html.write("</span>") }
    }
  }

  /// A scrolling region exactly `lines` lines tall, focusable so that a keyboard can scroll it, of the id `rawID`.
  private func scrolling(_ text: StyledText, lines: Int, width: ContainerWidth, rawID: String) -> String {
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
    html.write(";overflow-y:auto}:where(")
    html.write(Self.selector(forID: rawID))
    html.write(
      ":focus-visible){outline:2px solid var(--unfold-focus-color,Highlight)}</style><p class=\"unfold-text\">")
    Self.writeRuns(of: text, to: &html)
    html.write("</p></div>\n")
    return html.string()
  }

  /// The container's opening tag up to its `lang`, left open for the attributes that follow: its classes, its
  /// `id` (escaped already), its direction; with ``linksStylesheet``, the class of the page's stylesheet too.
  private func writeContainer(classes: StaticString, id: String, direction: TextDirection, to html: inout UTF8Output) {
    html.write("<div class=\"")
    html.write(classes)
    if linksStylesheet {
      html.write(" ")
      html.write(pageClass)
    }
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
  func wrapPage(_ html: String) -> String {
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
  func writeToggle(label: String, kind: String, expanded: Bool, id: String, to html: inout UTF8Output) {
    html.write("<button type=\"button\" class=\"unfold-toggle unfold-")
    html.write(kind)
    html.write(expanded ? "\" aria-expanded=\"true\" aria-controls=\"" : "\" aria-expanded=\"false\" aria-controls=\"")
    html.write(id)
    html.write("-full\">")
    Self.writeEscaped(label, to: &html)
    html.write("</button>")
  }

  /// The whole text, run by run, as inline elements.
  static func writeRuns(of text: StyledText, to html: inout UTF8Output) {
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
    let traits = role == .text || role == .hyphen ? style.traits : []
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
