import Foundation
import TestSupport
import Testing
import Unfold

/// Every toggle placement and truncation mode in Chromium: the collapsed view shows exactly the engine's
/// lines, and the button is where the placement says.
@Suite(.serialized) struct PlacementTests {
  static let variants: [(name: String, mode: TruncationMode, toggle: TogglePlacement)] = [
    ("tail inline", .tail, .inline), ("tail below", .tail, .below), ("tail overlay", .tail, .overlay),
    ("tail none", .tail, .none), ("head inline", .head, .inline), ("middle inline", .middle, .inline),
  ]

  @Test func collapsedViewsMatchTheEngineInEveryPlacement() throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20)
    let corpus = Corpus.paragraphs(perLanguage: 5)
    var body = ""
    var expected: [String: (lines: [String], variant: String, truncated: Bool)] = [:]
    for (index, (_, markdown)) in corpus.enumerated() {
      for (variantIndex, variant) in Self.variants.enumerated() {
        for width in [200.0, 333.3] {
          let id = "v\(variantIndex)p\(index)w\(Int(width))"
          let paragraph = Paragraph(LocalizedKey(markdown)).lineLimit(2).truncationMode(variant.mode)
            .toggle(variant.toggle).lessLabel("less")
          body += paragraph.html(
            width: width, fonts: fonts, state: .collapsed,
            options: HTMLOptions(
              id: id, fontSource: .url(prefix: "file://\(FontSet.dejaVuFolder)/"), scriptNonce: BrowserPage.nonce))
          let units = Int((width * Double(FontMeasurer.unitsPerPixel)).rounded())
          let collapsed = Truncator.truncate(
            paragraph.source.resolve().text, measurer: FontMeasurer(fonts), breaker: .chromium, width: units,
            options: paragraph.options, state: .collapsed)
          let lines = collapsed.lines.filter { !($0.fragments.count == 1 && $0.fragments[0].isToggle) }.map { line in
            LineAgreementTests.normalize(
              line.fragments.filter {
                [.text, .hyphen, .ellipsis].contains($0.role) || ($0.role == .gap && $0.text == " ")
              }
              .map(\.text).joined())
          }
          expected[id] = (lines, variant.name, collapsed.isTruncated)
        }
      }
    }
    let script = """
      var cases=[];
      document.querySelectorAll('.unfold').forEach(function(u){
        var col=u.querySelector('.unfold-collapsed'),btn=u.querySelector('.unfold-more');
        var rec={id:u.id,hasButton:!!btn&&getComputedStyle(btn).display!=='none',lines:col&&getComputedStyle(col).display!=='none'?linesOf(col):null};
        if(btn&&col){var b=btn.getBoundingClientRect(),c=col.getBoundingClientRect();rec.buttonBottomGap=c.bottom-b.bottom;rec.buttonTop=b.top-c.top;}
        cases.push(rec);
      });
      finish(cases);
      """
    struct Case: Decodable {
      var id: String
      var hasButton: Bool
      var lines: [String]?
      var buttonBottomGap: Double?
      var buttonTop: Double?
    }
    let json = try Chromium.output(of: BrowserPage.page(body: body, script: script), budget: 60_000)
    let cases = try JSONDecoder().decode([Case].self, from: Data(json.utf8))
    var problems: [String] = []
    var checked = 0
    for result in cases {
      guard let (lines, variant, truncated) = expected[result.id], truncated else { continue }
      checked += 1
      let chromium = (result.lines ?? []).map(LineAgreementTests.normalize)
      if chromium != lines { problems.append("\(result.id) \(variant): engine \(lines)\n    chromium \(chromium)") }
      let wantsButton = !variant.hasSuffix("none")
      if result.hasButton != wantsButton { problems.append("\(result.id) \(variant): button \(result.hasButton)") }
      if variant == "tail below", let top = result.buttonTop, top < 2 * 20 - 4 {
        problems.append("\(result.id): the button below sits at \(top) px, inside the text lines")
      }
    }
    print("placements: \(checked - problems.count) of \(checked) truncated collapsed views match")
    for problem in problems.prefix(20) { print("  \(problem)") }
    #expect(checked > 50)
    #expect(problems.isEmpty)
  }
}
