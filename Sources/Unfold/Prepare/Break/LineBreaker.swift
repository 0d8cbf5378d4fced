/// A place between two grapheme clusters where a line may, or must, end.
package struct BreakOpportunity: Hashable, Sendable {
  /// Whether the line may or must end there.
  package enum Kind: Hashable, Sendable {
    /// A line may end here (after spaces, for example).
    case allowed
    /// A line must end here (after a newline or another hard line break).
    case mandatory
  }

  /// The UTF-8 offset of the first cluster after the break.
  package var offset: Int
  /// Allowed or mandatory.
  package var kind: Kind

  /// Creates an opportunity.
  package init(offset: Int, kind: Kind) {
    self.offset = offset
    self.kind = kind
  }
}

/// Finds the break opportunities of a text: UAX #14 for Unicode 17.0, optionally with Chromium's tailoring,
/// never inside a grapheme cluster.
///
/// - `unicode`: the plain algorithm (`UAX14`), what the terminal uses.
/// - `chromium`: Blink's tailoring, what the HTML renderer uses so that a browser breaks where the engine
///   does: a run of spaces always allows a break after it (whatever follows); between two printable ASCII
///   characters Blink's own table decides (a break after `-` and `?` before letters, digits and most
///   symbols, a break before `(`, `<`, `[`, `{` after closing punctuation, none after `/`), and `-` before a
///   digit breaks only after a letter or a digit (so `x -1` stays whole); a conditional Japanese starter
///   (small kana, `ー`) is an ideograph, so a line may break before it (CSS `line-break: normal`); everything
///   else is UAX #14.
///
/// Hard line breaks are LF, CR LF, CR, NEL, VT, FF, LS and PS. A soft hyphen (U+00AD) allows a break after
/// it. No opportunity is reported at the very start or the very end of the text.
///
/// The text is read lazily, in windows of short paragraphs (ending after the first hard line break past 256 code
/// points), and a long paragraph in windows of up to about 4,096 code points cut where the algorithm's context
/// cannot cross: the cost of the first opportunities does not grow with the length of the text.
public struct LineBreaker: Hashable, Sendable {
  /// A set of rules.
  public enum Rules: String, Hashable, Sendable, CaseIterable {
    /// UAX #14 as published.
    case unicode
    /// UAX #14 with Blink's tailoring.
    case chromium
    /// UAX #14 with Gecko's tailoring.
    case gecko
    /// UAX #14 with WebKit's tailoring.
    case webkit
    /// WebKit's tailoring on a page in Japanese (`lang="ja"`): a line may break before small kana and `ー`.
    case webkitJapanese = "webkit-ja"
    /// A break only where Blink, Gecko and WebKit all allow one.
    case anyEngine = "any"

    /// The rules a browser engine breaks lines by, on a page in `language` (a BCP 47 tag; only WebKit's rules
    /// depend on it, and only for Japanese).
    public init(_ engine: BrowserEngine, language: String? = nil) {
      switch engine {
      case .blink: self = .chromium
      case .gecko: self = .gecko
      case .webkit:
        let primary = language?.split(whereSeparator: { $0 == "-" || $0 == "_" }).first?.lowercased()
        self = primary == "ja" ? .webkitJapanese : .webkit
      case .any: self = .anyEngine
      }
    }
  }

  /// The rules in use.
  public var rules: Rules

  /// Creates a breaker.
  public init(rules: Rules = .unicode) { self.rules = rules }

  /// The plain UAX #14 rules.
  public static let unicode = LineBreaker(rules: .unicode)
  /// Chromium's tailoring of UAX #14.
  package static let chromium = LineBreaker(rules: .chromium)

  /// The opportunities of `text` at or after the UTF-8 offset `start`, which must be the start of a line
  /// (the start of the text, or just after a hard line break) or an offset where a previous walk stopped
  /// reporting, in order.
  package func opportunities(in text: String, from start: Int = 0) -> Opportunities {
    Opportunities(text: text, start: start, rules: rules)
  }

  /// All opportunities of a text, in order.
  package func allOpportunities(in text: String) -> [BreakOpportunity] {
    Array(IteratorSequence(opportunities(in: text)))
  }

  /// The opportunities of a text, found lazily, a window at a time (`BreakScanner`).
  package struct Opportunities: IteratorProtocol, Sendable {
    private var scanner: BreakScanner
    /// The next cluster of the scanner's window to look at.
    private var cluster = 0

    init(text: String, start: Int, rules: Rules) {
      scanner = BreakScanner(text, from: start, rules: rules)
    }

    /// The next opportunity, or `nil` at the end of the text.
    package mutating func next() -> BreakOpportunity? {
      while true {
        while cluster < scanner.clusterCount {
          defer { cluster += 1 }
          switch scanner.kind(at: cluster) {
          case .none: continue
          case .allowed: return BreakOpportunity(offset: scanner.clusters[cluster].offset, kind: .allowed)
          case .mandatory: return BreakOpportunity(offset: scanner.clusters[cluster].offset, kind: .mandatory)
          }
        }
        guard scanner.scanWindow() else { return nil }
        cluster = 0
      }
    }
  }
}

extension Character {
  /// Whether the character ends a line by itself: LF, CR LF, CR, NEL, VT, FF, LS or PS.
  ///
  /// Compared as UTF-8 bytes: `Character ==` compares canonical equivalents through normalization, which is
  /// slow.
  var isHardLineBreak: Bool {
    var bytes = utf8.makeIterator()
    guard let first = bytes.next() else { return false }
    let second = bytes.next()
    switch first {
    case 0x0A, 0x0B, 0x0C: return second == nil
    case 0x0D: return second == nil || (second == 0x0A && bytes.next() == nil)
    case 0xC2: return second == 0x85 && bytes.next() == nil
    case 0xE2:
      let third = bytes.next()
      return second == 0x80 && (third == 0xA8 || third == 0xA9) && bytes.next() == nil
    default: return false
    }
  }

  /// The character's scalar when it has exactly one, for comparisons without normalization.
  var singleScalar: Unicode.Scalar? {
    var scalars = unicodeScalars.makeIterator()
    guard let first = scalars.next(), scalars.next() == nil else { return nil }
    return first
  }

  /// Whether the character is a tab, compared as a byte.
  var isTab: Bool { utf8.count == 1 && utf8.first == 0x09 }
}
