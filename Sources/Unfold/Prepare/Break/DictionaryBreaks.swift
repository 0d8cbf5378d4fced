internal import CICU

/// Where a line may break inside a run of a script written without spaces between words (Line_Break SA: Thai,
/// Lao, Khmer, Burmese and the Tai scripts): at the word boundaries of the system ICU's line break iterator, as
/// WebKit's line breaker finds them; of Chromium's own ICU's dictionaries (``WordDictionary``), as Blink's does; or
/// of ICU4X's LSTM models, as Gecko's does.
///
/// UAX #14 leaves such runs to a dictionary (LB1 resolves SA to AL, so that without one a run never breaks).
///
/// The one Swift file that calls ICU for words (``Bidi`` calls it for bidi).
enum DictionaryBreaks {
  /// Who finds the word boundaries inside a run of SA characters.
  enum Segmenter: Sendable {
    /// The system ICU's dictionaries, as WebKit breaks (and the terminal): boundaries inside the run only.
    case icuDictionary
    /// Chromium's own ICU's dictionaries and engine thresholds (``chromiumDictionaries``), as Blink breaks.
    case chromiumDictionaries
    /// ICU4X's LSTM models (``WordModel``), as Gecko breaks: the run is split into scripts, each script's
    /// stretch into the words its model finds (a stretch of a script without a model stays whole), and ICU4X's
    /// line segmenter also allows a break at the end of the run, before whatever follows it (`ไทย|)`).
    case icu4xModels
    /// A boundary only where all three find one, for a fragment that every engine breaks alike.
    case allEngines
  }

  /// Allows a break inside each run of Line_Break SA characters of `scalars` where `segmenter` finds a word
  /// boundary, in `actions` (one per code point, as ``UAX14`` decides them): UAX #14 leaves these runs to a
  /// dictionary (LB1 resolves SA to AL, so that a run never breaks otherwise).
  ///
  /// A mandatory break stays, and no break comes before a mark.
  ///
  /// `boxes`, the indexes of `scalars` where a style starts, are WebKit's text boxes: WebKit runs ICU over each box
  /// alone, with the last two characters before it as context (``boxBoundaries(in:boxes:)``), so that a word of
  /// the dictionary may not break where a style starts, and the box's own words are found in it alone. For
  /// ``Segmenter/icuDictionary`` they give WebKit's words; for ``Segmenter/allEngines``, a boundary must also be one of
  /// them; empty, Blink's, which reads the whole run.
  static func allowWordBreaks(
    in scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, actions: inout [UAX14.Action],
    by segmenter: Segmenter = .icuDictionary, boxes: [Int] = []
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
        let run = scalars[start..<end].lazy.map(\.scalar)
        let runBoxes = boxes.filter { $0 > start && $0 < end }.map { $0 - start }
        let found: [Int]
        switch segmenter {
        case .icuDictionary:
          found = runBoxes.isEmpty ? boundaries(in: run) : boxBoundaries(in: Array(run), boxes: runBoxes)
        case .chromiumDictionaries: found = chromiumBoundaries(in: run)
        case .icu4xModels: found = modelBoundaries(in: run)
        case .allEngines:
          var common = Set(boundaries(in: run)).intersection(modelBoundaries(in: run))
          common.formIntersection(chromiumBoundaries(in: run))
          if !runBoxes.isEmpty { common.formIntersection(boxBoundaries(in: Array(run), boxes: runBoxes)) }
          found = common.sorted()
        }
        for boundary in found where start + boundary < scalars.count {
          var at = start + boundary
          // The end of the run: after the word joiners that follow it (Firefox breaks there, not before them),
          // unless what follows is one of the characters before which Firefox never breaks there.
          if at == end {
            guard Self.breaksAtRunEnd else { continue }
            while at < scalars.count, Self.joinersAfterRunEnd.contains(scalars[at].scalar.value) { at += 1 }
            guard at < scalars.count, !Self.noBreakAtRunEndBefore.contains(scalars[at].scalar.value) else { continue }
          }
          // Never before a mark, which every engine keeps in the cluster before it (Gecko's `IsClusterExtender`):
          // a model reads code points, and a dictionary's words may also end before a spacing mark that UAX #29
          // lets start a grapheme cluster (Myanmar's U+102C AA and U+1038 VISARGA: `စက|ား`, `လုံ|း`).
          if actions[at] == .prohibited, !UnicodeProperties(raw: scalars[at].properties).isMark {
            actions[at] = .allowed
          }
        }
      }
      start = end
    }
  }

  /// Whether ICU4X's line segmenter allows a break at the end of a run of SA characters, before whatever follows
  /// it but a space (`ไทย|,`, `(ไทย|)`, `ไทย|abc`), as the ICU4X of Firefox ESR 153 does.
  ///
  /// ICU4X has since made the line breaking rules decide there (its issue #7218); a Firefox with that ICU4X needs
  /// `false`.
  static let breaksAtRunEnd = true

  /// The characters before which Firefox ESR 153 does not break at the end of such a run (probed in a box of no
  /// width: `RunEndBreakTests`): the spaces at which Gecko cuts its words (space, tab, CR, LF, U+1680, U+3000),
  /// the other line ends (U+0085, U+2028, U+2029), the zero width space and the soft hyphen, where the line breaks
  /// after it.
  ///
  /// Before the other spaces (U+00A0, U+2000 to U+200A, U+202F, U+205F), punctuation, letters and digits it breaks
  /// (`ไทย| abc` with U+2009).
  static let noBreakAtRunEndBefore: Set<UInt32> = [
    0x09, 0x0A, 0x0D, 0x20, 0x85, 0xAD, 0x1680, 0x200B, 0x2028, 0x2029, 0x3000,
  ]

  /// The characters after which, not before, Firefox ESR 153 breaks when they follow such a run: the word joiners
  /// (U+2060, U+FEFF) and the Mongolian vowel separator (`ไทย⁠|abc`), although UAX #14 forbids a break on either
  /// side of a word joiner.
  static let joinersAfterRunEnd: Set<UInt32> = [0x180E, 0x2060, 0xFEFF]

  /// The indexes into `scalars` (a run of SA characters) after which ICU4X's line segmenter allows a break, as
  /// Gecko calls it: the word ends of each script's stretch by its model, the end of a stretch without one, and
  /// the end of the run.
  static func modelBoundaries(in scalars: some Collection<Unicode.Scalar>) -> [Int] {
    let scalars = Array(scalars)
    var boundaries: [Int] = []
    var start = 0
    while start < scalars.count {
      let script = WordModel.model(for: scalars[start])
      var end = start + 1
      while end < scalars.count, WordModel.model(for: scalars[end]) == script { end += 1 }
      if let script {
        boundaries += script.model.wordEnds(in: scalars[start..<end]).map { start + $0 }
      } else {
        boundaries.append(end)
      }
      start = end
    }
    return boundaries
  }

  /// The indexes into `scalars` (a run of SA characters) before which WebKit allows a line break when styles start
  /// at `boxes` (indexes inside the run, ascending).
  ///
  /// WebKit finds a box's words with ICU over the box alone, and allows a break where a box starts only if ICU finds
  /// one there over the box after the last two characters of the box before it (`TextUtil::mayBreakInBetween`'s prior
  /// context).
  static func boxBoundaries(in scalars: [Unicode.Scalar], boxes: [Int]) -> [Int] {
    var found: [Int] = []
    let starts = [0] + boxes
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1] : scalars.count
      if start > 0 {
        let context = max(starts[index - 1], start - 2)
        if boundaries(in: scalars[context..<end]).contains(start - context) { found.append(start) }
      }
      for boundary in boundaries(in: scalars[start..<end]) where boundary > 0 && start + boundary < end {
        found.append(start + boundary)
      }
    }
    return found
  }

  /// The system ICU's dictionaries, with ICU's engine thresholds, in ``WordDictionary``'s engine: the words that the
  /// system's line break iterator finds.
  static let systemDictionaries: [WordDictionary.Script: WordDictionary] = Dictionary(
    uniqueKeysWithValues: WordDictionary.Script.allCases.compactMap { script in
      systemDictionary(script).map { (script, $0) }
    })

  /// The system ICU's dictionary for `script`, copied out of its data; `nil` when it has none.
  private static func systemDictionary(_ script: WordDictionary.Script) -> WordDictionary? {
    let name = script.dictionaryName
    let length = unfold_icu_dictionary(name, nil, 0)
    guard length > 0 else { return nil }
    let data = [UInt8](unsafeUninitializedCapacity: Int(length)) { buffer, count in
      count = Int(max(0, unfold_icu_dictionary(name, buffer.baseAddress, length)))
    }
    return WordDictionary(script: script, data: data)
  }

  /// Blink's dictionaries: those of Chromium's own ICU (ICU 78 with Chromium's data, an abridged Khmer dictionary
  /// and ICU 69's Lao one), decoded from ``chromiumDictionaryData`` where they differ from the system's and the
  /// system's where they do not (`scripts/extract-chromium-dictionaries.py` finds which; the system's are read only
  /// for those), with the thresholds of Chromium's patch to ICU's Khmer engine for its abridged dictionary
  /// (`patches/khmer-dictbe.patch`: a non-word joins the word before it when that word has at most 9 code points,
  /// unless it shares 5 with a word).
  static let chromiumDictionaries: [WordDictionary.Script: WordDictionary] = {
    var dictionaries: [WordDictionary.Script: WordDictionary] = [:]
    for script in WordDictionary.Script.allCases {
      let chromium = chromiumDictionaryData[script].flatMap { WordDictionary(script: script, base64: $0) }
      dictionaries[script] = chromium ?? systemDictionary(script)
    }
    dictionaries[.khmer]?.rootCombineThreshold = 10
    dictionaries[.khmer]?.prefixCombineThreshold = 5
    return dictionaries
  }()

  /// The indexes into `scalars` (a run of SA characters) before which Blink allows a line break, inside the run.
  static func chromiumBoundaries(in scalars: some Collection<Unicode.Scalar>) -> [Int] {
    WordDictionary.wordEnds(in: scalars.map(\.value), dictionaries: chromiumDictionaries)
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
