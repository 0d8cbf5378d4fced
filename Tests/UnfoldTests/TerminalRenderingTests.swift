import Foundation
import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// Colour levels, style strings, the fade and OSC 8 links of the ANSI renderer.
@Suite struct TerminalRenderingTests {
  @Test(arguments: [
    ([String: String](), true, ColorLevel.ansi16),
    (["TERM": "xterm-256color"], true, .ansi256),
    (["COLORTERM": "truecolor", "TERM": "xterm-256color"], true, .truecolor),
    (["COLORTERM": "24bit"], true, .truecolor),
    (["TERM": "dumb"], true, .none),
    (["NO_COLOR": "1", "COLORTERM": "truecolor"], true, .none),
    (["NO_COLOR": ""], true, .ansi16),
    ([:], false, .none),
    (["FORCE_COLOR": "1"], false, .ansi16),
    (["FORCE_COLOR": "2"], false, .ansi256),
    (["FORCE_COLOR": "3"], false, .truecolor),
    (["FORCE_COLOR": "0", "COLORTERM": "truecolor"], true, .none),
    (["NO_COLOR": "1", "FORCE_COLOR": "3"], true, .none),
  ])
  func colorLevelFromTheEnvironment(_ environment: [String: String], _ isTerminal: Bool, _ level: ColorLevel) {
    #expect(ColorLevel.detect(environment: environment, isTerminal: isTerminal) == level)
  }

  /// A text is clean (written as it is) exactly when none of its code points is a control, a soft hyphen or a bidi
  /// formatting character, wherever they fall against the eight-byte blocks that the scan reads whole.
  @Test func aTextIsCleanWhenItHoldsNoControlWhereverItFalls() {
    var random = SplitMix64(state: 61)
    let pieces = [
      "a", "abcdefg", "é", "\u{AD}", "\u{85}", "\u{9F}", "\u{A0}", "\u{61C}", "\u{628}", "\u{200E}", "\u{200F}",
      "\u{2019}", "\u{2014}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2066}", "\u{2069}", "\u{206A}", "\t", "\u{1B}",
      "\u{7F}", "中", "😀", "\u{2026}", "\u{201C}", "\u{65C}", "\u{69C}", "\u{C5}", "\u{2E}", "&", "\u{10FFFF}",
    ]
    let bidi: Set<UInt32> = [
      0x61C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]
    var dirty = 0
    for _ in 0..<3_000 {
      let text = (0..<Int.random(in: 0...14, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
      let expected = !text.unicodeScalars.contains {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0xAD || bidi.contains($0.value)
      }
      #expect(ANSIRenderer.isClean(text) == expected, "\(text.debugDescription)")
      if !expected { dirty += 1 }
    }
    #expect(dirty > 1_000)
  }

  /// The word test of the scans for controls misses no byte that may start or be one, at any place in the word and
  /// among any others: below the space, DEL, C2, D8, E2.
  @Test func theWordTestMissesNoByteThatMayStartAControl() {
    func flagged(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 }
    func word(_ bytes: [UInt8]) -> UInt64 {
      bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }
    for byte in 0...UInt8.max {
      for place in 0..<8 {
        var bytes = [UInt8](repeating: 0x61, count: 8)
        bytes[place] = byte
        #expect(word(bytes).mayHoldControl == flagged(byte), "\(byte) at \(place)")
      }
    }
    var random = SplitMix64(state: 67)
    for _ in 0..<200_000 {
      let bytes = (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
      if bytes.contains(where: flagged) { #expect(word(bytes).mayHoldControl, "\(bytes)") }
    }
  }

  @Test func textEscapesAreMadeOnceForEveryLevel() {
    for level in ColorLevel.allCases where level > .none {
      let made = ANSIRenderer.madeTextEscapes(colors: level)
      for key in 0..<32 { #expect(ANSIRenderer.textEscape(key: key, colors: level) == made[key]) }
    }
    #expect(ANSIRenderer.textEscape(key: 3, colors: .truecolor) == "\u{1B}[1;4m")  // bold, a link
    #expect(ANSIRenderer.textEscape(key: 16, colors: .ansi256) == "\u{1B}[36m")  // code
    #expect(ANSIRenderer.textEscape(key: 0, colors: .ansi16) == "")
    #expect(ANSIRenderer.textEscape(key: 3, colors: .none) == nil)
    #expect(ANSIRenderer.textEscape(key: 32, colors: .ansi16) == nil)  // traits past the four
  }

  @Test func styleStringsAtEachLevel() throws {
    let style = try TerminalStyle("bold underline #ffaf00 on blue")
    #expect(style.sgr(.truecolor) == ["1", "4", "38", "2", "255", "175", "0", "44"])
    #expect(style.sgr(.ansi256) == ["1", "4", "38", "5", "214", "44"])
    #expect(style.sgr(.ansi16) == ["1", "4", "33", "44"])
    #expect(style.sgr(.none) == [])
    #expect(
      try TerminalStyle("italic color(208) on rgb(0,0,0)").sgr(.ansi256) == ["3", "38", "5", "208", "48", "5", "16"])
    #expect(try TerminalStyle("bright_red not bold").sgr(.ansi16) == ["91"])
    #expect(throws: StyleError.self) { try TerminalStyle("bold purple") }
    #expect(throws: StyleError.self) { try TerminalStyle("on") }
  }

  func collapsed(_ level: ColorLevel, background: ANSIRenderer.Background = .dark) -> String {
    let text = Truncator.truncate(
      StyledText(plain: "abcdefghij klmnopqrst uvwxyz"), width: 20, options: TruncationOptions(lineLimit: 1),
      state: .collapsed)
    return ANSIRenderer(colors: level, background: background).render(text)
  }

  @Test func theFadeAtEachLevel() {
    #expect(collapsed(.none) == "abcdefghij… more\n")
    #expect(collapsed(.ansi16) == "abcd\u{1B}[2mefghij\u{1B}[0m… \u{1B}[1;34mmore\u{1B}[0m\n")
    #expect(collapsed(.ansi256).contains("\u{1B}[38;5;248me\u{1B}[0m"))
    #expect(collapsed(.truecolor).contains("\u{1B}[38;2;178;178;178me\u{1B}[0m"))
    // Towards a light background the greys go the other way.
    #expect(collapsed(.truecolor, background: .light).contains("\u{1B}[38;2;79;79;79me\u{1B}[0m"))
    #expect(ANSIRenderer.Background.detect(environment: ["COLORFGBG": "0;15"]) == .light)
    #expect(ANSIRenderer.Background.detect(environment: ["COLORFGBG": "15;0"]) == .dark)
  }

  /// The fade ends at the mark: with fewer than six characters before it, they take the last (faintest)
  /// steps, and a middle truncation's end after the ellipsis does not fade.
  @Test func theFadeEndsAtTheMarkWhateverTheTextBeforeIt() {
    func collapsed(_ text: String, _ mode: TruncationMode) -> String {
      let truncated = Truncator.truncate(
        StyledText(plain: text), width: 12, options: TruncationOptions(lineLimit: 1, mode: mode), state: .collapsed)
      return ANSIRenderer(colors: .truecolor).render(truncated)
    }
    func grey(_ value: Int, _ text: String) -> String { "\u{1B}[38;2;\(value);\(value);\(value)m\(text)\u{1B}[0m" }
    let more = " \u{1B}[1;34mmore\u{1B}[0m\n"
    let steps = [178, 158, 138, 118, 98, 78]
    #expect(
      collapsed("abcdefghij klmnopqrst uvwxyz", .tail)
        == zip(steps, "abcdef").map { grey($0, String($1)) }.joined() + "…" + more)
    #expect(collapsed("ab cdefghijklmnopqrstuvwxyz", .tail) == grey(98, "a") + grey(78, "b") + "…" + more)
    #expect(
      collapsed("abcdefghij klmnopqrst uvwxyz", .middle)
        == grey(118, "a") + grey(98, "b") + grey(78, "c") + "…xyz" + more)
  }

  @Test func aLinkBrokenAcrossLinesKeepsOneId() {
    let text = Truncator.truncate(
      StyledText(plain: "one two three four").link("https://e.com/x"), width: 8, state: .expanded)
    let output = ANSIRenderer(colors: .ansi16).render(text)
    let ids = output.components(separatedBy: "\u{1B}]8;id=").dropFirst().map { $0.prefix { $0 != ";" } }
    #expect(ids.count == 3)
    #expect(Set(ids).count == 1)
    let other = Truncator.truncate(
      StyledText(plain: "a").link("https://e.com/x") + StyledText(plain: " b ")
        + StyledText(plain: "c").link("https://e.com/x"),
      width: 80, state: .expanded)
    let ids2 = ANSIRenderer(colors: .ansi16).render(other).components(separatedBy: "\u{1B}]8;id=").dropFirst()
      .map { $0.prefix { $0 != ";" } }
    #expect(Set(ids2).count == 2)
  }

  /// The `legacy` widths are glibc's `wcwidth` of what is written: each line of plain output, soft hyphens
  /// dropped or drawn as `-` and controls drawn as pictures, takes the cells the layout predicted.
  @Test func writtenLinesTakeTheirPredictedCellsByWcwidth() throws {
    let locale = String(cString: setlocale(LC_CTYPE, nil))
    try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil)
    defer { setlocale(LC_CTYPE, locale) }
    // glibc's own, which Swift's Glibc module does not declare.
    let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "wcwidth"))
    let wcwidth = unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    let texts = [
      "in\u{AD}com\u{AD}pre\u{AD}hen\u{AD}si\u{AD}bil\u{AD}i\u{AD}ties of soft\u{AD}hyphen\u{AD}ated words",
      "controls \u{1B}[31m and \u{07} bells \u{7F} in 中文 and 한국어 text e\u{301} with marks",
    ]
    for text in texts {
      for width in [6, 9, 13, 20, 31] {
        let paragraph = Paragraph(verbatim: text)
        let layout = paragraph.truncated(width: width, state: .expanded)
        let written = paragraph.plain(width: width, state: .expanded).split(separator: "\n").map(String.init)
        #expect(written.count == layout.lines.count)
        for (line, predicted) in zip(written, layout.lines) {
          let cells = line.unicodeScalars.reduce(0) { $0 + Int(wcwidth(Int32($1.value))) }
          #expect(cells == predicted.width, "\(line.debugDescription) at \(width)")
        }
      }
    }
  }

  /// No line ends in a space, in any mode, placement and width, with the labels and the ellipsis empty or not: a
  /// link cut at a line end underlines no trailing space, and an empty ellipsis and label leave no gap.
  @Test func noLineEndsInASpace() {
    let markdown =
      "Some words then [a link that goes on and on and on](https://example.org) and **more words** after it to cut"
    var checked = 0
    for mode in [TruncationMode.tail, .head, .middle] {
      for toggle in [TogglePlacement.inline, .below, .overlay, .none] {
        for (ellipsis, label) in [("…", "more"), ("", "more"), ("…", ""), ("", "")] {
          for width in 8...44 {
            for lines in 1...2 {
              let paragraph = Paragraph(LocalizedKey(markdown)).lineLimit(lines).truncationMode(mode).toggle(toggle)
                .ellipsis(ellipsis).moreLabel(label)
              for state in [DisplayState.collapsed, .expanded] {
                let output = paragraph.ansi(width: width, state: state, renderer: ANSIRenderer(colors: .ansi16))
                // The text of each line without its escapes.
                let plain = output.replacing(/\u{1B}\[[0-9;]*m|\u{1B}\]8;[^\u{1B}]*\u{1B}\\/, with: "")
                for line in plain.split(separator: "\n") where line.last == " " {
                  Issue.record(
                    "\(mode) \(toggle) \(ellipsis.debugDescription) \(label.debugDescription) \(width): \(line.debugDescription)"
                  )
                }
                // Underlined text never ends in a space before the underline stops.
                #expect(!output.contains(/\u{1B}\[4[0-9;]*m[^\u{1B}]* \u{1B}\[0m\u{1B}\]8;;\u{1B}\\\n/))
                checked += 1
              }
            }
          }
        }
      }
    }
    #expect(checked == 3 * 4 * 4 * 37 * 2 * 2)
  }

  /// What reaches the screen of a fragment's text: every code point up to U+02FF alone and after clean text,
  /// in the one place that decides (controls as pictures, C1 as U+FFFD, newline and tab as a space, the soft
  /// hyphen dropped, everything else as it is).
  ///
  /// An output far longer than the writer's stretch (it is sealed into the string every 16 KiB, at line ends): each
  /// line written once, whole, in order, with and without colours.
  @Test func aLongExpandedViewIsWrittenWholeAcrossItsStretches() {
    var markdown = ""
    for index in 0..<2_500 {
      markdown += "Line \(index) with **bold**, *emphasis*, [a link](https://example.com/\(index % 7)) and ünïcödé 中文. "
      if index % 9 == 8 { markdown += "\n\n" }
    }
    let paragraph = Paragraph(LocalizedKey(markdown))
    let lines = paragraph.truncated(width: 60, state: .expanded).lines
    let plain = paragraph.ansi(width: 60, state: .expanded, renderer: ANSIRenderer(colors: .none))
    #expect(plain.utf8.count > 100_000)
    #expect(plain == lines.map { line in line.fragments.map(\.text).joined() + "\n" }.joined())
    let colored = paragraph.ansi(width: 60, state: .expanded, renderer: ANSIRenderer(colors: .ansi16))
    #expect(colored.utf8.count > plain.utf8.count)
    #expect(colored == ANSIRenderer(colors: .ansi16).render(paragraph.truncated(width: 60, state: .expanded)))
  }

  @Test func visibleTextReplacesEveryControlAndNothingElse() {
    for value in UInt32(0)...0x2FF {
      let scalar = Unicode.Scalar(value)!
      let expected: String
      switch value {
      case 0x09, 0x0A: expected = " "
      case 0x00...0x1F: expected = String(Unicode.Scalar(0x2400 + value)!)
      case 0x7F: expected = "\u{2421}"
      case 0x80...0x9F: expected = "\u{FFFD}"
      case 0xAD: expected = ""
      default: expected = String(scalar)
      }
      #expect(ANSIRenderer.visible("clean é " + String(scalar), width: 1) == "clean é " + expected, "U+\(value)")
      // At every place in the blocks of eight bytes that the check reads at once, and in the tail after them.
      for pad in 0..<17 {
        let before = String(repeating: "x", count: pad)
        let after = String(repeating: "y", count: 9)
        #expect(ANSIRenderer.visible(before + String(scalar) + after, width: 1) == before + expected + after)
      }
    }
    #expect(ANSIRenderer.visible("\t", width: 3) == "   ")
    #expect(ANSIRenderer.visible("日本語 \u{1B}[31m", width: 1) == "日本語 \u{241B}[31m")
  }

  /// A line resolved as a paragraph of its own is drawn in ICU's runs: random lines of strong letters of both
  /// directions, numbers, separators, spaces, neutrals, brackets, joiners, marks, tabs and explicit controls, in
  /// paragraphs of both directions (levels that draw alike are one: ICU's are compared after reordering).
  @Test func linesAreDrawnInICUsRuns() {
    // Runs joined where ICU leaves neighbours of one direction apart.
    func canonical(_ runs: [VisualOrder.Run]) -> [String] {
      var joined: [VisualOrder.Run] = []
      for run in runs { BidiLevels.append(run, joiningTo: &joined) }
      return joined.map { "\($0.range) \($0.isRightToLeft ? "rtl" : "ltr")" }
    }
    let resolver = VisualOrder.LineResolver()
    let icu = Bidi.Lines()
    let pieces = BidiTests.pieces.filter { $0 != "\n" && $0 != "\u{2029}" }
    var random = SplitMix64(state: 43)
    for _ in 0..<8_000 {
      let text = (0..<Int(1 + random.next() % 16)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
        .joined()
      for direction in [TextDirection.ltr, .rtl] {
        if direction == .rtl, BidiTests.holdsFirstStrongIsolateClosedByParagraph(text) { continue }
        let units = Array(text.utf16)
        var offsets: [Int] = []
        var offset = 0
        for scalar in text.unicodeScalars {
          offsets += Array(repeating: offset, count: scalar.utf16.count)
          offset += scalar.utf8.count
        }
        var starts = [Int32](repeating: 0, count: units.count)
        var lengths = [Int32](repeating: 0, count: units.count)
        var rightToLeft = [UInt8](repeating: 0, count: units.count)
        let count = units.withUnsafeBufferPointer {
          icu.runs(
            ofUTF16: $0, base: direction == .rtl ? 1 : 0, starts: &starts, lengths: &lengths,
            rightToLeft: &rightToLeft, capacity: units.count)
        }
        let icuRuns = (0..<count).map { run in
          let end = Int(starts[run] + lengths[run])
          return VisualOrder.Run(
            range: offsets[Int(starts[run])]..<(end == units.count ? offset : offsets[end]),
            isRightToLeft: rightToLeft[run] != 0)
        }
        Array(text.utf8).withUnsafeBufferPointer { bytes in
          let own = resolver.runs(ofUTF8: bytes, direction: direction)
          // Characters that X9 removes may sit in either neighbour.
          guard
            !text.unicodeScalars.contains(where: {
              Bidi.isBoundaryNeutral($0.value) || (0x202A...0x202E).contains($0.value)
            })
          else { return }
          #expect(canonical(own) == canonical(icuRuns), "\(direction) \(text.debugDescription)")
        }
      }
    }
  }

  /// A line is drawn by the levels of its paragraph, not as a paragraph of its own: the comma that ends the first
  /// line stands between two Hebrew words of the paragraph, so it is right to left (UAX #9 N1), as the browser
  /// draws it; a line alone would end it left to right.
  @Test func aLineTakesTheLevelsOfItsParagraph() {
    let paragraph = Paragraph(verbatim: "abc אבג, דהו def")
    let lines = paragraph.ansi(width: 9, state: .expanded, renderer: ANSIRenderer(colors: .none))
      .split(separator: "\n")
    #expect(lines == ["abc ,גבא", "והד def"])
    // The drawn lines of a truncation too, and a collapsed view's lines before the cut.
    let drawn = ANSIRenderer(colors: .none).render(paragraph.truncated(width: 9, state: .expanded))
    #expect(drawn.split(separator: "\n") == lines)
    let collapsed = paragraph.lineLimit(2).ansi(width: 8, renderer: ANSIRenderer(colors: .none))
    #expect(collapsed.split(separator: "\n").first == "abc ,גבא")
    // Soft hyphens, which a drawn line leaves out, do not move the levels a line reads from its paragraph.
    let hyphenated = Paragraph(verbatim: "abc א\u{AD}בג, ד\u{AD}הו def")
    let plain = ANSIRenderer(colors: .none)
    #expect(plain.render(hyphenated.truncated(width: 9, state: .expanded)).split(separator: "\n") == lines)
    #expect(hyphenated.ansi(width: 9, state: .expanded, renderer: plain).split(separator: "\n") == lines)
  }

  /// A terminal's answer to an OSC 11 query is read as its background colour, whatever the number of digits
  /// and the terminator; anything else is no answer (issue 37, item 10).
  @Test func aTerminalsBackgroundReplyIsRead() {
    typealias Background = ANSIRenderer.Background
    #expect(Background(terminalReply: "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\") == .rgb(red: 255, green: 255, blue: 255))
    #expect(Background(terminalReply: "\u{1B}]11;rgb:fd/f6/e3\u{07}") == .rgb(red: 253, green: 246, blue: 227))
    #expect(Background(terminalReply: "\u{1B}]11;rgb:0/2/3\u{1B}\\") == .rgb(red: 0, green: 34, blue: 51))
    for reply in [
      "", "\u{1B}]11;?\u{1B}\\", "\u{1B}]11;rgb:ff/ff\u{07}", "\u{1B}]11;rgb:fffff/0/0\u{07}", "rgb:zz/0/0",
    ] {
      #expect(Background(terminalReply: reply) == nil, "\(reply.debugDescription)")
    }
    #expect(Background.rgb(red: 253, green: 246, blue: 227).isLight)
    #expect(!Background.rgb(red: 0, green: 43, blue: 54).isLight)
  }

  /// The fade goes towards the background: the reported colour channel by channel (a light cream, a dark
  /// blue), or the theme's grey.
  @Test func theFadeGoesTowardsTheBackground() {
    let text = Paragraph(verbatim: String(repeating: "fading words ", count: 12)).lineLimit(1)
    func fade(_ background: ANSIRenderer.Background, _ colors: ColorLevel) -> [[Int]] {
      let output = text.ansi(
        width: 40, state: .collapsed, renderer: ANSIRenderer(colors: colors, background: background))
      let prefix = colors == .truecolor ? "38;2;" : "38;5;"
      return output.split(separator: "\u{1B}[").compactMap { escape -> [Int]? in
        guard escape.hasPrefix(prefix), let end = escape.firstIndex(of: "m") else { return nil }
        return escape[escape.index(escape.startIndex, offsetBy: prefix.count)..<end].split(separator: ";").map {
          Int($0)!
        }
      }
    }
    let cream = fade(.rgb(red: 253, green: 246, blue: 227), .truecolor)
    #expect(cream.count == 6)
    #expect(cream.first![0] < cream.last![0] && cream.last![2] < cream.last![0])
    let navy = fade(.rgb(red: 0, green: 43, blue: 54), .truecolor)
    #expect(navy.first![0] > navy.last![0] && navy.last![2] > navy.last![0])
    #expect(fade(.light, .truecolor).map { $0[0] } == fade(.light, .truecolor).map { $0[0] }.sorted())
    #expect(fade(.dark, .truecolor).map { $0[0] } == fade(.dark, .truecolor).map { $0[0] }.sorted(by: >))
    #expect(fade(.rgb(red: 253, green: 246, blue: 227), .ansi256).count == 6)
  }

  /// A right-to-left piece is drawn as its grapheme clusters in reverse, mirrored: the same as reversing
  /// Swift's `Character`s, for random text of Hebrew and Arabic letters with their marks, joiners, Latin,
  /// brackets, digits, emoji and Hangul (which take the general path).
  @Test func drawingRightToLeftReversesGraphemeClusters() {
    let pieces: [String] = [
      "ש", "ל", "ו", "ם", "\u{05B8}", "\u{05BC}", "\u{05C1}", "ع", "ر", "ب", "\u{064E}", "\u{0651}", "\u{0670}",
      "\u{200C}", "\u{200D}", " ", "a", "1", "(", ")", "[", "«", "»", "\u{0600}", "👩", "🔬", "한", "\u{0301}", "—",
    ]
    let mirrors: [Unicode.Scalar: Unicode.Scalar] = ["(": ")", ")": "(", "[": "]", "]": "[", "«": "»", "»": "«"]
    var random = SplitMix64(state: 41)
    for _ in 0..<2_000 {
      let text = (0..<Int(1 + random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
        .joined()
      var expected = String.UnicodeScalarView()
      for character in text.reversed() {
        for scalar in character.unicodeScalars {
          expected.append(mirrors[scalar] ?? scalar)
        }
      }
      #expect(
        String(VisualOrder.drawn(Substring(text), isRightToLeft: true)) == String(expected), "\(text.debugDescription)")
      var bytes: [UInt8] = []
      Array(text.utf8).withUnsafeBufferPointer { VisualOrder.drawnRightToLeft(utf8: $0, into: &bytes) }
      #expect(String(decoding: bytes, as: UTF8.self) == String(expected), "\(text.debugDescription)")
    }
  }

  /// Right-to-left text reaches the terminal in visual order: a Hebrew paragraph's lines reversed, their
  /// brackets mirrored and aligned to the right, the ellipsis and the toggle at the left end of the cut line; an
  /// English line with Hebrew inside reverses only the Hebrew; a renderer for a terminal that reorders itself
  /// writes the stored order.
  @Test func rightToLeftTextIsWrittenInVisualOrder() {
    let hebrew = "שלום עולם, זהו טקסט (עם סוגריים) שנמשך יותר משתי שורות כדי לראות."
    let collapsed = Paragraph(verbatim: hebrew).lineLimit(2).plain(width: 30, visualOrder: true)
    let lines = collapsed.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    #expect(lines[0].hasSuffix("םולש"))  // the first word at the right
    #expect(lines[0].hasPrefix(" "))  // aligned to the right
    #expect(lines[0].contains("םע)"))  // reversed, the opening bracket mirrored
    #expect(lines[1].hasPrefix("more …"))  // the toggle and the ellipsis end the line on the left
    let expanded = Paragraph(verbatim: hebrew).plain(width: 30, state: .expanded, visualOrder: true)
    for line in expanded.split(separator: "\n") {
      #expect(line.count == 30, "a right-to-left line is aligned to the right: '\(line)'")
    }
    let mixed = Paragraph(verbatim: "An English line with שלום עולם inside").plain(width: 60, visualOrder: true)
    #expect(mixed == "An English line with םלוע םולש inside\n")
    // Plain text by default is the stored order, unpadded: what a test compares.
    #expect(
      Paragraph(verbatim: "An English line with שלום עולם inside").plain(width: 60)
        == "An English line with שלום עולם inside\n")
    let plainLines = Paragraph(verbatim: hebrew).lineLimit(2).plain(width: 30).split(separator: "\n")
    #expect(plainLines.first?.hasPrefix("שלום עולם") == true)
    #expect(plainLines.last?.hasSuffix("… more") == true)
    var logical = ANSIRenderer(colors: .none)
    logical.reordersRightToLeft = false
    let stored = Paragraph(verbatim: hebrew).lineLimit(2).ansi(width: 30, state: .collapsed, renderer: logical)
    #expect(stored.hasPrefix("שלום עולם"))
    // The same lines, reordered, whichever path writes an expanded view.
    let paragraph = Paragraph(LocalizedKey(hebrew + "\n\n**" + hebrew + "**\n\n" + hebrew))
    let renderer = ANSIRenderer(colors: .ansi16)
    #expect(
      paragraph.expandedWriter(width: 30, renderer: renderer).render(paragraph.source, partLength: 40)
        == paragraph.expandedWriter(width: 30, renderer: renderer).render(paragraph.source, partLength: 10_000))
  }
}

extension StyledText {
  fileprivate static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
    var builder = StyledText.Builder()
    builder.append(lhs)
    builder.append(rhs)
    return builder.build()
  }

}
