/// Finds where grapheme clusters start in a stream of code points, as Swift's `Character` iteration does: two
/// simple code points (ASCII but CR, letters, most symbols: ``UnicodeProperties/isGraphemeSimple(_:_:)``)
/// always have a boundary between them (GB4, GB5, GB999), so they are decided without the standard library's
/// recognizer, which is asked only around the others (its property lookup is a binary search).
///
/// The first code point given starts a cluster.
struct GraphemeReader {
  private var recognizer = Unicode._CharacterRecognizer()
  private var state = GraphemeState()

  /// Whether a cluster starts at this code point, the next of the stream; `raw` is its packed properties (0
  /// for ASCII will do) and `isSimple` its ``UnicodeProperties/isGraphemeSimple(_:_:)``, which the caller has
  /// the properties for.
  @inline(__always)
  mutating func startsCluster(_ value: UInt32, isSimple: Bool, raw: UInt32) -> Bool {
    state.startsCluster(value, isSimple: isSimple, raw: raw, recognizer: &recognizer)
  }

  /// The number of grapheme clusters in `range` of valid UTF-8 (offsets on cluster boundaries): the
  /// `count` of the characters there.
  static func clusterCount(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    var reader = GraphemeReader()
    let tables = UnicodeTables.decoded
    var count = 0
    var position = range.lowerBound
    while position < range.upperBound {
      let (_, length, startsCluster) = reader.read(bytes, at: position, tables: tables)
      if startsCluster { count += 1 }
      position += length
    }
    return count
  }

  /// Whether a grapheme cluster starts at `offset` of valid UTF-8 (`true` at either end): where two simple code
  /// points meet, at once; elsewhere, by reading clusters from the nearest place before it where two simple
  /// code points meet (a boundary, whatever precedes it), at most 64 code points back (further, `false`: a
  /// caller taking a boundary for none only goes the slower way).
  static func startsCluster(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard offset > 0, offset < bytes.count else { return true }
    let (before, at) = (bytes[offset &- 1], bytes[offset])
    // Two ASCII code points but CR are simple (the common case: a style run that ends before a space), decided
    // with no decoding.
    if before < 0x80, at < 0x80, before != 0x0D, at != 0x0D { return true }
    guard at & 0xC0 != 0x80 else { return false }  // inside a code point's bytes
    func codePointStart(before position: Int) -> Int {
      var start = position - 1
      while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
      return start
    }
    func isSimple(at position: Int) -> Bool {
      UnicodeProperties.isGraphemeSimple(bytes.decodeScalar(at: position).value)
    }
    var later = codePointStart(before: offset)
    var laterIsSimple = isSimple(at: later)
    if laterIsSimple && isSimple(at: offset) { return true }
    // A cluster starts at `later` when it and the code point before it are simple (or at the text's start).
    var steps = 0
    while later > 0 {
      let earlier = codePointStart(before: later)
      let earlierIsSimple = isSimple(at: earlier)
      if earlierIsSimple && laterIsSimple { break }
      steps += 1
      guard steps < 64 else { return false }
      (later, laterIsSimple) = (earlier, earlierIsSimple)
    }
    var reader = GraphemeReader()
    let tables = UnicodeTables.decoded
    var position = later
    while position < offset { position += reader.read(bytes, at: position, tables: tables).length }
    return reader.read(bytes, at: offset, tables: tables).startsCluster
  }

  /// Reads the code point at `position` of valid UTF-8: its value, its length in bytes, and whether a cluster
  /// starts at it (its properties looked up in `tables` past ASCII): the step of every loop over clusters that
  /// needs no other property.
  @inline(__always)
  mutating func read(
    _ bytes: UnsafeBufferPointer<UInt8>, at position: Int, tables: UnicodeTables.Decoded
  ) -> (value: UInt32, length: Int, startsCluster: Bool) {
    state.read(bytes, at: position, tables: tables, recognizer: &recognizer)
  }

  /// Appends the UTF-16 of valid UTF-8 `bytes` (for ICU) to `units`, and each unit's UTF-8 offset to `offsets`:
  /// both units of a surrogate pair have their code point's offset.
  static func appendUTF16(of bytes: UnsafeBufferPointer<UInt8>, to units: inout [UInt16], offsets: inout [Int]) {
    var offset = 0
    while offset < bytes.count {
      let (value, length) = bytes.decodeScalar(at: offset)
      if value < 0x1_0000 {
        units.append(UInt16(value))
        offsets.append(offset)
      } else {
        units.append(UInt16(0xD800 + (value - 0x1_0000) >> 10))
        units.append(UInt16(0xDC00 + (value & 0x3FF)))
        offsets.append(offset)
        offsets.append(offset)
      }
      offset += length
    }
  }

}

/// A ``GraphemeReader``'s state but its recognizer, which a loop keeps apart (``BreakScanner``): the recognizer
/// is handed to the standard library by address, so whatever holds it lives in memory, and these few fields,
/// asked at every code point, would be stored and loaded at every one with it.
struct GraphemeState {
  /// Whether the recognizer has seen every code point of the open cluster (not so after ASCII read alone).
  private var recognizerIsCurrent = false
  private var previous: UInt32 = 0
  /// The packed properties of `previous` (0 for ASCII read alone).
  private var previousRaw: UInt32 = 0
  private var previousIsSimple = false
  private var started = false
  /// The first code point of the open cluster when the marks after it were decided without the recognizer
  /// (``UnicodeProperties/takesPlainMarks(_:_:)``); 0 otherwise.
  private var markedBase: UInt32 = 0
  /// Whether `previous` was decided as part of an emoji sequence or a flag (``emojiBoundary(_:isSimple:raw:)``),
  /// which is what makes the two fields after it current.
  private var previousIsEmojiPart = false
  /// After a pictograph and its modifiers or variation selectors: 1; after a joiner that follows them: 2 (the
  /// cluster so far is `ExtPict Extend* ZWJ`, which a pictograph joins, GB11).
  private var pictographState: UInt8 = 0
  /// Whether the run of regional indicators that ends with `previous` is of odd length (a flag is a pair, GB12).
  private var regionalIndicatorsOdd = false

  /// ``GraphemeReader/startsCluster(_:isSimple:raw:)``, with the reader's recognizer.
  ///
  /// Besides two simple code points, a plain mark after a simple base (``UnicodeProperties/isPlainMark(_:_:)``
  /// after ``UnicodeProperties/takesPlainMarks(_:_:)``: the combining marks of Latin, Greek, Cyrillic, Hebrew,
  /// Arabic, Thai and Lao text) is decided here: no boundary before it (GB9), one after the marks before a simple
  /// code point (GB999); anything else after them goes to the recognizer, fed the base and the last mark, which
  /// leave it as the whole cluster would (Thai text spent two fifths of preparing in the recognizer, asked three
  /// times per mark).
  ///
  /// The common cases (two simple code points, a plain mark, a simple code point after plain marks) are decided
  /// inline, as ``decide(_:isSimple:raw:recognizer:)`` would; the rest by that function, out of line, so that the
  /// scanner's loop stays within what the optimizer inlines.
  @inline(__always)
  mutating func startsCluster(
    _ value: UInt32, isSimple: Bool, raw: UInt32, recognizer: inout Unicode._CharacterRecognizer
  ) -> Bool {
    if started && !previousIsEmojiPart {
      if isSimple && (previousIsSimple || markedBase != 0 && value &- 0x1F1E6 >= 0x1F400 - 0x1F1E6) {
        // GB999 (no emoji rule reads a code point outside U+1F1E6–U+1F3FF after marks).
        (previous, previousRaw, previousIsSimple, recognizerIsCurrent, markedBase) = (value, raw, true, false, 0)
        return true
      }
      if UnicodeProperties.isPlainMark(raw, value)
        && (markedBase != 0 || previousIsSimple && UnicodeProperties.takesPlainMarks(previousRaw, previous))
      {
        // GB9, after a base that no rule looks back to (see ``UnicodeProperties/takesPlainMarks(_:_:)``).
        if markedBase == 0 { (markedBase, recognizerIsCurrent) = (previous, false) }
        (previous, previousRaw, previousIsSimple) = (value, raw, false)
        return false
      }
    }
    return decide(value, isSimple: isSimple, raw: raw, recognizer: &recognizer)
  }

  /// ``startsCluster(_:isSimple:raw:recognizer:)`` for every case.
  @inline(never)
  private mutating func decide(
    _ value: UInt32, isSimple: Bool, raw: UInt32, recognizer: inout Unicode._CharacterRecognizer
  ) -> Bool {
    var isEmojiPart = false
    defer { (previous, previousRaw, previousIsSimple, previousIsEmojiPart) = (value, raw, isSimple, isEmojiPart) }
    if !started {
      started = true
      if Self.isRegionalIndicator(value) { (isEmojiPart, regionalIndicatorsOdd, pictographState) = (true, true, 0) }
      // A simple first code point is fed to the recognizer only if a code point that is not simple follows
      // (every window of a paragraph, every blank line, started with the recognizer).
      guard !isSimple else { return true }
      recognizer = Unicode._CharacterRecognizer()
      _ = recognizer.hasBreak(before: Unicode.Scalar(validUTF8: value))
      recognizerIsCurrent = true
      return true
    }
    if isSimple && previousIsSimple {
      recognizerIsCurrent = false
      return true
    }
    // (Asked only of the code points it may decide: a function of its own, so that this one stays small enough to
    // be inlined into the scanner's loop.)
    if previousIsEmojiPart || value == 0x200D || value & ~1 == 0xFE0E || value &- 0x1F1E6 < 0x1F400 - 0x1F1E6,
      let startsCluster = emojiBoundary(value, isSimple: isSimple, raw: raw)
    {
      (isEmojiPart, recognizerIsCurrent, markedBase) = (true, false, 0)
      return startsCluster
    }
    if markedBase != 0 {
      if isSimple {
        markedBase = 0
        return true
      }
      if UnicodeProperties.isPlainMark(raw, value) { return false }
      // The recognizer in the state the cluster so far leaves it in: a base that no rule looks back to, and
      // marks that all extend it.
      recognizer = Unicode._CharacterRecognizer()
      _ = recognizer.hasBreak(before: Unicode.Scalar(validUTF8: markedBase))
      _ = recognizer.hasBreak(before: Unicode.Scalar(validUTF8: previous))
      (recognizerIsCurrent, markedBase) = (true, 0)
      return recognizer.hasBreak(before: Unicode.Scalar(validUTF8: value))
    }
    if previousIsSimple, UnicodeProperties.isPlainMark(raw, value),
      UnicodeProperties.takesPlainMarks(previousRaw, previous)
    {
      (markedBase, recognizerIsCurrent) = (previous, false)
      return false
    }
    if !recognizerIsCurrent {
      // The open cluster is the simple code point before this one alone, or it ends with the code point before
      // this one decided as part of an emoji sequence or a flag: a pictograph fed first when the cluster started
      // with one leaves the recognizer as the whole cluster would for what comes after (GB11).
      recognizer = Unicode._CharacterRecognizer()
      if previousIsEmojiPart && pictographState != 0 { _ = recognizer.hasBreak(before: "\u{1F600}") }
      _ = recognizer.hasBreak(before: Unicode.Scalar(validUTF8: previous))
      recognizerIsCurrent = true
    }
    return recognizer.hasBreak(before: Unicode.Scalar(validUTF8: value))
  }

  /// Whether a cluster starts before `value` when it continues or follows an emoji sequence or a flag, decided
  /// without the recognizer, which is slow (Docs/PerformanceNotes.md, "Walking clusters"); `nil` for anything
  /// else, left to the general rules. Decided here, by UAX #29:
  /// - a modifier, a variation selector or a joiner after a pictograph (or after one of them that follows it)
  ///   joins it (GB9), and the pictograph after such a joiner joins too (GB11);
  /// - a regional indicator joins the one before when that one ends a run of odd length (GB12, GB13); after
  ///   anything else it starts a cluster (GB999), but after a prepended mark (GB9b);
  /// - a simple code point after a code point decided here starts a cluster (no rule joins them).
  ///
  /// Only a code point decided here makes the state of the next decision, so that what the recognizer decided
  /// in between never leaves a stale one; the recognizer, asked again after a code point decided here, is fed
  /// that code point alone, which every rule but those above (GB11, GB12, GB13) and the Indic conjuncts' (GB9c,
  /// whose sequences hold no pictograph and no regional indicator) reads enough of.
  @inline(never)
  private mutating func emojiBoundary(_ value: UInt32, isSimple: Bool, raw: UInt32) -> Bool? {
    let isPictograph = raw & UnicodeTables.flagExtendedPictographic != 0
    if isPictograph && previous == 0x200D && previousIsEmojiPart && pictographState == 2 {
      pictographState = 1
      return false
    }
    if value == 0x200D || value &- 0x1F3FB < 5 || value & ~1 == 0xFE0E {
      guard previousRaw & UnicodeTables.flagExtendedPictographic != 0 || previousIsEmojiPart && pictographState == 1
      else { return nil }
      pictographState = value == 0x200D ? 2 : 1
      return false
    }
    if Self.isRegionalIndicator(value) {
      pictographState = 0  // not a pictograph: a joiner after it joins nothing (GB11)
      if Self.isRegionalIndicator(previous) && previousIsEmojiPart {
        regionalIndicatorsOdd.toggle()
        return regionalIndicatorsOdd  // odd again: this one starts a new pair
      }
      regionalIndicatorsOdd = true
      return previousRaw & UnicodeTables.flagPrepend == 0
    }
    if isSimple && previousIsEmojiPart {
      pictographState = isPictograph ? 1 : 0
      return true
    }
    return nil
  }

  /// Whether the code point is a regional indicator (U+1F1E6–U+1F1FF).
  @inline(__always)
  private static func isRegionalIndicator(_ value: UInt32) -> Bool { value &- 0x1F1E6 < 26 }

  /// ``GraphemeReader/read(_:at:tables:)``, with the reader's recognizer.
  @inline(__always)
  mutating func read(
    _ bytes: UnsafeBufferPointer<UInt8>, at position: Int, tables: UnicodeTables.Decoded,
    recognizer: inout Unicode._CharacterRecognizer
  ) -> (value: UInt32, length: Int, startsCluster: Bool) {
    let (value, length) = bytes.decodeScalar(at: position)
    let raw = value < 0x80 ? 0 : value < 0x800 ? tables.lookUp(belowU0800: value) : tables.lookUp(value)
    let isSimple = UnicodeProperties.isGraphemeSimple(raw, value)
    return (value, length, startsCluster(value, isSimple: isSimple, raw: raw, recognizer: &recognizer))
  }

  /// Takes in simple code points that were read past without asking (clusters of their own after a simple
  /// one: what ``startsCluster(_:isSimple:raw:recognizer:)`` answers for them), `last` the last of them and `raw`
  /// its packed properties (0 for ASCII will do).
  @inline(__always)
  mutating func continueAfterSimple(_ last: UInt32, raw: UInt32) {
    precondition(started && previousIsSimple, "a stretch of simple code points follows a simple one")
    (previous, previousRaw, recognizerIsCurrent, markedBase, previousIsEmojiPart) = (last, raw, false, 0, false)
  }

  /// Whether the code point before was simple: a simple one after it starts a cluster.
  var isAfterSimple: Bool { started && previousIsSimple }
}

extension Unicode.Scalar {
  /// The code point decoded from a string's bytes, which are valid UTF-8: no check again.
  @inline(__always)
  init(validUTF8 value: UInt32) {
    self = unsafeBitCast(value, to: Unicode.Scalar.self)
  }
}
