// unfold-bench: the engine's stages on generated inputs, and the peers on the same files in the same run.
// Build and run in release, with the peers installed: scripts/bench (it prints the table of the README).
// Absolute times drift on shared machines: compare the rows and ratios of one run.
import Foundation
import Unfold
import UnfoldCorpus

#if canImport(Glibc)
  import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

// `unfold-bench --peak-memory FILE`: the whole pipeline to ANSI on FILE, then the peak resident size in bytes.
if arguments.first == "--peak-memory", arguments.count == 2 {
  let markdown = (try? String(contentsOfFile: arguments[1], encoding: .utf8)) ?? ""
  let output = Paragraph(LocalizedKey(markdown)).ansi(
    width: 80, state: .expanded, renderer: ANSIRenderer(colors: .ansi16))
  // The high-water mark of this process's own memory (ru_maxrss would carry over the parent's from fork).
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  let peak =
    status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
  print(peak * 1024, output.utf8.count)
  exit(0)
}

// `unfold-bench --generate BYTES [document]`: the generated markdown of that size, paragraphs or (with `document`) the
// blocks of the documents table, on standard output.
if arguments.first == "--generate", (2...3).contains(arguments.count), let bytes = Int(arguments[1]) {
  let inputs = BenchInputs()
  print(arguments.last == "document" ? inputs.document(bytes: bytes) : inputs.markdown(bytes: bytes), terminator: "")
  exit(0)
}

// `unfold-bench --profile STAGE`: one stage in a loop, alone, for perf or callgrind (prepare, prepare-px (in DejaVu
// Sans and the Noto fallbacks, as the engine UNFOLD_PROFILE_ENGINE measures and breaks: blink by default),
// relayout, count (of lines at a new width), parse, ansi, html: the whole pipeline to an expanded view, document: a
// markdown document's blocks to an expanded terminal view (``BenchInputs/document(bytes:seed:)``), collapsed and
// collapsed-verbatim: to a collapsed terminal view, render-ansi: an expanded truncated text of the prepared document
// laid out, drawn and rendered by ANSIRenderer.render); UNFOLD_PROFILE_ROUNDS rounds (20 by default) on a document of
// UNFOLD_PROFILE_BYTES (1 MB by default), or on the text of the file UNFOLD_PROFILE_FILE (as markdown and as verbatim
// text), to see what one script or shape of text costs.
if arguments.first == "--profile", arguments.count == 2 {
  let environment = ProcessInfo.processInfo.environment
  let bytes = environment["UNFOLD_PROFILE_BYTES"].flatMap { Int($0) } ?? 1_000_000
  var file: String?
  if let path = environment["UNFOLD_PROFILE_FILE"] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      FileHandle.standardError.write(
        Data("unfold-bench: \(path): cannot read it as UTF-8 (UNFOLD_PROFILE_FILE)\n".utf8))
      exit(1)
    }
    file = text
  }
  let markdown = file ?? BenchInputs().markdown(bytes: bytes)
  let verbatim = file ?? BenchInputs().verbatim(bytes: bytes)
  let text = MarkdownParser.parse(markdown).text
  let prepared = PreparedText(text, measurer: TerminalCells())
  let htmlFonts =
    ["html", "html-collapsed", "range", "html-range"].contains(arguments[1]) ? try? FontSet.dejaVu(fallbacks: []) : nil
  let pxFonts = arguments[1] == "prepare-px" ? try? FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks()) : nil
  let document = arguments[1] == "document" ? file ?? BenchInputs().document(bytes: bytes) : nil
  let rounds = environment["UNFOLD_PROFILE_ROUNDS"].flatMap { Int($0) } ?? 20
  let engine = environment["UNFOLD_PROFILE_ENGINE"].flatMap { BrowserEngine(rawValue: $0) } ?? .blink
  // The stage is chosen once, not per round: comparing the argument with each name was counted in every round.
  let stage: (Int) -> Void =
    switch arguments[1] {
    case "prepare": { _ in _ = PreparedText(text, measurer: TerminalCells()) }
    case "prepare-px":
      { _ in
        // Each round from an empty cache of shaped words, as the first text of a process is prepared.
        ShapedWords.shared.removeAll()
        _ = PreparedText(
          text, measurer: FontMeasurer(pxFonts!, engine: engine), breaker: LineBreaker(rules: .init(engine)))
      }
    case "relayout": { round in _ = prepared.layout(width: 40 + round % 40) }
    case "count": { round in _ = prepared.lineCount(width: 40 + round % 40) }
    case "ansi":
      { _ in
        _ = Paragraph(LocalizedKey(markdown)).ansi(width: 80, state: .expanded, renderer: ANSIRenderer(colors: .ansi16))
      }
    case "html": { _ in _ = Paragraph(LocalizedKey(markdown)).html(width: 600, fonts: htmlFonts!, state: .expanded) }
    case "html-collapsed":
      { _ in _ = Paragraph(LocalizedKey(markdown)).html(width: 320, fonts: htmlFonts!, engine: engine) }
    case "range":
      { _ in _ = Paragraph(LocalizedKey(markdown)).collapsedViews(widths: 320...1280, fonts: htmlFonts!, engine: engine)
      }
    case "html-range":
      { _ in _ = Paragraph(LocalizedKey(markdown)).html(widths: 320...1280, fonts: htmlFonts!, engine: engine) }
    case "document":
      { _ in
        _ = Paragraph(document: document!).ansi(width: 80, state: .expanded, renderer: ANSIRenderer(colors: .ansi16))
      }
    case "collapsed":
      { _ in _ = Paragraph(LocalizedKey(markdown)).ansi(width: 80, renderer: ANSIRenderer(colors: .ansi16)) }
    case "collapsed-verbatim":
      { _ in _ = Paragraph(verbatim: verbatim).ansi(width: 80, renderer: ANSIRenderer(colors: .ansi16)) }
    case "render-ansi":
      { _ in _ = ANSIRenderer(colors: .ansi16).render(Truncator.truncate(prepared.layout(width: 80), state: .expanded))
      }
    default: { _ in _ = MarkdownParser.parse(markdown) }
    }
  for round in 0..<rounds { stage(round) }
  exit(0)
}

let documentSizes: [(name: String, bytes: Int)] = [
  ("1 KB", 1_000), ("100 KB", 100_000), ("1 MB", 1_000_000), ("10 MB", 10_000_000),
]
let only = ProcessInfo.processInfo.environment["UNFOLD_BENCH_SIZES"].map { $0.split(separator: ",").map(String.init) }
let sizes = documentSizes.filter { only?.contains($0.name.replacingOccurrences(of: " ", with: "")) ?? true }

let inputs = BenchInputs()
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-bench-\(getpid())")
try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

// The Unicode tables decode on first use: time that first use before anything else touches them.
let tableTime = measure(runs: 1) { _ = TerminalCells.width(of: "中") }
let peers = Peers(folder: folder)

// UNFOLD_BENCH_TABLES: the tables to print (stages, collapsed, command, documents, relayout, scripts, engines, widths,
// comments, memory, slow);
// all by default.
let tables = ProcessInfo.processInfo.environment["UNFOLD_BENCH_TABLES"].map {
  $0.split(separator: ",").map(String.init)
}
func wants(_ table: String) -> Bool { tables?.contains(table) ?? true }

if wants("stages") {
  print("unfold-bench: prose with inline markup in 11 scripts (emoji, URLs, numbers), paragraphs of 1–6 sentences;")
  print(
    "MB/s of input; pipeline = source → markdown → lines at 80 cells → expanded ANSI (or HTML at 600 px in DejaVu Sans);"
  )
  print("peers: \(peers.description); cmark-gfm in process: the same library, cmark_markdown_to_html, in this process")
  print("")
  print(
    "| size | parse | prepare | layout | render ANSI | pipeline → ANSI | pipeline → HTML | cmark-gfm --to html | "
      + "cmark-gfm in process | ours / cmark-gfm in process | rich, 80 columns | ours / rich |")
  print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
  let fonts = try? FontSet.dejaVu(fallbacks: [])
  for size in sizes {
    let markdown = inputs.markdown(bytes: size.bytes)
    let file = folder.appendingPathComponent("document-\(size.bytes).md")
    try? markdown.write(to: file, atomically: false, encoding: .utf8)
    let megabytes = Double(markdown.utf8.count) / 1e6
    let runs = size.bytes >= 10_000_000 ? 1 : size.bytes >= 1_000_000 ? 3 : size.bytes >= 100_000 ? 7 : 41
    var parsed = StyledText(plain: "")
    var prepared: PreparedText?
    var layout: LineLayout?
    var expanded: TruncatedText?
    let parseTime = measure(runs: runs) { parsed = MarkdownParser.parse(markdown).text }
    let prepareTime = measure(runs: runs) { prepared = PreparedText(parsed, measurer: TerminalCells()) }
    let layoutTime = measure(runs: runs) { layout = prepared?.layout(width: 80) }
    if let layout { expanded = Truncator.truncate(layout, state: .expanded) }
    let renderTime = measure(runs: runs) { _ = expanded.map { ANSIRenderer(colors: .ansi16).render($0) } }
    let paragraph = Paragraph(LocalizedKey(markdown))
    let ansiTime = measure(runs: runs) {
      _ = paragraph.ansi(width: 80, state: .expanded, renderer: ANSIRenderer(colors: .ansi16))
    }
    let htmlTime = fonts.map { fonts in
      measure(runs: runs) { _ = paragraph.html(width: 600, fonts: fonts, state: .expanded) }
    }
    let cmark = peers.cmarkTime(file: file, runs: runs)
    let cmarkInProcess = measure(runs: runs) { _ = MarkdownParser.cmarkReferenceHTML(markdown) }
    let rich = size.bytes <= 1_000_000 ? peers.richTime(file: file, runs: size.bytes <= 100_000 ? runs : 1) : nil
    func rate(_ time: Double) -> String { String(format: "%.1f MB/s", megabytes / time) }
    func time(_ time: Double?) -> String { time.map(milliseconds) ?? "—" }
    func ratio(_ ours: Double, _ theirs: Double?) -> String {
      guard let theirs, theirs > 0 else { return "—" }
      return String(format: ours / theirs < 0.1 ? "%.3f×" : "%.2f×", ours / theirs)
    }
    print(
      "| \(size.name) | \(rate(parseTime)) | \(rate(prepareTime)) | \(rate(layoutTime)) | \(rate(renderTime)) | "
        + "\(milliseconds(ansiTime)) (\(rate(ansiTime))) | \(htmlTime.map { "\(milliseconds($0)) (\(rate($0)))" } ?? "—") | "
        + "\(time(cmark)) | \(milliseconds(cmarkInProcess)) | \(ratio(ansiTime, cmarkInProcess)) | \(time(rich)) | "
        + "\(ratio(ansiTime, rich)) |")
  }
}

if wants("collapsed") {
  // Collapsed previews of large inputs stop at what is visible: compare 10 MB with 10 KB.
  print("")
  print("| collapsed to 3 lines at 80 cells, in process | 10 KB | 10 MB | 10 MB / 10 KB |")
  print("| --- | --- | --- | --- |")
  for (name, make) in [
    ("verbatim text", { (bytes: Int) in Paragraph(verbatim: inputs.verbatim(bytes: bytes)) }),
    ("markdown paragraphs", { (bytes: Int) in Paragraph(LocalizedKey(inputs.markdown(bytes: bytes))) }),
  ] {
    let small = make(10_000)
    let large = make(10_000_000)
    let smallTime = measure(runs: 21) { _ = small.ansi(width: 80, renderer: ANSIRenderer(colors: .ansi16)) }
    let largeTime = measure(runs: 3) { _ = large.ansi(width: 80, renderer: ANSIRenderer(colors: .ansi16)) }
    print(
      "| \(name) | \(milliseconds(smallTime)) | \(milliseconds(largeTime)) | \(String(format: "%.1f×", largeTime / smallTime)) |"
    )
  }
}

if wants("command") {
  // The `unfold` command collapsing a file as a whole process (start-up, reading, layout, output), 10 MB against
  // 10 KB: the release build's binary beside this one; the two sizes alternate, the median of 21 runs each.
  let unfold = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "unfold")
  if FileManager.default.isExecutableFile(atPath: unfold.path) {
    print("")
    print("| `unfold --lines 3 --width 80 FILE`, whole process | 10 KB | 10 MB | 10 MB / 10 KB |")
    print("| --- | --- | --- | --- |")
    for (name, flags, make) in [
      ("markdown", [String](), { (bytes: Int) in inputs.markdown(bytes: bytes) }),
      ("verbatim text", ["--verbatim"], { (bytes: Int) in inputs.verbatim(bytes: bytes) }),
      ("document", ["--document"], { (bytes: Int) in inputs.document(bytes: bytes) }),
    ] {
      let files = [10_000, 10_000_000].map { bytes in
        let file = folder.appendingPathComponent("command-\(bytes).md")
        try? make(bytes).write(to: file, atomically: false, encoding: .utf8)
        return file
      }
      var times: [[Double]] = [[], []]
      for _ in 0..<21 {
        for (index, file) in files.enumerated() {
          times[index].append(
            measure(runs: 1) {
              spawn(unfold, flags + ["--lines", "3", "--width", "80", "--color", "16", file.path])
            })
        }
      }
      let (small, large) = (times[0].sorted()[10], times[1].sorted()[10])
      print(
        "| \(name) | \(milliseconds(small)) | \(milliseconds(large)) | \(String(format: "%.1f×", large / small)) |")
    }
  } else {
    print("\n(no `unfold` beside unfold-bench: `swift build -c release --product unfold` for the command table)")
  }
}

if wants("documents") {
  // A markdown document's blocks to an expanded terminal view, against cmark-gfm's HTML of the same file (a process,
  // as `cmark-gfm --to html` runs, and in this process); its collapsed view, 10 MB against 10 KB.
  print("")
  print(
    "| markdown document, blocks | 1 MB → ANSI, expanded | cmark-gfm --to html | cmark-gfm in process | "
      + "ours / cmark-gfm --to html | collapsed 10 KB | collapsed 10 MB | 10 MB / 10 KB |")
  print("| --- | --- | --- | --- | --- | --- | --- | --- |")
  let markdown = inputs.document(bytes: 1_000_000)
  let file = folder.appendingPathComponent("blocks-1000000.md")
  try? markdown.write(to: file, atomically: false, encoding: .utf8)
  let paragraph = Paragraph(document: markdown)
  let ansiTime = measure(runs: 5) {
    _ = paragraph.ansi(width: 80, state: .expanded, renderer: ANSIRenderer(colors: .ansi16))
  }
  let cmark = peers.cmarkTime(file: file, runs: 5)
  let cmarkInProcess = measure(runs: 5) { _ = MarkdownParser.cmarkReferenceHTML(markdown) }
  let small = Paragraph(document: inputs.document(bytes: 10_000))
  let large = Paragraph(document: inputs.document(bytes: 10_000_000))
  let smallTime = measure(runs: 21) { _ = small.ansi(width: 80, renderer: ANSIRenderer(colors: .ansi16)) }
  let largeTime = measure(runs: 5) { _ = large.ansi(width: 80, renderer: ANSIRenderer(colors: .ansi16)) }
  let ratio = cmark.map { String(format: "%.2f×", ansiTime / $0) } ?? "—"
  print(
    "| headings, lists, quotes, code, tables | \(milliseconds(ansiTime)) | \(cmark.map(milliseconds) ?? "—") | \(milliseconds(cmarkInProcess)) | \(ratio) | "
      + "\(milliseconds(smallTime)) | \(milliseconds(largeTime)) | \(String(format: "%.1f×", largeTime / smallTime)) |")
}

if wants("relayout") {
  // Relayout at a new width against preparing: per comment and for a whole book-sized text.
  print("")
  print(
    "| relayout of a prepared text at a new width | prepare | layout | prepare / layout | count of lines | "
      + "prepare / count |")
  print("| --- | --- | --- | --- | --- | --- |")
  for (name, bytes) in [("1 KB comment", 1_000), ("1 MB text", 1_000_000)] {
    let text = MarkdownParser.parse(inputs.markdown(bytes: bytes)).text
    var prepared: PreparedText?
    // A comment's relayout takes a fraction of a microsecond, less than reading the clock twice: each sample times
    // a batch of 100 and divides. The 1 MB text's samples take two relayouts, one at each width, so that a
    // median is not one width's or the other's by the luck of the draw.
    let (runs, batch) = bytes > 10_000 ? (5, 2) : (31, 100)
    let prepareTime =
      measure(runs: runs) {
        for _ in 0..<batch { prepared = PreparedText(text, measurer: TerminalCells()) }
      } / Double(batch)
    // Each relayout at another width than the one before, 40 and 72 cells in turn, of a constant: read from the
    // variable that preparing wrote, each relayout would copy the prepared text, which a relayout of one's own
    // prepared text does not pay.
    guard let prepared else { continue }
    print(relayoutRow(name, prepared, prepareTime: prepareTime, widths: (40, 72), runs: runs, batch: batch))
  }
}

if wants("widths") {
  // The collapsed views of a 1 KB comment over the widths 320 to 1280 px, against its HTML at one width (in fonts,
  // the default `any` engine, 3 lines): what a fragment for a range of container widths costs to find.
  print("")
  print(
    "| a 1 KB comment, collapsed, `any` | HTML at 320 px | views over 320–1280 px | views | range / one width "
      + "| HTML for 320–1280 px | its HTML / one width |")
  print("| --- | --- | --- | --- | --- | --- | --- |")
  let fonts = try? FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks())
  for (index, script) in BenchInputs.scripts.enumerated() {
    guard let fonts else { break }
    let paragraph = Paragraph(LocalizedKey(inputs.comment(script: index, bytes: 1_000)))
    var count = 0
    let single = measure(runs: 9) { _ = paragraph.html(width: 320, fonts: fonts) }
    let range = measure(runs: 9) { count = paragraph.collapsedViews(widths: 320...1280, fonts: fonts).count }
    let fragment = measure(runs: 9) { _ = paragraph.html(widths: 320...1280, fonts: fonts) }
    print(
      "| \(script.name) | \(milliseconds(single)) | \(milliseconds(range)) | \(count) | "
        + String(format: "%.1f×", range / single) + " | \(milliseconds(fragment)) | "
        + String(format: "%.1f×", fragment / single) + " |")
  }
}

if wants("scripts") {
  // Preparing and relayout per script, measured in fonts as the HTML renderer measures: DejaVu Sans with Debian's
  // Noto fonts as the fallback chain, Chromium's line breaking. Each comment is prepared from an empty cache of
  // shaped words (ShapedWords), as the first of a process: the words it repeats are shaped once.
  print("")
  print(
    "| a 1 KB comment in fonts (DejaVu Sans, Noto fallbacks), Chromium's breaks | prepare | layout | "
      + "prepare / layout | count of lines | prepare / count | SkParagraph build and layout | SkParagraph relayout "
      + "| prepare / SkParagraph's | SkParagraph's relayout / layout |")
  print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
  let fonts = try? FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks())
  // SkParagraph in the same files: each family's first face under one name, DejaVu Sans first.
  let skFonts = fonts.map { fonts in
    [(fonts.regular.path, "DejaVu Sans")]
      + fonts.fallbacks.enumerated().map { index, family in (family.faces[0].path, "Fallback \(index)") }
  }
  for (index, script) in BenchInputs.scripts.enumerated() {
    guard let fonts else { break }
    let text = MarkdownParser.parse(inputs.comment(script: index, bytes: 1_000)).text
    let measurer = FontMeasurer(fonts)
    var prepared: PreparedText?
    let (runs, batch) = (31, 20)
    let prepareTime =
      measure(runs: runs) {
        for _ in 0..<batch {
          ShapedWords.shared.removeAll()
          prepared = PreparedText(text, measurer: measurer, breaker: .chromium)
        }
      } / Double(batch)
    guard let prepared else { continue }
    let px = FontMeasurer.unitsPerPixel
    let row = relayoutRow(
      script.name, prepared, prepareTime: prepareTime, widths: (240 * px, 400 * px), runs: runs, batch: 100)
    let layoutTime = measure(runs: runs) { for _ in 0..<100 { _ = prepared.layout(width: 400 * px) } } / 100
    guard let skFonts,
      let sk = peers.skParagraphTimes(
        text: text.string, fonts: skFonts, size: fonts.size, widths: (240, 400), runs: runs)
    else {
      print(row + " — | — | — | — |")
      continue
    }
    print(
      row + " \(milliseconds(sk.build)) | \(microseconds(sk.relayout)) | "
        + String(format: "%.2f×", prepareTime / sk.build) + " | " + String(format: "%.0f×", sk.relayout / layoutTime)
        + " |")
  }
}

if wants("engines") {
  // Preparing a comment of about 1,000 characters in a script without spaces between words, under each engine's
  // profile: Blink and WebKit find words with ICU's dictionaries, Gecko with ICU4X's word models, `any` with both.
  print("")
  print("| a comment of 1,000 characters, prepared in fonts | blink | gecko | webkit | any | gecko / blink |")
  print("| --- | --- | --- | --- | --- | --- |")
  let fonts = try? FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks())
  for (index, script) in BenchInputs.scripts.enumerated() where ["Thai", "Burmese"].contains(script.name) {
    guard let fonts else { break }
    var markdown = inputs.comment(script: index, bytes: 4_000)
    markdown = String(markdown.prefix(1_000))
    let text = MarkdownParser.parse(markdown).text
    var times: [Double] = []
    for engine in [BrowserEngine.blink, .gecko, .webkit, .any] {
      let measurer = FontMeasurer(fonts, engine: engine)
      let breaker = LineBreaker(rules: .init(engine))
      var prepared: PreparedText?
      let batch = 10
      times.append(
        measure(runs: 21) {
          for _ in 0..<batch {
            ShapedWords.shared.removeAll()
            prepared = PreparedText(text, measurer: measurer, breaker: breaker)
          }
        } / Double(batch))
      precondition(prepared != nil)
    }
    let cells = times.map { String(format: "%.1f µs", $0 * 1e6) }
    print(
      "| \(script.name), \(markdown.count) characters | \(cells.joined(separator: " | ")) | "
        + String(format: "%.2f×", times[1] / times[0]) + " |")
  }
}

if wants("comments") {
  // Many small texts parsed from several tasks, through the process-wide cmark-gfm lock.
  print("")
  print("| parse of 4,000 comments of about 300 bytes | texts/s |")
  print("| --- | --- |")
  let comments = (0..<4_000).map { inputs.markdown(bytes: 300, seed: UInt64($0)) }
  for tasks in [1, 2, 4] {
    let time = measure(runs: 3) { parseConcurrently(comments, tasks: tasks) }
    print("| \(tasks) task\(tasks == 1 ? "" : "s") | \(String(format: "%.0f", Double(comments.count) / time)) |")
  }
  // 1,000 distinct comments in the generator's scripts to collapsed HTML at 360 px under the default engine, one
  // after another in one process as a server renders them (each run from an empty cache of shaped words), against
  // cmark-gfm's HTML of the same comments in this process.
  if let fonts = try? FontSet.dejaVu(fallbacks: FontFamily.notoFallbacks()) {
    // UNFOLD_BENCH_COMMENTS: fewer, to profile.
    let count = Int(ProcessInfo.processInfo.environment["UNFOLD_BENCH_COMMENTS"] ?? "") ?? 1_000
    let many = (0..<count).map { inputs.markdown(bytes: 300, seed: UInt64(10_000 + $0)) }
    print("")
    print(
      "| 1,000 distinct comments of about 300 bytes | ours: collapsed HTML at 360 px, `any` | "
        + "cmark_markdown_to_html in process | ours / cmark-gfm |")
    print("| --- | --- | --- | --- |")
    let ours = measure(runs: count < 1_000 ? 1 : 3) {
      ShapedWords.shared.removeAll()
      for comment in many { _ = Paragraph(LocalizedKey(comment)).lineLimit(3).html(width: 360, fonts: fonts) }
    }
    let cmark = measure(runs: 3) { for comment in many { _ = MarkdownParser.cmarkReferenceHTML(comment) } }
    print(
      "| 1,000 in a row | \(milliseconds(ours)) | \(milliseconds(cmark)) | "
        + String(format: "%.1f×", ours / cmark) + " |")
  }
}

if wants("memory") {
  // Peak memory of the whole pipeline, each size in a process of its own.
  print("")
  print("| peak memory, pipeline → ANSI in a process of its own | resident | over the input size |")
  print("| --- | --- | --- |")
  let empty = folder.appendingPathComponent("empty.md")
  _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
  if let baseline = peakMemory(file: empty) {
    print("| empty input (the process itself) | \(String(format: "%.1f MB", Double(baseline) / 1e6)) | — |")
    for size in sizes where size.bytes >= 1_000_000 {
      // Written here too: the stages table, which writes the documents, may not have run.
      let file = folder.appendingPathComponent("document-\(size.bytes).md")
      if !FileManager.default.fileExists(atPath: file.path) {
        try? inputs.markdown(bytes: size.bytes).write(to: file, atomically: false, encoding: .utf8)
      }
      guard let peak = peakMemory(file: file) else { continue }
      print(
        "| \(size.name) document | \(String(format: "%.1f MB", Double(peak) / 1e6)) | "
          + "\(String(format: "%.1f×", Double(peak - baseline) / Double(size.bytes))) (above the empty input) |")
    }
  }
}
if wants("slow") {
  // cmark-gfm gfm.6's slow inputs (its pathological tests; long paragraphs mixing emphasis and links) stay
  // linear: a paragraph is parsed in pieces of at most 16 KiB.
  print("")
  print("| slow input for cmark-gfm gfm.6, parse | 100 KB | 1 MB | 1 MB / 100 KB |")
  print("| --- | --- | --- | --- |")
  for (name, make) in SlowInputs.classes {
    let (small, large) = (make(100_000), make(1_000_000))
    let smallTime = measure(runs: 3) { _ = MarkdownParser.parse(small) }
    let largeTime = measure(runs: 3) { _ = MarkdownParser.parse(large) }
    print(
      "| \(name) | \(milliseconds(smallTime)) | \(milliseconds(largeTime)) | "
        + "\(String(format: "%.1f×", largeTime / smallTime)) |")
  }
}

print("")
print("Unicode tables decoded on first use: \(milliseconds(tableTime)), once per process.")
