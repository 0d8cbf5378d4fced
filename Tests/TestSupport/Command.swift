import Foundation

/// Runs the built `unfold` executable, as end-to-end tests do.
public enum Command {
  /// What a run printed and how it ended.
  public struct Result: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output, as text.
    public var stdout: String
    /// Standard error, as text.
    public var stderr: String
  }

  /// The `unfold` binary next to the test bundle in the build folder.
  public static var executable: URL { product("unfold") }

  /// A product of the package, built next to the test bundle in the build folder.
  public static func product(_ name: String) -> URL {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path),
      folder.path != "/"
    {
      folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent(name)
  }

  /// Runs `unfold` (or another `product` of the package) with arguments and bytes on standard input.
  public static func run(
    _ arguments: [String], stdin: Data = Data(), environment: [String: String]? = nil, product name: String = "unfold"
  ) throws -> Result {
    let process = Process()
    process.executableURL = product(name)
    process.arguments = arguments
    var env = environment ?? ProcessInfo.processInfo.environment
    env["COLUMNS"] = env["COLUMNS"] ?? "80"
    process.environment = env
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("unfold-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let paths = ["in", "out", "err"].map { folder.appendingPathComponent($0) }
    try stdin.write(to: paths[0])
    for path in paths.dropFirst() { try Data().write(to: path) }
    process.standardInput = try FileHandle(forReadingFrom: paths[0])
    process.standardOutput = try FileHandle(forWritingTo: paths[1])
    process.standardError = try FileHandle(forWritingTo: paths[2])
    try process.run()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: paths[1]), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: paths[2]), as: UTF8.self))
  }
}
