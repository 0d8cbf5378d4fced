/// Where a truncated text is cut.
public enum TruncationMode: String, Hashable, Sendable, CaseIterable {
  /// The end goes: the first lines show, the last visible one ends with the ellipsis.
  case tail
  /// The start goes: the last lines show, the first visible one starts with the ellipsis.
  case head
  /// The middle goes: the first lines show, and the last visible one keeps its start and the text's end
  /// around the ellipsis.
  case middle
}

/// Where the toggle that expands a truncated text is drawn.
public enum TogglePlacement: String, Hashable, Sendable, CaseIterable {
  /// Right after the ellipsis, on the same line, the text cut back so that both fit (react-truncate,
  /// Instagram).
  case inline
  /// On a line of its own under the text, whose last line fades (ReadMoreText).
  case below
  /// Over the trailing end of the last line, the text under it fading, no ellipsis (ExpandableText).
  case overlay
  /// None: the caller reads ``TruncatedText/isTruncated`` and draws its own.
  case none
}

/// How a paragraph is truncated and which labels toggle it.
public struct TruncationOptions: Hashable, Sendable {
  /// The number of lines shown when collapsed; below 1 acts as 1.
  public var lineLimit: Int
  /// The label that expands the text.
  public var moreLabel: String
  /// The label that collapses it again; `nil` for none, as in ExpandableText.
  public var lessLabel: String?
  /// The mark at the cut.
  public var ellipsis: String
  /// Where the text is cut.
  public var mode: TruncationMode
  /// Where the toggle goes.
  public var toggle: TogglePlacement
  /// While collapsed, show a run of blank lines as one.
  public var collapsesBlankLines: Bool
  /// Always show `lineLimit` lines, padding a shorter text with empty lines (`lineLimit(_:reservesSpace:)`).
  public var reservesSpace: Bool

  /// Creates options; the defaults are ExpandableText's text with an inline toggle: 3 lines, `more`, no less
  /// label, `…`, cut at the end.
  public init(
    lineLimit: Int = 3, moreLabel: String = "more", lessLabel: String? = nil, ellipsis: String = "…",
    mode: TruncationMode = .tail, toggle: TogglePlacement = .inline, collapsesBlankLines: Bool = false,
    reservesSpace: Bool = false
  ) {
    self.lineLimit = lineLimit
    self.moreLabel = moreLabel
    self.lessLabel = lessLabel
    self.ellipsis = ellipsis
    self.mode = mode
    self.toggle = toggle
    self.collapsesBlankLines = collapsesBlankLines
    self.reservesSpace = reservesSpace
  }

  /// The defaults.
  public static let `default` = TruncationOptions()

  /// ExpandableText's defaults (ivan-magda/swiftui-expandable-text): 3 lines, `more`, no less label, the toggle
  /// over the end of the last line.
  public static let expandableText = TruncationOptions(lineLimit: 3, moreLabel: "more", toggle: .overlay)

  /// ReadMoreText's defaults (SwiftUI Blocks): 3 lines, `Read more` and `Show less` on a line of their own.
  public static let readMoreText = TruncationOptions(
    lineLimit: 3, moreLabel: "Read more", lessLabel: "Show less", toggle: .below)

  /// A component whose defaults the options can start from, by the name the command and the fixtures give it.
  package enum Preset: String, CaseIterable, Sendable {
    /// ``TruncationOptions/expandableText``.
    case expandableText = "expandable-text"
    /// ``TruncationOptions/readMoreText``.
    case readMoreText = "read-more-text"

    /// The component's defaults.
    package var options: TruncationOptions {
      switch self {
      case .expandableText: .expandableText
      case .readMoreText: .readMoreText
      }
    }
  }

  /// The line limit, at least 1.
  package var effectiveLineLimit: Int { max(1, lineLimit) }

  /// Whether the cut line draws the ellipsis: always for head and middle; for tail unless a fade below or
  /// under the toggle marks the cut.
  var drawsEllipsis: Bool { mode != .tail || toggle == .inline || toggle == .none }

  /// The blank lines that follow `count` lines to fill the reserved space (0 unless ``reservesSpace``).
  func reservedBlankLines(after count: Int) -> Int {
    reservesSpace ? max(0, effectiveLineLimit - count) : 0
  }
}

extension TruncationOptions {
  /// The labels drawn besides the text: the more and less labels and the ellipsis.
  var labels: [String] { [moreLabel, lessLabel ?? "", ellipsis] }
}
