import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// The prepare stage: cell widths and break opportunities.
@Suite struct PrepareTests {
  /// The code points at which a text box starts in a window: those whose UTF-8 offset is a style's start strictly
  /// after the window's first and before its end, found by walking both along (as a set of the starts would).
  @Test func aWindowsBoxesAreTheCodePointsWhereAStyleStarts() {
    var random = SplitMix64(state: 73)
    for _ in 0..<500 {
      let scalars: [Unicode.Scalar] = (0..<Int.random(in: 1...40, using: &random)).map { _ in
        ["a", "é", "ไ", "中", "😀", "\u{301}"].randomElement(using: &random)!
      }
      // Clusters of one to three code points, from the UTF-8 offset `base`.
      let base = Int.random(in: 0...20, using: &random)
      var clusters: [BreakScanner.ScannedCluster] = []
      var (index, offset) = (0, base)
      while index < scalars.count {
        clusters.append(.init(offset: offset, scalar: index, cells: 1))
        let length = min(Int.random(in: 1...3, using: &random), scalars.count - index)
        offset += scalars[index..<index + length].reduce(0) { $0 + UTF8.width($1) }
        index += length
      }
      clusters.append(.init(offset: offset, scalar: scalars.count, cells: 1))
      let count = Int.random(in: 1...(clusters.count - 1), using: &random)
      let scanned = scalars.map { BreakScanner.ScannedScalar(scalar: $0, properties: 0) }
      var starts = Set<Int>()
      for _ in 0..<Int.random(in: 0...12, using: &random) {
        starts.insert(Int.random(in: 0...(offset + 5), using: &random))
      }
      let sorted = starts.sorted()
      var expected: [Int] = []
      for k in 0..<count {
        var at = clusters[k].offset
        for scalar in clusters[k].scalar..<clusters[k + 1].scalar {
          if at > clusters[0].offset && at < clusters[count].offset && starts.contains(at) { expected.append(scalar) }
          at += UTF8.width(scalars[scalar])
        }
      }
      #expect(BreakScanner.boxScalars(sorted, clusters: clusters, count: count, scalars: scanned) == expected)
    }
  }

  let cells = TerminalCells()

  @Test(arguments: [
    ("A", 1), ("中", 2), ("Ａ", 2), ("한", 2), ("e\u{301}", 1), ("\u{301}", 0), ("😀", 2),
    ("👨‍👩‍👧", 2), ("🇺🇸", 2), ("\u{200B}", 0), ("\u{1B}", 1), ("\u{7F}", 1), ("\u{9B}", 1),
    ("\u{1112}\u{1161}\u{11AB}", 2), ("…", 1), ("\n", 0),
  ])
  func clusterWidths(_ cluster: String, _ width: Int) {
    #expect(cells.advance(of: Character(cluster), style: .plain) == width)
  }

  @Test func tabsAdvanceToTheNextStop() {
    #expect(cells.width(of: "\t") == 8)
    #expect(cells.width(of: "abc\t") == 8)
    #expect(cells.width(of: "abcdefgh\tx") == 17)
  }

  func marks(_ text: String, _ rules: LineBreaker.Rules = .unicode) -> String {
    BreakNotation.render(text, breaker: LineBreaker(rules: rules))
  }

  @Test func opportunitiesFollowUAX14AndHardBreaks() {
    #expect(marks("ab  cd\nef") == "×a×b×␠×␠÷c×d×␊÷\ne×f÷\n")
    #expect(marks("  lead") == "×␠×␠÷l×e×a×d÷\n")
    #expect(marks("end\n") == "×e×n×d×␊÷\n")
    #expect(marks("中文。") == "×中÷文×。÷\n")
    #expect(marks("$19.99 (42%)") == "×$×1×9×.×9×9×␠÷(×4×2×%×)÷\n")
    #expect(marks("a\u{2028}b\u{85}c\u{0B}d") == "×a×⟨LS⟩÷\nb×␤÷\nc×␋÷\nd÷\n")
    #expect(marks("soft\u{AD}hyphen") == "×s×o×f×t×⟨SHY⟩÷h×y×p×h×e×n÷\n")
    // Hard breaks before non-ASCII text and ASCII before combining marks (the ASCII fast path must yield).
    let kinds = LineBreaker.unicode.allOpportunities(in: "a\n日\u{85}b\u{2028}c\r\nx\u{301}\u{0C}d\re")
    #expect(kinds.map(\.offset) == [2, 7, 11, 14, 18, 20])
    #expect(kinds.allSatisfy { $0.kind == .mandatory })
  }

  @Test func neverInsideAGraphemeCluster() {
    #expect(marks("🇺🇸🇫🇷") == "×🇺🇸÷🇫🇷÷\n")
    #expect(marks("e\u{301}👨‍👩‍👧x") == "×e\u{301}÷👨‍👩‍👧÷x÷\n")
    // UAX #14 allows a break between a space and a mark after it (LB18, LB10); the two are one cluster.
    #expect(UAX14.breaks(Array("a \u{308}b".unicodeScalars))[2] == .allowed)
    #expect(marks("a \u{308}b") == "×a× \u{308}×b÷\n")
  }

  @Test func chromiumTailoring() {
    #expect(marks("find .com", .unicode) == "×f×i×n×d×␠×.×c×o×m÷\n")
    #expect(marks("find .com", .chromium) == "×f×i×n×d×␠÷.×c×o×m÷\n")
    #expect(marks("a/b/c", .unicode) == "×a×/÷b×/÷c÷\n")
    #expect(marks("a/b/c", .chromium) == "×a×/×b×/×c÷\n")
    #expect(marks("x -1 AB-12", .chromium) == "×x×␠÷-×1×␠÷A×B×-÷1×2÷\n")
    #expect(marks("what?yes", .chromium) == "×w×h×a×t×?÷y×e×s÷\n")
    #expect(marks("code( s )", .chromium) == "×c×o×d×e×(×␠÷s×␠÷)÷\n")
    #expect(marks("中文。", .chromium) == marks("中文。", .unicode))
  }

  /// Every pair of printable ASCII characters follows Blink's table as its source states it (third_party/blink
  /// Chromium breaks before a conditional Japanese starter (small kana, the prolonged sound mark) as before an
  /// ideograph, in every language (measured in Chromium 156: `アアアプレビ|ュー` at 97 px of 16 px kana);
  /// UAX #14 resolves them to NS and does not.
  ///
  /// Other NS characters (`々`, `〜`, `・`) keep no break before them.
  @Test func chromiumBreaksBeforeSmallKanaAndTheProlongedSoundMark() {
    func breaks(_ text: String, _ breaker: LineBreaker) -> [String] {
      var pieces: [String] = []
      var start = text.utf8.startIndex
      for opportunity in breaker.allOpportunities(in: text) {
        let end = text.utf8.index(text.utf8.startIndex, offsetBy: opportunity.offset)
        pieces.append(String(text[start..<end]))
        start = end
      }
      pieces.append(String(text[start...]))
      return pieces
    }
    #expect(breaks("プレビュー", .chromium) == ["プ", "レ", "ビ", "ュ", "ー"])
    #expect(breaks("プレビュー", .unicode) == ["プ", "レ", "ビュー"])
    #expect(breaks("ちょっと", .chromium) == ["ち", "ょ", "っ", "と"])
    #expect(breaks("ア々ア〜ア・ア", .chromium) == ["ア々", "ア〜", "ア・", "ア"])
    #expect(breaks("「ュ」", .chromium) == ["「ュ」"])  // after an opening bracket, before a closing one: none
  }

  /// line_break_iterator: a break after `-` before a quote, `#`, `'` or a "word" character, after `?` before
  /// `#`, `$` or one, after closing punctuation before `(`, `<`, `[`, `{`; none between the others).
  ///
  /// A `-` before a digit is left out: it depends on the character before (the test above).
  @Test func chromiumBreaksEveryASCIIPairAsBlinksTable() {
    let word = Set("%&(*+-0123456789<=>@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\^_`abcdefghijklmnopqrstuvwxyz{|~")
    let printable = (0x21...0x7E).map { Character(UnicodeScalar(UInt8($0))) }
    for previous in printable {
      for current in printable where !(previous == "-" && current.isASCII && current.isNumber) {
        let allowed =
          (previous == "-" && (word.contains(current) || "\"#'".contains(current)))
          || (previous == "?" && (word.contains(current) || "#$".contains(current)))
          || ("!\"#%&)*+,.:;=>\\]|}~".contains(previous) && "(<[{".contains(current))
        let breaks = LineBreaker.chromium.allOpportunities(in: "\(previous)\(current)").map(\.offset)
        #expect(breaks == (allowed ? [1] : []), "\(previous)\(current)")
      }
    }
  }

  /// A long paragraph is read in windows cut at safe places (two letters, ideographs or digits in a row); one
  /// with no safe place (punctuation and spaces) in one window that grows past twice the usual size.
  @Test(
    arguments: [LineBreaker.Rules.unicode, .chromium],
    [
      "word (x) 中文。 $1.5 🇺🇸 e\u{301} “q” a-1 ", "12 34, (56) 7.8% 9/0 ", "(.) - , ; $% / !? “” -",
    ])
  func aLongParagraphIsBrokenInWindowsWithTheSameResult(_ rules: LineBreaker.Rules, _ unit: String) {
    let text = String(repeating: unit, count: 21_000 / unit.unicodeScalars.count)  // no hard break
    let windowed = LineBreaker(rules: rules).allOpportunities(in: text).map(\.offset)
    if rules == .chromium {
      let once = LineBreaker.chromium.allOpportunities(in: unit + unit).map(\.offset)
      #expect(Set(windowed.filter { $0 < unit.utf8.count * 2 }) == Set(once + [unit.utf8.count]))
      return
    }
    #expect(windowed == Self.wholeParagraphOpportunities(text))
    #expect(windowed.count > text.unicodeScalars.count / 8)
  }

  /// The opportunities of a paragraph decided at once, straight from UAX #14 over all its code points, kept at
  /// cluster boundaries: what reading it in windows must find.
  static func wholeParagraphOpportunities(_ text: String) -> [Int] { wholeTextOpportunities(text).map(\.offset) }

  /// Windows are also cut between two digits: the rules that look back (numbers' separators, spaces, a hyphen,
  /// quotation marks, regional indicators) find the same answers in random paragraphs thick with numbers,
  /// and a paragraph of digits alone is read in windows of the usual size.
  @Test func windowsCutBetweenDigitsDecideAsTheWholeParagraph() {
    let pieces = [
      "12", "3", "4567", ".", ",", "/", "-", "$", "%", "(", ")", "]", " ", "  ", "x", "ab", "中", "“", "”", "\"",
      "e\u{301}", "🇺🇸", "\u{0E01}", "+", ":", "°", "€", "\u{200D}", "1\u{301}",
    ]
    var random = SplitMix64(state: 17)
    for _ in 0..<12 {
      var text = ""
      while text.unicodeScalars.count < 9_000 + random.below(6_000) { text += random.pick(pieces) }
      #expect(LineBreaker.unicode.allOpportunities(in: text).map(\.offset) == Self.wholeParagraphOpportunities(text))
    }
    // The claim itself, at every place where a window could be cut: UAX #14 after the cut, given the two
    // plain clusters before it as context, decides as over the whole paragraph. (A window is cut once per
    // 4,096 code points, too rarely for the paragraphs above to meet every context.)
    for _ in 0..<3_000 {
      var text = ""
      for _ in 0..<(4 + random.below(30)) { text += random.pick(pieces) }
      let scalars = Array(text.unicodeScalars)
      var clusterStarts = Set<Int>()
      var index = 0
      for cluster in text {
        clusterStarts.insert(index)
        index += cluster.unicodeScalars.count
      }
      clusterStarts.insert(index)
      let whole = UAX14.breaks(scalars)
      for k in 1..<max(1, scalars.count - 1)
      where [k - 1, k, k + 1].allSatisfy(clusterStarts.contains)
        && [k - 1, k].allSatisfy({
          BreakScanner.isPlainUnit(.init(scalar: scalars[$0], properties: UnicodeProperties(scalars[$0]).raw))
        })
      {
        let afterCut = UAX14.breaks(scalars[(k - 1)...])
        #expect(Array(afterCut[2...]) == Array(whole[(k + 1)...]), "\(text.debugDescription) cut after \(k)")
      }
    }
    var scanner = BreakScanner(String(repeating: "0123456789", count: 6_000), from: 0, rules: .unicode)
    var windows = 0
    while scanner.scanWindow() { windows += 1 }
    #expect(windows >= 60_000 / BreakScanner.window)
    #expect(scanner.scalars.count <= 2 * BreakScanner.window + 64)
  }

  /// Short paragraphs share a window, which ends after a hard line break once it holds its shortest length: the
  /// opportunities, and which of them are mandatory, are UAX #14's over the whole text, every kind of hard break and
  /// paragraphs of every length (cut in windows too) included.
  @Test func windowsOfManyParagraphsDecideAsTheWholeText() {
    let pieces = [
      "word", " ", "  ", "12", ".", "-", "(", ")", "“", "”", "中", "e\u{301}", "🇺🇸", "\u{200D}", "\u{0301}", "$", "%",
      "\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}", "\n\n", "\u{200B}",
    ]
    var random = SplitMix64(state: 53)
    for round in 0..<40 {
      var text = ""
      // Paragraphs of a few code points to a few thousand, some past two windows.
      for _ in 0..<(1 + random.below(round % 4 == 0 ? 3_000 : 400)) { text += random.pick(pieces) }
      #expect(LineBreaker.unicode.allOpportunities(in: text) == Self.wholeTextOpportunities(text), "round \(round)")
    }
    // A hundred paragraphs of about fifty code points each: a window ends after the first of them to reach its
    // shortest length (256 code points), so it holds about five.
    let paragraphs = (0..<100).map { "Paragraph \($0): the quick brown fox jumps over the dog.\n" }.joined()
    #expect((5...25).contains(Self.windowCount(paragraphs)))
  }

  /// The number of windows the scanner reads a text in.
  static func windowCount(_ text: String) -> Int {
    var scanner = BreakScanner(text, from: 0, rules: .unicode)
    var windows = 0
    while scanner.scanWindow() { windows += 1 }
    return windows
  }

  /// The scanner reads stretches of printable ASCII a byte at a time, apart from its general step: its
  /// clusters are still Swift's characters (a run of letters a cluster per letter), where ASCII meets a mark
  /// that joins it, a prepended mark before it, a hard line break, a control, and across windows.
  @Test func scannedClustersAreCharactersAroundASCIIStretches() {
    let pieces = [
      "word", "a", " ", "e\u{301}", "\u{0600}1", "\r\n", "\r", "\n", "\u{1}", "\u{7F}", "~", "中", "x\u{200D}",
      "👍🏽", "\t", "\u{0E01}\u{0E33}", "1\u{20E3}", "z\u{FE0F}", String(repeating: "ab ", count: 700),
      "слово", "и\u{306}", "\u{0600}ж", "ภาษา", "◊◌◊", String(repeating: "ж", count: 5_000),
    ]
    var random = SplitMix64(state: 29)
    var letterRuns = 0
    for round in 0..<200 {
      var text = ""
      for _ in 0..<(round % 20 == 0 ? 600 : 1 + random.below(30)) { text += random.pick(pieces) }
      let expected = characterOffsets(text)
      var scanner = BreakScanner(text, from: 0, rules: .unicode)
      var scanned: [Int] = []
      while scanner.scanWindow() {
        scanned += scanner.clusterOffsets
        letterRuns += scanner.letterRunCount
      }
      #expect(scanned == expected, "\(text.debugDescription.prefix(200))")
    }
    #expect(letterRuns > 1_000)  // the runs of letters that the scanner makes one entry were met
  }

  /// The cells the scanner writes into each cluster as it reads it are what the segmenter's general path measures
  /// (``TerminalCells/legacyWidth(ofScanned:_:)``) for content of no special kind of one code point or a run of
  /// letters, ``BreakScanner/ScannedCluster/space`` for a space alone, and ``BreakScanner/ScannedCluster/other``
  /// for the rest: beside marks that split a run of letters or extend a code point read alone, clusters that a
  /// window starts with, hard line breaks, controls, soft hyphens, emoji and windows cut in long paragraphs.
  @Test func scannedCellsAreTheGeneralPaths() {
    let pieces = [
      "word", "a", "Z", " ", "  ", "e\u{301}", "\r\n", "\n", "\u{1}", "\u{7F}", "\u{9F}", "\u{85}", "\u{AD}", "\t",
      "中", "한", "\u{0E01}\u{0E48}", "\u{0E01}\u{0E33}", "👍🏽", "🇯🇵", "x\u{200D}", "слово", "и\u{306}", "Größe",
      "ж\u{301}", "שלום", "\u{600}ж", "\u{2028}", "1", ",", "\u{A0}", "◊◌", "ｱ\u{FF9E}",
      String(repeating: "ab ", count: 400),
      String(repeating: "ж", count: 700), String(repeating: "中", count: 900),
    ]
    var random = SplitMix64(state: 18)
    var counts = (plain: 0, space: 0, other: 0, runs: 0)
    for round in 0..<300 {
      var text = ""
      for _ in 0..<(round % 20 == 0 ? 300 : 1 + random.below(30)) { text += random.pick(pieces) }
      var scanner = BreakScanner(text, from: 0, rules: .unicode)
      while scanner.scanWindow() {
        scanner.scalars.withUnsafeBufferPointer { scalars in
          for k in 0..<scanner.clusterCount {
            let (entry, end) = (scanner.clusters[k], scanner.clusters[k + 1].scalar)
            let count = end - entry.scalar
            let first = scalars[entry.scalar].scalar
            let kind = Cluster.kind(of: first.value, second: count > 1 ? scalars[entry.scalar + 1].scalar : nil)
            let isContent =
              (count == 1 || BreakScanner.isLetterRun(scalars, first: entry.scalar, count: count))
              && first.value > 0x20 && !kind.isSoftHyphen && !kind.isHardLineBreak
            let expected =
              count == 1 && first == " "
              ? BreakScanner.ScannedCluster.space
              : isContent
                ? Int32(TerminalCells.legacyWidth(ofScanned: scalars, entry.scalar..<end))
                : BreakScanner.ScannedCluster.other
            #expect(entry.cells == expected, "cluster \(k) of \(text.debugDescription.prefix(120))")
            if count > 1 && expected >= 0 { counts.runs += 1 }
            if expected >= 0 {
              counts.plain += 1
            } else if expected == -2 {
              counts.space += 1
            } else {
              counts.other += 1
            }
          }
        }
      }
    }
    #expect(counts.plain > 10_000 && counts.space > 1_000 && counts.other > 1_000 && counts.runs > 1_000)
  }

  /// Letters of two UTF-8 bytes join runs as ASCII letters do (Latin with diacritics, Greek, Cyrillic, Armenian,
  /// Hebrew, Arabic): the clusters are still Swift's characters, the opportunities UAX #14's over the whole text
  /// (Blink's too, which adds nothing between letters), beside marks that join a letter, prepended marks, spaces,
  /// punctuation and symbols of two bytes that are not letters, and long words that reach a window's limit.
  @Test func lettersOfTwoBytesJoinRunsAndKeepClustersAndOpportunities() {
    let pieces = [
      "слово", "и\u{306}", "λόγος", "שלום", "\u{5E9}\u{5B4}", "مرحبا", "\u{628}\u{64E}", "բառ", "Größe", "naïve", "ß",
      "ж", "a", "Z", " ", "\u{A0}", "\u{AD}", "§", "×", "ª", "\u{2BC}", "\u{5BE}", "\u{60C}", "\u{600}ж", "ժ\u{301}x",
      "-", "12", ".", "\n", "中", "🇺🇸", "\u{0E01}", String(repeating: "ж", count: 600),
      String(repeating: "éa", count: 400),
    ]
    var random = SplitMix64(state: 71)
    var letterRuns = 0
    for round in 0..<300 {
      var text = ""
      for _ in 0..<(round % 25 == 0 ? 400 : 1 + random.below(30)) { text += random.pick(pieces) }
      var scanner = BreakScanner(text, from: 0, rules: .unicode)
      var scanned: [Int] = []
      while scanner.scanWindow() {
        scanned += scanner.clusterOffsets
        letterRuns += scanner.letterRunCount
      }
      #expect(scanned == characterOffsets(text), "\(text.debugDescription.prefix(200))")
      #expect(LineBreaker.unicode.allOpportunities(in: text) == Self.wholeTextOpportunities(text))
      // Blink's rules change nothing between two letters.
      let chromium = Set(LineBreaker.chromium.allOpportunities(in: text).map(\.offset))
      #expect(Self.offsetsBetweenLetters(text).allSatisfy { !chromium.contains($0) })
    }
    #expect(letterRuns > 1_000)
    // A word of letters of two bytes is one entry, as an ASCII word is.
    var scanner = BreakScanner("Съешь же ещё этих мягких французских булок", from: 0, rules: .unicode)
    _ = scanner.scanWindow()
    #expect(scanner.clusterCount == 13)  // 7 words, 6 spaces
  }

  /// The opportunities of a text decided at once, straight from UAX #14 over all its code points, mandatory ones
  /// included, kept at cluster boundaries.
  static func wholeTextOpportunities(_ text: String) -> [BreakOpportunity] {
    let scalars = Array(text.unicodeScalars)
    var actions = UAX14.breaks(scalars)
    let scanned = scalars.map { BreakScanner.ScannedScalar(scalar: $0, properties: UnicodeTables.lookUp($0.value)) }
    scanned.withUnsafeBufferPointer { DictionaryBreaks.allowWordBreaks(in: $0, actions: &actions) }
    var expected: [BreakOpportunity] = []
    var offset = 0
    var scalarIndex = 0
    for cluster in text {
      if offset > 0 && actions[scalarIndex] != .prohibited {
        expected.append(
          BreakOpportunity(offset: offset, kind: actions[scalarIndex] == .mandatory ? .mandatory : .allowed))
      }
      offset += cluster.utf8.count
      scalarIndex += cluster.unicodeScalars.count
    }
    return expected
  }

  /// Simple code points of three UTF-8 bytes (ideographs, kana, Hangul syllables, Thai consonants, symbols) are read
  /// in the scanner's loop over stretches too: the clusters are still Swift's characters and the opportunities UAX
  /// #14's over the whole text, beside what is not simple (Thai SARA AM, halfwidth sound marks, jamo, a virama,
  /// selectors after a pictograph), the hard line breaks of three bytes, letters and ASCII.
  @Test func simpleCodePointsOfThreeBytesKeepClustersAndOpportunities() {
    let pieces = [
      "中文", "。", "かな", "カ\u{FF9E}", "ｶ\u{FF9E}", "한국어", "\u{1100}\u{1161}", "한\u{11AB}", "\u{0E01}\u{0E33}", "ภาษา",
      "\u{2028}", "\u{2029}", "\u{2764}\u{FE0F}", "\u{2764}", "…", "—", "“", "”", "क\u{094D}क", "ab", "ж", " ", "\n",
      "1",
      "\u{00A9}\u{FE0F}", "\u{0300}", String(repeating: "中", count: 700), String(repeating: "한", count: 300),
    ]
    var random = SplitMix64(state: 89)
    for round in 0..<300 {
      var text = ""
      for _ in 0..<(round % 25 == 0 ? 300 : 1 + random.below(30)) { text += random.pick(pieces) }
      var scanner = BreakScanner(text, from: 0, rules: .unicode)
      var scanned: [Int] = []
      while scanner.scanWindow() { scanned += scanner.clusterOffsets }
      #expect(scanned == characterOffsets(text), "\(text.debugDescription.prefix(200))")
      #expect(LineBreaker.unicode.allOpportunities(in: text) == Self.wholeTextOpportunities(text), "round \(round)")
    }
    // A line separator (three bytes) ends a window of short paragraphs as a newline does.
    let paragraphs = (0..<100).map { "段落 \($0): the quick brown fox jumps over the dog.\u{2028}" }.joined()
    #expect((5...25).contains(Self.windowCount(paragraphs)))
  }

  /// The UTF-8 offsets between two characters that are each a letter of one or two bytes alone.
  static func offsetsBetweenLetters(_ text: String) -> [Int] {
    var offsets: [Int] = []
    var offset = 0
    var previous: Character?
    for character in text {
      if let previous, isShortLetter(previous), isShortLetter(character) { offsets.append(offset) }
      offset += character.utf8.count
      previous = character
    }
    return offsets
  }

  static func isShortLetter(_ character: Character) -> Bool {
    character.unicodeScalars.count == 1 && character.isLetter && character.utf8.count <= 2
  }

  /// Emoji sequences and flags are decided without the standard library's recognizer: the clusters are still
  /// Swift's characters, in both readers, for 4,000 random texts of pictographs (simple and not), modifiers,
  /// variation selectors, joiners, regional indicators, marks, prepended marks, controls, jamo and Indic
  /// conjuncts next to each other.
  @Test func emojiSequencesAndFlagsAreCharacters() {
    let pieces = [
      "😀", "👍", "👩", "🛑", "\u{2764}", "\u{00A9}", "\u{1F3FD}", "\u{1F3FB}", "\u{FE0F}", "\u{FE0E}", "\u{200D}",
      "🇯", "🇵", "🇫", "\u{0308}", "\u{0600}", "a", " ", "\n", "\r", "\u{1}", "\u{1100}", "\u{1161}", "한", "क",
      "\u{094D}", "\u{E0067}", "\u{200C}", "中",
    ]
    // And sequences that the random ones rarely meet: a joiner after a flag's indicator that followed a modifier
    // (it joins the indicator, and the pictograph after it starts a cluster), after a mark that followed a
    // pictograph (both join), three and five indicators in a row, indicators after a letter's mark.
    let chosen = [
      "👍🏽🇯\u{200D}👩", "🇯🇵\u{200D}👩", "😀\u{0308}\u{200D}🛑", "a\u{200D}👩", "👩\u{FE0F}\u{200D}👩🏽", "🇯🇵🇫",
      "🇯🇵🇫🇵🇯", "\u{0600}🇯🇵", "👍🏽\u{200D}\u{0308}👩", "🇯\u{0308}🇵", "a\u{0308}🇯🇵", "a\u{0308}🇯🇵🇫",
    ]
    var random = SplitMix64(state: 61)
    // A smaller set half the time: the emoji parts only, so that longer sequences of them are met.
    let emojiParts = ["👍", "👩", "\u{1F3FD}", "\u{FE0F}", "\u{200D}", "🇯", "🇵", "\u{0308}", "a"]
    for round in 0..<4_000 {
      let source = round % 2 == 0 ? pieces : emojiParts
      let text =
        round < chosen.count
        ? chosen[round] : (0..<(1 + random.below(12))).map { _ in random.pick(source) }.joined()
      let expected = characterOffsets(text)
      var scanner = BreakScanner(text, from: 0, rules: .unicode)
      var scanned: [Int] = []
      while scanner.scanWindow() { scanned += scanner.clusterOffsets }
      #expect(scanned == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
      var walk = ClusterWalk(StyledText(plain: text), range: 0..<text.utf8.count, measurer: TerminalCells())
      var walked: [Int] = []
      while let cluster = walk.next() { walked.append(cluster.start) }
      #expect(walked == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
  }

  /// Plain marks after a base that takes them are decided without the standard library's recognizer: the
  /// clusters are still Swift's characters, for every simple code point of their blocks as a base and every
  /// plain mark (each with a few of the others), with what may come before the base and after the marks (a letter, more marks, a joiner and a
  /// pictograph, an Indic linker and consonant, spacing marks, emoji modifiers, keycaps, jamo, flags, CR LF).
  @Test func plainMarksJoinTheirBaseAsCharactersDo() {
    func properties(_ value: UInt32) -> UInt32 { value < 0x80 ? 0 : UnicodeTables.lookUp(value) }
    let ranges = [0x20..<0x7F, 0xA0..<0x0900, 0x0E00..<0x0F00]
    // Every simple code point of these blocks, those that do not take plain marks (controls, pictographs)
    // included.
    let bases = ranges.joined().compactMap { Unicode.Scalar(UInt32($0)) }.filter {
      UnicodeProperties.isGraphemeSimple(properties($0.value), $0.value)
    }
    let marks = ranges.joined().compactMap { Unicode.Scalar(UInt32($0)) }.filter {
      UnicodeProperties.isPlainMark(properties($0.value), $0.value)
    }
    #expect(bases.count > 1_500 && marks.count > 300)
    let before = ["", "a", "\u{200D}", "😀\u{200D}", "क्", "\r", "\u{0600}", "\u{1}", "ж"]
    let after = [
      "", "a", "ж", " ", "\u{200D}", "\u{200D}😀", "\u{094D}क", "\u{0E33}", "\u{0903}", "😀", "\u{FE0F}", "\u{20E3}",
      "\u{1F3FB}", "\u{1100}", "🇯🇵", "\r\n", "\u{0301}", "中",
    ]
    var random = SplitMix64(state: 47)
    var cases: [String] = []
    for base in bases {
      for _ in 0..<6 {
        cases.append(random.pick(before) + String(base) + String(random.pick(marks)) + random.pick(after))
      }
    }
    for mark in marks {
      for _ in 0..<12 {
        let more = random.below(3) == 0 ? String(random.pick(marks)) : ""
        cases.append(random.pick(before) + String(random.pick(bases)) + String(mark) + more + random.pick(after))
      }
    }
    for text in cases {
      let expected = characterOffsets(text)
      var utf8 = text
      let read = utf8.withUTF8 { bytes in
        var reader = GraphemeReader()
        var starts: [Int] = []
        var position = 0
        while position < bytes.count {
          let (_, length, startsCluster) = reader.read(bytes, at: position, tables: UnicodeTables.decoded)
          if startsCluster { starts.append(position) }
          position += length
        }
        return starts
      }
      var scanner = BreakScanner(text, from: 0, rules: .unicode)
      var scanned: [Int] = []
      while scanner.scanWindow() { scanned += scanner.clusterOffsets }
      #expect(read == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
      #expect(scanned == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
  }

  /// Whether a cluster starts at an offset, asked of one offset alone (where a line's runs meet): Swift's
  /// characters' boundaries at every offset of texts of marks, prepended marks, Indic conjuncts, emoji
  /// sequences, flags, Hangul jamo, Thai SARA AM and CR LF; and `false` inside a code point.
  @Test func aClusterStartsWhereSwiftsCharactersDo() {
    let pieces = [
      "a", "word ", "e\u{301}", "\u{301}", "\u{0600}1", "\r\n", "\r", "\n", "\u{1}", "क्ष", "क्\u{200D}ष", "ि",
      "👨‍👩‍👧", "👍🏽", "\u{200D}", "🇯🇵🇫🇷", "🇺", "\u{1100}\u{1161}\u{11A8}", "\u{1161}", "한", "\u{0E01}\u{0E33}",
      "\u{0E33}", "1\u{20E3}", "z\u{FE0F}", "中", " ",
    ]
    var random = SplitMix64(state: 31)
    for round in 0..<400 {
      var text = ""
      for _ in 0..<(round % 50 == 0 ? 120 : 1 + random.below(12)) { text += random.pick(pieces) }
      let starts = Set(characterOffsets(text))
      var utf8 = text
      utf8.withUTF8 { bytes in
        for offset in 0...bytes.count {
          let expected = offset == bytes.count || starts.contains(offset)
          // Far from a place where two simple code points meet, the answer may be a safe `false`.
          let answer = GraphemeReader.startsCluster(at: offset, in: bytes)
          #expect(answer == expected || (!answer && round % 50 == 0), "\(offset) in \(text.debugDescription)")
        }
      }
    }
  }

  @Test func preparedTextReportsTheSameOpportunities() {
    let text = StyledText(plain: "one two\nthree")
    #expect(PreparedText(text).breakOpportunities == LineBreaker.unicode.allOpportunities(in: text.string))
  }
}

/// Preparing cuts the text into the segments that its clusters and opportunities make, read separately.
@Suite struct SegmentTests {
  /// The segments made from a cluster walk and the line breaker's opportunities, one cluster at a time: what
  /// preparing must find in its one pass.
  static func reference(_ text: StyledText, measurer: any TextMeasurer, breaker: LineBreaker) -> [Segment] {
    let opportunities = breaker.allOpportunities(in: text.string)
    var kinds: [Int: BreakOpportunity.Kind] = [:]
    for opportunity in opportunities { kinds[opportunity.offset] = opportunity.kind }
    var walk = ClusterWalk(text, range: 0..<text.string.utf8.count, measurer: measurer)
    var segments: [Segment] = []
    var width = 0
    while let cluster = walk.next() {
      if let kind = kinds[cluster.start], !segments.isEmpty {
        segments[segments.count - 1].isMandatoryBreak = kind == .mandatory
      }
      if segments.isEmpty || kinds[cluster.start] != nil {
        segments.append(
          Segment(
            start: cluster.start, contentEnd: cluster.start, spaceEnd: cluster.start, end: cluster.start,
            contentWidth: 0, spaceWidth: 0, hasTab: false, isMandatoryBreak: false, endsWithSoftHyphen: false))
        width = 0
      }
      width += cluster.advance
      let kind = (cluster.isTab, cluster.isSpace, cluster.isSoftHyphen, cluster.isHardLineBreak)
      segments[segments.count - 1].add(end: cluster.end, kind: kind, width: width)
    }
    return segments
  }

  @Test func segmentsAreWhatClustersAndOpportunitiesMake() throws {
    let pieces = [
      "word", " ", "  ", "\t", "\n", "\r\n", "\r", "中文", "。", "e\u{301}", "👨‍👩‍👧", "🇺🇸", "\u{AD}", "-", "(", ")",
      "“", "”", "$1.5", "x\u{200D}", "\u{0E01}\u{0E34}", "가", "\u{2028}", "**", "a/b", "\u{0B}", "\u{0C}", "\u{1B}",
      "\u{7F}", "слово", "и\u{306}", "ภาษา", "Größe", "\u{0600}ж", "λόγος", "שלום", "مرحبا", "naïve", "\u{A0}", "§",
    ]
    var random = SplitMix64(state: 8)
    let fonts = try FontSet.dejaVu(fallbacks: [])
    for round in 0..<300 {
      var string = ""
      let count = round % 50 == 0 ? 3_000 : 1 + random.below(40)  // some long enough for several windows
      for _ in 0..<count { string += random.pick(pieces) }
      let half = String(string.prefix(string.count / 2)).utf8.count
      let text = StyledText(
        string,
        runs: [.init(length: half, style: .plain), .init(length: string.utf8.count - half, style: Style(.bold))])
      for (measurer, breaker) in [
        (TerminalCells() as any TextMeasurer, LineBreaker.unicode), (FontMeasurer(fonts), LineBreaker.chromium),
      ] {
        let prepared = PreparedText(text, measurer: measurer, breaker: breaker)
        #expect(prepared.segments == Self.reference(text, measurer: measurer, breaker: breaker))
        // The segments handed out one at a time (what a streamed layout reads) are the same.
        let streamed = Array(IteratorSequence(Segmenter(text, measurer: measurer, breaker: breaker)))
        #expect(streamed == prepared.segments)
      }
    }
  }
}
