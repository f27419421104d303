/// The SplitMix64 pseudo-random generator, as specified in `shared/bench/synth.py`.
///
/// One 64-bit word of state; each step adds the golden-ratio increment and mixes
/// (Steele, Lea and Flood, *Fast Splittable Pseudorandom Number Generators*, OOPSLA 2014;
/// the constants of Vigna's `splitmix64.c`). All arithmetic wraps modulo 2^64.
///
/// - Note: ``below(_:)`` is a plain modulo, biased for bounds that do not divide 2^64. The
///   bias is part of the spec: the synthetic corpus must match `synth.py` draw for draw.
public struct SplitMix64: Sendable {
  /// The current state word.
  public private(set) var state: UInt64

  /// Creates a generator.
  ///
  /// - Parameter seed: The initial state (`0x5C1FAC7` for items, `0x5EED` for short queries).
  public init(seed: UInt64) {
    state = seed
  }

  /// Advances the state and returns the next 64-bit output.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Returns `next() mod bound`: the spec's `below(n)`.
  ///
  /// - Parameter bound: The exclusive upper bound; must be positive.
  /// - Returns: A value in `0..<bound`.
  public mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0, "SplitMix64.below needs a positive bound, got \(bound)")
    return Int(next() % UInt64(bound))
  }
}
