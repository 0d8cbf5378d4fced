import Foundation
import Unfold

/// Writes `message` on standard error and returns `status`.
func fail(_ message: String, status: Int32) -> Int32 {
  FileHandle.standardError.write(Data("unfold: \(message)\n".utf8))
  return status
}

/// Writes a note on standard error: something the command decided that the user may want to know.
func note(_ message: String) {
  FileHandle.standardError.write(Data("unfold: note: \(message)\n".utf8))
}

/// Writes a warning on standard error.
func warn(_ message: String) {
  FileHandle.standardError.write(Data("unfold: warning: \(message)\n".utf8))
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
    warn(diagnostic.message)
  }
  return nil
}

/// Parses the arguments, reads the input, and writes the output (or runs the interactive view).
func run() -> Int32 {
  let environment = ProcessInfo.processInfo.environment
  let arguments: Arguments
  do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    if arguments.help {
      print(Arguments.usage)
      return 0
    }
    if arguments.version {
      print("unfold \(Unfold.version)")
      return 0
    }
    try arguments.validate()
  } catch {
    return fail(error.message, status: 2)
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

  let width = arguments.width ?? Terminal.defaultWidth(environment: environment)
  var fonts: FontSet?
  let paragraph: Paragraph
  do {
    if arguments.measuresInFonts {
      let loaded = try arguments.loadFonts()
      loaded.notes.forEach(note)
      fonts = loaded.fonts
    }
    if arguments.interactive && !(Terminal.inputIsTerminal && Terminal.outputIsTerminal) {
      return fail("--interactive needs a terminal on standard input and output", status: 1)
    }
    // The input: read only as much as a collapsed verbatim preview shows, else all of it.
    let input = try Input(arguments.file)
    if arguments.verbatim {
      let settings = arguments.paragraph(TextSource(verbatim: ""))
      let text =
        arguments.readsAPrefix
        ? try input.readPrefix { settings.collapsedView(isSettledBy: $0, width: width) }.text : try input.readAll()
      paragraph = arguments.paragraph(TextSource(verbatim: text))
    } else {
      let source = arguments.source(key: try input.readAll(), localizations: localizations)
      // Only tables and arguments can go wrong in the lookup: without either the key is its own text, and is
      // not resolved twice (a long one's markdown parsed once more for nothing).
      if !arguments.strings.isEmpty || !arguments.args.isEmpty,
        let status = report(source.resolve().diagnostics, argumentsGiven: !arguments.args.isEmpty)
      {
        return status
      }
      paragraph = arguments.paragraph(source)
    }
  } catch {
    return fail(error.message, status: 1)
  }

  let renderer = arguments.renderer(environment: environment, isTerminal: Terminal.outputIsTerminal)
  if arguments.interactive {
    var view = InteractiveView(
      paragraph: paragraph, fixedWidth: arguments.width, renderer: renderer, scrolls: arguments.scroll)
    view.asksBackground = arguments.theme == nil && renderer.colors > .ansi16
    return view.run()
  }

  let output: String
  switch arguments.format {
  case .ansi, .plain:
    output = paragraph.ansi(width: width, state: arguments.state, renderer: renderer)
  case .html:
    let rendered = paragraph.html(
      width: arguments.widthPixels ?? 320, fonts: fonts!, engine: arguments.engine ?? .any, state: arguments.state,
      options: arguments.htmlOptions)
    for warning in rendered.diagnostics { warn(warning.message) }
    output = rendered.html
  case .json:
    if let pixels = arguments.widthPixels, let fonts {
      output =
        paragraph.json(width: pixels, fonts: fonts, engine: arguments.engine ?? .any, state: arguments.state) + "\n"
    } else {
      output = paragraph.json(width: width, state: arguments.state) + "\n"
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
