import Foundation
import TestSupport
import Testing
import Unfold

/// One golden fixture: `Fixtures/<name>/input.txt`, `options.json`, and the expected outputs beside them.
struct Fixture: CustomTestStringConvertible, Sendable {
  /// The options file.
  struct Options: Decodable, Sendable {
    var mode: String  // "markdown" or "verbatim"
    var width: Int
    var lines: Int?
    var moreLabel: String?
    var lessLabel: String?
    var widths: String?  // "legacy" (default) or "modern"
    var breaks: String?  // "unicode" or "chromium"; default: each target's own
  }

  let name: String
  var testDescription: String { name }

  static let folder = TestSupport.repositoryRoot.appendingPathComponent("Fixtures")

  /// Every fixture folder, sorted by name.
  static let all: [Fixture] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().filter { !$0.hasPrefix(".") }.map(Fixture.init)
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
    case "markdown": source = TextSource(LocalizedKey(input))
    default: throw FixtureError(message: "\(name)/options.json: mode must be markdown or verbatim")
    }
    return Paragraph(
      source,
      options: TruncationOptions(
        lineLimit: options.lines ?? TruncationOptions.default.lineLimit,
        moreLabel: options.moreLabel ?? TruncationOptions.default.moreLabel,
        lessLabel: options.lessLabel),
      cellWidths: TerminalCells.Profile(rawValue: options.widths ?? "legacy") ?? .legacy,
      breakRules: options.breaks.flatMap(LineBreaker.Rules.init(rawValue:)))
  }

  /// Every expected output, by file name, computed now.
  func outputs() throws -> [(file: String, text: String)] {
    let paragraph = try paragraph()
    let width = try options().width
    var outputs = [
      (file: "runs.txt", text: paragraph.source.resolve().text.debugDump()),
      (file: "breaks.txt", text: paragraph.breaks()),
    ]
    for state in DisplayState.allCases {
      let name = state.rawValue
      outputs.append(
        ("\(name).layout.txt", paragraph.truncated(width: width, state: state, countingAllLines: true).debugDump()))
      outputs.append(
        ("\(name).ansi.txt", paragraph.ansi(width: width, state: state).replacingOccurrences(of: "\u{1B}", with: "\\e"))
      )
      outputs.append(("\(name).html", paragraph.html(width: width, state: state)))
    }
    return outputs
  }
}

struct FixtureError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
