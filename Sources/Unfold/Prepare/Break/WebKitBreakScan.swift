/// WebKit's own scan for break opportunities (`BreakablePositions::nextBreakablePosition`), run over each text box
/// to find the one place where it differs from the rules the WebKit profile applies.
///
/// WebKit decides a pair of Latin-1 characters by its table, a few pairs by their classes, and asks ICU for the
/// rest. When ICU's next boundary lies ahead, the scan skips to just before the next Latin-1 character that is not
/// an ASCII letter (or to the boundary), and there compares that character with a stale one: the character it was
/// at when it asked ICU, not the one before. So in `ဘာသာ*၊*မြန်မာ` it compares the second `*` with the first, by
/// the table, and takes no break where ICU has one, after the section mark `၊`. Everywhere else the stale and the
/// true characters decide alike: the scan is run both ways, and only where the two differ does the stale one's
/// answer replace the profile's.
enum WebKitBreakScan {
  typealias ScannedScalar = BreakScanner.ScannedScalar

  /// Applies the stale scan's answers to `actions` (which hold the profile's breaks, dictionaries included, and
  /// serve as ICU's boundaries) in each text box of `scalars`: boxes start at `boxes` (ascending indexes) and at
  /// index 0.
  ///
  /// With `onlyRemoving`, only breaks that the stale scan does not take are removed (for `any`).
  static func apply(
    _ scalars: UnsafeBufferPointer<ScannedScalar>, actions: inout [UAX14.Action], boxes: [Int], onlyRemoving: Bool
  ) {
    let starts = [0] + boxes.filter { $0 > 0 && $0 < scalars.count }
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1] : scalars.count
      guard end - start > 2, scalars[start..<end].contains(where: { $0.scalar.value > 0xFF }) else { continue }
      let stale = breaks(scalars, actions: actions, box: start..<end, stale: true)
      let fresh = breaks(scalars, actions: actions, box: start..<end, stale: false)
      for position in fresh.subtracting(stale) { actions[position] = .prohibited }
      if !onlyRemoving {
        for position in stale.subtracting(fresh) where actions[position] != .mandatory {
          actions[position] = .allowed
        }
      }
    }
  }

  /// The positions in `box` before which the scan breaks, scanning from each break found (and past spaces) as
  /// WebKit's text items are made; `stale`: with the characters the scan compares after skipping ahead, else with
  /// the true ones.
  private static func breaks(
    _ scalars: UnsafeBufferPointer<ScannedScalar>, actions: [UAX14.Action], box: Range<Int>, stale: Bool
  ) -> Set<Int> {
    var found: Set<Int> = []
    var item = box.lowerBound
    while item < box.upperBound {
      // A run of spaces is an item of its own; the next starts after it.
      if isBreakableSpace(scalars[item].scalar.value) {
        while item < box.upperBound, isBreakableSpace(scalars[item].scalar.value) { item += 1 }
        continue
      }
      // The next item ends at the first breakable position past its start (the box's first character cannot
      // break before it: there is no context).
      var start = max(item, box.lowerBound + 1)
      var position = next(scalars, actions: actions, box: box, from: start, stale: stale)
      while position == item, start + 1 < box.upperBound {
        start += 1
        position = next(scalars, actions: actions, box: box, from: start, stale: stale)
      }
      guard position > item, position < box.upperBound else { break }
      if !isBreakableSpace(scalars[position].scalar.value) { found.insert(position) }
      item = position
    }
    return found
  }

  /// The next breakable position at or after `start` in `box` (`box.upperBound` when none): WebKit's scan for
  /// `word-break: normal`, with ICU's boundaries read from `actions`.
  private static func next(
    _ scalars: UnsafeBufferPointer<ScannedScalar>, actions: [UAX14.Action], box: Range<Int>, from start: Int,
    stale: Bool
  ) -> Int {
    func character(_ index: Int) -> UInt32 { index >= box.lowerBound ? scalars[index].scalar.value : 0 }
    var (beforeBefore, before) = (character(start - 2), character(start - 1))
    var (beforeType, after, afterType) = (0, UInt32(0), 0)
    var nextBreak = -1
    var i = start
    func advance() {
      (beforeBefore, before, beforeType) = (before, after, afterType)
      i += 1
    }
    while i < box.upperBound {
      after = scalars[i].scalar.value
      afterType = 0
      if isBreakableSpace(after) { return i }
      if before == 0x2D, (0x30...0x39).contains(after) {
        if (0x30...0x39).contains(beforeBefore) || isASCIILetter(beforeBefore) { return i }
        advance()
        continue
      }
      if before <= 0xFF, after <= 0xFF {
        if before >= 0x21, after >= 0x21, pairBreaks(before, after) { return i }
        advance()
        continue
      }
      if beforeType == 0 { beforeType = classify(before) }
      afterType = classify(after)
      let pair = beforeType | afterType
      if pair & ~(sp | al | qu | pi | pf) == 0 {
        advance()
        continue
      }
      if pair | al == id | al { return i }
      if pair & (gl | qu) != 0, pair & weird == 0 {
        if pair & id != 0, pair & qu != 0, afterType & pi != 0 || beforeType & pf != 0 { return i }
        advance()
        continue
      }
      if afterType == cm {
        afterType = beforeType
        advance()
        continue
      }
      if pair & weird == 0, pair & (cl | cp | op) != 0 {
        if afterType == cl || afterType == cp || beforeType == op {
          advance()
          continue
        }
        if pair & id != 0 { return i }
      }
      // ICU: its next boundary at or after `i` (the box's end is one).
      if nextBreak < i {
        nextBreak = i
        while nextBreak < box.upperBound, actions[nextBreak] == .prohibited { nextBreak += 1 }
      }
      if i < nextBreak {
        // Skips ahead to just before a Latin-1 character that is not an ASCII letter: the stale scan keeps the
        // character it was at as the one before.
        while i < min(nextBreak, box.upperBound - 1) {
          let lookahead = scalars[i + 1].scalar.value
          if lookahead <= 0xFF && !isASCIILetter(lookahead) { break }
          if stale {
            (beforeBefore, before, beforeType) = (before, after, afterType)
          } else {
            (beforeBefore, before, beforeType) = (before, scalars[i].scalar.value, 0)
            (after, afterType) = (lookahead, 0)
          }
          i += 1
        }
      }
      if i == nextBreak, !isBreakableSpace(before) { return i }
      advance()
    }
    return box.upperBound
  }

  /// Whether WebKit's table breaks between two printable Latin-1 characters: Blink's table of ASCII pairs and
  /// nine more after `-` (see `BreakScanner`'s WebKit tailoring).
  private static func pairBreaks(_ before: UInt32, _ after: UInt32) -> Bool {
    guard before <= 0x7F, after <= 0x7F else { return false }
    if before == 0x2D, let scalar = Unicode.Scalar(after), BreakScanner.webKitBreaksAfterHyphen.contains(scalar) {
      return true
    }
    return BreakScanner.asciiPairBreaks(before, after)
  }

  private static func isBreakableSpace(_ value: UInt32) -> Bool {
    value == 0x20 || value == 0x0A || value == 0x09 || value == 0x2028 || value == 0x2029
  }

  private static func isASCIILetter(_ value: UInt32) -> Bool { (0x61...0x7A).contains(value | 0x20) }

  // WebKit's classes (`BreakablePositions.h`), as bits.
  private static let (al, id, cm, op, cp, cl, gl, qu, sp, pi, pf, weird) = (
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 32768
  )

  /// A character's class in WebKit's scan (`BreakablePositions.h`'s classifier): the common classes of Latin,
  /// Greek, Cyrillic, Armenian, Hebrew, CJK and Hangul, and `weird` (ask ICU) for the rest.
  private static func classify(_ c: UInt32) -> Int {
    switch c {
    case 0x00..<0x10: return weird
    case 0x10..<0x20: return cm
    case 0x20: return sp
    case 0x22, 0x27: return qu
    case 0x28: return op
    case 0x29: return cp
    case 0x21..<0x30: return weird
    case 0x30...0x39: return al
    case 0x3A..<0x40: return weird
    case 0x40...0x5A: return al
    case 0x5B: return op
    case 0x5D: return cp
    case 0x5C, 0x5E, 0x5F: return weird
    case 0x60...0x7A: return al
    case 0x7B: return op
    case 0x7D: return cl
    case 0x7C, 0x7E, 0x7F: return weird
    case 0xA0: return gl
    case 0xA1, 0xBF: return op
    case 0xAB: return qu | pi
    case 0xBB: return qu | pf
    case 0xC1...0xFF: return al
    case 0x80...0xC0: return weird
    case 0x100..<0x280: return al
    case 0x2C8, 0x2CC, 0x2DF: return weird
    case 0x280..<0x300: return al
    case 0x34F, 0x35C...0x362: return gl
    case 0x300..<0x370: return cm
    case 0x37E: return weird
    case 0x370..<0x483: return al
    case 0x483...0x489: return cm
    case 0x48A..<0x589: return al
    case 0x5C8..<0x600: return al
    case 0x591...0x5BD, 0x5BF, 0x5C1, 0x5C2, 0x5C4, 0x5C5, 0x5C7: return cm
    case 0x589..<0x5C8: return weird
    case 0x600..<0xA00, 0x1000..<0x2000: return weird
    case 0x2018, 0x201C: return qu | pi
    case 0x2019, 0x201D: return qu | pf
    case 0x2000..<0x2080: return weird
    case 0x3000...0x303F:
      // Read by the low five bits, as WebKit reads them.
      switch c & 0x1F {
      case 0x01, 0x02, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x15, 0x17, 0x19, 0x1B, 0x1E, 0x1F: return cl
      case 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x16, 0x14, 0x18, 0x1A, 0x1D: return op
      default: return weird
      }
    case 0x3040...0x30FF, 0x31F0...0x31FF, 0xA015: return weird
    case 0x3248...0x324F, 0x4DC0...0x4DFF: return al
    case 0x2E80...0xA4CF, 0xAC00...0xD7AF, 0xF900...0xFAFF: return id
    default: return weird
    }
  }
}
