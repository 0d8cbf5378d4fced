/// Reads an XML property list (`.stringsdict`, an XML `.plist`) into ``DocumentNode``s that remember where
/// each value starts, without an XML library.
///
/// It reads the XML that property lists are written in and reports anything else at its line and column:
/// an optional XML declaration and document type (without an internal subset), comments, the elements
/// `plist`, `dict`, `key`, `array`, `string`, `integer`, `real`, `date`, `data`, `true` and `false` with any
/// attributes, character data with the five predefined entities, character references and CDATA sections.
/// Line ends inside a value are kept as written (CR LF stays CR LF), as Foundation's property list reader
/// keeps them, though XML would make them LF: a table reads as it does in an app. The text has been decoded from UTF-8 or UTF-16 already
/// (``TableText``), so an `encoding` in the declaration is not consulted. Processing instructions other than
/// the declaration, text between the elements of a `<dict>` or an `<array>`, and characters that XML
/// forbids (controls other than tab and line ends, U+FFFE, U+FFFF) are errors. Nesting deeper than 200
/// levels is an error rather than a stack overflow.
///
/// Swift-corelibs-foundation's `XMLParser` crashed on two inputs the fuzzer found (a name that is not UTF-8,
/// a processing instruction without a body) and leaked on every malformed document: this reader replaced it.
struct XMLPropertyListReader {
  private let scalars: [Unicode.Scalar]
  private let file: String
  private var index = 0
  private var line = 1
  private var column = 1
  private var depth = 0

  /// The elements whose content is text.
  private static let textElements: Set<String> = ["key", "string", "integer", "real", "date", "data"]

  init(_ text: String, file: String) {
    scalars = Array(text.unicodeScalars)
    self.file = file
  }

  /// The value inside the document's `<plist>`.
  mutating func read() throws(LocalizationError) -> DocumentNode {
    skipWhitespace()
    if startsWith("<?xml"), index + 5 < scalars.count, Self.isWhitespace(scalars[index + 5]) {
      try skip(past: "?>", what: "the XML declaration")
    }
    skipWhitespace()
    guard index == scalars.count || scalars[index] == "<" else { throw malformed("the document is not XML") }
    try skipMisc(allowingDocumentType: true)
    guard index < scalars.count else { throw malformed("the document is empty") }
    let root = try startTag()
    guard root.name == "plist" else {
      throw error("expected <plist> as the root element, found <\(root.name)>", at: root.place)
    }
    var value: DocumentNode?
    if !root.isEmpty {
      while true {
        try skipMisc()
        if startsWith("</") {
          try endTag("plist")
          break
        }
        guard value == nil else { throw error("expected one value in <plist>, found another", at: (line, column)) }
        value = try self.value(depth: 1)
      }
    }
    try skipMisc()
    guard index == scalars.count else { throw malformed("text after the root element") }
    guard let value else { throw error("expected a <plist> with a value, found none", at: root.place) }
    return value
  }

  // MARK: - Values

  private typealias Place = (line: Int, column: Int)

  private struct Tag {
    var name: String
    var isEmpty: Bool
    var place: Place
  }

  /// The value whose start tag begins at the current position.
  private mutating func value(depth: Int) throws(LocalizationError) -> DocumentNode {
    guard depth <= 200 else { throw error("nested more than 200 levels deep", at: (line, column)) }
    let tag = try startTag()
    func node(_ value: DocumentNode.Value) -> DocumentNode {
      DocumentNode(value: value, line: tag.place.line, column: tag.place.column)
    }
    switch tag.name {
    case "dict":
      var entries: [(key: String, value: DocumentNode)] = []
      guard !tag.isEmpty else { return node(.dictionary(entries)) }
      while true {
        try skipMisc(inside: "dict")
        if startsWith("</") {
          try endTag("dict")
          return node(.dictionary(entries))
        }
        let keyTag = try startTag()
        guard keyTag.name == "key" else {
          throw error("expected a <key> before each value in a <dict>", at: keyTag.place)
        }
        let key = keyTag.isEmpty ? "" : try text(of: "key")
        try skipMisc(inside: "dict")
        if startsWith("</") || startsWith("<key>") || startsWith("<key/") {
          throw error("expected a value after <key>\(key)</key>", at: (line, column))
        }
        guard index < scalars.count else { throw endedEarly() }
        entries.append((key, try value(depth: depth + 1)))
      }
    case "array":
      var items: [DocumentNode] = []
      guard !tag.isEmpty else { return node(.array(items)) }
      while true {
        try skipMisc(inside: "array")
        if startsWith("</") {
          try endTag("array")
          return node(.array(items))
        }
        items.append(try value(depth: depth + 1))
      }
    case "key":
      throw error("expected <key> only inside a <dict>, before its value", at: tag.place)
    case let name where Self.textElements.contains(name):
      let content = tag.isEmpty ? "" : try text(of: name)
      return node(name == "string" ? .string(content) : .scalar(content))
    case "true", "false":
      if !tag.isEmpty {
        try skipMisc(inside: tag.name)
        try endTag(tag.name)
      }
      return node(.scalar(tag.name))
    default:
      throw error("unexpected element <\(tag.name)> in a property list", at: tag.place)
    }
  }

  /// The character data of a text element up to and including its end tag: entities and character
  /// references replaced, CDATA sections taken as they are, comments left out.
  private mutating func text(of element: String) throws(LocalizationError) -> String {
    var text = String.UnicodeScalarView()
    while true {
      guard index < scalars.count else { throw endedEarly() }
      let scalar = scalars[index]
      if scalar == "<" {
        if startsWith("</") {
          try endTag(element)
          return String(text)
        } else if startsWith("<!--") {
          try skip(past: "-->", what: "a comment")
        } else if startsWith("<![CDATA[") {
          let place = (line, column)
          for _ in 0..<9 { advance() }
          while !startsWith("]]>") {
            guard index < scalars.count else { throw error("a CDATA section is not closed", at: place) }
            text.append(try character())
          }
          for _ in 0..<3 { advance() }
        } else if startsWith("<?") {
          throw processingInstruction()
        } else {
          let tag = try startTag()
          throw error("unexpected element <\(tag.name)> inside <\(element)>", at: tag.place)
        }
      } else if scalar == "&" {
        text.append(try reference())
      } else {
        text.append(try character())
      }
    }
  }

  /// The character at the current position; an error for a character XML forbids.
  private mutating func character() throws(LocalizationError) -> Unicode.Scalar {
    let scalar = scalars[index]
    guard Self.isXMLCharacter(scalar) else { throw malformed("an invalid character") }
    advance()
    return scalar
  }

  /// An entity or character reference at the current `&`.
  private mutating func reference() throws(LocalizationError) -> Unicode.Scalar {
    let place = (line, column)
    var name = ""
    var end = index + 1
    while end < scalars.count, scalars[end] != ";", end - index <= 12 { end += 1 }
    guard end < scalars.count, scalars[end] == ";" else {
      throw error("not a well-formed property list (a bare & outside a reference; write &amp;)", at: place)
    }
    name.unicodeScalars.append(contentsOf: scalars[(index + 1)..<end])
    let predefined: [String: Unicode.Scalar] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
    var result = predefined[name]
    if result == nil, name.hasPrefix("#") {
      let digits = name.dropFirst()
      let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
      if let value, let scalar = Unicode.Scalar(value), Self.isXMLCharacter(scalar),
        !digits.hasPrefix("x+"), !digits.hasPrefix("+")
      {
        result = scalar
      } else {
        throw error(
          "not a well-formed property list (the character reference &\(name); is not a character XML allows)",
          at: place)
      }
    }
    guard let result else { throw error("not a well-formed property list (an unknown entity &\(name);)", at: place) }
    while index <= end { advance() }
    return result
  }

  // MARK: - Markup

  /// The start tag at the current position (`<name attributes>` or `<name attributes/>`).
  private mutating func startTag() throws(LocalizationError) -> Tag {
    let place = (line, column)
    guard index < scalars.count else { throw endedEarly() }
    guard scalars[index] == "<" else { throw malformed("text where an element was expected") }
    if startsWith("<?") { throw processingInstruction() }
    if startsWith("<!") { throw malformed("a declaration where an element was expected") }
    advance()
    let name = self.name()
    guard !name.isEmpty else { throw malformed("a tag without a name") }
    while true {
      let hadSpace = skipWhitespace()
      guard index < scalars.count else { throw endedEarly() }
      if scalars[index] == ">" {
        advance()
        return Tag(name: name, isEmpty: false, place: place)
      }
      if startsWith("/>") {
        advance()
        advance()
        return Tag(name: name, isEmpty: true, place: place)
      }
      guard hadSpace else { throw malformed("an attribute is malformed") }
      try attribute()
    }
  }

  /// One `name="value"` (or with single quotes) of a start tag, checked and dropped.
  private mutating func attribute() throws(LocalizationError) {
    guard !name().isEmpty else { throw malformed("an attribute is malformed") }
    skipWhitespace()
    guard index < scalars.count, scalars[index] == "=" else { throw malformed("an attribute is malformed") }
    advance()
    skipWhitespace()
    guard index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" else {
      throw malformed("an attribute is malformed")
    }
    let quote = scalars[index]
    advance()
    while index < scalars.count, scalars[index] != quote {
      guard scalars[index] != "<" else { throw malformed("an attribute is malformed") }
      if scalars[index] == "&" { _ = try reference() } else { _ = try character() }
    }
    guard index < scalars.count else { throw endedEarly() }
    advance()
  }

  /// The end tag of `element` at the current position.
  private mutating func endTag(_ element: String) throws(LocalizationError) {
    let place = (line, column)
    advance()
    advance()
    let name = self.name()
    skipWhitespace()
    guard index < scalars.count else { throw endedEarly() }
    guard name == element, scalars[index] == ">" else {
      throw error(
        "not a well-formed property list (an end tag does not match its start tag: </\(name)> closes <\(element)>)",
        at: place)
    }
    advance()
  }

  /// A name: everything up to white space or markup.
  private mutating func name() -> String {
    var name = String.UnicodeScalarView()
    while index < scalars.count {
      let scalar = scalars[index]
      if Self.isWhitespace(scalar) || "/>=<\"'&".unicodeScalars.contains(scalar) { break }
      name.append(scalar)
      advance()
    }
    return String(name)
  }

  /// Skips white space and comments, and a document type declaration before the root; other text is an
  /// error naming the element it stands in.
  private mutating func skipMisc(
    inside element: String? = nil, allowingDocumentType: Bool = false
  ) throws(LocalizationError) {
    while true {
      skipWhitespace()
      if startsWith("<!--") {
        try skip(past: "-->", what: "a comment")
      } else if allowingDocumentType && startsWith("<!DOCTYPE") {
        let place = (line, column)
        var quote: Unicode.Scalar?
        while index < scalars.count {
          let scalar = scalars[index]
          if let open = quote {
            if scalar == open { quote = nil }
          } else if scalar == "\"" || scalar == "'" {
            quote = scalar
          } else if scalar == "[" {
            throw error("a document type with declarations, which a property list does not use", at: (line, column))
          } else if scalar == ">" {
            break
          }
          _ = try character()
        }
        guard index < scalars.count else { throw error("the document type declaration is not closed", at: place) }
        advance()
      } else if startsWith("<?") {
        throw processingInstruction()
      } else if index < scalars.count, scalars[index] != "<" {
        guard Self.isXMLCharacter(scalars[index]) else { throw malformed("an invalid character") }
        throw error("unexpected text \(element.map { "in a <\($0)>" } ?? "outside the elements")", at: (line, column))
      } else {
        return
      }
    }
  }

  /// Skips to just after `terminator`, through the characters that XML allows.
  private mutating func skip(past terminator: String, what: String) throws(LocalizationError) {
    let place = (line, column)
    while !startsWith(terminator) {
      guard index < scalars.count else { throw error("\(what) is not closed", at: place) }
      _ = try character()
    }
    for _ in terminator.unicodeScalars { advance() }
  }

  @discardableResult
  private mutating func skipWhitespace() -> Bool {
    let start = index
    while index < scalars.count, Self.isWhitespace(scalars[index]) { advance() }
    return index > start
  }

  private func startsWith(_ prefix: String) -> Bool {
    var position = index
    for scalar in prefix.unicodeScalars {
      guard position < scalars.count, scalars[position] == scalar else { return false }
      position += 1
    }
    return true
  }

  /// Moves past one code point, counting lines (LF, CR LF, a lone CR) and columns (code points).
  private mutating func advance() {
    let scalar = scalars[index]
    index += 1
    if scalar == "\n" || (scalar == "\r" && (index == scalars.count || scalars[index] != "\n")) {
      line += 1
      column = 1
    } else if scalar != "\r" {
      column += 1
    }
  }

  // MARK: - Errors

  private func error(_ message: String, at place: Place) -> LocalizationError {
    LocalizationError(file: file, line: place.line, column: place.column, message: message)
  }

  /// Not well-formed XML, at the current position.
  private func malformed(_ reason: String) -> LocalizationError {
    error("not a well-formed property list (\(reason))", at: (line, column))
  }

  private func endedEarly() -> LocalizationError {
    malformed("the document ends before its elements are closed")
  }

  private func processingInstruction() -> LocalizationError {
    error("a processing instruction, which a property list does not use", at: (line, column))
  }

  private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r"
  }

  /// XML 1.0's `Char`: tab, LF, CR, and everything from U+0020 but U+FFFE and U+FFFF (a Swift string
  /// holds no surrogate).
  private static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D: return true
    case 0x20...0xFFFD, 0x10000...: return true
    default: return false
    }
  }
}
