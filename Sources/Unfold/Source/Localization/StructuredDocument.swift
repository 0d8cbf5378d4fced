import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A property list or JSON value with the place it was read from, so that a table that is well formed but
/// has the wrong shape can still be reported at a line and column.
struct DocumentNode: Sendable {
  indirect enum Value: Sendable {
    case dictionary([(key: String, value: DocumentNode)])
    case array([DocumentNode])
    case string(String)
    /// A number, boolean, date or data: kept as written.
    case scalar(String)
    case null
  }

  var value: Value
  var line: Int?
  var column: Int?

  /// What the value is, for messages.
  var kind: String {
    switch value {
    case .dictionary: return "a dictionary"
    case .array: return "an array"
    case .string: return "a string"
    case .scalar(let text): return "the value \(text)"
    case .null: return "null"
    }
  }

  /// An error placed at this node.
  func error(_ file: String, _ message: String) -> LocalizationError {
    LocalizationError(file: file, line: line, column: column, message: message)
  }

  /// The entries of a dictionary, or an error naming what was expected.
  func dictionary(_ file: String, _ what: String) throws(LocalizationError) -> [(key: String, value: DocumentNode)] {
    guard case .dictionary(let entries) = value else {
      throw error(file, "expected a dictionary for \(what), found \(kind)")
    }
    return entries
  }

  /// The string, or an error naming what was expected.
  func string(_ file: String, _ what: String) throws(LocalizationError) -> String {
    guard case .string(let text) = value else { throw error(file, "expected a string for \(what), found \(kind)") }
    return text
  }

  /// The value for a key of a dictionary node.
  func member(_ key: String) -> DocumentNode? {
    guard case .dictionary(let entries) = value else { return nil }
    return entries.last { $0.key == key }?.value
  }
}

/// Reads XML property lists (with places, through `XMLParser`) and binary ones (through
/// `PropertyListSerialization`, without places).
enum PropertyListReader {
  static func read(_ data: Data, file: String) throws(LocalizationError) -> DocumentNode {
    if data.starts(with: Array("bplist".utf8)) {
      do {
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        return node(from: object)
      } catch {
        throw LocalizationError(file: file, message: "unreadable binary property list")
      }
    }
    try preflight(data, file: file)
    let delegate = Builder()
    let parser = XMLParser(data: data)
    parser.delegate = delegate
    parser.shouldResolveExternalEntities = false
    if !parser.parse() || delegate.failure != nil {
      if let failure = delegate.failure {
        throw LocalizationError(file: file, line: failure.line, column: failure.column, message: failure.message)
      }
      let reason = parser.parserError.map { xmlReason($0) } ?? "malformed XML"
      throw LocalizationError(
        file: file, line: parser.lineNumber, column: parser.columnNumber,
        message: "not a well-formed property list (\(reason))")
    }
    guard let root = delegate.root else {
      throw LocalizationError(file: file, message: "expected a <plist> with a value, found none")
    }
    return root
  }

  /// What swift-corelibs-foundation's `XMLParser` would crash on, found by the fuzzer and turned away first
  /// with a line and a column: a name that is not UTF-8 in a UTF-8 document (a trap in its element
  /// callback), and a processing instruction other than the XML declaration (its callback reads a missing
  /// instruction body as a C string). A property list uses no processing instruction, so one anywhere, even
  /// in a comment, is an error.
  private static func preflight(_ data: Data, file: String) throws(LocalizationError) {
    let bytes = [UInt8](data)
    if TableText.utf16ByteOrder(of: bytes) == nil, let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
      let (line, column) = position(of: offset, in: bytes[...])
      throw LocalizationError(file: file, line: line, column: column, message: "not valid UTF-8 (byte \(offset))")
    }
    let text = try TableText.decode(bytes, file: file)  // without its byte order mark
    let scalars = Array(text.unicodeScalars)
    var start = 0
    while start < scalars.count, scalars[start].properties.isWhitespace { start += 1 }
    let declaration = Array("<?xml".unicodeScalars)
    let hasDeclaration =
      scalars.count > start + 5 && Array(scalars[start..<start + 5]) == declaration
      && scalars[start + 5].properties.isWhitespace
    for index in 0..<max(0, scalars.count - 1) where scalars[index] == "<" && scalars[index + 1] == "?" {
      if hasDeclaration && index == start { continue }
      var line = 1
      var column = 1
      for scalar in scalars[..<index] {
        if scalar == "\n" { (line, column) = (line + 1, 1) } else { column += 1 }
      }
      throw LocalizationError(
        file: file, line: line, column: column, message: "a processing instruction, which a property list does not use")
    }
  }

  /// The line and column (in bytes) of a byte offset.
  private static func position(of offset: Int, in bytes: ArraySlice<UInt8>) -> (line: Int, column: Int) {
    let before = bytes[bytes.startIndex..<bytes.startIndex + offset]
    let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.startIndex
    return (line, offset - (lineStart - bytes.startIndex) + 1)
  }

  /// A reason in words for the XML parser's error codes that string tables meet.
  fileprivate static func xmlReason(_ error: any Error) -> String {
    let code = (error as NSError).code
    let reasons: [Int: String] = [
      4: "the document is empty", 5: "the document ends before its elements are closed",
      9: "an invalid character", 38: "an end tag does not match its start tag", 41: "an attribute is malformed",
      64: "the XML declaration is malformed", 76: "an end tag does not match its start tag",
      111: "the document is not XML",
    ]
    return reasons[code] ?? "XML parser error \(code)"
  }

  private static func node(from object: Any) -> DocumentNode {
    switch object {
    case let dictionary as [String: Any]:
      return DocumentNode(
        value: .dictionary(dictionary.sorted { $0.key < $1.key }.map { ($0.key, node(from: $0.value)) }))
    case let array as [Any]:
      return DocumentNode(value: .array(array.map(node(from:))))
    case let string as String:
      return DocumentNode(value: .string(string))
    default:
      return DocumentNode(value: .scalar("\(object)"))
    }
  }

  /// Builds the node tree from `XMLParser` events.
  private final class Builder: NSObject, XMLParserDelegate {
    enum Frame {
      case dictionary([(key: String, value: DocumentNode)], pendingKey: String?, line: Int, column: Int)
      case array([DocumentNode], line: Int, column: Int)
      case text(element: String, text: String, line: Int, column: Int)
      case plist
    }

    var stack: [Frame] = []
    var root: DocumentNode?
    var failure: (line: Int, column: Int, message: String)?

    func parser(
      _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      let (line, column) = (parser.lineNumber, parser.columnNumber)
      switch element {
      case "plist": stack.append(.plist)
      case "dict": stack.append(.dictionary([], pendingKey: nil, line: line, column: column))
      case "array": stack.append(.array([], line: line, column: column))
      case "key", "string", "integer", "real", "date", "data":
        stack.append(.text(element: element, text: "", line: line, column: column))
      case "true", "false": attach(DocumentNode(value: .scalar(element), line: line, column: column), parser)
      default: fail(parser, "unexpected element <\(element)> in a property list")
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if case .text(let element, let text, let line, let column) = stack.last {
        stack[stack.count - 1] = .text(element: element, text: text + string, line: line, column: column)
      }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
      guard failure == nil, let frame = stack.popLast() else { return }
      switch frame {
      case .plist:
        break
      case .dictionary(let entries, let pendingKey, let line, let column):
        if let pendingKey { fail(parser, "expected a value after <key>\(pendingKey)</key>") }
        attach(DocumentNode(value: .dictionary(entries), line: line, column: column), parser)
      case .array(let items, let line, let column):
        attach(DocumentNode(value: .array(items), line: line, column: column), parser)
      case .text(let element, let text, let line, let column):
        if element == "key" {
          guard case .dictionary(let entries, nil, let dl, let dc) = stack.last else {
            fail(parser, "expected <key> only inside a <dict>, before its value")
            return
          }
          stack[stack.count - 1] = .dictionary(entries, pendingKey: text, line: dl, column: dc)
        } else {
          let value: DocumentNode.Value = element == "string" ? .string(text) : .scalar(text)
          attach(DocumentNode(value: value, line: line, column: column), parser)
        }
      }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
      if failure == nil {
        failure = (
          parser.lineNumber, parser.columnNumber,
          "not a well-formed property list (\(PropertyListReader.xmlReason(parseError)))"
        )
      }
    }

    private func attach(_ node: DocumentNode, _ parser: XMLParser) {
      switch stack.last {
      case .dictionary(var entries, let pendingKey, let line, let column):
        guard let pendingKey else {
          fail(parser, "expected a <key> before each value in a <dict>")
          return
        }
        entries.append((pendingKey, node))
        stack[stack.count - 1] = .dictionary(entries, pendingKey: nil, line: line, column: column)
      case .array(var items, let line, let column):
        items.append(node)
        stack[stack.count - 1] = .array(items, line: line, column: column)
      case .plist:
        if root == nil { root = node } else { fail(parser, "expected one value in <plist>, found another") }
      default:
        fail(parser, "unexpected value")
      }
    }

    private func fail(_ parser: XMLParser, _ message: String) {
      if failure == nil { failure = (parser.lineNumber, parser.columnNumber, message) }
      parser.abortParsing()
    }
  }
}
