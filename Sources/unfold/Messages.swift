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
