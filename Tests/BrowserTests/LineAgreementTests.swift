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
    let fonts = try choice.fonts()
    let prefix = "file://\(choice.folder)/"
    var body = ""
    var expected: [String: (lines: [String], collapsed: TruncatedText)] = [:]
    for (index, (language, markdown)) in Self.corpus.enumerated() {
      let paragraph = Paragraph(TextSource(LocalizedKey(markdown)), options: TruncationOptions(lineLimit: 3))
      let text = paragraph.source.resolve().text
      for (widthIndex, width) in Self.widths.enumerated() {
        let units = Int((width * Double(FontMeasurer.unitsPerPixel)).rounded())
        let expanded = Truncator.truncate(
          text, measurer: FontMeasurer(fonts), breaker: .chromium, width: units, state: .expanded)
        let collapsed = Truncator.truncate(
          text, measurer: FontMeasurer(fonts), breaker: .chromium, width: units, state: .collapsed)
        for state in DisplayState.allCases {
          let id = "p\(index)w\(widthIndex)\(state == .collapsed ? "c" : "e")"
          var options = HTMLOptions(
            id: id, fontSource: .url(prefix: prefix), animationDuration: 0, scriptNonce: BrowserPage.nonce)
          options.language = language
          body += paragraph.html(width: width, fonts: fonts, state: state, options: options)
          expected[id] = (
            expanded.lines.map { Self.normalize($0.fragments.filter { $0.role == .text }.map(\.text).joined()) },
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
    #expect(output.fontsLoaded, "the fonts did not load in Chromium")
    var agree = 0
    var total = 0
    var disagreements: [String] = []
    var toggleProblems: [String] = []
    for result in output.cases {
      guard let (lines, collapsed) = expected[result.id] else { continue }
      if result.id.hasSuffix("e") {
        guard let chromium = result.lines else { continue }
        total += 1
        let actual = chromium.map(Self.normalize)
        if actual == lines {
          agree += 1
        } else if disagreements.count < 25 {
          disagreements.append("\(result.id): engine \(lines)\n    chromium \(actual)")
        }
      } else {
        // The collapsed view: a button exactly when truncated, on the last of the engine's lines.
        if result.hasButton != collapsed.isTruncated {
          toggleProblems.append("\(result.id): button \(result.hasButton), engine truncated \(collapsed.isTruncated)")
        }
        if collapsed.isTruncated {
          let engineLines = collapsed.lines.map {
            Self.normalize($0.fragments.filter { [.text, .hyphen, .ellipsis].contains($0.role) }.map(\.text).joined())
          }
          let chromiumLines = (result.collapsedLines ?? []).map(Self.normalize)
          if chromiumLines != engineLines || result.buttonOnLastLine != true {
            toggleProblems.append(
              "\(result.id): engine \(engineLines)\n    chromium \(chromiumLines), button on last line \(result.buttonOnLastLine ?? false)"
            )
          }
        }
      }
    }
    let rate = total == 0 ? 0 : Double(agree) / Double(total)
    print(
      "\(choice.name): Chromium's lines equal the engine's in \(agree) of \(total) cases (\(String(format: "%.2f", rate * 100))%)"
    )
    for line in disagreements { print("  disagreement \(line)") }
    for line in toggleProblems.prefix(25) { print("  toggle \(line)") }
    #expect(total == Self.corpus.count * Self.widths.count)
    #expect(rate >= 0.995, "\(agree) of \(total)")
    #expect(toggleProblems.isEmpty, "\(toggleProblems.count) collapsed views differ")
  }
}
