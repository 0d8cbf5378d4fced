/// Measures text in terminal cells, with the Unicode 17.0 tables and one of two width profiles.
///
/// Per code point (both profiles):
/// - East Asian Wide and Fullwidth are 2;
/// - nonspacing and enclosing marks, format characters (but the prepended concatenation marks such as
///   U+0600, which take a cell), Hangul medial and final jamo, and the soft hyphen are 0 (the renderers never
///   print a soft hyphen: it is dropped, or drawn as `-` where a line breaks after it);
/// - control characters are 1, the width of the picture `VisibleControls` draws for them;
/// - everything else is 1.
///
/// Per grapheme cluster:
/// - ``Profile-swift.enum/legacy`` adds up its code points, as glibc's `wcwidth` and most terminals today
///   do, except that a code point after a ZWJ joins the cell before it, as tmux 3.3 draws it: 👨‍👩‍👧 is 2,
///   👍🏽 is 4, ❤️ (a text-default heart with VS16) is 1, 🇺🇸 is 2.
/// - ``Profile-swift.enum/modern`` counts emoji sequences as one emoji, as newer terminals (kitty, foot,
///   WezTerm, Konsole) do: a ZWJ sequence, a flag, a single regional indicator, a keycap and an emoji with a
///   skin tone are 2; VS16 makes a text-default emoji 2 and VS15 makes an emoji 1. Other clusters add up.
public struct TerminalCells: TextMeasurer {
  /// How grapheme clusters are counted.
  public enum Profile: String, Hashable, Sendable, CaseIterable {
    /// Per code point, as glibc `wcwidth` and tmux 3.3a count (the default).
    case legacy
    /// Per grapheme cluster, emoji sequences as one emoji.
    case modern
  }

  /// The profile in use.
  public let profile: Profile
  /// The distance between tab stops, in cells.
  public let tabInterval: Int

  /// Creates the measurer, with tab stops every `tabInterval` cells.
  public init(profile: Profile = .legacy, tabInterval: Int = 8) {
    self.profile = profile
    self.tabInterval = tabInterval
  }

  /// `cells`.
  public var unit: WidthUnit { .cells }

  /// The cells one grapheme cluster occupies (style does not change cell widths).
  public func advance(of cluster: Character, style: Style) -> Int {
    var bytes = cluster.utf8.makeIterator()
    if let first = bytes.next(), first < 0x80, bytes.next() == nil {  // one ASCII scalar, read as a byte
      return first == 0x0A || first == 0x0D ? 0 : 1
    }
    if cluster.isHardLineBreak { return 0 }
    switch profile {
    case .legacy: return Self.legacyWidth(of: cluster.unicodeScalars)
    case .modern: return Self.modernWidth(of: cluster.unicodeScalars)
    }
  }

  /// One cell, but none for LF and CR, as ``advance(of:style:)`` counts a single ASCII character.
  public func advance(ofASCII byte: UInt8, style: Style) -> Int { byte == 0x0A || byte == 0x0D ? 0 : 1 }

  /// The cells of a cluster of one code point, as ``advance(of:style:)`` counts it.
  public func advance(ofScalar scalar: Unicode.Scalar, style: Style) -> Int {
    if scalar.isASCII { return advance(ofASCII: UInt8(scalar.value), style: style) }
    if Cluster.startsHardLineBreak(scalar.value) { return 0 }
    if profile == .modern {
      let properties = UnicodeProperties(scalar)
      if (properties.isEmoji || properties.isExtendedPictographic) && properties.lineBreak == .ri { return 2 }
    }
    return Self.width(of: scalar)
  }

  /// The cells of a cluster of several code points, as ``advance(of:style:)`` counts it.
  public func advance(ofScalars scalars: some Collection<Unicode.Scalar>, style: Style) -> Int {
    switch profile {
    case .legacy: return Self.legacyWidth(of: scalars)
    case .modern: return Self.modernWidth(of: scalars)
    }
  }

  /// The cells of one code point on its own.
  package static func width(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value == 0x0A || value == 0x0D ? 0 : 1 }
    return width(ofNonASCII: scalar, properties: UnicodeProperties(scalar))
  }

  /// ``width(of:)`` of a code point from DEL up, whose properties are at hand.
  @inline(__always)
  static func width(ofNonASCII scalar: Unicode.Scalar, properties: UnicodeProperties) -> Int {
    if VisibleControls.isReplaced(scalar) { return 1 }
    if scalar.value == 0x00AD { return 0 }
    switch properties.generalCategory {
    case .mn, .me: return 0
    case .cf: return properties.isPrepend ? 1 : 0
    default: break
    }
    switch properties.lineBreak {
    case .jv, .jt: return 0
    default: break
    }
    switch properties.eastAsianWidth {
    case .w, .f: return 2
    default: return 1
    }
  }

  /// The cells of the cluster `scalars[range]` in the legacy profile, as ``advance(ofScalar:style:)`` and
  /// ``advance(ofScalars:style:)`` count it, from the properties that the scanner looked up (what preparing
  /// measures with, without a lookup or a call through the protocol per cluster, and with the widths of the
  /// code points from DEL up derived into the properties when the tables were decoded).
  @inline(__always)
  static func legacyWidth(
    ofScanned scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, _ range: Range<Int>
  ) -> Int {
    let first = scalars[range.lowerBound]
    if range.count == 1 {
      let value = first.scalar.value
      if value < 0x7F { return value == 0x0A || value == 0x0D ? 0 : 1 }
      if Cluster.startsHardLineBreak(value) { return 0 }
      return UnicodeProperties(raw: first.properties).nonASCIICells
    }
    var width = 0
    var afterJoiner = false
    for index in range {
      let scanned = scalars[index]
      if !afterJoiner {
        width +=
          scanned.scalar.value < 0x7F
          ? (scanned.scalar.value == 0x0A || scanned.scalar.value == 0x0D ? 0 : 1)
          : UnicodeProperties(raw: scanned.properties).nonASCIICells
      }
      afterJoiner = scanned.scalar == "\u{200D}"
    }
    return width
  }

  private static func legacyWidth(of scalars: some Collection<Unicode.Scalar>) -> Int {
    var width = 0
    var afterJoiner = false
    for scalar in scalars {
      if !afterJoiner { width += Self.width(of: scalar) }
      afterJoiner = scalar == "\u{200D}"
    }
    return width
  }

  private static func modernWidth(of scalars: some Collection<Unicode.Scalar>) -> Int {
    guard let first = scalars.first else { return 0 }
    let base = UnicodeProperties(first)
    if base.isEmoji || base.isExtendedPictographic {
      if scalars.contains("\u{FE0E}") { return 1 }
      if base.lineBreak == .ri { return 2 }
      let rest = scalars.dropFirst()
      if rest.contains(where: { $0 == "\u{FE0F}" || $0 == "\u{200D}" || $0 == "\u{20E3}" })
        || rest.contains(where: { UnicodeProperties($0).isEmojiModifier })
      {
        return 2
      }
    }
    return scalars.reduce(0) { $0 + Self.width(of: $1) }
  }
}
