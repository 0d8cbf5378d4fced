#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StringProtocol {
  /// Runs `body` with the text's UTF-8 bytes: its contiguous storage when it has one (a native string
  /// always does), else a copy. Reading bytes from a buffer rather than through the UTF-8 view is what the
  /// engine's byte loops rely on.
  @inline(__always)
  func withUTF8Buffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(utf8).withUnsafeBufferPointer(body)
  }

  /// Whether a UTF-8 byte of the text is one of `bytes` (iterating the UTF-8 view byte by byte was a tenth of
  /// parsing).
  func utf8Contains(anyOf bytes: UInt8...) -> Bool {
    withUTF8Buffer { buffer in
      guard let base = buffer.baseAddress else { return false }
      return bytes.contains { memchr(base, Int32($0), buffer.count) != nil }
    }
  }

  /// The UTF-8 offset (from the text's start) of the first `byte` at or after `offset`, or `nil`.
  func utf8Offset(of byte: UInt8, from offset: Int = 0) -> Int? {
    withUTF8Buffer { $0.offset(of: byte, from: offset) }
  }

  /// The UTF-8 offset of the first occurrence of `pattern` (at least one byte), found by its first byte with
  /// memchr and compared at each hit.
  func utf8Offset(of pattern: some Collection<UInt8>) -> Int? {
    withUTF8Buffer { buffer in
      guard let base = buffer.baseAddress, let lead = pattern.first else { return nil }
      let count = pattern.count
      var from = 0
      while from + count <= buffer.count, let hit = memchr(base + from, Int32(lead), buffer.count - count + 1 - from) {
        let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        if zip(buffer[at..<(at + count)], pattern).allSatisfy({ $0 == $1 }) { return at }
        from = at + 1
      }
      return nil
    }
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The offset of the first `byte` at or after `offset`, found with memchr, or `nil`.
  func offset(of byte: UInt8, from offset: Int = 0) -> Int? {
    guard let base = baseAddress, offset < count, let found = memchr(base + offset, Int32(byte), count - offset)
    else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }
}

extension UInt8 {
  /// Whether the byte is printable ASCII or the space (U+0020–U+007E): a code point of its own that is
  /// grapheme-simple and neither a hard line break nor a control.
  @inline(__always)
  var isPrintableASCII: Bool { self &- 0x20 < 0x5F }
  /// Whether the byte is an ASCII letter, A–Z or a–z.
  @inline(__always)
  var isASCIILetter: Bool { (self | 0x20) &- 0x61 < 26 }
}
