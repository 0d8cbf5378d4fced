/// A deterministic pseudo-random generator (SplitMix64), so that generated corpora and benchmark inputs are
/// the same on every run and every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The generator's state; the seed to begin with.
  public var state: UInt64

  /// A generator seeded with `state`.
  public init(state: UInt64) { self.state = state }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// One of `items`, which must not be empty.
  public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
