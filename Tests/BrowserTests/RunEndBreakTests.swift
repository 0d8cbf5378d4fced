import Foundation
import TestSupport
import Testing
import Unfold

/// Where each engine breaks around the end of a run of Thai, Lao, Khmer or Burmese, against its profile: each text
/// in a box of no width, where the browser takes every opportunity, read line by line.
///
/// Gecko (ICU4X) allows a break at the end of every such run, before what follows (`ไทย|,`, `(ไทย|)`, `ไทย|abc`,
/// `ไทย|๒๕๖๘`, `ไทย|ๆ`) but a few spaces, line ends and invisible characters
/// (`DictionaryBreaks.noBreakAtRunEndBefore`), and after a word joiner that follows the run; Blink and WebKit leave the
/// run's end to UAX #14. The texts probe each character class that may follow a run.
@Suite struct RunEndBreakTests {
  static let texts = [
    "ไทย,", "(ไทย)", "ไทยabc", "ไทย๒๕๖๘", "ไทยๆ", "ๆ", "ภาษาไทย, (ภาษาไทย) ภาษาไทยabc ภาษาไทย๒๕๖๘ ภาษาไทยๆ ดี",
    "“ไทย”", "ไทย.", "ไทย!", "ไทย-abc", "abcไทย", "123ไทย", "ไทย\u{200B}abc", "ไทย\u{00A0}abc", "ไทย\u{3000}abc",
    "ไทย\u{2060}abc", "ไทย\u{00AD}abc",
    "ไทย\u{200D}abc", "ไทย\u{FEFF}abc", "ไทย\u{2009}abc", "ไทย\u{1680}abc", "ไทย\u{200C}abc", "ไทย😀",
    "ไทย中文", "ไทย\u{0301}abc",
    "ไทย\u{2000}abc", "ไทย\u{2001}abc", "ไทย\u{2002}abc", "ไทย\u{2003}abc", "ไทย\u{2004}abc", "ไทย\u{2005}abc",
    "ไทย\u{2006}abc", "ไทย\u{2007}abc", "ไทย\u{2008}abc", "ไทย\u{200A}abc", "ไทย\u{202F}abc", "ไทย\u{205F}abc",
    "ไทย\u{180E}abc", "ไทย\u{2028}abc", "ไทย\u{0085}abc", "ไทย\u{2010}abc",
    "ไทย\u{0F0B}abc", "ไทย\u{1361}abc", "ไทย\u{17D8}abc",
    "ລາວ,", "(ລາວ)", "ລາວabc", "ខ្មែរ,", "(ខ្មែរ)", "ខ្មែរabc", "မြန်မာ,", "(မြန်မာ)", "မြန်မာabc", "မြန်မာ၁၂",
  ]

  /// The text split at each opportunity of `rules`, spaces left with the line before.
  static func expectedLines(_ text: String, rules: LineBreaker.Rules) -> [String] {
    let offsets = LineBreaker(rules: rules).allOpportunities(in: text).map(\.offset).filter { $0 < text.utf8.count }
    var lines: [String] = []
    var start = 0
    let bytes = Array(text.utf8)
    for offset in offsets + [bytes.count] where offset > start {
      lines.append(String(decoding: bytes[start..<offset], as: UTF8.self))
      start = offset
    }
    return lines
  }

  @Test(arguments: Browser.engines)
  func runEndsBreakAsTheProfileSays(_ engine: BrowserEngine) throws {
    let body = Self.texts.enumerated().map { index, text in
      "<div id=\"t\(index)\" style=\"width:0;white-space:normal;font:16px sans-serif\">\(text)</div>"
    }.joined()
    let script = """
      var out=[];for(var i=0;i<\(Self.texts.count);i++){out.push(linesOf(document.getElementById('t'+i)));}finish(out);
      """
    let output = try Browser.with(engine) { try $0.output(of: BrowserPage.page(body: body, script: script)) }
    let lines = try JSONDecoder().decode([[String]].self, from: Data(output.utf8))
    let rules = LineBreaker.Rules(engine)
    var differences: [String] = []
    for (text, drawn) in zip(Self.texts, lines) {
      let expected = Self.expectedLines(text, rules: rules)
      let normalize = { (lines: [String]) in lines.map { $0.trimmingCharacters(in: .whitespaces) } }
      if normalize(drawn) != normalize(expected) {
        differences.append("\(text): \(engine) \(drawn), profile \(expected)")
      }
    }
    #expect(
      differences.isEmpty, "\(differences.count) of \(Self.texts.count) differ:\n\(differences.joined(separator: "\n"))"
    )
  }
}
