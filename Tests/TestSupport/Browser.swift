import Foundation
import Testing
import Unfold

/// A real browser of each engine, headless, for tests that load a page and read what its scripts wrote into
/// `<pre id="out">`.
///
/// - Blink: Debian's `chromium`, headless, driven by `chromedriver` (W3C WebDriver over HTTP), one process for every
///   page of a ``Browser`` (screenshots: a process each, ``Chromium``);
/// - Gecko: Debian's `firefox-esr`, driven over Marionette (length-prefixed JSON on a TCP port), one process
///   for every page of a ``Browser``;
/// - WebKit: Debian's WebKitGTK MiniBrowser, driven by `WebKitWebDriver` (W3C WebDriver over HTTP), under an
///   Xvfb display of its own (MiniBrowser's `--headless` does not answer WebDriver).
///
/// A browser is used by one test at a time; tests that run side by side start their own.
public final class Browser {
  /// The engine.
  public let engine: BrowserEngine
  /// Whether the browser tells pages that the reader asks for reduced motion (`prefers-reduced-motion: reduce`).
  public let reducedMotion: Bool
  /// The smallest font size in CSS px that the browser draws text at, whatever the page says (the reader's
  /// setting); nil for none.
  public let minimumFontSize: Int?
  private var driver: (any PageDriver)?

  /// A browser that failed.
  public struct Failure: Error, CustomStringConvertible {
    /// What happened.
    public var description: String
  }

  /// The size of a window's viewport, in CSS px.
  public struct Viewport: Sendable {
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// A viewport `width` × `height` CSS px.
    public init(width: Int, height: Int) {
      (self.width, self.height) = (width, height)
    }
  }

  /// Starts a browser of `engine`, one that asks pages for reduced motion when
  /// `reducedMotion`: Chromium's `--force-prefers-reduced-motion`, Firefox's `ui.prefersReducedMotion`, GTK's
  /// `gtk-enable-animations=false` for WebKitGTK.
  ///
  /// With a `minimumFontSize`: Chromium's `minimum_font_size` preference, Firefox's `font.minimum-size.*`;
  /// WebKitGTK's MiniBrowser offers none, so that is a failure.
  public init(_ engine: BrowserEngine, reducedMotion: Bool = false, minimumFontSize: Int? = nil) throws {
    self.engine = engine
    self.reducedMotion = reducedMotion
    self.minimumFontSize = minimumFontSize
    driver = try Self.start(engine, reducedMotion: reducedMotion, minimumFontSize: minimumFontSize)
  }

  /// The driver of a new browser of `engine`.
  private static func start(_ engine: BrowserEngine, reducedMotion: Bool, minimumFontSize: Int?) throws
    -> any PageDriver
  {
    switch engine {
    case .blink, .any: return try WebDriver.chromium(reducedMotion: reducedMotion, minimumFontSize: minimumFontSize)
    case .gecko: return try Marionette(reducedMotion: reducedMotion, minimumFontSize: minimumFontSize)
    case .webkit:
      if minimumFontSize != nil {
        throw Failure(description: "WebKitGTK's MiniBrowser has no setting of a minimum font size")
      }
      return try WebDriver.webKit(reducedMotion: reducedMotion)
    }
  }

  deinit { close() }

  /// Ends the browser's processes.
  public func close() {
    driver?.close()
    driver = nil
  }

  /// Runs `body` with a browser of `engine`, closed after it.
  public static func with<T>(
    _ engine: BrowserEngine, reducedMotion: Bool = false, minimumFontSize: Int? = nil, _ body: (Browser) throws -> T
  ) throws -> T {
    let browser = try Browser(engine, reducedMotion: reducedMotion, minimumFontSize: minimumFontSize)
    defer { browser.close() }
    return try body(browser)
  }

  /// The engines that tests run in.
  public static let engines: [BrowserEngine] = [.blink, .gecko, .webkit]

  /// Loads `html` (written to a temporary file) and returns the text of `<pre id="out">` once the page's scripts
  /// wrote it, waiting at most `seconds`: a deadline against a page that never writes, far above what a page takes
  /// on a loaded machine.
  ///
  /// With `UNFOLD_PAGE_LOG=FILE` in the environment, each page appends a line to FILE: its engine, seconds, size,
  /// `test` (the current one's name, which a thread of a test's own must pass) and caller.
  public func output(
    of html: String, seconds: Int = 600, test: String? = Test.current?.name, file: StaticString = #fileID,
    line: UInt = #line
  ) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-page-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("page.html")
    try Data(html.utf8).write(to: page)
    return try output(ofPageAt: page, seconds: seconds, test: test, file: file, line: line)
  }

  /// Loads the page file at `page` (which finds the files it links beside it) in a viewport of `viewport` (by default
  /// the browser's own) and returns the text of `<pre id="out">` once the page's scripts wrote it, as
  /// ``output(of:seconds:file:line:)``.
  public func output(
    ofPageAt page: URL, viewport: Viewport? = nil, seconds: Int = 600, test: String? = Test.current?.name,
    file: StaticString = #fileID, line: UInt = #line
  ) throws -> String {
    let start = Date()
    defer {
      if let log = ProcessInfo.processInfo.environment["UNFOLD_PAGE_LOG"] {
        let size = ((try? FileManager.default.attributesOfItem(atPath: page.path)[.size]) as? Int ?? 0) / 1024
        let entry = String(
          format: "%.1f s %@ %d KB %@ %@:%u\n", Date().timeIntervalSince(start), "\(engine)", size,
          test ?? "-", "\(file)", line)
        Self.append(entry, to: log)
      }
    }
    let frame = try viewport.map { try Self.frame(page, in: $0) }
    defer { if let frame { try? FileManager.default.removeItem(at: frame) } }
    guard let viewport, let frame else {
      return try retried { try Self.read(page, from: $0, engine: engine, seconds: seconds) }
    }
    return try retried { driver in
      try Self.resize(driver, toHold: viewport)
      return try Self.read(frame, from: driver, engine: engine, seconds: seconds)
    }
  }

  /// A screenshot (PNG) of the page file at `page` in a viewport of `viewport`, taken once the page posts a message to
  /// its parent (`parent.postMessage('ready','*')`, say when its fonts are ready); in Chromium, after 5 s of its
  /// virtual time.
  ///
  /// The page is drawn in a frame of that size at the top left of a window at least as large (no window of headless
  /// Chromium is narrower than 500 px, of Firefox or MiniBrowser than 450–500 px), and the screenshot cut to it.
  public func screenshot(ofPageAt page: URL, viewport: Viewport) throws -> Data {
    let frame = try Self.frame(page, in: viewport)
    defer { try? FileManager.default.removeItem(at: frame) }
    let png: Data
    if engine == .blink || engine == .any {
      png = try Chromium.screenshot(ofPageAt: frame, flags: chromiumFlags(viewport))
    } else {
      let base64 = try retried { driver in
        try Self.resize(driver, toHold: viewport)
        _ = try Self.read(frame, from: driver, engine: engine, seconds: 600)
        return try driver.screenshot()
      }
      guard let data = Data(base64Encoded: base64) else {
        throw Failure(description: "\(engine): the screenshot is not base64")
      }
      png = data
    }
    return Self.size(ofPNG: png) == [viewport.width, viewport.height] ? png : try Self.cropped(png, to: viewport)
  }

  /// The width and height in a PNG's header (`IHDR`), or nil when `data` is no PNG.
  public static func size(ofPNG data: Data) -> [Int]? {
    let bytes = [UInt8](data.prefix(24))
    guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
    let number = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return [number(16), number(20)]
  }

  /// A page beside `page` that shows it in an `<iframe>` of the size of `viewport` (a window of Firefox or
  /// MiniBrowser is at least 450–500 px wide), and writes into its own `<pre id="out">` the first message that the
  /// page posts to it.
  private static func frame(_ page: URL, in viewport: Viewport) throws -> URL {
    let frame = page.deletingLastPathComponent().appendingPathComponent("unfold-frame-\(UUID()).html")
    // No scroll bar over the frame: the window may be taller than it, and the output is written below it.
    let html = """
      <!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0;overflow:hidden">\
      <iframe src="\(page.lastPathComponent)" style="display:block;border:0;width:\(viewport.width)px;\
      height:\(viewport.height)px"></iframe><pre id="out"></pre><script>addEventListener('message',function(e){\
      var o=document.getElementById('out');if(!o.textContent)o.textContent=e.data;});</script></body></html>
      """
    try Data(html.utf8).write(to: frame)
    return frame
  }

  /// Chromium's flags for the browser's settings and a window that holds a frame of `viewport`.
  private func chromiumFlags(_ viewport: Viewport?) -> [String] {
    (reducedMotion ? ["--force-prefers-reduced-motion"] : [])
      + (viewport.map { ["--window-size=\(max(Chromium.narrowestWindow, $0.width)),\($0.height)"] } ?? [])
  }

  /// The top left `viewport` of the PNG `png` (`scripts/crop-png.py`).
  private static func cropped(_ png: Data, to viewport: Viewport) throws -> Data {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-crop-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (whole, part) = (folder.appendingPathComponent("whole.png"), folder.appendingPathComponent("part.png"))
    try png.write(to: whole)
    let process = try launch(
      "/usr/bin/python3",
      [
        TestSupport.repositoryRoot.appendingPathComponent("scripts/crop-png.py").path, whole.path, part.path,
        String(viewport.width), String(viewport.height),
      ], in: folder)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: part.path) else {
      throw Failure(description: "scripts/crop-png.py failed")
    }
    return data
  }

  /// `body` with the browser's driver; run again in a new browser, once, when the driver fails as WebKitGTK's may.
  private func retried<T>(_ body: (any PageDriver) throws -> T) throws -> T {
    do {
      return try body(driver!)
    } catch let failure as Failure
      where failure.description.contains("crash or hang") || failure.description.hasPrefix("WebKitWebDriver")
    {
      // WebKitGTK's page process may die under load ("session deleted because of page crash or hang"), and its
      // driver may fail a navigation with an "unknown error" and no message (once in a whole suite run beside the
      // others on two cores): the page is loaded again in a new browser, once. A page that writes nothing in time,
      // anything else, or a second failure fails the test.
      close()
      driver = try Self.start(engine, reducedMotion: reducedMotion, minimumFontSize: minimumFontSize)
      return try body(driver!)
    }
  }

  /// Sizes the window of `driver` so that its viewport holds a frame of `viewport` at its top left (the window's frame
  /// and bars added; at least 600 px wide).
  private static func resize(_ driver: any PageDriver, toHold viewport: Viewport) throws {
    let wanted = [max(600, viewport.width), viewport.height]
    var size = wanted
    for _ in 0..<2 {
      try driver.resize(width: size[0], height: size[1])
      let inner = try driver.execute("return innerWidth+' '+innerHeight").split(separator: " ").compactMap { Int($0) }
      guard inner.count == 2, inner[0] < wanted[0] || inner[1] < wanted[1] else { return }
      size = [size[0] + wanted[0] - inner[0], size[1] + wanted[1] - inner[1]]
    }
  }

  /// Appends `entry` to the file at `path`, made if missing.
  private static func append(_ entry: String, to path: String) {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard descriptor >= 0 else { return }
    defer { Foundation.close(descriptor) }
    _ = entry.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
  }

  /// The page's output, read once its scripts wrote it.
  private static func read(_ page: URL, from driver: any PageDriver, engine: BrowserEngine, seconds: Int) throws
    -> String
  {
    let read = "var o=document.getElementById('out');return o?o.textContent:'';"
    let deadline = Date().addingTimeInterval(Double(seconds))
    try driver.navigate(to: page.absoluteString)
    while true {
      let text = try driver.execute(read)
      if !text.isEmpty { return text }
      guard Date() < deadline else {
        throw Failure(description: "\(engine): the page wrote nothing into <pre id=\"out\"> in \(seconds) s")
      }
      usleep(100_000)
    }
  }

  /// Starts `executable` with `arguments`, its output in files of `folder`.
  static func launch(
    _ executable: String, _ arguments: [String], in folder: URL, environment: [String: String] = [:],
    standardOutput: Any? = nil
  ) throws -> Process {
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw Failure(description: "\(executable) is missing: run scripts/install-dependencies")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    let name = URL(fileURLWithPath: executable).lastPathComponent
    let log = folder.appendingPathComponent("\(name).log")
    try Data().write(to: log)
    process.standardOutput = try standardOutput ?? FileHandle(forWritingTo: log)
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    return process
  }

  /// Ends `process` (SIGTERM, then SIGKILL after `seconds`) and waits for it.
  static func stop(_ process: Process, seconds: Double = 5) {
    guard process.isRunning else { return }
    process.terminate()
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// A JSON value's text, or the JSON itself.
  static func string(_ value: Any?) -> String {
    if let text = value as? String { return text }
    guard let value, JSONSerialization.isValidJSONObject([value]),
      let data = try? JSONSerialization.data(withJSONObject: [value])
    else { return "" }
    return String(decoding: data, as: UTF8.self)
  }
}

/// What the tests ask of a browser's remote control.
protocol PageDriver: AnyObject {
  /// Loads the page at `url`.
  func navigate(to url: String) throws
  /// The value of `script` (a function body) run in the page, as text.
  func execute(_ script: String) throws -> String
  /// Sizes the window.
  func resize(width: Int, height: Int) throws
  /// A screenshot of the viewport: PNG, in base64.
  func screenshot() throws -> String
  /// Ends the browser.
  func close()
}

/// Firefox ESR over Marionette: a profile of its own (device scale 1, `file:` fonts from any folder, no
/// network), the port the browser chose read from the profile.
final class Marionette: PageDriver {
  private let folder: URL
  private let process: Process
  private var connection: LoopbackConnection?
  private var received: [UInt8] = []
  private var messageID = 0

  static let preferences = [
    "marionette.port": "0",
    "security.fileuri.strict_origin_policy": "false",
    "layout.css.devPixelsPerPx": "\"1.0\"",
    "browser.shell.checkDefaultBrowser": "false",
    "browser.startup.page": "0",
    "browser.startup.homepage_override.mstone": "\"ignore\"",
    "datareporting.policy.dataSubmissionEnabled": "false",
    "toolkit.telemetry.reportingpolicy.firstRun": "false",
    "app.update.enabled": "false",
    "network.proxy.type": "0",
    "browser.safebrowsing.malware.enabled": "false",
    "browser.safebrowsing.phishing.enabled": "false",
    "extensions.update.enabled": "false",
    "app.normandy.enabled": "false",
    "messaging-system.rsexperimentloader.enabled": "false",
    "dom.max_script_run_time": "0",
  ]

  init(reducedMotion: Bool, minimumFontSize: Int? = nil) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-firefox-\(UUID())")
    let profile = folder.appendingPathComponent("profile")
    try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
    var preferences = Self.preferences
    if reducedMotion { preferences["ui.prefersReducedMotion"] = "1" }
    if let minimumFontSize {
      for group in ["x-western", "x-unicode", "x-cyrillic", "el", "zh-CN", "ja", "ko", "th", "ar", "he"] {
        preferences["font.minimum-size.\(group)"] = String(minimumFontSize)
      }
    }
    let prefs = preferences.sorted { $0.key < $1.key }.map { "user_pref(\"\($0.key)\", \($0.value));" }
    try Data(prefs.joined(separator: "\n").utf8).write(to: profile.appendingPathComponent("user.js"))
    process = try Browser.launch(
      "/usr/bin/firefox-esr", ["--headless", "--marionette", "--no-remote", "-profile", profile.path, "about:blank"],
      in: folder, environment: ["MOZ_CRASHREPORTER_DISABLE": "1"])
    do {
      let portFile = profile.appendingPathComponent("MarionetteActivePort")
      let deadline = Date().addingTimeInterval(60)
      var port: Int?
      while port == nil {
        if let text = try? String(contentsOf: portFile, encoding: .utf8),
          let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), number > 0
        {
          port = number
        } else if Date() > deadline || !process.isRunning {
          throw Browser.Failure(description: "Firefox did not start Marionette: \(log())")
        } else {
          usleep(100_000)
        }
      }
      connection = try LoopbackConnection(port: port!, deadline: deadline)
      _ = try receiveMessage()  // the greeting
      _ = try command("WebDriver:NewSession", ["capabilities": ["alwaysMatch": ["pageLoadStrategy": "normal"]]])
    } catch {
      Browser.stop(process)
      try? FileManager.default.removeItem(at: folder)
      throw error
    }
  }

  private func log() -> String {
    let text = (try? String(contentsOf: folder.appendingPathComponent("firefox-esr.log"), encoding: .utf8)) ?? ""
    return String(text.suffix(400))
  }

  func navigate(to url: String) throws { _ = try command("WebDriver:Navigate", ["url": url]) }

  func execute(_ script: String) throws -> String {
    let result = try command("WebDriver:ExecuteScript", ["script": script, "args": [Any]()])
    return Browser.string((result as? [String: Any])?["value"])
  }

  func resize(width: Int, height: Int) throws {
    _ = try command("WebDriver:SetWindowRect", ["width": width, "height": height])
  }

  func screenshot() throws -> String {
    Browser.string((try command("WebDriver:TakeScreenshot", ["full": false]) as? [String: Any])?["value"])
  }

  func close() {
    if connection != nil { _ = try? command("Marionette:Quit", ["flags": ["eForceQuit"]]) }
    connection = nil
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(50_000) }
    Browser.stop(process)
    try? FileManager.default.removeItem(at: folder)
  }

  /// Sends `[0, id, name, parameters]` and returns the result of the answer `[1, id, error, result]`.
  private func command(_ name: String, _ parameters: [String: Any]) throws -> Any? {
    guard let connection else { throw Browser.Failure(description: "Marionette is closed") }
    messageID += 1
    let body = try JSONSerialization.data(withJSONObject: [0, messageID, name, parameters] as [Any])
    try connection.send(Array("\(body.count):".utf8) + Array(body))
    while true {
      guard let message = try receiveMessage() as? [Any], message.count == 4 else {
        throw Browser.Failure(description: "Marionette answered \(name) with something else")
      }
      guard (message[1] as? Int) == messageID else { continue }
      if let error = message[2] as? [String: Any] {
        throw Browser.Failure(description: "Marionette \(name): \(error["error"] ?? "") \(error["message"] ?? "")")
      }
      return message[3]
    }
  }

  /// The next `length:json` message.
  private func receiveMessage() throws -> Any {
    guard let connection else { throw Browser.Failure(description: "Marionette is closed") }
    while true {
      if let colon = received.firstIndex(of: UInt8(ascii: ":")),
        let length = Int(String(decoding: received[..<colon], as: UTF8.self)),
        received.count - colon - 1 >= length
      {
        let body = Data(received[(colon + 1)..<(colon + 1 + length)])
        received.removeFirst(colon + 1 + length)
        return try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
      }
      let more = try connection.receive()
      guard !more.isEmpty else { throw Browser.Failure(description: "Firefox closed Marionette: \(log())") }
      received += more
    }
  }
}

/// A browser driven over W3C WebDriver by its driver on a free port: WebKitGTK's MiniBrowser by WebKitWebDriver, on an
/// Xvfb display of its own, or headless Chromium by chromedriver.
final class WebDriver: PageDriver {
  private let folder: URL
  /// The driver's name, which starts its failures' descriptions.
  let name: String
  private let display: Process?
  private let driver: Process
  private let port: Int
  private var session: String?

  static let miniBrowser = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"

  /// WebKitGTK's MiniBrowser; with `reducedMotion`, GTK's animations off.
  static func webKit(reducedMotion: Bool) throws -> WebDriver {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-webkit-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // GTK's settings, from a configuration folder of the browser's own.
    let gtk = folder.appendingPathComponent("config/gtk-3.0")
    try FileManager.default.createDirectory(at: gtk, withIntermediateDirectories: true)
    try Data("[Settings]\ngtk-enable-animations=\(reducedMotion ? "false" : "true")\n".utf8).write(
      to: gtk.appendingPathComponent("settings.ini"))
    // Xvfb chooses a free display and writes its number to standard output.
    let pipe = Pipe()
    let display = try Browser.launch(
      "/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "1600x1200x24", "-nolisten", "tcp"], in: folder,
      standardOutput: pipe)
    var number = ""
    let handle = pipe.fileHandleForReading
    while !number.hasSuffix("\n") {
      let byte = handle.readData(ofLength: 1)
      guard !byte.isEmpty else { break }
      number += String(decoding: byte, as: UTF8.self)
    }
    guard let screen = Int(number.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      Browser.stop(display)
      throw Browser.Failure(description: "Xvfb did not start")
    }
    return try WebDriver(
      name: "WebKitWebDriver", executable: "/usr/bin/WebKitWebDriver", folder: folder, display: display,
      environment: ["DISPLAY": ":\(screen)", "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path],
      capabilities: ["webkitgtk:browserOptions": ["binary": Self.miniBrowser, "args": ["--automation"]]])
  }

  /// Headless Chromium with the flags of ``Chromium``, a profile of its own, a window of 1280 × 1024 CSS px;
  /// with `reducedMotion`, `--force-prefers-reduced-motion`; with a `minimumFontSize`, its preference.
  ///
  /// One process for every page of a ``Browser``: a process a page (``Chromium``) took about a second to start, and
  /// `--dump-dom` wrote the whole page back, fonts included.
  static func chromium(reducedMotion: Bool, minimumFontSize: Int?) throws -> WebDriver {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unfold-chromium-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var options: [String: Any] = [
      "binary": "/usr/bin/chromium",
      "args": Chromium.baseArguments + (reducedMotion ? ["--force-prefers-reduced-motion"] : []) + [
        "--user-data-dir=\(folder.appendingPathComponent("profile").path)", "--window-size=1280,1024",
      ],
    ]
    if let size = minimumFontSize {
      options["prefs"] = ["webkit.webprefs.minimum_font_size": size, "webkit.webprefs.minimum_logical_font_size": size]
    }
    return try WebDriver(
      name: "chromedriver", executable: "/usr/bin/chromedriver", folder: folder, display: nil, environment: [:],
      capabilities: ["browserName": "chrome", "goog:chromeOptions": options])
  }

  /// Starts the driver `executable` in `folder`, with `environment`, and a session of `capabilities`; stops the
  /// driver and the `display` on failure.
  private init(
    name: String, executable: String, folder: URL, display: Process?, environment: [String: String],
    capabilities: [String: Any]
  ) throws {
    (self.name, self.folder, self.display) = (name, folder, display)
    do {
      port = try LoopbackConnection.freePort()
      driver = try Browser.launch(executable, ["--port=\(port)"], in: folder, environment: environment)
    } catch {
      display.map { Browser.stop($0) }
      throw error
    }
    do {
      let answer = try request(
        "POST", "/session", ["capabilities": ["alwaysMatch": capabilities]], deadline: Date().addingTimeInterval(60))
      guard let id = (answer as? [String: Any])?["sessionId"] as? String else {
        throw Browser.Failure(description: "\(name) gave no session: \(answer ?? "")")
      }
      session = id
    } catch {
      Browser.stop(driver)
      display.map { Browser.stop($0) }
      throw error
    }
  }

  func navigate(to url: String) throws { _ = try request("POST", "/session/\(session ?? "")/url", ["url": url]) }

  func execute(_ script: String) throws -> String {
    Browser.string(try request("POST", "/session/\(session ?? "")/execute/sync", ["script": script, "args": [Any]()]))
  }

  func resize(width: Int, height: Int) throws {
    _ = try request("POST", "/session/\(session ?? "")/window/rect", ["width": width, "height": height])
  }

  func screenshot() throws -> String { Browser.string(try request("GET", "/session/\(session ?? "")/screenshot", nil)) }

  func close() {
    if let session { _ = try? request("DELETE", "/session/\(session)", nil) }
    session = nil
    Browser.stop(driver)
    display.map { Browser.stop($0) }
    try? FileManager.default.removeItem(at: folder)
  }

  /// One HTTP request to the driver (a connection each), and the `value` of its JSON answer.
  private func request(_ method: String, _ path: String, _ body: [String: Any]?, deadline: Date = Date()) throws
    -> Any?
  {
    let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
    let connection = try LoopbackConnection(port: port, deadline: deadline)
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    head += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(payload.count)\r\n\r\n"
    try connection.send(Array(head.utf8) + Array(payload))
    // The answer ends when its body does (chromedriver keeps the connection open despite `Connection: close`): at its
    // Content-Length, at the last chunk of a chunked one, or else where the driver closes the connection.
    var answer: [UInt8] = []
    let separator = Array("\r\n\r\n".utf8)
    var split: Int?
    while true {
      let more = try connection.receive()
      if more.isEmpty { break }
      answer += more
      if split == nil { split = answer.indices.first { answer[$0...].starts(with: separator) } }
      guard let split else { continue }
      let headers = String(decoding: answer[..<split], as: UTF8.self).lowercased()
      if let line = headers.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
        let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
      {
        if answer.count >= split + 4 + length { break }
      } else if headers.contains("transfer-encoding: chunked"), answer.suffix(5) == Array("0\r\n\r\n".utf8) {
        break
      }
    }
    guard let split else {
      throw Browser.Failure(description: "\(name) answered \(method) \(path) with no HTTP")
    }
    let headers = String(decoding: answer[..<split], as: UTF8.self).lowercased()
    var content = Array(answer[(split + 4)...])
    if headers.contains("transfer-encoding: chunked") { content = Self.dechunked(content) }
    let json = try JSONSerialization.jsonObject(with: Data(content), options: [.fragmentsAllowed])
    let value = (json as? [String: Any])?["value"]
    if let error = value as? [String: Any], let kind = error["error"] {
      throw Browser.Failure(description: "\(name) \(method) \(path): \(kind) \(error["message"] ?? "")")
    }
    return value
  }

  /// The body of a chunked HTTP answer.
  private static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var index = 0
    while let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\r")),
      let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16),
      size > 0, lineEnd + 2 + size <= bytes.count
    {
      result += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
      index = lineEnd + 2 + size + 2
      guard index < bytes.count else { break }
    }
    return result
  }
}
