import Foundation
import TestSupport
import Testing
import Unfold

/// Every toggle placement and truncation mode in each engine's browser, the fragment made for any engine: the
/// collapsed view shows exactly the engine's lines, and the button is where the placement says.
@Suite(.serialized) struct PlacementTests {
  static let variants: [(name: String, mode: TruncationMode, toggle: TogglePlacement)] = [
    ("tail inline", .tail, .inline), ("tail below", .tail, .below), ("tail overlay", .tail, .overlay),
    ("tail none", .tail, .none), ("head inline", .head, .inline), ("middle inline", .middle, .inline),
  ]

  @Test(arguments: Browser.engines)
  func collapsedViewsMatchTheEngineInEveryPlacement(_ engine: BrowserEngine) throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])
    let corpus = Corpus.paragraphs(perLanguage: 5)
    var body = ""
    var expected: [String: (lines: [String], variant: String, truncated: Bool)] = [:]
    for (index, (_, markdown)) in corpus.enumerated() {
      for (variantIndex, variant) in Self.variants.enumerated() {
        for width in [200.0, 333.3] {
          let id = "v\(variantIndex)p\(index)w\(Int(width))"
          let paragraph = Paragraph(LocalizedKey(markdown)).lineLimit(2).truncationMode(variant.mode)
            .toggle(variant.toggle).lessLabel("less")
          body +=
            paragraph.html(
              width: width, fonts: fonts, state: .collapsed,
              options: HTMLOptions(
                id: id, fontSource: .url(prefix: "file://\(FontSet.dejaVuFolder)/"), scriptNonce: BrowserPage.nonce)
            ).html
          let measurer = FontMeasurer(fonts, engine: .any)
          let collapsed = Truncator.truncate(
            paragraph.source.resolve().text, measurer: measurer, breaker: LineBreaker(rules: .anyEngine),
            width: measurer.layoutWidth(pixels: width), options: paragraph.options, state: .collapsed)
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
    let json = try Browser.with(engine) { try $0.output(of: BrowserPage.page(body: body, script: script)) }
    let cases = try JSONDecoder().decode([Case].self, from: Data(json.utf8))
    var problems: [String] = []
    var checked = 0
    for result in cases {
      guard let (lines, variant, truncated) = expected[result.id], truncated else { continue }
      checked += 1
      let chromium = (result.lines ?? []).map(LineAgreementTests.normalize)
      if chromium != lines { problems.append("\(result.id) \(variant): engine \(lines)\n    \(engine) \(chromium)") }
      let wantsButton = !variant.hasSuffix("none")
      if result.hasButton != wantsButton { problems.append("\(result.id) \(variant): button \(result.hasButton)") }
      if variant == "tail below", let top = result.buttonTop, top < 2 * 20 - 4 {
        problems.append("\(result.id): the button below sits at \(top) px, inside the text lines")
      }
    }
    print("placements in \(engine): \(checked - problems.count) of \(checked) truncated collapsed views match")
    for problem in problems.prefix(20) { print("  \(problem)") }
    #expect(checked > 50)
    #expect(problems.isEmpty)
  }

  /// The ellipsis and the toggle end the last line in the paragraph's direction, whatever the line mixes: the
  /// button is the leftmost thing on its line in a right-to-left paragraph, the rightmost in a left-to-right one,
  /// and the ellipsis stands next to it on the side of the text.
  @Test(arguments: Browser.engines)
  func theToggleEndsTheLineInTheParagraphsDirection(_ engine: BrowserEngine) throws {
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])
    let texts = [
      "مرحبا بالعالم، هذا نص باللغة العربية يمتد لأكثر من سطرين حتى نرى أين يقع الزر في النهاية دائما.",
      "שלום עולם, זהו טקסט בעברית שנמשך יותר משתי שורות כדי לראות היכן נמצא הכפתור בסוף.",
      "هذا نص عربي فيه كلمات English words in the middle of it ثم يعود إلى العربية مرة أخرى هنا وهناك.",
      "An English paragraph that ends its second line with Hebrew words שלום עולם זהו טקסט בעברית שנמשך הלאה.",
      "An English paragraph with Arabic near its cut: the engine measures كلمة عربية في النهاية هنا وهناك دائما.",
    ]
    var body = ""
    for (index, text) in texts.enumerated() {
      for width in [200.0, 260.0, 333.3] {
        body +=
          Paragraph(verbatim: text).lineLimit(2).html(
            width: width, fonts: fonts, state: .collapsed,
            options: HTMLOptions(
              id: "d\(index)w\(Int(width))", fontSource: .url(prefix: "file://\(FontSet.dejaVuFolder)/"),
              scriptNonce: BrowserPage.nonce)
          ).html
      }
    }
    let script = """
      var cases=[];
      document.querySelectorAll('.unfold').forEach(function(u){
        var col=u.querySelector('.unfold-collapsed'),btn=u.querySelector('.unfold-more'),el=u.querySelector('.unfold-ellipsis');
        if(!btn||!el){cases.push({id:u.id,truncated:false});return;}
        var b=btn.getBoundingClientRect(),e=el.getBoundingClientRect();
        var left=Infinity,right=-Infinity,range=document.createRange(),walker=document.createTreeWalker(col,NodeFilter.SHOW_TEXT),n;
        while((n=walker.nextNode())){if(n.parentElement.closest('button'))continue;range.selectNodeContents(n);
          Array.prototype.forEach.call(range.getClientRects(),function(r){if(r.width>0&&Math.abs((r.top+r.bottom)/2-(b.top+b.bottom)/2)<8){left=Math.min(left,r.left);right=Math.max(right,r.right);}});}
        cases.push({id:u.id,truncated:true,rtl:u.dir==='rtl',buttonLeft:b.left,buttonRight:b.right,ellipsisLeft:e.left,ellipsisRight:e.right,textLeft:left,textRight:right});
      });
      finish(cases);
      """
    struct Case: Decodable {
      var id: String
      var truncated: Bool
      var rtl: Bool?
      var buttonLeft, buttonRight, ellipsisLeft, ellipsisRight, textLeft, textRight: Double?
    }
    let json = try Browser.with(engine) { try $0.output(of: BrowserPage.page(body: body, script: script)) }
    let cases = try JSONDecoder().decode([Case].self, from: Data(json.utf8))
    var checked = 0
    for result in cases where result.truncated {
      guard let rtl = result.rtl, let buttonLeft = result.buttonLeft, let buttonRight = result.buttonRight,
        let ellipsisLeft = result.ellipsisLeft, let ellipsisRight = result.ellipsisRight,
        let textLeft = result.textLeft, let textRight = result.textRight
      else { continue }
      checked += 1
      // The button's padding (8 px each side) is pulled back by its margin: its box reaches 8 px past the label.
      if rtl {
        #expect(buttonRight <= textLeft + 9, "\(result.id): the button is not at the left end of its line")
        #expect(ellipsisLeft >= buttonRight - 9, "\(result.id): the ellipsis is not right of the button")
      } else {
        #expect(buttonLeft >= textRight - 9, "\(result.id): the button is not at the right end of its line")
        #expect(ellipsisRight <= buttonLeft + 9, "\(result.id): the ellipsis is not left of the button")
      }
    }
    #expect(checked >= 12, "\(checked) truncated views")
  }
}
