internal import CICU

/// The order in which a terminal that draws cells as given (most of them) must receive a line that holds
/// right-to-left text: UAX #9's runs of one direction, resolved by ICU for the line at the paragraph's base
/// direction, laid out left to right (L2), each right-to-left run's clusters reversed and its mirrored characters
/// swapped (`(` for `)`, L4).
///
/// Lines are broken in logical order, as the browser breaks them; only the drawing of a line is reordered. Each
/// line is resolved on its own, at the paragraph's direction.
enum VisualOrder {
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

  /// The pieces of `line` in the order they are drawn left to right: a run's text a stretch per fragment, the
  /// fragments of a right-to-left run in reverse (``drawn(_:isRightToLeft:)`` reverses each one's clusters).
  /// (A cluster per piece made a line that holds a Hebrew word cost eight lines written from their runs.)
  static func clusters(of line: DisplayLine, direction: TextDirection) -> [Cluster] {
    var units: [UInt16] = []
    var fragmentStarts: [Int] = []  // each fragment's UTF-16 offset in the line
    for fragment in line.fragments {
      fragmentStarts.append(units.count)
      units.append(contentsOf: fragment.text.utf16)
    }
    let whole = line.fragments.indices.map { index in
      Cluster(fragment: index, range: line.fragments[index].text.startIndex..<line.fragments[index].text.endIndex)
    }.filter { !$0.range.isEmpty }
    guard !units.isEmpty, units.count < Int(Int32.max) else { return whole }
    let capacity = units.count
    var starts = [Int32](repeating: 0, count: capacity)
    var lengths = [Int32](repeating: 0, count: capacity)
    var rightToLeft = [UInt8](repeating: 0, count: capacity)
    let count = units.withUnsafeBufferPointer { text in
      unfold_icu_bidi_visual_runs(
        text.baseAddress, Int32(text.count), direction == .rtl ? 1 : 0, &starts, &lengths, &rightToLeft,
        Int32(capacity))
    }
    guard count > 0 else { return whole }
    var visual: [Cluster] = []
    for run in 0..<Int(count) {
      let runStart = Int(starts[run])
      let runEnd = runStart + Int(lengths[run])
      let isRightToLeft = rightToLeft[run] != 0
      // The run's part of each fragment it overlaps, in logical order.
      var pieces: [Cluster] = []
      for (index, fragment) in line.fragments.enumerated() {
        let fragmentStart = fragmentStarts[index]
        let fragmentEnd = fragmentStart + fragment.text.utf16.count
        let lower = max(runStart, fragmentStart)
        let upper = min(runEnd, fragmentEnd)
        guard lower < upper else { continue }
        let text = fragment.text
        let from = text.utf16.index(text.startIndex, offsetBy: lower - fragmentStart)
        let to = text.utf16.index(from, offsetBy: upper - lower)
        pieces.append(Cluster(fragment: index, range: from..<to, isRightToLeft: isRightToLeft))
      }
      visual += isRightToLeft ? pieces.reversed() : pieces
    }
    return visual
  }

  /// Resolves lines' direction runs with one ICU bidi object and reuses the arrays it reads and writes, from
  /// line to line of one rendering (an object and six arrays made per line were a third of the cost of
  /// reordering a line).
  final class LineResolver {
    private let bidi = unfold_icu_bidi_open()
    private var units: [UInt16] = []
    private var offsets: [Int] = []  // the byte offset of each UTF-16 unit's character
    private var starts: [Int32] = []
    private var lengths: [Int32] = []
    private var rightToLeft: [UInt8] = []
    /// Room for the bytes of a right-to-left piece as drawn (``VisualOrder/drawnRightToLeft(utf8:into:)``).
    var drawn: [UInt8] = []

    deinit { unfold_icu_bidi_close(bidi) }

    /// The direction runs of a line's UTF-8 bytes in the order they are drawn left to right: their byte ranges
    /// in the line, and whether each is drawn right to left. The whole line, left to right, when ICU cannot
    /// resolve it.
    func runs(ofUTF8 line: UnsafeBufferPointer<UInt8>, direction: TextDirection) -> [(
      range: Range<Int>, isRightToLeft: Bool
    )] {
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
      var offset = 0
      while offset < line.count {
        let (value, length) = decode(line, at: offset)
        if value < 0x10000 {
          units.append(UInt16(value))
          offsets.append(offset)
        } else {
          units.append(UInt16(0xD800 + (value - 0x10000) >> 10))
          units.append(UInt16(0xDC00 + (value - 0x10000) & 0x3FF))
          offsets.append(offset)
          offsets.append(offset)
        }
        offset += length
      }
      let whole = [(range: 0..<line.count, isRightToLeft: false)]
      guard !units.isEmpty, units.count < Int(Int32.max) else { return whole }
      let capacity = units.count
      if starts.count < capacity {
        starts = [Int32](repeating: 0, count: capacity)
        lengths = [Int32](repeating: 0, count: capacity)
        rightToLeft = [UInt8](repeating: 0, count: capacity)
      }
      let count = units.withUnsafeBufferPointer { text in
        unfold_icu_bidi_line_runs(
          bidi, text.baseAddress, Int32(text.count), direction == .rtl ? 1 : 0, &starts, &lengths, &rightToLeft,
          Int32(capacity))
      }
      guard count > 0 else { return whole }
      return (0..<Int(count)).map { run in
        let start = Int(starts[run])
        let end = start + Int(lengths[run])
        return (offsets[start]..<(end == units.count ? line.count : offsets[end]), rightToLeft[run] != 0)
      }
    }
  }

  /// The code point whose UTF-8 starts at `index` of valid UTF-8 bytes, and its length.
  @inline(__always)
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, length: Int) {
    let lead = UInt32(bytes[index])
    if lead < 0x80 { return (lead, 1) }
    if lead < 0xE0 { return ((lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2) }
    if lead < 0xF0 {
      return ((lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
    }
    let value =
      (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
      | UInt32(bytes[index + 3] & 0x3F)
    return (value, 4)
  }

  /// The UTF-8 bytes of a right-to-left piece as drawn (``drawn(_:isRightToLeft:)``), written to `output`
  /// (emptied first): read from the bytes, its clusters found by the tables when every character is
  /// grapheme-simple or a plain mark after a base that takes it, copied whole in reverse order, and rebuilt only
  /// when one may mirror. (Through `String` and `Character`, a line's Hebrew and Arabic cost more to draw than
  /// to break.)
  static func drawnRightToLeft(utf8 piece: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    output.removeAll(keepingCapacity: true)
    var starts: [Int] = []
    var takesMarks = false
    var mirrors = false
    var index = 0
    while index < piece.count {
      let (value, length) = decode(piece, at: index)
      let raw = value < 0x80 ? 0 : UnicodeTables.lookUp(value)
      if UnicodeProperties.isGraphemeSimple(raw, value) {
        starts.append(index)
        takesMarks = UnicodeProperties.takesPlainMarks(raw, value)
      } else if !(takesMarks && UnicodeProperties.isPlainMark(raw, value)) {
        output.append(contentsOf: drawn(Substring(String(decoding: piece, as: UTF8.self)), isRightToLeft: true).utf8)
        return
      }
      mirrors = mirrors || Unicode.Scalar(value).map(mayMirror) == true
      index += length
    }
    var end = piece.count
    for start in starts.reversed() {
      if mirrors {
        var at = start
        while at < end {
          let (value, length) = decode(piece, at: at)
          let mirrored = Unicode.Scalar(unfold_icu_mirror(value)) ?? Unicode.Scalar(value) ?? "\u{FFFD}"
          output.append(contentsOf: UTF8.encode(mirrored)!)
          at += length
        }
      } else {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: piece[start..<end]))
      }
      end = start
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
  /// characters in order) and mirrored. Clusters are copied whole; only a cluster that holds a character that
  /// may mirror is rebuilt (Hebrew and Arabic letters never do).
  static func drawn(_ characters: Substring, isRightToLeft: Bool) -> Substring {
    guard isRightToLeft else { return characters }
    let bounds = simpleClusterStarts(characters) ?? characters.indices.map { $0 }
    var result = ""
    result.reserveCapacity(characters.utf8.count)
    var end = characters.endIndex
    for start in bounds.reversed() {
      let cluster = characters[start..<end]
      if cluster.unicodeScalars.contains(where: mayMirror) {
        for scalar in cluster.unicodeScalars {
          result.unicodeScalars.append(Unicode.Scalar(unfold_icu_mirror(scalar.value)) ?? scalar)
        }
      } else {
        result += cluster
      }
      end = start
    }
    return Substring(result)
  }

  /// The starts of the grapheme clusters of text made of grapheme-simple characters and plain marks after a
  /// base that takes them (``UnicodeProperties/isGraphemeSimple(_:_:)``, ``UnicodeProperties/isPlainMark(_:_:)``,
  /// the tables the line breaker reads, checked against `Character`): a cluster is such a character and the
  /// marks after it. Nil for any other text, whose clusters Swift's `Character` finds (its grapheme breaking
  /// took longer than the line breaking of the 1 MB benchmark document's Hebrew and Arabic lines).
  private static func simpleClusterStarts(_ characters: Substring) -> [String.Index]? {
    var starts: [String.Index] = []
    var takesMarks = false
    let scalars = characters.unicodeScalars
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let value = scalars[index].value
      let raw = value < 0x80 ? 0 : UnicodeTables.lookUp(value)
      if UnicodeProperties.isGraphemeSimple(raw, value) {
        starts.append(index)
        takesMarks = UnicodeProperties.takesPlainMarks(raw, value)
      } else if !(takesMarks && UnicodeProperties.isPlainMark(raw, value)) {
        return nil
      }
      index = scalars.index(after: index)
    }
    return starts
  }

  /// Whether a character may have a mirror image (Bidi_Mirrored): the ASCII and Latin-1 brackets and
  /// quotes, Tibetan and Ogham brackets, and characters from U+2000 on (punctuation, mathematical symbols,
  /// CJK brackets): every mirrored character below U+2000 is listed.
  private static func mayMirror(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x28, 0x29, 0x3C, 0x3E, 0x5B, 0x5D, 0x7B, 0x7D, 0xAB, 0xBB, 0xF3A...0xF3D, 0x169B, 0x169C: return true
    case 0x2000...: return true
    default: return false
    }
  }
}
