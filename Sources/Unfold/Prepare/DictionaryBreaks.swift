internal import CICU

/// Where a line may break inside a run of a script written without spaces between words (Line_Break SA: Thai,
/// Lao, Khmer, Burmese and the Tai scripts): at the word boundaries of ICU's line break iterator, whose
/// dictionaries are the ones Chromium's line breaker uses. UAX #14 leaves such runs to a dictionary (LB1
/// resolves SA to AL, so that without one a run never breaks).
///
/// The only Swift file that calls ICU.
enum DictionaryBreaks {
  /// Allows a break inside each run of Line_Break SA characters of `scalars` where ICU finds a word boundary, in
  /// `actions` (one per code point, as ``UAX14`` decides them): under both rules, since UAX #14 leaves these runs
  /// to a dictionary and Chromium breaks them with ICU's.
  static func allowWordBreaks(
    in scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, actions: inout [UAX14.Action]
  ) {
    // Every SA character is at or past U+0E00 (Thai): most characters are told apart by their value alone.
    @inline(__always) func isDictionaryScript(_ index: Int) -> Bool {
      scalars[index].scalar.value >= 0x0E00
        && UnicodeProperties(raw: scalars[index].properties).lineBreak == .sa
    }
    var start = 0
    while start < scalars.count {
      guard isDictionaryScript(start) else {
        start += 1
        continue
      }
      var end = start + 1
      while end < scalars.count, isDictionaryScript(end) { end += 1 }
      if end - start > 1 {
        for boundary in boundaries(in: scalars[start..<end].lazy.map(\.scalar))
        where actions[start + boundary] == .prohibited {
          actions[start + boundary] = .allowed
        }
      }
      start = end
    }
  }

  /// The indexes into `scalars` (a run of SA characters) before which ICU allows a line break, inside the run.
  static func boundaries(in scalars: some Collection<Unicode.Scalar>) -> [Int] {
    var units: [UInt16] = []
    units.reserveCapacity(scalars.count)
    for scalar in scalars { units.append(contentsOf: scalar.utf16) }
    guard units.count > 1, units.count < Int(Int32.max) else { return [] }
    var count: Int32 = 0
    let offsets = [Int32](unsafeUninitializedCapacity: units.count) { buffer, written in
      count = units.withUnsafeBufferPointer { text in
        unfold_icu_line_breaks(text.baseAddress, Int32(text.count), buffer.baseAddress, Int32(buffer.count))
      }
      written = Int(max(0, min(count, Int32(buffer.count))))
    }
    guard count > 0 else { return [] }
    // The offsets ascend: each is found by walking the scalars' UTF-16 lengths on from the one before.
    var boundaries: [Int] = []
    boundaries.reserveCapacity(Int(count))
    var index = 0
    var unit = 0
    var scalar = scalars.makeIterator()
    for offset in offsets {
      while unit < Int(offset), let next = scalar.next() {
        unit += next.utf16.count
        index += 1
      }
      boundaries.append(index)
    }
    return boundaries
  }
}
