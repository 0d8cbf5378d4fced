import Foundation
import TestSupport
import Testing
import Unfold

/// Renders the engine's HTML in headless Chromium and reads the lines back: Chromium's lines must equal the
/// engine's in at least 99.5% of the cases, and the toggle must appear exactly when the engine says the text
/// is truncated (on the last line, never wrapped).
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
    #expect(result.moreLinesInChromium == 0, "Chromium drew more lines than the engine predicted")
    #expect(result.toggleProblems.isEmpty, "\(result.toggleProblems.count) collapsed views differ")
  }

  /// How Chromium's lines compare with the engine's for a corpus at some widths.
  struct Agreement {
    var fontsLoaded: Bool
    var agree = 0
    var total = 0
    /// The expanded cases where Chromium draws more lines than the engine predicts.
    var moreLinesInChromium = 0
    var disagreements: [String] = []
    var toggleProblems: [String] = []
    var rate: Double { total == 0 ? 0 : Double(agree) / Double(total) }

    func report(_ name: String) {
      print(
        "\(name): Chromium's lines equal the engine's in \(agree) of \(total) cases (\(String(format: "%.2f", rate * 100))%), \(moreLinesInChromium) with more lines in Chromium"
      )
      for line in disagreements.prefix(25) { print("  disagreement \(line)") }
      for line in toggleProblems.prefix(25) { print("  toggle \(line)") }
      // Every case, for whoever studies them: UNFOLD_AGREEMENT_LOG names a file to append them to.
      guard let path = ProcessInfo.processInfo.environment["UNFOLD_AGREEMENT_LOG"] else { return }
      if !FileManager.default.fileExists(atPath: path) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
      }
      guard let file = FileHandle(forWritingAtPath: path) else { return }
      file.seekToEndOfFile()
      let all =
        ["\(name): \(agree) of \(total)"] + disagreements.map { "  disagreement \($0)" }
        + toggleProblems.map { "  toggle \($0)" }
      file.write(Data((all.joined(separator: "\n") + "\n").utf8))
      file.closeFile()
    }
  }

  /// Renders every paragraph of `corpus` at each width, expanded and collapsed to 3 lines, and compares
  /// Chromium's lines with the engine's; `fontSource` is where the pages find the fonts. A page holds about 200
  /// containers: Chromium's time grows faster than their number, each with `@font-face` rules that load (400
  /// containers with fallback fonts took 7.7 s, 800 took 45 s).
  static func agreement(
    fonts: FontSet, fontSource: HTMLOptions.FontSource, corpus: [(language: String, markdown: String)],
    widths: [Double]
  ) throws -> Agreement {
    var result: Agreement?
    let perPage = max(1, 200 / (2 * widths.count))
    for start in stride(from: 0, to: corpus.count, by: perPage) {
      let page = try pageAgreement(
        fonts: fonts, fontSource: fontSource, corpus: corpus[start..<min(corpus.count, start + perPage)],
        widths: widths)
      guard var merged = result else {
        result = page
        continue
      }
      merged.fontsLoaded = merged.fontsLoaded && page.fontsLoaded
      merged.agree += page.agree
      merged.total += page.total
      merged.moreLinesInChromium += page.moreLinesInChromium
      merged.disagreements += page.disagreements
      merged.toggleProblems += page.toggleProblems
      result = merged
    }
    return result ?? Agreement(fontsLoaded: false)
  }

  /// ``agreement(fonts:fontSource:corpus:widths:)`` for the paragraphs of one page.
  private static func pageAgreement(
    fonts: FontSet, fontSource: HTMLOptions.FontSource, corpus: ArraySlice<(language: String, markdown: String)>,
    widths: [Double]
  ) throws -> Agreement {
    var body = ""
    var expected: [String: (lines: [String], collapsed: TruncatedText)] = [:]
    var markdowns: [String: String] = [:]
    for (index, (language, markdown)) in zip(corpus.indices, corpus) {
      let paragraph = Paragraph(TextSource(LocalizedKey(markdown)), options: TruncationOptions(lineLimit: 3))
      let text = paragraph.source.resolve().text
      for (widthIndex, width) in widths.enumerated() {
        let units = Int((width * Double(FontMeasurer.unitsPerPixel)).rounded())
        let expanded = Truncator.truncate(
          text, measurer: FontMeasurer(fonts), breaker: .chromium, width: units, state: .expanded)
        let collapsed = Truncator.truncate(
          text, measurer: FontMeasurer(fonts), breaker: .chromium, width: units, state: .collapsed)
        for state in DisplayState.allCases {
          let id = "p\(index)w\(widthIndex)\(state == .collapsed ? "c" : "e")"
          var options = HTMLOptions(
            id: id, fontSource: fontSource, animationDuration: 0, scriptNonce: BrowserPage.nonce)
          options.language = language
          body += paragraph.html(width: width, fonts: fonts, state: state, options: options)
          markdowns[id] = markdown
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
    let json = try Chromium.output(of: BrowserPage.page(body: body, script: script), budget: 120_000)
    let output = try JSONDecoder().decode(Output.self, from: Data(json.utf8))
    var result = Agreement(fontsLoaded: output.fontsLoaded)
    for chromium in output.cases {
      guard let (lines, collapsed) = expected[chromium.id] else { continue }
      if chromium.id.hasSuffix("e") {
        guard let chromiumLines = chromium.lines else { continue }
        result.total += 1
        let actual = chromiumLines.map(normalize)
        if actual == lines {
          result.agree += 1
        } else {
          if actual.count > lines.count { result.moreLinesInChromium += 1 }
          result.disagreements.append(
            "\(chromium.id): engine \(lines)\n    chromium \(actual)\n    markdown \(markdowns[chromium.id] ?? "")")
        }
      } else {
        // The collapsed view: a button exactly when truncated, on the last of the engine's lines.
        if chromium.hasButton != collapsed.isTruncated {
          result.toggleProblems.append(
            "\(chromium.id): button \(chromium.hasButton), engine truncated \(collapsed.isTruncated)")
        }
        if collapsed.isTruncated {
          let engineLines = collapsed.lines.map {
            normalize($0.fragments.filter { [.text, .hyphen, .ellipsis].contains($0.role) }.map(\.text).joined())
          }
          let chromiumLines = (chromium.collapsedLines ?? []).map(normalize)
          if chromiumLines != engineLines || chromium.buttonOnLastLine != true {
            result.toggleProblems.append(
              "\(chromium.id): engine \(engineLines)\n    chromium \(chromiumLines), button on last line \(chromium.buttonOnLastLine ?? false)"
            )
          }
        }
      }
    }
    return result
  }
}
