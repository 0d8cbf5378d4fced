import Foundation
import TestSupport
import Testing

@testable import Unfold

/// Gecko's word models (ICU4X's LSTMs) against ICU4X's own test data, copied into `Data/ICU4X` with its licence:
/// the labels its inference gives 30 Thai strings, and its line breaking test for the four scripts.
@Suite struct WordModelTests {
  static let folder = TestSupport.repositoryRoot.appendingPathComponent("Data/ICU4X")

  /// One case of `thai-bies-vectors.json`.
  struct Vector: Decodable {
    let unseg: String
    let expected_bies: String
  }

  /// The labels must be ICU4X's to the last code point: a near tie between two scores decides a break, so only
  /// ICU4X's order of Float32 sums gives them all.
  @Test func theThaiModelLabelsAsICU4XDoes() throws {
    struct File: Decodable { let testcases: [Vector] }
    let data = try Data(contentsOf: Self.folder.appendingPathComponent("thai-bies-vectors.json"))
    let vectors = try JSONDecoder().decode(File.self, from: data).testcases
    #expect(vectors.count == 30)
    for vector in vectors {
      let labels = WordModel.thai.labels(of: vector.unseg.unicodeScalars)
      #expect(String(labels.map { $0.rawValue }) == vector.expected_bies, "\(vector.unseg)")
    }
  }

  /// The lines of `LineBreakLstm.txt` before its section on the break at the end of a run, whose newer rule Firefox
  /// ESR does not follow (``DictionaryBreaks/breaksAtRunEnd``): each segment ends where Gecko's rules allow a
  /// break.
  @Test func geckoBreaksICU4XsLines() throws {
    let text = try String(contentsOf: Self.folder.appendingPathComponent("LineBreakLstm.txt"), encoding: .utf8)
    var cases = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("# #7218: the break at the end") { break }
      let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
      guard !content.isEmpty else { continue }
      let segments = content.split(separator: "|").map { Self.unescape(String($0)) }
      var expected: [Int] = []
      var offset = 0
      for segment in segments {
        offset += segment.unicodeScalars.count
        expected.append(offset)
      }
      let input = segments.joined()
      // Firefox also breaks at the end of each run of these scripts before anything but a space (`กฤษ|:`).
      let scalars = Array(input.unicodeScalars)
      for index in 1..<scalars.count
      where WordModel.model(for: scalars[index - 1]) != nil && WordModel.model(for: scalars[index]) == nil
        && scalars[index] != " " && !expected.contains(index)
      {
        expected.append(index)
      }
      expected.sort()
      #expect(Self.breakOffsets(input, .gecko) == expected, "\(content)")
      cases += 1
    }
    #expect(cases == 13)
  }

  /// The scalar offsets after which `rules` allow a break, the end included, read from ``BreakNotation``.
  static func breakOffsets(_ text: String, _ rules: LineBreaker.Rules) -> [Int] {
    var offsets: [Int] = []
    var scalars = 0
    for scalar in BreakNotation.render(text, breaker: LineBreaker(rules: rules)).unicodeScalars {
      switch scalar {
      case "×", "\n": continue
      case "÷": offsets.append(scalars)
      default: scalars += 1
      }
    }
    return offsets
  }

  /// The text with each `\u{XXXX}` replaced by its character.
  static func unescape(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let range = rest.range(of: "\\u{") {
      result += rest[..<range.lowerBound]
      let close = rest[range.upperBound...].firstIndex(of: "}")!
      result.unicodeScalars.append(Unicode.Scalar(UInt32(rest[range.upperBound..<close], radix: 16)!)!)
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }
}
