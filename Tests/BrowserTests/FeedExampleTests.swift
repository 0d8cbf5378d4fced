import Foundation
import TestSupport
import Testing
import Unfold

/// The feed example (`Examples/feed`, the `unfold-feed` product) as a reader meets it.
///
/// The site it writes (a page, its stylesheet, font files cut to what the page draws) in each engine's browser, in a
/// phone's viewport and a desktop's. In every comment the browser draws the collapsed lines that the page holds for its column's width, and
/// "Read more" shows exactly when part of the text is left out. The page is written for `any` engine: a text cut
/// because some engine needs more than three lines for it is cut in all three (the test reports how many of the cut
/// texts the engine at hand would fit).
///
/// With `UNFOLD_RECORD=1`, the screenshots that the README shows (`Examples/feed/screenshots`) are taken again:
/// review them before committing.
@Suite struct FeedExampleTests {
  static let viewports = [
    (name: "phone", viewport: Browser.Viewport(width: 390, height: 844)),
    (name: "desktop", viewport: Browser.Viewport(width: 1280, height: 800)),
  ]
  static let recording = ProcessInfo.processInfo.environment["UNFOLD_RECORD"] == "1"
  static let screenshots = TestSupport.repositoryRoot.appendingPathComponent("Examples/feed/screenshots")

  /// What the page reports of one comment's fragment.
  struct Seen: Decodable {
    var id: String
    /// The lines the page holds for the collapsed view shown, split at its `<br>`s; nil when none shows.
    var predicted: [String]?
    /// The lines the browser draws of what shows.
    var lines: [String]
    /// Whether a "Read more" button shows.
    var toggle: Bool
    /// Whether what shows is the whole text (its characters but spaces).
    var complete: Bool
    /// The lines of the whole text once expanded, when a toggle shows.
    var wholeLines: Int?
  }

  struct Output: Decodable {
    var fontsLoaded: Bool
    var width: Int
    var fragments: [Seen]
  }

  /// Reads each fragment, then expands those with a toggle to count the whole text's lines.
  static let script = """
    function predictedLines(p){
      var lines=[''],walker=document.createTreeWalker(p,NodeFilter.SHOW_TEXT|NodeFilter.SHOW_ELEMENT),n;
      while((n=walker.nextNode())){
        if(n.nodeType===1){if(n.tagName==='BR')lines.push('');continue;}
        if(!n.parentElement.closest('button'))lines[lines.length-1]+=n.data;
      }
      return lines;
    }
    function letters(el){return predictedLines(el).join('').replace(/\\s/g,'');}
    function shown(list){return [].filter.call(list,function(e){return e.getClientRects().length>0;});}
    var seen=[];
    document.querySelectorAll('.unfold').forEach(function(u){
      var views=shown(u.querySelectorAll('.unfold-collapsed>p')),full=u.querySelector('.unfold-full');
      var more=shown(u.querySelectorAll('.unfold-more'));
      var entry={id:u.id,toggle:more.length>0,predicted:null,lines:[],complete:false,wholeLines:null};
      if(views.length===1){entry.predicted=predictedLines(views[0]);entry.lines=linesOf(views[0]);}
      else if(views.length===0){entry.lines=linesOf(full);}
      else{entry.lines=['('+views.length+' views shown)'];}
      entry.complete=letters(views.length===1?views[0]:full)===letters(full);
      if(more.length){more[0].click();entry.wholeLines=linesOf(full).length;}
      seen.push(entry);
    });
    finish({fontsLoaded:fontsLoaded(),width:document.querySelector('.unfold').clientWidth,fragments:seen});
    """

  @Test(arguments: Browser.engines)
  func everyCommentShowsThePredictedLines(_ engine: BrowserEngine) throws {
    let site = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-feed-\(UUID())")
    defer { try? FileManager.default.removeItem(at: site) }
    let built = try Command.run([site.path], product: "unfold-feed")
    try #require(built.status == 0, "unfold-feed failed: \(built.stderr)")
    let index = site.appendingPathComponent("index.html")
    let html = try String(contentsOf: index, encoding: .utf8)
    let check = site.appendingPathComponent("check.html")
    let stylesheet = try String(contentsOf: site.appendingPathComponent("unfold.css"), encoding: .utf8)
    let tolerated = engine == .gecko ? BrowserPage.familiesGeckoRefuses(in: stylesheet + html) : []
    let measuring = BrowserPage.measuring(Self.script, tolerating: tolerated) + "</body>"
    try Data(html.replacingOccurrences(of: "</body>", with: measuring).utf8).write(to: check)
    // The page as it is, but for a script that tells a frame around it when the fonts are ready to be seen, and no
    // scroll bar (WebKitGTK draws one in the frame, where a phone draws none).
    let shot = site.appendingPathComponent("shot.html")
    let ready =
      "<style>html{overflow:hidden}</style><script>document.fonts.ready.then("
      + "function(){setTimeout(function(){parent.postMessage('ready','*');},200);});</script></body>"
    try Data(html.replacingOccurrences(of: "</body>", with: ready).utf8).write(to: shot)

    try Browser.with(engine) { browser in
      for (name, viewport) in Self.viewports {
        let json = try browser.output(ofPageAt: check, viewport: viewport)
        let output = try JSONDecoder().decode(Output.self, from: Data(json.utf8))
        #expect(output.fontsLoaded, "the fonts did not load in \(engine)")
        #expect(output.fragments.count == 30)
        var (truncated, exact, roomy) = (0, 0, 0)
        for fragment in output.fragments {
          let place = "\(engine), \(name) (\(output.width) px), \(fragment.id)"
          let lines = fragment.lines.map(LineAgreementTests.normalize)
          if let predicted = fragment.predicted?.map(LineAgreementTests.normalize) {
            if lines == predicted { exact += 1 }
            #expect(lines == predicted, "\(place): the page holds\n  \(predicted)\nthe browser draws\n  \(lines)")
          }
          if fragment.toggle {
            truncated += 1
            #expect(!fragment.complete, "\(place): Read more, but the whole text shows")
            if (fragment.wholeLines ?? 0) <= 3 { roomy += 1 }
          } else {
            #expect(fragment.complete, "\(place): part of the text shows, and no Read more")
            #expect(lines.count <= 3, "\(place): \(lines.count) lines shown")
          }
        }
        print(
          "feed in \(engine), \(name): \(truncated) of 30 comments cut (\(roomy) of them fit in 3 lines in this "
            + "engine alone), \(exact) views drawn as the page holds them")
        let png = try browser.screenshot(ofPageAt: shot, viewport: viewport)
        #expect(Browser.size(ofPNG: png) == [viewport.width, viewport.height], "\(engine), \(name): the screenshot")
        if Self.recording {
          try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
          try png.write(to: Self.screenshots.appendingPathComponent("\(engine)-\(name).png"))
        }
      }
    }
  }
}
