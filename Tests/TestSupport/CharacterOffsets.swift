/// The UTF-8 offsets where the characters of `text` start: Swift's own grapheme clusters, which the engine's
/// cluster readers are checked against.
public func characterOffsets(_ text: String) -> [Int] {
  var offsets: [Int] = []
  var offset = 0
  for character in text {
    offsets.append(offset)
    offset += character.utf8.count
  }
  return offsets
}
