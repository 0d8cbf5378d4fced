import Foundation
import Unfold

/// A runtime problem: printed in one line, exit status 1.
struct RuntimeError: Error {
  var message: String
}

/// Reads the input file or standard input, checking that it is UTF-8.
struct Input {
  let name: String
  private let handle: FileHandle

  /// Opens a file, or standard input for `nil` and `-`.
  init(_ path: String?) throws(RuntimeError) {
    name = path ?? "-"
    if name == "-" {
      handle = .standardInput
      return
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: name, isDirectory: &isFolder) else {
      throw RuntimeError(message: "\(name): no such file")
    }
    guard !isFolder.boolValue, let handle = FileHandle(forReadingAtPath: name) else {
      throw RuntimeError(message: "\(name): cannot read\(isFolder.boolValue ? " (a folder)" : "")")
    }
    self.handle = handle
  }

  private var displayName: String { name == "-" ? "standard input" : name }

  /// All of it, a UTF-8 byte order mark at its start left out.
  func readAll() throws(RuntimeError) -> String {
    let data = handle.readDataToEndOfFile()
    if let offset = UTF8Validation.firstInvalidOffset(in: data) { throw invalidUTF8(at: offset, in: data) }
    return String(decoding: data.starts(with: Self.byteOrderMark) ? data.dropFirst(3) : data, as: UTF8.self)
  }

  /// The error for input that is not UTF-8 from byte `offset` on; input that starts with a UTF-16 byte order mark
  /// (FF FE or FE FF) says so, and how to convert it.
  private func invalidUTF8(at offset: Int, in bytes: some Collection<UInt8>) -> RuntimeError {
    let start = Array(bytes.prefix(2))
    guard start == [0xFF, 0xFE] || start == [0xFE, 0xFF] else {
      return RuntimeError(message: "\(displayName): invalid UTF-8 at byte \(offset)")
    }
    let file = name == "-" ? "FILE" : name
    return RuntimeError(
      message:
        "\(displayName): invalid UTF-8 at byte \(offset): it looks like UTF-16 (it starts with a UTF-16 byte order mark); convert it with: iconv -f UTF-16 -t UTF-8 \(file)"
    )
  }

  /// A UTF-8 byte order mark: not text, and a key that began with it would be found in no table.
  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// As much of the start as `isEnough` needs: reads 64 KB, then twice as much each time, until
  /// `isEnough(prefix)` holds or the input ends.
  ///
  /// `complete` says whether the whole input was read; the prefix ends on a character boundary, a byte order mark at
  /// the start left out. Invalid UTF-8 is reported only within what was read.
  func readPrefix(until isEnough: (String) -> Bool) throws(RuntimeError) -> (text: String, complete: Bool) {
    var bytes: [UInt8] = []
    var chunk = 64 * 1024
    while true {
      let data = handle.readData(ofLength: chunk)
      let atEnd = data.isEmpty
      bytes += data
      // Leave an incomplete final sequence (at most 3 bytes) for the next read.
      var usable = bytes.count
      if !atEnd {
        var back = 0
        while back < min(3, bytes.count) && bytes[bytes.count - 1 - back] & 0xC0 == 0x80 { back += 1 }
        if back < bytes.count, bytes[bytes.count - 1 - back] >= 0xC0 { usable = bytes.count - 1 - back }
      }
      if let offset = UTF8Validation.firstInvalidOffset(in: bytes[0..<usable]) {
        throw invalidUTF8(at: offset, in: bytes)
      }
      let start = bytes.starts(with: Self.byteOrderMark) ? min(3, usable) : 0
      let text = String(decoding: bytes[start..<usable], as: UTF8.self)
      if atEnd { return (text, true) }
      if isEnough(text) { return (text, false) }
      chunk = min(chunk * 2, 16 * 1024 * 1024)
    }
  }
}
