/// The embedding levels of a text by UAX #9, resolved once per paragraph and kept for every line and relayout.
///
/// Rules P1, X1–X10, W1–W7, N0–N2, I1–I2, and the part of L1 that needs no line (separators, and the spaces before
/// them and at a paragraph's end). Each line takes the rest of L1 and L2 when it is drawn; the HTML's inline items
/// start where the level changes (``ItemBreaks``).
///
/// The engine's own code: ICU gives each character's Bidi_Class and paired bracket (``Bidi``), and the tests compare
/// the levels with ICU's over random lines and paragraphs. Every paragraph of the text (split at class B: line feeds,
/// carriage returns, U+2029) is at the text's base direction, as the HTML renderer writes `dir` on the whole text
/// and as Chromium resolves it.
///
/// A left-to-right text is resolved only where it needs to be: from each character that may take a level above 0
/// (R, AL, AN) up to the next one of class L, after which the context is left to right again and what follows
/// resolves as if a paragraph started there. Such an island is its own paragraph at level 0 unless a bracket in it
/// pairs with one outside, or the text holds an explicit embedding, override or isolate; then the whole text is
/// resolved.
struct BidiLevels: Hashable, Sendable {
  /// The level of every paragraph: 0 left to right, 1 right to left.
  let paragraphLevel: UInt8
  /// Where each run of one level starts (UTF-8 offsets, ascending, the first 0), or empty when the whole text is
  /// at ``paragraphLevel``.
  private(set) var starts: [Int] = []
  /// The level of each run.
  private(set) var levels: [UInt8] = []

  /// The levels of UTF-8 `text`, every paragraph at `direction`.
  init(utf8 text: UnsafeBufferPointer<UInt8>, direction: TextDirection) {
    let resolver = BidiResolver()
    self.init(utf8: text, direction: direction, resolver: resolver)
  }

  /// The levels of UTF-8 `text`, every paragraph at `direction`, resolved in the room of `resolver`.
  init(utf8 text: UnsafeBufferPointer<UInt8>, direction: TextDirection, resolver: BidiResolver) {
    paragraphLevel = direction == .rtl ? 1 : 0
    guard !text.isEmpty, text.count < Int(Int32.max) else { return }
    resolver.holdsRightToLeft = false
    var runs = RunBuilder(paragraphLevel: paragraphLevel)
    if direction == .ltr {
      guard var next = TextDirection.firstOffset(utf8: text, from: 0, where: Self.takesLevel) else { return }
      while true {
        let start = Self.boundaryNeutralsStart(before: next, in: text)
        guard let end = resolver.resolveIsland(of: text, from: start, into: &runs) else {
          runs = RunBuilder(paragraphLevel: paragraphLevel)
          resolver.resolveWhole(text, paragraphLevel: paragraphLevel, into: &runs)
          break
        }
        guard end < text.count,
          let found = TextDirection.firstOffset(utf8: text, from: end, where: Self.takesLevel)
        else { break }
        next = found
      }
      runs.append(0, upTo: text.count)
      // ICU leaves at level 0 a left-to-right text whose only right-to-left characters are Arabic numbers when
      // nothing neutral stands anywhere in it, and Chromium cuts no item there.
      if !resolver.holdsRightToLeft, !resolver.holdsNeutral(text) { return }
    } else {
      resolver.resolveWhole(text, paragraphLevel: paragraphLevel, into: &runs)
    }
    (starts, levels) = runs.finished()
  }

  /// The levels of `text`, every paragraph at `direction`.
  init(_ text: String, direction: TextDirection) {
    var text = text
    self = text.withUTF8 { BidiLevels(utf8: $0, direction: direction) }
  }

  /// The UTF-8 offsets other than 0 where the level changes, ascending.
  var changes: ArraySlice<Int> { starts.dropFirst() }

  /// The level of the byte at `offset`.
  func level(at offset: Int) -> UInt8 {
    guard !starts.isEmpty else { return paragraphLevel }
    return levels[starts.partitionIndex { $0 > offset } - 1]
  }

  /// The level of the byte at `offset` and where its run of one level ends (`Int.max` for the last run).
  func run(containing offset: Int) -> (level: UInt8, end: Int) {
    guard !starts.isEmpty else { return (paragraphLevel, .max) }
    let index = starts.partitionIndex { $0 > offset } - 1
    return (levels[index], index + 1 < starts.count ? starts[index + 1] : .max)
  }

  /// The direction runs of the line `range` of the text `text` in the order they are drawn left to right: the
  /// line's levels after L1 (the spaces, isolate formatting and removed characters that end it at the paragraph's
  /// level) and L2 (from the highest level to the lowest odd one, every stretch at that level or above reversed),
  /// neighbours of one direction that follow on joined; nil when the line is drawn in logical order (all of it at
  /// level 0).
  func visualRuns(of range: Range<Int>, in text: UnsafeBufferPointer<UInt8>) -> [Run]? {
    guard !range.isEmpty else { return nil }
    guard !starts.isEmpty else {
      return paragraphLevel == 0 ? nil : [Run(range: 0..<range.count, isRightToLeft: true)]
    }
    var index = starts.partitionIndex { $0 > range.lowerBound } - 1
    // A line within one run at level 0 is drawn in logical order.
    if levels[index] == 0, index + 1 == starts.count || starts[index + 1] >= range.upperBound { return nil }
    var lineRuns: [(range: Range<Int>, level: UInt8)] = []
    while index < starts.count, starts[index] < range.upperBound {
      let lower = max(starts[index], range.lowerBound)
      let upper = min(index + 1 < starts.count ? starts[index + 1] : Int.max, range.upperBound)
      lineRuns.append((lower - range.lowerBound..<upper - range.lowerBound, levels[index]))
      index += 1
    }
    return Self.visualRuns(
      of: &lineRuns, paragraphLevel: paragraphLevel, line: UnsafeBufferPointer(rebasing: text[range]))
  }

  /// ``visualRuns(of:in:)`` of a line's runs of one level (ranges in `line`, in logical order, covering it).
  static func visualRuns(
    of lineRuns: inout [(range: Range<Int>, level: UInt8)], paragraphLevel: UInt8, line: UnsafeBufferPointer<UInt8>
  ) -> [Run]? {
    // L1: the line's trailing spaces at the paragraph's level.
    var trailing = line.count
    if let last = lineRuns.last, last.level != paragraphLevel {
      while trailing > 0 {
        var lead = trailing - 1
        while lead > 0, line[lead] & 0xC0 == 0x80 { lead -= 1 }
        guard BidiResolver.isWhitespaceForL1(Bidi.bidiClass(line.decodeScalar(at: lead).value)) else { break }
        trailing = lead
      }
      if trailing < line.count {
        while let last = lineRuns.last, last.range.lowerBound >= trailing { lineRuns.removeLast() }
        if let last = lineRuns.last, last.range.upperBound > trailing {
          lineRuns[lineRuns.count - 1].range = last.range.lowerBound..<trailing
        }
        lineRuns.append((trailing..<line.count, paragraphLevel))
      }
    }
    guard let highest = lineRuns.lazy.map(\.level).max(), highest > 0 else { return nil }
    if let lowestOdd = lineRuns.lazy.map(\.level).filter({ $0 & 1 == 1 }).min() {
      for level in stride(from: highest, through: lowestOdd, by: -1) {
        var first = 0
        while first < lineRuns.count {
          guard lineRuns[first].level >= level else {
            first += 1
            continue
          }
          var end = first
          while end < lineRuns.count, lineRuns[end].level >= level { end += 1 }
          lineRuns[first..<end].reverse()
          first = end
        }
      }
    }
    var runs: [Run] = []
    runs.reserveCapacity(lineRuns.count)
    for run in lineRuns {
      Self.append(Run(range: run.range, isRightToLeft: run.level & 1 == 1), joiningTo: &runs)
    }
    return runs
  }

  /// Whether a code point may take a level above 0 in a left-to-right paragraph: of class R, AL or AN, or an
  /// explicit embedding, override or isolate (or its end), as ICU classes it. (Hebrew punctuation such as `״` is
  /// R, and Arabic-Indic digits are AN, though neither is a letter.)
  static func takesLevel(_ value: UInt32) -> Bool {
    switch value {
    case 0x0590...0x08FF, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFB1D...0xFDFF, 0xFE70...0xFEFF,
      0x10800...0x10FFF, 0x1E800...0x1EFFF:
      return Bidi.takesLevel(value)
    default: return false
    }
  }

  /// A stretch of a line drawn in one direction: its byte range in the line and whether it is drawn right to left.
  struct Run: Equatable, Sendable {
    var range: Range<Int>
    var isRightToLeft: Bool
  }

  /// Appends `run` to `runs`, or joins it to the last run when both are of one direction and follow on in it
  /// (levels 0 and 2 of a number in left-to-right text draw as one run).
  static func append(_ run: Run, joiningTo runs: inout [Run]) {
    if let last = runs.last, last.isRightToLeft == run.isRightToLeft {
      if !run.isRightToLeft, last.range.upperBound == run.range.lowerBound {
        runs[runs.count - 1].range = last.range.lowerBound..<run.range.upperBound
        return
      }
      if run.isRightToLeft, run.range.upperBound == last.range.lowerBound {
        runs[runs.count - 1].range = run.range.lowerBound..<last.range.upperBound
        return
      }
    }
    runs.append(run)
  }

  /// Where the boundary neutrals (joiners, the soft hyphen) just before `offset` start: they take the level of the
  /// character after them.
  private static func boundaryNeutralsStart(before offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
    var start = offset
    while start > 0 {
      var lead = start - 1
      while lead > 0, start - lead < 4, text[lead] & 0xC0 == 0x80 { lead -= 1 }
      guard Bidi.isBoundaryNeutral(text.decodeScalar(at: lead).value) else { break }
      start = lead
    }
    return start
  }
}

/// A text and its levels, for drawing lines of it by their paragraph's levels rather than each as a paragraph of
/// its own.
struct ParagraphLevels: Sendable {
  /// The levels of ``text``.
  let levels: BidiLevels
  /// The text, whose UTF-8 offsets the levels and the lines' ``DisplayLine/textStart`` are in.
  let text: String

  /// The runs of one level of a drawn line's bytes, its text fragments read from the text at `start` on.
  ///
  /// Soft hyphens of the text are not drawn; what is not text (an ellipsis, a label, a hyphen) is resolved as a
  /// paragraph of its own. Nil when the fragments are not the text there.
  func lineRuns(of fragments: [(bytes: UnsafeBufferPointer<UInt8>, isText: Bool)], from start: Int)
    -> [(range: Range<Int>, level: UInt8)]?
  {
    var runs: [(range: Range<Int>, level: UInt8)] = []
    func append(_ level: UInt8, _ range: Range<Int>) {
      if let last = runs.last, last.level == level, last.range.upperBound == range.lowerBound {
        runs[runs.count - 1].range = last.range.lowerBound..<range.upperBound
      } else {
        runs.append((range, level))
      }
    }
    // The levels of `range` of `levels`' text, read run by run, appended from `offset` of the line.
    func appendLevels(of range: Range<Int>, in levels: BidiLevels, at offset: Int) {
      var position = range.lowerBound
      while position < range.upperBound {
        let run = levels.run(containing: position)
        let end = min(run.end, range.upperBound)
        append(run.level, offset + position - range.lowerBound..<offset + end - range.lowerBound)
        position = end
      }
    }
    var text = self.text
    return text.withUTF8 { source -> [(range: Range<Int>, level: UInt8)]? in
      var cursor = start
      var offset = 0
      for fragment in fragments {
        let bytes = fragment.bytes
        guard fragment.isText else {
          let own = BidiLevels(utf8: bytes, direction: levels.paragraphLevel == 1 ? .rtl : .ltr)
          appendLevels(of: 0..<bytes.count, in: own, at: offset)
          offset += bytes.count
          continue
        }
        // Most fragments are the text's bytes as they stand.
        if cursor + bytes.count <= source.count,
          UnsafeBufferPointer(rebasing: source[cursor..<cursor + bytes.count]).elementsEqual(bytes)
        {
          appendLevels(of: cursor..<cursor + bytes.count, in: levels, at: offset)
          cursor += bytes.count
          offset += bytes.count
          continue
        }
        for byte in bytes {
          // A soft hyphen of the text is not drawn.
          while cursor + 1 < source.count, source[cursor] != byte, source[cursor] == 0xC2, source[cursor + 1] == 0xAD {
            cursor += 2
          }
          guard cursor < source.count, source[cursor] == byte else { return nil }
          append(levels.level(at: cursor), offset..<offset + 1)
          cursor += 1
          offset += 1
        }
      }
      return runs
    }
  }
}

/// Collects levels into runs of one level by UTF-8 offset, joining neighbours of one level.
struct RunBuilder {
  let paragraphLevel: UInt8
  private var starts: [Int] = []
  private var levels: [UInt8] = []
  /// The offset up to which levels are set.
  private(set) var end = 0

  init(paragraphLevel: UInt8) { self.paragraphLevel = paragraphLevel }

  /// Sets the level of the bytes from ``end`` up to `offset`.
  mutating func append(_ level: UInt8, upTo offset: Int) {
    guard offset > end else { return }
    if levels.last != level {
      starts.append(end)
      levels.append(level)
    }
    end = offset
  }

  /// The runs, or none when every byte is at the paragraph's level (the bytes after ``end`` are).
  func finished() -> (starts: [Int], levels: [UInt8]) {
    guard levels.contains(where: { $0 != paragraphLevel }) else { return ([], []) }
    return (starts, levels)
  }
}

/// UAX #9 over the classes of one paragraph, its buffers reused from paragraph to paragraph.
final class BidiResolver {
  // ICU's UCharDirection values, as constants the compiler folds (a stored static is read through a lazy
  // initializer's check at every use).
  static var l: UInt8 { 0 }
  static var r: UInt8 { 1 }
  static var en: UInt8 { 2 }
  static var es: UInt8 { 3 }
  static var et: UInt8 { 4 }
  static var an: UInt8 { 5 }
  static var cs: UInt8 { 6 }
  static var b: UInt8 { 7 }
  static var s: UInt8 { 8 }
  static var ws: UInt8 { 9 }
  static var on: UInt8 { 10 }
  static var lre: UInt8 { 11 }
  static var lro: UInt8 { 12 }
  static var al: UInt8 { 13 }
  static var rle: UInt8 { 14 }
  static var rlo: UInt8 { 15 }
  static var pdf: UInt8 { 16 }
  static var nsm: UInt8 { 17 }
  static var bn: UInt8 { 18 }
  static var fsi: UInt8 { 19 }
  static var lri: UInt8 { 20 }
  static var rli: UInt8 { 21 }
  static var pdi: UInt8 { 22 }

  /// The deepest embedding level (BD2).
  static var maxDepth: UInt8 { 125 }

  /// The room of the buffers below, in code points: owned here and read without bounds checks, since every index
  /// stays below the count the classes were written for.
  private var capacity = 0
  /// Each code point's class as given, its byte offset and its bracket key
  /// (``Bidi/classes(ofUTF8:classes:offsets:brackets:stop:)``).
  private var classes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
  private var offsets = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
  private var brackets = UnsafeMutablePointer<UInt32>.allocate(capacity: 0)
  /// Whether a paragraph resolved so far holds a character of class R or AL, an embedding, override or isolate
  /// that may be right to left.
  var holdsRightToLeft = false
  /// Each code point's level after rules X1–X8.
  private var explicitLevels = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
  /// Each code point's class as the rules change it.
  private var types = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
  /// Each code point's level.
  private var resolved = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
  /// For an isolate initiator, the index of its matching PDI (BD9), else -1.
  private var matchingPDI = UnsafeMutablePointer<Int>.allocate(capacity: 0)
  /// The isolating run sequence being resolved: indices of code points, `sequenceCount` of them.
  private var sequence = UnsafeMutablePointer<Int>.allocate(capacity: 0)
  private var sequenceCount = 0

  init() {}

  deinit { deallocate() }

  private func deallocate() {
    classes.deallocate()
    offsets.deallocate()
    brackets.deallocate()
    explicitLevels.deallocate()
    types.deallocate()
    resolved.deallocate()
    matchingPDI.deallocate()
    sequence.deallocate()
  }

  /// Room for `count` code points.
  private func reserve(_ count: Int) {
    guard capacity < count else { return }
    deallocate()
    capacity = max(count, 64)
    classes = .allocate(capacity: capacity)
    offsets = .allocate(capacity: capacity)
    brackets = .allocate(capacity: capacity)
    explicitLevels = .allocate(capacity: capacity)
    types = .allocate(capacity: capacity)
    resolved = .allocate(capacity: capacity)
    matchingPDI = .allocate(capacity: capacity)
    sequence = .allocate(capacity: capacity)
  }

  /// Classifies `text` (up to the first character of class L after the first with `stopsAtL`): the count, and the
  /// offset where it stopped; nil for bytes that are not UTF-8.
  private func classify(_ text: UnsafeBufferPointer<UInt8>, stopsAtL: Bool) -> (count: Int, stop: Int)? {
    reserve(text.count)
    var stop = Int32(text.count)
    let count = withUnsafeMutablePointer(to: &stop) { stop in
      Bidi.classes(ofUTF8: text, classes: classes, offsets: offsets, brackets: brackets, stop: stopsAtL ? stop : nil)
    }
    guard count >= 0 else { return nil }
    return (count, Int(stop))
  }

  /// Resolves the island of a left-to-right text that starts at `start` (see ``BidiLevels``) and appends its levels
  /// to `runs` (level 0 before it); where it ends, or nil when it cannot be resolved alone.
  func resolveIsland(of text: UnsafeBufferPointer<UInt8>, from start: Int, into runs: inout RunBuilder)
    -> Int?
  {
    // Classified in a window that grows until it holds the island: the buffers stay the size of an island, not of
    // the rest of the text.
    let rest = UnsafeBufferPointer(rebasing: text[start...])
    var window = min(rest.count, 4096)
    var classified = classify(UnsafeBufferPointer(rebasing: rest[..<window]), stopsAtL: true)
    while window < rest.count, classified == nil || classified!.stop == window {
      window = min(rest.count, window * 4)
      classified = classify(UnsafeBufferPointer(rebasing: rest[..<window]), stopsAtL: true)
    }
    guard var (count, stop) = classified else { return nil }
    // A paragraph separator ends the island (and its paragraph).
    if let separator = (0..<count).first(where: { classes[$0] == Self.b }), separator + 1 < count {
      count = separator + 1
      stop = Int(offsets[count])
    }
    guard resolve(0..<count, paragraphLevel: 0, pairsEveryBracket: true) else { return nil }
    runs.append(0, upTo: start)
    appendLevels(0..<count, shift: start, end: start + stop, to: &runs)
    return start + stop
  }

  /// Resolves every paragraph of `text` at `paragraphLevel` and appends the levels to `runs`.
  func resolveWhole(_ text: UnsafeBufferPointer<UInt8>, paragraphLevel: UInt8, into runs: inout RunBuilder) {
    guard let (count, _) = classify(text, stopsAtL: false) else {
      runs.append(paragraphLevel, upTo: text.count)
      return
    }
    var first = 0
    while first < count {
      var end = first
      while end < count, classes[end] != Self.b { end += 1 }
      if end < count { end += 1 }
      _ = resolve(first..<end, paragraphLevel: paragraphLevel, pairsEveryBracket: false)
      appendLevels(first..<end, shift: 0, end: end < count ? Int(offsets[end]) : text.count, to: &runs)
      first = end
    }
  }

  /// Whether `text` holds a character that may be neutral (ICU's MASK_POSSIBLE_N: ON, CS, ES, ET, and what L1
  /// resets: spaces, separators, removed and isolate formatting characters).
  func holdsNeutral(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let (count, _) = classify(text, stopsAtL: false) else { return true }
    return (0..<count).contains { index in
      let class_ = classes[index]
      return class_ == Self.on || class_ == Self.cs || class_ == Self.es || class_ == Self.et || class_ == Self.b
        || class_ == Self.s || Self.isWhitespaceForL1(class_)
    }
  }

  /// Appends the levels of the code points `range`, their offsets moved by `shift`, the last one's bytes reaching
  /// `end`.
  private func appendLevels(_ range: Range<Int>, shift: Int, end: Int, to runs: inout RunBuilder) {
    guard !range.isEmpty else { return }
    for k in range.dropFirst() where resolved[k] != resolved[k - 1] {
      runs.append(resolved[k - 1], upTo: shift + Int(offsets[k]))
    }
    runs.append(resolved[range.upperBound - 1], upTo: end)
  }
}

extension BidiResolver {
  /// Resolves the code points `range` of ``classes`` as one paragraph at `paragraphLevel`, writing their levels
  /// into ``resolved``; false when `pairsEveryBracket` and a bracket has no pair in it, or when it holds an explicit
  /// formatting character and `pairsEveryBracket` (an island of a larger paragraph).
  func resolve(_ range: Range<Int>, paragraphLevel: UInt8, pairsEveryBracket: Bool) -> Bool {
    guard !range.isEmpty else { return true }
    let holdsExplicit = range.contains { classes[$0] >= Self.lre && classes[$0] != Self.al && classes[$0] != Self.nsm }
    guard !(pairsEveryBracket && holdsExplicit) else { return false }
    for k in range {
      let class_ = classes[k]
      types[k] = class_
      switch class_ {
      case Self.r, Self.al, Self.rle, Self.rlo, Self.rli, Self.fsi: holdsRightToLeft = true
      default: break
      }
    }
    if holdsExplicit {
      matchIsolates(range)
      resolveExplicit(range, paragraphLevel: paragraphLevel)
      for k in range { explicitLevels[k] = resolved[k] }
    } else {
      for k in range {
        resolved[k] = paragraphLevel
        explicitLevels[k] = paragraphLevel
      }
    }
    // X10: the isolating run sequences, each resolved on its own.
    var levelRunStart = range.lowerBound
    var used = Set<Int>()
    while levelRunStart < range.upperBound {
      guard types[levelRunStart] != Self.bn else {
        levelRunStart += 1
        continue
      }
      guard !holdsExplicit || !used.contains(levelRunStart) else {
        levelRunStart = levelRunEnd(from: levelRunStart, in: range)
        continue
      }
      sequenceCount = 0
      let firstRunEnd = appendLevelRun(from: levelRunStart, in: range)
      // A run that ends with an isolate initiator goes on with the run of its matching PDI (BD13).
      while holdsExplicit, case let last = sequence[sequenceCount - 1], Self.isIsolateInitiator(classes[last]),
        matchingPDI[last] >= 0
      {
        used.insert(matchingPDI[last])
        _ = appendLevelRun(from: matchingPDI[last], in: range)
      }
      levelRunStart = firstRunEnd
      guard resolveSequence(in: range, paragraphLevel: paragraphLevel, pairsEveryBracket: pairsEveryBracket) else {
        return false
      }
    }
    resetSeparatorsAndTrailingSpaces(range, paragraphLevel: paragraphLevel)
    return true
  }

  /// Appends to ``sequence`` the level run that starts at `start` (removed characters left out); where it ends.
  private func appendLevelRun(from start: Int, in range: Range<Int>) -> Int {
    let end = levelRunEnd(from: start, in: range)
    for k in start..<end where types[k] != Self.bn {
      sequence[sequenceCount] = k
      sequenceCount += 1
    }
    return end
  }

  /// Where the level run that starts at `start` ends (removed characters are part of it).
  private func levelRunEnd(from start: Int, in range: Range<Int>) -> Int {
    let level = explicitLevels[start]
    var k = start
    while k < range.upperBound, types[k] == Self.bn || explicitLevels[k] == level { k += 1 }
    return k
  }

  private static func isIsolateInitiator(_ class_: UInt8) -> Bool {
    class_ == fsi || class_ == lri || class_ == rli
  }

  /// BD9: each isolate initiator's matching PDI.
  private func matchIsolates(_ range: Range<Int>) {
    var open: [Int] = []
    for k in range {
      matchingPDI[k] = -1
      let class_ = classes[k]
      if Self.isIsolateInitiator(class_) {
        open.append(k)
      } else if class_ == Self.pdi, let initiator = open.popLast() {
        matchingPDI[initiator] = k
      }
    }
  }

  /// P2 and P3 for the text after the isolate initiator at `index` up to its matching PDI: whether its first strong
  /// character is right to left.
  private func firstStrongIsRightToLeft(after index: Int, in range: Range<Int>) -> Bool {
    var k = index + 1
    let end = matchingPDI[index] >= 0 ? matchingPDI[index] : range.upperBound
    while k < end {
      let class_ = classes[k]
      if class_ == Self.l { return false }
      if class_ == Self.r || class_ == Self.al { return true }
      if Self.isIsolateInitiator(class_) {
        guard matchingPDI[k] >= 0 else { return false }
        k = matchingPDI[k]
      }
      k += 1
    }
    return false
  }

  /// X1–X9: the explicit levels and overrides; removed characters take class BN in ``types``.
  private func resolveExplicit(_ range: Range<Int>, paragraphLevel: UInt8) {
    struct Status {
      var level: UInt8
      var override: UInt8?
      var isolate: Bool
    }
    var stack = [Status(level: paragraphLevel, override: nil, isolate: false)]
    stack.reserveCapacity(Int(Self.maxDepth) + 2)
    var overflowIsolates = 0
    var overflowEmbeddings = 0
    var validIsolates = 0
    for k in range {
      let class_ = classes[k]
      let current = stack[stack.count - 1]
      switch class_ {
      case Self.rle, Self.lre, Self.rlo, Self.lro:
        let odd = class_ == Self.rle || class_ == Self.rlo
        let level = odd ? (current.level + 1) | 1 : (current.level + 2) & ~1
        if level <= Self.maxDepth, overflowIsolates == 0, overflowEmbeddings == 0 {
          let override = class_ == Self.rlo ? Self.r : class_ == Self.lro ? Self.l : nil
          stack.append(Status(level: level, override: override, isolate: false))
        } else if overflowIsolates == 0 {
          overflowEmbeddings += 1
        }
        resolved[k] = current.level
        types[k] = Self.bn
      case Self.rli, Self.lri, Self.fsi:
        resolved[k] = current.level
        if let override = current.override { types[k] = override }
        let odd = class_ == Self.rli || (class_ == Self.fsi && firstStrongIsRightToLeft(after: k, in: range))
        let level = odd ? (current.level + 1) | 1 : (current.level + 2) & ~1
        if level <= Self.maxDepth, overflowIsolates == 0, overflowEmbeddings == 0 {
          validIsolates += 1
          stack.append(Status(level: level, override: nil, isolate: true))
        } else {
          overflowIsolates += 1
        }
      case Self.pdi:
        if overflowIsolates > 0 {
          overflowIsolates -= 1
        } else if validIsolates > 0 {
          overflowEmbeddings = 0
          while !stack[stack.count - 1].isolate { stack.removeLast() }
          stack.removeLast()
          validIsolates -= 1
        }
        let status = stack[stack.count - 1]
        resolved[k] = status.level
        if let override = status.override { types[k] = override }
      case Self.pdf:
        if overflowIsolates > 0 {
        } else if overflowEmbeddings > 0 {
          overflowEmbeddings -= 1
        } else if !current.isolate, stack.count >= 2 {
          stack.removeLast()
        }
        resolved[k] = current.level
        types[k] = Self.bn
      case Self.b:
        resolved[k] = paragraphLevel
      case Self.bn:
        resolved[k] = current.level
      default:
        resolved[k] = current.level
        if let override = current.override { types[k] = override }
      }
    }
  }

  /// W1–W7, N0–N2 and I1–I2 over the isolating run sequence in ``sequence``.
  private func resolveSequence(in range: Range<Int>, paragraphLevel: UInt8, pairsEveryBracket: Bool) -> Bool {
    let first = sequence[0]
    let last = sequence[sequenceCount - 1]
    let level = resolved[first]
    // sos and eos: the higher of the sequence's level and the level next to it, ignoring removed characters.
    var before = first - 1
    while before >= range.lowerBound, types[before] == Self.bn { before -= 1 }
    var after = last + 1
    while after < range.upperBound, types[after] == Self.bn { after += 1 }
    let levelBefore = before >= range.lowerBound ? explicitLevels[before] : paragraphLevel
    let levelAfter =
      after < range.upperBound && !Self.isIsolateInitiator(classes[last]) ? explicitLevels[after] : paragraphLevel
    let sos = max(level, levelBefore) & 1 == 1 ? Self.r : Self.l
    let eos = max(level, levelAfter) & 1 == 1 ? Self.r : Self.l
    let embedding = level & 1 == 1 ? Self.r : Self.l
    resolveWeakTypes(sos: sos)
    guard resolveBrackets(sos: sos, embedding: embedding, pairsEveryBracket: pairsEveryBracket) else { return false }
    resolveNeutrals(sos: sos, eos: eos, embedding: embedding)
    // I1, I2.
    for index in 0..<sequenceCount {
      let k = sequence[index]
      let type = types[k]
      if level & 1 == 0 {
        if type == Self.r {
          resolved[k] = level + 1
        } else if type == Self.an || type == Self.en {
          resolved[k] = level + 2
        }
      } else if type == Self.l || type == Self.en || type == Self.an {
        resolved[k] = level + 1
      }
    }
    return true
  }

  /// W1–W7.
  private func resolveWeakTypes(sos: UInt8) {
    let count = sequenceCount
    // W1–W3.
    var previous = sos
    var strong = sos
    for index in 0..<count {
      let k = sequence[index]
      var type = types[k]
      if type == Self.nsm {
        type =
          previous == Self.fsi || previous == Self.lri || previous == Self.rli || previous == Self.pdi
          ? Self.on : previous
      }
      previous = type
      switch type {
      case Self.l, Self.r: strong = type
      case Self.al:
        strong = Self.al
        type = Self.r
      case Self.en where strong == Self.al: type = Self.an
      default: break
      }
      types[k] = type
    }
    // W4.
    if count >= 3 {
      for index in 1..<count - 1 {
        let k = sequence[index]
        let type = types[k]
        guard type == Self.es || type == Self.cs else { continue }
        let before = types[sequence[index - 1]]
        let after = types[sequence[index + 1]]
        if before == Self.en, after == Self.en {
          types[k] = Self.en
        } else if type == Self.cs, before == Self.an, after == Self.an {
          types[k] = Self.an
        }
      }
    }
    // W5.
    var index = 0
    while index < count {
      guard types[sequence[index]] == Self.et else {
        index += 1
        continue
      }
      var end = index
      while end < count, types[sequence[end]] == Self.et { end += 1 }
      if (index > 0 && types[sequence[index - 1]] == Self.en) || (end < count && types[sequence[end]] == Self.en) {
        for at in index..<end { types[sequence[at]] = Self.en }
      }
      index = end
    }
    // W6, W7.
    strong = sos
    for index in 0..<sequenceCount {
      let k = sequence[index]
      switch types[k] {
      case Self.es, Self.et, Self.cs: types[k] = Self.on
      case Self.l, Self.r: strong = types[k]
      case Self.en where strong == Self.l: types[k] = Self.l
      default: break
      }
    }
  }

  /// The direction a class counts as for N0 and N1 (numbers as R), or nil for a neutral.
  private static func strongDirection(_ type: UInt8) -> UInt8? {
    switch type {
    case l: return l
    case r, en, an: return r
    default: return nil
    }
  }

  /// N0: the paired brackets (BD16, a stack of 63), in the order of their opening brackets.
  private func resolveBrackets(sos: UInt8, embedding: UInt8, pairsEveryBracket: Bool) -> Bool {
    var openers: [(key: UInt32, position: Int)] = []
    var pairs: [(open: Int, close: Int)] = []
    var unpaired = 0
    for index in 0..<sequenceCount {
      let k = sequence[index]
      let key = brackets[k]
      guard key != 0, types[k] == Self.on else { continue }
      if key & 1 == 1 {
        guard openers.count < 63 else {
          if pairsEveryBracket { return false }
          openers.removeAll()
          break
        }
        openers.append((key >> 1, index))
      } else if let match = openers.lastIndex(where: { $0.key == key >> 1 }) {
        pairs.append((openers[match].position, index))
        unpaired += openers.count - match - 1
        openers.removeSubrange(match...)
      } else {
        unpaired += 1
      }
    }
    if pairsEveryBracket, unpaired + openers.count > 0 { return false }
    guard !pairs.isEmpty else { return true }
    pairs.sort { $0.open < $1.open }
    for pair in pairs {
      var opposite = false
      var direction: UInt8?
      for index in pair.open + 1..<pair.close {
        guard let found = Self.strongDirection(types[sequence[index]]) else { continue }
        if found == embedding {
          direction = embedding
          break
        }
        opposite = true
      }
      if direction == nil, opposite {
        var context = sos
        for index in stride(from: pair.open - 1, through: 0, by: -1) {
          if let found = Self.strongDirection(types[sequence[index]]) {
            context = found
            break
          }
        }
        direction = context == embedding ? embedding : context
      }
      guard let direction else { continue }
      types[sequence[pair.open]] = direction
      types[sequence[pair.close]] = direction
    }
    return true
  }

  /// N1, N2: a stretch of neutrals between the same direction takes it (numbers count as R), the others the
  /// embedding direction.
  private func resolveNeutrals(sos: UInt8, eos: UInt8, embedding: UInt8) {
    let count = sequenceCount
    var index = 0
    while index < count {
      guard Self.strongDirection(types[sequence[index]]) == nil else {
        index += 1
        continue
      }
      var end = index
      while end < count, Self.strongDirection(types[sequence[end]]) == nil { end += 1 }
      let before = index == 0 ? sos : Self.strongDirection(types[sequence[index - 1]])!
      let after = end == count ? eos : Self.strongDirection(types[sequence[end]])!
      let direction = before == after ? before : embedding
      for at in index..<end { types[sequence[at]] = direction }
      index = end
    }
  }

  /// L1 as far as it needs no line: separators at the paragraph's level, and the spaces, isolate formatting
  /// characters and removed characters before them and at the paragraph's end; every other removed character
  /// takes the level of the character after it (as ICU gives it).
  private func resetSeparatorsAndTrailingSpaces(_ range: Range<Int>, paragraphLevel: UInt8) {
    var resetting = true
    for k in range.reversed() {
      let class_ = classes[k]
      if class_ == Self.s || class_ == Self.b {
        resolved[k] = paragraphLevel
        resetting = true
      } else if resetting, Self.isWhitespaceForL1(class_) {
        resolved[k] = paragraphLevel
      } else {
        resetting = false
        if types[k] == Self.bn { resolved[k] = k + 1 < range.upperBound ? resolved[k + 1] : paragraphLevel }
      }
    }
  }

  /// Whether L1 resets a class before a separator or at a line's end: WS, the isolate formatting characters, and
  /// what X9 removes (BN and the embeddings, overrides and their end).
  static func isWhitespaceForL1(_ class_: UInt8) -> Bool {
    switch class_ {
    case ws, fsi, lri, rli, pdi, bn, lre, lro, rle, rlo, pdf: return true
    default: return false
    }
  }
}
