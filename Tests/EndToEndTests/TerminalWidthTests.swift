import Foundation
import TestSupport
import Testing
import Unfold

/// Checks the `legacy` cell widths against a real terminal: tmux draws a corpus of clusters and reports where
/// the cursor lands after each (DSR), and the profile must predict every advance for characters that Debian
/// bookworm's C library knows (assigned in Unicode 14 or earlier).
@Suite(.serialized) struct TerminalWidthTests {
  /// The corpus: at least 200 samples of CJK, Hangul, combining sequences, emoji with and without variation
  /// selectors, ZWJ sequences, skin tones, flags, keycaps, and emoji of Unicode 15 to 17.
  static let corpus: [String] = {
    var samples: [String] = []
    func scalars(_ values: some Sequence<UInt32>) -> [String] {
      values.compactMap { Unicode.Scalar($0).map { String(Character($0)) } }
    }
    samples += ["A", "z", "~", "é", "ß", "Ω", "Ж", "ק", "ب", "ก", "─", "│", "°", "±", "…", "€", "→", "★"]
    samples += ["中", "文", "字", "漢", "語", "㐀", "𠀀", "𪜀", "Ａ", "Ｂ", "１", "ｱ", "ﾟ", "あ", "ア", "ー"]
    samples += ["。", "、", "「", "」", "（", "）", "！", "？", "　"]
    samples += scalars(stride(from: 0x4E00, to: 0x9FFF, by: 0x2A0))
    samples += ["한", "국", "어", "\u{1112}\u{1161}\u{11AB}", "\u{1100}\u{1161}", "\u{1100}", "\u{1160}", "\u{D7B0}"]
    samples += [
      "e\u{301}", "a\u{308}", "n\u{303}", "a\u{301}\u{302}\u{303}", "क्ष", "कि", "नमस्ते", "กิ", "กำ", "שָׁ",
      "بَ", "e\u{323}\u{302}", "\u{0915}\u{094D}", "a\u{20DD}", "x\u{FE0F}", "o\u{336}",
    ]
    samples += ["a\u{200B}b", "a\u{200D}b", "a\u{2060}b", "\u{0600}1", "\u{FEFF}x"]
    samples += ["😀", "😂", "🎉", "🚀", "🍕", "⌚", "⌛", "⭐", "✅", "❌", "🔥", "💯", "🌍", "🐍", "🦀"]
    samples += scalars(stride(from: 0x1F600, through: 0x1F64F, by: 3))
    samples += [
      "❤", "❤️", "❤︎", "☺", "☺️", "☀", "☀️", "✔", "✔️", "⚠", "⚠️", "✈", "✈️", "⌚︎", "⭐︎", "😀︎", "↔",
      "↔️", "©", "©️", "™", "™️", "♠", "♠️",
    ]
    samples += [
      "👨‍👩‍👧", "👨‍👩‍👧‍👦", "🧑‍💻", "👩‍🔬", "🏳️‍🌈", "🏴‍☠️", "👁️‍🗨️", "🧑‍🤝‍🧑", "❤️‍🔥", "🐕‍🦺",
      "👩‍❤️‍👨", "🐻‍❄️",
    ]
    samples += ["👍🏻", "👍🏼", "👍🏽", "👍🏾", "👍🏿", "👋🏽", "🧑🏽‍💻", "🤝🏼"]
    samples += ["🇺🇸", "🇫🇷", "🇯🇵", "🇩🇪", "🇧🇷", "🇺", "🇿", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"]
    samples += ["1️⃣", "#️⃣", "*️⃣", "0️⃣", "1⃣"]
    // Emoji of Unicode 15, 16 and 17: drawn by terminals whose tables know them.
    samples += scalars(
      (0x1FA70...0x1FAFF).filter { value in
        guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age else { return false }
        return age.major >= 15 && scalar.properties.isEmojiPresentation
      })
    return samples
  }()

  static func isKnownToBookworm(_ sample: String) -> Bool {
    sample.unicodeScalars.allSatisfy { ($0.properties.age.map { $0.major <= 14 }) ?? false }
  }

  @Test func legacyProfilePredictsWhatTmuxDraws() throws {
    let corpus = Self.corpus
    #expect(corpus.count >= 200, "\(corpus.count) samples")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-widths-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("samples.txt")
    let output = folder.appendingPathComponent("widths.txt")
    try Data((corpus.joined(separator: "\n") + "\n").utf8).write(to: input)
    let probe = Command.product("WidthProbe").path
    let tmux = try Tmux(width: 200, height: 5, command: "'\(probe)' '\(input.path)' '\(output.path)'; sleep 30")
    _ = try tmux.waitForScreen(timeout: 30) { $0.contains("done") }
    let measured = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map { Int($0) ?? -1 }
    try #require(measured.count == corpus.count)

    let cells = TerminalCells(profile: .legacy)
    var agree = 0
    var mismatches: [String] = []
    var newer: [String] = []
    for (sample, drawn) in zip(corpus, measured) {
      let predicted = cells.width(of: sample)
      let codes = sample.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
      if predicted == drawn {
        agree += 1
      } else if Self.isKnownToBookworm(sample) {
        mismatches.append("\(sample) [\(codes)]: predicted \(predicted), tmux drew \(drawn)")
      } else {
        newer.append("\(sample) [\(codes)] predicted \(predicted), tmux \(drawn)")
      }
    }
    print("legacy widths agree with tmux on \(agree) of \(corpus.count) samples")
    print("newer than Unicode 14, where tmux on bookworm differs: \(newer.joined(separator: "; "))")
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
  }
}
