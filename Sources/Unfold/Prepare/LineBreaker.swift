/// A place between two grapheme clusters where a line may, or must, end.
public struct BreakOpportunity: Hashable, Sendable {
  /// Whether the line may or must end there.
  public enum Kind: Hashable, Sendable {
    /// A line may end here (after spaces, for example).
    case allowed
    /// A line must end here (after a newline or another hard line break).
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

/// Finds the break opportunities of a text: UAX #14 for Unicode 17.0, optionally with Chromium's tailoring,
/// never inside a grapheme cluster.
///
/// - `unicode`: the plain algorithm (``UAX14``), what the terminal uses.
/// - `chromium`: Blink's tailoring, what the HTML renderer uses so that a browser breaks where the engine
///   does: a run of spaces always allows a break after it (whatever follows); between two printable ASCII
///   characters Blink's own table decides (a break after `-` and `?` before letters, digits and most
///   symbols, a break before `(`, `<`, `[`, `{` after closing punctuation, none after `/`), and `-` before a
///   digit breaks only after a letter or a digit (so `x -1` stays whole); everything else is UAX #14.
///
/// Hard line breaks are LF, CR LF, CR, NEL, VT, FF, LS and PS. A soft hyphen (U+00AD) allows a break after
/// it. No opportunity is reported at the very start or the very end of the text.
///
/// The text is read lazily, a paragraph at a time, and a long paragraph in windows of about 4,096 code
/// points cut where the algorithm's context cannot cross: the cost of the first opportunities does not grow
/// with the length of the text.
public struct LineBreaker: Hashable, Sendable {
  /// A set of rules.
  public enum Rules: String, Hashable, Sendable, CaseIterable {
    /// UAX #14 as published.
    case unicode
    /// UAX #14 with Blink's tailoring.
    case chromium
  }

  /// The rules in use.
  public var rules: Rules

  /// Creates a breaker.
  public init(rules: Rules = .unicode) { self.rules = rules }

  /// The plain UAX #14 rules.
  public static let unicode = LineBreaker(rules: .unicode)
  /// Chromium's tailoring of UAX #14.
  public static let chromium = LineBreaker(rules: .chromium)

  /// The opportunities of `text` at or after the UTF-8 offset `start`, which must be the start of a line
  /// (the start of the text, or just after a hard line break) or an offset where a previous walk stopped
  /// reporting, in order.
  public func opportunities(in text: String, from start: Int = 0) -> Opportunities {
    Opportunities(text: text, start: start, rules: rules)
  }

  /// All opportunities of a text, in order.
  public func allOpportunities(in text: String) -> [BreakOpportunity] {
    Array(IteratorSequence(opportunities(in: text)))
  }

  /// The opportunities of a text, found lazily.
  public struct Opportunities: IteratorProtocol, Sendable {
    private let text: String
    private let rules: Rules
    /// Where the next window's clusters start.
    private var index: String.Index
    private var offset: Int
    /// Scalars before `index` that the next window needs as context (after a safe cut).
    private var context: [Unicode.Scalar] = []
    private var buffer: [BreakOpportunity] = []
    private var bufferPosition = 0

    /// The number of code points after which a long paragraph is cut at the next safe place.
    static let window = 4096

    init(text: String, start: Int, rules: Rules) {
      self.text = text
      self.rules = rules
      self.offset = start
      self.index = text.utf8.index(text.utf8.startIndex, offsetBy: start)
    }

    /// The next opportunity, or `nil` at the end of the text.
    public mutating func next() -> BreakOpportunity? {
      while bufferPosition == buffer.count {
        guard index < text.endIndex else { return nil }
        fill()
      }
      defer { bufferPosition += 1 }
      return buffer[bufferPosition]
    }

    /// Reads the next paragraph, or the next window of a long one, and finds its opportunities.
    ///
    /// One pass over the code points: Swift's own grapheme recognizer (the one `Character` iteration runs,
    /// so clusters are the same) says where clusters start. Walking `Character`s instead cost a quarter of
    /// preparing, much of it finding cluster boundaries again from indices the UTF-8 view had made.
    private mutating func fill() {
      buffer.removeAll(keepingCapacity: true)
      bufferPosition = 0
      var scalars = context
      var clusters: [(scalar: Int, offset: Int)] = []  // where each new cluster starts
      var cursorOffset = offset
      var endsWithHardBreak = false
      var cut: Int?  // index in `clusters` of the first cluster of the next window
      let view = text.unicodeScalars
      var position = index
      var recognizer = Unicode._CharacterRecognizer()
      var inHardBreak = false  // whether the open cluster starts with a hard line break
      while position < view.endIndex {
        let scalar = view[position]
        if recognizer.hasBreak(before: scalar) {
          if inHardBreak {
            endsWithHardBreak = true
            break
          }
          if scalars.count - context.count >= Self.window, clusters.count >= 4,
            Self.isSafeCut(scalars, clusters, at: clusters.count - 3)
          {
            cut = clusters.count - 3  // two clusters of lookahead stay in this window
            break
          }
          clusters.append((scalars.count, cursorOffset))
          inHardBreak = Cluster.startsHardLineBreak(scalar.value)
        }
        scalars.append(scalar)
        cursorOffset += UTF8.width(scalar)
        position = view.index(after: position)
      }
      if position == view.endIndex && inHardBreak { endsWithHardBreak = true }
      var actions = UAX14.breaks(scalars)
      if rules == .chromium { Self.tailorForChromium(scalars, &actions) }
      let emitted = cut.map { clusters[0...$0] } ?? clusters[...]
      for (position, cluster) in emitted.enumerated() where position > 0 || !context.isEmpty {
        if actions[cluster.scalar] != .prohibited {
          buffer.append(BreakOpportunity(offset: cluster.offset, kind: .allowed))
        }
      }
      if let cut {
        // The next window starts after the cut cluster, with the cluster before it and the cut cluster as
        // context; the cut cluster's own opportunity was emitted above, so the next window skips it.
        let previous = clusters[cut - 1].scalar
        let afterCut = clusters[cut + 1]
        context = Array(scalars[previous..<afterCut.scalar])
        index = text.utf8.index(text.utf8.startIndex, offsetBy: afterCut.offset)
        offset = afterCut.offset
      } else {
        context = []
        index = position
        offset = cursorOffset
        if endsWithHardBreak && index < text.endIndex {
          buffer.append(BreakOpportunity(offset: cursorOffset, kind: .mandatory))
        }
      }
    }

    /// Whether a window may end before cluster `k`: clusters `k - 1` and `k` are single letters or
    /// ideographs, so no rule looks back across them (every rule's lookbehind stops at such a unit).
    private static func isSafeCut(
      _ scalars: [Unicode.Scalar], _ clusters: [(scalar: Int, offset: Int)], at k: Int
    ) -> Bool {
      func isPlain(_ cluster: Int) -> Bool {
        let start = clusters[cluster].scalar
        let end = cluster + 1 < clusters.count ? clusters[cluster + 1].scalar : scalars.count
        guard end - start == 1 else { return false }
        switch UAX14.resolve(UnicodeProperties(scalars[start])) {
        case .al, .hl, .id: return true
        default: return false
        }
      }
      return k >= 1 && isPlain(k - 1) && isPlain(k) && scalars[clusters[k].scalar] != "\u{25CC}"
        && scalars[clusters[k - 1].scalar] != "\u{25CC}"
    }

    /// Blink's changes to UAX #14 (see ``LineBreaker``).
    private static func tailorForChromium(_ scalars: [Unicode.Scalar], _ actions: inout [UAX14.Action]) {
      for i in 1..<max(1, scalars.count) where actions[i] != .mandatory {
        let previous = scalars[i - 1]
        let current = scalars[i]
        if isBreakableSpace(previous) {
          actions[i] = isBreakableSpace(current) ? .prohibited : .allowed
        } else if isBreakableSpace(current) {
          actions[i] = .prohibited
        } else if isTableASCII(previous) && isTableASCII(current) {
          if previous == "-" && ("0"..."9").contains(current) {
            let beforeHyphen = i >= 2 ? scalars[i - 2] : nil
            actions[i] = beforeHyphen.map(isASCIIAlphanumeric) == true ? .allowed : .prohibited
          } else {
            actions[i] = asciiBreaksAfter[previous]?.contains(current) == true ? .allowed : .prohibited
          }
        }
      }
    }

    private static func isBreakableSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar == " " || scalar == "\t" || scalar == "\n"
    }

    private static func isTableASCII(_ scalar: Unicode.Scalar) -> Bool { (0x21...0x7F).contains(scalar.value) }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
      ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Blink's table of printable ASCII pairs: for a character, the characters that may start the next line
    /// after it; a character with no entry allows no break before another printable ASCII character.
    private static let asciiBreaksAfter: [Unicode.Scalar: Set<Unicode.Scalar>] = {
      let word = "%&(*+-0123456789<=>@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\^_`abcdefghijklmnopqrstuvwxyz{|~"
      var table: [Unicode.Scalar: Set<Unicode.Scalar>] = [
        "-": Set(("\"#'" + word).unicodeScalars),
        "?": Set(("#$" + word).unicodeScalars),
      ]
      for scalar in "!\"#%&)*+,.:;=>\\]|}~".unicodeScalars {
        table[scalar] = Set("(<[{".unicodeScalars)
      }
      return table
    }()
  }
}

extension Character {
  /// Whether the character ends a line by itself: LF, CR LF, CR, NEL, VT, FF, LS or PS.
  ///
  /// Compared as UTF-8 bytes: `Character ==` compares canonical equivalents through normalization, which
  /// cost a third of the time of a whole layout.
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
