import Foundation

/// Escaping text for HTML, once, in one place: every piece of text, label and attribute goes through it.
extension HTMLRenderer {
  /// The one escaping function, for text and attribute values alike: `& < > " '` become entities and
  /// control characters become their visible pictures (`VisibleControls`).
  ///
  /// Tabs and newlines stay.
  package static func escape(_ text: some StringProtocol) -> String {
    var html = UTF8Output()
    writeEscaped(text, to: &html)
    return html.string()
  }

  /// ``escape(_:)``, written to an output: the bytes are read for what to replace, and the stretches between
  /// replacements are written whole.
  ///
  /// The bytes are read eight at a time, their entries in the table of bytes looked at combined, for as long as none is
  /// one (Docs/PerformanceNotes.md, "HTML output").
  static func writeEscaped(_ text: some StringProtocol, to html: inout UTF8Output) {
    let escapedBytes = Self.escapedBytes  // read once, not through the global's accessor per byte
    escapedBytes.withUnsafeBufferPointer { table in
      text.withUTF8Buffer { bytes in writeEscaped(bytes, table: table, to: &html) }
    }
  }

  /// The loop of ``writeEscaped(_:to:)``, over the bytes and the table (1 for a byte looked at, 0 for any other).
  private static func writeEscaped(
    _ bytes: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>, to html: inout UTF8Output
  ) {
    var clean = 0  // the start of the bytes not written yet
    var offset = 0
    var byteByByte = 0  // where the eight bytes that a wide read found one to look at in end
    while offset < bytes.count {
      if offset >= byteByByte, let base = bytes.baseAddress {
        @inline(__always) func looked(_ k: Int) -> UInt8 { table[Int(base[offset &+ k])] }
        while offset &+ 8 <= bytes.count,
          (looked(0) | looked(1)) | (looked(2) | looked(3)) | ((looked(4) | looked(5)) | (looked(6) | looked(7))) == 0
        {
          offset &+= 8
        }
        byteByByte = offset &+ 8
      }
      guard offset < bytes.count else { break }
      let byte = bytes[offset]
      guard table[Int(byte)] != 0 else {
        offset += 1
        continue
      }
      var length = 1
      let replacement: String
      switch byte {
      case 0x26: replacement = "&amp;"
      case 0x3C: replacement = "&lt;"
      case 0x3E: replacement = "&gt;"
      case 0x22: replacement = "&quot;"
      case 0x27: replacement = "&#x27;"
      case 0xC2:  // a C1 control (C2 80–9F) is replaced, its two bytes
        guard offset + 1 < bytes.count, (0x80...0x9F).contains(bytes[offset + 1]) else {
          offset += 1
          continue
        }
        replacement = String(VisibleControls.visible(Unicode.Scalar(bytes[offset + 1])))
        length = 2
      default: replacement = String(VisibleControls.visible(Unicode.Scalar(byte)))
      }
      html.write(UnsafeBufferPointer(rebasing: bytes[clean..<offset]))
      html.write(replacement)
      offset += length
      clean = offset
    }
    html.write(UnsafeBufferPointer(rebasing: bytes[clean...]))
  }

  /// The bytes that ``escape(_:)`` looks at: `& < > " '`, C0 controls but tab and newline, DEL, and C2 (the
  /// lead byte of the C1 controls).
  private static let escapedBytes: [UInt8] = (0..<256).map { (byte: Int) -> UInt8 in
    let isControl = byte < 0x20 && byte != 0x09 && byte != 0x0A
    return "&<>\"'".utf8.contains(UInt8(byte)) || isControl || byte == 0x7F || byte == 0xC2 ? 1 : 0
  }
}
