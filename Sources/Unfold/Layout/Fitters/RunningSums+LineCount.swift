extension RunningSums {
  /// A paragraph's lines, one after the other: the line that starts with segment `first`, at running sum `base`,
  /// in the paragraph that ends with segment `last`, in the running sums that `Sums` reads.
  ///
  /// Each line's end depends on the line before, a chain of loads and comparisons that a processor cannot overlap with
  /// itself, only with another paragraph's.
  struct ParagraphLines<Sums: CountSums> {
    var first: Int
    var base: Sums.Sum
    var last: Int
    /// The width of a line less the gaps in the paragraph's sums: `base` plus this is a line's limit in the sums
    /// without gaps, which the width index reads.
    ///
    /// Read only for sums with gaps (``CountSums/hasGaps``): in the others it is the width, the same in every lane.
    var widthLessGaps: Sums.Sum

    /// The first line of the `k`th of the long paragraphs, in lines of `width`.
    @inline(__always)
    init(_ k: Int, of long: LongParagraphs.Buffers, _ runs: Buffers, width: Int) {
      (first, base) = (0, 0)
      let bounds = long.bounds[k]
      last = LongParagraphs.last(bounds)
      widthLessGaps = Sums.widthLessGaps(width, paragraph: long.indices[k])
      start(LongParagraphs.first(bounds), runs)
    }

    /// Moves to the line that starts with segment `next`, or when the paragraph ends before it, to the first line of
    /// the `k`th of the long paragraphs, with no branch: the figures of both are found, and selected.
    ///
    /// Returns 1 when it took that paragraph, 0 otherwise: whether a paragraph ends at a line is as hard to predict as
    /// the paragraphs' lengths. `k` is one of the long paragraphs.
    @inline(__always)
    mutating func advance(to next: Int, orTo k: Int, of long: LongParagraphs.Buffers, _ runs: Buffers, width: Int)
      -> Int
    {
      let ends = next > last
      let bounds = long.bounds[k]
      let nextFirst = LongParagraphs.first(bounds)
      let nextLast = LongParagraphs.last(bounds)
      last = ends ? nextLast : last
      if Sums.hasGaps {
        let nextWidthLessGaps = Sums.widthLessGaps(width, paragraph: long.indices[k])
        widthLessGaps = ends ? nextWidthLessGaps : widthLessGaps
      }
      start(ends ? nextFirst : next, runs)
      return ends ? 1 : 0
    }

    /// The first segment of the next line, after `last` when this line is the paragraph's last, in lines of
    /// `width`: ``lastFitting(_:from:before:upTo:lessGaps:)`` with fewer steps after each other (the limit without
    /// gaps in one addition; no guess raised to the line's first segment, since the segments before it fit and count
    /// as fitting).
    ///
    /// It is `first` or before it when the line's first segment does not fit (``fits(before:)``).
    @inline(__always)
    func next<Lookup: WidthIndexLookup>(_ runs: Buffers, width: Int, _ lookup: Lookup.Type) -> Int {
      let (guess, limit) = self.guess(runs, width: width, Lookup.self)
      let fitting = Sums.fitting(after: guess, runs, upTo: limit)
      let found = guess &+ fitting
      if fitting < 4 { return found &+ 1 }
      return searched(from: found, runs, upTo: limit)
    }

    /// ``next(_:width:_:)``, and the running sum where that line starts (``CountSums/line(after:_:upTo:)``): for the
    /// chains of a text's last paragraphs, which wait on each line's latency more than on its instructions.
    @inline(__always)
    func nextLine<Lookup: WidthIndexLookup>(_ runs: Buffers, width: Int, _ lookup: Lookup.Type) -> (
      next: Int, base: Sums.Sum
    ) {
      let (guess, limit) = self.guess(runs, width: width, Lookup.self)
      let (fitting, start) = Sums.line(after: guess, runs, upTo: limit)
      if fitting < 4 { return (guess &+ fitting &+ 1, start) }
      let next = searched(from: guess &+ 4, runs, upTo: limit)
      return (next, Sums.start(next, runs))
    }

    /// The line's limit in the sums, and the width index's guess for its last segment: that segment or up to a few
    /// before it.
    ///
    /// A guess past the paragraph (its limit reaches the next one's sums without gaps) counts none of the sums after
    /// it, or any number: the next line starts past `last` either way, which is all that a count asks.
    @inline(__always)
    private func guess<Lookup: WidthIndexLookup>(_ runs: Buffers, width: Int, _ lookup: Lookup.Type) -> (
      guess: Int, limit: Sums.Sum
    ) {
      let limit = base &+ Sums.Sum(truncatingIfNeeded: width)
      let limitLessGaps = Sums.hasGaps ? base &+ widthLessGaps : limit
      let cell = Lookup.cell(Int(truncatingIfNeeded: limitLessGaps) &>> runs.widthShift, runs)
      return (Int(runs.widthIndex[cell]) &- 1, limit)
    }

    /// The first segment of the next line when the four sums after the guess all fit, `found` the last of them: rare,
    /// where more segments than four share the index's cells around the line's end.
    ///
    /// A search in the same sums.
    @inline(__always)
    private func searched(from found: Int, _ runs: Buffers, upTo limit: Sums.Sum) -> Int {
      lastFitting(in: Sums.sums(runs), from: found, before: last &+ 1, upTo: limit, near: found) &+ 1
    }

    /// Moves to the line that starts with segment `next`, at running sum `base`.
    @inline(__always)
    mutating func start(_ next: Int, at base: Sums.Sum) {
      first = next
      self.base = base
    }

    /// Whether the line's first segment fits a line alone, once ``next(_:width:_:)`` found `next`: the segments up to
    /// the one before `next` fit, and the guess is at a segment that fits (one whose sum lies before the limit's cell
    /// of the width index), so the first fits if and only if `next` is past it.
    ///
    /// Asked after a line is found, off the chain of lines, with no load.
    @inline(__always)
    func fits(before next: Int) -> Bool { next > first }

    /// Moves to the line that starts with segment `next`.
    @inline(__always)
    mutating func start(_ next: Int, _ runs: Buffers) {
      first = next
      base = Sums.start(next, runs)
    }
  }

  /// The running sums that a count of lines reads: ``countSums`` (``CompactSums``), or for a text or a line too wide
  /// for them, ``contentEnds`` (``GappedSums``), twice their size, with gaps.
  protocol CountSums {
    associatedtype Sum: FixedWidthInteger
    /// The running sums, in their memory: `[k]` at the end of segment `k`'s content.
    static func sums(_ runs: Buffers) -> UnsafeBufferPointer<Sum>
    /// The running sum before segment `k`'s content, where a line that starts with it starts; `k` may be the
    /// segments' count, whose figure is any.
    static func start(_ k: Int, _ runs: Buffers) -> Sum
    /// ``fitting(after:_:upTo:)``, and the running sum where the segment after the last that fits starts (any when all
    /// four fit), found by the same comparisons rather than loaded after them.
    static func line(after guess: Int, _ runs: Buffers, upTo limit: Sum) -> (fitting: Int, start: Sum)
    /// `width` less the gaps of the sums of paragraph `paragraph`.
    static func widthLessGaps(_ width: Int, paragraph: Int) -> Sum
    /// Whether the sums hold gaps at hard breaks (otherwise ``widthLessGaps(_:paragraph:)`` is the width).
    static var hasGaps: Bool { get }
    /// How many of the four running sums after segment `guess` are at most `limit` (``RunningSums/fitting(_:upTo:)``).
    static func fitting(after guess: Int, _ runs: Buffers, upTo limit: Sum) -> Int
  }

  /// ``contentEnds``, of 8 bytes.
  enum GappedSums: CountSums {
    static var hasGaps: Bool { true }
    @inline(__always)
    static func sums(_ runs: Buffers) -> UnsafeBufferPointer<Int> { runs.contentEnds }
    @inline(__always)
    static func start(_ k: Int, _ runs: Buffers) -> Int {
      let k = min(k, runs.contentWidths.count &- 1)
      return runs.contentEnds[k] &- Int(runs.contentWidths[k])
    }
    @inline(__always)
    static func line(after guess: Int, _ runs: Buffers, upTo limit: Int) -> (fitting: Int, start: Int) {
      let fitting = fitting(after: guess, runs, upTo: limit)
      return (fitting, start(guess &+ fitting &+ 1, runs))
    }
    @inline(__always)
    static func widthLessGaps(_ width: Int, paragraph: Int) -> Int { width &- paragraph &* hardBreakGap }
    @inline(__always)
    static func fitting(after guess: Int, _ runs: Buffers, upTo limit: Int) -> Int {
      RunningSums.fitting(after: guess, runs, upTo: limit)
    }
  }

  /// ``countSums``, of 4 bytes, with no gaps.
  enum CompactSums: CountSums {
    static var hasGaps: Bool { false }
    /// The sums; with no gaps, they and a line's limit stay below 2²⁹, so a search compares them as they are.
    @inline(__always)
    static func sums(_ runs: Buffers) -> UnsafeBufferPointer<UInt32> { runs.countSums }
    @inline(__always)
    static func start(_ k: Int, _ runs: Buffers) -> UInt32 { runs.countStarts[k] }
    /// The start is one of the four after the guess's, chosen by the same comparisons as the count.
    ///
    /// The compiler makes the choice branches, which a processor predicts and runs ahead of, where the selections of
    /// ``RunningSums/fitting(_:upTo:)`` wait for the loads: for a chain that runs alone or beside one other, the
    /// better; for three side by side, which wait on their instructions and mispredictions, the worse.
    @inline(__always)
    static func line(after guess: Int, _ runs: Buffers, upTo limit: UInt32) -> (fitting: Int, start: UInt32) {
      let sums = runs.countSums.baseAddress.unsafelyUnwrapped + guess
      let starts = runs.countStarts.baseAddress.unsafelyUnwrapped + guess
      let (first, second, third, fourth) = (sums[1] <= limit, sums[2] <= limit, sums[3] <= limit, sums[4] <= limit)
      let fitting = second ? (fourth ? 4 : (third ? 3 : 2)) : (first ? 1 : 0)
      let start = second ? (third ? starts[4] : starts[3]) : (first ? starts[2] : starts[1])
      return (fitting, start)
    }
    @inline(__always)
    static func widthLessGaps(_ width: Int, paragraph: Int) -> UInt32 { UInt32(truncatingIfNeeded: width) }
    @inline(__always)
    static func fitting(after guess: Int, _ runs: Buffers, upTo limit: UInt32) -> Int {
      RunningSums.fitting(runs.countSums.baseAddress.unsafelyUnwrapped + guess, upTo: limit)
    }
  }

  /// The paragraphs of more than one segment, which a count of lines follows line by line: a paragraph of one
  /// segment (an empty line between paragraphs, a word alone) takes one line at any width that the segment fits,
  /// and is counted with no step of a chain.
  struct LongParagraphs: Sendable {
    /// The indices of the paragraphs of more than one segment (paragraph `p` is the one after the `p`th hard
    /// break), in order.
    let indices: [Int]
    /// The first and the last segment of each, in one number: `bounds[k]` holds those of paragraph `indices[k]`,
    /// the first in its low 32 bits, the last in its high 32 (``first(_:)``, ``last(_:)``).
    ///
    /// Read in one load, they reach a count's selection of a lane's next paragraph as registers: a selection with a
    /// load in it became a branch again (x86's `cmov` with a memory operand is made a branch).
    let bounds: [UInt64]
    /// The content width of the widest segment that is a paragraph alone (0 if there is none).
    let widestAlone: Int

    /// The paragraphs of a text whose plain segments have these content widths and end with mandatory breaks at
    /// these indices (``RunningSums/hardBreaks``).
    init(hardBreaks: [Int], contentWidths: [UInt32]) {
      let paragraphs = hardBreaks.count + 1
      var indices: [Int] = []
      var bounds: [UInt64] = []
      indices.reserveCapacity(paragraphs)  // (appended one by one, it grew by doubling)
      bounds.reserveCapacity(paragraphs)
      var widestAlone = 0
      var previousLast = -1  // the last segment of the paragraph before
      for paragraph in 0..<paragraphs {
        let last = paragraph < hardBreaks.count ? hardBreaks[paragraph] : contentWidths.count - 1
        if last - previousLast > 1 {
          indices.append(paragraph)
          bounds.append(UInt64(truncatingIfNeeded: previousLast + 1) | UInt64(truncatingIfNeeded: last) << 32)
        } else if last > previousLast {
          widestAlone = max(widestAlone, Int(contentWidths[last]))
        }
        previousLast = last
      }
      self.indices = indices
      self.bounds = bounds
      self.widestAlone = widestAlone
    }

    /// The arrays in their memory, as a count of lines reads them.
    struct Buffers {
      let indices: UnsafeBufferPointer<Int>
      let bounds: UnsafeBufferPointer<UInt64>
      /// The number of long paragraphs.
      var count: Int { indices.count }
    }

    /// The first segment of a paragraph whose ``bounds`` are `bounds`.
    @inline(__always)
    static func first(_ bounds: UInt64) -> Int { Int(truncatingIfNeeded: bounds & 0xFFFF_FFFF) }

    /// The last segment of a paragraph whose ``bounds`` are `bounds`.
    @inline(__always)
    static func last(_ bounds: UInt64) -> Int { Int(truncatingIfNeeded: bounds &>> 32) }

    /// Calls `body` with the arrays' memory.
    func withBuffers<Result>(_ body: (Buffers) -> Result) -> Result {
      indices.withUnsafeBufferPointer { indices in
        bounds.withUnsafeBufferPointer { body(Buffers(indices: indices, bounds: $0)) }
      }
    }
  }

  /// The number of lines of `width` that the segments take, counted from the running sums with no line made
  /// (``countLines(_:_:widestAlone:width:)``); `nil` when a fitter must place a line (a segment wider than it), or
  /// when the segments are too many for the paragraphs' bounds in 32 bits (``LongParagraphs/bounds``).
  func countLines(_ long: LongParagraphs, width: Int) -> Int? {
    guard starts.count < 1 << 32 else { return nil }
    let widestAlone = long.widestAlone
    return long.withBuffers { long in
      countSums.withUnsafeBufferPointer { countSums in
        withBuffers {
          var runs = $0
          let stride = countSums.count / 2
          runs.countSums = UnsafeBufferPointer(rebasing: countSums[..<stride])
          runs.countStarts = UnsafeBufferPointer(rebasing: countSums[stride...])
          return Self.countLines(runs, long, widestAlone: widestAlone, width: width)
        }
      }
    }
  }

  /// The number of lines of `width` that the segments before `end` take: a line for each paragraph of one segment,
  /// and the lines of the others (`long`, ``LongParagraphs/indices``) three paragraphs at a time, each of the three
  /// chains taking the next paragraph when its own is done, then the last ones two or one at a time, so that the
  /// processor overlaps their chains (Docs/PerformanceNotes.md, "Relayout and counting lines"); `nil` when a line starts with a segment wider than the line (which a fitter breaks), a paragraph alone
  /// among them when `widestAlone` is wider.
  static func countLines(_ runs: Buffers, _ long: LongParagraphs.Buffers, widestAlone: Int, width: Int) -> Int? {
    guard widestAlone <= width else { return nil }
    // A paragraph after each hard break: the text's last segment has none (its end is not a break opportunity).
    let alone = runs.hardBreaks.count &+ 1 &- long.count
    let unclamped = width &>> runs.widthShift <= indexPadding
    // Sums of 4 bytes where preparing made them and the line is narrow enough; otherwise those of 8.
    if !runs.countSums.isEmpty, width < countWidthLimit {
      return unclamped
        ? countLines(runs, long, alone: alone, width: width, UncheckedLookup.self, CompactSums.self)
        : countLines(runs, long, alone: alone, width: width, ClampedLookup.self, CompactSums.self)
    }
    return unclamped
      ? countLines(runs, long, alone: alone, width: width, UncheckedLookup.self, GappedSums.self)
      : countLines(runs, long, alone: alone, width: width, ClampedLookup.self, GappedSums.self)
  }

  /// How a line's limit finds its cell in the width index.
  protocol WidthIndexLookup {
    /// The cell for `value`, the limit without gaps shifted.
    static func cell(_ value: Int, _ runs: Buffers) -> Int
  }

  /// No higher than the index's last cell.
  enum ClampedLookup: WidthIndexLookup {
    @inline(__always)
    static func cell(_ value: Int, _ runs: Buffers) -> Int { min(value, runs.widthIndex.count &- 1) }
  }

  /// As it is, for a line no wider than ``indexPadding`` cells: a step fewer in each line's chain (the sum before
  /// a line is at most the total width, whose cell and the padding's end the line's limit cannot pass).
  enum UncheckedLookup: WidthIndexLookup {
    @inline(__always)
    static func cell(_ value: Int, _ runs: Buffers) -> Int { value }
  }

  /// ``countLines(_:_:widestAlone:width:)``, with the cells of the width index found as `Lookup` finds them,
  /// and `alone` lines of the paragraphs of one segment.
  private static func countLines<Lookup: WidthIndexLookup, Sums: CountSums>(
    _ runs: Buffers, _ long: LongParagraphs.Buffers, alone: Int, width: Int, _ lookup: Lookup.Type, _ sums: Sums.Type
  ) -> Int? {
    let paragraphs = long.count
    guard paragraphs > 0 else { return alone }
    var a = ParagraphLines<Sums>(0, of: long, runs, width: width)
    guard paragraphs > 1 else { return countAlone(a, lines: alone &+ 1, runs, width: width, Lookup.self) }
    var b = ParagraphLines<Sums>(1, of: long, runs, width: width)
    guard paragraphs > 2 else { return countTwo(a, b, lines: alone &+ 2, runs, width: width, Lookup.self) }
    var c = ParagraphLines<Sums>(2, of: long, runs, width: width)
    var paragraph = 3  // the next in `long` that none has taken
    var lines = alone &+ 3
    // While each of the three may take a paragraph in a step, each takes its next line or the next paragraph with
    // no branch (``ParagraphLines/advance(to:orTo:of:_:width:)``): a line either way.
    while paragraph &+ 2 < paragraphs {
      let aNext = a.next(runs, width: width, Lookup.self)
      let bNext = b.next(runs, width: width, Lookup.self)
      let cNext = c.next(runs, width: width, Lookup.self)
      guard a.fits(before: aNext), b.fits(before: bNext), c.fits(before: cNext) else { return nil }
      paragraph &+= a.advance(to: aNext, orTo: paragraph, of: long, runs, width: width)
      paragraph &+= b.advance(to: bNext, orTo: paragraph, of: long, runs, width: width)
      paragraph &+= c.advance(to: cNext, orTo: paragraph, of: long, runs, width: width)
      lines &+= 3
    }
    // The last paragraphs, each chain's line found with its start (``ParagraphLines/nextLine(_:width:_:)``): three
    // chains or fewer wait on their lines' latency.
    while true {
      let (aNext, aBase) = a.nextLine(runs, width: width, Lookup.self)
      let (bNext, bBase) = b.nextLine(runs, width: width, Lookup.self)
      let (cNext, cBase) = c.nextLine(runs, width: width, Lookup.self)
      guard a.fits(before: aNext), b.fits(before: bNext), c.fits(before: cNext) else { return nil }
      guard moveOn(&a, to: aNext, at: aBase, paragraph: &paragraph, of: long, runs, width: width) else {
        // None left for the first: the other two take their lines found in this step, and go on.
        let bGoes = bNext <= b.last
        let cGoes = cNext <= c.last
        if bGoes { b.start(bNext, at: bBase) }
        if cGoes { c.start(cNext, at: cBase) }
        lines &+= (bGoes ? 1 : 0) &+ (cGoes ? 1 : 0)
        return countRest(b, bGoes, c, cGoes, lines: lines, runs, width: width, Lookup.self)
      }
      lines &+= 1
      guard moveOn(&b, to: bNext, at: bBase, paragraph: &paragraph, of: long, runs, width: width) else {
        let cGoes = cNext <= c.last
        if cGoes {
          c.start(cNext, at: cBase)
          lines &+= 1
        }
        return countRest(a, true, c, cGoes, lines: lines, runs, width: width, Lookup.self)
      }
      lines &+= 1
      guard moveOn(&c, to: cNext, at: cBase, paragraph: &paragraph, of: long, runs, width: width) else {
        return countTwo(a, b, lines: lines, runs, width: width, Lookup.self)
      }
      lines &+= 1
    }
  }

  /// Moves `lane` to the line that starts with segment `next` at running sum `base`, or when its paragraph ends before
  /// it, to the first line of paragraph `long[paragraph]`, the next that no chain has taken; `false` when there is
  /// none left.
  @inline(__always)
  private static func moveOn<Sums: CountSums>(
    _ lane: inout ParagraphLines<Sums>, to next: Int, at base: Sums.Sum, paragraph: inout Int,
    of long: LongParagraphs.Buffers, _ runs: Buffers, width: Int
  ) -> Bool {
    if next <= lane.last {
      lane.start(next, at: base)
    } else if paragraph < long.count {
      lane = ParagraphLines<Sums>(paragraph, of: long, runs, width: width)
      paragraph &+= 1
    } else {
      return false
    }
    return true
  }

  /// The count once no paragraph is left, with the chains that go on (`aGoes`, `bGoes`) at lines not yet searched.
  private static func countRest<Lookup: WidthIndexLookup, Sums: CountSums>(
    _ a: ParagraphLines<Sums>, _ aGoes: Bool, _ b: ParagraphLines<Sums>, _ bGoes: Bool, lines: Int, _ runs: Buffers,
    width: Int, _ lookup: Lookup.Type
  ) -> Int? {
    switch (aGoes, bGoes) {
    case (true, true): return countTwo(a, b, lines: lines, runs, width: width, Lookup.self)
    case (true, false): return countAlone(a, lines: lines, runs, width: width, Lookup.self)
    case (false, true): return countAlone(b, lines: lines, runs, width: width, Lookup.self)
    case (false, false): return lines
    }
  }

  /// The count with two chains at lines not yet searched, the last paragraphs: `lines` started so far.
  private static func countTwo<Lookup: WidthIndexLookup, Sums: CountSums>(
    _ a: ParagraphLines<Sums>, _ b: ParagraphLines<Sums>, lines: Int, _ runs: Buffers, width: Int, _ lookup: Lookup.Type
  ) -> Int? {
    var a = a
    var b = b
    var lines = lines
    while true {
      let (aNext, aBase) = a.nextLine(runs, width: width, Lookup.self)
      let (bNext, bBase) = b.nextLine(runs, width: width, Lookup.self)
      guard a.fits(before: aNext), b.fits(before: bNext) else { return nil }
      let aGoes = aNext <= a.last
      let bGoes = bNext <= b.last
      if aGoes { a.start(aNext, at: aBase) }
      if bGoes { b.start(bNext, at: bBase) }
      lines &+= (aGoes ? 1 : 0) &+ (bGoes ? 1 : 0)
      if !aGoes || !bGoes { return countRest(a, aGoes, b, bGoes, lines: lines, runs, width: width, Lookup.self) }
    }
  }

  /// The count with one chain at a line not yet searched, the last paragraph.
  private static func countAlone<Lookup: WidthIndexLookup, Sums: CountSums>(
    _ a: ParagraphLines<Sums>, lines: Int, _ runs: Buffers, width: Int, _ lookup: Lookup.Type
  ) -> Int? {
    var a = a
    var lines = lines
    while true {
      let (next, base) = a.nextLine(runs, width: width, Lookup.self)
      guard a.fits(before: next) else { return nil }
      if next > a.last { return lines }
      a.start(next, at: base)
      lines &+= 1
    }
  }
}
