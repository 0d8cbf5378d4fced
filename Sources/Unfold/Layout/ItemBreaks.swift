/// Where Chromium starts a new inline item inside a run of one style: each item's width is rounded up to the
/// layout unit on its own (``FitRule``), so a line near the width fits or not by how many there are.
///
/// - Where the bidi embedding level changes: Chromium cuts a paragraph into runs of one level (UAX #9, resolved as
///   ICU resolves it: ``BidiLevels``) before it lays it out. The base direction is the first strong character's, as
///   the HTML renderer writes `dir` (``TextDirection/init(firstStrongIn:)``).
/// - After a zero-width non-joiner (U+200C): "ا‌ا" in DejaVu Sans at 16 px is 570/64 px wide in Chromium 156,
///   its exact width 569/64 ("a‌a" too; no other joiner or format character does so).
///
/// Found once per text, for a measurer that rounds items; a text with no right-to-left character in a
/// left-to-right paragraph has one level throughout, and no bidi is run.
struct ItemBreaks: Sendable {
  /// The UTF-8 offsets where an item starts, ascending.
  private(set) var offsets: [Int] = []

  /// None: a measurer whose widths add up exactly.
  static let none = ItemBreaks()

  private init() {}

  /// The item breaks of `text` for `measurer`: none unless it rounds items.
  init(_ text: StyledText, measurer: any TextMeasurer) {
    guard measurer.itemRounding > 0 else { return }
    var nonJoiners: [Int] = []
    text.string.withUTF8Buffer { bytes in
      var index = 0
      while index + 2 < bytes.count {
        if bytes[index] == 0xE2, bytes[index + 1] == 0x80, bytes[index + 2] == 0x8C { nonJoiners.append(index + 3) }
        index += 1
      }
    }
    let levelChanges = TextDirection.holdsBidiCharacter(text.string) ? Self.levelChanges(in: text.string) : []
    offsets = levelChanges.isEmpty ? nonJoiners : Array(Set(levelChanges + nonJoiners)).sorted()
  }

  /// Whether an item starts strictly inside `range`.
  func any(inside range: Range<Int>) -> Bool {
    guard !offsets.isEmpty else { return false }
    let first = offsets.partitionIndex { $0 > range.lowerBound }
    return first < offsets.count && offsets[first] < range.upperBound
  }

  /// The index of the first item break after `offset`.
  func first(after offset: Int) -> Int { offsets.partitionIndex { $0 > offset } }

  /// The UTF-8 offsets where the bidi level changes, its paragraphs at the text's base direction.
  private static func levelChanges(in string: String) -> [Int] {
    Array(BidiLevels(string, direction: TextDirection(firstStrongIn: string)).changes)
  }
}
