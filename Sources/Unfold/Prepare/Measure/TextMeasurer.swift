/// Measures text in the integer unit of one target: terminal cells, or 1/64 px for a font.
///
/// Layout and truncation only add and compare these integers; they never know the unit.
public protocol TextMeasurer: Sendable {
  /// The advance of one grapheme cluster drawn in `style`. Never negative. A newline's advance is 0.
  func advance(of cluster: Character, style: Style) -> Int

  /// The advance of a cluster that is one ASCII character (never a tab): the same as
  /// ``advance(of:style:)`` of it, asked without making a `Character`.
  func advance(ofASCII byte: UInt8, style: Style) -> Int

  /// The advance of a cluster that is one code point (never a tab): the same as ``advance(of:style:)`` of
  /// it, asked without making a `Character`.
  func advance(ofScalar scalar: Unicode.Scalar, style: Style) -> Int

  /// The advance of a cluster given as its code points (more than one): the same as
  /// ``advance(of:style:)`` of their `Character`, asked without making one.
  func advance(ofScalars scalars: some Collection<Unicode.Scalar>, style: Style) -> Int

  /// The width of a string drawn in one style on one line, tabs expanded from `startX`: the sum of its clusters'
  /// advances by default; a measurer that shapes text measures the string as the target shapes it.
  func width(ofLine text: String, style: Style, startX: Int) -> Int

  /// The distance between tab stops: a tab advances to the next multiple of it, counted from the line's
  /// start.
  var tabInterval: Int { get }

  /// The unit of the widths.
  var unit: WidthUnit { get }

  /// How much rounding one inline item (a run of one style on a line) can add when the target lays a line
  /// out; 0 when widths add up exactly (terminal cells).
  var itemRounding: Int { get }

  /// Whether a line made of inline items of these widths fits `width`, by the target's own rule.
  func fits(items: [Int], width: Int) -> Bool

  /// The clusters in `range` whose width the target chooses, not the measurer (a glyph missing from the
  /// font, for example), merged into ranges.
  func unpredictableRanges(in text: StyledText, range: Range<Int>) -> [Range<Int>]
}

extension TextMeasurer {
  /// The advance of the `Character` of the byte.
  public func advance(ofASCII byte: UInt8, style: Style) -> Int {
    advance(of: Character(Unicode.Scalar(byte)), style: style)
  }

  /// The advance of the `Character` of the code point.
  public func advance(ofScalar scalar: Unicode.Scalar, style: Style) -> Int {
    advance(of: Character(scalar), style: style)
  }

  /// The advance of the `Character` of the code points.
  public func advance(ofScalars scalars: some Collection<Unicode.Scalar>, style: Style) -> Int {
    var string = String.UnicodeScalarView()
    string.append(contentsOf: scalars)
    return advance(of: Character(String(string)), style: style)
  }

  /// Widths add up exactly.
  public var itemRounding: Int { 0 }

  /// The items' sum is at most the width.
  public func fits(items: [Int], width: Int) -> Bool { items.reduce(0, +) <= width }

  /// None: the measurer predicts every cluster.
  public func unpredictableRanges(in text: StyledText, range: Range<Int>) -> [Range<Int>] { [] }

  /// The width of a string drawn in one style on one line, tabs expanded from `startX`
  /// (``width(ofLine:style:startX:)``).
  package func width(of text: some StringProtocol, style: Style = .plain, startX: Int = 0) -> Int {
    width(ofLine: String(text), style: style, startX: startX)
  }

  /// The sum of the clusters' advances, tabs expanded from `startX`.
  public func width(ofLine text: String, style: Style, startX: Int) -> Int {
    sumOfAdvances(of: text, style: style, startX: startX)
  }

  /// The sum of the advances of a string's clusters, each measured alone, tabs expanded from `startX`.
  func sumOfAdvances(of text: String, style: Style, startX: Int) -> Int {
    var x = startX
    for cluster in text {
      x += cluster.isTab ? tabAdvance(at: x) : advance(of: cluster, style: style)
    }
    return x - startX
  }

  /// The advance of a tab that starts at `x`.
  func tabAdvance(at x: Int) -> Int {
    let interval = max(1, tabInterval)
    return interval - x % interval
  }
}

/// The unit of a measurer's widths: terminal cells, or fractions of a CSS pixel.
public struct WidthUnit: Hashable, Sendable, CustomStringConvertible {
  /// The unit's name, for people and for JSON: `cells`, `px/65536`.
  public let name: String

  /// A unit of that name, for a measurer of one's own.
  package init(name: String) { self.name = name }

  /// Terminal cells (``TerminalCells``).
  public static let cells = WidthUnit(name: "cells")
  /// 1/65536 of a CSS pixel, FreeType's fixed point (`FontMeasurer`).
  public static let pixelFractions = WidthUnit(name: "px/65536")
  /// 1/60 of a CSS pixel, Gecko's app unit (`FontMeasurer` for ``BrowserEngine/gecko``).
  public static let appUnits = WidthUnit(name: "px/60")

  /// The units in a CSS pixel; `nil` for terminal cells and other units that are not lengths.
  public var unitsPerPixel: Int? {
    switch name {
    case "px/65536": 65536
    case "px/60": 60
    default: nil
    }
  }

  /// The name.
  public var description: String { name }
}
