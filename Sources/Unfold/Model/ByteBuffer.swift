/// Bytes appended piece by piece, kept from one use to the next: an array at its longest length and a count of
/// the bytes in use, so that appending is a check of room and a copy.
///
/// `Array.append(contentsOf:)` from a buffer took about 170 instructions a call besides the copy. With this buffer
/// for the chunks that cmark reads, the text that the styled text's builder collects and the renderers' output,
/// the pipeline on 1 MB takes 155.6 → 152.7 M instructions to the terminal and 66.7 → 64.1 M to HTML. A comment's
/// pipeline counts 206.7 → 212.7 k to the terminal and 314.1 → 321.0 k to HTML, most of it the zeros that a
/// growth writes with `rep stosb`, which callgrind counts a byte at a time; alternating runs of the two binaries
/// (8 pairs of 30,000 comments) put the new one at 0.94 of the old in the median.
struct ByteBuffer: Sendable {
  private var storage: [UInt8] = []
  /// The number of bytes in use.
  private(set) var count = 0

  /// An empty buffer.
  init() {}

  /// Whether no byte is in use.
  var isEmpty: Bool { count == 0 }

  /// Makes room for `capacity` bytes in all, so that appending up to them does not move the storage: capacity,
  /// not placeholders (zeros written into a renderer's reserved room were a quarter of a comment's HTML).
  mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

  /// Appends the bytes.
  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    let start = count
    let end = start + bytes.count
    if end > storage.count { grow(to: end) }
    storage.withUnsafeMutableBufferPointer {
      UnsafeMutableRawPointer($0.baseAddress.unsafelyUnwrapped + start).copyMemory(from: source, byteCount: bytes.count)
    }
    count = end
  }

  /// Appends one byte.
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if count == storage.count { grow(to: count + 1) }
    storage[count] = byte
    count += 1
  }

  /// Removes the last byte in use.
  mutating func removeLast() {
    precondition(count > 0, "a byte to remove")
    count -= 1
  }

  /// Removes every byte, keeping the storage.
  mutating func removeAll() { count = 0 }

  /// Calls `body` with the bytes in use.
  @inline(__always)
  func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let count = self.count
    return try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
  }

  /// The fewest bytes the storage grows to: a comment's buffers grow once or twice.
  private static var leastGrowth: Int { 4_096 }

  /// Lengthens the storage to at least `needed` bytes with zeros, doubling it (within its capacity when that is
  /// enough): the zeros made at once and copied on (appended as a repeated element, they were written one by one,
  /// 5,000 instructions for a comment's buffers).
  @inline(never)
  private mutating func grow(to needed: Int) {
    var length = max(needed, 2 * storage.count, Self.leastGrowth)
    if storage.capacity >= needed { length = min(length, storage.capacity) }
    storage += [UInt8](repeating: 0, count: length - storage.count)
  }
}
