import Synchronization

/// The advances of words already shaped, shared by every measurer of the process and every thread: a comment's
/// words are mostly words that the comments before it shaped too.
///
/// A word is keyed by its font set (the files of every face, the size and the features: ``FontsID``), the engine's
/// metrics, the face its style draws in, its code points and clusters, the letters around it that the shaper reads
/// as context, and where elements start in it (WebKit shapes each part alone). The direction follows from the code
/// points, which HarfBuzz reads it from. Its advances are the engine's, exactly what shaping returns.
///
/// Bounds: words of at most ``longestWord`` code points (Blink caches words of up to 15 UTF-16 units; a longer limit
/// here takes in the Thai, Lao, Khmer and Burmese phrases that stand for words), and at most ``byteLimit`` bytes
/// counted for keys and advances in two generations: a lookup reads the newer, then the older, which it moves up;
/// when the newer holds half the limit the older is dropped. What is used stays; what is not is gone after two
/// generations, without a list to keep in order at every lookup.
package final class ShapedWords: Sendable {
  /// The cache of the process.
  package static let shared = ShapedWords(byteLimit: 4 << 20)

  /// The most code points a cached word has.
  static let longestWord = 48

  /// The most bytes the cache holds, keys and advances counted.
  let byteLimit: Int

  /// A word as the shaper sees it, packed in one array of 32-bit words: the font set, the metrics and traits, the
  /// five lengths, then the code points, the cluster starts, the context before and after, and the element starts.
  ///
  /// Five arrays, each hashed element by element, took a third of preparing an Arabic comment: one allocation, one
  /// hash of its bytes and one comparison of them.
  struct Key: Hashable, Sendable {
    private var words: [UInt32]

    /// The key of a word: its code points, its clusters' starts in them (and one past the last), the code points
    /// around it that shaping reads, and the clusters where an element starts.
    init(
      fonts: Int, metrics: UInt8, traits: UInt8, scalars: some Collection<UInt32>, clusterStarts: some Collection<Int>,
      before: [UInt32], after: [UInt32], elementStarts: some Collection<Int>
    ) {
      words = []
      words.reserveCapacity(
        7 + scalars.count + clusterStarts.count + before.count + after.count + elementStarts.count)
      words.append(UInt32(truncatingIfNeeded: fonts))
      words.append(UInt32(metrics) << 8 | UInt32(traits))
      words.append(UInt32(truncatingIfNeeded: scalars.count))
      words.append(UInt32(truncatingIfNeeded: clusterStarts.count))
      words.append(UInt32(truncatingIfNeeded: before.count))
      words.append(UInt32(truncatingIfNeeded: after.count))
      words.append(UInt32(truncatingIfNeeded: elementStarts.count))
      words.append(contentsOf: scalars)
      for start in clusterStarts { words.append(UInt32(truncatingIfNeeded: start)) }
      words.append(contentsOf: before)
      words.append(contentsOf: after)
      for start in elementStarts { words.append(UInt32(truncatingIfNeeded: start)) }
    }

    static func == (lhs: Key, rhs: Key) -> Bool {
      lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
      words.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The bytes counted for the key and `advances`.
    func bytes(with advances: [Int]) -> Int { 96 + 4 * words.count + 8 * advances.count }
  }

  private struct State {
    var newer: [Key: [Int]] = [:]
    var older: [Key: [Int]] = [:]
    var newerBytes = 0
    var hits = 0
    var misses = 0
  }
  private let state = Mutex(State())

  init(byteLimit: Int) { self.byteLimit = byteLimit }

  /// The advances of the word `key`, from the cache or from `shape`, whose answer is kept.
  func advances(of key: Key, shape: () -> [Int]) -> [Int] {
    let found = state.withLock { state -> [Int]? in
      if let advances = state.newer[key] {
        state.hits += 1
        return advances
      }
      guard let advances = state.older.removeValue(forKey: key) else {
        state.misses += 1
        return nil
      }
      state.hits += 1
      insert(key, advances, into: &state)
      return advances
    }
    if let found { return found }
    let advances = shape()
    state.withLock { insert(key, advances, into: &$0) }
    return advances
  }

  private func insert(_ key: Key, _ advances: [Int], into state: inout State) {
    guard state.newer.updateValue(advances, forKey: key) == nil else { return }
    state.newerBytes += key.bytes(with: advances)
    if state.newerBytes * 2 > byteLimit {
      state.older = state.newer
      state.newer = [:]
      state.newerBytes = 0
    }
  }

  /// How many lookups found their word and how many shaped it since the process started, and the bytes the cache
  /// holds now.
  package var statistics: (hits: Int, misses: Int, bytes: Int) {
    state.withLock { state in
      let older = state.older.reduce(0) { $0 + $1.key.bytes(with: $1.value) }
      return (state.hits, state.misses, state.newerBytes + older)
    }
  }

  /// Empties the cache (its counts of lookups go on).
  package func removeAll() {
    state.withLock { state in
      (state.newer, state.older, state.newerBytes) = ([:], [:], 0)
    }
  }

  /// A number for each font set measured in this process: equal sets (the same files and faces, size, line height,
  /// features and fallbacks) get the same one.
  enum FontsID {
    private static let known = Mutex<[String: Int]>([:])

    /// The number of `fonts`.
    static func of(_ fonts: FontSet) -> Int {
      var description = "\(fonts.size) \(fonts.kerningAndLigatures)"
      // Each family apart: a face's family decides which clusters it draws.
      description += ";" + FontFamily(fonts.styleFaces).filesKey
      for family in fonts.fallbacks { description += ";" + family.filesKey }
      return known.withLock { known in
        if let id = known[description] { return id }
        let id = known.count + 1
        known[description] = id
        return id
      }
    }
  }
}
