import Foundation
import Unfold
import UnfoldCorpus

/// Generated inputs: sentences in several scripts, with numbers, URLs, emoji and punctuation.
struct BenchInputs {
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

  /// Sentences of one script each, for the table of preparing and relayout per script in fonts.
  static let scripts: [(name: String, sentences: [String])] = [
    (
      "Latin",
      ["The quick brown fox jumps over the lazy dog, twice: $19.99 (42% off).", "A **bold** claim, then `code`."]
    ),
    ("Arabic", ["مرحبا بالعالم، هذا نص باللغة العربية.", "يقيس المحرك كل كلمة مرة واحدة ثم يقطع الأسطر."]),
    ("CJK", ["統一碼聯盟是一個非營利組織，負責維護統一碼標準。", "日本語の文章は、単語の間に空白がありません。"]),
    ("Thai", ["ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ", "เครื่องมือนี้วัดความกว้างของทุกคำเพียงครั้งเดียว"]),
    ("Burmese", ["မြန်မာစာသည် စကားလုံးများကြားတွင် နေရာလွတ်မထားပါ။", "ဤကိရိယာသည် စကားလုံးတိုင်းကို တစ်ကြိမ်သာ တိုင်းတာသည်။"]),
    ("emoji", ["Thanks 👍🏽 great post 🎉🎉 👨‍👩‍👧 🇯🇵🇫🇷 ❤️ 1️⃣ 🧑🏻‍💻!", "So good 😀😀 🚀 🏳️‍🌈 ✔️"]),
  ]

  /// About `bytes` of one script's sentences (``scripts``), in paragraphs of a few sentences.
  func comment(script index: Int, bytes: Int) -> String {
    let sentences = Self.scripts[index].sentences
    var generator = SplitMix64(state: UInt64(index + 1))
    var text = ""
    while text.utf8.count < bytes {
      text += sentences[Int(generator.next() % UInt64(sentences.count))]
      text += generator.next() % 5 == 0 ? "\n\n" : " "
    }
    return text
  }

  /// Plain sentences, with a line break after about one in eight.
  func verbatim(bytes: Int) -> String {
    var generator = SplitMix64(state: 42)
    var text = ""
    while text.utf8.count < bytes {
      text += sentences[Int(generator.next() % UInt64(sentences.count))]
      text += generator.next() % 8 == 0 ? "\n" : " "
    }
    return text
  }

  /// Paragraphs of one to six sentences separated by blank lines, with bold, italic, strikethrough, code and
  /// links on some words.
  func markdown(bytes: Int, seed: UInt64 = 7) -> String {
    var generator = SplitMix64(state: seed)
    var text = ""
    var sentencesLeft = 1 + Int(generator.next() % 6)
    while text.utf8.count < bytes {
      var sentence = sentences[Int(generator.next() % UInt64(sentences.count))]
      switch generator.next() % 10 {
      case 0: sentence = "**\(sentence)**"
      case 1: sentence = "*\(sentence)*"
      case 2: sentence = "~~\(sentence)~~"
      case 3: sentence = "[\(sentence)](https://example.com/\(generator.next() % 1000))"
      case 4: sentence += " Run `swift build -c release` first."
      default: break
      }
      text += sentence
      sentencesLeft -= 1
      if sentencesLeft == 0 {
        text += "\n\n"
        sentencesLeft = 1 + Int(generator.next() % 6)
      } else {
        text += " "
      }
    }
    return text
  }
}

extension BenchInputs {
  /// A markdown document of about `bytes`: sections under headings, of paragraphs (``markdown(bytes:seed:)``'s
  /// sentences), bullet and task lists with nested numbered items, quotes, fenced code and tables.
  func document(bytes: Int, seed: UInt64 = 11) -> String {
    var generator = SplitMix64(state: seed)
    var text = ""
    func sentence() -> String { sentences[Int(generator.next() % UInt64(sentences.count))] }
    while text.utf8.count < bytes {
      switch generator.next() % 8 {
      case 0: text += "## \(sentence().prefix(40))\n\n"
      case 1:
        for item in 0..<(2 + Int(generator.next() % 4)) {
          text += item % 3 == 1 ? "- [x] \(sentence())\n" : "- \(sentence())\n"
          if item == 1 { text += "  1. \(sentence())\n  2. \(sentence())\n" }
        }
        text += "\n"
      case 2: text += "> \(sentence())\n> \(sentence())\n\n"
      case 3:
        text += "```swift\nlet preview = Paragraph(document: body).lineLimit(8)\n"
        text += "print(preview.ansi(width: 80), terminator: \"\")\n```\n\n"
      case 4:
        text += "| Site | Count | Note |\n|:--|--:|:-:|\n"
        for row in 0..<3 { text += "| \(sentence().prefix(12)) | \(row * 17) | \(sentence().prefix(20)) |\n" }
        text += "\n"
      default: text += markdown(bytes: 200, seed: generator.next()) + "\n\n"
      }
    }
    return text
  }
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

/// Microseconds below a millisecond, else milliseconds.
///
/// A row of a relayout table: `prepared` laid out again, and its lines counted, at the two widths in turn (each
/// relayout at another width than the one before; `batch` of them a sample, one taking about as long as reading the
/// clock twice), against `prepareTime`.
func relayoutRow(
  _ name: String, _ prepared: PreparedText, prepareTime: Double, widths: (Int, Int), runs: Int, batch: Int
) -> String {
  func relayoutTime(_ relayout: @Sendable (PreparedText, Int) -> Void) -> Double {
    var width = widths.0
    return measure(runs: runs) {
      for _ in 0..<batch {
        width = width == widths.0 ? widths.1 : widths.0
        relayout(prepared, width)
      }
    } / Double(batch)
  }
  let layoutTime = relayoutTime { _ = $0.layout(width: $1) }
  // The number of lines alone (pretext's `layout`: a height), with no line made.
  let countTime = relayoutTime { _ = $0.lineCount(width: $1) }
  return "| \(name) | \(microseconds(prepareTime)) | \(microseconds(layoutTime)) | "
    + "\(String(format: "%.0f×", prepareTime / layoutTime)) | \(microseconds(countTime)) | "
    + "\(String(format: "%.0f×", prepareTime / countTime)) |"
}

func microseconds(_ seconds: Double) -> String {
  seconds < 0.001 ? String(format: "%.2f µs", seconds * 1e6) : milliseconds(seconds)
}

func milliseconds(_ seconds: Double) -> String {
  seconds < 0.001 ? String(format: "%.3f ms", seconds * 1e3) : String(format: "%.1f ms", seconds * 1e3)
}

/// Parses `texts` split evenly among `tasks` concurrent tasks.
func parseConcurrently(_ texts: [String], tasks: Int) {
  let group = DispatchGroup()
  let slice = (texts.count + tasks - 1) / tasks
  for task in 0..<tasks {
    group.enter()
    DispatchQueue.global().async {
      for text in texts[min(texts.count, task * slice)..<min(texts.count, (task + 1) * slice)] {
        _ = MarkdownParser.parse(text)
      }
      group.leave()
    }
  }
  group.wait()
}

/// Runs this benchmark with `--peak-memory file` and reads the peak resident size it prints.
func peakMemory(file: URL) -> Int? {
  let output = run(URL(fileURLWithPath: CommandLine.arguments[0]), ["--peak-memory", file.path])
  return output.flatMap { $0.split(separator: " ").first.flatMap { Int($0) } }
}

/// Runs a program to completion with its output discarded, through posix_spawn and waitpid: Foundation's
/// Process adds tens of milliseconds of its own at random.
func spawn(_ program: URL, _ arguments: [String]) {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  let argv = ([program.path] + arguments).map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var pid = pid_t()
  guard posix_spawn(&pid, program.path, &actions, nil, argv, environ) == 0 else { return }
  var status: Int32 = 0
  waitpid(pid, &status, 0)
}

/// Runs a program to completion; its standard output, or nil when it could not run or failed.
func run(_ program: URL, _ arguments: [String]) -> String? {
  let process = Process()
  process.executableURL = program
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return nil }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  return String(decoding: data, as: UTF8.self)
}

/// The peers, found on the PATH or as scripts/bench set them up.
struct Peers {
  /// `cmark-gfm`, Debian's command.
  let cmark: URL?
  /// A Python interpreter that can import rich (`UNFOLD_BENCH_PYTHON`, set by scripts/bench).
  let python: URL?
  /// The script that times rich in process.
  let richScript: URL
  /// The script that times Skia's paragraph layout (SkParagraph, `skia-python`) in process.
  let skParagraphScript: URL
  /// The time cmark-gfm takes on an empty file: its start-up (shown; each timing takes off its own).
  let cmarkStartup: Double
  /// An empty markdown file.
  let empty: URL

  init(folder: URL) {
    cmark = ["/usr/bin/cmark-gfm", "/usr/local/bin/cmark-gfm"].map(URL.init(fileURLWithPath:)).first {
      FileManager.default.isExecutableFile(atPath: $0.path)
    }
    python = ProcessInfo.processInfo.environment["UNFOLD_BENCH_PYTHON"].map(URL.init(fileURLWithPath:))
    richScript = folder.appendingPathComponent("rich-bench.py")
    try? Self.richSource.write(to: richScript, atomically: false, encoding: .utf8)
    skParagraphScript = folder.appendingPathComponent("skparagraph-bench.py")
    try? Self.skParagraphSource.write(to: skParagraphScript, atomically: false, encoding: .utf8)
    let empty = folder.appendingPathComponent("cmark-empty.md")
    self.empty = empty
    _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
    let cmark = cmark
    cmarkStartup = cmark.map { cmark in measure(runs: 21) { spawn(cmark, ["--to", "html", empty.path]) } } ?? 0
  }

  var description: String {
    var parts: [String] = []
    parts.append(
      cmark.map { _ in "cmark-gfm (process; its start-up, \(milliseconds(cmarkStartup)), taken off)" }
        ?? "cmark-gfm not installed")
    parts.append(python.map { _ in "rich (in process, Console(width=80) to a string)" } ?? "rich not set up")
    parts.append(python.map { _ in "SkParagraph (skia-python, in process)" } ?? "SkParagraph not set up")
    return parts.joined(separator: ", ")
  }

  /// cmark-gfm's time to turn `file` into HTML, less its start-up: the median of differences between a run on
  /// the file and a run on an empty file made just before it, so that a drift of the machine between them
  /// does not land in the result.
  ///
  /// `nil` when the work is lost in the start-up's jitter (a median ≤ 0).
  func cmarkTime(file: URL, runs: Int) -> Double? {
    guard let cmark else { return nil }
    let differences = (0..<max(9, min(runs, 21))).map { _ in
      let startup = measure(runs: 1) { spawn(cmark, ["--to", "html", empty.path]) }
      return measure(runs: 1) { spawn(cmark, ["--to", "html", file.path]) } - startup
    }
    let median = differences.sorted()[differences.count / 2]
    return median > 0 ? median : nil
  }

  /// rich's median time, measured in its own process, to render `file` as markdown to an 80-column console.
  func richTime(file: URL, runs: Int) -> Double? {
    guard let python else { return nil }
    return run(python, [richScript.path, file.path, String(runs)]).flatMap {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
  }

  /// SkParagraph's median times for `text`, in its own Python process; `nil` without skia-python.
  ///
  /// The times are of building and laying out a paragraph at `widths.0` CSS px, and of laying it out again at the
  /// other width, in `fonts` (each file's first face under its family's name, the first family first, the others its
  /// fallbacks, as our chain) at `size` px.
  ///
  /// Each build lays out a text of its own (the text after a number): SkParagraph's font collection keeps a cache of
  /// paragraphs, which the same text would hit.
  func skParagraphTimes(
    text: String, fonts: [(path: String, family: String)], size: Double, widths: (Int, Int), runs: Int
  ) -> (build: Double, relayout: Double)? {
    guard let python else { return nil }
    let folder = skParagraphScript.deletingLastPathComponent()
    let textFile = folder.appendingPathComponent("skparagraph-text.txt")
    let fontFile = folder.appendingPathComponent("skparagraph-fonts.txt")
    guard (try? text.write(to: textFile, atomically: false, encoding: .utf8)) != nil,
      (try? fonts.map { "\($0.path)\t\($0.family)" }.joined(separator: "\n").write(
        to: fontFile, atomically: false, encoding: .utf8)) != nil,
      let output = run(
        python,
        [
          skParagraphScript.path, textFile.path, fontFile.path, String(size), String(widths.0), String(widths.1),
          String(runs),
        ])
    else { return nil }
    let values = output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    return values.count == 2 ? (values[0], values[1]) : nil
  }

  static let skParagraphSource = """
    import sys, time
    import skia
    text_file, font_file, size, width, other, runs = sys.argv[1:7]
    text = open(text_file, encoding="utf-8").read()
    provider = skia.textlayout.TypefaceFontProvider()
    families = []
    for line in open(font_file, encoding="utf-8").read().splitlines():
        path, family = line.split("\t")
        typeface = skia.Typeface.MakeFromFile(path)
        if typeface is None:
            continue
        provider.registerTypeface(typeface, family)
        if family not in families:
            families.append(family)
    collection = skia.textlayout.FontCollection()
    collection.setDefaultFontManager(provider)
    text_style = skia.textlayout.TextStyle()
    text_style.setFontFamilies(families)
    text_style.setFontSize(float(size))
    paragraph_style = skia.textlayout.ParagraphStyle()
    paragraph_style.setTextStyle(text_style)
    unicode = skia.Unicode.ICU_Make()
    def build(index):
        builder = skia.textlayout.ParagraphBuilder.make(paragraph_style, collection, unicode)
        builder.pushStyle(text_style)
        builder.addText(str(index) + " " + text)
        paragraph = builder.Build()
        paragraph.layout(float(width))
        return paragraph
    runs = int(runs)
    build(0)
    builds = []
    for index in range(1, runs + 1):
        start = time.perf_counter()
        paragraph = build(index)
        builds.append(time.perf_counter() - start)
    relayouts = []
    for index in range(runs):
        start = time.perf_counter()
        paragraph.layout(float(other if index % 2 == 0 else width))
        relayouts.append(time.perf_counter() - start)
    builds.sort()
    relayouts.sort()
    print(builds[len(builds) // 2], relayouts[len(relayouts) // 2])
    """

  static let richSource = """
    import io, sys, time
    from rich.console import Console
    from rich.markdown import Markdown
    text = open(sys.argv[1], encoding="utf-8").read()
    runs = int(sys.argv[2])
    times = []
    for _ in range(runs + 1):
        console = Console(file=io.StringIO(), width=80, force_terminal=True, color_system="standard")
        start = time.perf_counter()
        console.print(Markdown(text))
        times.append(time.perf_counter() - start)
    times = sorted(times[1:])
    print(times[len(times) // 2])
    """
}
