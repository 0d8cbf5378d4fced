/// Checks bytes read from a file or a pipe before they become text.
public enum UTF8Validation {
  /// The byte offset of the first byte that is not part of a well-formed UTF-8 sequence, or `nil` when
  /// all of `bytes` is valid UTF-8 (overlong forms, surrogates and values past U+10FFFF are invalid).
  public static func firstInvalidOffset(in bytes: some Collection<UInt8>) -> Int? {
    var iterator = bytes.makeIterator()
    var offset = 0
    var parser = Unicode.UTF8.ForwardParser()
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        offset += encoded.count
      case .emptyInput:
        return nil
      case .error(let length):
        _ = length
        return offset
      }
    }
  }
}
