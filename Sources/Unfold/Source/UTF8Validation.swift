/// Checks bytes read from a file or a pipe before they become text.
package enum UTF8Validation {
  /// The byte offset of the first byte that is not part of a well-formed UTF-8 sequence, or `nil` when
  /// all of `bytes` is valid UTF-8 (overlong forms, surrogates and values past U+10FFFF are invalid).
  ///
  /// Bytes in contiguous memory (an array, `Data`, a slice of either) are read from that memory, eight bytes
  /// of ASCII at a time, not through the collection's iterator (a module that cannot specialise this function
  /// for `Data` would call it per byte).
  package static func firstInvalidOffset(in bytes: some Collection<UInt8>) -> Int? {
    if let result = bytes.withContiguousStorageIfAvailable({ firstInvalidOffset(inBuffer: $0) }) { return result }
    return firstInvalidOffset(parsing: bytes)
  }

  /// ``firstInvalidOffset(in:)`` of bytes in memory.
  static func firstInvalidOffset(inBuffer bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
      // Eight bytes at a time while none has its high bit set.
      while offset + 8 <= bytes.count,
        UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        offset += 8
      }
      guard offset < bytes.count else { break }
      if bytes[offset] < 0x80 {
        offset += 1
        continue
      }
      // A sequence past ASCII, read by the standard library's parser from here.
      var iterator = UnsafeBufferPointer(rebasing: bytes[offset...]).makeIterator()
      var parser = Unicode.UTF8.ForwardParser()
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded): offset += encoded.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
    return nil
  }

  /// ``firstInvalidOffset(in:)`` of any collection, through its iterator.
  static func firstInvalidOffset(parsing bytes: some Collection<UInt8>) -> Int? {
    var iterator = bytes.makeIterator()
    var offset = 0
    var parser = Unicode.UTF8.ForwardParser()
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        offset += encoded.count
      case .emptyInput:
        return nil
      case .error:
        return offset
      }
    }
  }
}
