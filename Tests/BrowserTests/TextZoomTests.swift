import Foundation
import TestSupport
import Testing
import Unfold

/// The reader's text doubled (a minimum font size of 32 px over the page's 16 px, WCAG 1.4.4): nothing is lost.
///
/// In Chromium and Firefox ESR, the collapsed lines wrap within the container instead of running past it, the
/// lines grow with the text rather than overlap, the toggle stays on screen and expands the whole text.
///
/// WebKitGTK's MiniBrowser offers no minimum font size and no zoom level to drive, so WebKit is not tested here.
@Suite struct TextZoomTests {
  /// What the page's script reads, collapsed and then expanded.
  struct Seen: Decodable {
    var glyphHeight: Double
    var collapsedHeight: Double
    var collapsedLines: [String]
    var collapsedOverflows: Bool
    var toggleShown: Bool
    var toggleInside: Bool
    var expandedText: String
    var expandedOverflows: Bool
  }

  static let script = """
    var r=document.getElementById('sample'),c=r.querySelector('.unfold-collapsed'),t=c.querySelector('.unfold-more');
    var box=r.getBoundingClientRect(),tb=t.getBoundingClientRect(),g=document.createRange(),n=c.firstChild;
    while(n.nodeType!==3)n=n.firstChild;
    g.setStart(n,0);g.setEnd(n,1);
    var seen={glyphHeight:g.getBoundingClientRect().height,collapsedHeight:c.getBoundingClientRect().height,
      collapsedLines:linesOf(c),
      collapsedOverflows:c.scrollWidth>c.clientWidth+1,toggleShown:tb.width>0&&tb.height>0,
      toggleInside:tb.left>=box.left-8&&tb.right<=box.right+8};
    t.click();
    var f=r.querySelector('.unfold-full');
    seen.expandedText=f.textContent;seen.expandedOverflows=f.scrollWidth>f.clientWidth+1;
    finish(seen);
    """

  @Test(arguments: [BrowserEngine.blink, .gecko])
  func doublingTheTextLosesNothing(_ engine: BrowserEngine) throws {
    let page = BrowserPage.page(body: try ToggleTests.fragment(duration: 0), script: Self.script)
    let json = try Browser.with(engine, minimumFontSize: 32) { try $0.output(of: page) }
    let seen = try JSONDecoder().decode(Seen.self, from: Data(json.utf8))
    #expect(seen.glyphHeight >= 32, "the browser did not double the text: a letter \(seen.glyphHeight) px tall")
    // Lines as far apart as the letters are tall, at least: none overlaps the next.
    let pitch = seen.collapsedHeight / Double(seen.collapsedLines.count)
    #expect(pitch >= seen.glyphHeight, "lines \(pitch) px apart for letters \(seen.glyphHeight) px tall")
    #expect(!seen.collapsedOverflows && !seen.expandedOverflows, "text runs past the container")
    #expect(seen.toggleShown && seen.toggleInside)
    #expect(seen.collapsedLines.count > 3, "\(seen.collapsedLines)")
    let whole = Paragraph(TextSource(LocalizedKey(ToggleTests.sample))).source.resolve().text.string
    #expect(seen.expandedText.hasPrefix(whole), "the expanded text is not the whole text")
    print("\(engine), text doubled: the 3 collapsed lines take \(seen.collapsedLines.count), \(pitch) px apart")
  }
}
