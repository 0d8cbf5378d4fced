extension String {
  /// `piece` `count` times (none for a count below 1), its bytes copied: `String(repeating:count:)` took about 6,500
  /// instructions for a table's border of `─` and 700 for a few spaces of padding, a fifth of drawing a table.
  static func repeated(_ piece: String, count: Int) -> String {
    guard count > 0 else { return "" }
    var piece = piece
    return piece.withUTF8 { bytes in
      String(unsafeUninitializedCapacity: bytes.count * count) { buffer in
        guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return 0 }
        if bytes.count == 1 {
          target.initialize(repeating: source.pointee, count: count)
        } else {
          for index in 0..<count { (target + index * bytes.count).initialize(from: source, count: bytes.count) }
        }
        return bytes.count * count
      }
    }
  }

  /// The string without a scalar at either end.
  func trimmingScalars(_ scalar: Unicode.Scalar) -> String {
    var scalars = Substring(self).unicodeScalars
    while scalars.first == scalar { scalars.removeFirst() }
    while scalars.last == scalar { scalars.removeLast() }
    return String(scalars)
  }
}

extension Substring {
  /// The substring without the trailing characters that match.
  func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
    var end = endIndex
    while end > startIndex {
      let previous = index(before: end)
      guard predicate(self[previous]) else { break }
      end = previous
    }
    return self[startIndex..<end]
  }
}
