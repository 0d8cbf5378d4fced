/// The key of a localized string, written as a string literal, with the arguments interpolated into it.
///
/// It builds its key exactly as SwiftUI's `LocalizedStringKey` does, so that the same string tables serve
/// both:
///
/// | interpolated value | in the key | argument |
/// | --- | --- | --- |
/// | literal text | the text, every `%` doubled | — |
/// | `String` | `%@` | the string (markdown inside it stays literal) |
/// | ``StyledText`` | `%@` | the styled text (its styles are kept) |
/// | `Int`, `Int64` | `%lld` | the integer |
/// | `Int8`, `Int16`, `Int32` | `%d` | the integer |
/// | `UInt`, `UInt64` | `%llu` | the integer |
/// | `UInt8`, `UInt16`, `UInt32` | `%u` | the integer |
/// | `Float` | `%f` | the number |
/// | `Double` | `%lf` | the number |
/// | a number with `specifier:` | the specifier as given | the number |
///
/// A literal without interpolation is the key as written and is not formatted (`"100%"` shows `100%`), as
/// is a key made from a `String` variable with ``init(_:)``: a variable is never parsed as markdown unless
/// it is converted explicitly.
///
///     let name = StyledText(plain: user.name).bold()
///     TextSource("Hello, \(name)! You have \(count) new messages")
///     // key "Hello, %@! You have %lld new messages", arguments [name (bold), count]
public struct LocalizedKey: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
  /// The key as looked up in string tables.
  public let key: String
  /// The arguments, in the order of the key's specifiers.
  public let arguments: [FormatArgument]
  /// Whether the key goes through the formatter (it had interpolations, or arguments were given).
  package let hasFormatting: Bool

  /// Creates a key from a string variable, explicitly, with no formatting.
  public init(_ key: String) {
    self.key = key
    self.arguments = []
    self.hasFormatting = false
  }

  /// Creates a key with arguments for its specifiers (for example from the command line): formatted.
  public init(_ key: String, arguments: [FormatArgument]) {
    self.key = key
    self.arguments = arguments
    self.hasFormatting = true
  }

  /// Creates a key from a string literal, with no formatting.
  public init(stringLiteral value: String) { self.init(value) }

  /// Creates a key from an interpolated string literal.
  public init(stringInterpolation: StringInterpolation) {
    key = stringInterpolation.key
    arguments = stringInterpolation.arguments
    hasFormatting = true
  }

  /// Builds the key and its arguments from the pieces of an interpolated literal.
  public struct StringInterpolation: StringInterpolationProtocol, Sendable {
    var key = ""
    var arguments: [FormatArgument] = []

    /// Creates an empty interpolation.
    public init(literalCapacity: Int, interpolationCount: Int) {
      key.reserveCapacity(literalCapacity + 4 * interpolationCount)
    }

    /// Appends literal text, with `%` doubled.
    public mutating func appendLiteral(_ literal: String) {
      key += literal.replacingOccurrences(of: "%", with: "%%")
    }

    /// Appends a string as `%@`.
    public mutating func appendInterpolation(_ value: String) { append("%@", .string(value)) }
    /// Appends a substring as `%@`.
    public mutating func appendInterpolation(_ value: Substring) { append("%@", .string(String(value))) }
    /// Appends a styled text as `%@`; it keeps its styles.
    public mutating func appendInterpolation(_ value: StyledText) { append("%@", .styled(value)) }
    /// Appends an integer as `LocalizedStringKey` does: `%lld` for a signed integer of 64 bits (`Int`, `Int64`),
    /// `%d` for a narrower one, `%llu` and `%u` for unsigned ones.
    public mutating func appendInterpolation<Integer: FixedWidthInteger>(_ value: Integer) {
      let long = Integer.bitWidth >= 64 ? "ll" : ""
      if Integer.isSigned {
        append("%\(long)d", .int(Int64(clamping: value)))
      } else {
        append("%\(long)u", .uint(UInt64(clamping: value)))
      }
    }
    /// Appends a floating-point number as `LocalizedStringKey` does: a `Float` (or narrower) as `%f`, a `Double`
    /// as `%lf`.
    public mutating func appendInterpolation<Number: BinaryFloatingPoint>(_ value: Number) {
      append(Number.significandBitCount <= Float.significandBitCount ? "%f" : "%lf", .double(Double(value)))
    }

    /// Appends an integer with a specifier of your own, such as `%05d` or `%x`.
    public mutating func appendInterpolation(_ value: some BinaryInteger, specifier: String) {
      append(specifier, value < 0 ? .int(Int64(clamping: value)) : .uint(UInt64(clamping: value)))
    }

    /// Appends a floating-point number with a specifier of your own, such as `%.2f`.
    public mutating func appendInterpolation(_ value: some BinaryFloatingPoint, specifier: String) {
      append(specifier, .double(Double(value)))
    }

    private mutating func append(_ specifier: String, _ argument: FormatArgument) {
      key += specifier
      arguments.append(argument)
    }
  }
}

extension LocalizedKey: CustomStringConvertible {
  /// The key and its arguments, as SwiftUI prints a `LocalizedStringKey`.
  public var description: String {
    "LocalizedKey(key: \(key.debugDescription), hasFormatting: \(hasFormatting), arguments: \(arguments.map(\.summary)))"
  }
}
