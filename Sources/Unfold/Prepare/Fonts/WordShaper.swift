/// The advances of clusters measured with their neighbours, as the browser shapes them, in a `FontMeasurer`.
///
/// With kerning and ligatures off (the page pins them), only the scripts whose words shape as a whole need it:
/// Arabic and the other joining scripts (a letter's form, and so its width, depends on its neighbours; lam and
/// alef make one glyph), Hebrew with points, the Indic scripts (conjuncts, reordered vowel signs), Thai, Lao,
/// Tibetan, Burmese, Khmer and their neighbours. A *word* is then a maximal run of code points of those scripts,
/// with the marks and joiners among them. With ``FontSet/kerningAndLigatures`` every cluster is shaped: a word is
/// then a run of anything but spaces with the spaces after it, shaped with the next character too, so that a
/// pair kerned across a space (Liberation Sans kerns "A " and " T") is.
///
/// A word never crosses a change of face (bold, italic, code), a tab or a line break, but the letters it would
/// join across a change of face (up to five a side) go to the shaper as context, which Blink's measure uses; and
/// where an element starts inside it (a link, struck text), WebKit's measure shapes each part alone. A
/// word longer than ``cutLength`` bytes is cut before the first base character at or after each multiple of it,
/// so that shaping stays linear in the text. It is shaped once
/// (`FontMeasurer.shapedAdvances(of:clusterStarts:style:context:)`) and its
/// clusters' advances handed out one by one. Whoever asks for a cluster in the middle of a word (a line that
/// starts inside it) gets the advance from the whole word, so that preparing and drawing agree.
///
/// Chromium shapes a whole inline item and reshapes a line's end when it breaks where shaping joins across the
/// break; with kerning off, a word's glyphs do not interact with a space's, so the widths are the same.
struct WordShaper {
  private let text: StyledText
  private let measurer: FontMeasurer
  /// Whether every cluster is shaped (kerning and ligatures on).
  let shapesEverything: Bool
  /// The UTF-8 range of the word shaped last, its clusters' starts (UTF-8 offsets) and their advances.
  private var word = 0..<0
  private var starts: [Int] = []
  private var advances: [Int] = []
  /// The index in `starts` of the cluster asked last.
  private var index = 0

  /// The length in UTF-8 bytes past which a word is cut.
  static let cutLength = 256

  /// A shaper for `text` when `measurer` measures in a font; `nil` for terminal cells, which nothing shapes.
  init?(_ text: StyledText, measurer: any TextMeasurer) {
    guard let measurer = measurer as? FontMeasurer else { return nil }
    self.text = text
    self.measurer = measurer
    shapesEverything = measurer.shapesEveryWord
  }

  /// Whether `measurer` shapes every cluster, ASCII ones too (a font with kerning and ligatures on).
  static func shapesEverything(_ measurer: any TextMeasurer) -> Bool {
    (measurer as? FontMeasurer)?.shapesEveryWord == true
  }

  /// Whether a cluster that starts with `scalar` is measured as part of its word.
  @inline(__always)
  func shapes(_ scalar: Unicode.Scalar) -> Bool { Self.shapes(scalar, everything: shapesEverything) }

  /// ``shapes(_:)``, static: a method called inside the closures of a mutating method copies the shaper at every
  /// call (a dozen times a word, with its references: a seventh of preparing an Arabic comment).
  @inline(__always)
  private static func shapes(_ scalar: Unicode.Scalar, everything: Bool) -> Bool {
    everything ? !endsWords(scalar.value) : shapesInContext(scalar)
  }

  /// Whether a cluster that starts with `scalar` is shaped with its word while kerning and ligatures are off: a
  /// letter of a script whose words are shaped as a whole (the blocks from Hebrew to Sinhala, Thai to Burmese,
  /// Khmer and Mongolian, the Brahmic scripts of the other planes).
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

  /// Whether a code point ends every word: a tab or a line break (each the browser lays out on its own).
  @inline(__always)
  private static func endsWords(_ value: UInt32) -> Bool {
    value == 0x09 || Cluster.startsHardLineBreak(value)
  }

  /// Whether a code point is a space that ends a word's content when kerning is on.
  private static func isSpace(_ value: UInt32) -> Bool {
    value == 0x20 || value == 0xA0 || value == 0x3000 || (0x2000...0x200A).contains(value) || value == 0x202F
      || value == 0x205F
  }

  /// Whether a code point goes on the cluster before it: a combining mark or a joiner.
  private static func isMarkOrJoiner(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value == 0x200C || scalar.value == 0x200D { return true }
    switch UnicodeProperties(scalar).generalCategory {
    case .mn, .mc, .me: return true
    default: return false
    }
  }

  /// Whether two neighbouring code points belong to one word.
  private static func joins(_ before: Unicode.Scalar, _ after: Unicode.Scalar, everything: Bool) -> Bool {
    guard everything else {
      return (shapesInContext(before) || isMarkOrJoiner(before)) && (shapesInContext(after) || isMarkOrJoiner(after))
    }
    // A word's spaces end it: what follows them starts the next.
    return !endsWords(before.value) && !endsWords(after.value) && !(isSpace(before.value) && !isSpace(after.value))
  }

  /// The advance of the cluster that starts at the UTF-8 offset `offset` with `first`: its share of its shaped
  /// word.
  ///
  /// `nil` when the cluster is not shaped with its word (``shapes(_:)``) or the offset starts no cluster of the word:
  /// then it is measured alone.
  @inline(__always)
  mutating func advance(ofClusterAt offset: Int, startingWith first: Unicode.Scalar) -> Int? {
    guard shapes(first) else { return nil }
    return advance(ofClusterAt: offset)
  }

  /// The advance of the cluster that starts at `offset`, one that ``shapes(_:)``, from its word.
  private mutating func advance(ofClusterAt offset: Int) -> Int? {
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
    let shapesEverything = shapesEverything
    // Static, with what they read of the shaper captured (see ``shapes(_:everything:)``).
    func joins(_ before: Unicode.Scalar, _ after: Unicode.Scalar) -> Bool {
      Self.joins(before, after, everything: shapesEverything)
    }
    func shapes(_ scalar: Unicode.Scalar) -> Bool { Self.shapes(scalar, everything: shapesEverything) }
    var context: (before: [UInt32], after: [UInt32]) = ([], [])
    let found: (range: Range<Int>, lookaheadEnd: Int) = text.string.withUTF8Buffer { bytes in
      // The word's start and end, looked for no further than `limits` (whether it goes on past them: the
      // scalars on either side of a limit join).
      func extent(within limits: Range<Int>) -> (range: Range<Int>, isCut: Bool, last: Unicode.Scalar) {
        var lower = offset
        var after = Self.scalar(at: offset, in: bytes)
        while lower > limits.lowerBound {
          let start = Self.scalarStart(before: lower, in: bytes)
          let before = Self.scalar(at: start, in: bytes)
          guard joins(before, after) else { break }
          (lower, after) = (start, before)
        }
        var isCut = false
        if lower == limits.lowerBound, lower > bounds.lowerBound {
          isCut = joins(Self.scalar(at: Self.scalarStart(before: lower, in: bytes), in: bytes), after)
        }
        var previous = Self.scalar(at: offset, in: bytes)
        var upper = offset + Self.length(at: offset, in: bytes)
        while upper < limits.upperBound {
          let scalar = Self.scalar(at: upper, in: bytes)
          guard joins(previous, scalar) else { break }
          previous = scalar
          upper += Self.length(at: upper, in: bytes)
        }
        upper = min(upper, limits.upperBound)
        if upper == limits.upperBound, upper < bounds.upperBound, joins(previous, Self.scalar(at: upper, in: bytes)) {
          isCut = true
        }
        return (lower..<upper, isCut, previous)
      }
      // A word is cut only when it is longer than the cut length (wherever it is asked from, a short word is found
      // whole within that distance of the offset, and a long one is not), and then at the same places whatever
      // offset is asked.
      let near = max(bounds.lowerBound, offset - Self.cutLength)..<min(bounds.upperBound, offset + Self.cutLength)
      var found = extent(within: near)
      if found.isCut || found.range.count > Self.cutLength {
        let cuts = Self.cuts(around: offset, in: bytes)
        found = extent(within: max(bounds.lowerBound, cuts.lowerBound)..<min(bounds.upperBound, cuts.upperBound))
      }
      let highest = found.isCut ? found.range.upperBound : bounds.upperBound
      var lower = found.range.lowerBound
      let upper = found.range.upperBound
      let previous = found.last
      // Marks at the start belong to the cluster before the word.
      while lower < offset, !shapes(Self.scalar(at: lower, in: bytes)) {
        lower += Self.length(at: lower, in: bytes)
      }
      // With kerning, the character after the word's spaces (and its marks) is shaped too, for the pair it makes
      // with the last space, and its advance dropped.
      var end = upper
      if shapesEverything, upper < highest, Self.isSpace(previous.value) {
        let next = Self.scalar(at: upper, in: bytes)
        if !Self.endsWords(next.value) {
          end += Self.length(at: end, in: bytes)
          while end < highest, Self.isMarkOrJoiner(Self.scalar(at: end, in: bytes)) {
            end += Self.length(at: end, in: bytes)
          }
        }
      }
      // The letters on either side that the word would join but for a change of face: context for the shaper.
      var before: [UInt32] = []
      var position = lower
      var next = Self.scalar(at: lower, in: bytes)
      while position > 0, before.count < 5 {
        let start = Self.scalarStart(before: position, in: bytes)
        let scalar = Self.scalar(at: start, in: bytes)
        guard joins(scalar, next) else { break }
        before.insert(scalar.value, at: 0)
        (position, next) = (start, scalar)
      }
      var after: [UInt32] = []
      position = end
      var last = previous
      while position < bytes.count, after.count < 5 {
        let scalar = Self.scalar(at: position, in: bytes)
        guard joins(last, scalar) else { break }
        after.append(scalar.value)
        last = scalar
        position += Self.length(at: position, in: bytes)
      }
      context = (before, after)
      return (lower..<upper, end)
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
    var elementStarts: [Int] = []
    let ends = text.runEnds
    var run = ends.isEmpty ? 0 : text.runIndex(containing: word.lowerBound)
    // The word's clusters read from its bytes by the engine's grapheme reader, from a cluster's start as the word's
    // own string would be (its characters, through `String`, were a fifth of preparing an Arabic comment); the
    // letters looked ahead at as one cluster after them.
    text.string.withUTF8Buffer { bytes in
      let tables = UnicodeTables.decoded
      var reader = GraphemeReader()
      var position = word.lowerBound
      while position < word.upperBound {
        let (value, length, startsCluster) = reader.read(bytes, at: position, tables: tables)
        if startsCluster || position == word.lowerBound {
          if run < ends.count, position >= ends[run] {
            while run < ends.count, position >= ends[run] { run += 1 }
            elementStarts.append(starts.count)
          }
          starts.append(position)
          clusterStarts.append(scalars.count)
        }
        scalars.append(Unicode.Scalar(validUTF8: value))
        position += length
      }
      if found.lookaheadEnd > position {
        clusterStarts.append(scalars.count)
        while position < found.lookaheadEnd {
          let (value, length) = bytes.decodeScalar(at: position)
          scalars.append(Unicode.Scalar(validUTF8: value))
          position += length
        }
      }
    }
    clusterStarts.append(scalars.count)
    let shaped = measurer.shapedAdvances(
      of: scalars, clusterStarts: clusterStarts, style: Style(traits), context: context, elementStarts: elementStarts)
    advances = Array(shaped.prefix(starts.count))
  }

  /// The traits of the run that holds `offset`, and the UTF-8 range of the neighbouring runs drawn in the same face
  /// (Blink and Gecko shape across elements of one font: a link or struck text inside a word is shaped with it).
  private func traitsAndBounds(at offset: Int) -> (Style.Traits, Range<Int>) {
    let ends = text.runEnds
    guard !ends.isEmpty else { return ([], 0..<text.string.utf8.count) }
    let run = text.runIndex(containing: offset)
    let traits = text.style(ofRun: run).traits
    let face = FontSet.faceIndex(for: traits)
    var first = run
    while first > 0, FontSet.faceIndex(for: text.style(ofRun: first - 1).traits) == face { first -= 1 }
    var last = run
    while last + 1 < ends.count, FontSet.faceIndex(for: text.style(ofRun: last + 1).traits) == face { last += 1 }
    return (traits, (first == 0 ? 0 : ends[first - 1])..<ends[last])
  }

  /// The cuts of long words around `offset`: the last at or before it and the first after it.
  ///
  /// The cut of a multiple of ``cutLength`` is the start of the first code point at or after it that is not a mark, a
  /// joiner, or a letter after a virama (which the cluster before holds).
  private static func cuts(around offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    func cut(_ multiple: Int) -> Int {
      var position = min(multiple, bytes.count)
      while position < bytes.count, bytes[position] & 0xC0 == 0x80 { position += 1 }
      var afterVirama = false
      while position < bytes.count {
        let scalar = self.scalar(at: position, in: bytes)
        guard isMarkOrJoiner(scalar) || afterVirama else { break }
        afterVirama = scalar.properties.canonicalCombiningClass == .virama || scalar.value == 0x200D
        position += length(at: position, in: bytes)
      }
      return position
    }
    let multiple = offset / cutLength * cutLength
    let here = cut(multiple)
    if here <= offset { return here..<cut(multiple + cutLength) }
    return (multiple == 0 ? 0 : cut(multiple - cutLength))..<here
  }

  /// The offset where the code point that ends at `offset` starts.
  private static func scalarStart(before offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var start = offset - 1
    while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return start
  }

  /// The UTF-8 length of the code point that starts at `offset`.
  private static func length(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    bytes.decodeScalar(at: offset).length
  }

  /// The code point that starts at `offset`.
  private static func scalar(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
    Unicode.Scalar(validUTF8: bytes.decodeScalar(at: offset).value)
  }
}
