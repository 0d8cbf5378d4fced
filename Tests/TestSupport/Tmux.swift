import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A tmux server of its own, with one session of a fixed size, for tests that need a real terminal.
public struct Tmux: ~Copyable {
  /// The socket name, unique per instance.
  public let socket = "unfold-test-\(UUID().uuidString.prefix(8))"

  /// Starts a detached session `width` × `height` cells running `command` under `sh`; with a `windowStyle`
  /// (`bg=#fdf6e3`), the command runs in a window of that style, whose background tmux reports to an OSC 11
  /// query.
  public init(width: Int, height: Int, command: String, windowStyle: String? = nil) throws {
    let size = ["-x", "\(width)", "-y", "\(height)"]
    // The server outlives this call: it must not inherit a pipe that a reader waits on.
    if let windowStyle {
      // The style is set before the command's window opens: a session first, then the window.
      try Self.tmux(
        captureOutput: false,
        ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "main"] + size
          + ["sleep 600", ";", "set", "-g", "window-style", windowStyle, ";", "new-window", "-t", "main", command])
    } else {
      try Self.tmux(
        captureOutput: false,
        ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "main"] + size + [command])
    }
  }

  deinit { _ = try? Self.tmux(["-L", socket, "kill-server"]) }

  /// The screen as text, one string per row, trailing blank rows dropped (`escapes` keeps attributes as SGR).
  public func screen(escapes: Bool = false) throws -> [String] {
    let text = try Self.tmux(["-L", socket, "capture-pane", "-p", "-t", "main"] + (escapes ? ["-e"] : []))
    var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while rows.last?.isEmpty == true { rows.removeLast() }
    return rows
  }

  /// Sends keys, as tmux names them (`Enter`, `Space`, `C-c`, `Escape`, `q`).
  public func sendKeys(_ keys: String...) throws {
    try Self.tmux(["-L", socket, "send-keys", "-t", "main"] + keys)
  }

  /// Resizes the window.
  public func resize(width: Int, height: Int) throws {
    try Self.tmux(["-L", socket, "resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
  }

  /// Whether the pane shows its cursor.
  public func cursorVisible() throws -> Bool {
    try Self.tmux(["-L", socket, "display-message", "-p", "-t", "main", "#{cursor_flag}"]).hasPrefix("1")
  }

  /// Sends `key`, then polls the screen until a line starts with `prefix`; returns the last screen.
  public func press(_ key: String, untilALineStartsWith prefix: String) throws -> [String] {
    try sendKeys(key)
    return try waitForScreen { $0.contains { $0.hasPrefix(prefix) } }
  }

  /// Polls the screen until `condition` holds or `timeout` seconds pass; returns the last screen.
  public func waitForScreen(timeout: Double = 10, until condition: ([String]) -> Bool) throws -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    var rows = try screen()
    while !condition(rows) && Date() < deadline {
      usleep(50_000)
      rows = try screen()
    }
    return rows
  }

  /// Held while a pipe is made close-on-exec and while tmux is spawned, so that no spawn happens between.
  static let spawnLock = Mutex(())

  /// Runs tmux with posix_spawn and waits for it. (Foundation's `Process.waitUntilExit` on Linux waits for
  /// the tmux server that `new-session` leaves running, so it is not used here.)
  @discardableResult
  static func tmux(captureOutput: Bool = true, _ arguments: [String]) throws -> String {
    // Close-on-exec, so that a tmux server started concurrently by another test never inherits this pipe
    // (its reader would then wait for that server to exit); dup2 onto standard output clears the flag.
    var fds: [Int32] = [0, 0]
    let piped = spawnLock.withLock { _ -> Bool in
      guard pipe(&fds) == 0 else { return false }
      _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
      _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
      return true
    }
    guard piped else { throw TmuxError(message: "pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if captureOutput {
      posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addclose(&actions, fds[1])
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "TMUX")
    environment["LANG"] = "C.UTF-8"
    let argv = (["tmux"] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    // The test process's threads may block signals; tmux and what it runs start with none blocked.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    let spawned = spawnLock.withLock { _ in posix_spawnp(&pid, "tmux", &actions, &attributes, argv, envp) }
    close(fds[1])
    defer { close(fds[0]) }
    guard spawned == 0 else { throw TmuxError(message: "cannot start tmux (error \(spawned)): is it installed?") }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(fds[0], &buffer, buffer.count)
      if count <= 0 { break }
      data.append(contentsOf: buffer[0..<count])
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard status == 0 else {
      throw TmuxError(message: "tmux \(arguments.joined(separator: " ")) failed with status \(status)")
    }
    return String(decoding: data, as: UTF8.self)
  }
}

/// A tmux command that failed.
public struct TmuxError: Error, CustomStringConvertible {
  /// What failed.
  public var message: String
  /// The message.
  public var description: String { message }
}
