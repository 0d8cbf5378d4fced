/// The advances of the clusters of words that the browser shapes as a whole, in a ``FontMeasurer``: Arabic and
/// the other joining scripts (a letter's form, and so its width, depends on its neighbours; lam and alef make one
/// glyph), Hebrew with points, the Indic scripts (conjuncts, reordered vowel signs), Thai, Lao, Tibetan, Burmese,
/// Khmer and their neighbours. A cluster of these measured alone is its isolated glyph, wider than the shaped word.
///
/// A *word* here is a maximal run of code points of those scripts, with the marks and joiners among them, in one
/// face's traits (bold, italic, code): what no space, punctuation of another script or change of face cuts. It is
/// shaped once, cut where the drawing face changes (``FontMeasurer/shapedAdvances(of:clusterStarts:style:)``), and
/// its clusters' advances handed out one by one. Whoever asks for a cluster in the middle of a word (a line that
/// starts inside it) gets the advance from the whole word, so that preparing and drawing agree.
///
/// Chromium shapes a whole inline item (spaces and all) and reshapes a line's end when it breaks inside a word;
/// a word's glyphs do not interact with a space's while kerning is off, so the widths are the same.
struct WordShaper {
  private let text: StyledText
  private let measurer: FontMeasurer
  /// The UTF-8 range of the word shaped last, its clusters' starts (UTF-8 offsets) and their advances.
  private var word = 0..<0
  private var starts: [Int] = []
  private var advances: [Int] = []
  /// The index in `starts` of the cluster asked last.
  private var index = 0

  /// A shaper for `text` when `measurer` measures in a font; `nil` for terminal cells, which nothing shapes.
  init?(_ text: StyledText, measurer: any TextMeasurer) {
    guard let measurer = measurer as? FontMeasurer else { return nil }
    self.text = text
    self.measurer = measurer
  }

  /// Whether a cluster that starts with `scalar` is measured as part of its word: a letter of a script whose
  /// words are shaped as a whole (the blocks from Hebrew to Sinhala, Thai to Burmese, Khmer and Mongolian, the
  /// Brahmic scripts of the other planes).
  @inline(__always)
  static func shapesInContext(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0590...0x08FF, 0x0900...0x0DFF, 0x0E00...0x109F, 0x1700...0x18AF, 0x1900...0x1CFF, 0xA800...0xABFF,
      0x10800...0x11FFF:
      return true
    default:
      return false
    }
  }

  /// Whether a word goes on through `scalar`: a letter it shapes, a combining mark, or a joiner.
  private static func continuesWord(_ scalar: Unicode.Scalar) -> Bool {
    if shapesInContext(scalar) { return true }
    if scalar.value == 0x200C || scalar.value == 0x200D { return true }
    switch UnicodeProperties(scalar).generalCategory {
    case .mn, .mc, .me: return true
    default: return false
    }
  }

  /// The advance of the cluster that starts at the UTF-8 offset `offset`, whose first code point
  /// ``shapesInContext(_:)``: its share of its shaped word. `nil` when the word cannot be shaped (then the
  /// cluster is measured alone).
  mutating func advance(ofClusterAt offset: Int) -> Int? {
    if !word.contains(offset) {
      shapeWord(around: offset)
      index = 0
    }
    if index >= starts.count || starts[index] > offset { index = 0 }
    while index < starts.count, starts[index] < offset { index += 1 }
    guard index < starts.count, starts[index] == offset else { return nil }
    return advances[index]
  }

  /// Finds the word that holds `offset` and shapes it.
  private mutating func shapeWord(around offset: Int) {
    let (traits, bounds) = traitsAndBounds(at: offset)
    let found: (range: Range<Int>, string: String) = text.string.withUTF8Buffer { bytes in
      var lower = offset
      while lower > bounds.lowerBound {
        let start = Self.scalarStart(before: lower, in: bytes)
        guard Self.continuesWord(Self.scalar(at: start, in: bytes)) else { break }
        lower = start
      }
      // Marks at the start belong to the cluster before the word.
      while lower < offset, !Self.shapesInContext(Self.scalar(at: lower, in: bytes)) {
        lower += Self.length(at: lower, in: bytes)
      }
      var upper = offset
      while upper < bounds.upperBound, Self.continuesWord(Self.scalar(at: upper, in: bytes)) {
        upper += Self.length(at: upper, in: bytes)
      }
      upper = min(upper, bounds.upperBound)
      return (lower..<upper, String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self))
    }
    word = found.range
    starts.removeAll(keepingCapacity: true)
    advances.removeAll(keepingCapacity: true)
    guard !word.isEmpty else {
      word = offset..<offset + 1
      return
    }
    var scalars: [Unicode.Scalar] = []
    var clusterStarts: [Int] = []
    var position = word.lowerBound
    for cluster in found.string {
      starts.append(position)
      clusterStarts.append(scalars.count)
      scalars.append(contentsOf: cluster.unicodeScalars)
      position += cluster.utf8.count
    }
    clusterStarts.append(scalars.count)
    guard
      let shaped = measurer.shapedAdvances(of: scalars, clusterStarts: clusterStarts, style: Style(traits))
    else {
      starts.removeAll(keepingCapacity: true)
      return
    }
    advances = shaped
  }

  /// The traits of the run that holds `offset`, and the UTF-8 range of the neighbouring runs of the same traits (a
  /// link's style differs from the text's around it, its face does not).
  private func traitsAndBounds(at offset: Int) -> (Style.Traits, Range<Int>) {
    let ends = text.runEnds
    guard !ends.isEmpty else { return ([], 0..<text.string.utf8.count) }
    let run = text.runIndex(containing: offset)
    let traits = text.style(ofRun: run).traits
    var first = run
    while first > 0, text.style(ofRun: first - 1).traits == traits { first -= 1 }
    var last = run
    while last + 1 < ends.count, text.style(ofRun: last + 1).traits == traits { last += 1 }
    return (traits, (first == 0 ? 0 : ends[first - 1])..<ends[last])
  }

  /// The offset where the code point that ends at `offset` starts.
  private static func scalarStart(before offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var start = offset - 1
    while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return start
  }

  /// The UTF-8 length of the code point that starts at `offset`.
  private static func length(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    GraphemeReader.decode(bytes, at: offset).length
  }

  /// The code point that starts at `offset`.
  private static func scalar(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
    Unicode.Scalar(validUTF8: GraphemeReader.decode(bytes, at: offset).value)
  }
}
