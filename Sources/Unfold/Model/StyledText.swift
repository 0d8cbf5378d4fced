/// A string with styles: one backing string plus coalesced `(length, style)` runs.
///
/// Run lengths are counted in UTF-8 code units and add up to `string.utf8.count`. Adjacent runs never have
/// equal styles, and no run is empty, so two styled texts that look the same compare equal.
///
/// A run ends at a character (grapheme cluster) boundary: a style that starts or ends inside a cluster
/// (`*বালত*ি`, emphasis over a letter without its vowel sign) is moved to the cluster's end, so that a cluster
/// takes the style of its first code point, and is measured, drawn and written in one element, as one piece.
///
///     var builder = StyledText.Builder()
///     builder.append("Hello, ")
///     builder.append("world", style: Style(.bold))
///     let text = builder.build()   // runs: 7 plain, 5 bold
public struct StyledText: Hashable, Sendable {
  /// One stretch of text with a single style.
  public struct Run: Hashable, Sendable {
    /// The number of UTF-8 code units the run covers.
    public var length: Int
    /// The style of those code units.
    public var style: Style

    /// Creates a run.
    public init(length: Int, style: Style) {
      self.length = length
      self.style = style
    }
  }

  /// The text, without any markup.
  public let string: String
  /// The runs, in order, covering `string` exactly.
  public let runs: [Run]
  /// The UTF-8 offset where each run ends.
  let runEnds: [Int]

  /// Creates a styled text from a string and runs, merging adjacent runs of equal style and dropping empty
  /// runs.
  ///
  /// A run end inside a character moves to the character's end (the character takes the style of its first code point);
  /// a run that lies within one character is dropped.
  ///
  /// - Precondition: the run lengths add up to `string.utf8.count`.
  public init(_ string: String, runs: [Run]) {
    // Runs that need no merging and end at characters (a builder's, mostly) are kept as they are, not copied.
    let isMerged = runs.indices.allSatisfy { i in
      runs[i].length > 0 && (i == 0 || runs[i - 1].style != runs[i].style)
    }
    let aligned = Self.endingAtCharacters(runs, in: string)
    var merged: [Run] = isMerged && aligned == nil ? runs : []
    if merged.isEmpty {
      let runs = aligned ?? runs
      merged.reserveCapacity(runs.count)
      for run in runs where run.length > 0 {
        if let last = merged.last, last.style == run.style {
          merged[merged.count - 1].length += run.length
        } else {
          merged.append(run)
        }
      }
    }
    precondition(
      merged.reduce(0) { $0 + $1.length } == string.utf8.count,
      "run lengths must add up to the string's UTF-8 length")
    self.string = string
    self.runs = merged
    var end = 0
    self.runEnds = merged.map { run in
      end += run.length
      return end
    }
  }

  /// The runs with each end inside a character moved to that character's end; `nil` when every run ends at a
  /// character already.
  private static func endingAtCharacters(_ runs: [Run], in string: String) -> [Run]? {
    var contiguous = string
    return contiguous.withUTF8 { bytes in
      let utf8 = string.utf8
      var moved: [Run]?  // made at the first end that moves: the runs before it stay as they are
      var (end, snapped) = (0, 0)
      for (index, run) in runs.enumerated() {
        end += run.length
        var newEnd = end
        if index < runs.count - 1, end > 0, end < bytes.count, !startsCharacterSurely(at: end, in: bytes) {
          let position = utf8.index(utf8.startIndex, offsetBy: end)
          if position.samePosition(in: string) == nil {
            // The characters from the last end (a character boundary), each walked once, to the one that holds it.
            var character = utf8.index(utf8.startIndex, offsetBy: snapped)
            while character < position { character = string.index(after: character) }
            newEnd = utf8.distance(from: utf8.startIndex, to: character)
          }
        }
        newEnd = max(newEnd, snapped)
        if moved == nil, newEnd != end { moved = Array(runs[..<index]) }
        moved?.append(Run(length: newEnd - snapped, style: run.style))
        snapped = newEnd
      }
      return moved
    }
  }

  /// Whether a character surely starts at the UTF-8 offset `end` (inside the text, at a code point): the code point
  /// there extends nothing (below the combining marks, or a CJK letter or punctuation) and the one before it
  /// prepends to nothing (below the Arabic block, or CJK), and they are not CR LF.
  ///
  /// Markdown styles end mostly so, which spares asking the string, about a hundred instructions.
  private static func startsCharacterSurely(at end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    func isCJK(_ value: UInt32) -> Bool {
      switch value {
      case 0x3001...0x3029, 0x3040...0x3096, 0x30A0...0x30FF, 0x3400...0x9FFF, 0xFF01...0xFF60: return true
      default: return false
      }
    }
    guard bytes[end] & 0xC0 != 0x80 else { return false }  // a caller's run end inside a code point
    var start = end - 1
    while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    let (before, after) = (bytes.decodeScalar(at: start).value, bytes.decodeScalar(at: end).value)
    if before == 0x0D && after == 0x0A { return false }
    return (after < 0x300 || isCJK(after)) && (before < 0x600 || isCJK(before))
  }

  /// Creates an unstyled text.
  public init(plain string: String) {
    self.init(string, runs: [Run(length: string.utf8.count, style: .plain)])
  }

  /// The empty text.
  package static let empty = StyledText(plain: "")

  /// Whether the text has no characters.
  package var isEmpty: Bool { string.isEmpty }

  /// The runs with their UTF-8 offsets, in order.
  package var runRanges: [(range: Range<Int>, style: Style)] {
    var offset = 0
    return runs.map { run in
      defer { offset += run.length }
      return (offset..<offset + run.length, run.style)
    }
  }

  /// The characters between two UTF-8 offsets, which must fall on character boundaries.
  package func text(in range: Range<Int>) -> Substring { string.utf8Slice(range) }

  /// Collects text and styles piece by piece, coalescing as it goes.
  ///
  /// Appended text is collected as UTF-8 bytes and made a string 64 KiB at a time, rather than appended to a
  /// `String` piece by piece, and without holding the whole text twice at once.
  package struct Builder: Sendable {
    private var string = ""
    /// The bytes appended since the text was last made a string.
    private var pending: [UInt8] = []
    /// Whether the pending bytes are known to be UTF-8: each piece was a string's bytes cut at code points
    /// (`isCutAtCodePoints`), as a C library's copy of a string's text is.
    private var isKnownUTF8 = true
    private var runs: [Run] = []

    /// The bytes collected before they are made a string.
    private static let flushSize = 65_536

    /// Creates an empty builder.
    package init() {}

    /// Reserves room for `count` UTF-8 bytes of text, so that a text of a known size grows without doubling
    /// past it.
    package mutating func reserveCapacity(_ count: Int) {
      string.reserveCapacity(count)
      pending.reserveCapacity(min(count, Self.flushSize + 4_096))  // not grown by doubling from 16 bytes
    }

    /// Reserves room for `count` runs.
    package mutating func reserveRuns(_ count: Int) { runs.reserveCapacity(count) }

    /// Appends text in a style.
    package mutating func append(_ text: some StringProtocol, style: Style = .plain) {
      text.withUTF8Buffer { append(utf8: $0, style: style) }  // a substring's bounds may fall inside a code point
    }

    /// Appends UTF-8 bytes in a style: bytes that should be valid UTF-8, cut from a string's at code points (a C
    /// library's copy of a string's text).
    ///
    /// Pieces cut so are trusted; any other makes the pending bytes checked, and repaired if they are not UTF-8, when
    /// they are made a string (see ``build()``).
    mutating func append(utf8 text: UnsafeBufferPointer<UInt8>, style: Style) {
      isKnownUTF8 = isKnownUTF8 && text.isCutAtCodePoints
      pending.append(contentsOf: text)
      addRun(text.count, style: style)
    }

    /// Extends the last run by `length` bytes if it has this style, or starts a run.
    @inline(__always)
    private mutating func addRun(_ length: Int, style: Style) {
      guard length > 0 else { return }
      if let last = runs.last, last.style == style {
        runs[runs.count - 1].length += length
      } else {
        runs.append(Run(length: length, style: style))
      }
      if pending.count >= Self.flushSize { flush() }
    }

    /// Makes the pending bytes a string, appended to ``string``: as they are when every piece was cut at code
    /// points (checking them all again, about two cycles a byte, was an eighth of parsing a comment).
    ///
    /// Otherwise they are checked, and bytes that are not valid UTF-8 are repaired run by run, each ill-formed sequence
    /// replaced by U+FFFD as `String(decoding:as:)` does, the run's length with it.
    private mutating func flush() {
      guard !pending.isEmpty else { return }
      defer { isKnownUTF8 = true }
      if isKnownUTF8 {
        string += pending.withUnsafeBufferPointer { String(knownUTF8: $0) }
      } else if let valid = String(validating: pending, as: UTF8.self) {
        string += valid
      } else {
        // The last runs hold the pending bytes; the first of them may begin in the string already.
        var first = runs.count
        var covered = 0
        while covered < pending.count {
          first -= 1
          covered += runs[first].length
        }
        var start = 0
        for index in first..<runs.count {
          let inString = index == first ? covered - pending.count : 0
          let repaired = String(decoding: pending[start..<start + runs[index].length - inString], as: UTF8.self)
          start += runs[index].length - inString
          string += repaired
          runs[index].length = inString + repaired.utf8.count
        }
      }
      pending.removeAll(keepingCapacity: true)
    }

    /// Appends a styled text, keeping its styles.
    package mutating func append(_ text: StyledText) {
      for (range, style) in text.runRanges {
        append(text.string.utf8Slice(range), style: style)
      }
    }

    /// The text collected so far.
    ///
    /// Mutating: the last bytes collected are appended to the builder's string in place (a copy of the builder, and
    /// `consuming` did not prevent one, made a copy of the whole text).
    package mutating func build() -> StyledText {
      flush()
      return StyledText(string, runs: runs)
    }
  }
}

extension String {
  /// The substring between two UTF-8 offsets, which must fall on scalar boundaries.
  func utf8Slice(_ range: Range<Int>) -> Substring {
    let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
    let end = utf8.index(start, offsetBy: range.count)
    // Through the UTF-8 view: slicing the string itself would round both ends down to cluster boundaries,
    // which walks back through the clusters before them.
    return Substring(utf8[start..<end])
  }
}
