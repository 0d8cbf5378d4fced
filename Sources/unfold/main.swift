import Foundation
import Unfold

func fail(_ message: String, status: Int32) -> Int32 {
  FileHandle.standardError.write(Data("unfold: \(message)\n".utf8))
  return status
}

/// Writes a note on standard error: something the command decided that the user may want to know.
func note(_ message: String) {
  FileHandle.standardError.write(Data("unfold: note: \(message)\n".utf8))
}

/// The table a key is looked up in without `--table`: a single table file's own name (`Comments.xcstrings`
/// holds the table `Comments`), else `Localizable`.
func defaultTable(_ paths: [String]) -> String {
  var isFolder: ObjCBool = false
  guard paths.count == 1, FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder),
    !isFolder.boolValue
  else { return "Localizable" }
  return URL(fileURLWithPath: paths[0]).deletingPathExtension().lastPathComponent
}

/// Prints what resolving a key met and returns the exit status when it is an error: a table that none of
/// the tables loaded has, or `--arg` values that do not fit the specifiers (usage errors, the first in one
/// line, a specifier's own problem before the ones it causes); the rest (a key with no translation, a
/// missing plural form) are warnings, one line each.
func report(_ diagnostics: [Diagnostic], argumentsGiven: Bool) -> Int32? {
  let argumentProblems: [Diagnostic.Kind] = [.wrongArgumentType, .missingArgument, .argumentGap, .unusedArgument]
  if let table = diagnostics.first(where: { $0.kind == .missingTable }) {
    return fail("\(table.message): give --table NAME", status: 2)
  }
  if argumentsGiven,
    let first = diagnostics.filter({ argumentProblems.contains($0.kind) })
      .min(by: { argumentProblems.firstIndex(of: $0.kind)! < argumentProblems.firstIndex(of: $1.kind)! })
  {
    return fail("--arg: \(first.message)", status: 2)
  }
  // The parser's own notes (a long paragraph parsed in pieces) are the library's to report, not the lookup's.
  for diagnostic in diagnostics where ![.literalFallback, .paragraphSplit].contains(diagnostic.kind) {
    FileHandle.standardError.write(Data("unfold: warning: \(diagnostic.message)\n".utf8))
  }
  return nil
}

/// Notes each style that no `--font` file gave, and the face that draws it instead: the page sets
/// `font-synthesis: none`, so that the browser draws what was measured, and a bold drawn in a regular face is not
/// bold.
func noteFacesDrawnByOthers(_ fonts: FontSet) {
  let (regular, bold, italic) = (fonts.regular.path, fonts.bold.path, fonts.italic.path)
  let places = [
    ("bold", fonts.bold, bold == regular), ("italic", fonts.italic, italic == regular),
    ("bold italic", fonts.boldItalic, [regular, bold, italic].contains(fonts.boldItalic.path)),
    ("code", fonts.monospace, fonts.monospace.path == regular),
  ]
  var byFace: [(file: String, styles: [String])] = []
  for (style, face, isMissing) in places where isMissing {
    let file = URL(fileURLWithPath: face.path).lastPathComponent
    if let index = byFace.firstIndex(where: { $0.file == file }) {
      byFace[index].styles.append(style)
    } else {
      byFace.append((file, [style]))
    }
  }
  for (file, styles) in byFace {
    let list = styles.count == 1 ? styles[0] : styles.dropLast().joined(separator: ", ") + " or " + styles.last!
    note(
      "the --font files have no \(list) face: drawn in \(file) as it is (the page turns font synthesis off, so no bold or slant is made up)"
    )
  }
}

func run() -> Int32 {
  let environment = ProcessInfo.processInfo.environment
  let arguments: Arguments
  do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
  } catch {
    return fail(error.message, status: 2)
  }
  if arguments.help {
    print(Arguments.usage)
    return 0
  }
  if arguments.version {
    print("unfold \(Unfold.version)")
    return 0
  }
  if arguments.widthPixels != nil && [.ansi, .plain].contains(arguments.format) {
    return fail("--width in px applies to --format html and json only", status: 2)
  }
  if arguments.engine != nil && arguments.format != .html && (arguments.format != .json || arguments.widthPixels == nil)
  {
    return fail("--engine applies to --format html, and json with --width Npx, only", status: 2)
  }
  // Cells and px do not convert: a width in cells for html would be a guess.
  if arguments.format == .html, arguments.widthPixels == nil, let cells = arguments.width {
    return fail("--width \(cells) is in cells; html needs px (e.g. --width \(cells)px)", status: 2)
  }

  // String tables.
  var localizations = Localizations()
  var problems: [LocalizationError] = []
  for path in arguments.strings { problems += localizations.load(path) }
  if !problems.isEmpty {
    for problem in problems { FileHandle.standardError.write(Data("unfold: \(problem)\n".utf8)) }
    return 1
  }
  if arguments.checkStrings {
    let report = localizations.check()
    for finding in report.findings { print(finding) }
    print(report.summary)
    return report.findings.isEmpty ? 0 : 1
  }

  // Fonts, for HTML and for JSON in px.
  var fonts: FontSet?
  if arguments.format == .html || arguments.widthPixels != nil {
    do {
      if let folder = arguments.fontDirectory {
        let reading = try FontSet.folder(folder, size: arguments.fontSize, lineHeight: arguments.lineHeight)
        fonts = reading.fonts
        for file in reading.leftOut where !file.wasRead { note("\(file.path): left out: \(file.reason)") }
        let others = reading.leftOut.filter(\.wasRead)
        if !others.isEmpty {
          let names = others.map { URL(fileURLWithPath: $0.path).lastPathComponent }
          note(
            "\(folder): drawing in \(reading.fonts.regular.familyName ?? reading.fonts.regular.path); "
              + "\(others.count) other faces left out (\(names.joined(separator: ", ")))")
        }
      } else if !arguments.fonts.isEmpty {
        let given = try FontSet.files(arguments.fonts, size: arguments.fontSize, lineHeight: arguments.lineHeight)
        fonts = given
        noteFacesDrawnByOthers(given)
      } else {
        fonts = try FontSet.dejaVu(size: arguments.fontSize, lineHeight: arguments.lineHeight)
      }
    } catch {
      let hint =
        arguments.fonts.isEmpty && arguments.fontDirectory == nil ? " (install fonts-dejavu-core, or give --font)" : ""
      return fail("\(error)\(hint)", status: 1)
    }
    do {
      if let families = arguments.fallbacks {
        var fallbacks: [FontFamily] = []
        for files in families { fallbacks.append(try FontFamily.files(files)) }
        fonts?.fallbacks = fallbacks
      } else {
        fonts?.fallbacks = FontFamily.notoFallbacks()
      }
    } catch {
      return fail("\(error) (a --fallback file; give another, or --no-fallback)", status: 1)
    }
    fonts?.kerningAndLigatures = arguments.kerning
  }

  let width = arguments.width ?? Terminal.defaultWidth(environment: environment)
  let state: DisplayState = arguments.expanded ? .expanded : .collapsed
  var truncation: TruncationOptions
  switch arguments.preset {
  case .expandableText: truncation = .expandableText
  case .readMoreText: truncation = .readMoreText
  case nil: truncation = TruncationOptions()
  }
  if arguments.linesGiven || arguments.preset == nil { truncation.lineLimit = arguments.lines }
  if arguments.moreLabelGiven { truncation.moreLabel = arguments.moreLabel }
  if let less = arguments.lessLabel { truncation.lessLabel = less }
  if let ellipsis = arguments.ellipsis { truncation.ellipsis = ellipsis }
  if let mode = arguments.truncation { truncation.mode = mode }
  if let toggle = arguments.toggle { truncation.toggle = toggle }
  if arguments.collapseBlankLines { truncation.collapsesBlankLines = true }
  if arguments.reserveSpace { truncation.reservesSpace = true }
  let interactive = arguments.interactive
  if interactive && !(Terminal.inputIsTerminal && Terminal.outputIsTerminal) {
    return fail("--interactive needs a terminal on standard input and output", status: 1)
  }

  // The input: read only as much as a collapsed verbatim preview shows, else all of it.
  let input: Input
  do {
    input = try Input(arguments.file)
  } catch {
    return fail(error.message, status: 1)
  }
  var paragraph: Paragraph
  do {
    if arguments.verbatim {
      let settings = Paragraph(
        TextSource(verbatim: ""), options: truncation, cellWidths: arguments.widths, breakRules: arguments.breaks)
      let streams =
        state == .collapsed && !interactive && !arguments.scroll && settings.collapsedViewNeedsOnlyAPrefix
        && [.ansi, .plain].contains(arguments.format)
      let text: String
      if streams {
        text = try input.readPrefix { settings.collapsedView(isSettledBy: $0, width: width) }.text
      } else {
        text = try input.readAll()
      }
      paragraph = Paragraph(
        TextSource(verbatim: text), options: truncation, cellWidths: arguments.widths, breakRules: arguments.breaks)
    } else {
      var key = try input.readAll()
      // A key read from a file or a pipe ends with the file's line end, which is not part of the key.
      if key.hasSuffix("\n") || key.hasSuffix("\r\n") { key.removeLast() }
      let localizedKey =
        arguments.args.isEmpty
        ? LocalizedKey(key) : LocalizedKey(key, arguments: arguments.args.map(FormatArgument.text))
      let source = TextSource(
        localizedKey,
        TextSource.Localization(
          localizations, locale: arguments.locale, table: arguments.table ?? defaultTable(arguments.strings),
          device: arguments.device, autolinks: arguments.autolinks))
      // Only tables and arguments can go wrong in the lookup: without either the key is its own text, and is
      // not resolved twice (a long one's markdown parsed once more for nothing).
      if !arguments.strings.isEmpty || !arguments.args.isEmpty,
        let status = report(source.resolve().diagnostics, argumentsGiven: !arguments.args.isEmpty)
      {
        return status
      }
      paragraph = Paragraph(source, options: truncation, cellWidths: arguments.widths, breakRules: arguments.breaks)
    }
  } catch {
    return fail(error.message, status: 1)
  }

  let colors: ColorLevel
  switch arguments.color {
  case .auto: colors = ColorLevel.detect(environment: environment, isTerminal: Terminal.outputIsTerminal)
  case .always:
    colors = max(
      .ansi16, ColorLevel.detect(environment: ["FORCE_COLOR": "1"].merging(environment) { $1 }, isTerminal: true))
  case .never: colors = .none
  case .ansi16: colors = .ansi16
  case .ansi256: colors = .ansi256
  case .truecolor: colors = .truecolor
  }
  paragraph = paragraph.scrollable(arguments.scroll)
  if let style = arguments.textStyle { paragraph = paragraph.textStyle(style) }
  let background: ANSIRenderer.Background
  switch arguments.theme {
  case .light: background = .light
  case .dark: background = .dark
  case nil: background = .detect(environment: environment)
  }
  var renderer = ANSIRenderer(
    colors: arguments.format == .plain ? .none : colors,
    toggleStyle: arguments.moreStyle ?? ANSIRenderer.defaultToggleStyle, background: background)
  renderer.reordersRightToLeft = arguments.bidi == .visual

  if interactive {
    var view = InteractiveView(
      paragraph: paragraph, fixedWidth: arguments.width, renderer: renderer, scrolls: arguments.scroll)
    view.asksBackground = arguments.theme == nil && renderer.colors > .ansi16
    return view.run()
  }

  let output: String
  switch arguments.format {
  case .ansi, .plain:
    output = paragraph.ansi(width: width, state: state, renderer: renderer)
  case .html:
    var options = HTMLOptions(standalone: arguments.standalone)
    if let prefix = arguments.fontURL { options.fontSource = .url(prefix: prefix) }
    options.id = arguments.id
    if !arguments.verbatim && !arguments.strings.isEmpty { options.language = arguments.locale }
    let rendered = paragraph.html(
      width: arguments.widthPixels ?? 320, fonts: fonts!, engine: arguments.engine ?? .any, state: state,
      options: options)
    for warning in rendered.diagnostics {
      FileHandle.standardError.write(Data("unfold: warning: \(warning.message)\n".utf8))
    }
    output = rendered.html
  case .json:
    if let pixels = arguments.widthPixels, let fonts {
      output = paragraph.json(width: pixels, fonts: fonts, engine: arguments.engine ?? .any, state: state) + "\n"
    } else {
      output = paragraph.json(width: width, state: state) + "\n"
    }
  case .breaks:
    output = paragraph.breaks()
  case .runs:
    output = paragraph.source.resolve().text.debugDump()
  }
  FileHandle.standardOutput.write(Data(output.utf8))
  return 0
}

exit(run())
