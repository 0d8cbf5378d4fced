extension Paragraph {
  /// HTML that a browser lays out as the engine predicts, first shown in `state`: `width` in CSS px, measured in
  /// `fonts` (see `HTMLRenderer`) as `engine` measures and breaks lines; the default, ``BrowserEngine/any``, is a
  /// fragment that every engine shows as predicted.
  ///
  /// Line breaking follows the engine's rules unless `breakRules` says otherwise. The result's
  /// ``RenderedHTML/diagnostics`` name what the engine could not predict (characters with no glyph in the fonts), found
  /// only when read. `options` say how the fragment is written (its id, fonts' source, animation); a scrollable
  /// paragraph's `scrollLines` is its line limit.
  ///
  /// With a `textStyle`, its size and line height replace the fonts'; with a `minimumScaleFactor` below
  /// 1, the font shrinks in steps of 1/2 px, down to that factor, until the text fits its line limit, and is
  /// truncated only when it still does not.
  public func html(
    width: Double, fonts: FontSet, engine: BrowserEngine = .any, state: DisplayState = .collapsed,
    options: HTMLOptions = HTMLOptions()
  ) -> RenderedHTML {
    html(width: width, fonts: fonts, engine: engine, state: state, options: options, linksStylesheet: false) { $0 }
  }

  /// ``html(width:fonts:engine:state:options:)``, for a page that holds `HTMLRenderer.pageStylesheet()` when
  /// `linksStylesheet`, its id made unique on the page by `uniqueID` (see ``HTMLPage``).
  func html(
    width: Double, fonts: FontSet, engine: BrowserEngine, state: DisplayState, options: HTMLOptions,
    linksStylesheet: Bool, uniqueID: (String) -> String
  ) -> RenderedHTML {
    let (width, clamped) = Self.pixels(width)
    if source.isDocument {
      return documentHTML(
        width: width, fonts: styled(in: fonts).1, engine: engine, state: state, options: options,
        linksStylesheet: linksStylesheet, uniqueID: uniqueID, diagnostics: clamped)
    }
    let (text, styledFonts) = styled(in: fonts)
    let (fonts, shown) = Truncator.scaledToFit(
      text, fonts: styledFonts, engine: engine, breaker: breaker(for: engine, language: options.language), width: width,
      options: self.options, minimumScaleFactor: isScrollable ? 1 : minimumScaleFactor)
    var htmlOptions = options
    if isScrollable { htmlOptions.scrollLines = self.options.effectiveLineLimit }
    let html = HTMLRenderer(fonts: fonts, options: htmlOptions, linksStylesheet: linksStylesheet).render(
      text, collapsed: shown, truncation: self.options, state: state, width: width, uniqueID: uniqueID)
    // The whole text is looked at only when the diagnostics are read, and only when more than the collapsed
    // view shows: two fifths of the benchmark's HTML pipeline, whose text is in eleven scripts.
    let wholeText = state == .expanded || isScrollable
    let shownRanges = shown.unpredictableRanges
    let outOfRange = clamped + shown.diagnostics
    return RenderedHTML(html: html) { [text, fonts] in
      outOfRange + GlyphWarnings.diagnostics(in: text, fonts: fonts, wholeText: wholeText, shownRanges: shownRanges)
    }
  }

  /// A document's HTML, `width` CSS px wide (see `HTMLRenderer`'s document rendering).
  ///
  /// Its blocks are laid out as ``DocumentLines`` lays them out with the room of the marks of ``DocumentBoxes``. The
  /// font is not scaled to fit, and a scrollable document is truncated.
  private func documentHTML(
    width: Double, fonts: FontSet, engine: BrowserEngine, state: DisplayState, options: HTMLOptions,
    linksStylesheet: Bool, uniqueID: (String) -> String, diagnostics: [Diagnostic]
  ) -> RenderedHTML {
    let (lines, boxes) = documentLines(width: width, fonts: fonts, engine: engine, language: options.language)
    let blocks = source.blocks()
    let document = HTMLRenderer.Document(
      blocks: blocks, collapsed: lines.view(blocks, state: .collapsed), tables: lines.tables(of: blocks, boxes: boxes),
      boxes: boxes)
    let html = HTMLRenderer(fonts: fonts, options: options, linksStylesheet: linksStylesheet).render(
      document, truncation: self.options, state: state, width: width, uniqueID: uniqueID)
    return RenderedHTML(html: html) {
      diagnostics
        + GlyphWarnings.diagnostics(in: Block.text(of: blocks), fonts: fonts, wholeText: true, shownRanges: [])
    }
  }

  /// The view of the document in `state` that its HTML shows `width` CSS px wide, measured in `fonts` as `engine`
  /// lays lines out for a page in `language`: each leaf's lines, and their height.
  package func documentView(
    width: Double, fonts: FontSet, engine: BrowserEngine, state: DisplayState, language: String? = nil
  ) -> DocumentLines.View {
    documentLines(width: width, fonts: styled(in: fonts).1, engine: engine, language: language).0.view(
      source.blocks(), state: state)
  }

  /// The lines of the document in HTML, `width` CSS px wide, measured in `fonts` as `engine` lays them out (each
  /// heading's in the fonts of its size), under ``maxHeight`` too, and the room its marks take.
  private func documentLines(
    width: Double, fonts: FontSet, engine: BrowserEngine, language: String?
  ) -> (DocumentLines, DocumentBoxes) {
    let measurer = FontMeasurer(fonts, engine: engine)
    let boxes = DocumentBoxes(fonts: fonts, measurer: measurer)
    let sixtyFourths = { (pixels: Double) in Int((pixels * 64).rounded(.down)) }
    let headings = (1...6).map { level -> (measurer: any TextMeasurer, lineHeight: Int) in
      let scaled = DocumentBoxes.headingFonts(fonts, level: level)
      return (scaled == fonts ? measurer : FontMeasurer(scaled, engine: engine), sixtyFourths(scaled.lineHeight))
    }
    let lines = DocumentLines(
      measurer: measurer, breaker: breaker(for: engine, language: language),
      width: measurer.layoutWidth(pixels: width), options: options, marks: .boxes(boxes), headings: headings,
      heights: (maxHeight.map(sixtyFourths), sixtyFourths(fonts.lineHeight)))
    return (lines, boxes)
  }

  /// HTML that fills its container, from the lower bound of `widths` to the upper one (in whole CSS px), and shows at
  /// each of those widths the collapsed view that ``collapsedViews(widths:fonts:engine:)`` finds for it: one view per
  /// distinct layout, chosen by a container query, with no script to measure and no shift after load.
  ///
  /// Narrower than the range, the container keeps the lower bound's width (and the narrowest view); wider, the upper
  /// bound's (and the widest view). The whole text, shown expanded, reflows in the container. Widths below 1 px act
  /// as 1 px, and above 100,000 px as 100,000 px; the font is not scaled to fit.
  ///
  ///     let fragment = paragraph.html(widths: 280...1280, fonts: fonts)
  public func html(
    widths: ClosedRange<Int>, fonts: FontSet, engine: BrowserEngine = .any, state: DisplayState = .collapsed,
    options: HTMLOptions = HTMLOptions()
  ) -> RenderedHTML {
    html(widths: widths, fonts: fonts, engine: engine, state: state, options: options, linksStylesheet: false) { $0 }
  }

  /// ``html(widths:fonts:engine:state:options:)``, for a page as in
  /// ``html(width:fonts:engine:state:options:linksStylesheet:uniqueID:)``.
  func html(
    widths: ClosedRange<Int>, fonts: FontSet, engine: BrowserEngine, state: DisplayState, options: HTMLOptions,
    linksStylesheet: Bool, uniqueID: (String) -> String
  ) -> RenderedHTML {
    let widths = Self.pixels(widths)
    if source.isDocument {  // one width, the narrowest: the document fits every container of the range
      return documentHTML(
        width: Double(widths.lowerBound), fonts: styled(in: fonts).1, engine: engine, state: state, options: options,
        linksStylesheet: linksStylesheet, uniqueID: uniqueID, diagnostics: [])
    }
    let (text, fonts) = styled(in: fonts)
    var htmlOptions = options
    if isScrollable { htmlOptions.scrollLines = self.options.effectiveLineLimit }
    let views =
      isScrollable
      ? []
      : Truncator.collapsedViews(
        text, measurer: FontMeasurer(fonts, engine: engine), breaker: breaker(for: engine, language: options.language),
        widths: widths, options: self.options)
    let html = HTMLRenderer(fonts: fonts, options: htmlOptions, linksStylesheet: linksStylesheet).render(
      text, views: views, truncation: self.options, state: state, widths: widths, uniqueID: uniqueID)
    return RenderedHTML(html: html) { [text, fonts] in
      GlyphWarnings.diagnostics(in: text, fonts: fonts, wholeText: true, shownRanges: [])
    }
  }

  /// The layout in CSS px, measured in `fonts` as `engine` lays it out (with its break rules unless `breakRules`
  /// says otherwise), as JSON (widths in the measurer's unit: 1/65536 px, or 1/60 px for Gecko); a ``font(_:)``
  /// text style sizes the fonts, as in ``html(width:fonts:engine:state:options:)``.
  public func json(width: Double, fonts: FontSet, engine: BrowserEngine = .any, state: DisplayState) -> String {
    let width = Self.pixels(width).0
    let (text, fonts) = styled(in: fonts)
    if source.isDocument {  // the lines of its blocks, as its HTML lays them out, and the block tree
      let blocks = source.blocks()
      let lines = documentLines(width: width, fonts: fonts, engine: engine, language: nil).0
      return LayoutJSON.encode(lines.truncated(blocks, state: state, countingAllLines: true), blocks: blocks)
    }
    let measurer = FontMeasurer(fonts, engine: engine)
    return LayoutJSON.encode(
      Truncator.truncate(
        text, measurer: measurer, breaker: breaker(for: engine),
        width: measurer.layoutWidth(pixels: width), options: options, state: state, countingAllLines: true))
  }

  /// The distinct collapsed views of the paragraph at every whole CSS px width in `widths`, narrowest first, each
  /// with the interval of widths that shows it, measured in `fonts` as `engine` lays lines out.
  ///
  /// Widths below 1 px act as 1 px, and above 100,000 px as 100,000 px. The font is not scaled to fit
  /// (`minimumScaleFactor` applies to one width).
  ///
  ///     let views = paragraph.collapsedViews(widths: 280...1280, fonts: fonts)
  ///     views.count                    // a few dozen for a comment, not a thousand
  ///     views[0].widths                // 280...291
  ///     views[0].view.isTruncated      // whether 280 to 291 px show a toggle
  public func collapsedViews(widths: ClosedRange<Int>, fonts: FontSet, engine: BrowserEngine = .any) -> [WidthLayout] {
    let (text, fonts) = styled(in: fonts)
    return Truncator.collapsedViews(
      text, measurer: FontMeasurer(fonts, engine: engine), breaker: breaker(for: engine), widths: Self.pixels(widths),
      options: options)
  }

  /// ``collapsedViews(widths:fonts:engine:)`` as JSON (see `LayoutJSON`): what `unfold --format json --width
  /// 280-1280px` writes.
  package func json(widths: ClosedRange<Int>, fonts: FontSet, engine: BrowserEngine = .any) -> String {
    LayoutJSON.encode(collapsedViews(widths: widths, fonts: fonts, engine: engine))
  }

  /// The text and the fonts the HTML measures: with a ``font(_:)`` text style, its size and line height replace
  /// the fonts', and a bold style makes the text bold.
  private func styled(in fonts: FontSet) -> (StyledText, FontSet) {
    var fonts = fonts
    if let textStyle {
      fonts.size = textStyle.size
      fonts.lineHeight = textStyle.lineHeight
    }
    return (drawnText, fonts)
  }

  /// The text the HTML draws: a bold ``font(_:)`` text style makes it bold.
  var drawnText: StyledText {
    let text = source.resolve().text
    return textStyle?.isBold == true ? text.bold() : text
  }

  /// The widest a width in CSS px may be, as `unfold --width` allows.
  static let widestPixels = 100_000.0

  /// A width in CSS px clamped to 1 through ``widestPixels`` (a width that is not a number to 1).
  ///
  /// The ``Diagnostic/Kind/valueOutOfRange`` that comes with it says so when it was out of range.
  static func pixels(_ width: Double) -> (Double, [Diagnostic]) {
    let clamped = width.isNaN ? 1 : min(widestPixels, max(1, width))
    guard clamped != width else { return (width, []) }
    let message =
      "width \(width) px is \(width.isNaN ? "not a number" : width < 1 ? "below 1 px" : "above 100000 px"): the lines are laid out \(Int(clamped)) px wide"
    return (clamped, [Diagnostic(.valueOutOfRange, offset: 0, message: message)])
  }

  /// A range of whole CSS px clamped to 1 through ``widestPixels``.
  static func pixels(_ widths: ClosedRange<Int>) -> ClosedRange<Int> {
    let widest = Int(widestPixels)
    let lower = min(widest, max(1, widths.lowerBound))
    return lower...min(widest, max(lower, widths.upperBound))
  }

  /// The break rules of `engine` for a page in `language`, unless `breakRules` says otherwise.
  private func breaker(for engine: BrowserEngine, language: String? = nil) -> LineBreaker {
    LineBreaker(rules: breakRules ?? LineBreaker.Rules(engine, language: language))
  }
}
