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
  let input: String
  do {
    input = try readInput(arguments.file)
  } catch {
    FileHandle.standardError.write(Data("unfold: \(error.message)\n".utf8))
    return 1
  }
  let source = arguments.verbatim ? TextSource(verbatim: input) : TextSource(LocalizedKey(input))
  let paragraph = Paragraph(
    source,
    options: TruncationOptions(
      lineLimit: arguments.lines, moreLabel: arguments.moreLabel, lessLabel: arguments.lessLabel),
    cellWidths: arguments.widths, breakRules: arguments.breaks)
  let width = arguments.width ?? Terminal.defaultWidth(environment: environment)
  let state: DisplayState = arguments.expanded ? .expanded : .collapsed
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
  case .html: output = paragraph.html(width: width, state: state)
  case .json: output = paragraph.json(width: width, state: state) + "\n"
  case .breaks: output = paragraph.breaks()
  case .runs: output = source.resolve().text.debugDump()
  }
  FileHandle.standardOutput.write(Data(output.utf8))
  return 0
}

exit(run())
