/// Runs of ASCII letters in a text, each packed into one integer, for the insight rules' quick
/// "may this title hold one of these words?" checks (``TitleContrast/mayHavePolarityWord(_:)``,
/// ``NumberedTitle/mayHaveSequenceLabel(_:)``), which spare them reading every title whole.
///
/// A *run* is a maximal sequence of ASCII letters (`A`–`Z`, `a`–`z`) in the UTF-8 bytes; any
/// other byte ends it, a non-ASCII byte included. Its *key* packs its letters, lowercased, five
/// bits each (`a` is 1 … `z` is 26), the first letter highest: runs of up to
/// ``maximumLetters`` letters have distinct keys, and a longer run has none.
///
/// Every word the rules read that is made of ASCII letters appears in the text as such a run
/// (the rules split words at white space, punctuation or letter–digit boundaries, all of which
/// end a run; lowercasing maps no non-ASCII letter to an ASCII one but the Kelvin sign `K`,
/// U+212A, to `k`, which ``forEachKey(in:_:)`` reports). So a text none of whose keys is in a
/// set of words' keys holds none of those words; the converse need not hold (`no` in `no-op`).
enum PackedASCIIWords {
  /// The longest run that has a key: 12 letters (60 bits).
  static let maximumLetters = 12

  /// The key of `word`, lowercased, or `nil` when it is not 1 to ``maximumLetters`` ASCII
  /// letters.
  static func key(_ word: some StringProtocol) -> UInt64? {
    var key: UInt64 = 0
    var length = 0
    for byte in word.utf8 {
      let lower = byte | 0x20
      guard byte < 0x80, lower >= 0x61, lower <= 0x7A else { return nil }
      key = key << 5 | UInt64(lower - 0x60)
      length += 1
    }
    return (1...maximumLetters).contains(length) ? key : nil
  }

  /// Calls `body` with the key of each run of at most ``maximumLetters`` letters in `text`, in
  /// order, until it returns `true`; returns whether one did. A Kelvin sign (U+212A, which
  /// lowercases to `k`) calls it with `nil`: a caller that cannot rule out a `k` then answers
  /// `true`.
  /// - Complexity: O(*n*) in the UTF-8 bytes of `text`, with nothing allocated.
  static func forEachKey(in text: String, _ body: (UInt64?) -> Bool) -> Bool {
    if let answer = text.utf8.withContiguousStorageIfAvailable({ forEachKey(inBytes: $0, body) }) { return answer }
    return forEachKey(inBytes: Array(text.utf8), body)
  }

  /// ``forEachKey(in:_:)`` over UTF-8 bytes.
  private static func forEachKey(inBytes bytes: some Sequence<UInt8>, _ body: (UInt64?) -> Bool) -> Bool {
    var key: UInt64 = 0
    var length = 0
    // The two bytes before this one, for the Kelvin sign's E2 84 AA.
    var previous: UInt16 = 0
    for byte in bytes {
      let lower = byte | 0x20
      if byte < 0x80, lower >= 0x61, lower <= 0x7A {
        key = key << 5 | UInt64(lower - 0x60)
        length += 1
      } else {
        if length > 0, length <= maximumLetters, body(key) { return true }
        key = 0
        length = 0
        if byte == 0xAA, previous == 0xE284, body(nil) { return true }
      }
      previous = previous << 8 | UInt16(byte)
    }
    return length > 0 && length <= maximumLetters && body(key)
  }
}

extension PackedASCIIWords {
  /// A set of keys for membership tests on every run of a title: a 4,096-bit filter (one bit
  /// per key, at a fixed multiplicative hash of it) answers most misses with one load, and
  /// the keys themselves decide the rest.
  struct KeySet: Sendable {
    private var filter = [UInt64](repeating: 0, count: 64)
    private let keys: Set<UInt64>

    init(_ keys: some Sequence<UInt64>) {
      self.keys = Set(keys)
      for key in self.keys {
        let slot = Self.slot(key)
        filter[slot >> 6] |= 1 << UInt64(slot & 63)
      }
    }

    /// Fibonacci hashing to 12 bits: the same in every process.
    private static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 52) }

    func contains(_ key: UInt64) -> Bool {
      let slot = Self.slot(key)
      guard filter[slot >> 6] & (1 << UInt64(slot & 63)) != 0 else { return false }
      return keys.contains(key)
    }
  }
}
