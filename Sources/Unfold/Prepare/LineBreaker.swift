/// A place between two grapheme clusters where a line may, or must, end.
public struct BreakOpportunity: Hashable, Sendable {
  /// Whether the line may or must end there.
  public enum Kind: Hashable, Sendable {
    /// A line may end here (after spaces, for example).
    case allowed
    /// A line must end here (after a newline).
    case mandatory
  }

  /// The UTF-8 offset of the first cluster after the break.
  public var offset: Int
  /// Allowed or mandatory.
  public var kind: Kind

  /// Creates an opportunity.
  public init(offset: Int, kind: Kind) {
    self.offset = offset
    self.kind = kind
  }
}

/// Finds the break opportunities of a text.
///
/// The `simple` rules of this first version: a line may end after a run of spaces or tabs, and must end after
/// a newline; nowhere else (a word wider than the line is broken at grapheme boundaries by the layout, as an
/// emergency). No opportunity is reported at the very start or the very end of the text.
public struct LineBreaker: Hashable, Sendable {
  /// A set of rules.
  public enum Rules: String, Hashable, Sendable, CaseIterable {
    /// Break after spaces and tabs, and at newlines.
    case simple
  }

  /// The rules in use.
  public var rules: Rules

  /// Creates a breaker.
  public init(rules: Rules = .simple) { self.rules = rules }

  /// The simple rules.
  public static let simple = LineBreaker(rules: .simple)

  /// The opportunities of `text` at or after the UTF-8 offset `start`, which must be a cluster boundary,
  /// in order.
  public func opportunities(in text: String, from start: Int = 0) -> Opportunities {
    Opportunities(text: text, start: start)
  }

  /// All opportunities of a text, in order.
  public func allOpportunities(in text: String) -> [BreakOpportunity] {
    Array(IteratorSequence(opportunities(in: text)))
  }

  /// The opportunities of a text, found lazily.
  public struct Opportunities: IteratorProtocol, Sendable {
    private let text: String
    private var index: String.Index
    private var offset: Int

    init(text: String, start: Int) {
      self.text = text
      self.offset = start
      self.index = text.utf8.index(text.utf8.startIndex, offsetBy: start)
    }

    /// The next opportunity, or `nil` at the end of the text.
    public mutating func next() -> BreakOpportunity? {
      var afterSpace = false
      while index < text.endIndex {
        let cluster = text[index]
        let length = cluster.utf8.count
        if afterSpace && !isSpace(cluster) && cluster != "\n" {
          return BreakOpportunity(offset: offset, kind: .allowed)
        }
        index = text.index(after: index)
        offset += length
        if cluster == "\n" {
          afterSpace = false
          if index < text.endIndex { return BreakOpportunity(offset: offset, kind: .mandatory) }
        } else {
          afterSpace = isSpace(cluster)
        }
      }
      return nil
    }

    private func isSpace(_ cluster: Character) -> Bool { cluster == " " || cluster == "\t" }
  }
}
