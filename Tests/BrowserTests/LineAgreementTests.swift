import Foundation
import TestSupport
import Testing
import Unfold

/// Renders the engine's HTML in headless Chromium and reads the lines back: Chromium's lines must equal the
/// engine's in at least 99.5% of the cases, and the toggle must appear exactly when the engine says the text
/// is truncated (on the last line, never wrapped).
///
/// The machinery is shared with the other engines' (`EngineAgreementTests`).
@Suite(.serialized) struct LineAgreementTests {
  struct FontChoice: Sendable, CustomTestStringConvertible {
    var name: String
    var folder: String
    var files: [String]
    var testDescription: String { name }

    func fonts() throws -> FontSet {
      try FontSet.files(files.map { "\(folder)/\($0)" }, size: 16, lineHeight: 20)
    }
  }

  static let fontChoices = [
    FontChoice(
      name: "DejaVu Sans", folder: "/usr/share/fonts/truetype/dejavu",
      files: [
        "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSans-BoldOblique.ttf",
        "DejaVuSansMono.ttf",
      ]),
    FontChoice(
      name: "Liberation Sans", folder: "/usr/share/fonts/truetype/liberation2",
      files: [
        "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "LiberationSans-Italic.ttf",
        "LiberationSans-BoldItalic.ttf", "LiberationMono-Regular.ttf",
      ]),
  ]

  static let widths: [Double] = [160, 240, 333.3, 480]
  static let corpus = Corpus.paragraphs(perLanguage: 40)

  struct Case: Decodable {
    var id: String
    var state: String
    var lines: [String]?
    var collapsedLines: [String]?
    var buttonOnLastLine: Bool?
    var hasButton: Bool
  }

  struct Output: Decodable {
    var fontsLoaded: Bool
    var cases: [Case]
  }

  /// The engine's line texts compared with Chromium's: soft hyphens and trailing spaces left out (Chromium's
  /// DOM keeps the soft hyphen where it draws a hyphen; the engine draws a hyphen fragment).
  static func normalize(_ line: String) -> String {
    var text = line.replacingOccurrences(of: "\u{AD}", with: "")
    while let last = text.last, last == " " || last == "\t" || last == "\n" { text.removeLast() }
    return text
  }

  @Test(arguments: fontChoices)
  func chromiumBreaksWhereTheEngineDoes(_ choice: FontChoice) throws {
    let result = try Self.agreement(
      fonts: try choice.fonts(), fontSource: .url(prefix: "file://\(choice.folder)/"), corpus: Self.corpus,
      widths: Self.widths)
    result.report(choice.name)
    #expect(result.fontsLoaded, "the fonts did not load in Chromium")
    #expect(result.total == Self.corpus.count * Self.widths.count)
    #expect(result.rate >= 0.995, "\(result.agree) of \(result.total)")
    #expect(result.toggleProblems.isEmpty, "\(result.toggleProblems.count) collapsed views differ")
  }

  /// The same with the browser's typographic defaults: kerning and ligatures on, every word shaped.
  @Test(arguments: fontChoices)
  func chromiumBreaksWhereTheEngineDoesWithKerningAndLigatures(_ choice: FontChoice) throws {
    var fonts = try choice.fonts()
    fonts.kerningAndLigatures = true
    let corpus = Corpus.paragraphs(perLanguage: 20)
    let result = try Self.agreement(
      fonts: fonts, fontSource: .url(prefix: "file://\(choice.folder)/"), corpus: corpus, widths: Self.widths)
    result.report("\(choice.name), kerning and ligatures on")
    #expect(result.fontsLoaded, "the fonts did not load in Chromium")
    #expect(result.total == corpus.count * Self.widths.count)
    #expect(result.rate >= 0.995, "\(result.agree) of \(result.total)")
    #expect(result.moreLines == 0, "Chromium drew more lines than the engine predicted")
    #expect(result.toggleProblems.isEmpty, "\(result.toggleProblems.count) collapsed views differ")
  }

  /// How a browser's lines compare with the engine's for a corpus at some widths.
  struct Agreement {
    /// The browser's engine, for the reports.
    var browser: BrowserEngine
    var fontsLoaded: Bool
    var agree = 0
    var total = 0
    /// The expanded cases where the browser draws more lines than the engine predicts.
    var moreLines = 0
    var disagreements: [String] = []
    var toggleProblems: [String] = []
    /// The texts shown uncut (not truncated) that take more lines than the limit in the browser.
    var uncutTooLong: [String] = []
    /// The expanded cases per language: how many agree, of how many.
    var languages: [String: (agree: Int, total: Int)] = [:]
    var rate: Double { total == 0 ? 0 : Double(agree) / Double(total) }

    mutating func merge(_ other: Agreement) {
      fontsLoaded = fontsLoaded && other.fontsLoaded
      agree += other.agree
      total += other.total
      moreLines += other.moreLines
      disagreements += other.disagreements
      toggleProblems += other.toggleProblems
      uncutTooLong += other.uncutTooLong
      for (language, counts) in other.languages {
        let mine = languages[language] ?? (0, 0)
        languages[language] = (mine.agree + counts.agree, mine.total + counts.total)
      }
    }

    func report(_ name: String) {
      let percent = String(format: "%.2f", rate * 100)
      print(
        "\(name): \(browser)'s lines equal the engine's in \(agree) of \(total) cases (\(percent)%), \(moreLines) with more lines in \(browser)"
      )
      let byLanguage = languages.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.agree)/\($0.value.total)" }
      print("  by language: \(byLanguage.joined(separator: ", "))")
      for line in disagreements.prefix(25) { print("  disagreement \(line)") }
      for line in toggleProblems.prefix(25) { print("  toggle \(line)") }
      for line in uncutTooLong.prefix(25) { print("  uncut \(line)") }
      // Every case, for whoever studies them: UNFOLD_AGREEMENT_LOG names a file to append them to.
      guard let path = ProcessInfo.processInfo.environment["UNFOLD_AGREEMENT_LOG"] else { return }
      if !FileManager.default.fileExists(atPath: path) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
      }
      guard let file = FileHandle(forWritingAtPath: path) else { return }
      file.seekToEndOfFile()
      let all =
        ["\(name): \(agree) of \(total); by language: \(byLanguage.joined(separator: ", "))"]
        + disagreements.map { "  disagreement \($0)" } + toggleProblems.map { "  toggle \($0)" }
        + uncutTooLong.map { "  uncut \($0)" }
      file.write(Data((all.joined(separator: "\n") + "\n").utf8))
      file.closeFile()
    }
  }

  /// Renders every paragraph of `corpus` at each width, expanded and collapsed to 3 lines, measured for `profile`,
  /// and compares the browser's lines with the engine's; `fontSource` is where the pages find the fonts; `asPage`
  /// renders the fragments through an `HTMLPage`, its stylesheet once in the page's head and its font files exported
  /// as subsets of what the page draws.
  ///
  /// A page holds about 200 containers: Chromium's time grows faster than their number, each with `@font-face` rules
  /// that load (400 containers with fallback fonts took 7.7 s, 800 took 45 s). Without a `browser`, Chromium.
  static func agreement(
    fonts: FontSet, fontSource: HTMLOptions.FontSource, corpus: [(language: String, markdown: String)],
    widths: [Double], profile: BrowserEngine = .blink, in browser: Browser? = nil, asPage: Bool = false
  ) throws -> Agreement {
    guard let browser else {
      return try Browser.with(.blink) {
        try agreement(
          fonts: fonts, fontSource: fontSource, corpus: corpus, widths: widths, profile: profile, in: $0,
          asPage: asPage)
      }
    }
    var result = Agreement(browser: browser.engine, fontsLoaded: true)
    let perPage = max(1, 200 / (2 * widths.count))
    // Each page is prepared (the engine's lines, the HTML) on this thread while the browser draws the one before on
    // another: the two take about as long, and a test that waits for its browser leaves a core idle.
    var drawing: Background<(TestPage, String)>?
    do {
      for start in stride(from: 0, to: corpus.count, by: perPage) {
        let page = try TestPage(
          fonts: fonts, fontSource: fontSource, corpus: corpus[start..<min(corpus.count, start + perPage)],
          widths: widths, profile: profile, engine: browser.engine, asPage: asPage)
        let previous = drawing
        drawing = nil
        if let (drawn, json) = try previous?.value() { result.merge(try drawn.agreement(json, in: browser.engine)) }
        let test = Test.current?.name
        drawing = Background { (page, try browser.output(of: page.html, test: test)) }
      }
      let last = drawing
      drawing = nil
      if let (drawn, json) = try last?.value() { result.merge(try drawn.agreement(json, in: browser.engine)) }
    } catch {
      _ = try? drawing?.value()  // the browser is done with before it closes
      throw error
    }
    if corpus.isEmpty { result.fontsLoaded = false }
    return result
  }
}

/// One page of ``LineAgreementTests/agreement(fonts:fontSource:corpus:widths:profile:in:asPage:)``: its HTML, and
/// what the engine predicts of each of its containers.
private final class TestPage: @unchecked Sendable {
  let html: String
  let expected: [String: (lines: [String], collapsed: TruncatedText)]
  let markdowns: [String: String]
  let languages: [String: String]
  /// The folder that the page's font files are exported to (``HTMLPage``), removed with the page.
  let exported: URL
  static let limit = 3

  deinit { try? FileManager.default.removeItem(at: exported) }

  init(
    fonts: FontSet, fontSource: HTMLOptions.FontSource, corpus: ArraySlice<(language: String, markdown: String)>,
    widths: [Double], profile: BrowserEngine, engine: BrowserEngine, asPage: Bool
  ) throws {
    let normalize = LineAgreementTests.normalize
    var body = ""
    // A page serves the font files it exports, cut to its characters, from a folder of its own.
    let exported = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-page-fonts-\(UUID())")
    self.exported = exported
    var page = HTMLPage(
      fonts: fonts, engine: profile,
      options: HTMLOptions(
        fontSource: asPage ? .url(prefix: "file://\(exported.path)/") : fontSource, animationDuration: 0,
        scriptNonce: BrowserPage.nonce))
    var expected: [String: (lines: [String], collapsed: TruncatedText)] = [:]
    var markdowns: [String: String] = [:]
    var languages: [String: String] = [:]
    for (index, (language, markdown)) in zip(corpus.indices, corpus) {
      let paragraph = Paragraph(TextSource(LocalizedKey(markdown)), options: TruncationOptions(lineLimit: Self.limit))
      let text = paragraph.source.resolve().text
      let measurer = FontMeasurer(fonts, engine: profile)
      let breaker = LineBreaker(rules: .init(profile, language: language))
      for (widthIndex, width) in widths.enumerated() {
        let units = measurer.layoutWidth(pixels: width)
        let expanded = Truncator.truncate(text, measurer: measurer, breaker: breaker, width: units, state: .expanded)
        let collapsed = Truncator.truncate(text, measurer: measurer, breaker: breaker, width: units, state: .collapsed)
        for state in DisplayState.allCases {
          let id = "p\(index)w\(widthIndex)\(state == .collapsed ? "c" : "e")"
          var options = HTMLOptions(
            id: id, fontSource: fontSource, animationDuration: 0, scriptNonce: BrowserPage.nonce)
          options.language = language
          body +=
            asPage
            ? page.html(paragraph, width: width, state: state, id: id, language: language).html
            : paragraph.html(width: width, fonts: fonts, engine: profile, state: state, options: options).html
          markdowns[id] = markdown
          languages[id] = language
          expected[id] = (
            expanded.lines.map { normalize($0.fragments.filter { $0.role == .text }.map(\.text).joined()) },
            collapsed
          )
        }
      }
    }
    let script = """
      var cases=[];
      document.querySelectorAll('.unfold').forEach(function(u){
        var full=u.querySelector('.unfold-full'),col=u.querySelector('.unfold-collapsed'),btn=u.querySelector('.unfold-more');
        var rec={id:u.id,state:u.dataset.state,hasButton:!!btn};
        if(u.dataset.state==='expanded'){rec.lines=linesOf(full);}
        else if(col){
          rec.collapsedLines=linesOf(col);
          var e=col.querySelector('.unfold-ellipsis').getBoundingClientRect(),b=btn.getBoundingClientRect();
          rec.buttonOnLastLine=Math.abs((b.top+b.bottom)/2-(e.top+e.bottom)/2)<8;
        }
        cases.push(rec);
      });
      finish({fontsLoaded:fontsLoaded(),cases:cases});
      """
    if asPage {
      try FileManager.default.createDirectory(at: exported, withIntermediateDirectories: true)
      for file in page.fontFiles() { try file.data.write(to: exported.appendingPathComponent(file.name)) }
    }
    let stylesheet = asPage ? "<style>\(page.stylesheet)</style>" : ""
    let tolerated = engine == .gecko ? BrowserPage.familiesGeckoRefuses(in: stylesheet + body) : []
    html = BrowserPage.page(body: body, script: script, extraHead: stylesheet, tolerating: tolerated)
    (self.expected, self.markdowns, self.languages) = (expected, markdowns, languages)
  }

  /// How the lines that a browser of `engine` drew (the page's output, `json`) compare with the engine's.
  func agreement(_ json: String, in engine: BrowserEngine) throws -> LineAgreementTests.Agreement {
    let normalize = LineAgreementTests.normalize
    let output = try JSONDecoder().decode(LineAgreementTests.Output.self, from: Data(json.utf8))
    var result = LineAgreementTests.Agreement(browser: engine, fontsLoaded: output.fontsLoaded)
    for seen in output.cases {
      guard let (lines, collapsed) = expected[seen.id], let language = languages[seen.id] else { continue }
      let markdown = markdowns[seen.id] ?? ""
      if seen.id.hasSuffix("e") {
        guard let seenLines = seen.lines else { continue }
        result.total += 1
        var counts = result.languages[language] ?? (0, 0)
        counts.total += 1
        let actual = seenLines.map(normalize)
        if actual == lines {
          result.agree += 1
          counts.agree += 1
        } else {
          let more = actual.count > lines.count
          if more { result.moreLines += 1 }
          result.disagreements.append(
            "[\(language)] \(seen.id)\(more ? " (more lines)" : ""): engine \(lines)\n    \(engine) \(actual)\n    markdown \(markdown)"
          )
        }
        result.languages[language] = counts
      } else {
        // The collapsed view: a button exactly when truncated, on the last of the engine's lines; a text shown
        // uncut takes no more lines than the limit.
        if seen.hasButton != collapsed.isTruncated {
          result.toggleProblems.append(
            "[\(language)] \(seen.id): button \(seen.hasButton), engine truncated \(collapsed.isTruncated)")
        }
        if collapsed.isTruncated {
          let engineLines = collapsed.lines.map {
            normalize($0.fragments.filter { [.text, .hyphen, .ellipsis].contains($0.role) }.map(\.text).joined())
          }
          let seenLines = (seen.collapsedLines ?? []).map(normalize)
          if seenLines != engineLines || seen.buttonOnLastLine != true {
            result.toggleProblems.append(
              "[\(language)] \(seen.id): engine \(engineLines)\n    \(engine) \(seenLines), button on last line \(seen.buttonOnLastLine ?? false)"
            )
          }
        } else if let seenLines = seen.lines, seenLines.count > Self.limit {
          result.uncutTooLong.append(
            "[\(language)] \(seen.id): \(seenLines.count) lines in \(engine)\n    markdown \(markdown)")
        }
      }
    }
    return result
  }
}
