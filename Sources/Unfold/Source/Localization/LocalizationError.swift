/// A string table that cannot be read: the file, where in it, and what was expected.
///
///     Localizable.strings:12:20: expected ';' after the value of "greeting"
public struct LocalizationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file, as given.
  public var file: String
  /// The 1-based line, when the problem has a place.
  public var line: Int?
  /// The 1-based column (in characters), when the problem has a place.
  public var column: Int?
  /// What is wrong, in one line.
  public var message: String

  /// Creates an error.
  package init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// `file:line:column: message`, or `file: message` without a place.
  public var description: String {
    var place = file
    if let line { place += ":\(line)" }
    if let column { place += ":\(column)" }
    return "\(place): \(message)"
  }
}

/// Decodes the bytes of a text file of string tables: UTF-8 or UTF-16 (either byte order), with or without a
/// byte order mark.
enum TableText {
  static func decode(_ bytes: [UInt8], file: String) throws(LocalizationError) -> String {
    if let order = utf16ByteOrder(of: bytes) {
      return try utf16(bytes.dropFirst(order.markLength), littleEndian: order.littleEndian, file: file)
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return try utf8(bytes.dropFirst(3), file: file, offset: 3) }
    return try utf8(bytes[...], file: file, offset: 0)
  }

  /// The byte order of UTF-16 text and the length of its byte order mark, or `nil` for UTF-8: a mark, or
  /// without one, a zero byte beside the first (text that starts with an ASCII character).
  static func utf16ByteOrder(of bytes: [UInt8]) -> (littleEndian: Bool, markLength: Int)? {
    if bytes.starts(with: [0xFF, 0xFE]) { return (true, 2) }
    if bytes.starts(with: [0xFE, 0xFF]) { return (false, 2) }
    guard bytes.count >= 2 && bytes.count % 2 == 0 else { return nil }
    if bytes[0] != 0 && bytes[1] == 0 { return (true, 0) }
    if bytes[0] == 0 && bytes[1] != 0 { return (false, 0) }
    return nil
  }

  private static func utf8(_ bytes: ArraySlice<UInt8>, file: String, offset: Int) throws(LocalizationError) -> String {
    if let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
      throw LocalizationError(file: file, message: "invalid UTF-8 at byte \(bad + offset)")
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func utf16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool, file: String) throws(LocalizationError)
    -> String
  {
    guard bytes.count % 2 == 0 else {
      throw LocalizationError(file: file, message: "UTF-16 text with an odd number of bytes (\(bytes.count))")
    }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let first = UInt16(bytes[index])
      let second = UInt16(bytes[index + 1])
      units.append(littleEndian ? first | second << 8 : first << 8 | second)
      index += 2
    }
    var result = ""
    var iterator = units.makeIterator()
    var decoder = UTF16()
    var unitOffset = 0
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        result.unicodeScalars.append(scalar)
        unitOffset += UTF16.width(scalar)
      case .emptyInput:
        break loop
      case .error:
        throw LocalizationError(
          file: file, message: "invalid UTF-16 (a lone surrogate) at byte \(bytes.startIndex + unitOffset * 2)")
      }
    }
    return result
  }
}
