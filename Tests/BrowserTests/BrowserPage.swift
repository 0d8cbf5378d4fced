import Foundation

/// Test pages for headless Chromium: fragments from the HTML renderer, and a measuring script that writes
/// JSON into `<pre id="out">` once the fonts are loaded.
enum BrowserPage {
  static let nonce = "unfold-test"

  /// A page holding `body`, with a Content-Security-Policy that allows only scripts with the test nonce
  /// (the renderer's, given the nonce, and the page's own), and `script` run after the fonts are ready.
  static func page(body: String, script: String, extraHead: String = "") -> String {
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
    <pre id="out"></pre>
    <script nonce="\(nonce)">
    \(measuringFunctions)
    document.fonts.ready.then(function(){ setTimeout(function(){
    \(script)
    }, 50); });
    </script>
    </body>
    </html>
    """
  }

  /// `linesOf(element)`: the text of each visual line of an element (buttons left out), read with a Range
  /// per code point: the last rect with a width tells the line; whitespace and zero-width characters stay
  /// on the line before. `fontsLoaded()`: whether some font face loaded and none failed (a face that draws
  /// nothing of the page is never loaded).
  static let measuringFunctions = """
    function linesOf(el){
      var lines=[],cur=null,curTop=null,range=document.createRange();
      var walker=document.createTreeWalker(el,NodeFilter.SHOW_TEXT,{acceptNode:function(n){
        return n.parentElement.closest('button')?NodeFilter.FILTER_REJECT:NodeFilter.FILTER_ACCEPT}});
      var n;
      while((n=walker.nextNode())){
        var t=n.data;
        for(var i=0;i<t.length;){
          var cp=t.codePointAt(i),len=cp>0xFFFF?2:1,ch=t.substr(i,len);
          range.setStart(n,i);range.setEnd(n,i+len);
          var rects=range.getClientRects(),r=null;
          for(var k=rects.length-1;k>=0;k--){if(rects[k].width>0){r=rects[k];break;}}
          var space=(ch===' '||ch==='\\t'||ch==='\\n');
          if(r===null||space){cur=(cur===null?'':cur)+ch;}
          else if(curTop===null||Math.abs(r.top-curTop)>2){if(curTop!==null)lines.push(cur);cur=ch;curTop=r.top;}
          else{cur+=ch;}
          i+=len;
        }
      }
      if(cur!==null)lines.push(cur);
      return lines;
    }
    function fontsLoaded(){var ok=true,any=false;document.fonts.forEach(function(f){if(f.status==='error')ok=false;if(f.status==='loaded')any=true;});return ok&&any;}
    function finish(value){document.getElementById('out').textContent=JSON.stringify(value);}
    """
}
