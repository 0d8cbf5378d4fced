/// How a paragraph is truncated and which labels toggle it.
public struct TruncationOptions: Hashable, Sendable {
  /// The number of lines shown when collapsed; below 1 acts as 1.
  public var lineLimit: Int
  /// The label after the ellipsis that expands the text.
  public var moreLabel: String
  /// The label after the expanded text that collapses it again; `nil` for none, as in ExpandableText.
  public var lessLabel: String?
  /// The mark at the cut.
  public var ellipsis: String

  /// Creates options; the defaults are ExpandableText's: 3 lines, `more`, no less label, `…`.
  public init(lineLimit: Int = 3, moreLabel: String = "more", lessLabel: String? = nil, ellipsis: String = "…") {
    self.lineLimit = lineLimit
    self.moreLabel = moreLabel
    self.lessLabel = lessLabel
    self.ellipsis = ellipsis
  }

  /// The defaults.
  public static let `default` = TruncationOptions()

  /// The line limit, at least 1.
  var effectiveLineLimit: Int { max(1, lineLimit) }
}
