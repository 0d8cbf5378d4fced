extension String {
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
