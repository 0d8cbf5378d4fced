import Foundation

/// The attribute that carries Unfold's traits in an `AttributedString`: Foundation on Linux has no inline
/// presentation intents, so bold, italic, strikethrough and code travel in an attribute of their own.
public enum UnfoldTraitsAttribute: CodableAttributedStringKey {
  /// The traits.
  public typealias Value = Style.Traits
  /// `unfold.traits`.
  public static let name = "unfold.traits"
}

extension Style.Traits: Codable {
  /// Decodes the raw bits.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(UInt8.self))
  }

  /// Encodes the raw bits.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

extension AttributeScopes {
  /// Unfold's attributes, with Foundation's (whose `link` carries links).
  public struct UnfoldAttributes: AttributeScope {
    /// Bold, italic, strikethrough, code.
    public let traits: UnfoldTraitsAttribute
    /// Foundation's attributes.
    public let foundation: FoundationAttributes
  }

  /// Unfold's attributes.
  public var unfold: UnfoldAttributes.Type { UnfoldAttributes.self }
}

extension AttributeDynamicLookup {
  /// `attributedString.traits`.
  public subscript<T: AttributedStringKey>(
    dynamicMember keyPath: KeyPath<AttributeScopes.UnfoldAttributes, T>
  ) -> T {
    self[T.self]
  }
}

extension StyledText {
  /// The text as an `AttributedString`: links in Foundation's `link` attribute (when the destination is a
  /// valid URL), the traits in ``UnfoldTraitsAttribute``.
  public var attributedString: AttributedString {
    var result = AttributedString()
    for (range, style) in runRanges {
      var piece = AttributedString(String(text(in: range)))
      if !style.traits.isEmpty { piece[UnfoldTraitsAttribute.self] = style.traits }
      if let link = style.link, let url = URL(string: link) { piece.link = url }
      result += piece
    }
    return result
  }

  /// A styled text from an `AttributedString`: its `link` attribute and ``UnfoldTraitsAttribute``; other
  /// attributes are dropped.
  public init(_ attributed: AttributedString) {
    var builder = Builder()
    for run in attributed.runs {
      let style = Style(run[UnfoldTraitsAttribute.self] ?? [], link: run.link?.absoluteString)
      builder.append(String(attributed[run.range].characters), style: style)
    }
    self = builder.build()
  }
}
