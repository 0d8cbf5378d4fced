/// Measures text in terminal cells.
///
/// A grapheme cluster is as wide as its widest scalar:
/// - East Asian Wide and Fullwidth characters, and characters with emoji presentation, are 2;
/// - combining and enclosing marks, format characters, Hangul medial and final jamo are 0;
/// - control characters are 1, the width of the picture ``VisibleControls`` draws for them;
/// - everything else is 1.
///
/// So a ZWJ sequence or a flag is 2 and a base with combining marks is 1; a cluster is never split.
public struct TerminalCells: TextMeasurer {
  /// Creates the measurer, with tab stops every `tabInterval` cells.
  public init(tabInterval: Int = 8) { self.tabInterval = tabInterval }

  /// The distance between tab stops, in cells.
  public let tabInterval: Int

  /// `cells`.
  public var unit: String { "cells" }

  /// The cells one grapheme cluster occupies (style does not change cell widths).
  public func advance(of cluster: Character, style: Style) -> Int {
    if cluster.utf8.count == 1 {  // ASCII fast path
      let byte = cluster.utf8.first ?? 0
      return byte == 0x0A ? 0 : 1
    }
    if cluster == "\r\n" { return 0 }
    var widest = 0
    for scalar in cluster.unicodeScalars {
      widest = max(widest, Self.width(of: scalar))
      if widest == 2 { break }
    }
    return widest
  }

  /// The cells of one scalar on its own.
  public static func width(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value == 0x0A ? 0 : 1 }
    if VisibleControls.isReplaced(scalar) { return 1 }
    if value == 0x00AD { return 1 }  // soft hyphen: drawn by terminals
    if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if scalar.properties.isEmojiPresentation || isWide(value) { return 2 }
    return 1
  }

  /// East Asian Width W or F (blocks of CJK ideographs, kana, Hangul syllables, fullwidth forms...).
  static func isWide(_ value: UInt32) -> Bool {
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }

  /// The East Asian Wide and Fullwidth blocks, sorted (a first version; generated tables come later).
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
    0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
    0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
    0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}
