/// The look of a stretch of text: a set of traits plus an optional link destination.
///
/// A style has no font and no colour: the renderers decide how each trait is drawn.
public struct Style: Hashable, Sendable {
  /// The typographic traits that markdown can switch on.
  public struct Traits: OptionSet, Hashable, Sendable {
    /// The raw bits of the set.
    public let rawValue: UInt8
    /// Creates a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Strong emphasis (`**bold**`).
    public static let bold = Traits(rawValue: 1 << 0)
    /// Emphasis (`*italic*`).
    public static let italic = Traits(rawValue: 1 << 1)
    /// Strikethrough (`~~struck~~` or `~struck~`).
    public static let strikethrough = Traits(rawValue: 1 << 2)
    /// Inline code (a span between backticks).
    public static let code = Traits(rawValue: 1 << 3)

    /// Every trait with its stable name, in the order dumps and JSON list them.
    package static let named: [(trait: Traits, name: String)] = [
      (.bold, "bold"), (.italic, "italic"), (.strikethrough, "strikethrough"), (.code, "code"),
    ]

    /// The names of the traits in the set, in a stable order.
    package var names: [String] { Self.named.filter { contains($0.trait) }.map(\.name) }
  }

  /// The traits in effect.
  public var traits: Traits
  /// The destination of the innermost enclosing link, exactly as written in the source (after entity and
  /// escape decoding); `nil` outside links.
  ///
  /// Renderers vet it with `LinkPolicy` before drawing a link.
  public var link: String?

  /// Creates a style.
  public init(_ traits: Traits = [], link: String? = nil) {
    self.traits = traits
    self.link = link
  }

  /// The style of unstyled text.
  public static let plain = Style()

  /// Whether the style has neither traits nor a link.
  package var isPlain: Bool { traits.isEmpty && link == nil }
}

extension Style: CustomStringConvertible {
  /// A stable description: the trait names and the link, or `plain`.
  public var description: String {
    var parts = traits.names
    if let link { parts.append("link=\(link.debugDescription)") }
    return parts.isEmpty ? "plain" : parts.joined(separator: " ")
  }
}
