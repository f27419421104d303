extension TitleContrast {
  /// The most words (``tokens(_:)``) a title may have for ``choicePairs(_:)`` to compare it word
  /// by word; longer titles share enough trigrams for the trigram join to find them.
  static let choiceTitleWords = 12
  /// The most titles one masked key (the words outside a window) may gather before
  /// ``choicePairs(_:)`` skips it: a key that many titles share (`use … for …`) says little,
  /// and pairing them all would cost the square of their number.
  static let choiceBucketLimit = 32

  /// The most words a side of a pair may differ in for ``choicePairs(_:)`` (the words that
  /// differ in ``Kind/alternatives`` are one to three a side).
  static let choiceDifferingWords = 3

  /// Pairs of titles that name different choices, or say opposite things, in otherwise the same
  /// words, found word by word rather than by trigram similarity, which misses short titles whose
  /// differing words are long (`Use Postgres for analytics` / `Use DuckDB for analytics`: 0.47;
  /// review 23-a, 10) or differ in length (`Store dates in UTC` / `Store dates in local time`,
  /// `Enable telemetry` / `Turn off telemetry`; review 27-a, 14).
  ///
  /// Two titles (``tokens(_:)``, 2 to ``choiceTitleWords`` words each) pair when
  /// (``isChoicePair(_:_:)``):
  ///
  /// - the words they differ in (what is left once the words both share at the start and at the
  ///   end are set aside) are one to ``choiceDifferingWords`` a side, as many on both sides or
  ///   not (`utc` / `local time`, `kubernetes` / `docker compose`);
  /// - the words they share are at least as many as those that differ on the longer side, words
  ///   that only set polarity left uncounted (negations, members of antonym pairs and the
  ///   auxiliary before a negation: ``settlesPolarity(_:at:)``). Those say how a title stands
  ///   toward what it names, not what it names, so `Enable telemetry` / `Turn off telemetry`
  ///   (one shared word, `turn off` counted as one) pair, while `Cache API responses` / `Cache DB
  ///   queries` (one shared, two differing) do not;
  /// - a shared word is not a stop word, negation or auxiliary: it names the thing chosen for
  ///   (`Do not enable telemetry` / `Do not use tabs` share only `do not`; review 25-b, 7);
  /// - their contrast is ``Kind/alternatives`` — the words that differ are not all
  ///   ``stopWords``, share no word or word start, hold no number, URL or path (those are
  ///   ``Kind/differentValues``), and stand where a choice is named (``namesChoice(_:_:)``: after
  ///   `use`, `prefer`, `with`, `in`, `on`…): `Use tabs` / `Use spaces`, `Deploy with
  ///   Kubernetes` / `Deploy with Docker Compose`; not two tasks or actions that hold together,
  ///   `Run tests on CI` / `Run linters on CI`, `Encrypt backups at rest` / `Compress backups at
  ///   rest`, review 27-a, 13 — or ``Kind/opposite`` (`Enable telemetry` / `Turn off telemetry`,
  ///   `Needn't sign commits` / `Need to sign commits`; review 27-a, 14).
  ///
  /// Candidates come from keys, not from all pairs: for a title of *n* words, each window of one
  /// to ``choiceDifferingWords`` consecutive words that the rules above allow to differ (as many
  /// words outside it as counted inside, one of them naming a subject) is masked, and the words
  /// before and after it (a fixed 64-bit hash of them and of their numbers) are the key. Two
  /// titles that pair differ in exactly one such window on each side, with the same words around
  /// it, so they share that key whatever the windows' lengths. A key with more than
  /// ``choiceBucketLimit`` titles is skipped.
  /// - Parameter titles: the titles to compare, each with the caller's index for it.
  /// - Returns: the pairs, as the caller's indexes, the lower first, sorted, each once.
  /// - Complexity: O(*n* · ``choiceDifferingWords``) keys per title of *n* words, sorted once
  ///   (O(*K* log *K*) for *K* keys in all), plus O(*b*²) contrasts per key of *b* titles.
  static func choicePairs(_ titles: [(index: Int, title: String)]) -> [(Int, Int)] {
    var tokensOf: [Int: [String]] = [:]
    // (key, index) of every window, sorted afterwards: titles sharing a key stand side by side,
    // with no array per key.
    var keyed: [(key: UInt64, index: Int)] = []
    for (index, title) in titles {
      // Most titles are longer: counted without building their words.
      guard asciiWordCountAtLeast(title) <= choiceTitleWords else { continue }
      let words = tokens(title)
      let n = words.count
      guard (2...choiceTitleWords).contains(n) else { continue }
      tokensOf[index] = words
      // The key of a window is a hash of the numbers of words before and after it and of those
      // words, built from running hashes of the prefixes and suffixes: O(n) per title, with no
      // string built. The hash is fixed (not `Hasher`'s per-process seed), so the keys are the
      // same in every process; two keys that collide only bring a pair that the rules then refuse.
      let hashes = words.map(Self.wordHash)
      var prefix = [UInt64](repeating: 0, count: n + 1)
      var suffix = [UInt64](repeating: 0, count: n + 1)
      for k in words.indices { prefix[k + 1] = Self.mix(prefix[k], hashes[k]) }
      for k in words.indices.reversed() { suffix[k] = Self.mix(suffix[k + 1], hashes[k]) }
      // Whether a word naming a subject stands before position k, or from it on.
      var subjectBefore = [Bool](repeating: false, count: n + 1)
      var subjectFrom = [Bool](repeating: false, count: n + 1)
      for k in words.indices { subjectBefore[k + 1] = subjectBefore[k] || namesSubject(words[k]) }
      for k in words.indices.reversed() { subjectFrom[k] = subjectFrom[k + 1] || namesSubject(words[k]) }
      for start in 0..<n {
        var counted = 0
        for end in (start + 1)...min(n, start + choiceDifferingWords) {
          if !settlesPolarity(words, at: end - 1) { counted += 1 }
          guard counted <= n - (end - start), subjectBefore[start] || subjectFrom[end] else { continue }
          let around = UInt64(start << 8 | (n - end))
          keyed.append((Self.mix(Self.mix(around, prefix[start]), suffix[end] ^ 0x9E37_79B9_7F4A_7C15), index))
        }
      }
    }
    keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
    var seen = Set<UInt64>()
    var pairs: [(Int, Int)] = []
    var runStart = 0
    while runStart < keyed.count {
      var runEnd = runStart + 1
      while runEnd < keyed.count, keyed[runEnd].key == keyed[runStart].key { runEnd += 1 }
      defer { runStart = runEnd }
      guard runEnd - runStart > 1, runEnd - runStart <= choiceBucketLimit else { continue }
      for k in runStart..<runEnd {
        for m in (k + 1)..<runEnd {
          let (a, b) = (keyed[k].index, keyed[m].index)
          guard a != b else { continue }
          let (low, high) = (min(a, b), max(a, b))
          guard seen.insert(UInt64(UInt32(truncatingIfNeeded: low)) << 32 | UInt64(UInt32(truncatingIfNeeded: high))).inserted,
            let x = tokensOf[low], let y = tokensOf[high], isChoicePair(x, y)
          else { continue }
          pairs.append((low, high))
        }
      }
    }
    return pairs.sorted { $0 < $1 }
  }

  /// Whether `word`, shared by two titles, names what they are about: not a stop word, negation
  /// or auxiliary (review 25-b, 7).
  static func namesSubject(_ word: String) -> Bool {
    !stopWords.contains(word) && !negations.contains(word) && !auxiliaries.contains(word)
  }

  /// Whether the word at `k` of `words` only sets the title's polarity, and so is not counted
  /// among the words a title differs in (``choicePairs(_:)``): a negation, a member of an antonym
  /// pair (`enable`, `off`, `never`, `use`, `avoid`…), or an auxiliary right before a negation
  /// (`do` of `do not`).
  static func settlesPolarity(_ words: [String], at k: Int) -> Bool {
    let w = words[k]
    if negations.contains(w) || neutralForm[w] != nil { return true }
    return auxiliaries.contains(w) && k + 1 < words.count && negations.contains(words[k + 1])
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

  /// Whether two titles pair as ``choicePairs(_:)`` requires: they differ in one to
  /// ``choiceDifferingWords`` words a side, share as many words or more than those that differ on
  /// the longer side (words that only set polarity left uncounted), one of the shared naming a
  /// subject (``namesSubject(_:)``), and their contrast is ``Kind/alternatives`` or
  /// ``Kind/opposite``.
  /// - Parameters:
  ///   - x: the words (``tokens(_:)``) of one title.
  ///   - y: the words of the other.
  static func isChoicePair(_ x: [String], _ y: [String]) -> Bool {
    guard x != y else { return false }
    var start = 0
    while start < min(x.count, y.count), x[start] == y[start] { start += 1 }
    var end = 0
    while end < min(x.count, y.count) - start, x[x.count - 1 - end] == y[y.count - 1 - end] { end += 1 }
    let (xEnd, yEnd) = (x.count - end, y.count - end)
    guard (1...choiceDifferingWords).contains(xEnd - start), (1...choiceDifferingWords).contains(yEnd - start) else {
      return false
    }
    let shared = start + end
    let countedX = (start..<xEnd).count(where: { !settlesPolarity(x, at: $0) })
    let countedY = (start..<yEnd).count(where: { !settlesPolarity(y, at: $0) })
    // The shared words must hold one that names the thing chosen for: `Do not enable telemetry`
    // / `Do not use tabs` share only `do not`, and are two rules, not two choices (review 25-b, 7).
    guard shared >= max(countedX, countedY), x[..<start].contains(where: namesSubject) || x[xEnd...].contains(where: namesSubject)
    else { return false }
    let kind = TitleContrast.kind(tokens: x, y)
    return kind == .alternatives || kind == .opposite
  }
}
