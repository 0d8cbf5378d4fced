import Foundation
import TestSupport
import Testing
import Unfold

/// Emoji come out in colour in every engine, with the default font chain, where DejaVu Sans has an outline of the
/// same character (😀, 😍): each cluster is drawn in black on a canvas in the page's font list, and some pixel
/// must have another colour (an outline glyph comes out black; an emoji, even a grey one like ✔️, does not).
///
/// Gecko drops a downloaded colour bitmap font, so there the page must leave the character to the system's emoji font,
/// and another fragment on the page must not take them back.
@Suite struct EmojiColourTests {
  static let clusters = ["😀", "😍", "🚀", "❤️", "✔️", "👍🏽", "👨‍👩‍👧", "🇫🇷", "1️⃣"]

  @Test(arguments: Browser.engines)
  func emojiAreInColourIn(_ engine: BrowserEngine) throws {
    try EngineAgreementTests.withFonts(size: 20) { fonts, source in
      // Fragments without emoji before and after, whose faces of DejaVu Sans have 😀.
      let html = ["plain", "emoji", "after"].map { id in
        let options = HTMLOptions(id: id, fontSource: source, scriptNonce: BrowserPage.nonce)
        let text = id == "emoji" ? Self.clusters.joined(separator: " ") + " and text" : "Text ☺ without emoji"
        return Paragraph(verbatim: text).html(width: 600, fonts: fonts, engine: engine, options: options).html
      }.joined()
      let list = Self.clusters.map { "\"\($0)\"" }.joined(separator: ",")
      let script = """
        var style=getComputedStyle(document.getElementById('emoji')),canvas=document.createElement('canvas');
        canvas.width=64;canvas.height=64;var g=canvas.getContext('2d'),out=[];
        g.font=style.fontSize+' '+style.fontFamily;g.fillStyle='#000';g.textBaseline='top';
        [\(list)].forEach(function(c){
          g.clearRect(0,0,64,64);g.fillText(c,4,4);var d=g.getImageData(0,0,64,64).data,hue=false;
          for(var i=0;i<d.length;i+=4){if(d[i+3]>128&&Math.max(d[i],d[i+1],d[i+2])>24){hue=true;break;}}
          out.push(c+(hue?' colour':' grey'));
        });
        document.getElementById('out').textContent=out.join('\\n');
        """
      let output = try Browser.with(engine) { browser in
        try browser.output(of: BrowserPage.page(body: html, script: script))
      }
      let grey = output.split(separator: "\n").filter { $0.hasSuffix(" grey") }
      #expect(grey.isEmpty, "\(engine) draws these without colour: \(grey)")
    }
  }
}
