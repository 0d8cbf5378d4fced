extension RandomAccessCollection {
  /// The first index whose element satisfies `predicate`, which must be false for a prefix of the
  /// collection and true for the rest (`endIndex` when none does): a binary search.
  /// - Complexity: O(log *n*).
  func partitionIndex(where predicate: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if predicate(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
