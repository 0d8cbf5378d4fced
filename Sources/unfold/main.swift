import Foundation
import Unfold

/// A runtime problem: printed in one line, exit status 1.
struct RuntimeError: Error {
  var message: String
}

func readInput(_ path: String?) throws(RuntimeError) -> String {
  let data: Data
  let name = path ?? "-"
  if name == "-" {
    data = FileHandle.standardInput.readDataToEndOfFile()
  } else {
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: name))
    } catch {
      let reason = FileManager.default.fileExists(atPath: name) ? "cannot read" : "no such file"
      throw RuntimeError(message: "\(name): \(reason)")
    }
  }
  if let offset = UTF8Validation.firstInvalidOffset(in: data) {
    throw RuntimeError(message: "\(name == "-" ? "standard input" : name): invalid UTF-8 at byte \(offset)")
  }
  return String(decoding: data, as: UTF8.self)
}

func run() -> Int32 {
  let environment = ProcessInfo.processInfo.environment
  let arguments: Arguments
  do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
  } catch {
    FileHandle.standardError.write(Data("unfold: \(error.message)\n".utf8))
    return 2
  }
  if arguments.help {
    print(Arguments.usage)
    return 0
  }
  if arguments.version {
    print("unfold \(Unfold.version)")
    return 0
  }
  var localizations = Localizations()
  var problems: [LocalizationError] = []
  for path in arguments.strings { problems += localizations.load(path) }
  if !problems.isEmpty {
    for problem in problems { FileHandle.standardError.write(Data("unfold: \(problem)\n".utf8)) }
    return 1
  }
  if arguments.checkStrings {
    let (resolved, findings) = localizations.check()
    for finding in findings { print(finding) }
    print("checked \(resolved) keys in \(localizations.tableNames.count) tables: \(findings.count) problems")
    return findings.isEmpty ? 0 : 1
  }
  var input: String
  do {
    input = try readInput(arguments.file)
  } catch {
    FileHandle.standardError.write(Data("unfold: \(error.message)\n".utf8))
    return 1
  }
  let source: TextSource
  if arguments.verbatim {
    source = TextSource(verbatim: input)
  } else {
    // A key read from a file or a pipe ends with the file's line end, which is not part of the key.
    if input.hasSuffix("\n") || input.hasSuffix("\r\n") { input.removeLast() }
    let key =
      arguments.args.isEmpty
      ? LocalizedKey(input) : LocalizedKey(input, arguments: arguments.args.map(FormatArgument.text))
    source = TextSource(
      key,
      TextSource.Localization(localizations, locale: arguments.locale, table: arguments.table, device: arguments.device)
    )
  }
  let paragraph = Paragraph(
    source,
    options: TruncationOptions(
      lineLimit: arguments.lines, moreLabel: arguments.moreLabel, lessLabel: arguments.lessLabel),
    cellWidths: arguments.widths, breakRules: arguments.breaks)
  let width = arguments.width ?? Terminal.defaultWidth(environment: environment)
  let state: DisplayState = arguments.expanded ? .expanded : .collapsed
  var fonts: FontSet?
  if arguments.format == .html || arguments.widthPixels != nil {
    do {
      if let folder = arguments.fontDirectory {
        fonts = try FontSet.folder(folder, size: arguments.fontSize, lineHeight: arguments.lineHeight)
      } else if !arguments.fonts.isEmpty {
        fonts = try FontSet.files(arguments.fonts, size: arguments.fontSize, lineHeight: arguments.lineHeight)
      } else {
        fonts = try FontSet.dejaVu(size: arguments.fontSize, lineHeight: arguments.lineHeight)
      }
    } catch {
      let hint =
        arguments.fonts.isEmpty && arguments.fontDirectory == nil ? " (install fonts-dejavu-core, or give --font)" : ""
      FileHandle.standardError.write(Data("unfold: \(error)\(hint)\n".utf8))
      return 1
    }
  }
  if arguments.widthPixels != nil && [.ansi, .plain].contains(arguments.format) {
    FileHandle.standardError.write(Data("unfold: --width in px applies to --format html and json only\n".utf8))
    return 2
  }
  let output: String
  switch arguments.format {
  case .ansi:
    let colors: Bool
    switch arguments.color {
    case .always: colors = true
    case .never: colors = false
    case .auto: colors = Terminal.autoColors(environment: environment)
    }
    output = paragraph.ansi(width: width, state: state, colors: colors)
  case .plain: output = paragraph.ansi(width: width, state: state, colors: false)
  case .html:
    var options = HTMLOptions(standalone: arguments.standalone)
    if let prefix = arguments.fontURL { options.fontSource = .url(prefix: prefix) }
    if !arguments.verbatim && !arguments.strings.isEmpty { options.language = arguments.locale }
    let rendered = paragraph.renderHTML(
      width: arguments.widthPixels ?? 320, fonts: fonts!, state: state, options: options)
    for warning in rendered.warnings {
      FileHandle.standardError.write(Data("unfold: warning: \(warning.message)\n".utf8))
    }
    output = rendered.html
  case .json:
    if let pixels = arguments.widthPixels, let fonts {
      output = paragraph.json(width: pixels, fonts: fonts, state: state) + "\n"
    } else {
      output = paragraph.json(width: width, state: state) + "\n"
    }
  case .breaks: output = paragraph.breaks()
  case .runs: output = source.resolve().text.debugDump()
  }
  FileHandle.standardOutput.write(Data(output.utf8))
  return 0
}

exit(run())
