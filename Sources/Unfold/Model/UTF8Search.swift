#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StringProtocol {
  /// Whether a UTF-8 byte of the text is one of `bytes`, read from its contiguous storage when it has one
  /// (iterating the UTF-8 view byte by byte was a tenth of parsing).
  func utf8Contains(anyOf bytes: UInt8...) -> Bool {
    func search(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
      guard let base = buffer.baseAddress else { return false }
      return bytes.contains { memchr(base, Int32($0), buffer.count) != nil }
    }
    return utf8.withContiguousStorageIfAvailable(search) ?? utf8.contains { bytes.contains($0) }
  }

  /// The UTF-8 offset (from the text's start) of the first `byte` at or after `offset`, or `nil`.
  func utf8Offset(of byte: UInt8, from offset: Int = 0) -> Int? {
    func search(_ buffer: UnsafeBufferPointer<UInt8>) -> Int? {
      guard let base = buffer.baseAddress, offset < buffer.count,
        let found = memchr(base + offset, Int32(byte), buffer.count - offset)
      else { return nil }
      return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
    if let found = utf8.withContiguousStorageIfAvailable(search) { return found }
    return utf8.dropFirst(offset).firstIndex(of: byte).map { utf8.distance(from: utf8.startIndex, to: $0) }
  }
}
