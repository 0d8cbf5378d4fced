import Foundation

/// One of ICU4C's word dictionaries for a script written without spaces between words, with the break engine that
/// reads it: ICU's `dictbe.cpp` (its Thai, Lao, Burmese and Khmer engines, which Blink's and WebKit's line
/// breakers reach through ICU's line break iterator) and `BytesTrie`, in Swift, so that a profile can break with
/// another ICU's dictionaries and thresholds than the system's: Chromium's (``DictionaryBreaks/chromium``).
///
/// `WordDictionaryTests` holds it to the system's ICU: with the system's dictionaries and thresholds, it finds the
/// words ICU's iterator finds.
struct WordDictionary: Sendable {
  /// The scripts with a dictionary engine in ICU, each the Line_Break SA characters of its blocks.
  enum Script: Sendable, CaseIterable {
    case thai, lao, burmese, khmer

    /// The script whose engine takes a code point of a run of SA characters; `nil` for those of other scripts
    /// (Tai Tham, Tai Le and the rest), which ICU leaves whole.
    init?(_ value: UInt32) {
      switch value {
      case 0x0E00...0x0E7F: self = .thai
      case 0x0E80...0x0EFF: self = .lao
      case 0x1000...0x109F, 0xA9E0...0xA9FF, 0xAA60...0xAA7F: self = .burmese
      case 0x1780...0x17FF: self = .khmer
      default: return nil
      }
    }

    /// The name of ICU's dictionary (`brkitr/<name>.dict`).
    var dictionaryName: String {
      switch self {
      case .thai: "thaidict"
      case .lao: "laodict"
      case .burmese: "burmesedict"
      case .khmer: "khmerdict"
      }
    }
  }

  /// The script whose words the dictionary holds.
  let script: Script
  /// ICU's `BytesTrie` of the words, each code point mapped to a byte (``byte(_:)``).
  private let trie: [UInt8]
  /// The code point that maps to byte 0 (ICU's offset transform).
  private let offset: UInt32
  /// The engine's threshold: a non-word is not joined to a word before it of at least this many code points.
  var rootCombineThreshold: Int
  /// The engine's threshold: a non-word that starts with at least this many code points of a word is not joined to
  /// the word before it.
  var prefixCombineThreshold: Int

  /// A dictionary from the data of ICU's `brkitr/<name>.dict` after its header (eight 32-bit little-endian indexes,
  /// the trie's offset first, then the trie), with the engine's thresholds (ICU's are 3 and 3); `nil` unless the
  /// data holds a trie of bytes with an offset transform, as ICU's dictionaries for these scripts do.
  init?(script: Script, data: [UInt8], rootCombineThreshold: Int = 3, prefixCombineThreshold: Int = 3) {
    guard data.count >= 32 else { return nil }
    func index(_ i: Int) -> Int {
      Int(Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[i * 4 + $1]) << (8 * $1) }))
    }
    // The indexes: the trie's offset, two reserved, the total size, the trie's type (0: bytes, with values or not),
    // its transform (an offset transform: 0x0100_0000 plus the code point that maps to byte 0).
    let (start, size, type, transform) = (index(0), index(3), index(4), index(5))
    guard start >= 32, size > start, size <= data.count, type & 7 == 0, transform & 0x7F00_0000 == 0x0100_0000
    else { return nil }
    self.script = script
    self.trie = Array(data[start..<size])
    self.offset = UInt32(transform & 0x1F_FFFF)
    self.rootCombineThreshold = rootCombineThreshold
    self.prefixCombineThreshold = prefixCombineThreshold
  }

  /// A dictionary from the same data in base64, as a generated file holds it.
  init?(script: Script, base64: String) {
    guard let data = Data(base64Encoded: base64) else { return nil }
    self.init(script: script, data: [UInt8](data))
  }

  /// The indexes into `text` (code points, a run of Line_Break SA characters) after which ICU's line break
  /// iterator allows a break when it reads the run with `dictionaries` (ICU's `populateDictionary`): the run is
  /// cut into stretches of one script's engine, and each stretch into words; neither a stretch's end nor a stretch
  /// of a script without a dictionary gets a break.
  static func wordEnds(in text: [UInt32], dictionaries: [Script: WordDictionary]) -> [Int] {
    var found: [Int] = []
    var start = 0
    while start < text.count {
      let script = Script(text[start])
      var end = start + 1
      while end < text.count, Script(text[end]) == script { end += 1 }
      if let script, let dictionary = dictionaries[script] {
        dictionary.divide(text, range: start..<end, into: &found)
      }
      start = end
    }
    return found
  }

  // MARK: - The engine (ICU's divideUpDictionaryRange)

  /// How many words in a row are good enough.
  private static let lookahead = 3

  /// Appends to `found` the ends of the words in `text[range]` but the range's end, as ICU's engine for the script
  /// finds them: the longest word followed by two more, or by one, or the longest; a non-word runs to the next
  /// place where a word may start (joined to a short word before it); marks stay with what they follow; and in
  /// Thai, PAIYANNOI and MAIYAMOK stay with the word before them.
  private func divide(_ text: [UInt32], range: Range<Int>, into found: inout [Int]) {
    let (rangeStart, rangeEnd) = (range.lowerBound, range.upperBound)
    // Not enough characters for two words (Thai's engine counts on from the start, the others subtract).
    guard script == .thai ? rangeEnd - rangeStart > 4 : rangeEnd - rangeStart >= 4 else { return }
    var words = [PossibleWord](repeating: PossibleWord(), count: Self.lookahead)
    var wordsFound = 0
    var position = rangeStart
    func candidates(_ word: Int) -> Int {
      words[word % Self.lookahead].candidates(in: text, at: &position, rangeEnd: rangeEnd, dictionary: self)
    }
    while position < rangeEnd {
      let current = position
      var length = 0
      var markedLength = 0
      let count = candidates(wordsFound)
      if count == 1 {
        length = words[wordsFound % Self.lookahead].acceptMarked(at: &position)
        markedLength = length
        wordsFound += 1
      } else if count > 1 {
        // The longest word that two more follow, or else one more; else the longest.
        search: if position < rangeEnd {
          repeat {
            if candidates(wordsFound + 1) > 0 {
              words[wordsFound % Self.lookahead].markCurrent()
              if position >= rangeEnd { break search }
              repeat {
                if candidates(wordsFound + 2) > 0 {
                  words[wordsFound % Self.lookahead].markCurrent()
                  break search
                }
              } while words[(wordsFound + 1) % Self.lookahead].backUp(at: &position)
            }
          } while words[wordsFound % Self.lookahead].backUp(at: &position)
        }
        length = words[wordsFound % Self.lookahead].acceptMarked(at: &position)
        markedLength = length
        wordsFound += 1
      }
      // What follows a short word (or nothing) and is no word runs on to a plausible word start.
      if position < rangeEnd, markedLength < rootCombineThreshold {
        if candidates(wordsFound) <= 0,
          length == 0 || words[wordsFound % Self.lookahead].prefix < prefixCombineThreshold
        {
          var remaining = rangeEnd - (current + length)
          var chars = 0
          while true {
            let previous = text[position]
            position += 1
            chars += 1
            remaining -= 1
            if remaining <= 0 { break }
            if endsWord(previous), beginsWord(text[position]) {
              let count = candidates(wordsFound + 1)
              position = current + length + chars
              if count > 0 { break }
            }
          }
          if length <= 0 { wordsFound += 1 }
          length += chars
        } else {
          position = current + length
        }
      }
      // Never before a mark.
      while position < rangeEnd, isMark(text[position]) {
        position += 1
        length += 1
      }
      // Thai: PAIYANNOI and MAIYAMOK after a word, unless a word follows.
      if script == .thai, position < rangeEnd, length > 0 {
        if candidates(wordsFound) <= 0, Self.thaiSuffixes.contains(text[position]) {
          var next: UInt32? = text[position]
          if next == Self.paiyannoi, !Self.thaiSuffixes.contains(text[position - 1]) {
            position += 1
            length += 1
            next = position < text.count ? text[position] : nil
          }
          if next == Self.maiyamok, text[position - 1] != Self.maiyamok {
            position += 1
            length += 1
          }
        } else {
          position = current + length
        }
      }
      if length > 0 { found.append(current + length) }
    }
    // No break at the range's end.
    if let last = found.last, last >= rangeEnd { found.removeLast() }
  }

  /// Thai's PAIYANNOI (elision) and MAIYAMOK (repetition), which end the word before them.
  private static let (paiyannoi, maiyamok): (UInt32, UInt32) = (0x0E2F, 0x0E46)
  private static let thaiSuffixes: Set<UInt32> = [paiyannoi, maiyamok]

  /// Whether a word may end with a code point of the script (ICU's end-word set).
  private func endsWord(_ c: UInt32) -> Bool {
    guard Script(c) == script else { return false }
    switch script {
    case .thai: return c != 0x0E31 && !(0x0E40...0x0E44).contains(c)  // MAI HAN-AKAT, the prefix vowels
    case .lao: return !(0x0EC0...0x0EC4).contains(c)  // the prefix vowels
    case .burmese: return true
    case .khmer: return c != 0x17D2  // COENG, which joins the consonant after it
    }
  }

  /// Whether a word may start with a code point (ICU's begin-word set: consonants, independent and prefix vowels).
  private func beginsWord(_ c: UInt32) -> Bool {
    switch script {
    case .thai: (0x0E01...0x0E2E).contains(c) || (0x0E40...0x0E44).contains(c)
    case .lao: (0x0E81...0x0EAE).contains(c) || (0x0EDC...0x0EDD).contains(c) || (0x0EC0...0x0EC4).contains(c)
    case .burmese: (0x1000...0x102A).contains(c)
    case .khmer: (0x1780...0x17B3).contains(c)
    }
  }

  /// Whether a code point is a mark of the script (ICU's mark set; its space never occurs in a run).
  private func isMark(_ c: UInt32) -> Bool {
    guard Script(c) == script, let scalar = Unicode.Scalar(c) else { return false }
    let properties = UnicodeProperties(scalar)
    return properties.isMark && properties.lineBreak == .sa
  }

  /// The words starting at one place (ICU's `PossibleWord`): their lengths, shortest first, which of them the
  /// engine is trying, and which it prefers.
  private struct PossibleWord {
    /// ICU keeps at most this many.
    static let limit = 20
    var count = 0
    /// The code points read before the dictionary had no word going on.
    var prefix = 0
    var offset = -1
    var mark = 0
    var current = 0
    var lengths = [Int](repeating: 0, count: limit)

    /// Finds the words at `position` (once per place), tries the longest and moves `position` after it.
    mutating func candidates(in text: [UInt32], at position: inout Int, rangeEnd: Int, dictionary: WordDictionary)
      -> Int
    {
      let start = position
      if start != offset {
        offset = start
        (count, prefix) = dictionary.matches(in: text, at: start, maxLength: rangeEnd - start, lengths: &lengths)
      }
      if count > 0 { position = start + lengths[count - 1] }
      current = count - 1
      mark = current
      return count
    }

    /// The preferred word's length, with `position` after it.
    func acceptMarked(at position: inout Int) -> Int {
      position = offset + lengths[mark]
      return lengths[mark]
    }

    /// Tries the next shorter word, with `position` after it; false when there is none.
    mutating func backUp(at position: inout Int) -> Bool {
      guard current > 0 else { return false }
      current -= 1
      position = offset + lengths[current]
      return true
    }

    mutating func markCurrent() { mark = current }
  }

  // MARK: - The dictionary (ICU's BytesDictionaryMatcher and BytesTrie)

  /// The lengths of the words of the dictionary that `text` starts with at `start` (at most `lengths.count`, up to
  /// `maxLength` code points; ICU reads one code point even when `maxLength` is 0), shortest first, and how many
  /// code points were read: up to the one at which no word goes on, that one included.
  func matches(in text: [UInt32], at start: Int, maxLength: Int, lengths: inout [Int]) -> (count: Int, prefix: Int) {
    var walk = TrieWalk()
    var count = 0
    var read = 0
    var index = start
    while index < text.count {
      let byte = byte(text[index])
      index += 1
      let result = read == 0 ? walk.first(byte, in: trie) : walk.next(byte, in: trie)
      read += 1
      if result == .finalValue || result == .intermediateValue {
        if count < lengths.count {
          lengths[count] = read
          count += 1
        }
        if result == .finalValue { break }
      } else if result == .noMatch {
        break
      }
      if read >= maxLength { break }
    }
    return (count, read)
  }

  /// The byte a code point maps to (ICU's offset transform): ZWJ to 0xFF, ZWNJ to 0xFE, the 254 code points from
  /// `offset` to their distance from it, and any other to 0xFF (ICU's sentinel -1, which the trie takes as a byte).
  private func byte(_ c: UInt32) -> UInt8 {
    switch c {
    case 0x200D: 0xFF
    case 0x200C: 0xFE
    case offset...(offset + 0xFD): UInt8(c - offset)
    default: 0xFF
    }
  }

  /// What a step through the trie found.
  private enum TrieResult { case noMatch, noValue, finalValue, intermediateValue }

  /// A walk through ICU's `BytesTrie` serialization: branch nodes (lead bytes 0x00–0x0F), linear-match nodes
  /// (0x10–0x1F) and value nodes (0x20–0xFF, odd when final), with values and jump deltas of one to five bytes.
  private struct TrieWalk {
    /// The next node; `nil` once nothing matches.
    var position: Int? = 0
    /// The bytes of a linear-match node still to match, minus one; -1 outside one.
    var remaining = -1

    mutating func first(_ byte: UInt8, in trie: [UInt8]) -> TrieResult {
      remaining = -1
      return step(from: 0, byte, in: trie)
    }

    mutating func next(_ byte: UInt8, in trie: [UInt8]) -> TrieResult {
      guard var position else { return .noMatch }
      if remaining >= 0 {
        guard byte == trie[position] else { return stop() }
        position += 1
        remaining -= 1
        self.position = position
        return remaining < 0 && trie[position] >= 0x20 ? Self.valueResult(trie[position]) : .noValue
      }
      return step(from: position, byte, in: trie)
    }

    private mutating func stop() -> TrieResult {
      position = nil
      return .noMatch
    }

    private static func valueResult(_ node: UInt8) -> TrieResult { node & 1 != 0 ? .finalValue : .intermediateValue }

    private mutating func step(from start: Int, _ byte: UInt8, in trie: [UInt8]) -> TrieResult {
      var position = start
      while true {
        let node = Int(trie[position])
        position += 1
        if node < 0x10 { return branch(from: position, length: node, byte, in: trie) }
        if node < 0x20 {
          guard byte == trie[position] else { return stop() }
          position += 1
          remaining = node - 0x10 - 1
          self.position = position
          return remaining < 0 && trie[position] >= 0x20 ? Self.valueResult(trie[position]) : .noValue
        }
        if node & 1 != 0 { return stop() }
        position = Self.skipValue(from: position, lead: node)
      }
    }

    private mutating func branch(from start: Int, length count: Int, _ byte: UInt8, in trie: [UInt8])
      -> TrieResult
    {
      var position = start
      var length = count
      if length == 0 {
        length = Int(trie[position])
        position += 1
      }
      length += 1
      // A binary search down to five entries, then a linear one.
      while length > 5 {
        let pivot = trie[position]
        position += 1
        if byte < pivot {
          length >>= 1
          position = Self.jump(from: position, in: trie)
        } else {
          length -= length >> 1
          position = Self.skipDelta(from: position, in: trie)
        }
      }
      repeat {
        let entry = trie[position]
        position += 1
        if byte == entry {
          var node = Int(trie[position])
          let result: TrieResult
          if node & 1 != 0 {
            result = .finalValue
          } else {
            // A non-final value is the delta to the node that goes on.
            position += 1
            node >>= 1
            let delta: Int
            (delta, position) = Self.read(lead: node, from: position, in: trie)
            position += delta
            node = Int(trie[position])
            result = node >= 0x20 ? Self.valueResult(UInt8(node)) : .noValue
          }
          self.position = position
          return result
        }
        length -= 1
        position = Self.skipValue(from: position + 1, lead: Int(trie[position]))
      } while length > 1
      guard byte == trie[position] else { return stop() }
      position += 1
      self.position = position
      let node = trie[position]
      return node >= 0x20 ? Self.valueResult(node) : .noValue
    }

    /// A value of a lead byte already shifted right once, and the position after it.
    private static func read(lead: Int, from position: Int, in trie: [UInt8]) -> (Int, Int) {
      func bytes(_ count: Int) -> Int { (0..<count).reduce(0) { $0 << 8 | Int(trie[position + $1]) } }
      if lead < 0x51 { return (lead - 0x10, position) }
      if lead < 0x6C { return ((lead - 0x51) << 8 | bytes(1), position + 1) }
      if lead < 0x7E { return ((lead - 0x6C) << 16 | bytes(2), position + 2) }
      if lead == 0x7E { return (bytes(3), position + 3) }
      return (bytes(4), position + 4)
    }

    private static func jump(from start: Int, in trie: [UInt8]) -> Int {
      var position = start
      var delta = Int(trie[position])
      position += 1
      func bytes(_ count: Int) -> Int { (0..<count).reduce(0) { $0 << 8 | Int(trie[position + $1]) } }
      if delta < 0xC0 {
      } else if delta < 0xF0 {
        delta = (delta - 0xC0) << 8 | bytes(1)
        position += 1
      } else if delta < 0xFE {
        delta = (delta - 0xF0) << 16 | bytes(2)
        position += 2
      } else if delta == 0xFE {
        delta = bytes(3)
        position += 3
      } else {
        delta = bytes(4)
        position += 4
      }
      return position + delta
    }

    private static func skipDelta(from start: Int, in trie: [UInt8]) -> Int {
      let delta = Int(trie[start])
      guard delta >= 0xC0 else { return start + 1 }
      if delta < 0xF0 { return start + 2 }
      if delta < 0xFE { return start + 3 }
      return start + 4 + (delta & 1)
    }

    private static func skipValue(from position: Int, lead: Int) -> Int {
      guard lead >= 0x51 << 1 else { return position }
      if lead < 0x6C << 1 { return position + 1 }
      if lead < 0x7E << 1 { return position + 2 }
      return position + 3 + (lead >> 1 & 1)
    }
  }
}
