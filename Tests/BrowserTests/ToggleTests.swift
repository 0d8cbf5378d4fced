import Foundation
import TestSupport
import Testing
import Unfold

/// The toggle in each engine's browser: it expands and collapses, flips `aria-expanded`, moves focus, animates
/// only when motion is welcome; without JavaScript the whole text shows; and the screenshots in the README.
@Suite(.serialized) struct ToggleTests {
  static let sample = """
    **Unfold** turns a short piece of text into exactly what a reader sees in a few lines, with `… more` \
    where it is cut, and what they see after they ask for *more*: [links](https://example.com/unfold), \
    ~~every~~ each style, and whole words in every script.
    """

  static func fragment(state: DisplayState = .collapsed, duration: Double = 0.4) throws -> String {
    let paragraph = Paragraph(
      TextSource(LocalizedKey(sample)),
      options: TruncationOptions(lineLimit: 3, moreLabel: "more", lessLabel: "Show less"))
    return paragraph.html(
      width: 300, fonts: try FontSet.dejaVu(size: 16, lineHeight: 22, fallbacks: []), state: state,
      options: HTMLOptions(
        id: "sample", fontSource: .url(prefix: "file://\(FontSet.dejaVuFolder)/"), animationDuration: duration,
        scriptNonce: BrowserPage.nonce)
    ).html
  }

  struct Snapshot: Decodable {
    var state: String
    var moreExpanded: String?
    var lessExpanded: String?
    var collapsedShown: Bool
    var fullShown: Bool
    var focused: String
    var animations: Int
  }

  static let snapshotScript = """
    var r=document.getElementById('sample');
    function visible(el){return !!el&&getComputedStyle(el).display!=='none'&&el.offsetHeight>4&&getComputedStyle(el).clipPath==='none';}
    function snap(){var m=r.querySelector('.unfold-more'),l=r.querySelector('.unfold-less');
      return {state:r.dataset.state,moreExpanded:m&&m.getAttribute('aria-expanded'),lessExpanded:l&&l.getAttribute('aria-expanded'),
        collapsedShown:visible(r.querySelector('.unfold-collapsed')),fullShown:visible(r.querySelector('.unfold-full')),
        focused:(document.activeElement&&document.activeElement.className)||'',animations:document.getAnimations().length};}
    var steps=[snap()];
    r.querySelector('.unfold-more').click();steps.push(snap());
    r.querySelector('.unfold-less').click();steps.push(snap());
    finish(steps);
    """

  @Test(arguments: Browser.engines)
  func aClickExpandsAndASecondCollapses(_ engine: BrowserEngine) throws {
    let page = BrowserPage.page(body: try Self.fragment(), script: Self.snapshotScript)
    let json = try Browser.with(engine) { try $0.output(of: page) }
    let steps = try JSONDecoder().decode([Snapshot].self, from: Data(json.utf8))
    try #require(steps.count == 3)
    let (start, expanded, collapsed) = (steps[0], steps[1], steps[2])
    #expect(start.state == "collapsed" && start.moreExpanded == "false" && start.collapsedShown && !start.fullShown)
    #expect(expanded.state == "expanded" && expanded.moreExpanded == "true" && expanded.lessExpanded == "true")
    #expect(!expanded.collapsedShown && expanded.fullShown)
    #expect(expanded.focused.contains("unfold-less"))
    #expect(expanded.animations == 1)
    #expect(collapsed.state == "collapsed" && collapsed.moreExpanded == "false" && collapsed.collapsedShown)
    #expect(collapsed.focused.contains("unfold-more"))
  }

  @Test(arguments: Browser.engines)
  func noAnimationForReadersWhoAskForReducedMotion(_ engine: BrowserEngine) throws {
    let page = BrowserPage.page(body: try Self.fragment(), script: Self.snapshotScript)
    let json = try Browser.with(engine, reducedMotion: true) { try $0.output(of: page) }
    let steps = try JSONDecoder().decode([Snapshot].self, from: Data(json.utf8))
    #expect(steps.map(\.animations) == [0, 0, 0])
    #expect(steps[1].fullShown)
  }

  @Test(arguments: Browser.engines)
  func withoutJavaScriptTheWholeTextShowsAndNoToggle(_ engine: BrowserEngine) throws {
    var fragment = try Self.fragment()
    // The renderer's own script removed: what a reader with scripts off gets.
    let start = try #require(fragment.range(of: "<script"))
    let end = try #require(fragment.range(of: "</script>"))
    fragment.removeSubrange(start.lowerBound..<end.upperBound)
    let script = """
      var r=document.getElementById('sample');
      function shown(sel){var el=r.querySelector(sel);return !!el&&getComputedStyle(el).display!=='none'&&el.offsetHeight>4&&getComputedStyle(el).clipPath==='none';}
      finish({full:shown('.unfold-full'),collapsed:shown('.unfold-collapsed'),more:shown('.unfold-more'),less:shown('.unfold-less')});
      """
    let json = try Browser.with(engine) {
      try $0.output(of: BrowserPage.page(body: fragment, script: script))
    }
    #expect(json == "{\"full\":true,\"collapsed\":false,\"more\":false,\"less\":false}")
  }

  /// While collapsed, screen readers meet what the eye meets: the collapsed lines (nothing in them
  /// `aria-hidden`) and the button; the full text is out of the tree until it expands.
  @Test(arguments: Browser.engines)
  func screenReadersMeetWhatTheEyeMeetsAndTheToggleIsLargeEnough(_ engine: BrowserEngine) throws {
    let script = """
      var r=document.getElementById('sample'),b=r.querySelector('.unfold-more').getBoundingClientRect();
      var hidden=r.querySelectorAll('[aria-hidden]').length;
      var full=r.querySelector('.unfold-full');
      function inTree(el){return getComputedStyle(el).display!=='none'&&getComputedStyle(el).visibility!=='hidden';}
      var collapsed={full:inTree(full),lines:inTree(r.querySelector('.unfold-collapsed'))};
      r.querySelector('.unfold-more').click();
      finish({hidden:hidden,collapsed:collapsed,fullExpanded:inTree(full),
        width:b.width,height:b.height,controls:r.querySelector('.unfold-more').getAttribute('aria-controls')===full.id});
      """
    let page = BrowserPage.page(body: try Self.fragment(), script: script)
    let json = try Browser.with(engine) { try $0.output(of: page) }
    struct Result: Decodable {
      struct Collapsed: Decodable { var full: Bool; var lines: Bool }
      var hidden: Int; var collapsed: Collapsed; var fullExpanded: Bool; var width: Double; var height: Double
      var controls: Bool
    }
    let result = try JSONDecoder().decode(Result.self, from: Data(json.utf8))
    #expect(result.hidden == 0)
    #expect(result.collapsed.lines && !result.collapsed.full)
    #expect(result.fullExpanded)
    #expect(result.controls)
    #expect(result.width >= 24 && result.height >= 24, "toggle \(result.width)×\(result.height)")
  }

  /// The README's screenshots, taken here: written to `Docs/` when recording (`UNFOLD_RECORD=1`).
  @Test func screenshotsForTheReadme() throws {
    let recording = ProcessInfo.processInfo.environment["UNFOLD_RECORD"] == "1"
    for state in DisplayState.allCases {
      let fragment = try Self.fragment(state: state, duration: 0)
      let page =
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:16px;background:#fff\">\(fragment)</body></html>"
      let png = try Chromium.screenshot(page, width: 340, height: state == .collapsed ? 200 : 260)
      #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
      #expect(png.count > 2_000)
      if recording {
        let url = TestSupport.repositoryRoot.appendingPathComponent("Docs/screenshot-\(state.rawValue).png")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try png.write(to: url)
      }
    }
  }
}
