import Foundation
import TestSupport
import Testing
import Unfold

/// What a keyboard and assistive technology meet in a real browser, and fragments that share a page
/// (issue 37, items 4 and 5).
@Suite(.serialized) struct FocusAndIDTests {
  static let linked = """
    See [the guide to **everything**](https://example.com/guide) and \
    <https://example.com/a/very/long/path/that/wraps/around/the/line> now, then more words that follow \
    here so that the paragraph is cut.
    """

  static func fragment(
    _ text: String, width: Double, state: DisplayState = .collapsed, id: String? = nil, lessLabel: String? = "less"
  ) throws -> String {
    Paragraph(TextSource(LocalizedKey(text)), options: TruncationOptions(lineLimit: 3, lessLabel: lessLabel)).html(
      width: width, fonts: try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: []), state: state,
      options: HTMLOptions(
        id: id, fontSource: .url(prefix: "file://\(FontSet.dejaVuFolder)/"), animationDuration: 0,
        scriptNonce: BrowserPage.nonce)
    ).html
  }

  /// The tab stops of the page as the browser finds them: every element in tab order (tabIndex 0 or more,
  /// rendered, focusable by `focus()`), with its box and whether an `aria-hidden` ancestor hides it.
  static let tabStops = """
    function stops(){
      var out=[];
      document.querySelectorAll('.unfold a, .unfold button, .unfold [tabindex]').forEach(function(el){
        if(el.tabIndex<0||!el.checkVisibility()) return;
        el.focus();
        var r=el.getBoundingClientRect(),hidden=!!el.closest('[aria-hidden=true]');
        out.push({tag:el.tagName.toLowerCase(),href:el.getAttribute('href')||'',cls:el.className||'',
          focused:document.activeElement===el,w:r.width,h:r.height,hidden:hidden});
      });
      return out;
    }
    """

  struct Stop: Decodable {
    var tag: String
    var href: String
    var cls: String
    var focused: Bool
    var w: Double
    var h: Double
    var hidden: Bool
  }

  /// Each link is one tab stop in each state, drawn where the reader sees it (no 1 × 1 box), and nothing
  /// focusable sits inside `aria-hidden` (axe's rule aria-hidden-focus).
  @Test(arguments: Browser.engines)
  func eachLinkIsOneVisibleTabStopInEachState(_ engine: BrowserEngine) throws {
    let script = """
      \(Self.tabStops)
      var r=document.querySelector('.unfold'),collapsed=stops();
      r.querySelector('.unfold-more').click();
      var expanded=stops();
      r.querySelector('.unfold-less').click();
      finish({collapsed:collapsed,expanded:expanded,again:stops(),
        hiddenFocusable:document.querySelectorAll('[aria-hidden=true] a[href]:not([tabindex="-1"]), [aria-hidden=true] button').length});
      """
    let page = BrowserPage.page(body: try Self.fragment(Self.linked, width: 220), script: script)
    struct Result: Decodable {
      var collapsed: [Stop]
      var expanded: [Stop]
      var again: [Stop]
      var hiddenFocusable: Int
    }
    let result = try JSONDecoder().decode(
      Result.self, from: Data(try Browser.with(engine) { try $0.output(of: page) }.utf8))
    let guide = "https://example.com/guide"
    let long = "https://example.com/a/very/long/path/that/wraps/around/the/line"
    #expect(result.collapsed.map(\.href) == [guide, long, ""], "\(result.collapsed)")
    #expect(result.collapsed.last?.cls.contains("unfold-more") == true)
    #expect(result.expanded.map(\.href) == [guide, long, ""], "\(result.expanded)")
    #expect(result.expanded.last?.cls.contains("unfold-less") == true)
    #expect(result.again.map(\.href) == result.collapsed.map(\.href))
    for stop in result.collapsed + result.expanded + result.again {
      #expect(stop.focused && !stop.hidden && stop.w > 2 && stop.h > 2, "\(stop)")
    }
    #expect(result.hiddenFocusable == 0)
  }

  /// One text at two widths and in two states, and one rendering twice with ids of its own (with characters
  /// that CSS selectors escape), on one page: every id is unique, each toggle controls its own copy, each
  /// paragraph has its own width, and a click changes only its own paragraph.
  @Test(arguments: Browser.engines)
  func fragmentsOfOneTextOnOnePageStayApart(_ engine: BrowserEngine) throws {
    let text = Self.linked
    let body = try [
      Self.fragment(text, width: 300), Self.fragment(text, width: 300, state: .expanded),
      Self.fragment(text, width: 240), Self.fragment(text, width: 260, id: "copy.a"),
      Self.fragment(text, width: 260, id: "2nd:copy"),
    ].joined(separator: "\n")
    let script = """
      var roots=[].slice.call(document.querySelectorAll('.unfold'));
      function own(){return roots.map(function(r){return [].slice.call(r.querySelectorAll('[aria-controls]'))
        .every(function(b){var t=document.getElementById(b.getAttribute('aria-controls'));return !!t&&r.contains(t);});});}
      var ids=[].slice.call(document.querySelectorAll('[id]')).map(function(e){return e.id;});
      var widths=roots.map(function(r){return r.getBoundingClientRect().width;});
      var before=roots.map(function(r){return r.dataset.state;});
      roots[2].querySelector('.unfold-more').click();
      finish({ids:ids,own:own(),widths:widths,before:before,after:roots.map(function(r){return r.dataset.state;})});
      """
    struct Result: Decodable {
      var ids: [String]
      var own: [Bool]
      var widths: [Double]
      var before: [String]
      var after: [String]
    }
    let page = BrowserPage.page(body: body, script: script)
    let result = try JSONDecoder().decode(
      Result.self, from: Data(try Browser.with(engine) { try $0.output(of: page) }.utf8))
    #expect(Set(result.ids).count == result.ids.count, "\(result.ids)")
    #expect(result.own == [true, true, true, true, true])
    #expect(result.widths == [300, 300, 240, 260, 260])
    #expect(result.before == ["collapsed", "expanded", "collapsed", "collapsed", "collapsed"])
    #expect(result.after == ["collapsed", "expanded", "expanded", "collapsed", "collapsed"])
  }
}
