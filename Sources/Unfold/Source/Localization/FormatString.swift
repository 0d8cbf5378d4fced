/// A printf-style format string split into literal text and conversion specifiers, as Foundation reads
/// `String(format:)` and the localized strings of SwiftUI: `%@ %d %i %u %ld %lld %llu %f %lf %.2f %e %g %x %X
/// %o %c %s %%`, positional `%2$@`, flags `-+ 0#'`, a width, a precision, length modifiers, and the plural
/// variables `%#@name@` of string tables.
///
/// Anything that is not a valid specifier (an unknown conversion, `*` widths, a width or precision past
/// 4,096, a `%` at the end) is kept as literal text and reported, never guessed at.
struct FormatString: Hashable, Sendable {
  /// A piece of the format.
  enum Token: Hashable, Sendable {
    case literal(String)
    case specifier(FormatSpecifier)
  }

  /// The pieces, in order.
  let tokens: [Token]
  /// Where the format holds something that looks like a specifier and is not one: UTF-8 offset and text.
  let invalid: [(offset: Int, text: String)]

  static func == (lhs: FormatString, rhs: FormatString) -> Bool { lhs.tokens == rhs.tokens }
  func hash(into hasher: inout Hasher) { hasher.combine(tokens) }

  /// Splits `format`.
  init(_ format: some StringProtocol) {
    var tokens: [Token] = []
    var invalid: [(offset: Int, text: String)] = []
    var literal = ""
    let scalars = Array(format.unicodeScalars)
    var offsets: [Int] = []  // the UTF-8 offset of each scalar
    var running = 0
    for scalar in scalars {
      offsets.append(running)
      running += UTF8.width(scalar)
    }
    var index = 0
    while index < scalars.count {
      guard scalars[index] == "%" else {
        literal.unicodeScalars.append(scalars[index])
        index += 1
        continue
      }
      if let (specifier, end) = FormatSpecifier.parse(scalars, at: index) {
        if specifier.conversion == "%" && specifier.isPlainPercent {
          literal += "%"
        } else {
          if !literal.isEmpty { tokens.append(.literal(literal)) }
          literal = ""
          var specifier = specifier
          specifier.offset = offsets[index]
          tokens.append(.specifier(specifier))
        }
        index = end
      } else {
        // Not a specifier: keep the `%` and go on after it.
        var end = index + 1
        while end < scalars.count && end < index + 8 && !scalars[end].properties.isWhitespace
          && scalars[end] != "%"
        {
          end += 1
        }
        invalid.append((offsets[index], String(String.UnicodeScalarView(scalars[index..<min(end, index + 2)]))))
        literal += "%"
        index += 1
      }
    }
    if !literal.isEmpty { tokens.append(.literal(literal)) }
    self.tokens = tokens
    self.invalid = invalid
  }

  /// The specifiers, in order.
  var specifiers: [FormatSpecifier] {
    tokens.compactMap {
      if case .specifier(let specifier) = $0 { return specifier }
      return nil
    }
  }

  /// The 1-based argument each specifier reads, in order: a positional one its own, the others the next in
  /// turn (a positional specifier does not move the turn, so `%@ … %1$@` both read argument 1).
  var argumentNumbers: [Int] {
    var next = 1
    return specifiers.map { specifier in
      if let position = specifier.position { return position }
      defer { next += 1 }
      return next
    }
  }
}

/// One conversion specifier: `%[n$][flags][width][.precision][length]conversion`, or `%[n$]#@name@`.
struct FormatSpecifier: Hashable, Sendable {
  /// The largest width or precision a specifier may ask for.
  static let maximumWidth = 4_096

  /// The UTF-8 offset of the `%` in the format it came from.
  var offset = 0
  /// The specifier as written.
  var text: String
  /// The explicit argument number (`%2$@`), 1-based.
  var position: Int?
  /// Flags among `-+ 0#'`.
  var flags: Set<Character> = []
  var width: Int?
  var precision: Int?
  /// Length modifier: `hh h l ll q L z t j`.
  var length = ""
  /// The conversion character, or `#` for a plural variable.
  var conversion: Character
  /// The name of a plural variable (`%#@files@`).
  var variable: String?

  /// Whether this is `%%`.
  var isPlainPercent: Bool { text == "%%" }

  /// What type of argument the conversion reads.
  enum Kind: Hashable, Sendable {
    case object, signed, unsigned, floating, character, cString, variable
  }

  var kind: Kind {
    switch conversion {
    case "@": return .object
    case "d", "i", "D": return .signed
    case "u", "U", "x", "X", "o", "O": return .unsigned
    case "f", "F", "e", "E", "g", "G", "a", "A": return .floating
    case "c", "C": return .character
    case "s", "S": return .cString
    default: return .variable
    }
  }

  /// Parses a specifier starting at the `%` at `start`; returns it and the index after it.
  static func parse(_ scalars: [Unicode.Scalar], at start: Int) -> (FormatSpecifier, Int)? {
    var index = start + 1
    func peek() -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    func digits() -> Int? {
      var value = 0
      var count = 0
      while let scalar = peek(), ("0"..."9").contains(scalar) {
        value = min(value * 10 + Int(scalar.value - 48), 1_000_000)
        index += 1
        count += 1
      }
      return count > 0 ? value : nil
    }
    func text() -> String { String(String.UnicodeScalarView(scalars[start..<index])) }
    if peek() == "%" {
      index += 1
      return (FormatSpecifier(text: "%%", conversion: "%"), index)
    }
    var position: Int?
    let save = index
    if let number = digits(), peek() == "$", number > 0 {
      position = number
      index += 1
    } else {
      index = save
    }
    // A plural variable: %#@name@ (or %1$#@name@).
    if peek() == "#", index + 1 < scalars.count, scalars[index + 1] == "@" {
      index += 2
      var name = ""
      while let scalar = peek(), scalar != "@" {
        guard !scalar.properties.isWhitespace, scalar != "%" else { return nil }
        name.unicodeScalars.append(scalar)
        index += 1
      }
      guard peek() == "@", !name.isEmpty else { return nil }
      index += 1
      return (FormatSpecifier(text: text(), position: position, conversion: "#", variable: name), index)
    }
    var flags: Set<Character> = []
    while let scalar = peek(), "-+ 0#'".unicodeScalars.contains(scalar) {
      flags.insert(Character(scalar))
      index += 1
    }
    if peek() == "*" { return nil }
    let width = digits()
    var precision: Int?
    if peek() == "." {
      index += 1
      if peek() == "*" { return nil }
      precision = digits() ?? 0
    }
    // A width or a precision past 4,096 would make one specifier megabytes long from a few bytes of a table
    // (the fuzzer found `%.425442545d`): such a specifier is not taken.
    guard (width ?? 0) <= FormatSpecifier.maximumWidth, (precision ?? 0) <= FormatSpecifier.maximumWidth else {
      return nil
    }
    var length = ""
    while let scalar = peek(), "hlqLztj".unicodeScalars.contains(scalar), length.count < 2 {
      length.unicodeScalars.append(scalar)
      index += 1
    }
    guard let conversion = peek(), "@dDiuUxXoOfFeEgGaAcCsS".unicodeScalars.contains(conversion) else {
      return nil
    }
    index += 1
    return (
      FormatSpecifier(
        text: text(), position: position, flags: flags, width: width, precision: precision, length: length,
        conversion: Character(conversion)),
      index
    )
  }
}
