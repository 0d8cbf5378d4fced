/// A non-fatal problem that the engine met and handled, reported with the result instead of printed.
public struct Diagnostic: Hashable, Sendable {
  /// What happened.
  public enum Kind: String, Hashable, Sendable {
    /// A chunk of markdown was shown as literal text instead of being parsed.
    case literalFallback
  }

  /// What happened.
  public var kind: Kind
  /// Where in the input it happened, as a UTF-8 byte offset into the text handed to the stage.
  public var offset: Int
  /// One line for people.
  public var message: String

  /// Creates a diagnostic.
  public init(_ kind: Kind, offset: Int, message: String) {
    self.kind = kind
    self.offset = offset
    self.message = message
  }
}
