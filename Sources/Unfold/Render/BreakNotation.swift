/// Shows where a text may break, in the notation of the Unicode test files (`unfold --format breaks`).
///
///     ×The×␠÷quick×␠÷(brown)×␠÷fox÷
///
/// Between every two grapheme clusters stands `÷` where a line may break and `×` where it may not; the text
/// starts with `×` (never a break at the start) and ends with `÷`. Spaces are shown as `␠`, tabs as `␉`, a
/// soft hyphen as `⟨SHY⟩`, other control characters as their pictures (`VisibleControls`); a hard line
/// break is shown as its picture (`␊` for LF), then `÷`, then a real newline, so the output keeps the text's
/// lines.
package enum BreakNotation {
  /// The text with its break opportunities marked.
  package static func render(_ text: String, breaker: LineBreaker) -> String {
    guard !text.isEmpty else { return "" }
    var opportunities = breaker.opportunities(in: text)
    var next = opportunities.next()
    var output = "×"
    var offset = 0
    var markWritten = true  // the mark before the next cluster
    for cluster in text {
      if !markWritten {
        while let opportunity = next, opportunity.offset < offset { next = opportunities.next() }
        output += next?.offset == offset ? "÷" : "×"
      }
      output += visible(cluster)
      offset += cluster.utf8.count
      markWritten = false
      if cluster.isHardLineBreak && offset < text.utf8.count {
        output += "÷\n"
        markWritten = true
      }
    }
    return output + "÷\n"
  }

  private static func visible(_ cluster: Character) -> String {
    switch cluster {
    case " ": return "␠"
    case "\t": return "␉"
    case "\u{00AD}": return "⟨SHY⟩"
    case "\r\n": return "␍␊"
    default:
      var result = ""
      for scalar in cluster.unicodeScalars {
        switch scalar {
        case "\n": result += "␊"
        case "\u{85}": result += "␤"
        case "\u{2028}": result += "⟨LS⟩"
        case "\u{2029}": result += "⟨PS⟩"
        default: result.unicodeScalars.append(VisibleControls.visible(scalar))
        }
      }
      return result
    }
  }
}
