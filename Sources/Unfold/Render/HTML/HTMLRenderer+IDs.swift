import Foundation

/// The container's id: stable for a rendering, unique across renderings on a page, and the CSS selector that
/// names it.
extension HTMLRenderer {
  /// The CSS selector of an element by its id, as CSS.escape() writes it: letters, digits, `-`, `_` and
  /// non-ASCII characters as they are, any other character (and a digit that starts the id) as a hex escape.
  ///
  /// An id a caller gives ("comment.42", "a b") selects its own element, and nothing in it ends the `<style>` element.
  static func selector(forID id: String) -> String {
    var result = "#"
    for (index, scalar) in id.unicodeScalars.enumerated() {
      let value = scalar.value
      let isDigit = (0x30...0x39).contains(value)
      let isPlain =
        (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x2D || value == 0x5F
        || value >= 0x80 || isDigit
      if isPlain && !(index == 0 && isDigit) && !(index == 1 && isDigit && id.hasPrefix("-")) {
        result.unicodeScalars.append(scalar)
      } else {
        result += "\\" + String(value, radix: 16) + " "
      }
    }
    return result
  }

  /// `unfold-` and eight hex digits of a hash (``hash(_:)``) of the text and of what else makes the fragment:
  /// the width, `rendering` (the state and the truncation), the options and the fonts.
  ///
  /// Stable across runs and machines; the text is hashed alone (a long one is not copied) and its hash mixed with the
  /// rest's.
  func stableID(for text: StyledText, width: Int, rendering: String) -> String {
    var options = self.options
    options.id = nil
    let faces = [fonts.regular.path, fonts.bold.path, fonts.italic.path, fonts.boldItalic.path, fonts.monospace.path]
    let rest =
      "\(width)|\(rendering)|\(Self.description(of: .html(options)))|\(faces.joined(separator: "|"))|"
      + "\(fonts.size)|\(fonts.lineHeight)|"
      + "\(fonts.kerningAndLigatures)|\(fonts.fallbacks.count)|\(text.runs.count)"
    let hash = Self.hash(text.string) &* 0x0100_0193 ^ Self.hash(rest)
    var output = UTF8Output(capacity: 15)
    output.write("unfold-")
    output.write(hex: hash)
    return output.string()
  }

  /// Options whose description an id hashes.
  enum DescribedOptions: Hashable, Sendable {
    case html(HTMLOptions)
    case truncation(TruncationOptions)
  }

  /// `String(describing:)` of the options, as the id hashes it, written out field by field.
  ///
  /// Swift describes a struct by reflection, which took 11.7 M instructions at every start of `unfold --format html`
  /// (a fifth of the run), most of it looking up protocol conformances. `HTMLPageTests` holds this text to
  /// `String(describing:)`.
  static func description(of options: DescribedOptions) -> String {
    switch options {
    case .html(let options):
      let source =
        switch options.fontSource {
        case .url(let prefix): "url(prefix: \(prefix.debugDescription))"
        case .embedded: "embedded"
        }
      return "HTMLOptions(id: \(described(options.id)), fontSource: Unfold.HTMLOptions.FontSource.\(source), "
        + "standalone: \(options.standalone), animationDuration: \(options.animationDuration.debugDescription), "
        + "animationEasing: \(options.animationEasing.debugDescription), scriptNonce: \(described(options.scriptNonce)), "
        + "language: \(described(options.language)), scrollLines: \(options.scrollLines.map { "Optional(\($0))" } ?? "nil"), "
        + "scrollLabel: \(described(options.scrollLabel)))"
    case .truncation(let options):
      return "TruncationOptions(lineLimit: \(options.lineLimit), moreLabel: \(options.moreLabel.debugDescription), "
        + "lessLabel: \(described(options.lessLabel)), ellipsis: \(options.ellipsis.debugDescription), "
        + "mode: Unfold.TruncationMode.\(options.mode.rawValue), toggle: Unfold.TogglePlacement.\(options.toggle.rawValue), "
        + "collapsesBlankLines: \(options.collapsesBlankLines), reservesSpace: \(options.reservesSpace))"
    }
  }

  /// An optional string as a struct's reflection writes it.
  private static func described(_ text: String?) -> String {
    text.map { "Optional(\($0.debugDescription))" } ?? "nil"
  }

  static func hexHash(_ text: String) -> String {
    var output = UTF8Output(capacity: 8)
    output.write(hex: hash(text))
    return output.string()
  }

  /// The 32-bit FNV-1a hash of the text's UTF-8 bytes, which ``hexHash(_:)`` writes; for a text longer than 4 KiB,
  /// the 64-bit FNV-1a hash of its bytes eight at a time (as little-endian words, the last few one by one), each
  /// step's high bits shifted down onto its low ones, mixed at the end as MurmurHash3's last step mixes and folded
  /// to 32 bits.
  ///
  /// Every step is a bijection of the state, so texts that differ in one word differ before the fold.
  ///
  /// A word at a time takes an eighth of the steps of a byte at a time, where each step waits for the
  /// multiplication before it (Docs/PerformanceNotes.md, "HTML output").
  static func hash(_ text: String) -> UInt32 {
    // Over the bytes in a buffer, not through the UTF-8 view.
    text.withUTF8Buffer { bytes in
      guard bytes.count > 4_096, let base = bytes.baseAddress else {
        return bytes.reduce(UInt32(0x811C_9DC5)) { hash, byte in (hash ^ UInt32(byte)) &* 0x0100_0193 }
      }
      let prime: UInt64 = 0x0000_0100_0000_01B3
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325
      var offset = 0
      while offset + 8 <= bytes.count {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
        hash = (hash ^ word) &* prime
        hash ^= hash >> 29  // a product's high bits, down (a change in a word's last byte stayed in 8 bits)
        offset += 8
      }
      for byte in bytes[offset...] { hash = (hash ^ UInt64(byte)) &* prime }
      hash ^= hash >> 33
      hash &*= 0xFF51_AFD7_ED55_8CCD
      hash ^= hash >> 33
      hash &*= 0xC4CE_B9FE_1A85_EC53
      hash ^= hash >> 33
      return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
    }
  }
}
