import Foundation
import TestSupport
import Testing

@testable import Unfold

/// Documents (headings, lists, tasks, quotes, code, tables, rules, HTML, nested) as HTML in each engine: a corpus of
/// documents of the project's own, built from the paragraphs of ``Corpus`` and ``FallbackCorpus`` in fifteen
/// languages, at 8 widths from 160 to 720 px, collapsed to 7 lines and expanded, with each engine's profile and with
/// `any`; collapsed to 130 px too, so that headings, larger than the text, take more of the budget.
///
/// A case agrees when the browser's lines, read leaf by leaf in reading order (a table's row by row, its cells'
/// lines side by side), are the engine's, and the view is exactly as tall as its lines: the blank lines between
/// blocks, the indents and the table's rows took the room the engine gave them.
@Suite struct DocumentAgreementTests {
  static let widths: [Double] = [160, 200, 240, 300, 360, 480, 600, 720]
  static let limit = 7
  /// The collapsed views' height budget in CSS px: 6.5 lines of text, less when a heading is among them.
  static let maxHeight = 130.0

  /// The documents: each template filled with the paragraphs of one language.
  static let corpus: [(language: String, markdown: String)] = {
    let sources =
      Corpus.paragraphs(perLanguage: 6, languages: ["en", "de", "ru", "el", "vi"])
      + FallbackCorpus.paragraphs(perLanguage: 6, languages: ["zh", "ja", "th", "emoji"])
      + FallbackCorpus.paragraphs(perLanguage: 6, languages: ["ar", "he", "hi", "bn", "rtl-mixed"])
    var byLanguage: [String: [String]] = [:]
    var order: [String] = []
    for (language, markdown) in sources {
      if byLanguage[language] == nil { order.append(language) }
      byLanguage[language, default: []].append(markdown.replacingOccurrences(of: "\n", with: " "))
    }
    var documents: [(String, String)] = []
    for (index, language) in order.enumerated() {
      let paragraphs = byLanguage[language]!
      for template in 0..<2 {
        documents.append((language, document(template: (2 * index + template) % templates, paragraphs)))
      }
    }
    return documents
  }()

  static let templates = 5

  /// A few words of a paragraph, for a heading or a cell: its first `count` words, markdown marks left out.
  static func words(_ paragraph: String, _ count: Int) -> String {
    let plain = paragraph.filter { !"*_`[]()|#<>~\\".contains($0) }
    return plain.split(separator: " ").prefix(count).joined(separator: " ")
  }

  /// Document `template` filled with `p`, the paragraphs of a language (six).
  static func document(template: Int, _ p: [String]) -> String {
    switch template {
    case 0:
      return """
        # \(words(p[0], 4))

        \(p[1])

        - \(p[2])
        - \(words(p[3], 6))
        - [x] \(words(p[4], 3))

        > \(p[5])
        """
    case 1:
      return """
        ## \(words(p[1], 5))

        1. \(p[0])

        2. \(words(p[2], 8))
           - \(words(p[3], 5))
           - \(words(p[4], 7))

        ```
        \(words(p[5], 12))
        let x = 1
        ```
        """
    case 2:
      return """
        | \(words(p[0], 2)) | \(words(p[1], 1)) | \(words(p[2], 3)) |
        | :-- | :-: | --: |
        | \(words(p[3], 6)) | 42 | \(words(p[4], 2)) |
        | \(words(p[5], 1)) | 7 | \(words(p[0], 9)) |

        ---

        \(p[1])
        """
    case 3:
      return """
        > ### \(words(p[2], 3))
        >
        > \(p[3])
        >
        > > \(words(p[4], 9))

        - [ ] \(p[5])
          \(words(p[0], 4))

        10. \(words(p[1], 4))
        11. \(words(p[2], 4))
        """
    default:
      return """
        \(p[4])

        <div>\(words(p[5], 5))</div>

        * \(words(p[0], 3))

          \(p[1])

        ***

        ###### \(words(p[3], 6))
        """
    }
  }

  @Test(arguments: BrowserEngine.engines)
  func documentsHoldIn(_ engine: BrowserEngine) throws {
    try Browser.with(engine) { browser in
      try EngineAgreementTests.withFonts(size: 16) { fonts, source in
        for profile in [engine, .any] {
          let (agree, total, moreLines, problems) = try Self.agreement(
            fonts: fonts, source: source, profile: profile, in: browser)
          print("documents, \(profile) profile in \(engine): \(agree) of \(total) cases agree, \(moreLines) taller")
          for problem in problems.prefix(20) { print("  \(problem)") }
          #expect(Double(agree) >= 0.995 * Double(total), "\(agree) of \(total), \(profile) profile")
          #expect(moreLines == 0, "\(engine) drew more lines than predicted, \(profile) profile")
          #expect(total == (profile == .any ? 1 : 2) * Self.corpus.count * Self.widths.count)
        }
      }
    }
  }

  /// The engine's lines of a view of a document.
  ///
  /// They are each leaf's lines' text (a table's lines are its cells' side by
  /// side, each cell's line without its trailing spaces); blank lines, which are margins, left out. The hyphen of a
  /// soft hyphen is text in the collapsed view, and the browser's own in the expanded one (no character to read).
  static func expectedLines(_ view: DocumentLines.View) -> [String] {
    let roles: [Fragment.Role] = view.text.state == .collapsed ? [.text, .hyphen, .ellipsis] : [.text]
    return view.leaves.flatMap { range in
      view.text.lines[range].map { line in
        LineAgreementTests.normalize(line.fragments.filter { roles.contains($0.role) }.map(\.text).joined())
      }
    }
  }

  /// The corpus in pages of 6 documents (96 containers): how many cases agree, of how many, and the others.
  static func agreement(
    fonts: FontSet, source: HTMLOptions.FontSource, profile: BrowserEngine, in browser: Browser
  ) throws -> (agree: Int, total: Int, moreLines: Int, problems: [String]) {
    var result = (agree: 0, total: 0, moreLines: 0, problems: [String]())
    for start in stride(from: 0, to: corpus.count, by: 6) {
      let page = try agreement(
        of: Array(corpus.enumerated())[start..<min(corpus.count, start + 6)], fonts: fonts, source: source,
        profile: profile, in: browser)
      result = (
        result.agree + page.agree, result.total + page.total, result.moreLines + page.moreLines,
        result.problems + page.problems
      )
    }
    return result
  }

  /// One page of documents.
  static func agreement(
    of documents: ArraySlice<(offset: Int, element: (language: String, markdown: String))>, fonts: FontSet,
    source: HTMLOptions.FontSource, profile: BrowserEngine, in browser: Browser
  ) throws -> (agree: Int, total: Int, moreLines: Int, problems: [String]) {
    var body = ""
    var expected: [String: (lines: [String], height: Double, truncated: Bool, markdown: String)] = [:]
    for (index, (language, markdown)) in documents {
      // A height budget too: a document that starts with a large heading shows fewer lines of text.
      let paragraph = Paragraph(document: markdown).lineLimit(limit).maxHeight(maxHeight)
      for (widthIndex, width) in widths.enumerated() {
        for state in DisplayState.allCases {
          let id = "d\(index)w\(widthIndex)\(state == .collapsed ? "c" : "e")"
          var options = HTMLOptions(id: id, fontSource: source, animationDuration: 0, scriptNonce: BrowserPage.nonce)
          options.language = language
          body += paragraph.html(width: width, fonts: fonts, engine: profile, state: state, options: options).html
          let view = paragraph.documentView(
            width: width, fonts: fonts, engine: profile, state: state, language: language)
          expected[id] = (expectedLines(view), Double(view.height) / 64, view.text.isTruncated, markdown)
        }
      }
    }
    let script = """
      function leafLines(view){
        var out=[];
        view.querySelectorAll('p,h1,h2,h3,h4,h5,h6,pre,hr,table').forEach(function(el){
          if(el.tagName==='HR'){out.push('');return;}
          if(el.tagName==='TABLE'){
            el.querySelectorAll('tr').forEach(function(tr){
              var cells=[].map.call(tr.children,function(c){
                return linesOf(c).map(function(l){return l.replace(/[ \\t\\n\\u00AD]+$/,'');});});
              var n=Math.max(1,Math.max.apply(null,cells.map(function(c){return c.length;})));
              for(var i=0;i<n;i++)out.push(cells.map(function(c){return i<c.length?c[i]:'';}).join(''));
            });
            return;
          }
          var lines=linesOf(el);
          if(lines.length===0&&!el.classList.contains('unfold-end'))lines=[''];
          out.push.apply(out,lines);
        });
        return out;
      }
      var cases=[];
      document.querySelectorAll('.unfold').forEach(function(u){
        var view=u.dataset.state==='expanded'?u.querySelector('.unfold-full'):u.querySelector('.unfold-collapsed');
        cases.push({id:u.id,lines:leafLines(view),height:view.getBoundingClientRect().height,
          hasButton:!!u.querySelector('.unfold-more')});
      });
      finish({fontsLoaded:fontsLoaded(),cases:cases});
      """
    let tolerated = browser.engine == .gecko ? BrowserPage.familiesGeckoRefuses(in: body) : []
    let html = BrowserPage.page(body: body, script: script, tolerating: tolerated)
    struct Seen: Decodable {
      var id: String
      var lines: [String]
      var height: Double
      var hasButton: Bool
    }
    struct Output: Decodable {
      var fontsLoaded: Bool
      var cases: [Seen]
    }
    let output = try JSONDecoder().decode(Output.self, from: Data(try browser.output(of: html).utf8))
    #expect(output.fontsLoaded, "the fonts did not load in \(browser.engine)")
    var (agree, total, moreLines, problems) = (0, 0, 0, [String]())
    for seen in output.cases {
      guard let want = expected[seen.id] else { continue }
      let lines = seen.lines.map(LineAgreementTests.normalize)
      let heightAgrees = abs(seen.height - want.height) < 0.5
      // `any` predicts the collapsed view, and that a document it shows uncut fits the limit; the whole document,
      // reflowed, is each engine's.
      let collapsed = seen.id.hasSuffix("c")
      if profile == .any && !collapsed { continue }
      total += 1
      let agrees =
        profile != .any || want.truncated ? lines == want.lines && heightAgrees : seen.height < want.height + 0.5
      // No view is taller than its lines: what the engine shows uncut fits, and a cut view is not pushed down.
      if seen.height > want.height + 0.5 {
        moreLines += 1
      }
      if agrees && seen.hasButton == want.truncated {
        agree += 1
      } else {
        problems.append(
          "\(seen.id): engine \(want.height) lines \(want.lines)\n    \(browser.engine) \(seen.height) lines \(lines), button \(seen.hasButton)\n    markdown \(want.markdown.debugDescription)"
        )
      }
    }
    return (agree, total, moreLines, problems)
  }
}
