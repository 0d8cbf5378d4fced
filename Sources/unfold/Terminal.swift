#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Facts about the terminal the command writes to.
enum Terminal {
  /// The width of standard output's terminal in columns, when it is one and reports a width.
  static func outputWidth() -> Int? {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// The height of standard output's terminal in rows, when it is one and reports a height.
  static func outputHeight() -> Int? {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
    return Int(size.ws_row)
  }

  /// Whether standard output is a terminal.
  static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// Whether standard input is a terminal.
  static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

  /// The width to lay out for: the terminal's, else `$COLUMNS`, else 80.
  static func defaultWidth(environment: [String: String]) -> Int {
    if let width = outputWidth() { return width }
    if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
    return 80
  }
}
