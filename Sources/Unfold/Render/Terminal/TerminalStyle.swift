/// How many colours a terminal shows.
public enum ColorLevel: Int, Hashable, Sendable, CaseIterable, Comparable {
  /// No colour and no style: plain text, no escape at all.
  case none = 0
  /// The 16 ANSI colours (SGR 30–37, 90–97).
  case ansi16 = 1
  /// The 256-colour palette (SGR 38;5;N).
  case ansi256 = 2
  /// 24-bit colour (SGR 38;2;R;G;B).
  case truecolor = 3

  /// Orders levels by how many colours they show.
  public static func < (lhs: ColorLevel, rhs: ColorLevel) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The level a terminal supports, from its environment, as most command-line tools decide.
  ///
  /// - `NO_COLOR` set and not empty: none;
  /// - `FORCE_COLOR`: `0` or `false` none, `1` or empty or `true` 16, `2` 256, `3` truecolor (even when the
  ///   output is not a terminal);
  /// - otherwise, when the output is not a terminal or `TERM` is `dumb`: none;
  /// - `COLORTERM` `truecolor` or `24bit`: truecolor; `TERM` ending in `256color`: 256; else 16.
  public static func detect(environment: [String: String], isTerminal: Bool) -> ColorLevel {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
    if let force = environment["FORCE_COLOR"] {
      switch force.lowercased() {
      case "0", "false": return .none
      case "2": return .ansi256
      case "3": return .truecolor
      default: return .ansi16
      }
    }
    guard isTerminal, environment["TERM"] != "dumb" else { return .none }
    let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
    if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
    if environment["TERM"]?.hasSuffix("256color") == true { return .ansi256 }
    return .ansi16
  }
}

/// A text style for the terminal, written as rich writes style strings: words separated by spaces.
///
/// - attributes: `bold`, `dim`, `italic`, `underline`, `strike`, `reverse`, `blink` (and `not bold`...);
/// - a foreground colour, and `on` then a background colour: a name (`black`, `red`, `green`, `yellow`,
///   `blue`, `magenta`, `cyan`, `white`, `bright_red`..., `default`), `#rrggbb`, `rgb(r,g,b)` or `color(n)`
///   (0–255).
///
///     try TerminalStyle("bold #ffaf00 on grey23")    // error: grey23 is not a colour this reads
///     try TerminalStyle("bold underline rgb(255,175,0)")
///
/// Colours are brought down to the terminal's level when drawn (truecolor → the nearest of the 256, → the
/// nearest of the 16).
public struct TerminalStyle: Hashable, Sendable {
  /// A colour.
  public enum Color: Hashable, Sendable {
    /// One of the 16 ANSI colours (0–7 normal, 8–15 bright).
    case ansi(Int)
    /// One of the 256 palette colours.
    case palette(Int)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)
  }

  /// SGR attribute codes (1 bold, 2 dim, 3 italic, 4 underline, 5 blink, 7 reverse, 9 strike).
  public var attributes: Set<Int> = []
  /// The foreground colour.
  public var foreground: Color?
  /// The background colour.
  public var background: Color?

  /// The empty style.
  public init() {}

  /// Reads a style string.
  /// - Throws: ``StyleError`` naming the word it could not read.
  public init(_ text: String) throws(StyleError) {
    let words = text.lowercased().split(separator: " ").map(String.init)
    var index = 0
    var negate = false
    while index < words.count {
      let word = words[index]
      index += 1
      if word == "not" {
        negate = true
        continue
      }
      if let code = Self.attributeCodes[word] {
        if negate { attributes.remove(code) } else { attributes.insert(code) }
        negate = false
        continue
      }
      if word == "on" {
        guard index < words.count else { throw StyleError(word: "on", message: "expected a colour after 'on'") }
        background = try Self.color(words[index])
        index += 1
        continue
      }
      foreground = try Self.color(word)
    }
  }

  static let attributeCodes: [String: Int] = [
    "bold": 1, "b": 1, "dim": 2, "d": 2, "italic": 3, "i": 3, "underline": 4, "u": 4, "blink": 5, "reverse": 7,
    "r": 7, "strike": 9, "s": 9,
  ]

  static let colorNames = [
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
  ]

  static func color(_ word: String) throws(StyleError) -> Color {
    if let index = colorNames.firstIndex(of: word) { return .ansi(index) }
    if word.hasPrefix("bright_"), let index = colorNames.firstIndex(of: String(word.dropFirst(7))) {
      return .ansi(index + 8)
    }
    if word.hasPrefix("#"), word.count == 7, let value = UInt32(word.dropFirst(), radix: 16) {
      return .rgb(UInt8(value >> 16), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
    if word.hasPrefix("rgb("), word.hasSuffix(")") {
      let parts = word.dropFirst(4).dropLast().split(separator: ",").compactMap {
        UInt8($0.trimmingCharacters(in: " "))
      }
      if parts.count == 3 { return .rgb(parts[0], parts[1], parts[2]) }
    }
    if word.hasPrefix("color("), word.hasSuffix(")"), let number = Int(word.dropFirst(6).dropLast()),
      (0...255).contains(number)
    {
      return .palette(number)
    }
    throw StyleError(
      word: word, message: "'\(word)' is not a style attribute or a colour (a name, #rrggbb, rgb(r,g,b) or color(n))")
  }

  /// The SGR parameters that draw this style at a colour level; none at level `none`.
  package func sgr(_ level: ColorLevel) -> [String] {
    guard level > .none else { return [] }
    var codes = attributes.sorted().map(String.init)
    if let foreground { codes += Self.codes(foreground, level: level, background: false) }
    if let background { codes += Self.codes(background, level: level, background: true) }
    return codes
  }

  static func codes(_ color: Color, level: ColorLevel, background: Bool) -> [String] {
    let base = background ? 40 : 30
    switch (color, level) {
    case (.ansi(let index), _):
      return [String(index < 8 ? base + index : base + 60 + index - 8)]
    case (.palette(let index), .ansi16):
      return codes(.ansi(nearestANSI(rgb: paletteRGB(index))), level: level, background: background)
    case (.palette(let index), _):
      return [String(base + 8), "5", String(index)]
    case (.rgb(let r, let g, let b), .truecolor):
      return [String(base + 8), "2", String(r), String(g), String(b)]
    case (.rgb(let r, let g, let b), .ansi256):
      return [String(base + 8), "5", String(nearestPalette(r, g, b))]
    case (.rgb(let r, let g, let b), _):
      return codes(.ansi(nearestANSI(rgb: (Int(r), Int(g), Int(b)))), level: level, background: background)
    }
  }

  /// The RGB of a 256-palette colour (xterm's values).
  static func paletteRGB(_ index: Int) -> (Int, Int, Int) {
    if index < 16 { return ansiRGB[index] }
    if index < 232 {
      let steps = [0, 95, 135, 175, 215, 255]
      let value = index - 16
      return (steps[value / 36], steps[value / 6 % 6], steps[value % 6])
    }
    let gray = 8 + (index - 232) * 10
    return (gray, gray, gray)
  }

  static let ansiRGB = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
    (255, 255, 255),
  ]

  static func nearestPalette(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
    (16...255).min {
      distance(paletteRGB($0), (Int(r), Int(g), Int(b))) < distance(paletteRGB($1), (Int(r), Int(g), Int(b)))
    } ?? 16
  }

  static func nearestANSI(rgb: (Int, Int, Int)) -> Int {
    (0..<16).min { distance(ansiRGB[$0], rgb) < distance(ansiRGB[$1], rgb) } ?? 7
  }

  static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
    (a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1) + (a.2 - b.2) * (a.2 - b.2)
  }
}

/// A style string that could not be read.
public struct StyleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The word.
  public var word: String
  /// What is wrong.
  public var message: String
  /// The message.
  public var description: String { message }
}

extension StringProtocol {
  fileprivate func trimmingCharacters(in characters: String) -> String {
    String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
  }
}
