/// The one door to line layout: every caller that wants lines (``LineLayout``, ``PreparedText``, the truncator,
/// the expanded terminal writer, the checks) asks here, and the door chooses the fitter.
///
/// The rule they all apply is stated once, in ``FitRule``, and in its plainest form in ``ReferenceLayout``, the oracle.
///
/// | Entry | Fitter | When | Tied to the reference by |
/// | --- | --- | --- | --- |
/// | ``lines(_:measurer:breaker:width:lineLimit:recordsBreakOffsets:)`` | ``SegmentFitter/addAll(_:)``, a window of segments at a time | no line limit | `Invariants.referenceViolation` |
/// | same | ``SegmentFitter/add(_:lineLimit:)``, a segment at a time | a line limit: stops as soon as it is passed | `Invariants.referenceViolation` |
/// | same | one line, from the code points' cells (`oneLine`) | no break offsets, a short text in cells that fits, no break mandatory | `LayoutTests.aShortTextOnOneLineIsTheFittersLine` |
/// | ``lines(of:width:lineLimit:)`` | `RunningSums.fill`, a line at a time from the running sums | every segment plain, an exact measurer | `Invariants.relayoutViolation` |
/// | same | ``SegmentFitter/place(_:_:lineLimit:)``: runs of plain segments by their sums, the others one by one | any other prepared text | `Invariants.relayoutViolation` |
/// | ``lineCount(of:width:lineLimit:)`` | `RunningSums.countLines`, three paragraphs' chains at a time | as `fill`, when no limit is likely to stop it early | `Invariants.relayoutViolation` |
/// | same | `fill` or `place` into a counter | otherwise | `Invariants.relayoutViolation` |
/// | ``stream(_:measurer:breaker:width:)`` | ``CellStream``: clusters added up, opportunities decided only where a line ends | legacy cells, Unicode rules, no tab or soft hyphen | `Invariants.lazyStreamViolation` |
/// | same | ``SegmentStream``: ``SegmentFitter/addAll(_:)`` a window at a time, lines handed out and forgotten | otherwise | `Invariants.referenceViolation` |
///
/// The tests run these checks over generated texts (`LayoutTests`), and the layout fuzzer over mutated ones.
/// Nested layouts (a list item's text in the width left after its marker) call the same entries with their width.
enum Layout {
  /// The line limit as the fitters take it: at least 1, and `Int.max` for none (a count of lines reports one above
  /// it, so it stays below `Int.max`).
  static func limit(_ lineLimit: Int?) -> Int { lineLimit.map { min(max(1, $0), Int.max - 1) } ?? Int.max }

  /// The lines of `text` at `width`, measured as they are placed; with a `lineLimit`, the layout stops as soon as
  /// it knows that the text needs more lines.
  ///
  /// Without `recordsBreakOffsets`, the lines' break offsets stay empty.
  static func lines(
    _ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: LineWidth, lineLimit: Int?,
    recordsBreakOffsets: Bool = true
  ) -> LineLayout {
    if !recordsBreakOffsets, let line = oneLine(text, measurer: measurer, width: width) {
      return LineLayout(
        text: text, measurer: measurer, breaker: breaker, width: width.units, lines: [line], isComplete: true)
    }
    var segments = Segmenter(text, measurer: measurer, breaker: breaker)
    var fitter = SegmentFitter(
      text: text, measurer: measurer, width: width, recordsBreakOffsets: recordsBreakOffsets)
    let limit = limit(lineLimit)
    var isComplete = true
    if lineLimit == nil {
      while segments.nextWindow({ fitter.addAll($0) }) {}
    } else {
      while let segment = segments.next() {
        guard fitter.add(segment, lineLimit: limit) else {
          isComplete = false
          break
        }
      }
    }
    return fitter.layout(breaker: breaker, lineLimit: limit, isComplete: isComplete, breakOffsets: fitter.breakOffsets)
  }

  /// The one line of a short text in cells that fits `width`, holds no break that is mandatory or depends on where it
  /// falls, and ends in no space: what the segmenter and the fitter find, found without setting them up, which took
  /// about 23,000 instructions for a table's cell of a dozen characters.
  ///
  /// Printable ASCII is a cell a byte; other text only in the legacy profile, whose width is its code points' (no
  /// cluster decides it), and without a control, a tab, a soft hyphen, a zero width space or joiner, or a line or
  /// paragraph separator. `nil` for any other text, or a text longer than 256 bytes.
  private static func oneLine(_ text: StyledText, measurer: any TextMeasurer, width: LineWidth) -> LineLayout.Line? {
    let count = text.string.utf8.count
    guard count > 0, count <= 256, measurer.unit == .cells else { return nil }
    var total = 0
    var isLegacy: Bool?  // asked at the first code point past ASCII
    var last: UInt32 = 0  // the last code point read
    let limit = width.units  // a text wider is left as soon as it is known to be (a paragraph, mostly)
    let fits = text.string.withUTF8Buffer { bytes in
      for (range, style) in text.runRanges {
        var index = range.lowerBound
        while index < range.upperBound {
          let byte = bytes[index]
          if byte < 0x80 {
            guard byte &- 0x20 < 0x5F, total < limit else { return false }
            total += measurer.advance(ofASCII: byte, style: style)
            last = UInt32(byte)
            index += 1
            continue
          }
          if isLegacy == nil { isLegacy = (measurer as? TerminalCells)?.profile == .legacy }
          guard isLegacy == true else { return false }
          let (value, length) = bytes.decodeScalar(at: index)
          switch value {
          case 0x80..<0xA0, 0xAD, 0x200B, 0x200D, 0x2028, 0x2029: return false
          default: total += UnicodeProperties(Unicode.Scalar(value).unsafelyUnwrapped).nonASCIICells
          }
          guard total <= limit else { return false }
          last = value
          index += length
        }
      }
      // No White_Space at the end (the controls among them are left out above).
      switch last {
      case 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return false
      default: return true
      }
    }
    guard fits, total <= limit else { return nil }
    return LineLayout.Line(range: 0..<count, contentEnd: count, width: total, isHyphenated: false)
  }

  /// The lines of a prepared text at `width`, from its measured segments with arithmetic only; with a `lineLimit`,
  /// as ``lines(_:measurer:breaker:width:lineLimit:recordsBreakOffsets:)``.
  static func lines(of prepared: PreparedText, width: LineWidth, lineLimit: Int?) -> LineLayout {
    var lines: [LineLayout.Line] = []
    let limit = limit(lineLimit)
    if let isComplete = placePlain(prepared, into: &lines, width: width, lineLimit: limit) {
      return LineLayout(
        text: prepared.text, measurer: prepared.measurer, breaker: prepared.breaker, width: width.units, lines: lines,
        breakOffsetStorage: prepared.starts, isComplete: isComplete, itemBreaks: prepared.itemBreaks)
    }
    var fitter = fitter(for: prepared, width: width, into: [LineLayout.Line]())
    let isComplete = fitter.place(prepared.segments, prepared.runningSums, lineLimit: limit)
    return fitter.layout(
      breaker: prepared.breaker, lineLimit: limit, isComplete: isComplete, breakOffsets: prepared.starts)
  }

  /// How many lines ``lines(of:width:lineLimit:)`` makes, found without making them; `lineLimit + 1` when the text
  /// needs more than a `lineLimit`.
  static func lineCount(of prepared: PreparedText, width: LineWidth, lineLimit: Int?) -> Int {
    let limit = limit(lineLimit)
    // Counted whole, three paragraphs at a time, unless a limit is likely to stop the count early.
    if placesPlain(prepared, width: width), limit >= prepared.runningSums.expectedLines(width: width.units),
      let count = prepared.runningSums.countLines(prepared.longParagraphs, width: width.units)
    {
      return count > limit ? limit + 1 : count
    }
    var counter = LineCounter()
    if let isComplete = placePlain(prepared, into: &counter, width: width, lineLimit: limit) {
      return isComplete ? counter.count : limit + 1
    }
    var fitter = fitter(for: prepared, width: width, into: LineCounter())
    guard fitter.place(prepared.segments, prepared.runningSums, lineLimit: limit) else { return limit + 1 }
    fitter.finish()
    return fitter.lines.count
  }

  /// The lines of the whole of `text` at `width`, laid out lazily, without their break offsets: each handed out as
  /// soon as it is closed, in memory that does not grow with the text.
  static func stream(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: LineWidth)
    -> LineStream
  {
    LineStream(text, measurer: measurer, breaker: breaker, width: width)
  }

  /// A fitter of a prepared text's segments at `width` into `lines`, with what preparing measured: the hyphen's
  /// width and the inline items; the break offsets are the prepared text's own.
  private static func fitter<Lines: LineSink>(for prepared: PreparedText, width: LineWidth, into lines: Lines)
    -> SegmentFitter<Lines>
  {
    SegmentFitter(
      text: prepared.text, measurer: prepared.measurer, width: width, recordsBreakOffsets: false,
      hyphenWidth: prepared.hyphenWidth, itemBreaks: prepared.itemBreaks, lines: lines)
  }

  /// Whether a prepared text's lines of `width` are found by the running sums alone: every segment plain, in an
  /// exact measurer, at a width that the gaps at hard breaks end lines for.
  private static func placesPlain(_ prepared: PreparedText, width: LineWidth) -> Bool {
    prepared.isExact && prepared.runningSums.breaks.isEmpty && !prepared.segments.isEmpty
      && width.units < RunningSums.widestLine
  }

  /// Adds to `lines` the lines of a prepared text whose segments are all plain, in an exact measurer, found by the
  /// running sums alone, with no fitter made (a fitter copies the text and the measurer).
  ///
  /// Returns whether the text took at most `limit` lines (then `lines` holds them all; otherwise its first `limit`), or
  /// `nil` for another text, or one with a word wider than the line, which a fitter places (and `lines` is then to be
  /// dropped).
  private static func placePlain<Lines: LineSink>(
    _ prepared: PreparedText, into lines: inout Lines, width: LineWidth, lineLimit limit: Int
  ) -> Bool? {
    guard placesPlain(prepared, width: width) else { return nil }
    let segments = prepared.segments
    let width = width.units
    return prepared.runningSums.withBuffers { runs in
      let end = segments.count
      guard Int(runs.contentWidths[0]) <= width else { return nil }  // the first line's first segment fits alone
      lines.reserveCapacity(min(limit, prepared.runningSums.expectedLines(width: width)))
      var cursor = RunningSums.LineCursor(
        first: 0, base: runs.contentEnds[0] &- Int(runs.contentWidths[0]), hardBreak: 0)
      let last = RunningSums.fill(
        &lines, runs, cursor: &cursor, before: end, surelyFits: width, tooWide: width, lineLimit: limit)
      // It stops at the limit (a line after it starts at cursor.first), at a word wider than the line, or with the
      // text's last line, which holds the segments from cursor.first to the end (below the limit: at the limit, it
      // stops before looking at the line after).
      if last < cursor.first { return false }
      if last &+ 1 < end { return nil }
      let lineEnd = segments[last].end
      lines.append(
        LineLayout.Line(
          range: runs.starts[cursor.first]..<lineEnd, contentEnd: lineEnd &- Int(runs.trailingBytes[last]),
          width: runs.contentEnds[last] &- cursor.base, isHyphenated: false))
      return true
    }
  }
}

/// The width of a line, in the unit of the measurer that lays it out: terminal cells for ``TerminalCells``, and
/// for a `FontMeasurer` 1/65536 px (1/60 px for Gecko's), as `FontMeasurer.layoutWidth(pixels:)` converts.
///
/// At least 1: a narrower width lays out as 1, where every line holds one grapheme cluster.
struct LineWidth: Hashable, Sendable {
  /// The width in the measurer's unit, at least 1.
  let units: Int

  /// A width of `units`, or of 1 below that.
  init(_ units: Int) { self.units = max(1, units) }
}

/// The lines of a whole text laid out lazily, by the fitter that ``Layout/stream(_:measurer:breaker:width:)``
/// chooses: the same lines either way (the cell stream decides fewer opportunities).
struct LineStream: IteratorProtocol {
  private var cells: CellStream?
  private var segments: SegmentStream?
  /// Whether ``cells`` lays the text out.
  ///
  /// A flag, not the optional: asking the optional copies the stream at every line, 7% more instructions for the
  /// benchmark's 1 MB expanded view (Docs/PerformanceNotes.md, "Terminal output").
  private let usesCells: Bool

  init(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker, width: LineWidth) {
    usesCells = CellStream.applies(to: text, measurer: measurer, breaker: breaker)
    if usesCells {
      cells = CellStream(text, measurer: measurer, breaker: breaker, width: width)
    } else {
      segments = SegmentStream(text, measurer: measurer, breaker: breaker, width: width)
    }
  }

  /// The next line, or `nil` after the last.
  mutating func next() -> LineLayout.Line? {
    // Unwrapped in place, not bound to a copy.
    usesCells ? cells!.next() : segments!.next()
  }
}
