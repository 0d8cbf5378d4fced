/// Decides which link destinations become links: only `http`, `https` and `mailto`, judged after the
/// normalisation browsers apply.
///
/// The one allow-list both renderers use.
///
/// A destination that fails is drawn as its link text only. One that passes comes back percent-encoded to
/// printable ASCII without quotes, angle brackets or backslashes, so that it is safe inside an HTML
/// attribute (after the usual attribute escaping) and inside an OSC 8 sequence.
package enum LinkPolicy {
  /// The schemes that become links.
  package static let allowedSchemes: Set<String> = ["http", "https", "mailto"]
  /// The allowed schemes with their bytes, for the clean path.
  private static let allowedSchemeBytes = allowedSchemes.map { ($0, Array($0.utf8)) }

  /// The destination, normalised and encoded, when its scheme is allowed; `nil` otherwise.
  ///
  /// As the WHATWG URL parser does, leading and trailing C0 controls and spaces are removed and every tab
  /// and newline is deleted before the scheme is read; the scheme is compared case-insensitively. Entities
  /// and backslash escapes were already decoded by the markdown parser.
  package static func safeURL(_ destination: String) -> String? {
    cleanSafeURL(destination) ?? normalizedSafeURL(destination)
  }

  /// ``safeURL(_:)`` of a destination of printable ASCII only, with no byte to encode (most links): its scheme
  /// lowercased and the rest as it is, without the general path's arrays; `nil` when the destination is not
  /// such, or its scheme is not allowed (the general path then decides).
  ///
  /// A destination whose scheme is written in lowercase comes back as it is, with no string made
  /// (Docs/PerformanceNotes.md, "Writing output").
  static func cleanSafeURL(_ destination: String) -> String? {
    let verdict = destination.withUTF8Buffer { bytes -> (scheme: String, colon: Int, isLowercase: Bool)? in
      var colon: Int?
      for (index, byte) in bytes.enumerated() {
        guard (0x21...0x7E).contains(byte), !isUnsafe(byte) else { return nil }
        if colon == nil {
          if byte == UInt8(ascii: ":") {
            colon = index
          } else if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
            return nil
          }
        }
      }
      guard let colon else { return nil }
      // Every allowed scheme is lowercase letters: a byte matches one of them, or the same capital letter, when
      // setting its 0x20 bit gives that letter. Compared byte by byte, not through lazily mapped UTF-8 views.
      for (scheme, letters) in allowedSchemeBytes where letters.count == colon {
        var isLowercase = true
        var index = 0
        while index < colon, bytes[index] | 0x20 == letters[index] {
          isLowercase = isLowercase && bytes[index] == letters[index]
          index += 1
        }
        if index == colon { return (scheme, colon, isLowercase) }
      }
      return nil
    }
    guard let verdict else { return nil }
    if verdict.isLowercase { return destination }
    return verdict.scheme + destination.utf8Slice(verdict.colon..<destination.utf8.count)
  }

  /// ``safeURL(_:)`` of any destination: what the WHATWG parser removes, removed code point by code point;
  /// every byte outside printable ASCII, and the unsafe ones, percent-encoded.
  static func normalizedSafeURL(_ destination: String) -> String? {
    var scalars = Array(destination.unicodeScalars)
    while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
    while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
    scalars.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let colon = scalars.firstIndex(of: ":"),
      !scalars[..<colon].contains(where: { $0 == "/" || $0 == "?" || $0 == "#" })
    else { return nil }
    let scheme = String(String.UnicodeScalarView(scalars[..<colon])).lowercased()
    guard allowedSchemes.contains(scheme) else { return nil }
    var result = scheme
    for byte in String(String.UnicodeScalarView(scalars[colon...])).utf8 {
      switch byte {
      case 0x21...0x7E where !isUnsafe(byte):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
      }
    }
    return result
  }

  /// Whether a printable ASCII byte is encoded all the same: quotes, angle brackets, backslash, backtick.
  private static func isUnsafe(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"),
      UInt8(ascii: "`"):
      return true
    default: return false
    }
  }
}
