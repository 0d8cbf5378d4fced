import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP connection to a port on 127.0.0.1, for the browser drivers: Marionette's framed JSON and WebDriver's
/// HTTP.
///
/// Blocking reads with a time limit, so that a browser that stops answering fails the test.
final class LoopbackConnection {
  private let socket: Int32

  /// A connection failure or a read past the time limit.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Connects to `port`, trying again until `deadline` (a driver starts listening a moment after its launch);
  /// reads wait at most `readTimeout` seconds.
  init(port: Int, deadline: Date, readTimeout: Int = 600) throws {
    while true {
      let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      if connected == 0 {
        var limit = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        socket = fd
        return
      }
      Glibc.close(fd)
      guard Date() < deadline else { throw Failure(description: "nothing listens on 127.0.0.1:\(port)") }
      usleep(100_000)
    }
  }

  deinit { Glibc.close(socket) }

  /// Writes all of `bytes`.
  func send(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let written = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard written > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
      sent += written
    }
  }

  /// The next bytes that arrive (empty at the end of the stream).
  func receive() throws -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, 0) }
    guard count >= 0 else { throw Failure(description: "no answer from the browser (errno \(errno))") }
    return Array(buffer[..<count])
  }

  /// A port that nothing listens on now, chosen by the system.
  static func freePort() throws -> Int {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { Glibc.close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw Failure(description: "no free port: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
