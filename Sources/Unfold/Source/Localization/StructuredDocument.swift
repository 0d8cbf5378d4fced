import Foundation

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

/// Reads property lists: XML ones with places (``XMLPropertyListReader``), binary ones through
/// `PropertyListSerialization` (without places).
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
    let bytes = [UInt8](data)
    if TableText.utf16ByteOrder(of: bytes) == nil, let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
      let (line, column) = position(of: offset, in: bytes[...])
      throw LocalizationError(file: file, line: line, column: column, message: "not valid UTF-8 (byte \(offset))")
    }
    var reader = XMLPropertyListReader(try TableText.decode(bytes, file: file), file: file)
    return try reader.read()
  }

  /// The line and column (in bytes) of a byte offset.
  private static func position(of offset: Int, in bytes: ArraySlice<UInt8>) -> (line: Int, column: Int) {
    let before = bytes[bytes.startIndex..<bytes.startIndex + offset]
    let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.startIndex
    return (line, offset - (lineStart - bytes.startIndex) + 1)
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
}
