internal import CICU

/// The order in which a terminal that draws cells as given (most of them) must receive a line that holds
/// right-to-left text: UAX #9's runs of one direction, resolved by ICU for the line at the paragraph's base
/// direction, laid out left to right (L2), each right-to-left run's clusters reversed and its mirrored characters
/// swapped (`(` for `)`, L4).
///
/// Lines are broken in logical order, as the browser breaks them; only the drawing of a line is reordered. Each
/// line is resolved on its own, at the paragraph's direction.
enum VisualOrder {
  /// A grapheme cluster of a line: the fragment it belongs to and its range in the fragment's text.
  struct Cluster {
    var fragment: Int
    var range: Range<String.Index>
    /// Whether it is drawn right to left (its characters mirrored).
    var isRightToLeft = false
  }

  /// The clusters of a fragment's text, in logical order.
  static func clusters(of text: String, fragment: Int) -> [Cluster] {
    var clusters: [Cluster] = []
    var start = text.startIndex
    while start < text.endIndex {
      let end = text.index(after: start)
      clusters.append(Cluster(fragment: fragment, range: start..<end))
      start = end
    }
    return clusters
  }

  /// The clusters of `line` in the order they are drawn left to right.
  static func clusters(of line: DisplayLine, direction: TextDirection) -> [Cluster] {
    var logical: [Cluster] = []
    var offsets: [Int] = []  // each cluster's UTF-16 offset in the line
    var units: [UInt16] = []
    for (index, fragment) in line.fragments.enumerated() {
      for cluster in clusters(of: fragment.text, fragment: index) {
        logical.append(cluster)
        offsets.append(units.count)
        units.append(contentsOf: fragment.text[cluster.range].utf16)
      }
    }
    guard !units.isEmpty, units.count < Int(Int32.max) else { return logical }
    let capacity = units.count
    var starts = [Int32](repeating: 0, count: capacity)
    var lengths = [Int32](repeating: 0, count: capacity)
    var rightToLeft = [UInt8](repeating: 0, count: capacity)
    let count = units.withUnsafeBufferPointer { text in
      unfold_icu_bidi_visual_runs(
        text.baseAddress, Int32(text.count), direction == .rtl ? 1 : 0, &starts, &lengths, &rightToLeft,
        Int32(capacity))
    }
    guard count > 0 else { return logical }
    var visual: [Cluster] = []
    visual.reserveCapacity(logical.count)
    for run in 0..<Int(count) {
      let lower = offsets.partitionIndex { $0 >= Int(starts[run]) }
      let upper = offsets.partitionIndex { $0 >= Int(starts[run] + lengths[run]) }
      let isRightToLeft = rightToLeft[run] != 0
      let piece = logical[lower..<upper].map { cluster in
        var cluster = cluster
        cluster.isRightToLeft = isRightToLeft
        return cluster
      }
      visual.append(contentsOf: isRightToLeft ? piece.reversed() : piece)
    }
    return visual
  }

  /// A cluster's characters as drawn: mirrored when it is drawn right to left.
  static func drawn(_ characters: Substring, isRightToLeft: Bool) -> Substring {
    guard isRightToLeft else { return characters }
    var scalars = String.UnicodeScalarView()
    for scalar in characters.unicodeScalars {
      scalars.append(Unicode.Scalar(unfold_icu_mirror(scalar.value)) ?? scalar)
    }
    return Substring(String(scalars))
  }
}
