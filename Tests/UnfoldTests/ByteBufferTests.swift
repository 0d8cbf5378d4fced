import TestSupport
import Testing

@testable import Unfold

/// The byte buffer behind the parser's chunks, the styled text's builder and the renderers' output.
@Suite struct ByteBufferTests {
  /// Pieces of every size, empty ones and ones longer than a growth among them, appended after a reservation
  /// or none, and emptied and filled again, hold what an array appended to holds.
  @Test(arguments: [0, 10, 5_000])
  func holdsWhatAnArrayHolds(reserved: Int) {
    var generator = SplitMix64(state: UInt64(reserved) + 1)
    var buffer = ByteBuffer()
    buffer.reserveCapacity(reserved)
    for round in 0..<3 {
      var expected: [UInt8] = []
      for _ in 0..<200 {
        let length = Int(generator.next() % 6 == 0 ? generator.next() % 9_000 : generator.next() % 12)
        let piece = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
        if length == 1 {
          buffer.append(piece[0])
        } else {
          piece.withUnsafeBufferPointer { buffer.append($0) }
        }
        expected += piece
        #expect(buffer.count == expected.count)
      }
      buffer.withUnsafeBufferPointer { #expect(Array($0) == expected) }
      buffer.removeLast()
      expected.removeLast()
      buffer.withUnsafeBufferPointer { #expect(Array($0) == expected) }
      buffer.removeAll()
      #expect(buffer.isEmpty)
    }
  }

  /// A copy is a value: appending to one leaves the other as it was.
  @Test func copiesAreValues() {
    var first = ByteBuffer()
    [1, 2, 3].withUnsafeBufferPointer { first.append($0) }
    var second = first
    second.append(4)
    first.append(9)
    first.withUnsafeBufferPointer { #expect(Array($0) == [1, 2, 3, 9]) }
    second.withUnsafeBufferPointer { #expect(Array($0) == [1, 2, 3, 4]) }
  }
}
