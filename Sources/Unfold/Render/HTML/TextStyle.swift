/// Apple's text styles at the default Dynamic Type size ("Large"), points taken as CSS px: what a paragraph's
/// font size and line height are when it says `.font(.footnote)`, as SwiftUI's does.
public enum TextStyle: String, Hashable, Sendable, CaseIterable {
  /// 34 / 41.
  case largeTitle
  /// 28 / 34.
  case title
  /// 22 / 28.
  case title2
  /// 20 / 25.
  case title3
  /// 17 / 22, semibold (drawn in the bold face).
  case headline
  /// 17 / 22.
  case body
  /// 16 / 21.
  case callout
  /// 15 / 20.
  case subheadline
  /// 13 / 18.
  case footnote
  /// 12 / 16.
  case caption
  /// 11 / 13.
  case caption2

  /// The font size in px.
  public var size: Double {
    switch self {
    case .largeTitle: return 34
    case .title: return 28
    case .title2: return 22
    case .title3: return 20
    case .headline, .body: return 17
    case .callout: return 16
    case .subheadline: return 15
    case .footnote: return 13
    case .caption: return 12
    case .caption2: return 11
    }
  }

  /// The line height in px.
  public var lineHeight: Double {
    switch self {
    case .largeTitle: return 41
    case .title: return 34
    case .title2: return 28
    case .title3: return 25
    case .headline, .body: return 22
    case .callout: return 21
    case .subheadline: return 20
    case .footnote: return 18
    case .caption: return 16
    case .caption2: return 13
    }
  }

  /// Whether the style is semibold (`headline`): the text is drawn in the bold face.
  public var isBold: Bool { self == .headline }
}
