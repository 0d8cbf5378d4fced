import Foundation

/// Test pages for headless Chromium: fragments from the HTML renderer, and a measuring script that writes
/// JSON into `<pre id="out">` once the fonts are loaded.
enum BrowserPage {
  static let nonce = "unfold-test"

  /// A page holding `body`, with a Content-Security-Policy that allows only scripts with the test nonce
  /// (the renderer's, given the nonce, and the page's own), and `script` run after the fonts are ready.
  ///
  /// `tolerating` names font families whose faces may fail to load (``familiesGeckoRefuses(in:)`` in Gecko):
  /// `fontsLoaded()` passes over them.
  static func page(body: String, script: String, extraHead: String = "", tolerating: [String] = []) -> String {
    """
    <!DOCTYPE html>
    <html>
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="script-src 'nonce-\(nonce)'; object-src 'none'">
    \(extraHead)
    </head>
    <body style="margin:8px">
    \(body)
    \(measuring(script, tolerating: tolerating))
    </body>
    </html>
    """
  }

  /// The end of a test page's body: `<pre id="out">`, and the script that runs `script` once the fonts are ready.
  static func measuring(_ script: String, tolerating: [String] = []) -> String {
    let tolerated = tolerating.map { "\"\($0)\"" }.joined(separator: ",")
    return """
      <pre id="out"></pre>
      <script nonce="\(nonce)">
      var unfoldTolerated=[\(tolerated)];
      \(measuringFunctions)
      document.fonts.ready.then(function(){ setTimeout(function(){
      \(script)
      }, 50); });
      </script>
      """
  }

  /// The font families of `html` that Firefox does not load as web fonts, so that it draws their characters in the
  /// system's fonts: font collections (`.ttc`, Noto Sans CJK) and colour bitmap fonts (Noto Color Emoji, whose
  /// bitmaps it drops; the family of the emoji that a page draws first in it is named `…-Emoji`).
  static func familiesGeckoRefuses(in html: String) -> [String] {
    var names = Set<String>()
    let face = /@font-face\{font-family:"([^"]+)";src:url\("([^"]*)"\)/
    for match in html.matches(of: face) {
      let (name, source) = (String(match.output.1), match.output.2)
      if source.contains("ColorEmoji") || source.hasSuffix(".ttc") { names.insert(name) }
      if name.hasSuffix("-Emoji") {
        names.insert(name)
        names.insert(String(name.dropLast("-Emoji".count)))
      }
    }
    return names.sorted()
  }

  /// `linesOf(element)`: the text of each visual line of an element (buttons left out), read with a Range
  /// per grapheme cluster (Gecko gives the width of a shaped cluster to its last character, none to those before
  /// it): the last rect with a width tells the line by its middle (a character drawn in another font
  /// has another top in Gecko), a new line where the middle moves by half a line height or more; whitespace and
  /// combining marks (drawn above or below, so off the middle) and characters with no rect of a width (Gecko's
  /// inside a shaped cluster, zero-width ones) stay on the line before; those before the first line (a text that
  /// starts with spaces, which `pre-wrap` keeps) start it.
  ///
  /// `finish(value)`: writes `value` as JSON into `<pre id="out">`, and posts it to the parent page of a frame.
  ///
  /// `fontsLoaded()`: whether some font face loaded and none failed (a face that draws nothing of the page is never
  /// loaded).
  static let measuringFunctions = """
    function linesOf(el){
      var lines=[],cur=null,curTop=null,range=document.createRange();
      var half=(parseFloat(getComputedStyle(el).lineHeight)||20)/2;
      var graphemes=typeof Intl.Segmenter==='function'?new Intl.Segmenter(undefined,{granularity:'grapheme'}):null;
      var walker=document.createTreeWalker(el,NodeFilter.SHOW_TEXT,{acceptNode:function(n){
        return n.parentElement.closest('button')?NodeFilter.FILTER_REJECT:NodeFilter.FILTER_ACCEPT}});
      var n;
      while((n=walker.nextNode())){
        var t=n.data,pieces=[];
        if(graphemes){for(var s of graphemes.segment(t))pieces.push([s.index,s.segment]);}
        else{for(var i=0;i<t.length;){var cp=t.codePointAt(i),len=cp>0xFFFF?2:1;pieces.push([i,t.substr(i,len)]);i+=len;}}
        for(var p of pieces){
          var ch=p[1];
          range.setStart(n,p[0]);range.setEnd(n,p[0]+ch.length);
          var rects=range.getClientRects(),r=null;
          for(var k=rects.length-1;k>=0;k--){if(rects[k].width>0){r=rects[k];break;}}
          var space=(ch===' '||ch==='\\t'||ch==='\\n'||/^\\p{M}/u.test(ch));
          if(r===null||space){cur=(cur===null?'':cur)+ch;}
          else if(curTop===null){cur=(cur===null?'':cur)+ch;curTop=(r.top+r.bottom)/2;}
          else if(Math.abs((r.top+r.bottom)/2-curTop)>=half){lines.push(cur);cur=ch;curTop=(r.top+r.bottom)/2;}
          else{cur+=ch;}
        }
      }
      if(cur!==null)lines.push(cur);
      return lines;
    }
    function fontsLoaded(){var ok=true,any=false;document.fonts.forEach(function(f){if(f.status==='error'&&unfoldTolerated.indexOf(f.family.replace(/"/g,''))<0)ok=false;if(f.status==='loaded')any=true;});return ok&&any;}
    function finish(value){var t=JSON.stringify(value);document.getElementById('out').textContent=t;if(parent!==window)parent.postMessage(t,'*');}
    """
}
