/// Reads JSON (RFC 8259) into ``DocumentNode``s that remember their line and column, for String Catalogs.
///
/// Nesting deeper than 200 levels is an error rather than a stack overflow.
struct JSONReader {
  private let bytes: [UInt8]
  private let file: String
  private var index = 0
  private var line = 1
  private var column = 1
  private var depth = 0

  init(_ bytes: [UInt8], file: String) {
    self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    self.file = file
  }

  /// The document's one value.
  mutating func read() throws(LocalizationError) -> DocumentNode {
    if let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
      throw LocalizationError(file: file, message: "invalid UTF-8 at byte \(bad)")
    }
    skipSpace()
    let node = try value()
    skipSpace()
    guard index == bytes.count else { throw error("expected the end of the document, found \(describe())") }
    return node
  }

  private func error(_ message: String) -> LocalizationError {
    LocalizationError(file: file, line: line, column: column, message: message)
  }

  private func describe() -> String {
    guard index < bytes.count else { return "the end of the file" }
    let byte = bytes[index]
    return byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
  }

  private mutating func advance() {
    if bytes[index] == 0x0A {
      line += 1
      column = 1
    } else if bytes[index] & 0xC0 != 0x80 {
      column += 1
    }
    index += 1
  }

  private mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { advance() }
  }

  private mutating func expect(_ literal: String) throws(LocalizationError) {
    for byte in literal.utf8 {
      guard index < bytes.count, bytes[index] == byte else { throw error("expected \(literal), found \(describe())") }
      advance()
    }
  }

  private mutating func value() throws(LocalizationError) -> DocumentNode {
    let (startLine, startColumn) = (line, column)
    guard index < bytes.count else { throw error("expected a value, found the end of the file") }
    func node(_ value: DocumentNode.Value) -> DocumentNode {
      DocumentNode(value: value, line: startLine, column: startColumn)
    }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      depth += 1
      defer { depth -= 1 }
      guard depth <= 200 else { throw error("nested more than 200 levels deep") }
      advance()
      var entries: [(key: String, value: DocumentNode)] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        advance()
        return node(.dictionary(entries))
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
          throw error("expected a quoted key, found \(describe())")
        }
        let key = try string()
        skipSpace()
        try expect(":")
        skipSpace()
        entries.append((key, try value()))
        skipSpace()
        guard index < bytes.count else { throw error("expected ',' or '}', found the end of the file") }
        if bytes[index] == UInt8(ascii: ",") {
          advance()
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}', found \(describe())") }
        advance()
        return node(.dictionary(entries))
      }
    case UInt8(ascii: "["):
      depth += 1
      defer { depth -= 1 }
      guard depth <= 200 else { throw error("nested more than 200 levels deep") }
      advance()
      var items: [DocumentNode] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        advance()
        return node(.array(items))
      }
      while true {
        skipSpace()
        items.append(try value())
        skipSpace()
        guard index < bytes.count else { throw error("expected ',' or ']', found the end of the file") }
        if bytes[index] == UInt8(ascii: ",") {
          advance()
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']', found \(describe())") }
        advance()
        return node(.array(items))
      }
    case UInt8(ascii: "\""):
      return node(.string(try string()))
    case UInt8(ascii: "t"):
      try expect("true")
      return node(.scalar("true"))
    case UInt8(ascii: "f"):
      try expect("false")
      return node(.scalar("false"))
    case UInt8(ascii: "n"):
      try expect("null")
      return node(.null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      var text = ""
      while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) {
        text.unicodeScalars.append(Unicode.Scalar(bytes[index]))
        advance()
      }
      guard Double(text) != nil else { throw error("expected a number, found \(text.debugDescription)") }
      return node(.scalar(text))
    default:
      throw error("expected a value, found \(describe())")
    }
  }

  private mutating func string() throws(LocalizationError) -> String {
    advance()  // the opening quote
    var result: [UInt8] = []
    var pendingHigh: UInt32?
    while true {
      guard index < bytes.count else { throw error("unterminated string: expected a closing '\"'") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        advance()
        if pendingHigh != nil { result += Array("\u{FFFD}".utf8) }
        return String(decoding: result, as: UTF8.self)
      }
      guard byte >= 0x20 else {
        throw error("expected an escaped control character in a string, found byte 0x\(String(byte, radix: 16))")
      }
      guard byte == UInt8(ascii: "\\") else {
        if pendingHigh != nil {
          result += Array("\u{FFFD}".utf8)
          pendingHigh = nil
        }
        result.append(byte)
        advance()
        continue
      }
      advance()
      guard index < bytes.count else { throw error("unterminated string: expected a closing '\"'") }
      let escape = bytes[index]
      advance()
      switch escape {
      case UInt8(ascii: "u"):
        var value: UInt32 = 0
        for _ in 0..<4 {
          guard index < bytes.count, let nibble = UInt32(String(Unicode.Scalar(bytes[index])), radix: 16) else {
            throw error("expected four hexadecimal digits after \\u")
          }
          value = value << 4 | nibble
          advance()
        }
        if (0xD800...0xDBFF).contains(value) {
          if pendingHigh != nil { result += Array("\u{FFFD}".utf8) }
          pendingHigh = value
        } else if (0xDC00...0xDFFF).contains(value), let high = pendingHigh {
          let scalar = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (value - 0xDC00)) ?? "\u{FFFD}"
          result += Array(String(scalar).utf8)
          pendingHigh = nil
        } else {
          if pendingHigh != nil { result += Array("\u{FFFD}".utf8) }
          pendingHigh = nil
          result += Array(String(Unicode.Scalar(value) ?? "\u{FFFD}").utf8)
        }
      default:
        if pendingHigh != nil {
          result += Array("\u{FFFD}".utf8)
          pendingHigh = nil
        }
        let map: [UInt8: UInt8] = [
          UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
          UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        guard let mapped = map[escape] else { throw error("unknown escape \\\(Character(Unicode.Scalar(escape)))") }
        result.append(mapped)
      }
    }
  }
}
