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
  /// 4 KiB, a hash of its bytes eight at a time), the same on every run and machine.
  ///
  /// So one text at two widths or in two states on one page has two ids; the same rendering twice on one page (the same
  /// bytes) needs an `id` for each copy.
  public var id: String?
  /// Where the fonts come from; `url(prefix: "")` by default.
  public var fontSource: FontSource
  /// A whole page (`<!DOCTYPE html>`, fonts embedded) instead of a fragment.
  public var standalone: Bool
  /// The duration of the height animation when the text expands or collapses, in seconds (0: none).
  ///
  /// It is always off for readers who ask for reduced motion.
  public var animationDuration: Double
  /// The CSS easing of that animation; by default Material's standard easing, `cubic-bezier(0.4, 0, 0.2, 1)`: a quick
  /// start that settles gently.
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
