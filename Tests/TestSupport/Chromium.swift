import Foundation

/// Headless Chromium (Debian's `chromium`), for tests that need a real browser: it loads a page from a file,
/// runs its scripts, and gives back the DOM or a screenshot.
public enum Chromium {
  /// A browser run that failed.
  public struct Failure: Error, CustomStringConvertible {
    /// What happened.
    public var description: String
  }

  static let baseArguments = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
    "--disable-extensions", "--disable-dev-shm-usage", "--force-device-scale-factor=1", "--hide-scrollbars",
    "--font-render-hinting=none", "--mute-audio", "--disable-background-networking", "--disable-sync",
  ]

  /// The narrowest window that headless Chromium draws, in CSS px: a narrower `--window-size` gets this width.
  public static let narrowestWindow = 500

  /// Loads `html` (written to a temporary file) and returns the DOM after its scripts ran.
  public static func dumpDOM(_ html: String, budget milliseconds: Int = 20_000, flags: [String] = []) throws -> String {
    try withPage(html) { try dumpDOM(ofPageAt: $0, budget: milliseconds, flags: flags) }
  }

  /// ``dumpDOM(_:budget:flags:)`` of the page file at `page`.
  public static func dumpDOM(ofPageAt page: URL, budget milliseconds: Int = 20_000, flags: [String] = []) throws
    -> String
  {
    try run(page, extra: flags + ["--virtual-time-budget=\(milliseconds)", "--dump-dom"])
  }

  /// The text of `<pre id="out">` in the DOM after the page's scripts ran (where test pages put their JSON),
  /// HTML entities decoded.
  public static func output(of html: String, budget milliseconds: Int = 20_000, flags: [String] = []) throws -> String {
    try withPage(html) { try output(ofPageAt: $0, budget: milliseconds, flags: flags) }
  }

  /// ``output(of:budget:flags:)`` of the page file at `page`.
  public static func output(ofPageAt page: URL, budget milliseconds: Int = 20_000, flags: [String] = []) throws
    -> String
  {
    let dom = try dumpDOM(ofPageAt: page, budget: milliseconds, flags: flags)
    guard let start = dom.range(of: "<pre id=\"out\">"),
      let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
    else { throw Failure(description: "the page wrote no <pre id=\"out\">: \(dom.prefix(300))") }
    return decodeEntities(String(dom[start.upperBound..<end.lowerBound]))
  }

  /// Takes a screenshot of `html` at a window size, as PNG bytes.
  public static func screenshot(_ html: String, width: Int, height: Int, flags: [String] = []) throws -> Data {
    try withPage(html) { try screenshot(ofPageAt: $0, flags: flags + ["--window-size=\(width),\(height)"]) }
  }

  /// A screenshot (PNG) of the page file at `page`, in the window that `flags` size (`--window-size=W,H`).
  public static func screenshot(ofPageAt page: URL, flags: [String]) throws -> Data {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("shot.png")
    _ = try run(page, extra: flags + ["--virtual-time-budget=5000", "--screenshot=\(png.path)"])
    return try Data(contentsOf: png)
  }

  /// `body` with the URL of a temporary file holding `html`.
  private static func withPage<T>(_ html: String, _ body: (URL) throws -> T) throws -> T {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("page.html")
    try Data(html.utf8).write(to: page)
    return try body(page)
  }

  private static func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-chromium-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// How long a run may take in wall-clock time: a deadline against a browser that hangs, far above what a page
  /// takes on a loaded machine (the whole suite in parallel on two cores).
  static let wallClockSeconds = 600.0

  /// Runs Chromium on `page` with a profile of its own, and returns what it printed.
  private static func run(_ page: URL, extra: [String]) throws -> String {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out")
    let err = folder.appendingPathComponent("err")
    try Data().write(to: out)
    try Data().write(to: err)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
    process.arguments =
      baseArguments + ["--user-data-dir=\(folder.appendingPathComponent("profile").path)"] + extra
      + [page.absoluteString]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
      throw Failure(description: "/usr/bin/chromium is missing: run scripts/install-dependencies")
    }
    try process.run()
    let deadline = Date().addingTimeInterval(wallClockSeconds)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
      process.terminate()
      throw Failure(description: "chromium did not finish in \(Int(wallClockSeconds)) s")
    }
    let stdout = String(decoding: try Data(contentsOf: out), as: UTF8.self)
    let stderr = String(decoding: try Data(contentsOf: err), as: UTF8.self)
    guard process.terminationStatus == 0 else {
      throw Failure(description: "chromium exited with \(process.terminationStatus): \(stderr.suffix(500))")
    }
    return stdout
  }

  /// Decodes the entities that `--dump-dom` writes in text.
  static func decodeEntities(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&nbsp;", with: "\u{A0}").replacingOccurrences(of: "&amp;", with: "&")
  }
}
