import Foundation
import TestSupport
import Testing
import Unfold

/// Hostile input in every place the HTML renderer writes (text, link text, link destination, labels,
/// verbatim text, every block of a document), loaded in Chromium under a trap: nothing may run, no handler or foreign element may appear,
/// and every link must be http, https or mailto.
@Suite(.serialized) struct InjectionTests {
  /// Payloads of the project's own, after the classes of the public XSS cheat sheets.
  static let payloads: [String] = [
    "<script>__pwned=1</script>",
    "<img src=x onerror=\"__pwned=1\">",
    "<svg onload=__pwned=1>",
    "\"><script>__pwned=1</script>",
    "'><img src=x onerror=__pwned=1>",
    "javascript:__pwned=1",
    "JaVaScRiPt:__pwned=1",
    "&#106;avascript:__pwned=1",
    "&#x6A;avascript:__pwned=1",
    "&#0000106;avascript:__pwned=1",
    "javascript&colon;__pwned=1",
    "jav&#x09;ascript:__pwned=1",
    "jav\tascript:__pwned=1",
    " &#14;  javascript:__pwned=1",
    "\u{01}javascript:__pwned=1",
    "vbscript:msgbox(1)",
    "data:text/html,<script>__pwned=1</script>",
    "data:image/svg+xml,<svg onload=__pwned=1>",
    "javascript://%0A__pwned=1",
    "<a href=\"javascript:__pwned=1\">x</a>",
    "<iframe src=\"javascript:__pwned=1\"></iframe>",
    "<body onload=__pwned=1>",
    "<style>*{background:url(javascript:__pwned=1)}</style>",
    "<math><mtext><table><mglyph><style><img src=x onerror=__pwned=1>",
    "<details open ontoggle=__pwned=1>",
    "<input autofocus onfocus=__pwned=1>",
    "<object data=\"javascript:__pwned=1\"></object>",
    "<embed src=\"javascript:__pwned=1\">",
    "<form action=javascript:__pwned=1><button>x</button></form>",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:__pwned=1\">",
    "<base href=\"javascript:__pwned=1//\">",
    "<!--<script>__pwned=1</script>-->",
    "]]><script>__pwned=1</script>",
    "\u{1B}]8;;javascript:__pwned=1\u{1B}\\x\u{1B}]8;;\u{1B}\\",
    "https://example.com/\"onmouseover=\"__pwned=1",
    "https://example.com/'onfocus='__pwned=1",
    "<scr<script>ipt>__pwned=1</script>",
    "%3Cscript%3E__pwned=1%3C/script%3E",
    "<img src=\"x\nonerror=__pwned=1\">",
    "<video><source onerror=__pwned=1></video>",
    "<a href=\"#\" onclick=\"__pwned=1\">x</a>",
    "[x](javascript:__pwned=1)",
    "![x](javascript:__pwned=1)",
    "<javascript:__pwned=1>",
    "[x](<javascript:__pwned=1>)",
    "[x](https://ok.example \"t\\\" onclick=\\\"__pwned=1\")",
    "<noscript><p title=\"</noscript><img src=x onerror=__pwned=1>\">",
    "<template><script>__pwned=1</script></template>",
    "<x onpointerenter=__pwned=1>hover</x>",
    "`<script>__pwned=1</script>`",
    "**<img src=x onerror=__pwned=1>**",
    "\u{2028}<script>__pwned=1</script>\u{2029}",
  ]

  /// Every way a payload reaches the renderer: (context, source, more label, less label).
  static func sources(_ payload: String) -> [(String, TextSource, String, String)] {
    let long = " A long enough sentence follows, so that the text is cut and both toggles are drawn, again and again."
    return [
      ("markdown", TextSource(LocalizedKey(payload + long)), "more", "less"),
      (
        "destination", TextSource(LocalizedKey("[click here](<\(payload)>) and [again](\(payload))" + long)), "more",
        "less"
      ),
      ("link text", TextSource(LocalizedKey("[\(payload)](https://ok.example)" + long)), "more", "less"),
      ("labels", TextSource(LocalizedKey("Plain text." + long)), payload, payload),
      ("verbatim", TextSource(verbatim: payload + long), "more", "less"),
      ("argument", TextSource(LocalizedKey("Comment: %@" + long, arguments: [.text(payload)])), "more", "less"),
      // A document, the payload in every block: a heading, items, a task's link, a quote, a fence's info string and
      // its code, a table's cells and link, a paragraph.
      (
        "document",
        TextSource(
          document: """
            # \(payload)

            - \(payload)
            - [x] [\(payload)](\(payload))

            > \(payload)

            ```\(payload)
            \(payload)
            ```

            | \(payload) | b |
            | --- | --- |
            | [x](\(payload)) | \(payload) |

            \(payload)\(long)
            """), "more", "less"
      ),
    ]
  }

  @Test func nothingInjectedRunsOrAppears() throws {
    #expect(Self.payloads.count >= 40)
    let fonts = try FontSet.dejaVu(fallbacks: [])
    var body = ""
    var count = 0
    for payload in Self.payloads {
      for (context, source, more, less) in Self.sources(payload) {
        for state in DisplayState.allCases {
          count += 1
          let paragraph = Paragraph(source, options: TruncationOptions(lineLimit: 2, moreLabel: more, lessLabel: less))
          body +=
            paragraph.html(
              width: 240, fonts: fonts, state: state,
              options: HTMLOptions(
                id: "x\(count)", fontSource: .url(prefix: "file://\(FontSet.dejaVuFolder)/"), animationDuration: 0,
                scriptNonce: BrowserPage.nonce)
            ).html
          _ = context
        }
      }
    }
    let result = try Self.run(body)
    print(
      "injection: \(Self.payloads.count) payloads in \(count) fragments: \(result.hits.count) hits, \(result.problems.count) problems"
    )
    #expect(result.containers == count, "a payload broke the structure: \(result.containers) containers of \(count)")
    #expect(result.hits.isEmpty, "\(result.hits.prefix(10))")
    #expect(result.problems.isEmpty, "\(result.problems.prefix(10))")
  }

  struct Result: Decodable {
    var hits: [String]
    var problems: [String]
    var containers: Int
  }

  /// Loads fragments under the trap, clicks every toggle twice, and reports what ran and what appeared.
  static func run(_ body: String) throws -> Result {
    let trap = """
      <script nonce="\(BrowserPage.nonce)">
      window.__hits=[];
      Object.defineProperty(window,'__pwned',{set:function(v){window.__hits.push('assignment')},get:function(){return 0}});
      window.alert=function(){window.__hits.push('alert')};
      document.addEventListener('securitypolicyviolation',function(e){window.__hits.push('csp '+e.violatedDirective+' '+e.blockedURI)});
      </script>
      """
    let script = """
      document.querySelectorAll('.unfold-toggle').forEach(function(b){b.click();});
      document.querySelectorAll('.unfold-toggle').forEach(function(b){b.click();});
      var problems=[];
      document.querySelectorAll('.unfold *').forEach(function(el){
        for(var i=0;i<el.attributes.length;i++){var a=el.attributes[i].name;if(a.indexOf('on')===0)problems.push('handler '+a+' on '+el.tagName);}
        var tag=el.tagName.toLowerCase();
        if(['a','strong','em','del','code','span','br','p','button','style','script','h1','h2','h3','h4','h5','h6',
          'ul','ol','li','blockquote','pre','table','colgroup','col','thead','tbody','tr','th','td','hr','input','div']
          .indexOf(tag)<0)problems.push('element '+tag);
        if(tag==='input'&&!(el.type==='checkbox'&&el.disabled))problems.push('an input other than a disabled checkbox');
        if(tag==='div'&&['unfold-collapsed','unfold-full'].indexOf(el.className)<0)problems.push('div '+el.className);
        if(tag==='script'&&el.nonce!=='\(BrowserPage.nonce)')problems.push('script without the nonce');
        if(tag==='style'&&el.parentElement.className!=='unfold'&&el.parentElement.className.indexOf('unfold ')!==0)problems.push('foreign style');
        if(tag==='a'&&!/^(https?:|mailto:)/.test(el.getAttribute('href')))problems.push('href '+el.getAttribute('href'));
      });
      setTimeout(function(){finish({hits:window.__hits,problems:problems,containers:document.querySelectorAll('.unfold').length});},300);
      """
    let json = try Chromium.output(of: BrowserPage.page(body: body, script: script, extraHead: trap), budget: 60_000)
    return try JSONDecoder().decode(Result.self, from: Data(json.utf8))
  }

  /// The trap itself works: a payload written without escaping is caught.
  @Test func theTrapCatchesWhatEscapingWouldStop() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    var fragment = Paragraph(TextSource(verbatim: "safe")).html(width: 240, fonts: fonts, state: .collapsed).html
    fragment = fragment.replacingOccurrences(
      of: "safe</p>", with: "safe<img src=x onerror=\"__pwned=1\"><a href=\"javascript:void(0)\">x</a></p>")
    let result = try Self.run(fragment)
    #expect(!result.hits.isEmpty)
    #expect(result.problems.contains { $0.hasPrefix("handler onerror") })
    #expect(result.problems.contains { $0.hasPrefix("href javascript:") })
  }
}
