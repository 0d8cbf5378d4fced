import Foundation
import Testing
import Unfold

/// The SwiftUI-like API: modifiers, presets, modes and placements, scrolling, text styles, AttributedString.
@Suite struct ParagraphAPITests {
  let text = "The quick brown fox jumps over the lazy dog and keeps running far away into the dark forest."

  @Test func modifiersAreValueSemantic() {
    let base = Paragraph(verbatim: text)
    let changed = base.lineLimit(2).moreLabel("Read more").lessLabel("Show less").ellipsis("...")
      .truncationMode(.middle).toggle(.below).collapsesBlankLines()
    #expect(base.options == .default)
    #expect(changed.options.lineLimit == 2 && changed.options.moreLabel == "Read more")
    #expect(changed.options.mode == .middle && changed.options.toggle == .below && changed.options.collapsesBlankLines)
    #expect(Paragraph(verbatim: text).truncation(.readMoreText).options.moreLabel == "Read more")
  }

  @Test func presetsReproduceTheComponents() {
    #expect(TruncationOptions.expandableText.moreLabel == "more")
    #expect(TruncationOptions.expandableText.lessLabel == nil)
    #expect(TruncationOptions.expandableText.toggle == .overlay)
    #expect(TruncationOptions.readMoreText.moreLabel == "Read more")
    #expect(TruncationOptions.readMoreText.lessLabel == "Show less")
    #expect(TruncationOptions.readMoreText.toggle == .below && TruncationOptions.readMoreText.lineLimit == 3)
  }

  @Test func eachModeAndPlacement() {
    let paragraph = Paragraph(verbatim: text).lineLimit(2)
    #expect(paragraph.plain(width: 30) == "The quick brown fox jumps over\nthe lazy dog and keeps… more\n")
    #expect(
      paragraph.toggle(.below).plain(width: 30)
        == "The quick brown fox jumps over\nthe lazy dog and keeps running\nmore\n")
    #expect(
      paragraph.toggle(.overlay).plain(width: 30) == "The quick brown fox jumps over\nthe lazy dog and keeps    more\n")
    #expect(paragraph.toggle(.none).plain(width: 30) == "The quick brown fox jumps over\nthe lazy dog and keeps…\n")
    #expect(
      paragraph.truncationMode(.head).plain(width: 30)
        == "… more dog and keeps running\nfar away into the dark forest.\n")
    #expect(
      paragraph.truncationMode(.middle).plain(width: 30)
        == "The quick brown fox jumps over\nthe lazy dog…dark forest. more\n")
    #expect(paragraph.toggle(.none).truncated(width: 30, state: .collapsed).isTruncated)
  }

  @Test func reservesSpaceAndCollapsesBlankLines() {
    #expect(Paragraph(verbatim: "Short.").lineLimit(3, reservesSpace: true).plain(width: 20) == "Short.\n\n\n")
    let blanks = Paragraph("One.\n\n\n\nTwo.\n\n\nThree.\n\nFour.").lineLimit(3).collapsesBlankLines()
    #expect(blanks.plain(width: 20) == "One.\n\nTwo.… more\n")
  }

  @Test func aScrollableParagraphShowsAViewport() {
    let paragraph = Paragraph(verbatim: text).lineLimit(2).scrollable()
    let top = paragraph.viewport(width: 30, firstLine: 0)
    #expect(top.lines.map(\.text) == ["The quick brown fox jumps over", "the lazy dog and keeps running"])
    #expect(top.lineCount == 3)
    let bottom = paragraph.viewport(width: 30, firstLine: 99)
    #expect(bottom.firstLine == 1)
    #expect(bottom.lines.map(\.text) == ["the lazy dog and keeps running", "far away into the dark forest."])
  }

  @Test func textStylesHaveAppleSizes() {
    #expect((TextStyle.largeTitle.size, TextStyle.largeTitle.lineHeight) == (34, 41))
    #expect((TextStyle.body.size, TextStyle.body.lineHeight) == (17, 22))
    #expect((TextStyle.caption2.size, TextStyle.caption2.lineHeight) == (11, 13))
    #expect(TextStyle.headline.isBold && !TextStyle.body.isBold)
    #expect(TextStyle.allCases.count == 11)
  }

  @Test func htmlUsesTheTextStyleAndShrinksToFit() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    let footnote = Paragraph(verbatim: text).font(.footnote).html(width: 320, fonts: fonts).html
    #expect(footnote.contains("font-size:13px;line-height:18px"))
    // Four lines at 16 px in 240 px; shrinking to at most 70% makes it fit three, so no toggle.
    let plain = Paragraph(verbatim: text).lineLimit(3)
    #expect(plain.html(width: 240, fonts: fonts).html.contains("unfold-more"))
    let shrunk = plain.minimumScaleFactor(0.7).html(width: 240, fonts: fonts).html
    #expect(!shrunk.contains("unfold-more"))
    #expect(!shrunk.contains("font-size:16px;"))
    let scroll = Paragraph(verbatim: text).lineLimit(2).scrollable().html(width: 200, fonts: fonts).html
    #expect(
      scroll.contains("role=\"region\"") && scroll.contains("tabindex=\"0\"")
        && scroll.contains("max-height:40px;overflow-y:auto"))
  }

  /// The animation is the caller's `HTMLOptions`: a paragraph writes the duration and easing it is given, and
  /// the defaults when given none.
  @Test func htmlKeepsTheCallersAnimation() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    let paragraph = Paragraph(verbatim: text).lineLimit(2)
    let standard = paragraph.html(width: 200, fonts: fonts).html
    #expect(standard.contains("data-duration=\"400\" data-easing=\"cubic-bezier(0.4, 0, 0.2, 1)\""))
    let options = HTMLOptions(animationDuration: 0.25, animationEasing: "linear")
    #expect(
      paragraph.html(width: 200, fonts: fonts, options: options).html.contains(
        "data-duration=\"250\" data-easing=\"linear\""))
    #expect(
      paragraph.html(width: 200, fonts: fonts, options: HTMLOptions(animationDuration: 0)).html.contains(
        "data-duration=\"0\""))
  }

  /// `html` names the characters the fonts cannot draw in its diagnostics: for texts with and without such
  /// characters (ideographs, Thai, an emoji; DejaVu has none of them), collapsed, expanded and scrollable, and the
  /// warning names the first of them and counts them.
  ///
  /// With the default font set (the Noto chain where it is installed, as the command's) they are drawn and measured,
  /// and nothing is reported.
  @Test func htmlNamesWhatTheFontsCannotDraw() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    let texts = [
      text, "Plain *Latin* text, long enough to wrap at two hundred pixels of DejaVu Sans, twice or more.",
      "日本語 and ไทย and 👍 in a **Latin** sentence that wraps, then 中文 again at the end of it.",
    ]
    for source in texts {
      for paragraph in [Paragraph(LocalizedKey(source)).lineLimit(2), Paragraph(LocalizedKey(source)).scrollable()] {
        for state in [DisplayState.collapsed, .expanded] {
          let rendered = paragraph.html(width: 200, fonts: fonts, state: state)
          #expect(rendered.description == rendered.html)
          #expect(rendered.diagnostics.isEmpty == (source != texts[2]), "\(state): \(source)")
          #expect(paragraph.html(width: 200, fonts: try FontSet.dejaVu(), state: state).diagnostics.isEmpty)
        }
      }
    }
    let warnings = Paragraph(LocalizedKey(texts[2])).html(width: 200, fonts: fonts, state: .expanded).diagnostics
    #expect(warnings.map(\.kind) == [.unpredictableWidth])
    #expect(
      warnings.first?.message.hasPrefix("9 characters have no glyph in the fonts (the first: \"日本語") == true,
      "\(warnings)")
  }

  /// Values out of range are clamped and reported, never thrown: a line limit below 1 shows 1 line, a width
  /// below 1 lays lines out 1 cell (or 1 px) wide, a width in px that is not a number is 1 px; each says so in a
  /// `valueOutOfRange` diagnostic, and values in range report nothing.
  @Test func valuesOutOfRangeAreClampedWithADiagnostic() throws {
    let paragraph = Paragraph(verbatim: "one two three four five six seven eight nine ten eleven twelve")
    for limit in [0, -3] {
      let view = paragraph.lineLimit(limit).truncated(width: 20, state: .collapsed)
      #expect(view.lines.count == 1)
      #expect(view.diagnostics.map(\.kind) == [.valueOutOfRange])
      #expect(view.diagnostics.first?.message == "lineLimit \(limit) is below 1: 1 line is shown")
    }
    for width in [0, -5] {
      let view = paragraph.truncated(width: width, state: .expanded)
      #expect(view.lines.allSatisfy { $0.width <= 1 } && view.lines.count > 10)
      #expect(view.diagnostics.first?.message == "width \(width) is below 1: lines are laid out 1 cells wide")
    }
    #expect(paragraph.truncated(width: 20, state: .collapsed).diagnostics.isEmpty)
    // A long text's collapsed view, laid out from a prefix.
    let long = Paragraph(verbatim: String(repeating: "word ", count: 20_000))
    #expect(long.truncated(width: 0, state: .collapsed).diagnostics.map(\.kind) == [.valueOutOfRange])
    let fonts = try FontSet.dejaVu(fallbacks: [])
    for (width, why) in [
      (0.0, "below 1 px"), (-4, "below 1 px"), (.nan, "not a number"), (.infinity, "above 100000 px"),
    ] {
      let rendered = paragraph.html(width: width, fonts: fonts)
      let clamped = width.isNaN || width < 1 ? 1 : 100_000
      #expect(rendered.html.contains("width:\(clamped)px"), "\(width)")
      #expect(
        rendered.diagnostics.map(\.message) == [
          "width \(width) px is \(why): the lines are laid out \(clamped) px wide"
        ])
    }
    #expect(paragraph.html(width: 320, fonts: fonts).diagnostics.isEmpty)
    #expect(paragraph.lineLimit(0).html(width: 320, fonts: fonts).diagnostics.map(\.kind) == [.valueOutOfRange])
  }

  /// The README's snippet, `FontSet.dejaVu()`, measures Chinese in the face that draws it: an 88-character Chinese
  /// comment is truncated at 320 px in 3 lines, as the browser shows it (DejaVu alone judged it to fit).
  @Test func theDefaultFontSetMeasuresChineseInItsFace() throws {
    let comment = String(repeating: "这是一条很长的中文评论，用来测试截断。", count: 5).prefix(88)
    let paragraph = Paragraph(verbatim: String(comment)).lineLimit(3)
    let withChain = try FontSet.dejaVu()
    try #require(!withChain.fallbacks.isEmpty, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    #expect(paragraph.html(width: 320, fonts: withChain).html.contains("unfold-more"))
    #expect(paragraph.html(width: 320, fonts: withChain).diagnostics.isEmpty)
    #expect(!paragraph.html(width: 320, fonts: try FontSet.dejaVu(fallbacks: [])).diagnostics.isEmpty)
  }

  @Test func attributedStringRoundTrip() {
    let styled = TextSource("Hello **bold** and [a link](https://example.com/x) with `code`").resolve().text
    let attributed = styled.attributedString
    #expect(attributed.runs.contains { $0.link == URL(string: "https://example.com/x") })
    #expect(attributed.runs.contains { $0[UnfoldTraitsAttribute.self] == [.bold] })
    #expect(StyledText(attributed) == styled)
  }

  /// A collapsed verbatim paragraph lays out only a prefix of a long text: the view must be the one that
  /// the whole text gives, whatever the mode (head and middle show the end, so they read it all).
  @Test(arguments: [TruncationMode.tail, .middle, .head])
  func collapsedLongVerbatimTextIsTheWholeTextsView(mode: TruncationMode) {
    let words = ["naïve", "日本語の", "👨‍👩‍👧", "fox\r\n", "straße", "a\u{0301}", "جميل", "\t", "https://example.com/x"]
    var text = ""
    var index = 0
    while text.utf8.count < 300_000 {
      text += words[index % words.count] + (index % 7 == 0 ? "\n" : " ")
      index += 1
    }
    for limit in [1, 3, 40] {
      let paragraph = Paragraph(verbatim: text).lineLimit(limit).truncationMode(mode)
      let whole = Truncator.truncate(
        TextSource(verbatim: text).resolve().text, width: 33, options: paragraph.options, state: .collapsed)
      #expect(paragraph.truncated(width: 33, state: .collapsed) == whole)
      #expect(paragraph.collapsedView(isSettledBy: String(text.prefix(20_000)), width: 33))
      #expect(paragraph.collapsedViewNeedsOnlyAPrefix == (mode == .tail))
    }
    #expect(!Paragraph(verbatim: "short").collapsedView(isSettledBy: "short", width: 33))
  }

  /// A collapsed markdown paragraph parses only the chunks before a blank line that its view needs: the view
  /// must be the one the whole document gives, with emphasis across lines, CR LF line ends and blank lines of
  /// spaces, tabs and CRs; and when the first blank line comes after the first prefixes tried (a first
  /// paragraph of 40 KB), from a longer prefix.
  @Test(arguments: [0, 40_000])
  func collapsedLongMarkdownIsTheWholeDocumentsView(firstParagraph: Int) {
    let chunks = [
      "A **bold claim\r\nacross lines** and *emphasis*\r\n \t\r\n", "Read [the docs](https://example.com/x).\n\n",
      "`code with ** inside` ~~gone~~ 日本語の文章です。\n\r\n", "Short.\n   \n\n",
    ]
    var markdown = ""
    while markdown.utf8.count < firstParagraph { markdown += "A *line* of the first paragraph, 中文.\n" }
    var index = 0
    while markdown.utf8.count < 400_000 {
      markdown += chunks[index % chunks.count]
      index += 1
    }
    for limit in [1, 3, 60] {
      for width in [17, 80] {
        let paragraph = Paragraph(LocalizedKey(markdown)).lineLimit(limit)
        let whole = Truncator.truncate(
          TextSource(LocalizedKey(markdown)).resolve().text, width: width, options: paragraph.options,
          state: .collapsed)
        #expect(paragraph.truncated(width: width, state: .collapsed) == whole)
      }
    }
  }

  /// An expanded view is written line by line without the whole ``TruncatedText``: it must be the bytes that
  /// rendering the truncated text gives, less label, reserved space, soft hyphens, tabs and links included.
  @Test func expandedOutputWrittenLineByLineIsTheTruncatedTextsRendering() {
    let sources = [
      Paragraph(
        LocalizedKey("A **long** comment with *style*, a [link](https://example.com), ~~gone~~ and `code`. " + text)),
      Paragraph(verbatim: "Short."),
      Paragraph(verbatim: "tab\there and a hy\u{00AD}phen\u{00AD}ated word, " + text),
      Paragraph(verbatim: ""),
    ]
    for paragraph in sources {
      for toggle in [TogglePlacement.inline, .below, .overlay, .none] {
        for lessLabel in ["Show less", nil] as [String?] {
          for reserves in [false, true] {
            let shaped = paragraph.lineLimit(2, reservesSpace: reserves).toggle(toggle).lessLabel(lessLabel)
            for width in [7, 30] {
              for colors in [ColorLevel.none, .truecolor] {
                let renderer = ANSIRenderer(colors: colors)
                #expect(
                  shaped.ansi(width: width, state: .expanded, renderer: renderer)
                    == renderer.render(shaped.truncated(width: width, state: .expanded)))
              }
            }
          }
        }
      }
    }
  }

  /// The id of a fragment follows the rendering: one text at two widths or in two states gets two ids; the
  /// same rendering the same id; a given id is used, escaped for CSS (issue 37, item 5).
  @Test func htmlIDsAreUniquePerRendering() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    let paragraph = Paragraph(verbatim: text + " " + text).lineLimit(2)
    func id(_ html: String) -> String {
      String(html.split(separator: "\"")[3])  // <div class="unfold" id="…"
    }
    let narrow = paragraph.html(width: 200, fonts: fonts).html
    let wide = paragraph.html(width: 300, fonts: fonts).html
    let expanded = paragraph.html(width: 200, fonts: fonts, state: .expanded).html
    #expect(Set([id(narrow), id(wide), id(expanded)]).count == 3)
    #expect(id(paragraph.html(width: 200, fonts: fonts).html) == id(narrow))
    #expect(id(paragraph.lineLimit(3).html(width: 200, fonts: fonts).html) != id(narrow))
    let named = paragraph.html(width: 200, fonts: fonts, options: HTMLOptions(id: "reply.7")).html
    #expect(id(named) == "reply.7")
    #expect(named.contains("#reply\\2e 7{"))
    #expect(named.contains("aria-controls=\"reply.7-full\""))
  }
}
