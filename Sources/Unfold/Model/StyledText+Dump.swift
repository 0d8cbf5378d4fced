extension StyledText {
  /// A stable, human-readable dump: one run per line, its style and its text quoted.
  ///
  ///     plain "Hello, "
  ///     bold "world"
  ///
  /// Golden files store this format; it changes only when the parse changes.
  public func debugDump() -> String {
    runRanges.map { "\($0.style) \(string.utf8Slice($0.range).quotedForDump)\n" }.joined()
  }
}

extension StringProtocol {
  /// The text in double quotes, with `\`, `"`, newlines, tabs and every other control character escaped so
  /// that a dump stays one line per item and shows what is really there.
  var quotedForDump: String {
    var result = "\""
    for scalar in unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
          result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
