/// A styled text measured once, ready to be laid out at any width with arithmetic only.
///
/// Preparing finds the break opportunities and measures every segment between them; ``layout(width:lineLimit:)``
/// then walks these numbers, so laying the same text out at another width measures nothing again (except the
/// clusters of a word wider than the line, which it breaks at grapheme boundaries).
///
///     let prepared = PreparedText(text, measurer: TerminalCells())
///     let narrow = prepared.layout(width: 30)
///     let wide = prepared.layout(width: 80)
public struct PreparedText: Sendable {
  /// The text.
  public let text: StyledText
  /// The measurer that measured it.
  public let measurer: any TextMeasurer
  /// The breaker that found its opportunities.
  public let breaker: LineBreaker
  let segments: [Segment]
  /// Where each segment starts: after the first, the break opportunities, which a layout's lines read their
  /// break offsets from.
  let starts: [Int]
  /// The widths of each segment that a relayout can place with arithmetic alone, packed (``PlainWidths``).
  let plainWidths: [UInt64]
  /// The sum of the segments' widths, content and spaces: how many lines a width makes, about.
  let totalWidth: Int

  /// Prepares a text.
  /// - Complexity: O(*n*) in the length of the text.
  public init(_ text: StyledText, measurer: any TextMeasurer = TerminalCells(), breaker: LineBreaker = .unicode) {
    self.text = text
    self.measurer = measurer
    self.breaker = breaker
    self.segments = Array(IteratorSequence(Segmenter(text, measurer: measurer, breaker: breaker)))
    self.starts = segments.map(\.start)
    self.plainWidths = segments.map(PlainWidths.pack)
    self.totalWidth = segments.reduce(0) { $0 + $1.contentWidth + $1.spaceWidth }
  }

  /// Lays the text out in lines no wider than `width`.
  ///
  /// - Parameters:
  ///   - width: the width of a line, in the measurer's unit; below 1 acts as 1.
  ///   - lineLimit: when set, the layout stops as soon as it knows that the text needs more lines than
  ///     this, and reports ``LineLayout/isComplete`` as `false`.
  /// - Complexity: O(*s*) in the number of segments laid out.
  public func layout(width: Int, lineLimit: Int? = nil) -> LineLayout {
    let width = max(1, width)
    var fitter = LineFitter(text: text, measurer: measurer, width: width, recordsBreakOffsets: false)
    let limit = lineLimit.map { max(1, $0) } ?? Int.max
    if lineLimit == nil { fitter.reserveCapacity(lines: totalWidth / width + 16, breakOffsets: 0) }
    var isComplete = true
    var i = 0
    loop: while i < segments.count {
      if fitter.acceptsPlain {
        // Plain segments go on the open line with an addition and a comparison each, 8 bytes read; when
        // one does not fit, the line ends before it and it starts the next.
        var (x, spaces) = fitter.openWidth
        var j = i
        while j < plainWidths.count {
          let packed = plainWidths[j]
          guard packed & PlainWidths.isPlain != 0 else { break }
          let content = PlainWidths.content(packed)
          let fits = LineFit.decide(x + spaces + content, width: width, rounding: fitter.rounding)
          if fits == true {
            x += spaces + content
          } else if fits == false && LineFit.decide(content, width: width, rounding: fitter.rounding) == true {
            if j > i { fitter.placePlain(count: j - i, x: x, last: segments[j - 1]) }
            fitter.breakBeforePlain(segments[j])
            i = j + 1
            if fitter.exceeds(limit) {
              isComplete = false
              break loop
            }
            x = content
          } else {
            break
          }
          spaces = PlainWidths.spaces(packed)
          j += 1
        }
        if j > i {
          fitter.placePlain(count: j - i, x: x, last: segments[j - 1])
          i = j
          continue
        }
        if i == segments.count { break }  // the last segment started a line
      }
      guard fitter.add(segments[i], lineLimit: limit) else {
        isComplete = false
        break
      }
      i += 1
    }
    return fitter.layout(breaker: breaker, lineLimit: limit, isComplete: isComplete, breakOffsets: starts)
  }

  /// The break opportunities that preparing found, in order.
  public var breakOpportunities: [BreakOpportunity] {
    segments.dropLast().map {
      BreakOpportunity(offset: $0.end, kind: $0.isMandatoryBreak ? .mandatory : .allowed)
    }
  }
}

/// A segment's widths in 8 bytes, for the loop of a relayout: what it reads per segment stays in cache
/// (the segments themselves are 56 bytes each). Content without a tab or a soft hyphen, with no mandatory
/// break after it, whose widths fit in 31 bits, is plain; any other segment packs as 0 and takes the whole
/// path.
enum PlainWidths {
  static let isPlain: UInt64 = 1 << 63
  private static let mask: UInt64 = (1 << 31) - 1

  static func pack(_ segment: Segment) -> UInt64 {
    guard segment.hasContent, !segment.hasTab, !segment.endsWithSoftHyphen, !segment.isMandatoryBreak,
      (0...Int(mask)).contains(segment.contentWidth), (0...Int(mask)).contains(segment.spaceWidth)
    else { return 0 }
    return isPlain | UInt64(segment.spaceWidth) << 31 | UInt64(segment.contentWidth)
  }

  @inline(__always)
  static func content(_ packed: UInt64) -> Int { Int(packed & mask) }

  @inline(__always)
  static func spaces(_ packed: UInt64) -> Int { Int(packed >> 31 & mask) }
}
