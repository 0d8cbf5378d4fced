/// Measures text in the integer unit of one target: terminal cells, or 1/64 px for a font.
///
/// Layout and truncation only add and compare these integers; they never know the unit.
public protocol TextMeasurer: Sendable {
  /// The advance of one grapheme cluster drawn in `style`. Never negative. A newline's advance is 0.
  func advance(of cluster: Character, style: Style) -> Int

  /// The distance between tab stops: a tab advances to the next multiple of it, counted from the line's
  /// start.
  var tabInterval: Int { get }

  /// The name of the unit, for people and for JSON: `cells`, `px/64`...
  var unit: String { get }
}

extension TextMeasurer {
  /// The width of a string drawn in one style on one line, tabs expanded from `startX`.
  public func width(of text: some StringProtocol, style: Style = .plain, startX: Int = 0) -> Int {
    var x = startX
    for cluster in text {
      x += cluster == "\t" ? tabAdvance(at: x) : advance(of: cluster, style: style)
    }
    return x - startX
  }

  /// The advance of a tab that starts at `x`.
  func tabAdvance(at x: Int) -> Int {
    let interval = max(1, tabInterval)
    return interval - x % interval
  }
}
