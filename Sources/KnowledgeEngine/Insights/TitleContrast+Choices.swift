extension TitleContrast {
  /// The most words (``tokens(_:)``) a title may have for ``choicePairs(_:)`` to compare it word
  /// by word; longer titles share enough trigrams for the trigram join to find them.
  static let choiceTitleWords = 12
  /// The most titles one masked key (the words outside a window) may gather before
  /// ``choicePairs(_:)`` skips it: a key that many titles share (`use … for …`) says little,
  /// and pairing them all would cost the square of their number.
  static let choiceBucketLimit = 32

  /// Pairs of titles that name different choices in otherwise the same words, found word by
  /// word rather than by trigram similarity, which misses short titles whose differing words
  /// are long (`Use Postgres for analytics` / `Use DuckDB for analytics`: 0.47; review 23-a, 10).
  ///
  /// Two titles pair when they have the same number of words (``tokens(_:)``, 2 to
  /// ``choiceTitleWords``), their contrast (``init(_:_:)``) is ``Kind/alternatives`` — the words
  /// that differ, one to three a side, are not all ``stopWords``, share no word or word start,
  /// hold no number, URL or path (those are ``Kind/differentValues``), and stand where a choice
  /// is named (``namesChoice(_:_:)``: after `use`, `prefer`, `with`, `in`, `on`…) —, and the
  /// words they share are at least as many as those that differ and include one that is not a
  /// stop word, negation or auxiliary (`Use tabs` / `Use spaces` and `Deploy with Kubernetes` /
  /// `Deploy with Nomad` pair; `Cache API responses` / `Cache DB queries` do not, nor do `Do not
  /// enable telemetry` / `Do not use tabs`, nor two tasks or actions that hold together: `Run
  /// tests on CI` / `Run linters on CI`, `Encrypt backups at rest` / `Compress backups at rest`,
  /// review 27-a, 13).
  ///
  /// Candidates come from keys, not from all pairs: for a title of *n* words, each window of
  /// *w* = min(3, *n*/2) consecutive words is masked, and the words around it (a fixed 64-bit
  /// hash of them) are the key; two titles whose differing words fit in one window share that
  /// key. A key with more than ``choiceBucketLimit`` titles is skipped.
  /// - Parameter titles: the titles to compare, each with the caller's index for it.
  /// - Returns: the pairs, as the caller's indexes, the lower first, sorted, each once.
  /// - Complexity: O(*n* · *w*) keys per title, plus O(*b*²) contrasts per key of *b* titles.
  static func choicePairs(_ titles: [(index: Int, title: String)]) -> [(Int, Int)] {
    var tokensOf: [Int: [String]] = [:]
    var buckets: [UInt64: [Int]] = [:]
    for (index, title) in titles {
      // Most titles are longer: counted without building their words.
      guard asciiWordCountAtLeast(title) <= choiceTitleWords else { continue }
      let words = tokens(title)
      guard (2...choiceTitleWords).contains(words.count) else { continue }
      tokensOf[index] = words
      // The key of a window is a hash of the word count and the words before and after it, built
      // from running hashes of the prefixes and suffixes: O(n) per title, with no string built.
      // The hash is fixed (not `Hasher`'s per-process seed), so the buckets are the same in every
      // process; two keys that collide only bring a pair that the contrast then refuses.
      let hashes = words.map(Self.wordHash)
      var prefix = [UInt64](repeating: 0, count: words.count + 1)
      var suffix = [UInt64](repeating: 0, count: words.count + 1)
      for k in words.indices { prefix[k + 1] = Self.mix(prefix[k], hashes[k]) }
      for k in words.indices.reversed() { suffix[k] = Self.mix(suffix[k + 1], hashes[k]) }
      let window = min(3, words.count / 2)
      for start in 0...(words.count - window) {
        let key = Self.mix(Self.mix(UInt64(words.count << 8 | window), prefix[start]), suffix[start + window] ^ 0x9E37_79B9_7F4A_7C15)
        buckets[key, default: []].append(index)
      }
    }
    var seen = Set<UInt64>()
    var pairs: [(Int, Int)] = []
    for members in buckets.values where members.count > 1 && members.count <= choiceBucketLimit {
      for (k, a) in members.enumerated() {
        for b in members[(k + 1)...] where a != b {
          let (low, high) = (min(a, b), max(a, b))
          guard seen.insert(UInt64(UInt32(truncatingIfNeeded: low)) << 32 | UInt64(UInt32(truncatingIfNeeded: high))).inserted,
            let x = tokensOf[low], let y = tokensOf[high], namesDifferentChoices(x, y)
          else { continue }
          pairs.append((low, high))
        }
      }
    }
    return pairs.sorted { $0 < $1 }
  }

  /// How many words (``tokens(_:)``) `title` has at least, counted without building them: the
  /// runs between ASCII white space that hold an ASCII letter or digit (each holds one word or
  /// more, since other white space may split it further). Exact for an ASCII title.
  static func asciiWordCountAtLeast(_ title: String) -> Int {
    title.utf8.withContiguousStorageIfAvailable(asciiWordCountAtLeast(bytes:)) ?? asciiWordCountAtLeast(bytes: Array(title.utf8))
  }

  /// ``asciiWordCountAtLeast(_:)`` over UTF-8 bytes.
  private static func asciiWordCountAtLeast(bytes: some Sequence<UInt8>) -> Int {
    var count = 0
    var counted = false
    for byte in bytes {
      if (0x09...0x0D).contains(byte) || byte == 0x20 {
        counted = false
      } else if !counted, (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) {
        count += 1
        counted = true
      }
    }
    return count
  }

  /// FNV-1a (64-bit) of a word's UTF-8 bytes: a hash that is the same in every process.
  static func wordHash(_ word: String) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in word.utf8 {
      h ^= UInt64(byte)
      h &*= 0x0000_0100_0000_01B3
    }
    return h
  }

  /// Folds `value` into the running hash `h` (the SplitMix64 finalizer of their combination), so
  /// that the order of the words counts.
  static func mix(_ h: UInt64, _ value: UInt64) -> UInt64 {
    var z = h &* 0x9E37_79B9_7F4A_7C15 &+ value &+ 0x632B_E59B_D9B4_E019
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Whether two titles of the same number of words differ, as ``choicePairs(_:)`` requires, in
  /// one to three words naming different choices where a choice is named, with as many words or
  /// more shared, one of them not a stop word, negation or auxiliary.
  /// - Parameters:
  ///   - x: the words (``tokens(_:)``) of one title.
  ///   - y: the words of the other.
  static func namesDifferentChoices(_ x: [String], _ y: [String]) -> Bool {
    guard x.count == y.count, x != y else { return false }
    var start = 0
    while x[start] == y[start] { start += 1 }
    var end = x.count
    while x[end - 1] == y[end - 1] { end -= 1 }
    let shared = Array(x[..<start] + x[end...])
    // The shared words must hold one that names the thing chosen for: `Do not enable telemetry`
    // / `Do not use tabs` share only `do not`, and are two rules, not two choices (review 25-b, 7).
    let namesSubject = { (w: String) in !stopWords.contains(w) && !negations.contains(w) && !auxiliaries.contains(w) }
    guard shared.count >= end - start, shared.contains(where: namesSubject) else { return false }
    return TitleContrast.kind(tokens: x, y) == .alternatives
  }
}
