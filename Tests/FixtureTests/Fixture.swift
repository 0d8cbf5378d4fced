import Foundation
import TestSupport
import Testing
import Unfold

/// One golden fixture: `Fixtures/<name>/input.txt`, `options.json`, and the expected outputs beside them.
struct Fixture: CustomTestStringConvertible, Sendable {
  /// The options file.
  struct Options: Decodable, Sendable {
    var mode: String  // "markdown", "verbatim" or "document"
    var width: Int
    var lines: Int?
    var moreLabel: String?
    var lessLabel: String?
    var widths: String?  // "legacy" (default) or "modern"
    var breaks: String?  // "unicode" or "chromium"; default: each target's own
    var strings: [String]?  // string tables, relative to the fixture's folder
    var locale: String?
    var table: String?
    var device: String?
    var args: [String]?  // untyped arguments, as on the command line
    var htmlWidth: Double?  // CSS px for the HTML output; default 9 px a cell
    var truncation: String?  // tail, head, middle
    var toggle: String?  // inline, below, overlay, none
    var preset: String?  // expandable-text, read-more-text
    var ellipsis: String?
    var collapseBlankLines: Bool?
    var reserveSpace: Bool?
    var scroll: Bool?
    var textStyle: String?
    var fallbacks: Bool?  // HTML: DejaVu with Debian's Noto fonts as the fallback chain
  }

  /// DejaVu Sans and DejaVu Sans Mono at 16 px, the HTML fixtures' fonts.
  static let fonts: FontSet? = try? FontSet.dejaVu(size: 16, lineHeight: 20, fallbacks: [])
  /// The same with ``FontFamily/notoFallbacks()``, for fixtures with `"fallbacks": true`.
  static let fontsWithFallbacks: FontSet? = try? FontSet.dejaVu(
    size: 16, lineHeight: 20, fallbacks: FontFamily.notoFallbacks())

  let name: String
  var testDescription: String { name }

  static let folder = TestSupport.repositoryRoot.appendingPathComponent("Fixtures")

  /// Every fixture folder, sorted by name.
  static let all: [Fixture] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    // `_tables` and other folders starting with `_` hold what fixtures share, not fixtures.
    return names.sorted().filter { !$0.hasPrefix(".") && !$0.hasPrefix("_") }.map(Fixture.init)
  }()

  var directory: URL { Self.folder.appendingPathComponent(name) }

  func read(_ file: String) throws -> String {
    String(decoding: try Data(contentsOf: directory.appendingPathComponent(file)), as: UTF8.self)
  }

  func options() throws -> Options {
    try JSONDecoder().decode(Options.self, from: Data(contentsOf: directory.appendingPathComponent("options.json")))
  }

  func paragraph() throws -> Paragraph {
    let options = try options()
    let input = try read("input.txt")
    let source: TextSource
    switch options.mode {
    case "verbatim": source = TextSource(verbatim: input)
    case "document": source = TextSource(document: input)
    case "markdown":
      var localizations = Localizations()
      for path in options.strings ?? [] {
        let errors = localizations.load(directory.appendingPathComponent(path).standardized.path)
        if let error = errors.first { throw FixtureError(message: "\(name): \(error)") }
      }
      let key = options.args.map { LocalizedKey(input, arguments: $0.map(FormatArgument.text)) } ?? LocalizedKey(input)
      source = TextSource(
        key,
        TextSource.Localization(
          localizations, locale: options.locale ?? "en", table: options.table ?? "Localizable",
          device: options.device ?? "other"))
    default: throw FixtureError(message: "\(name)/options.json: mode must be markdown, verbatim or document")
    }
    var truncation = TruncationOptions()
    if let preset = options.preset {
      guard let known = TruncationOptions.Preset(rawValue: preset) else {
        throw FixtureError(message: "\(name)/options.json: unknown preset")
      }
      truncation = known.options
    }
    if let lines = options.lines { truncation.lineLimit = lines }
    if let more = options.moreLabel { truncation.moreLabel = more }
    if let less = options.lessLabel { truncation.lessLabel = less }
    if let ellipsis = options.ellipsis { truncation.ellipsis = ellipsis }
    if let mode = options.truncation.flatMap(TruncationMode.init(rawValue:)) { truncation.mode = mode }
    if let toggle = options.toggle.flatMap(TogglePlacement.init(rawValue:)) { truncation.toggle = toggle }
    truncation.collapsesBlankLines = options.collapseBlankLines ?? false
    truncation.reservesSpace = options.reserveSpace ?? false
    var paragraph = Paragraph(
      source, options: truncation, cellWidths: TerminalCells.Profile(rawValue: options.widths ?? "legacy") ?? .legacy,
      breakRules: options.breaks.flatMap(LineBreaker.Rules.init(rawValue:))
    ).scrollable(options.scroll ?? false)
    if let style = options.textStyle.flatMap(TextStyle.init(rawValue:)) { paragraph = paragraph.font(style) }
    return paragraph
  }

  /// Every expected output, by file name, computed now.
  func outputs() throws -> [(file: String, text: String)] {
    let paragraph = try paragraph()
    let options = try options()
    let width = options.width
    var outputs = [
      (
        file: "runs.txt",
        text: paragraph.source.isDocument ? Block.debugDump(paragraph.blocks) : Self.dump(paragraph.source.resolve())
      ),
      (file: "breaks.txt", text: paragraph.breaks()),
    ]
    for state in DisplayState.allCases {
      let name = state.rawValue
      let layout: TruncatedText
      if paragraph.isScrollable {
        let viewport = paragraph.viewport(width: width, firstLine: 0)
        layout = TruncatedText(
          lines: viewport.lines, isTruncated: false, lineCount: viewport.lineCount, state: .expanded, width: width,
          unit: .cells)
      } else {
        layout = paragraph.truncated(width: width, state: state, countingAllLines: true)
      }
      outputs.append(("\(name).layout.txt", layout.debugDump()))
      outputs.append(
        ("\(name).ansi.txt", paragraph.ansi(width: width, state: state).replacingOccurrences(of: "\u{1B}", with: "\\e"))
      )
      guard let fonts = options.fallbacks == true ? Self.fontsWithFallbacks : Self.fonts else {
        throw FixtureError(message: "DejaVu fonts missing: install fonts-dejavu-core")
      }
      outputs.append(
        (
          "\(name).html",
          paragraph.html(
            width: options.htmlWidth ?? Double(width) * 9, fonts: fonts, state: state,
            options: HTMLOptions(language: options.strings == nil ? nil : options.locale)
          ).html
        ))
    }
    return outputs
  }
}

extension Fixture {
  /// The styled runs, then the diagnostics, one per line.
  static func dump(_ resolved: TextSource.Resolved) -> String {
    resolved.text.debugDump()
      + resolved.diagnostics.map { "diagnostic \($0.kind.rawValue) at \($0.offset): \($0.message)\n" }.joined()
  }
}

struct FixtureError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
