/// The order in which a terminal that draws cells as given (most of them) must receive a line that holds
/// right-to-left text: UAX #9's runs of one direction, resolved by ICU for the line at the paragraph's base
/// direction, laid out left to right (L2), each right-to-left run's clusters reversed and its mirrored characters
/// swapped (`(` for `)`, L4).
///
/// Lines are broken in logical order, as the browser breaks them; only the drawing of a line is reordered. Each
/// line is resolved on its own, at the paragraph's direction.
enum VisualOrder {
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

  /// Whether a text holds a code point that ``takesLevel(_:)``: a line of a left-to-right paragraph without one is
  /// drawn in logical order.
  static func holdsLevelChange(_ text: String) -> Bool {
    text.withUTF8Buffer { TextDirection.firstOffset(utf8: $0, from: 0, where: takesLevel) != nil }
  }

  /// A piece of a line drawn in one direction: the fragment it belongs to and its range in the fragment's
  /// text (one grapheme cluster when it fades, else any stretch of the fragment).
  struct Cluster {
    var fragment: Int
    var range: Range<String.Index>
    /// Whether it is drawn right to left (its characters mirrored).
    var isRightToLeft = false
  }

  /// The clusters of a fragment's text (or of a range of it), in logical order.
  static func clusters(of text: String, fragment: Int, in range: Range<String.Index>? = nil) -> [Cluster] {
    let range = range ?? text.startIndex..<text.endIndex
    var clusters: [Cluster] = []
    let characters = text[range]
    var start = characters.startIndex
    while start < characters.endIndex {
      let end = characters.index(after: start)
      clusters.append(Cluster(fragment: fragment, range: start..<end))
      start = end
    }
    return clusters
  }

  /// A piece of a line drawn in one direction: the fragment it belongs to and its UTF-8 range in the fragment's
  /// text.
  struct Piece {
    var fragment: Int
    var range: Range<Int>
    var isRightToLeft: Bool
  }

  /// The pieces of `line` in the order they are drawn left to right: a run's text a stretch per fragment, the
  /// fragments of a right-to-left run in reverse (``drawnRightToLeft(utf8:into:starts:)`` reverses each one's
  /// clusters).
  ///
  /// The runs are the resolver's (``LineResolver/runs(ofUTF8:direction:)``) over the fragments' bytes.
  static func pieces(of line: DisplayLine, direction: TextDirection, resolver: LineResolver) -> [Piece] {
    var bytes = resolver.lineBytes
    resolver.lineBytes = []
    defer { resolver.lineBytes = bytes }
    bytes.removeAll(keepingCapacity: true)
    var fragmentStarts: [Int] = []  // each fragment's byte offset in the line
    fragmentStarts.reserveCapacity(line.fragments.count)
    for fragment in line.fragments {
      fragmentStarts.append(bytes.count)
      bytes += fragment.text.utf8
    }
    let runs = bytes.withUnsafeBufferPointer { resolver.runs(ofUTF8: $0, direction: direction) }
    var visual: [Piece] = []
    for run in runs {
      // The run's part of each fragment it overlaps, in logical order, reversed for a right-to-left run.
      let first = visual.count
      for (index, fragmentStart) in fragmentStarts.enumerated() {
        let fragmentEnd = index + 1 < fragmentStarts.count ? fragmentStarts[index + 1] : bytes.count
        let lower = max(run.range.lowerBound, fragmentStart)
        let upper = min(run.range.upperBound, fragmentEnd)
        guard lower < upper else { continue }
        visual.append(
          Piece(fragment: index, range: lower - fragmentStart..<upper - fragmentStart, isRightToLeft: run.isRightToLeft)
        )
      }
      if run.isRightToLeft { visual[first...].reverse() }
    }
    return visual
  }

  /// ``pieces(of:direction:resolver:)`` as clusters of the fragments' text (for characters that fade one by one).
  static func clusters(of line: DisplayLine, direction: TextDirection, resolver: LineResolver) -> [Cluster] {
    pieces(of: line, direction: direction, resolver: resolver).map { piece in
      let text = line.fragments[piece.fragment].text
      let from = text.utf8.index(text.startIndex, offsetBy: piece.range.lowerBound)
      let to = text.utf8.index(from, offsetBy: piece.range.count)
      return Cluster(fragment: piece.fragment, range: from..<to, isRightToLeft: piece.isRightToLeft)
    }
  }

  /// A stretch of a line drawn in one direction: its byte range in the line and whether it is drawn right to left.
  struct Run: Equatable, Sendable {
    var range: Range<Int>
    var isRightToLeft: Bool
  }

  /// Resolves the direction runs of the lines of one rendering, reusing its buffers and its ICU bidi object from
  /// line to line (see <doc:TerminalOutput>).
  final class LineResolver {
    private let bidi = Bidi.Lines()
    private var units: [UInt16] = []
    private var offsets: [Int] = []  // the byte offset of each UTF-16 unit's character
    private var starts: [Int32] = []
    private var lengths: [Int32] = []
    private var rightToLeft: [UInt8] = []
    /// Room for the bytes of a right-to-left piece as drawn, and for the starts of its clusters
    /// (``withDrawnRightToLeft(_:_:)``).
    private var drawn: [UInt8] = []
    private var clusterStarts: [Int] = []
    /// Room for the bytes of a drawn line's fragments (``VisualOrder/pieces(of:direction:resolver:)``).
    var lineBytes: [UInt8] = []
    /// The simple path's buffers (``simpleRuns(ofUTF8:direction:)``), `capacity` characters each: owned here and
    /// read without bounds checks, since every index stays below the count the classes were written for.
    private var capacity = 0
    private var classes: UnsafeMutablePointer<UInt8>?
    private var classOffsets: UnsafeMutablePointer<Int32>?
    private var brackets: UnsafeMutablePointer<UInt32>?
    private var levels: UnsafeMutablePointer<UInt8>?

    deinit {
      classes?.deallocate()
      classOffsets?.deallocate()
      brackets?.deallocate()
      levels?.deallocate()
    }

    /// The direction runs of a line's UTF-8 bytes in the order they are drawn left to right: their byte ranges
    /// in the line, and whether each is drawn right to left: ``simpleRuns(ofUTF8:direction:)`` when the line's
    /// classes allow, else ICU's (``icuRuns(ofUTF8:direction:)``).
    ///
    /// Hands `body` the bytes of a right-to-left piece as drawn (``VisualOrder/drawnRightToLeft(utf8:into:starts:)``),
    /// in room reused from piece to piece.
    func withDrawnRightToLeft<Result>(
      _ piece: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
      VisualOrder.drawnRightToLeft(utf8: piece, into: &drawn, starts: &clusterStarts)
      return drawn.withUnsafeBufferPointer(body)
    }

    func runs(ofUTF8 line: UnsafeBufferPointer<UInt8>, direction: TextDirection) -> [Run] {
      visualRuns(ofUTF8: line, direction: direction) ?? [Run(range: 0..<line.count, isRightToLeft: false)]
    }

    /// ``runs(ofUTF8:direction:)``, or nil for a line of a left-to-right paragraph that is drawn in logical order
    /// (it holds no character that takes a level above 0).
    func visualRuns(ofUTF8 line: UnsafeBufferPointer<UInt8>, direction: TextDirection) -> [Run]? {
      guard direction == .ltr else {
        return simpleRuns(ofUTF8: line, direction: direction) ?? icuRuns(ofUTF8: line, direction: direction)
      }
      return leftToRightRuns(ofUTF8: line)
    }

    /// The direction runs of a line of a left-to-right paragraph, resolved only where right-to-left text stands:
    /// from each character that may take a level above 0 (R, AL, AN, a bidi control) up to the next character of
    /// class L, after which the context is left to right again and what follows resolves as if the line started
    /// there (a test compares the runs with the whole line's).
    ///
    /// Everything else is at level 0. Nil when the line holds no such character; the whole line's resolution when a
    /// stretch is not simple.
    func leftToRightRuns(ofUTF8 line: UnsafeBufferPointer<UInt8>) -> [Run]? {
      guard var next = TextDirection.firstOffset(utf8: line, from: 0, where: VisualOrder.takesLevel) else { return nil }
      var runs: [Run] = []
      runs.reserveCapacity(8)
      var logical = 0  // where the left-to-right stretch before the next island starts
      while true {
        if logical < next { Self.append(Run(range: logical..<next, isRightToLeft: false), joiningTo: &runs) }
        guard let end = appendIslandRuns(ofUTF8: line, from: next, to: &runs) else {
          return simpleRuns(ofUTF8: line, direction: .ltr) ?? icuRuns(ofUTF8: line, direction: .ltr)
        }
        logical = end
        guard end < line.count,
          let found = TextDirection.firstOffset(utf8: line, from: end, where: VisualOrder.takesLevel)
        else { break }
        next = found
      }
      if logical < line.count { Self.append(Run(range: logical..<line.count, isRightToLeft: false), joiningTo: &runs) }
      return runs
    }

    /// Appends to `runs` the runs, in visual order, of the stretch of `line` from `start` up to its next character
    /// of class L after the first, resolved as a line of a left-to-right paragraph; the stretch's end, or nil when
    /// it is not simple.
    private func appendIslandRuns(ofUTF8 line: UnsafeBufferPointer<UInt8>, from start: Int, to runs: inout [Run])
      -> Int?
    {
      // A boundary neutral before the stretch takes the level of its first character (as ICU gives it), and a
      // bracket that pairs with one outside it resolves by what lies between them (N0): such stretches are not
      // resolved alone.
      guard start == 0 || !Self.endsWithBoundaryNeutral(UnsafeBufferPointer(rebasing: line[..<start])) else {
        return nil
      }
      return appendResolvedRuns(
        of: UnsafeBufferPointer(rebasing: line[start...]), shift: start, direction: .ltr, isStretch: true, to: &runs
      ).map { start + $0 }
    }

    /// Classifies and resolves `text` (a whole line, or with `isStretch` the stretch up to its next character of
    /// class L after the first, whose brackets must pair among themselves) and appends its runs in visual order to
    /// `runs`, their ranges moved by `shift`; the length resolved, or nil when the text is not simple.
    private func appendResolvedRuns(
      of text: UnsafeBufferPointer<UInt8>, shift: Int, direction: TextDirection, isStretch: Bool,
      to runs: inout [Run]
    ) -> Int? {
      guard !text.isEmpty, text.count < Int(Int32.max) else { return nil }
      reserve(text.count)
      guard let t = classes, let offsets = classOffsets, let brackets, let levels else { return nil }
      var stop = Int32(text.count)
      let count = withUnsafeMutablePointer(to: &stop) { stop in
        Bidi.simpleClasses(
          ofUTF8: text, classes: t, offsets: offsets, brackets: brackets, stop: isStretch ? stop : nil)
      }
      guard count > 0,
        Self.resolve(
          t: t, brackets: brackets, levels: levels, count: count, paragraphLevel: direction == .rtl ? 1 : 0,
          embedding: direction == .rtl ? Self.r : Self.l, pairsEveryBracket: isStretch)
      else { return nil }
      appendVisualRuns(levels: levels, offsets: offsets, count: count, byteCount: Int(stop), shift: shift, to: &runs)
      return Int(stop)
    }

    // ICU's UCharDirection values of the classes a simple line holds.
    private static let (l, r, en, es, et, an, cs, ws, on, al, nsm):
      (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 1, 2, 3, 4, 5, 6, 9, 10, 13, 17)

    /// UAX #9 for a line that is one isolating run sequence at the paragraph's level: every character strong
    /// (L, R, AL), a number (EN, AN), a number separator or terminator (ES, CS, ET), a space (WS), a mark (NSM),
    /// another neutral (ON, paired brackets among them) or a boundary neutral inside the line, as ICU classes them
    /// (``Bidi/simpleClasses(ofUTF8:classes:offsets:brackets:stop:)``).
    ///
    /// Rules X9, W1–W7, N0–N2, I1–I2, L1 and L2 as UAX #9 states them; nil for any other line, and for one whose
    /// brackets nest deeper than BD16's stack. A test compares the runs with ICU's for thousands of random lines.
    func simpleRuns(ofUTF8 line: UnsafeBufferPointer<UInt8>, direction: TextDirection) -> [Run]? {
      var runs: [Run] = []
      runs.reserveCapacity(8)
      guard appendResolvedRuns(of: line, shift: 0, direction: direction, isStretch: false, to: &runs) != nil else {
        return nil
      }
      return runs
    }

    /// Room for the classes of `count` characters.
    private func reserve(_ count: Int) {
      guard capacity < count else { return }
      classes?.deallocate()
      classOffsets?.deallocate()
      brackets?.deallocate()
      levels?.deallocate()
      capacity = max(count, 256)
      classes = .allocate(capacity: capacity)
      classOffsets = .allocate(capacity: capacity)
      brackets = .allocate(capacity: capacity)
      levels = .allocate(capacity: capacity)
    }

    /// Rules W1–W7, N0–N2, I1–I2 and L1 over the classes `t` of a line of `count` characters, writing each one's
    /// level into `levels`; `embedding` is the class of the paragraph's direction (sos and eos).
    ///
    /// False when the brackets nest deeper than BD16 follows.
    private static func resolve(
      t: UnsafeMutablePointer<UInt8>, brackets: UnsafeMutablePointer<UInt32>, levels: UnsafeMutablePointer<UInt8>,
      count: Int, paragraphLevel: UInt8, embedding: UInt8, pairsEveryBracket: Bool = false
    ) -> Bool {
      let (l, r, ws) = (Self.l, Self.r, Self.ws)
      // L1 reads the classes as given: the spaces that end the line.
      var trailing = count
      while trailing > 0, t[trailing - 1] == ws { trailing -= 1 }
      let (holdsNumbers, holdsBrackets) = resolveMarksAndArabicLetters(
        t: t, brackets: brackets, count: count, embedding: embedding)
      if holdsNumbers { resolveSeparatorsAndTerminators(t: t, count: count) }
      resolveNeutralSeparatorsAndEuropeanNumbers(t: t, count: count, embedding: embedding)
      if holdsBrackets {
        guard
          resolveBrackets(
            t: t, brackets: brackets, count: count, embedding: embedding, pairsEveryBracket: pairsEveryBracket)
        else {
          return false
        }
      }
      resolveNeutrals(t: t, count: count, embedding: embedding)
      // I1, I2 and L1.
      for k in 0..<count {
        if k >= trailing {
          levels[k] = paragraphLevel
        } else if paragraphLevel == 0 {
          levels[k] = t[k] == l ? 0 : t[k] == r ? 1 : 2
        } else {
          levels[k] = t[k] == r ? 1 : 2
        }
      }
      return true
    }

    /// W1–W3, and whether the line holds numbers (for W4 and W5) and brackets (for N0).
    ///
    /// W1: a mark takes the class of what precedes it (its class before W2 and W3); W2, W3: a European number
    /// after Arabic letters is an Arabic number, and AL is R.
    @inline(__always)
    private static func resolveMarksAndArabicLetters(
      t: UnsafeMutablePointer<UInt8>, brackets: UnsafeMutablePointer<UInt32>, count: Int, embedding: UInt8
    ) -> (holdsNumbers: Bool, holdsBrackets: Bool) {
      let (l, r, en, an, on, al, nsm) = (Self.l, Self.r, Self.en, Self.an, Self.on, Self.al, Self.nsm)
      var previous = embedding
      var strong = embedding
      var holdsNumbers = false
      var holdsBrackets = false
      for i in 0..<count {
        var class_ = t[i]
        if class_ == nsm { class_ = previous }
        previous = class_
        switch class_ {
        case l, r: strong = class_
        case al:
          strong = al
          class_ = r
        case en:
          holdsNumbers = true
          if strong == al { class_ = an }
        case an: holdsNumbers = true
        case on: holdsBrackets = holdsBrackets || brackets[i] != 0
        default: break
        }
        t[i] = class_
      }
      return (holdsNumbers, holdsBrackets)
    }

    /// W4 and W5, for a line that holds numbers.
    ///
    /// W4: one separator between two numbers of a kind joins them; W5: terminators next to a European number
    /// are one.
    @inline(__always)
    private static func resolveSeparatorsAndTerminators(t: UnsafeMutablePointer<UInt8>, count: Int) {
      let (en, es, et, an, cs) = (Self.en, Self.es, Self.et, Self.an, Self.cs)
      if count >= 3 {
        for i in 1..<count - 1 {
          if t[i] == es, t[i - 1] == en, t[i + 1] == en {
            t[i] = en
          } else if t[i] == cs, t[i - 1] == t[i + 1], t[i - 1] == en || t[i - 1] == an {
            t[i] = t[i - 1]
          }
        }
      }
      var i = 0
      while i < count {
        guard t[i] == et else {
          i += 1
          continue
        }
        var end = i
        while end < count, t[end] == et { end += 1 }
        if (i > 0 && t[i - 1] == en) || (end < count && t[end] == en) {
          for k in i..<end { t[k] = en }
        }
        i = end
      }
    }

    /// W6 and W7.
    ///
    /// W6: the other separators and terminators are neutral; W7: a European number after L (or at the start
    /// of a left-to-right paragraph) is L.
    @inline(__always)
    private static func resolveNeutralSeparatorsAndEuropeanNumbers(
      t: UnsafeMutablePointer<UInt8>, count: Int, embedding: UInt8
    ) {
      let (l, r, en, es, et, cs, on) = (Self.l, Self.r, Self.en, Self.es, Self.et, Self.cs, Self.on)
      var strong = embedding
      for k in 0..<count {
        switch t[k] {
        case es, cs, et: t[k] = on
        case l, r: strong = t[k]
        case en where strong == l: t[k] = l
        default: break
        }
      }
    }

    /// N1, N2: neutrals between the same direction take it (numbers count as R), the others the paragraph's.
    @inline(__always)
    private static func resolveNeutrals(t: UnsafeMutablePointer<UInt8>, count: Int, embedding: UInt8) {
      let (l, r, ws, on) = (Self.l, Self.r, Self.ws, Self.on)
      var i = 0
      while i < count {
        guard t[i] == ws || t[i] == on else {
          i += 1
          continue
        }
        var end = i
        while end < count, t[end] == ws || t[end] == on { end += 1 }
        let before = i == 0 ? embedding : (t[i - 1] == l ? l : r)
        let after = end == count ? embedding : (t[end] == l ? l : r)
        let resolved = before == after ? before : embedding
        for k in i..<end { t[k] = resolved }
        i = end
      }
    }

    /// N0: the paired brackets (BD16, a stack of 63) in the order of their opening brackets take the paragraph's
    /// direction when a strong character inside them has it; else the other direction when one inside has it and
    /// so does the first strong character before them (or sos); else they stay neutral.
    ///
    /// A mark after a bracket keeps the class W1 gave it, as ICU (and so the browser) leaves it, though N0 would have
    /// it follow the bracket. False when the stack overflows.
    private static func resolveBrackets(
      t: UnsafeMutablePointer<UInt8>, brackets: UnsafeMutablePointer<UInt32>, count: Int, embedding: UInt8,
      pairsEveryBracket: Bool
    ) -> Bool {
      let (l, r, on) = (Self.l, Self.r, Self.on)
      var openers: [(key: UInt32, position: Int)] = []
      var pairs: [(open: Int, close: Int)] = []
      var unpaired = 0
      for i in 0..<count where t[i] == on && brackets[i] != 0 {
        let key = brackets[i] >> 1
        if brackets[i] & 1 == 1 {
          guard openers.count < 63 else { return false }
          openers.append((key, i))
        } else if let match = openers.lastIndex(where: { $0.key == key }) {
          pairs.append((openers[match].position, i))
          unpaired += openers.count - match - 1
          openers.removeSubrange(match...)
        } else {
          unpaired += 1
        }
      }
      if pairsEveryBracket, unpaired + openers.count > 0 { return false }
      pairs.sort { $0.open < $1.open }
      // The direction of a strong class for N0 (numbers count as R), or nil for a neutral.
      func direction(_ class_: UInt8) -> UInt8? { class_ == l ? l : class_ == on || class_ == Self.ws ? nil : r }
      for pair in pairs {
        var opposite = false
        var resolved: UInt8?
        for k in pair.open + 1..<pair.close {
          guard let found = direction(t[k]) else { continue }
          if found == embedding {
            resolved = embedding
            break
          }
          opposite = true
        }
        if resolved == nil, opposite {
          var before = embedding
          var k = pair.open - 1
          while k >= 0 {
            if let found = direction(t[k]) {
              before = found
              break
            }
            k -= 1
          }
          resolved = before == embedding ? embedding : before
        }
        guard let resolved else { continue }
        t[pair.open] = resolved
        t[pair.close] = resolved
      }
      return true
    }

    /// Appends to `output` the runs of one level, after L2 (from the highest level to the lowest odd one, every
    /// stretch of runs at that level or above reversed), their ranges moved by `shift`, neighbours of one direction
    /// that follow on in the text joined (to what `output` ends with too).
    ///
    /// The runs of one level are gathered in `levelRuns`, reused from line to line.
    private func appendVisualRuns(
      levels: UnsafeMutablePointer<UInt8>, offsets: UnsafeMutablePointer<Int32>, count: Int, byteCount: Int,
      shift: Int = 0, to output: inout [Run]
    ) {
      var runs = levelRuns
      levelRuns = []
      defer { levelRuns = runs }
      runs.removeAll(keepingCapacity: true)
      var start = 0
      var highest: UInt8 = 0
      var lowestOdd: UInt8 = .max
      for k in 1...count where k == count || levels[k] != levels[start] {
        let level = levels[start]
        runs.append((Int(offsets[start])..<(k == count ? byteCount : Int(offsets[k])), level))
        highest = max(highest, level)
        if level & 1 == 1 { lowestOdd = min(lowestOdd, level) }
        start = k
      }
      if highest >= lowestOdd {
        for level in stride(from: highest, through: lowestOdd, by: -1) {
          var index = 0
          while index < runs.count {
            guard runs[index].level >= level else {
              index += 1
              continue
            }
            var end = index
            while end < runs.count, runs[end].level >= level { end += 1 }
            runs[index..<end].reverse()
            index = end
          }
        }
      }
      for run in runs {
        let range = shift + run.range.lowerBound..<shift + run.range.upperBound
        Self.append(Run(range: range, isRightToLeft: run.level & 1 == 1), joiningTo: &output)
      }
    }

    private var levelRuns: [(range: Range<Int>, level: UInt8)] = []

    /// Whether the last code point of UTF-8 `bytes` is a boundary neutral (ICU's class BN: joiners, the soft
    /// hyphen, controls, tags).
    private static func endsWithBoundaryNeutral(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      var start = bytes.count - 1
      while start > 0, bytes.count - start < 4, bytes[start] & 0xC0 == 0x80 { start -= 1 }
      guard start >= 0 else { return false }
      let (value, _) = UnsafeBufferPointer(rebasing: bytes[start...]).decodeScalar(at: 0)
      return Bidi.isBoundaryNeutral(value)
    }

    /// Appends `run` to `runs`, or joins it to the last run when both are of one direction and follow on in it
    /// (levels 0 and 2 of a number in left-to-right text draw as one run; ICU joins some such runs, not all).
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

    /// ICU's direction runs of a line (see ``runs(ofUTF8:direction:)``); the whole line, left to right, when ICU
    /// cannot resolve it.
    func icuRuns(ofUTF8 line: UnsafeBufferPointer<UInt8>, direction: TextDirection) -> [Run] {
      // The arrays are moved out and back: a class's stored property is checked for exclusive access at every
      // use, two appends a character.
      var units = self.units
      var offsets = self.offsets
      var starts = self.starts
      var lengths = self.lengths
      var rightToLeft = self.rightToLeft
      (self.units, self.offsets, self.starts, self.lengths, self.rightToLeft) = ([], [], [], [], [])
      defer {
        (self.units, self.offsets, self.starts, self.lengths, self.rightToLeft) = (
          units, offsets, starts, lengths, rightToLeft
        )
      }
      units.removeAll(keepingCapacity: true)
      offsets.removeAll(keepingCapacity: true)
      GraphemeReader.appendUTF16(of: line, to: &units, offsets: &offsets)
      let whole = [Run(range: 0..<line.count, isRightToLeft: false)]
      guard !units.isEmpty, units.count < Int(Int32.max) else { return whole }
      let capacity = units.count
      if starts.count < capacity {
        starts = [Int32](repeating: 0, count: capacity)
        lengths = [Int32](repeating: 0, count: capacity)
        rightToLeft = [UInt8](repeating: 0, count: capacity)
      }
      let count = units.withUnsafeBufferPointer { text in
        bidi.runs(
          ofUTF16: text, base: direction == .rtl ? 1 : 0, starts: &starts, lengths: &lengths,
          rightToLeft: &rightToLeft, capacity: capacity)
      }
      guard count > 0 else { return whole }
      return (0..<Int(count)).map { run in
        let start = Int(starts[run])
        let end = start + Int(lengths[run])
        return Run(
          range: offsets[start]..<(end == units.count ? line.count : offsets[end]), isRightToLeft: rightToLeft[run] != 0
        )
      }
    }
  }

  /// The UTF-8 bytes of a right-to-left piece as drawn (``drawn(_:isRightToLeft:)``), written to `output`
  /// (emptied first): read from the bytes, its clusters found by the tables when every character is
  /// grapheme-simple or a plain mark after a base that takes it, copied whole in reverse order, and rebuilt only
  /// when one may mirror, not through `String` and `Character` (Docs/PerformanceNotes.md, "Right-to-left text in
  /// the terminal").
  static func drawnRightToLeft(utf8 piece: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    var starts: [Int] = []
    drawnRightToLeft(utf8: piece, into: &output, starts: &starts)
  }

  /// ``drawnRightToLeft(utf8:into:)`` with room for the clusters' starts, reused from piece to piece.
  static func drawnRightToLeft(utf8 piece: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], starts: inout [Int])
  {
    output.removeAll(keepingCapacity: true)
    starts.removeAll(keepingCapacity: true)
    var takesMarks = false
    var mirrors = false
    var index = 0
    while index < piece.count {
      let (value, length) = piece.decodeScalar(at: index)
      let raw = value < 0x80 ? 0 : UnicodeTables.lookUp(value)
      if UnicodeProperties.isGraphemeSimple(raw, value) {
        starts.append(index)
        takesMarks = UnicodeProperties.takesPlainMarks(raw, value)
      } else if !(takesMarks && UnicodeProperties.isPlainMark(raw, value)) {
        // Other text: its clusters as Swift's `Character` finds them.
        for character in String(decoding: piece, as: UTF8.self).reversed() {
          for scalar in character.unicodeScalars { appendMirrored(scalar.value, to: &output) }
        }
        return
      }
      mirrors = mirrors || mayMirror(value)
      index += length
    }
    guard !mirrors else {
      var end = piece.count
      for start in starts.reversed() {
        var at = start
        while at < end {
          let (value, length) = piece.decodeScalar(at: at)
          appendMirrored(value, to: &output)
          at += length
        }
        end = start
      }
      return
    }
    // The clusters copied in reverse into room made once, not appended one by one.
    output.append(contentsOf: repeatElement(0, count: piece.count))
    output.withUnsafeMutableBufferPointer { output in
      guard let target = output.baseAddress, let source = piece.baseAddress else { return }
      var end = piece.count
      var written = 0
      for start in starts.reversed() {
        (target + written).update(from: source + start, count: end - start)
        written += end - start
        end = start
      }
    }
  }

  /// Pieces split into their clusters in the order they are drawn (for characters that fade one by one).
  static func splitIntoClusters(_ pieces: some Collection<Cluster>, of fragment: Fragment) -> [Cluster] {
    pieces.flatMap { piece -> [Cluster] in
      var clusters = clusters(of: fragment.text, fragment: piece.fragment, in: piece.range)
      guard piece.isRightToLeft else { return clusters }
      for index in clusters.indices { clusters[index].isRightToLeft = true }
      return clusters.reversed()
    }
  }

  /// A piece's characters as drawn: drawn right to left, its clusters in reverse order (each one's own
  /// characters in order) and mirrored (``drawnRightToLeft(utf8:into:)``).
  static func drawn(_ characters: Substring, isRightToLeft: Bool) -> Substring {
    guard isRightToLeft else { return characters }
    var text = String(characters)
    var output: [UInt8] = []
    text.withUTF8 { drawnRightToLeft(utf8: $0, into: &output) }
    return Substring(String(decoding: output, as: UTF8.self))
  }

  /// Appends the UTF-8 of a code point drawn right to left: its mirror image (`)` for `(`), or itself.
  private static func appendMirrored(_ value: UInt32, to output: inout [UInt8]) {
    let scalar = Unicode.Scalar(Bidi.mirror(value)) ?? Unicode.Scalar(value) ?? "\u{FFFD}"
    output.append(contentsOf: UTF8.encode(scalar)!)
  }

  /// Whether a character may have a mirror image (Bidi_Mirrored): the ASCII and Latin-1 brackets and
  /// quotes, Tibetan and Ogham brackets, and characters from U+2000 on (punctuation, mathematical symbols,
  /// CJK brackets): every mirrored character below U+2000 is listed.
  private static func mayMirror(_ value: UInt32) -> Bool {
    switch value {
    case 0x28, 0x29, 0x3C, 0x3E, 0x5B, 0x5D, 0x7B, 0x7D, 0xAB, 0xBB, 0xF3A...0xF3D, 0x169B, 0x169C: return true
    case 0x2000...: return true
    default: return false
    }
  }
}
