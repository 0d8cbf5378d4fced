/// Reads `.strings` files: `"key" = "value";` pairs, as Apple's old-style property list reader does.
///
/// - Strings are double-quoted, single-quoted, or unquoted when made of letters, digits and `_ $ + / : . -`.
/// - `"key";` alone means the value is the key.
/// - Comments: `/* ... */` and `// ...` to the end of the line.
/// - Escapes: `\n \t \r \" \' \\ \a \b \f \v`, octal `\101`, `\U00E9` (four hex digits, a UTF-16 unit; a
///   surrogate pair `\UD83D\UDE00` makes one character). A lone surrogate becomes U+FFFD and is reported.
/// - A later duplicate key wins.
///
/// Anything else is an error that names the line and column and what was expected, for example a missing
/// `;`, an unterminated string or comment, or a nested `{ ... }` dictionary.
struct StringsFileParser {
  private let scalars: [Unicode.Scalar]
  private let file: String
  private var index = 0
  private var line = 1
  private var column = 1
  /// Non-fatal problems (lone surrogates).
  private(set) var warnings: [LocalizationError] = []

  init(_ text: String, file: String) {
    scalars = Array(text.unicodeScalars)
    self.file = file
  }

  /// The pairs, in order.
  mutating func parse() throws(LocalizationError) -> [(key: String, value: String)] {
    var pairs: [(key: String, value: String)] = []
    while true {
      try skipSpaceAndComments()
      guard let scalar = peek() else { return pairs }
      guard isStringStart(scalar) else { throw error("expected a quoted key, found \(describe(scalar))") }
      let key = try string()
      try skipSpaceAndComments()
      if peek() == ";" {
        advance()
        pairs.append((key, key))
        continue
      }
      guard peek() == "=" else {
        throw error("expected '=' or ';' after the key \(key.debugDescription), found \(describe(peek()))")
      }
      advance()
      try skipSpaceAndComments()
      guard let start = peek(), isStringStart(start) else {
        if peek() == "{" || peek() == "(" {
          throw error(
            "expected a string value for \(key.debugDescription), found a nested \(peek() == "{" ? "dictionary" : "array")"
          )
        }
        throw error("expected a string value for \(key.debugDescription), found \(describe(peek()))")
      }
      let value = try string()
      try skipSpaceAndComments()
      guard peek() == ";" else {
        throw error("expected ';' after the value of \(key.debugDescription), found \(describe(peek()))")
      }
      advance()
      pairs.append((key, value))
    }
  }

  private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
    index + ahead < scalars.count ? scalars[index + ahead] : nil
  }

  private mutating func advance() {
    if scalars[index] == "\n" {
      line += 1
      column = 1
    } else {
      column += 1
    }
    index += 1
  }

  private func error(_ message: String, line: Int? = nil, column: Int? = nil) -> LocalizationError {
    LocalizationError(file: file, line: line ?? self.line, column: column ?? self.column, message: message)
  }

  private func describe(_ scalar: Unicode.Scalar?) -> String {
    guard let scalar else { return "the end of the file" }
    if scalar.properties.isWhitespace || scalar.value < 0x20 {
      return "U+\(String(scalar.value, radix: 16, uppercase: true))"
    }
    return "'\(scalar)'"
  }

  private func isStringStart(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\"" || scalar == "'" || isUnquoted(scalar)
  }

  private func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
      || "_$+/:.-".unicodeScalars.contains(scalar)
  }

  private mutating func skipSpaceAndComments() throws(LocalizationError) {
    while let scalar = peek() {
      if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
        advance()
      } else if scalar == "/" && peek(1) == "*" {
        let (startLine, startColumn) = (line, column)
        advance()
        advance()
        while !(peek() == "*" && peek(1) == "/") {
          guard peek() != nil else {
            throw error("unterminated comment: expected '*/'", line: startLine, column: startColumn)
          }
          advance()
        }
        advance()
        advance()
      } else if scalar == "/" && peek(1) == "/" {
        while let next = peek(), next != "\n" { advance() }
      } else {
        return
      }
    }
  }

  private mutating func string() throws(LocalizationError) -> String {
    guard let first = peek() else { throw error("expected a string, found the end of the file") }
    return isUnquoted(first) ? unquotedString() : try quotedString(closedBy: first)
  }

  /// A string of letters, digits and `_ $ + / : . -`, with no quotes.
  private mutating func unquotedString() -> String {
    var result = ""
    while let scalar = peek(), isUnquoted(scalar) {
      result.unicodeScalars.append(scalar)
      advance()
    }
    return result
  }

  /// A `\U` escape of a high surrogate, waiting for the low one that makes a pair with it.
  private struct HighSurrogate {
    var value: UInt32
    var line: Int
    var column: Int
  }

  /// A string between two `quote`s, its escapes decoded.
  private mutating func quotedString(closedBy quote: Unicode.Scalar) throws(LocalizationError) -> String {
    let (startLine, startColumn) = (line, column)
    advance()
    var result = String.UnicodeScalarView()
    var pendingHigh: HighSurrogate?
    while true {
      guard let scalar = peek() else {
        throw error("unterminated string: expected a closing \(quote)", line: startLine, column: startColumn)
      }
      if scalar == quote {
        flush(&pendingHigh, into: &result)
        advance()
        return String(result)
      }
      guard scalar == "\\" else {
        flush(&pendingHigh, into: &result)
        result.append(scalar)
        advance()
        continue
      }
      let (escapeLine, escapeColumn) = (line, column)
      advance()
      guard let escaped = peek() else {
        throw error("unterminated string: expected a closing \(quote)", line: startLine, column: startColumn)
      }
      advance()
      switch escaped {
      case "U", "u":
        let value = try hexadecimalUnit(after: escaped)
        appendUnit(value, line: escapeLine, column: escapeColumn, pendingHigh: &pendingHigh, to: &result)
      case "0"..."7":
        flush(&pendingHigh, into: &result)
        result.append(octal(startingWith: escaped))
      default:
        flush(&pendingHigh, into: &result)
        let map: [Unicode.Scalar: Unicode.Scalar] = [
          "n": "\n", "t": "\t", "r": "\r", "a": "\u{07}", "b": "\u{08}", "f": "\u{0C}", "v": "\u{0B}",
        ]
        result.append(map[escaped] ?? escaped)
      }
    }
  }

  /// The four hexadecimal digits of a `\U` escape: a UTF-16 unit.
  private mutating func hexadecimalUnit(after escaped: Unicode.Scalar) throws(LocalizationError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = peek(), let nibble = UInt32(String(digit), radix: 16) else {
        throw error("expected four hexadecimal digits after \\\(escaped)")
      }
      value = value << 4 | nibble
      advance()
    }
    return value
  }

  /// The code point of an octal escape: its first digit, and up to two more.
  private mutating func octal(startingWith first: Unicode.Scalar) -> Unicode.Scalar {
    var value = first.value - 48
    for _ in 0..<2 {
      guard let digit = peek(), ("0"..."7").contains(digit) else { break }
      value = value * 8 + digit.value - 48
      advance()
    }
    return Unicode.Scalar(value) ?? "\u{FFFD}"
  }

  /// Appends the UTF-16 unit of a `\U` escape at `line` and `column`: a high surrogate waits for its pair, a low one
  /// completes it, and a surrogate alone becomes U+FFFD, with a warning.
  private mutating func appendUnit(
    _ value: UInt32, line: Int, column: Int, pendingHigh: inout HighSurrogate?,
    to result: inout String.UnicodeScalarView
  ) {
    switch value {
    case 0xD800...0xDBFF:
      flush(&pendingHigh, into: &result)
      pendingHigh = HighSurrogate(value: value, line: line, column: column)
    case 0xDC00...0xDFFF:
      if let high = pendingHigh, let pair = Unicode.Scalar(0x10000 + (high.value - 0xD800) << 10 + (value - 0xDC00)) {
        result.append(pair)
        pendingHigh = nil
      } else {
        flush(&pendingHigh, into: &result)
        loneSurrogate(value, line: line, column: column, to: &result)
      }
    default:
      flush(&pendingHigh, into: &result)
      result.append(Unicode.Scalar(value) ?? "\u{FFFD}")
    }
  }

  /// A high surrogate that no low one followed becomes U+FFFD, with a warning.
  private mutating func flush(_ pendingHigh: inout HighSurrogate?, into result: inout String.UnicodeScalarView) {
    guard let high = pendingHigh else { return }
    loneSurrogate(high.value, line: high.line, column: high.column, to: &result)
    pendingHigh = nil
  }

  private mutating func loneSurrogate(
    _ value: UInt32, line: Int, column: Int, to result: inout String.UnicodeScalarView
  ) {
    result.append("\u{FFFD}")
    warnings.append(
      error(
        "lone surrogate \\U\(String(value, radix: 16, uppercase: true)) becomes U+FFFD", line: line, column: column))
  }
}
