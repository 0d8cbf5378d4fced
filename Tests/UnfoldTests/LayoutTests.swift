import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// The layout stage: greedy lines, hanging spaces, emergency breaks, early exit.
@Suite struct LayoutTests {
  func lines(_ text: String, width: Int, limit: Int? = nil) -> [String] {
    let styled = StyledText(plain: text)
    return LineLayout(styled, width: width, lineLimit: limit).lines.map {
      String(styled.text(in: $0.contentRange))
    }
  }

  @Test func wordsWrapAtSpacesAndTrailingSpacesHang() {
    #expect(lines("the quick brown fox", width: 9) == ["the quick", "brown fox"])
    #expect(lines("abc     def", width: 4) == ["abc", "def"])
    let layout = LineLayout(StyledText(plain: "ab   cd"), width: 3)
    #expect(layout.lines.map(\.width) == [2, 2])
    #expect(layout.lines.map(\.range) == [0..<5, 5..<7])
  }

  @Test func newlinesBreakAndATrailingNewlineAddsNoLine() {
    #expect(lines("a\nb\n\nc", width: 10) == ["a", "b", "", "c"])
    #expect(lines("a\n", width: 10) == ["a"])
    #expect(lines("a\n\n", width: 10) == ["a", ""])
    #expect(lines("", width: 10) == [])
  }

  @Test func aWordWiderThanTheLineBreaksAtGraphemeBoundaries() {
    #expect(lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    #expect(lines("x 中文字", width: 3) == ["x", "中", "文", "字"])
    #expect(lines("e\u{301}e\u{301}e\u{301}", width: 2) == ["e\u{301}e\u{301}", "e\u{301}"])
    #expect(lines("😀", width: 1) == ["😀"])
  }

  @Test func leadingSpacesOfALineCount() {
    #expect(lines("  ab cd", width: 5) == ["  ab", "cd"])
    #expect(LineLayout(StyledText(plain: "x\n\tab"), width: 20).lines.map(\.width) == [1, 10])
  }

  /// A short text that fits takes one line without the segmenter and the fitter when no break offsets are recorded:
  /// the same line as theirs (recorded, they run), and their lines where it does not fit or a break is mandatory.
  @Test func aShortTextOnOneLineIsTheFittersLine() {
    var random = SplitMix64(state: 53)
    let pieces = [
      "a", "word", " ", "  ", "-", "(x)", "1.5", "e\u{301}", "中", "\t", "\n", "\u{AD}", "é", "!", "/", "שלום",
      "ภาษาไทย",
      "統一碼", "Größe", "😀", "👍🏽", "👨\u{200D}👩", "\u{3000}", "\u{A0}", "\u{200F}", "\u{200B}", "\u{200D}", "\u{1F1EB}",
      "\u{0E33}", "\u{1100}\u{1161}", "\u{85}", "\u{2028}", "\u{7F}", "\u{FE0F}", "\u{0915}\u{094D}",
    ]
    var shortcuts = 0
    for _ in 0..<800 {
      let string = (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
      let split = Int.random(in: 0...string.utf8.count, using: &random)
      let prefix = String(decoding: Array(string.utf8.prefix(split)), as: UTF8.self)
      let text =
        prefix.utf8.count == split && split > 0 && split < string.utf8.count
        ? StyledText(
          string,
          runs: [.init(length: split, style: .plain), .init(length: string.utf8.count - split, style: Style(.bold))])
        : StyledText(plain: string)
      let width = Int.random(in: 1...40, using: &random)
      for profile in TerminalCells.Profile.allCases {
        let measurer = TerminalCells(profile: profile)
        let fast = Layout.lines(
          text, measurer: measurer, breaker: .unicode, width: LineWidth(width), lineLimit: nil,
          recordsBreakOffsets: false)
        let fitted = Layout.lines(
          text, measurer: measurer, breaker: .unicode, width: LineWidth(width), lineLimit: nil,
          recordsBreakOffsets: true)
        #expect(fast.lines == fitted.lines && fast.isComplete, "\(string.debugDescription) at \(width)")
        if fast.lines.count == 1 && !string.unicodeScalars.contains(where: { $0.value < 0x20 }) { shortcuts += 1 }
      }
    }
    #expect(shortcuts > 150)
  }

  @Test func aLimitStopsTheLayoutEarly() {
    let long = String(repeating: "word ", count: 200_000)
    let layout = LineLayout(StyledText(plain: long), width: 20, lineLimit: 3)
    #expect(layout.lines.count == 3)
    #expect(!layout.isComplete)
    #expect(layout.lines.last!.range.upperBound < 100)
    let exact = LineLayout(StyledText(plain: "a\nb\nc"), width: 20, lineLimit: 3)
    #expect(exact.isComplete && exact.lines.count == 3)
  }

  @Test func relayoutOfPreparedTextMatchesAFreshLayout() {
    let text = StyledText(plain: "The quick brown fox jumps over the lazy dog\nand\tthen some 中文 text.")
    let prepared = PreparedText(text)
    for width in 1...50 {
      #expect(prepared.layout(width: width).lines == LineLayout(text, width: width).lines, "width \(width)")
    }
  }

  /// Counting lines without making them gives the layout's number of lines, and with a limit tells whether a
  /// collapsed view truncates: what a list asks at every width before drawing.
  @Test func linesCountedWithoutMakingThemAreTheLayoutsLines() {
    let text = StyledText(
      plain: "The quick brown fox jumps over the lazy dog.\n\n中文的句子没有空格。\tA soft\u{AD}hyphen and 😀 emoji.")
    let prepared = PreparedText(text)
    for width in 1...70 {
      #expect(prepared.lineCount(width: width) == prepared.layout(width: width).lines.count, "width \(width)")
      for limit in 1...4 {
        let options = TruncationOptions(lineLimit: limit)
        let isTruncated = prepared.truncated(width: width, options: options, state: .collapsed).isTruncated
        #expect((prepared.lineCount(width: width, lineLimit: limit) > limit) == isTruncated, "width \(width)")
        #expect(prepared.lineCount(width: width, lineLimit: limit) <= limit + 1)
      }
    }
    #expect(prepared.lineCount(width: 0) == prepared.lineCount(width: 1))
  }

  /// A text of plain segments alone (no tab, soft hyphen or leading spaces), whose lines are counted by the
  /// relayout's loop with no fitter, counts a fresh layout's lines: with empty lines and a newline at its end, a word
  /// wider than the line, wide characters, and limits that it reaches, passes or stops just short of.
  @Test func linesCountedWithoutAFitterAreTheLayoutsLines() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    for string in [
      "word", "\n", "a\n", "a\n\n", "one two\nthree\n\nfour five six", "中文的句子没有空格。", "a verylongword b",
      "The quick brown fox jumps over the lazy dog. 😀 emoji, and 中文 too.\nA second paragraph.\n",
    ] {
      let text = StyledText(plain: string)
      for measurer in [TerminalCells() as any TextMeasurer, FontMeasurer(fonts)] {
        let prepared = PreparedText(text, measurer: measurer)
        let unit = measurer is TerminalCells ? 1 : FontMeasurer.unitsPerPixel * 8
        for width in (1...30).map({ $0 * unit }) {
          let lines = LineLayout(text, measurer: measurer, breaker: .unicode, width: width).lines.count
          #expect(prepared.lineCount(width: width) == lines, "\(string.debugDescription) at \(width)")
          for limit in [1, 2, 3, lines - 1, lines, lines + 1] where limit >= 1 {
            #expect(
              prepared.lineCount(width: width, lineLimit: limit) == min(lines, limit + 1),
              "\(string.debugDescription) at \(width), limit \(limit)")
          }
        }
      }
    }
  }

  /// The lines of a text of plain paragraphs, counted three paragraphs at a time (`RunningSums.countLines`, each of
  /// the three taking the next paragraph when its own is done, then the last two or one), are a fresh layout's:
  /// random texts of one to a dozen paragraphs of random lengths, empty ones among them, a newline at the end or
  /// not, wide characters and marks, at widths from one cell up, with no limit and with limits above and below the
  /// count.
  @Test func linesCountedParagraphsAtATimeAreTheLayoutsLines() {
    let words = ["word", "a", "longerword", "中文", "。", "😀", "e\u{301}", "x,", "(y)"]
    var random = SplitMix64(state: 17)
    var countedByParagraphs = 0
    var countedPastPadding = 0
    var countedWithLoneParagraphs = 0  // counted so, with paragraphs of one segment among them
    var loneTooWide = 0  // a paragraph of one segment wider than the line, the others' segments not
    var countedInCompactSums = 0
    let edges = [
      "a", "a\n", "a\n\n", "\n", "\n\n", "\na", "a\nb", "a\nb\n", "a b\n\nc d\n\n", "a\n\n\nb c d e",
      "a b\n\nlongerword", "longerword\na b c\n\nd e",
    ]
    for round in 0..<(edges.count + 300) {
      var string = round < edges.count ? edges[round] : ""
      for paragraph in 0..<(round < edges.count ? 0 : 1 + random.below(12)) {
        if paragraph > 0 { string += random.below(4) == 0 ? "\n\n" : "\n" }
        for word in 0..<random.below(random.below(3) == 0 ? 60 : 12) {
          string += (word > 0 ? " " : "") + random.pick(words)
        }
      }
      if round >= edges.count, random.below(4) == 0 { string += "\n" }
      let text = StyledText(plain: string)
      let prepared = PreparedText(text)
      // The same text counted in sums of 8 bytes with gaps (`RunningSums.contentEnds`), as a text too wide for those
      // of 4 (`RunningSums.countSums`) is.
      let wide = PreparedText(text, measurer: TerminalCells(), breaker: .unicode, narrowSums: false)
      // Each hard break starts a paragraph: the last segment has none, even after a newline.
      #expect(prepared.segments.last?.isMandatoryBreak != true, "\(string.debugDescription)")
      // The last two are wider than the width index's padding (its cells of 1 to 8 cells).
      for width in [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 600, 5_000] {
        let lines = LineLayout(text, width: width).lines.count
        #expect(prepared.lineCount(width: width) == lines, "\(string.debugDescription) at \(width)")
        #expect(wide.lineCount(width: width) == lines, "\(string.debugDescription) at \(width), wide sums")
        for limit in [1, lines - 1, lines, 4 * lines] where limit >= 1 {
          #expect(
            prepared.lineCount(width: width, lineLimit: limit) == min(lines, limit + 1),
            "\(string.debugDescription) at \(width), limit \(limit)")
          #expect(wide.lineCount(width: width, lineLimit: limit) == min(lines, limit + 1))
        }
        if !prepared.runningSums.countSums.isEmpty, prepared.runningSums.breaks.isEmpty,
          prepared.runningSums.contentWidths.allSatisfy({ $0 <= width })
        {
          countedInCompactSums += 1
        }
        if prepared.runningSums.breaks.isEmpty, prepared.runningSums.contentWidths.allSatisfy({ $0 <= width }) {
          countedByParagraphs += 1
          if width >> prepared.runningSums.widthShift > RunningSums.indexPadding { countedPastPadding += 1 }
          if prepared.longParagraphs.indices.count <= prepared.runningSums.hardBreaks.count {
            countedWithLoneParagraphs += 1
          }
        }
        let long = prepared.longParagraphs
        if prepared.runningSums.breaks.isEmpty, long.widestAlone > width,
          long.indices.allSatisfy({ paragraph in
            let first = paragraph == 0 ? 0 : prepared.runningSums.hardBreaks[paragraph - 1] + 1
            let last =
              paragraph < prepared.runningSums.hardBreaks.count
              ? prepared.runningSums.hardBreaks[paragraph] : prepared.segments.count - 1
            return prepared.runningSums.contentWidths[first...last].allSatisfy { $0 <= width }
          })
        {
          loneTooWide += 1
        }
      }
    }
    #expect(countedByParagraphs > 1_500)  // half the cases are counted so
    #expect(countedPastPadding > 300)
    #expect(countedWithLoneParagraphs > 1_000)
    #expect(loneTooWide >= 10)
    #expect(countedInCompactSums > 1_000)
  }

  /// A long text, counted three paragraphs at a time in sums of 4 bytes (`RunningSums.countSums`), each chain taking
  /// the next paragraph with no branch: its counts are a fresh layout's, for texts of 20,000 segments of random
  /// paragraphs with runs of empty lines between them (where a line's guess may lie paragraphs away), wide characters
  /// and marks, at widths from one cell up, with limits, in the sums of 4 bytes and in those of 8.
  @Test func linesCountedInCompactSumsAreTheLayoutsLines() {
    let words = ["word", "a", "longerword", "中文", "。", "😀", "e\u{301}", "x,", "(y)"]
    var random = SplitMix64(state: 23)
    // The last round's words are all "a", so that lines of one cell fit every segment.
    for round in 0..<3 {
      var string = ""
      var segments = 0
      while segments <= 20_000 {  // (a newline after a word is in its segment)
        if !string.isEmpty {
          // A blank line, a single newline, or a run of 8 to 40 empty lines.
          let newlines = random.below(3) == 0 ? 9 + random.below(33) : 1 + random.below(2)
          string += String(repeating: "\n", count: newlines)
          segments += newlines
        }
        let count = random.below(round == 0 ? 4 : 30)
        for word in 0..<count { string += (word > 0 ? " " : "") + (round == 2 ? "a" : random.pick(words)) }
        segments += count
      }
      let text = StyledText(plain: string)
      let prepared = PreparedText(text)
      let wide = PreparedText(text, measurer: TerminalCells(), breaker: .unicode, narrowSums: false)
      #expect(!prepared.runningSums.countSums.isEmpty)
      #expect(prepared.longParagraphs.indices.count > 100)
      for width in [1, 2, 5, 13, 40, 89, 600] {
        let lines = LineLayout(text, width: width).lines.count
        #expect(prepared.lineCount(width: width) == lines, "round \(round) at \(width)")
        #expect(wide.lineCount(width: width) == lines, "round \(round) at \(width), wide sums")
        for limit in [lines - 1, lines] where limit >= 1 {
          #expect(prepared.lineCount(width: width, lineLimit: limit) == min(lines, limit + 1))
        }
      }
    }
  }

  /// A line narrower than a cell of the width index (words of three cells and three spaces: cells of four) may find
  /// its guess before its first segment, behind a run of empty lines, and more than four segments before it: the
  /// search from the guess finds the line's end in either sums (when the sums of 4 bytes had gaps, those of more than
  /// seven empty lines wrapped round there, and the count read past its arrays).
  @Test func linesNarrowerThanACellAreCountedInEitherSums() {
    var string = ""
    for paragraph in 0..<12 {
      if paragraph > 0 { string += String(repeating: "\n", count: 9 + paragraph) }
      string += Array(repeating: "aaa", count: 150 + 7 * paragraph).joined(separator: "   ")
    }
    let text = StyledText(plain: string)
    let narrow = PreparedText(text)
    let wide = PreparedText(text, measurer: TerminalCells(), breaker: .unicode, narrowSums: false)
    #expect(!narrow.runningSums.countSums.isEmpty)
    #expect(3 >> narrow.runningSums.widthShift == 0)  // a line of 3 cells is narrower than a cell
    for width in [3, 4, 5, 7] {
      let lines = LineLayout(text, width: width).lines.count
      #expect(narrow.lineCount(width: width) == lines, "at \(width)")
      #expect(wide.lineCount(width: width) == lines, "at \(width), wide sums")
    }
  }

  /// The paragraphs that a count of lines follows line by line are those of more than one segment; an empty line
  /// and a word alone are counted as a line each, at widths that their segment fits.
  @Test func paragraphsOfOneSegmentAreCountedAlone() {
    let prepared = PreparedText(StyledText(plain: "a b\n\ncc\n\nd e f"))
    #expect(prepared.runningSums.hardBreaks == [1, 2, 3, 4])
    #expect(prepared.longParagraphs.indices == [0, 4])
    #expect(prepared.longParagraphs.widestAlone == 2)
    #expect(prepared.lineCount(width: 1) == 9)  // "cc" is broken in two
    #expect(prepared.lineCount(width: 2) == 8)
    #expect(prepared.lineCount(width: 5) == 5)
    // Three newlines: two hard breaks and a last segment, a newline with none (its end is the text's).
    let newlines = PreparedText(StyledText(plain: "\n\n\n"))
    #expect(newlines.longParagraphs.indices.isEmpty)
    #expect(newlines.lineCount(width: 3) == 3)
  }

  /// Every fast fitter (a fresh layout, one stopped by a limit, a prepared text's relayout and count, the lazy
  /// stream) lays out terminal cells as the plain greedy reference does, for random texts of words, spaces (leading
  /// ones after hard breaks, runs longer than a line), tabs, hard breaks, long words, ideographs, Thai, Hebrew,
  /// marks and emoji, at widths from 1 to wider than the text.
  @Test func everyFitterLaysOutAsTheReferenceDoes() {
    let pieces = [
      "word", "a", "longerword", " ", "  ", "\t", "\n", "\n  ", "\n\n", "\r\n", "中文", "。", "テキスト",
      "ภาษาไทยไม่มีการเว้นวรรค", "שלום", "123", "$19.99", "e\u{301}", "-", "(x)", "😀", "👨‍👩‍👧", "🇯🇵",
      "verylongwordthatneverfitsonaline", "a a a a a a a a a a ", "\u{200B}", "https://example.com/a?b=c",
    ]
    var random = SplitMix64(state: 7)
    var modelled = 0
    for _ in 0..<300 {
      var string = ""
      for _ in 0..<(1 + random.below(60)) { string += random.pick(pieces) }
      let text = StyledText(plain: string)
      for width in [1, 2, 5, 9, 16, 33, 80, 500] {
        guard ReferenceLayout.lines(text, width: LineWidth(width)) != nil else { continue }
        modelled += 1
        let violation = Invariants.referenceViolation(text, width: width)
        #expect(violation == nil, "\(string.debugDescription): \(violation ?? "")")
      }
    }
    #expect(modelled == 300 * 8)
  }

  /// The reference leaves out what it does not model: soft hyphens.
  @Test func theReferenceModelsNoSoftHyphen() {
    #expect(ReferenceLayout.lines(StyledText(plain: "soft\u{AD}ly wrapped"), width: LineWidth(5)) == nil)
    #expect(ReferenceLayout.lines(StyledText(plain: "a b"), width: LineWidth(1))?.map(\.range) == [0..<2, 2..<3])
  }

  /// A prepared text's layout (most segments placed by a few additions, break offsets read from the prepared
  /// segments) is the layout made from scratch: lines, completeness and break offsets, for random texts with
  /// tabs, soft hyphens, hard breaks (empty lines among them, and a newline after spaces that the Chromium
  /// breaker breaks before), long words and wide characters, in cells and in a font.
  @Test func preparedLayoutsAreFreshLayouts() throws {
    let pieces = [
      "word", "a", "longerword", " ", "  ", "\t", "\n", "中文", "。", "e\u{301}", "\u{AD}", "soft\u{AD}ly", "-",
      "(x)", "😀", "verylongwordthatneverfitsonaline", "\n\n", "\r\n", "word\n",
      "a a a a a a a a a a a a a a a a a a a ",
    ]
    var random = SplitMix64(state: 99)
    let fonts = try FontSet.dejaVu(fallbacks: [])
    for _ in 0..<120 {
      var string = ""
      for _ in 0..<(1 + random.below(120)) { string += random.pick(pieces) }
      let text = StyledText(plain: string)
      for (measurer, breaker, unit) in [
        (TerminalCells() as any TextMeasurer, LineBreaker.unicode, 1),
        (FontMeasurer(fonts), .chromium, FontMeasurer.unitsPerPixel * 8),
      ] {
        let prepared = PreparedText(text, measurer: measurer, breaker: breaker)
        // The last two widths are wider than the running sums' gaps at hard breaks can end (segment by segment).
        for width in [1, 3, 7, 12, 20, 41, 90].map({ $0 * unit }) + [RunningSums.widestLine, Int.max / 4] {
          // 25 and 49 stop the relayout's loop just after it flushed its buffer of 24 lines.
          for limit in [nil, 1, 3, 8, 25, 49] as [Int?] {
            let violation = Invariants.relayoutViolation(prepared, width: width, lineLimit: limit)
            #expect(violation == nil, "\(string.debugDescription), limit \(String(describing: limit))")
          }
        }
      }
    }
  }

  /// A streamed layout (an expanded view's: each window of the segmenter placed by `SegmentFitter.addAll`, the
  /// common case in a loop of its own) has the lines of a fresh layout that keeps its break offsets (placed segment
  /// by segment, by `add`), across windows: long random texts of paragraphs with tabs, soft hyphens, leading
  /// spaces, empty lines, long words and wide characters, in cells and in a font.
  @Test func streamedLinesAreFreshLayoutLines() throws {
    let pieces = [
      "word", "a", "longerword", " ", "  ", "\t", "\n", "\n  ", "中文", "。", "e\u{301}", "soft\u{AD}ly", "-",
      "😀", "verylongwordthatneverfitsonaline", "\n\n", "\r\n", "word\n", "a a a a a a a a a a ",
    ]
    var random = SplitMix64(state: 41)
    let fonts = try FontSet.dejaVu(fallbacks: [])
    for round in 0..<12 {
      var string = ""
      for _ in 0..<(round < 6 ? 1_500 : 1 + random.below(300)) { string += random.pick(pieces) }
      let text = StyledText(plain: string)
      for (measurer, breaker, unit) in [
        (TerminalCells() as any TextMeasurer, LineBreaker.unicode, 1),
        (FontMeasurer(fonts), .chromium, FontMeasurer.unitsPerPixel * 8),
      ] {
        for width in [1, 9, 40] {
          var stream = SegmentStream(text, measurer: measurer, breaker: breaker, width: LineWidth(width * unit))
          var streamed: [LineLayout.Line] = []
          while let line = stream.next() { streamed.append(line) }
          let fresh = LineLayout(text, measurer: measurer, breaker: breaker, width: width * unit).lines
          #expect(streamed == fresh, "round \(round), width \(width)")
        }
      }
    }
  }

  /// The lazy stream of an expanded terminal view (opportunities decided only where a line ends) has the lines of
  /// the general stream, which decides every opportunity: random texts of words, spaces (leading ones after hard
  /// breaks, runs of them longer than a line), punctuation around numbers, quotes, hyphens, URLs, ideographs, kana,
  /// Hangul, Thai, Lao, Khmer and Burmese (words from ICU's dictionaries), Hebrew, marks, emoji sequences and flags,
  /// zero-width characters, controls and every hard line break, short and long enough to cross the scanner's windows
  /// and its cuts, at widths from 1 to wider than a window.
  @Test func theLazyStreamHasTheGeneralStreamsLines() throws {
    let pieces = [
      "word", "a", "The", "longerword", "Größere", "Съешь", " ", "  ", "\n", "\n  ", "\n\n", "\r\n", "\u{0B}",
      "\u{85}", "\u{2028}", "中文", "統一碼", "。", "、", "テキスト", "ー", "한국어는", "ภาษาไทยไม่มีการเว้นวรรค", "ພາສາລາວ", "ភាសាខ្មែរ",
      "မြန်မာဘာသာ", "שלום", "123", "$19.99",
      "(42%", "off).", "-", "self-contained", "https://example.com/a?b=c", "\"q\"", "«x»", "\u{201C}x\u{201D}",
      "e\u{301}",
      " \u{301}", "😀", "👨\u{200D}👩\u{200D}👧", "🇯🇵🇫🇷", "👍🏽", "\u{200B}", "\u{2060}", "\u{25CC}", "\u{1}", "\u{7F}",
      "verylongwordthatneverfitsonaline", "a a a a a a a a a a ", String(repeating: " ", count: 90), ",", "!",
      "\u{3000}", "x\u{200D}", "ab\u{308}", "\u{16}\u{16}\u{16}", "“", "。“",
    ]
    var random = SplitMix64(state: 2027)
    let measurer = TerminalCells()
    var texts: [String] = []
    for round in 0..<160 {
      var string = ""
      for _ in 0..<(round < 16 ? 2_000 : 1 + random.below(200)) { string += random.pick(pieces) }
      texts.append(string)
    }
    // One paragraph as long as several windows; a line longer than a window (its spaces hang).
    texts.append(String(repeating: "lorem ipsum dolor 中文字 ", count: 800))
    texts.append("a" + String(repeating: " ", count: 9_000) + "b c")
    texts.append(String(repeating: "x", count: 9_000) + " y")
    for string in texts {
      let text = StyledText(plain: string)
      #expect(CellStream.applies(to: text, measurer: measurer, breaker: .unicode))
      for width in [1, 2, 3, 7, 12, 40, 80, 5_000] {
        var general = SegmentStream(text, measurer: measurer, breaker: .unicode, width: LineWidth(width))
        var expected: [LineLayout.Line] = []
        while let line = general.next() { expected.append(line) }
        var lazy = CellStream(text, measurer: measurer, breaker: .unicode, width: LineWidth(width))
        var lines: [LineLayout.Line] = []
        while let line = lazy.next() { lines.append(line) }
        guard lines != expected else { continue }
        let first =
          zip(lines, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
          ?? min(lines.count, expected.count)
        let line = (first < expected.count ? expected[first] : expected.last)?.range ?? 0..<0
        let context = string.utf8.dropFirst(max(0, line.lowerBound - 40)).prefix(line.count + 80)
        Issue.record(
          """
          width \(width), line \(first) of \(expected.count): \(first < lines.count ? "\(lines[first])" : "none"), \
          not \(first < expected.count ? "\(expected[first])" : "none"), near \(String(decoding: context, as: UTF8.self).debugDescription)
          """)
        return
      }
    }
    // Not for tabs, soft hyphens, another profile or other rules (U+00ED ends with the byte of U+00AD).
    #expect(CellStream.applies(to: StyledText(plain: "sí"), measurer: measurer, breaker: .unicode))
    #expect(!CellStream.applies(to: StyledText(plain: "soft\u{AD}ly"), measurer: measurer, breaker: .unicode))
    #expect(!CellStream.applies(to: StyledText(plain: "a\tb"), measurer: measurer, breaker: .unicode))
    #expect(!CellStream.applies(to: StyledText(plain: "ab"), measurer: measurer, breaker: .chromium))
    #expect(
      !CellStream.applies(to: StyledText(plain: "ab"), measurer: TerminalCells(profile: .modern), breaker: .unicode)
    )
  }

  /// A window of the stream that starts with a newline alone after spaces on a line (Chromium allows a break
  /// before it) hangs it with them, as a fresh layout does, not as an empty line: the window before is a
  /// paragraph (no safe cut in `a a a`) whose newline was left open, so it starts the next one.
  ///
  /// Paragraphs about as long as the scanner's shortest and longest windows, and as the thousand segments that the
  /// stream once placed in batches.
  @Test func aStreamedWindowThatStartsWithANewlineKnowsWhatCameBefore() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    let lengths = [BreakScanner.shortestWindow / 2, BreakScanner.window / 2, 1024]
    for count in lengths.flatMap({ [$0 - 2, $0, $0 + 2, $0 + 80] }) {
      let text = StyledText(plain: String(repeating: "a ", count: count) + "。-  \r\nword\n \nend")
      for (measurer, unit) in [
        (TerminalCells() as any TextMeasurer, 1), (FontMeasurer(fonts), FontMeasurer.unitsPerPixel * 8),
      ] {
        for breaker in [LineBreaker.chromium, .unicode] {
          var stream = SegmentStream(text, measurer: measurer, breaker: breaker, width: LineWidth(40 * unit))
          var streamed: [LineLayout.Line] = []
          while let line = stream.next() { streamed.append(line) }
          let fresh = LineLayout(text, measurer: measurer, breaker: breaker, width: 40 * unit).lines
          #expect(streamed == fresh, "\(count) pairs, \(breaker.rules)")
        }
      }
    }
  }

  /// The search that finds a line's last plain segment (step by step from a guess, then galloping, either
  /// way) is the linear search it replaces: with limits anywhere, and half of them within 12 segments of the
  /// guess (the steps' reach is 8).
  @Test func lastFittingIsTheLinearSearch() {
    var random = SplitMix64(state: 7)
    for round in 0..<2_000 {
      let segments = (0..<random.below(200)).map { _ in
        Segment(
          start: 0, contentEnd: 1, spaceEnd: 1, end: 1, contentWidth: random.below(5), spaceWidth: random.below(3),
          hasTab: false, isMandatoryBreak: false, endsWithSoftHyphen: false)
      }
      let runs = RunningSums(segments, narrowSums: true)
      let start = random.below(segments.count + 1)
      let end = start + random.below(segments.count - start + 1)
      let guess = start + random.below(40) - 5
      let near = min(max(0, guess + random.below(25) - 12), segments.count - 1)
      let limit =
        round % 2 == 0 || segments.isEmpty
        ? runs.totalWidth * random.below(101) / 100 : runs.contentEnds[near] - random.below(2)
      let linear = (start..<end).prefix { runs.contentEnds[$0] <= limit }.last ?? start - 1
      #expect(runs.lastFitting(from: start, before: end, upTo: limit, near: guess) == linear)
    }
  }

  /// The search that finds a line's last plain segment from the width index (a guess by width, four sums
  /// counted after it, then a search) is the linear search within the paragraph of the line's first segment:
  /// random widths, zero and wider than the index's cells among them, cells of many segments, hard breaks (gaps in the sums), limits
  /// from the first segment's sum to past the text's end.
  @Test func indexedLastFittingIsTheLinearSearch() {
    var random = SplitMix64(state: 8)
    for round in 0..<5_000 {
      // Even widths, or narrow ones among a few wide (cells wider than many segments).
      let mixed = round % 2 == 0
      let segments = (0..<(1 + random.below(150))).map { _ in
        Segment(
          start: 0, contentEnd: 1, spaceEnd: 1, end: 1,
          contentWidth: mixed && random.below(8) == 0 ? 30 + random.below(40) : random.below(mixed ? 2 : 6),
          spaceWidth: random.below(mixed ? 2 : 3), hasTab: false, isMandatoryBreak: random.below(12) == 0,
          endsWithSoftHyphen: false)
      }
      let runs = RunningSums(segments, narrowSums: true)
      let first = random.below(segments.count)
      let end = first + 1 + random.below(segments.count - first)
      let limit = runs.contentEnds[first] + (round % 5 == 0 ? runs.totalWidth : random.below(60))
      let paragraphEnd = runs.hardBreaks.first { $0 >= first } ?? segments.count - 1
      let linear = (first..<min(end, paragraphEnd + 1)).prefix { runs.contentEnds[$0] <= limit }.last
      #expect(runs.lastFitting(from: first, before: end, upTo: limit) == linear, "round \(round)")
    }
  }

  @Test func widthBelowOneActsAsOne() {
    #expect(lines("ab", width: 0) == ["a", "b"])
    #expect(lines("ab", width: -5) == ["a", "b"])
  }

  /// The break offsets a layout keeps for each line (what a cut looks back to) are the opportunities inside the
  /// line's content, kept in one array for the whole layout.
  @Suite struct BreakOffsetTests {
    @Test func eachLineKeepsTheOpportunitiesInsideItsContent() {
      let text = StyledText(
        plain: "The quick brown fox jumps over the lazy dog. 日本語の文章も折り返します。 Soft\u{AD}ly, "
          + "well-known words; and a verylongwordthatbreaksbyclusters.\nA second paragraph, short.")
      let opportunities = LineBreaker.unicode.allOpportunities(in: text.string).map(\.offset)
      for width in [6, 11, 20, 33, 80] {
        for limit in [nil, 2] as [Int?] {
          let layout = LineLayout(text, width: width, lineLimit: limit)
          for line in layout.lines {
            let inside = opportunities.filter { $0 > line.range.lowerBound && $0 < line.contentEnd }
            #expect(Array(layout.breakOffsets(of: line)) == inside, "width \(width), line \(line.range)")
          }
        }
      }
    }
  }

  /// Soft hyphens against a reference: a line breaks at the furthest opportunity where its content, with a
  /// hyphen when it breaks after a soft hyphen, fits; the layout gets there greedily and gives segments back,
  /// keeping only the trailing run of segments that end with a soft hyphen.
  @Suite struct SoftHyphenReferenceTests {
    @Test func linesBreakAtTheFurthestOpportunityWhereTheHyphenFits() {
      var random = SplitMix64(state: 2026)
      var checked = 0
      for _ in 0..<400 {
        let width = 4 + random.below(14)
        var text = ""
        for _ in 0..<(3 + random.below(25)) {
          text += String(repeating: "x", count: 1 + random.below(width - 2))  // with a hyphen, fits a line
          text += random.pick(["\u{AD}", "\u{AD}", " ", "  "])
        }
        text += "end"
        let utf8 = Array(text.utf8)
        let breaks = LineBreaker.unicode.allOpportunities(in: text).map(\.offset) + [utf8.count]
        func fits(_ start: Int, _ end: Int) -> Bool {
          var content = utf8[start..<end]
          while content.last == 0x20 { content = content.dropLast() }
          let cells = content.filter { $0 < 0x80 }.count  // letters and inner spaces; a soft hyphen is 0
          let hyphen = end < utf8.count && content.suffix(2) == [0xC2, 0xAD] ? 1 : 0
          return cells + hyphen <= width
        }
        var expected: [Int] = []
        var start = 0
        while start < utf8.count {
          expected.append(start)
          start = breaks.filter { $0 > start && fits(start, $0) }.max() ?? breaks.first { $0 > start }!
        }
        let layout = LineLayout(StyledText(plain: text), width: width)
        #expect(layout.lines.map(\.range.lowerBound) == expected, "width \(width): \(text.debugDescription)")
        checked += layout.lines.count
      }
      #expect(checked > 1_000)
    }
  }
}
