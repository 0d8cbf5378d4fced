import TestSupport
import Testing
import UnfoldCorpus

@testable import Unfold

/// ICU's dictionary break engines in Swift (``WordDictionary``) against ICU itself: with the system's dictionaries
/// and ICU's thresholds, every run of Thai, Lao, Khmer and Burmese must break where the system's line break iterator
/// breaks it.
@Suite struct WordDictionaryTests {
  /// The runs of Line_Break SA characters of `text`, as code points.
  static func runs(in text: String) -> [[UInt32]] {
    var runs: [[UInt32]] = []
    var run: [UInt32] = []
    for scalar in text.unicodeScalars {
      if UnicodeProperties(scalar).lineBreak == .sa {
        run.append(scalar.value)
      } else if !run.isEmpty {
        runs.append(run)
        run = []
      }
    }
    if !run.isEmpty { runs.append(run) }
    return runs
  }

  /// Runs of words, of letters at random (non-words, which the engines join and split by their own rules), and of
  /// both scripts of a pair.
  static func corpus() -> [[UInt32]] {
    var generator = SplitMix64(state: 56)
    var runs: [[UInt32]] = []
    let languages = ["th", "lo", "km", "my"]
    for paragraph in FallbackCorpus.paragraphs(perLanguage: 150, languages: languages) {
      runs += Self.runs(in: paragraph.markdown)
    }
    let letters = [0x0E00...0x0E7F, 0x0E80...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF].map { block in
      block.compactMap { Unicode.Scalar(UInt32($0)) }.filter { UnicodeProperties($0).lineBreak == .sa }.map(\.value)
    }
    for script in letters.indices {
      for _ in 0..<300 {
        let words = FallbackCorpus.words[languages[script]]!.words
        var run: [UInt32] = []
        for _ in 0..<(1 + generator.below(12)) {
          switch generator.below(4) {
          case 0: run += (0..<(1 + generator.below(4))).map { _ in generator.pick(letters[script]) }
          case 1: run += Self.runs(in: generator.pick(words)).flatMap { $0 }
          case 2:
            run += Self.runs(in: generator.pick(FallbackCorpus.words[generator.pick(languages)]!.words))
              .flatMap { $0 }
          default: run += Self.runs(in: generator.pick(words) + generator.pick(words)).flatMap { $0 }
          }
        }
        runs.append(run)
      }
    }
    return runs
  }

  @Test func theEnginesBreakAsTheSystemsICU() {
    #expect(DictionaryBreaks.systemDictionaries.count == 4)
    var differences: [String] = []
    let corpus = Self.corpus()
    for run in corpus {
      let scalars = run.compactMap(Unicode.Scalar.init)
      let swift = WordDictionary.wordEnds(in: run, dictionaries: DictionaryBreaks.systemDictionaries)
      let icu = DictionaryBreaks.boundaries(in: scalars)
      if swift != icu, differences.count < 10 {
        differences.append("\(String(String.UnicodeScalarView(scalars))): \(swift) ICU \(icu)")
      }
    }
    #expect(corpus.count > 1500)
    #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
  }
}
