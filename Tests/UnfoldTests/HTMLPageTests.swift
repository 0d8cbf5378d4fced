import Foundation
import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// A page of many fragments (`HTMLPage`): the stylesheet written once and each fragment's own rules add up to the
/// rules of a fragment that carries them all, and ids stay unique on the page.
@Suite struct HTMLPageTests {
  /// A fragment's id hashes its options as `String(describing:)` writes them, so that ids stay what they were; the
  /// renderer writes that text out field by field, for every kind of value the options hold.
  @Test func idsHashTheOptionsAsSwiftDescribesThem() {
    var random = SplitMix64(state: 71)
    let strings = [
      "", "more", "a \"quoted\" label", "back\\slash", "line\nbreak\ttab\r", "\0", "é", "😀", "\u{200E}x", "e\u{301}",
      "\u{7F}\u{85}",
    ]
    func string() -> String { strings.randomElement(using: &random)! }
    func optional() -> String? { Bool.random(using: &random) ? nil : string() }
    let numbers: [Double] = [0.4, 0, 1e-5, 1234.5678, 0.1 + 0.2, 3, -2.5, 1e300]
    for _ in 0..<300 {
      let html = HTMLOptions(
        id: optional(), fontSource: Bool.random(using: &random) ? .embedded : .url(prefix: string()),
        standalone: Bool.random(using: &random), animationDuration: numbers.randomElement(using: &random)!,
        animationEasing: string(), scriptNonce: optional(), language: optional(),
        scrollLines: Bool.random(using: &random) ? nil : Int.random(in: -3...40, using: &random),
        scrollLabel: optional())
      #expect(HTMLRenderer.description(of: .html(html)) == String(describing: html))
      let truncation = TruncationOptions(
        lineLimit: Int.random(in: -2...10, using: &random), moreLabel: string(), lessLabel: optional(),
        ellipsis: string(), mode: TruncationMode.allCases.randomElement(using: &random)!,
        toggle: TogglePlacement.allCases.randomElement(using: &random)!,
        collapsesBlankLines: Bool.random(using: &random), reservesSpace: Bool.random(using: &random))
      #expect(HTMLRenderer.description(of: .truncation(truncation)) == String(describing: truncation))
    }
  }

  /// Texts that need no fallback, fallbacks of several scripts, the colour emoji family, and code.
  static let texts = [
    "A **long** comment with *emphasis*, `code` and a [link](https://example.com) that runs over three lines.",
    "混合 text, عربي and ไทย in one **comment**, with `code` and *italics* to wrap at a narrow width.",
    "Emoji 😀 and ❤️ beside 👍🏽 in a comment that wraps, with **bold** and `code`, over a few lines.",
  ]

  /// The rules of a `<style>` in `html` (the first, or every one), as `selector → property → value`, the container's
  /// id and the page's class written as `#X`, and its `@font-face` rules.
  static func rules(in html: String, id: String, pageClass: String? = nil) -> (
    rules: [String: [String: String]], faces: Set<String>
  ) {
    var rules: [String: [String: String]] = [:]
    var faces = Set<String>()
    for style in html.matches(of: /<style>(.*?)<\/style>/) {
      var css = String(style.output.1)
      if let pageClass { css = css.replacingOccurrences(of: ":is(.\(pageClass),#\(pageClass))", with: "#X") }
      if !id.isEmpty { css = css.replacingOccurrences(of: "#" + id, with: "#X") }
      for rule in css.matches(of: /([^{}]+)\{([^{}]*)\}/) {
        let (selectors, body) = (String(rule.output.1), String(rule.output.2))
        if selectors == "@font-face" {
          faces.insert(body)
          continue
        }
        for selector in selectors.split(separator: ",") {
          for declaration in body.split(separator: ";") {
            guard let colon = declaration.firstIndex(of: ":") else { continue }
            rules[String(selector), default: [:]][String(declaration[..<colon])] = String(
              declaration[declaration.index(after: colon)...])
          }
        }
      }
    }
    return (rules, faces)
  }

  /// The value of the container's `id` attribute in `html`.
  static func id(of html: String) throws -> String {
    try #require(html.firstMatch(of: /<div class="[^"]*" id="([^"]+)"/)).output.1.description
  }

  /// A page's fragment and stylesheet hold every rule of the fragment that carries them all, with the same values,
  /// and nothing else; the faces it names are declared in one or the other; the shared rules (`white-space`, the
  /// toggle's) are not repeated in the fragment.
  @Test(arguments: [BrowserEngine.any, .blink])
  func theStylesheetAndAFragmentAddUpToAWholeFragment(engine: BrowserEngine) throws {
    let fallbacks = FontFamily.notoFallbacks()
    try #require(fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: fallbacks)
    let options = HTMLOptions(fontSource: .url(prefix: "/fonts/"))
    var page = HTMLPage(fonts: fonts, engine: engine, options: options)
    let stylesheet = page.stylesheet
    let pageClass = try #require(stylesheet.firstMatch(of: /:is\(\.(unfold-s[0-9a-f]{8}),/)).output.1.description
    for text in Self.texts {
      let paragraph = Paragraph(LocalizedKey(text)).lineLimit(2)
      for state in DisplayState.allCases {
        let whole = paragraph.html(width: 240, fonts: fonts, engine: engine, state: state, options: options).html
        let own = page.html(paragraph, width: 240, state: state).html
        #expect(
          own.contains("class=\"unfold \(pageClass)\"") || own.contains("class=\"unfold unfold-on \(pageClass)\""))
        #expect(!own.contains("white-space") && !own.contains("unfold-toggle{"), "shared rules in a fragment")
        let expected = Self.rules(in: whole, id: try Self.id(of: whole))
        let fragment = Self.rules(in: own, id: try Self.id(of: own))
        let shared = Self.rules(in: "<style>\(stylesheet)</style>", id: "", pageClass: pageClass)
        let combined = shared.rules.merging(fragment.rules) { $0.merging($1) { _, new in new } }
        #expect(combined == expected.rules, "\(text)")
        #expect(expected.faces.isSubset(of: shared.faces.union(fragment.faces)), "\(text)")
        // Faces of the page's own family names only where the fragment's are variants (emoji ranges).
        #expect(fragment.faces.allSatisfy { !shared.faces.contains($0) })
      }
    }
  }

  /// The same text rendered the same way twice or three times on a page gets `-2` and `-3` after its id, in the
  /// order of the calls, and its toggles control their own text; a caller's id is used as given; another page
  /// starts again.
  @Test func repeatedRenderingsGetIdsOfTheirOwn() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    var page = HTMLPage(fonts: fonts)
    let paragraph = Paragraph(LocalizedKey("+1, and a few more words to make this comment wrap past its limit"))
      .lineLimit(
        1)
    let first = page.html(paragraph, width: 120).html
    let second = page.html(paragraph, width: 120).html
    let third = page.html(paragraph, width: 120).html
    let other = page.html(paragraph, width: 121).html
    let given = page.html(paragraph, width: 120, id: "comment-7").html
    let id = try Self.id(of: first)
    #expect(id.hasPrefix("unfold-"))
    #expect(try Self.id(of: second) == id + "-2")
    #expect(try Self.id(of: third) == id + "-3")
    #expect(try Self.id(of: other) != id && !(try Self.id(of: other)).hasSuffix("-2"))
    #expect(try Self.id(of: given) == "comment-7")
    #expect(second.contains("aria-controls=\"\(id)-2-full\"") && second.contains("id=\"\(id)-2-full\""))
    #expect(second.contains("#\(id)-2{"))
    var another = HTMLPage(fonts: fonts)
    #expect(try Self.id(of: another.html(paragraph, width: 120).html) == id)
  }

  /// A fragment that carries its whole stylesheet is as before: a page changes nothing for those who embed one.
  @Test func aWholeFragmentHasNoPageClass() throws {
    let fonts = try FontSet.dejaVu(fallbacks: [])
    let html = Paragraph(verbatim: "Some words").html(width: 100, fonts: fonts).html
    #expect(html.hasPrefix("<div class=\"unfold\" id=\"unfold-"))
    #expect(html.contains("white-space:pre-wrap"))
  }
}

extension HTMLPageTests {
  /// The bytes a comment takes on a page of fifty, raw and under `gzip -9`: each fragment with its whole stylesheet,
  /// and fragments of one `HTMLPage` with its stylesheet once; HTMLOutput.md states the figures.
  @Test func aPageOfFiftyCommentsIsAsLargeAsTheArticleSays() throws {
    let fallbacks = FontFamily.notoFallbacks()
    try #require(fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: fallbacks)
    let comments = FallbackCorpus.paragraphs(
      perLanguage: 3, languages: FallbackCorpus.languages + FallbackCorpus.shapingLanguages
    ).prefix(50)
    let options = HTMLOptions(fontSource: .url(prefix: "/fonts/"))
    var figures: [String] = []
    var fontBytes = (whole: 0, subsets: 0)
    for widths in [320...320, 320...720] {
      var whole = ""
      var page = HTMLPage(fonts: fonts, options: options)
      var shared = page.stylesheet
      for (language, markdown) in comments {
        let paragraph = Paragraph(LocalizedKey(markdown))
        var options = options
        options.language = language
        if widths.count == 1 {
          whole += paragraph.html(width: Double(widths.lowerBound), fonts: fonts, options: options).html
          shared += page.html(paragraph, width: Double(widths.lowerBound), language: language).html
        } else {
          whole += paragraph.html(widths: widths, fonts: fonts, options: options).html
          shared += page.html(paragraph, widths: widths, language: language).html
        }
      }
      fontBytes = (
        page.fontFiles(subsets: false).map(\.data.count).reduce(0, +), page.fontFiles().map(\.data.count).reduce(0, +)
      )
      let perComment = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 50 / 1000) }
      figures += [
        perComment(whole.utf8.count), perComment(shared.utf8.count), perComment(try Self.gzipped(whole)),
        perComment(try Self.gzipped(shared)),
      ]
    }
    let stylesheet = String(
      format: "%.1f", Double(HTMLPage(fonts: fonts, options: options).stylesheet.utf8.count) / 1000)
    let article = try String(
      contentsOf: TestSupport.repositoryRoot.appendingPathComponent("Sources/Unfold/Unfold.docc/HTMLOutput.md"),
      encoding: .utf8
    ).replacingOccurrences(of: "\n  ", with: " ")
    let stated = try #require(
      article.firstMatch(
        of:
          /take, per comment, ([\d.]+) KB with their own stylesheets and ([\d.]+) KB on one page at 320 px \(([\d.]+) KB and ([\d.]+) KB under `gzip -9`\), and ([\d.]+) KB and ([\d.]+) KB over 320–720 px \(([\d.]+) KB and ([\d.]+) KB\); the stylesheet itself is ([\d.]+) KB, once, and the font files it loads ([\d.]+) MB whole or ([\d.]+) KB cut to its characters/
      ))
    let output = stated.output
    let numbers = [
      output.1, output.2, output.3, output.4, output.5, output.6, output.7, output.8, output.9, output.10, output.11,
    ].map(String.init)
    let files = [
      String(format: "%.1f", Double(fontBytes.whole) / 1_000_000),
      String(format: "%.0f", Double(fontBytes.subsets) / 1000),
    ]
    #expect(numbers == figures + [stylesheet] + files)
  }

  /// The size of `text` under `gzip -9`.
  static func gzipped(_ text: String) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-9", "-c"]
    let (input, output) = (Pipe(), Pipe())
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let writer = Thread {
      input.fileHandleForWriting.write(Data(text.utf8)); try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data.count
  }
}

extension HTMLPageTests {
  /// The font files of a page are those its stylesheet names that its texts draw with: the set's faces and the
  /// families that draw something (CJK here, not Thai); cut to the page's characters, each still draws every one of
  /// them that the whole file draws, with the same advance, in fewer bytes; whole, they are the files.
  @Test func aPageExportsTheFontFilesItsTextsDrawWith() throws {
    let fallbacks = FontFamily.notoFallbacks()
    try #require(fallbacks.count >= 3, "Debian's Noto fonts are missing: run scripts/install-dependencies")
    let fonts = try FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: fallbacks)
    var page = HTMLPage(fonts: fonts, options: HTMLOptions(fontSource: .url(prefix: "/fonts/")))
    let texts = ["Some **bold** words, *italics* and `code`", "混合 text 中文", "Ünïcödé façade — naïve"]
    for text in texts { _ = page.html(Paragraph(LocalizedKey(text)), width: 240) }
    let stylesheetNames = Set(page.stylesheet.matches(of: /url\("\/fonts\/([^"]+)"\)/).map { String($0.output.1) })
    let subsets = page.fontFiles()
    let whole = page.fontFiles(subsets: false)
    let names = subsets.map(\.name)
    #expect(Set(names).isSubset(of: stylesheetNames) && names.count == Set(names).count)
    #expect(names.contains("DejaVuSans.ttf") && names.contains("NotoSansCJK-Regular.ttc"))
    #expect(!names.contains { $0.hasPrefix("NotoSansThai") })
    #expect(whole.map(\.name) == names)
    var faces: [String: FontFace] = [:]
    for face in [fonts.regular, fonts.bold, fonts.italic, fonts.boldItalic, fonts.monospace]
      + fonts.fallbacks
      .flatMap(\.faces)
    {
      faces[face.fileName] = faces[face.fileName] ?? face
    }
    let characters = Set(texts.map { Paragraph(LocalizedKey($0)).source.resolve().text.string }.joined().unicodeScalars)
    for (file, original) in zip(subsets, whole) {
      let face = try #require(faces[file.name])
      #expect(original.data == face.data, "\(file.name)")
      #expect(file.data.count < original.data.count, "\(file.name) is not cut")
      let cut = try FontFace(data: file.data, path: file.name)
      for scalar in characters where face.glyph(for: scalar) != 0 {
        let glyph = cut.glyph(for: scalar)
        #expect(
          glyph != 0 && cut.advance(ofGlyph: glyph) == face.advance(ofGlyph: face.glyph(for: scalar)),
          "\(file.name) lost \(scalar)")
      }
    }
  }
}
