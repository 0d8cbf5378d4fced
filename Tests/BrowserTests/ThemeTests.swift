import Foundation
import TestSupport
import Testing
import Unfold

/// The colours follow the page in each engine: on a light and a dark page (`color-scheme: dark`) the toggle, the links
/// and the overlay's background take the page's system colours, the toggle readable on the page's background; the
/// documented custom properties set them; a site's rules override them without fighting; and a site's rules for
/// buttons and paragraphs move no line.
@Suite struct ThemeTests {
  /// A fragment of a text with a link, cut with the toggle inline or overlaid, with the id `id`.
  static func fragment(id: String, overlay: Bool) throws -> String {
    let paragraph = Paragraph(
      TextSource(LocalizedKey(ToggleTests.sample)),
      options: TruncationOptions(lineLimit: 2, moreLabel: "more", lessLabel: "Show less")
    ).toggle(overlay ? .overlay : .inline)
    return paragraph.html(
      width: 300, fonts: try FontSet.dejaVu(size: 16, lineHeight: 22, fallbacks: []),
      options: HTMLOptions(
        id: id, fontSource: .url(prefix: "file://\(FontSet.dejaVuFolder)/"), animationDuration: 0,
        scriptNonce: BrowserPage.nonce)
    ).html
  }

  /// What a page's script reads of one fragment.
  struct Seen: Decodable {
    var id: String
    var toggle: String
    var link: String
    var overlay: String
    var toggleHeight: Double
    var collapsedHeight: Double
    var lines: [String]
  }

  /// What a page's script reads: the fragments, and the page's own `LinkText` and `Canvas`.
  struct Output: Decodable {
    var fragments: [Seen]
    var linkText: String
    var canvas: String
  }

  static let script = """
    function probe(c){var s=document.createElement('span');s.style.color=c;document.body.appendChild(s);
      var v=getComputedStyle(s).color;s.remove();return v;}
    var out={linkText:probe('LinkText'),canvas:probe('Canvas'),fragments:[]};
    document.querySelectorAll('.unfold').forEach(function(u){
      var t=u.querySelector('.unfold-collapsed .unfold-toggle'),a=u.querySelector('.unfold-full a'),
        o=u.querySelector('.unfold-overlay');
      out.fragments.push({id:u.id,toggle:getComputedStyle(t).color,link:a?getComputedStyle(a).color:'',
        overlay:o?getComputedStyle(o).backgroundImage:'',toggleHeight:t.getBoundingClientRect().height,
        collapsedHeight:u.querySelector('.unfold-collapsed').getBoundingClientRect().height,
        lines:linesOf(u.querySelector('.unfold-collapsed'))});
    });
    finish(out);
    """

  /// The `rgb()` or `rgba()` colours of a computed value, as red, green and blue from 0 to 255, in order.
  static func colors(in value: String) -> [[Double]] {
    value.matches(of: /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/).map {
      [Double($0.output.1)!, Double($0.output.2)!, Double($0.output.3)!]
    }
  }

  /// WCAG 2's contrast ratio of two colours.
  static func contrast(_ a: [Double], _ b: [Double]) -> Double {
    func luminance(_ color: [Double]) -> Double {
      let linear = color.map { channel -> Double in
        let c = channel / 255
        return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
      }
      return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }
    let (light, dark) = (max(luminance(a), luminance(b)), min(luminance(a), luminance(b)))
    return (light + 0.05) / (dark + 0.05)
  }

  /// A page of the fragments, `dark` or not, read by ``script``.
  static func read(dark: Bool, in engine: BrowserEngine) throws -> Output {
    let siteRules = """
      <style>
      \(dark ? ":root{color-scheme:dark}body{background:Canvas;color:CanvasText}" : "")
      .site .unfold-toggle{color:rgb(4, 5, 6)}
      .site a{color:rgb(40, 50, 60);display:inline-block;padding:3px;font-weight:900;letter-spacing:2px}
      .site strong,.site em,.site code{padding:0 4px;border:2px solid;font-size:25px;vertical-align:middle}
      .site button{padding:30px;margin:9px;font-size:40px;line-height:3;border:5px solid red;color:red}
      .site p{margin:2em;padding:1em;line-height:50px;font-size:30px}
      </style>
      """
    let body = """
      \(try fragment(id: "plain", overlay: false))\(try fragment(id: "plain-overlay", overlay: true))
      <div style="--unfold-toggle-color:rgb(1, 2, 3);--unfold-link-color:rgb(7, 8, 9);\
      --unfold-overlay-background:rgb(10, 20, 30)">\(try fragment(id: "custom", overlay: true))</div>
      <div class="site">\(try fragment(id: "site", overlay: false))</div>
      """
    let json = try Browser.with(engine) {
      try $0.output(of: BrowserPage.page(body: body, script: script, extraHead: siteRules))
    }
    return try JSONDecoder().decode(Output.self, from: Data(json.utf8))
  }

  @Test(arguments: Browser.engines)
  func theColoursFollowTheLightAndTheDarkPage(_ engine: BrowserEngine) throws {
    for dark in [false, true] {
      let output = try Self.read(dark: dark, in: engine)
      let page = dark ? "dark" : "light"
      let fragments = Dictionary(uniqueKeysWithValues: output.fragments.map { ($0.id, $0) })
      let (plain, overlay) = (try #require(fragments["plain"]), try #require(fragments["plain-overlay"]))
      let (custom, site) = (try #require(fragments["custom"]), try #require(fragments["site"]))
      let canvas = try #require(Self.colors(in: output.canvas).first)
      // The page's own colours: its LinkText for the toggle and the links, its Canvas behind the overlaid toggle.
      #expect(plain.toggle == output.linkText && plain.link == output.linkText, "\(page)")
      #expect(Self.colors(in: overlay.overlay).last == canvas, "\(page): \(overlay.overlay)")
      let toggle = try #require(Self.colors(in: plain.toggle).first)
      #expect(Self.contrast(toggle, canvas) >= 4.5, "\(page): \(plain.toggle) on \(output.canvas)")
      // The custom properties.
      #expect(custom.toggle == "rgb(1, 2, 3)" && custom.link == "rgb(7, 8, 9)", "\(page)")
      #expect(Self.colors(in: custom.overlay).last == [10, 20, 30], "\(page): \(custom.overlay)")
      // A site's rules win over the colours, and move nothing.
      #expect(site.toggle == "rgb(4, 5, 6)" && site.link == "rgb(40, 50, 60)", "\(page)")
      #expect(site.toggleHeight == plain.toggleHeight && site.collapsedHeight == plain.collapsedHeight, "\(page)")
      #expect(site.lines == plain.lines && plain.lines.count == 2, "\(page): \(site.lines) against \(plain.lines)")
    }
  }
}
