// libFuzzer entry point for the engine, built by scripts/fuzz together with the sources of Sources/Unfold as
// one module (so the internal parsers and checks are reachable), with -sanitize=fuzzer,address.
// UNFOLD_FUZZ_TARGET chooses what the input feeds; each target checks the engine's invariants
// (Sources/Unfold/Checks/Invariants.swift) and stops the process on the first violation.
import Foundation

/// What the fuzzer drives.
enum FuzzTarget: String, CaseIterable {
  case markdown, layout, ansi, html, strings, stringsdict, xcstrings, format, segmenter, document

  static let current: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["UNFOLD_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      fatalError("UNFOLD_FUZZ_TARGET must be one of \(allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
  }()
}

/// Fonts for the HTML target, read once.
let fuzzFonts = try? FontSet.dejaVu(fallbacks: [])

/// Stops the run with the violation, so that libFuzzer saves the input.
func check(_ violation: String?, _ input: String) {
  if let violation { fatalError("\(violation) for \(input.debugDescription.prefix(300))") }
}

/// The layout settings read from the first bytes of an input, the rest being the text.
struct Settings {
  var width: Int
  var options: TruncationOptions
  var isMarkdown: Bool
  var text: String

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    func byte(_ index: Int) -> Int { index < bytes.count ? Int(bytes[index]) : 0 }
    width = byte(0) % 120 + 1
    let modes: [TruncationMode] = [.tail, .middle, .head]
    let toggles: [TogglePlacement] = [.inline, .below, .overlay, .none]
    options = TruncationOptions(
      lineLimit: byte(1) % 8, lessLabel: byte(2) & 1 == 0 ? nil : "less", mode: modes[byte(2) / 2 % 3],
      toggle: toggles[byte(2) / 6 % 4], collapsesBlankLines: byte(3) & 1 == 1, reservesSpace: byte(3) & 2 == 2)
    isMarkdown = byte(3) & 4 == 4
    text = String(decoding: bytes.dropFirst(4), as: UTF8.self)
  }

  var paragraph: Paragraph {
    (isMarkdown ? Paragraph(LocalizedKey(text)) : Paragraph(verbatim: text)).truncation(options)
  }
}

/// The text of a `segmenter` input: with the first byte even, each further byte is a code point of Thai, Lao,
/// Burmese or Khmer (its two high bits choose the block, the rest a code point in it, marks and digits
/// included), or a space, a comma, a Latin letter, a zero width joiner or space, a Tai Tham letter, a
/// parenthesis; with it odd, the bytes are read as UTF-8.
func segmenterText(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
  guard let first = bytes.first, first & 1 == 0 else { return String(decoding: bytes.dropFirst(), as: UTF8.self) }
  let blocks: [UInt32] = [0x0E00, 0x0E80, 0x1000, 0x1780]
  let others: [Unicode.Scalar] = [" ", ",", "a", "\u{200D}", "\u{200B}", "\u{1A20}", "(", ")", "\t", "\u{0301}"]
  var text = String.UnicodeScalarView()
  for byte in bytes.dropFirst() {
    let low = UInt32(byte & 0x3F)
    if low >= 0x3F - UInt32(others.count) + 1, byte & 0xC0 == 0xC0 {
      text.append(others[Int(0x3F - low)])
    } else if let scalar = Unicode.Scalar(blocks[Int(byte >> 6)] + low * 2 + UInt32(first >> 1 & 1)) {
      text.append(scalar)
    }
  }
  return String(text)
}

/// Whether `boundaries` ascend strictly within `range`.
func ascend(_ boundaries: [Int], within range: ClosedRange<Int>) -> Bool {
  zip(boundaries, boundaries.dropFirst()).allSatisfy { $0 < $1 } && boundaries.allSatisfy(range.contains)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  switch FuzzTarget.current {
  case .markdown:
    let markdown = String(decoding: bytes, as: UTF8.self)
    let result = MarkdownParser.parse(markdown)
    // Runs cover the text (StyledText checks it); markup only goes, text only comes from the source.
    check(result.text.string.utf8.count <= markdown.utf8.count * 3 ? nil : "the text outgrew its source", markdown)
    check(result.text.string.contains("\0") ? "a NUL survived" : nil, markdown)
    check(Invariants.invalidUTF8(result.text.string), markdown)  // cmark's bytes, taken for UTF-8 unchecked
  case .layout:
    let settings = Settings(bytes)
    let text = settings.paragraph.source.resolve().text
    check(
      Invariants.truncationViolation(text, measurer: TerminalCells(), width: settings.width, options: settings.options),
      settings.text)
    // The same text prepared once and laid out again at two widths, with and without the limit.
    let prepared = PreparedText(text, measurer: TerminalCells())
    let limit = settings.options.lineLimit > 0 ? settings.options.lineLimit : nil
    for (width, lineLimit) in [(settings.width, limit), (settings.width / 2 + 1, nil)] {
      check(Invariants.relayoutViolation(prepared, width: width, lineLimit: lineLimit), settings.text)
    }
    // The lazy stream of an expanded view has the lines of the general one, and every fitter the reference's.
    check(Invariants.lazyStreamViolation(text, width: settings.width), settings.text)
    check(Invariants.referenceViolation(text, width: settings.width), settings.text)
  case .ansi:
    let settings = Settings(bytes)
    for state in [DisplayState.collapsed, .expanded] {
      let output = settings.paragraph.ansi(
        width: settings.width, state: state, renderer: ANSIRenderer(colors: .truecolor))
      check(Invariants.foreignControl(inTerminalOutput: output), settings.text)
      check(Invariants.invalidUTF8(output), settings.text)
    }
    // The expanded view of markdown written in parts cut after blank lines is the whole text's.
    let renderer = ANSIRenderer(colors: .truecolor)
    let parts = settings.paragraph.expandedWriter(width: settings.width, renderer: renderer)
      .render(settings.paragraph.source, partLength: 1 + settings.width % 32)
    let whole = settings.paragraph.ansi(width: settings.width, state: .expanded, renderer: renderer)
    check(parts == whole ? nil : "the expanded view written in parts is not the whole text's", settings.text)
  case .document:
    // The text as a document: its views' invariants, terminal output with no control character of the input, and
    // HTML well formed (the collapsed view's elements closed wherever the cut falls).
    let settings = Settings(bytes)
    let paragraph = Paragraph(document: settings.text).truncation(settings.options)
    check(Invariants.documentViolation(paragraph, width: settings.width), settings.text)
    guard let fonts = fuzzFonts else { fatalError("DejaVu fonts missing (fonts-dejavu-core)") }
    for state in [DisplayState.collapsed, .expanded] {
      let output = paragraph.ansi(width: settings.width, state: state, renderer: ANSIRenderer(colors: .truecolor))
      check(Invariants.foreignControl(inTerminalOutput: output), settings.text)
      check(Invariants.invalidUTF8(output), settings.text)
      let html = paragraph.html(width: Double(settings.width * 5), fonts: fonts, state: state).html
      check(Invariants.htmlViolation(html), settings.text)
      check(Invariants.invalidUTF8(html), settings.text)
    }
  case .html:
    let settings = Settings(bytes)
    guard let fonts = fuzzFonts else { fatalError("DejaVu fonts missing (fonts-dejavu-core)") }
    for state in [DisplayState.collapsed, .expanded] {
      let html = settings.paragraph.html(width: Double(settings.width * 5), fonts: fonts, state: state).html
      check(Invariants.htmlViolation(html), settings.text)
      check(Invariants.invalidUTF8(html), settings.text)
    }
  case .segmenter:
    // Each segmenter, on the whole text as one run, twice: the same boundaries, ascending, inside the run.
    let text = segmenterText(bytes)
    let scalars = Array(text.unicodeScalars)
    let model = DictionaryBreaks.modelBoundaries(in: scalars)
    check(model == DictionaryBreaks.modelBoundaries(in: scalars) ? nil : "the word models changed their mind", text)
    check(ascend(model, within: 1...max(1, scalars.count)) ? nil : "word model boundaries out of order", text)
    let dictionary = DictionaryBreaks.boundaries(in: scalars)
    check(dictionary == DictionaryBreaks.boundaries(in: scalars) ? nil : "ICU changed its mind", text)
    check(ascend(dictionary, within: 0...scalars.count) ? nil : "dictionary boundaries out of order", text)
    let chromium = DictionaryBreaks.chromiumBoundaries(in: scalars)
    check(chromium == DictionaryBreaks.chromiumBoundaries(in: scalars) ? nil : "Chromium's changed its mind", text)
    check(ascend(chromium, within: 1...max(1, scalars.count)) ? nil : "Chromium's boundaries out of order", text)
    // ICU's engines in Swift, with the system's dictionaries, break each run of SA characters as ICU does.
    var start = 0
    while start < scalars.count {
      var end = start
      while end < scalars.count, UnicodeProperties(scalars[end]).lineBreak == .sa { end += 1 }
      if end > start {
        let run = Array(scalars[start..<end])
        let swift = WordDictionary.wordEnds(in: run.map(\.value), dictionaries: DictionaryBreaks.systemDictionaries)
        check(swift == DictionaryBreaks.boundaries(in: run) ? nil : "ICU's engines in Swift differ from ICU", text)
      }
      start = end + 1
    }
    // Each engine's breaks, twice the same; `any` breaks only where all three do.
    var common: Set<Int>?
    for rules in [LineBreaker.Rules.chromium, .gecko, .webkit] {
      let offsets = Set(LineBreaker(rules: rules).allOpportunities(in: text).map(\.offset))
      let again = Set(LineBreaker(rules: rules).allOpportunities(in: text).map(\.offset))
      check(offsets == again ? nil : "\(rules) breaks changed", text)
      common = common.map { $0.intersection(offsets) } ?? offsets
    }
    let any = Set(LineBreaker(rules: .anyEngine).allOpportunities(in: text).map(\.offset))
    check(
      any.isSubset(of: common ?? []) ? nil : "any breaks where an engine does not: \(any.subtracting(common ?? []))",
      text)
  case .strings:
    _ = try? Localizations.readStrings(Data(bytes), file: "Fuzz.strings")
  case .stringsdict:
    _ = try? Localizations.readStringsDict(Data(bytes), file: "Fuzz.stringsdict")
  case .xcstrings:
    _ = try? Localizations.readCatalog(Data(bytes), file: "Fuzz.xcstrings")
  case .format:
    // The format string, then arguments of every kind; what it makes is drawn in a terminal, where nothing
    // from the arguments (an escape sequence, a NUL from `%C` of 0) may act.
    let format = String(decoding: bytes, as: UTF8.self)
    let arguments: [FormatArgument] = [
      .int(Int64(size) - 3), .string("a\u{1B}[31m"), .double(-0.5), .uint(UInt64(size)), .text("x"),
      .styled(MarkdownParser.parse("**b**").text),
    ]
    for locale in ["en", "ar", "ru"] {
      let formatted = LocalizedFormatter(locale: locale).format(format, arguments: Array(arguments.prefix(size % 7)))
      let output = Paragraph(verbatim: formatted.text).ansi(
        width: 40, state: .expanded, renderer: ANSIRenderer(colors: .ansi16))
      check(Invariants.foreignControl(inTerminalOutput: output), format)
    }
  }
  return 0
}
