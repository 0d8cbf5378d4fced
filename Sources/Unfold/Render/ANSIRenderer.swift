/// Draws truncated text for a terminal: SGR styles, OSC 8 hyperlinks, a distinct toggle label; or plain text
/// with no escape at all.
///
/// | what | drawn as |
/// | --- | --- |
/// | bold, italic, strikethrough | SGR 1, 3, 9 |
/// | code | SGR 36 (cyan) |
/// | link (http, https, mailto) | OSC 8 hyperlink around underlined (SGR 4) text |
/// | more and less labels | bold blue (SGR 1;34) |
///
/// Styles are opened per fragment and reset at its end, so none leaks past a line end. Every character of
/// text, label and ellipsis goes through ``visible(_:width:)``: no control character or escape sequence from
/// the input reaches the terminal.
public struct ANSIRenderer: Sendable {
  /// Whether to draw styles, colours and hyperlinks; `false` draws plain text.
  public var colors: Bool

  /// Creates a renderer.
  public init(colors: Bool = true) { self.colors = colors }

  /// The bytes to print: each line followed by a newline.
  public func render(_ text: TruncatedText) -> String {
    var output = ""
    for line in text.lines {
      var openLink: String?
      for fragment in line.fragments {
        let link = colors && fragment.role == .text ? fragment.style.link.flatMap(LinkPolicy.safeURL) : nil
        if link != openLink {
          if openLink != nil { output += Self.closeLink }
          if let link { output += "\u{1B}]8;;\(link)\u{1B}\\" }
          openLink = link
        }
        let codes = colors ? sgr(for: fragment, isLink: link != nil) : []
        if !codes.isEmpty { output += "\u{1B}[\(codes.joined(separator: ";"))m" }
        output += Self.visible(fragment.text, width: fragment.width)
        if !codes.isEmpty { output += "\u{1B}[0m" }
      }
      if openLink != nil { output += Self.closeLink }
      output += "\n"
    }
    return output
  }

  private static let closeLink = "\u{1B}]8;;\u{1B}\\"

  private func sgr(for fragment: Fragment, isLink: Bool) -> [String] {
    if fragment.isToggle { return ["1", "34"] }
    guard fragment.role == .text else { return [] }
    let traits = fragment.style.traits
    var codes: [String] = []
    if traits.contains(.bold) { codes.append("1") }
    if traits.contains(.italic) { codes.append("3") }
    if isLink { codes.append("4") }
    if traits.contains(.strikethrough) { codes.append("9") }
    if traits.contains(.code) { codes.append("36") }
    return codes
  }

  /// The one escaping function: control characters become their visible pictures (``VisibleControls``), a
  /// tab becomes `width` spaces, a newline becomes a space (lines end with the engine's own newline), a soft
  /// hyphen is dropped (terminals would draw it; the engine measures it as nothing).
  public static func visible(_ text: some StringProtocol, width: Int) -> String {
    if text == "\t" { return String(repeating: " ", count: max(0, width)) }
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar == "\n" || scalar == "\t" {
        result += " "
      } else if scalar == "\u{00AD}" {
        continue
      } else {
        result.unicodeScalars.append(VisibleControls.visible(scalar))
      }
    }
    return result
  }
}
