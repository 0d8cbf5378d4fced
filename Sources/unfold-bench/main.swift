// unfold-bench: throughput of the engine's stages on generated inputs. Build and run in release:
//     swift run -c release unfold-bench
// It prints one table; absolute times drift on shared machines, so compare rows of one run.
import Foundation
import Unfold

/// A deterministic pseudo-random generator (SplitMix64), so every run measures the same text.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Sentences in several scripts, with numbers, URLs, emoji and punctuation, joined into one long text.
func multilingualText(bytes: Int) -> String {
  let sentences = [
    "The quick brown fox jumps over the lazy dog, twice: $19.99 (42% off).",
    "Größere Änderungen an der Straße wurden gestern — überraschend — genehmigt.",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "統一碼聯盟是一個非營利組織，負責維護統一碼標準。",
    "日本語のテキストと English words が混ざった文章です。",
    "한국어는 띄어쓰기를 사용합니다. 줄바꿈은 공백에서 일어납니다.",
    "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ",
    "שלום עולם, זהו טקסט בעברית עם מספרים 123.",
    "مرحبا بالعالم، هذا نص باللغة العربية.",
    "See https://example.com/docs/getting-started?lang=en for the self-contained guide.",
    "Emoji 👨‍👩‍👧 and flags 🇯🇵🇫🇷 with skin tones 👍🏽 stay whole.",
  ]
  var generator = SplitMix64(state: 42)
  var text = ""
  while text.utf8.count < bytes {
    text += sentences[Int(generator.next() % UInt64(sentences.count))]
    text += generator.next() % 8 == 0 ? "\n" : " "
  }
  return text
}

/// The median of `runs` timings of `body`, in seconds.
func measure(runs: Int = 7, _ body: () -> Void) -> Double {
  var times: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  return times.sorted()[times.count / 2]
}

func format(_ value: Double, _ unit: String) -> String {
  value >= 1e6 ? String(format: "%.2f M%@", value / 1e6, unit) : String(format: "%.1f k%@", value / 1e3, unit)
}

// The Unicode tables decode on first use: time that first use before anything else touches them.
let tableStart = DispatchTime.now().uptimeNanoseconds
_ = TerminalCells.width(of: "中")
let tableTime = Double(DispatchTime.now().uptimeNanoseconds - tableStart) / 1e9

let text = StyledText(plain: multilingualText(bytes: 1_000_000))
let megabytes = Double(text.string.utf8.count) / 1e6
var prepared: PreparedText?
var lineCount = 0
var opportunityCount = 0
let breakTime = measure { opportunityCount = LineBreaker.unicode.allOpportunities(in: text.string).count }
let prepareTime = measure { prepared = PreparedText(text, measurer: TerminalCells()) }
let layoutTime = measure { lineCount = prepared?.layout(width: 80).lines.count ?? 0 }
let collapsedTime = measure(runs: 21) {
  _ = Truncator.truncate(text, width: 80, options: TruncationOptions(lineLimit: 3), state: .collapsed)
}

print("unfold-bench: 1 MB multilingual text (11 scripts, emoji, URLs), \(lineCount) lines at 80 cells")
print("| stage | time | throughput |")
print("| --- | --- | --- |")
print("| Unicode tables, decoded on first use | \(String(format: "%.2f ms", tableTime * 1e3)) | once per process |")
print(
  "| break opportunities (UAX #14) | \(String(format: "%.1f ms", breakTime * 1e3)) | "
    + "\(format(Double(opportunityCount) / breakTime, "opportunities/s")), \(String(format: "%.1f MB/s", megabytes / breakTime)) |"
)
print(
  "| prepare (breaks + cell widths) | \(String(format: "%.1f ms", prepareTime * 1e3)) | "
    + "\(String(format: "%.1f MB/s", megabytes / prepareTime)) |")
print(
  "| layout of the prepared text, 80 cells | \(String(format: "%.2f ms", layoutTime * 1e3)) | "
    + "\(format(Double(lineCount) / layoutTime, "lines/s")) |")
print(
  "| collapsed to 3 lines, from scratch | \(String(format: "%.3f ms", collapsedTime * 1e3)) | "
    + "\(String(format: "%.0f×", prepareTime / collapsedTime)) faster than preparing the whole text |")

// The command on a large verbatim file, collapsed: it reads only what the preview needs.
let unfoldBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
  "unfold")
if FileManager.default.isExecutableFile(atPath: unfoldBinary.path) {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-bench-\(getpid())")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let line = Array(multilingualText(bytes: 1_000_000).utf8)
  var sizes: [(name: String, bytes: Int)] = [("10 KB", 10_000), ("100 MB", 100_000_000)]
  var times: [Double] = []
  for (name, bytes) in sizes {
    let file = folder.appendingPathComponent("\(name.replacingOccurrences(of: " ", with: "")).txt")
    FileManager.default.createFile(atPath: file.path, contents: nil)
    if let handle = try? FileHandle(forWritingTo: file) {
      var written = 0
      while written < bytes {
        let count = min(line.count, bytes - written)
        handle.write(Data(line[0..<count]))
        written += count
      }
      try? handle.close()
    }
    times.append(
      measure(runs: 5) {
        let process = Process()
        process.executableURL = unfoldBinary
        process.arguments = ["--verbatim", "--width", "80", "--format", "plain", file.path]
        process.standardOutput = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
      })
    _ = name
  }
  sizes.removeAll()
  print(
    "| `unfold --verbatim` collapsed, 100 MB file (process included) | \(String(format: "%.1f ms", times[1] * 1e3)) | "
      + "\(String(format: "%.2f×", times[1] / times[0])) the time for a 10 KB file |")
}
