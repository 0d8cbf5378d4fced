import Foundation
import TestSupport
import Testing

@testable import Unfold

/// The collapsed views over a range of container widths (`collapsedViews(widths:fonts:engine:)`): each width's view
/// is the one a fragment of that single width shows, and the views are the distinct ones, in order.
@Suite struct WidthRangeTests {
  /// Every width of the range, in every engine profile and `any`, shows what a single width computes directly:
  /// the intervals tile the range, and neighbours differ.
  @Test(arguments: [BrowserEngine.blink, .gecko, .webkit, .any])
  func everyWidthShowsItsOwnView(engine: BrowserEngine) throws {
    let fallbacks = FontFamily.notoFallbacks()
    try #require(fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: fallbacks)
    let corpus = FallbackCorpus.paragraphs(perLanguage: 1, languages: ["zh", "th", "emoji", "mixed", "ar", "vi"])
    let toggles: [TruncationOptions] = [.default, .expandableText, .readMoreText]
    for (index, (_, markdown)) in corpus.enumerated() {
      let options = toggles[index % toggles.count]
      let paragraph = Paragraph(LocalizedKey(markdown), options: options).lineLimit(2)
      expectEveryWidthShowsItsOwnView(paragraph, widths: 150...420, fonts: fonts, engine: engine)
    }
  }

  /// A long text is prepared only as far as the widest width's lines show, in several paragraphs of several
  /// scripts, and every width still shows what a single width computes from the whole text.
  @Test(arguments: [BrowserEngine.blink, .any])
  func aLongTextIsPreparedAsFarAsItsLinesShow(engine: BrowserEngine) throws {
    let fallbacks = FontFamily.notoFallbacks()
    try #require(fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: fallbacks)
    let corpus = FallbackCorpus.paragraphs(perLanguage: 6, languages: ["vi", "zh", "th", "ar", "mixed"])
    let markdown = corpus.map(\.markdown).joined(separator: "\n\n")
    for (limit, widths) in [(4, 900...1900), (1, 100...300)] {
      let paragraph = Paragraph(LocalizedKey(markdown), options: .readMoreText).lineLimit(limit)
      let text = paragraph.source.resolve().text
      let measurer = FontMeasurer(fonts, engine: engine)
      let prepared = PreparedText(
        text, measurer: measurer, breaker: LineBreaker(rules: .init(engine)), lineLimit: limit,
        width: measurer.layoutWidth(pixels: Double(widths.upperBound)))
      let end = try #require(prepared.segments.last?.end)
      #expect(end < text.string.utf8.count / 2, "\(end) of \(text.string.utf8.count) bytes prepared")
      expectEveryWidthShowsItsOwnView(paragraph, widths: widths, fonts: fonts, engine: engine)
    }
  }

  /// Checks the views of `paragraph` over `widths`: the intervals tile the range, neighbours differ, and each
  /// width's view is what a single width computes directly.
  private func expectEveryWidthShowsItsOwnView(
    _ paragraph: Paragraph, widths: ClosedRange<Int>, fonts: FontSet, engine: BrowserEngine,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let views = paragraph.collapsedViews(widths: widths, fonts: fonts, engine: engine)
    #expect(
      views.first?.widths.lowerBound == widths.lowerBound && views.last?.widths.upperBound == widths.upperBound,
      sourceLocation: sourceLocation)
    for (before, after) in zip(views, views.dropFirst()) {
      #expect(after.widths.lowerBound == before.widths.upperBound + 1, "the intervals tile the range")
      #expect(!after.view.shows(as: before.view), "neighbouring views differ", sourceLocation: sourceLocation)
    }
    let text = paragraph.source.resolve().text
    let measurer = FontMeasurer(fonts, engine: engine)
    for layout in views {
      for pixels in layout.widths {
        let direct = Truncator.truncate(
          text, measurer: measurer, breaker: LineBreaker(rules: .init(engine)),
          width: measurer.layoutWidth(pixels: Double(pixels)), options: paragraph.options, state: .collapsed)
        #expect(
          direct.shows(as: layout.view),
          "\(engine) at \(pixels) px: \(direct.lines.map(\.text)) against \(layout.view.lines.map(\.text))",
          sourceLocation: sourceLocation)
      }
    }
  }

  /// A comment over a thousand widths has far fewer views: the cut moves only when a line takes another word or
  /// the cut line another cluster.
  @Test func aRangeHasFewerViewsThanWidths() throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])
    let markdown =
      "Our **release notes** cover every change since the last version, with links to the issues and a long "
      + "explanation of the [migration](https://example.com/migrate) path for the older flags."
    let paragraph = Paragraph(LocalizedKey(markdown)).lineLimit(2)
    let views = paragraph.collapsedViews(widths: 280...1280, fonts: fonts, engine: .blink)
    #expect(views.count > 3 && views.count < 100, "\(views.count) views")
    #expect(views.first?.view.isTruncated == true)
    // Wide enough, the text fits in two lines: one view, with no toggle, up to the end of the range.
    #expect(views.last?.view.isTruncated == false && views.last?.widths.upperBound == 1280)
  }

  /// The fragment for a range holds each view once, in order, with its lines and its own toggle.
  ///
  /// One container query per view after the first, at the narrowest width that shows it; the container fills its
  /// parent within the range. A text that fits at every width is the whole text alone, with no views, no toggle and
  /// no script.
  @Test func aRangeFragmentShowsEachViewFromItsNarrowestWidth() throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])
    let paragraph = Paragraph(
      LocalizedKey("Our **release notes** cover every change since the last version, with links to the issues.")
    )
    .lineLimit(2)
    let views = paragraph.collapsedViews(widths: 120...700, fonts: fonts, engine: .any)
    let html = paragraph.html(widths: 120...700, fonts: fonts, options: HTMLOptions(id: "c")).html
    #expect(html.contains("#c{width:100%;min-width:120px;max-width:700px;container-type:inline-size;"))
    let query =
      /@container \(min-width:(\d+)px\)\{#c \.unfold-collapsed>p\{display:none\}#c p\.unfold-v(\d+)\{display:block\}\}/
    let queries = html.matches(of: query)
    #expect(queries.map { Int($0.output.1)! } == views.dropFirst().map(\.widths.lowerBound))
    #expect(queries.map { Int($0.output.2)! } == Array(1..<views.count))
    #expect(html.matches(of: /<p class="unfold-v\d+">/).count == views.count)
    let toggles = html.matches(of: /class="unfold-toggle unfold-more"/).count
    #expect(toggles == views.filter(\.view.isTruncated).count, "a toggle in each truncated view")
    #expect(html.contains("<script>"))
    // Each view's paragraph holds its lines, `<br>` between them (the text has nothing to escape).
    for (index, layout) in views.enumerated() {
      let start = try #require(html.range(of: "<p class=\"unfold-v\(index)\">"))
      let end = try #require(html[start.upperBound...].range(of: "</p>"))
      let shown = String(html[start.upperBound..<end.lowerBound])
        .replacing(/<button[^>]*>[^<]*<\/button>/, with: "").replacing("<br>", with: "\n")
        .replacing(/<[^>]+>/, with: "")
      let lines = layout.view.lines.map { $0.fragments.filter { !$0.isToggle }.map(\.text).joined() }
      #expect(shown == lines.joined(separator: "\n"))
    }
    let fits = Paragraph(verbatim: "Short.").html(widths: 120...700, fonts: fonts, options: HTMLOptions(id: "s")).html
    #expect(!fits.contains("unfold-collapsed\"") && !fits.contains("<button") && !fits.contains("<script"))
    #expect(fits.contains("data-state=\"expanded\""))
  }

  /// Widths outside 1 to 100,000 px act as the nearest of those.
  @Test func widthsOutOfRangeAreClamped() throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])
    let paragraph = Paragraph(verbatim: "a few words")
    #expect(paragraph.collapsedViews(widths: -5...3, fonts: fonts).first?.widths == 1...3)
    #expect(paragraph.collapsedViews(widths: 99_999...200_000, fonts: fonts).first?.widths == 99_999...100_000)
  }
}
