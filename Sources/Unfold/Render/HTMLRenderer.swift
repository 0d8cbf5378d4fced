/// Draws a paragraph as an HTML fragment: the engine's collapsed lines with the ellipsis and a real
/// `<button>`, and the full text for expansion and for screen readers.
///
/// The structure, collapsed:
///
///     <div class="unfold" id="…" dir="ltr" data-state="collapsed">
///       <style>…</style>
///       <p class="unfold-collapsed"><span aria-hidden="true">line<br>line…</span>
///         <button type="button" class="unfold-toggle unfold-more" aria-expanded="false"
///                 aria-controls="…-full">more</button></p>
///       <p class="unfold-full" id="…-full" tabindex="-1">the whole text… <button … unfold-less>less</button></p>
///       <script>…</script>
///     </div>
///
/// - The collapsed lines are hidden from screen readers; the full text is visually hidden while collapsed
///   but read, so a screen reader meets the paragraph once, whole, and then the button with its state.
/// - The button toggles `data-state` and `aria-expanded` with a small inline script; the less button exists
///   only when a less label is set.
/// - A text that fits is just the paragraph, with no button and no script.
/// - `dir` comes from the first strong character.
/// - Geometry: a monospace font and the width in `ch`, one cell per `ch` (pixel-exact fonts come later).
///
/// Every piece of text, label and attribute goes through ``escape(_:)``; links are drawn only for
/// destinations that ``LinkPolicy`` allows.
public struct HTMLRenderer: Sendable {
  /// The `id` of the container; `nil` derives a stable one from the text.
  public var id: String?

  /// Creates a renderer.
  public init(id: String? = nil) { self.id = id }

  /// The HTML fragment for `text`, whose collapsed form is `collapsed`, shown first in `state`.
  public func render(
    _ text: StyledText, collapsed: TruncatedText, options: TruncationOptions, state: DisplayState
  ) -> String {
    let id = Self.escape(self.id ?? Self.stableID(for: text.string))
    let direction = TextDirection(firstStrongIn: text.string)
    let shownState = collapsed.isTruncated ? state : .expanded
    var html = """
      <div class="unfold" id="\(id)" dir="\(direction.rawValue)" data-state="\(shownState.rawValue)">
      <style>\(Self.css(id: id, width: collapsed.width))</style>

      """
    if collapsed.isTruncated {
      html += "<p class=\"unfold-collapsed\"><span aria-hidden=\"true\">"
      for (index, line) in collapsed.lines.enumerated() {
        if index > 0 { html += "<br>" }
        for fragment in line.fragments where !fragment.isToggle {
          html += Self.inline(fragment)
        }
      }
      html += "</span>"
      html += toggle(
        label: options.moreLabel, kind: "more", expanded: false, controls: "\(id)-full")
      html += "</p>\n"
    }
    html += "<p class=\"unfold-full\" id=\"\(id)-full\" tabindex=\"-1\">"
    for (range, style) in text.runRanges {
      html += Self.inline(Fragment(text: String(text.string.utf8Slice(range)), style: style, width: 0))
    }
    if collapsed.isTruncated, let less = options.lessLabel {
      html += " " + toggle(label: less, kind: "less", expanded: true, controls: "\(id)-full")
    }
    html += "</p>\n"
    if collapsed.isTruncated { html += "<script>\(Self.script)</script>\n" }
    html += "</div>\n"
    return html
  }

  private func toggle(label: String, kind: String, expanded: Bool, controls: String) -> String {
    "<button type=\"button\" class=\"unfold-toggle unfold-\(kind)\" aria-expanded=\"\(expanded)\""
      + " aria-controls=\"\(controls)\">\(Self.escape(label))</button>"
  }

  /// One fragment as inline elements, opened and closed in a fixed order so they always balance.
  static func inline(_ fragment: Fragment) -> String {
    let traits = fragment.role == .text ? fragment.style.traits : []
    let link = fragment.role == .text ? fragment.style.link.flatMap(LinkPolicy.safeURL) : nil
    var open = ""
    var close = ""
    let elements: [(Bool, String, String)] = [
      (link != nil, "<a href=\"\(escape(link ?? ""))\">", "</a>"),
      (traits.contains(.bold), "<strong>", "</strong>"),
      (traits.contains(.italic), "<em>", "</em>"),
      (traits.contains(.strikethrough), "<del>", "</del>"),
      (traits.contains(.code), "<code>", "</code>"),
    ]
    for (on, start, end) in elements where on {
      open += start
      close = end + close
    }
    if fragment.role == .ellipsis { return "<span class=\"unfold-ellipsis\">\(escape(fragment.text))</span>" }
    return open + escape(fragment.text) + close
  }

  /// The one escaping function, for text and attribute values alike: `& < > " '` become entities and
  /// control characters become their visible pictures (``VisibleControls``). Tabs and newlines stay.
  public static func escape(_ text: some StringProtocol) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#x27;"
      default: result.unicodeScalars.append(VisibleControls.visible(scalar))
      }
    }
    return result
  }

  /// `unfold-` and eight hex digits of the text's FNV-1a hash: stable across runs and machines.
  static func stableID(for text: String) -> String {
    var hash: UInt32 = 0x811C_9DC5
    for byte in text.utf8 {
      hash ^= UInt32(byte)
      hash = hash &* 0x0100_0193
    }
    let hex = String(hash, radix: 16)
    return "unfold-" + String(repeating: "0", count: 8 - hex.count) + hex
  }

  private static func css(id: String, width: Int) -> String {
    let root = "#\(id)"
    return """
      \(root){font-family:monospace;width:\(width)ch;white-space:pre-wrap;overflow-wrap:anywhere;\
      tab-size:8;line-height:1.5}\
      \(root) p{margin:0}\
      \(root) .unfold-toggle{font:inherit;font-weight:bold;color:LinkText;background:none;border:0;\
      padding:0;cursor:pointer}\
      \(root)[data-state=collapsed] .unfold-full{position:absolute;width:1px;height:1px;overflow:hidden;\
      clip-path:inset(50%);white-space:nowrap}\
      \(root)[data-state=collapsed] .unfold-less,\(root)[data-state=expanded] .unfold-collapsed{display:none}
      """
  }

  private static let script = """
    (function(r){r.querySelectorAll('.unfold-toggle').forEach(function(b){b.addEventListener('click',\
    function(){var x=r.dataset.state==='collapsed';r.dataset.state=x?'expanded':'collapsed';\
    r.querySelectorAll('.unfold-toggle').forEach(function(t){t.setAttribute('aria-expanded',String(x))});\
    var f=r.querySelector(x?'.unfold-less':'.unfold-more')||r.querySelector('.unfold-full');f.focus()})})\
    })(document.currentScript.parentElement)
    """
}
