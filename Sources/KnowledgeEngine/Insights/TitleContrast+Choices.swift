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
  /// before and after it (the high bits of a fixed 64-bit hash of them and of their numbers) are
  /// the key. Two titles that pair differ in exactly one such window on each side, with the same
  /// words around it, so they share that key whatever the windows' lengths. A key with more than
  /// ``choiceBucketLimit`` titles is skipped.
  /// - Parameter titles: the titles to compare, each with the caller's index for it.
  /// - Returns: the pairs, as the caller's indexes, the lower first, sorted, each once.
  /// - Complexity: O(*n* · ``choiceDifferingWords``) keys per title of *n* words, sorted once
  ///   (O(*K* log *K*) for *K* keys in all), plus O(*b*²) contrasts per key of *b* titles.
  static func choicePairs(_ titles: [(index: Int, title: String)]) -> [(Int, Int)] {
    // Each window's key with the position of its title (in `titles`) in the low bits, sorted as
    // plain integers: titles sharing a key stand side by side, with no array per key. The key
    // keeps the high bits of its hash; two keys equal there only bring a pair that the rules
    // then refuse.
    let positionBits = max(1, Int.bitWidth - max(titles.count - 1, 1).leadingZeroBitCount)
    let positionMask = UInt64(1) << positionBits - 1
    var tokensOf = [[String]?](repeating: nil, count: titles.count)
    var keyed: [UInt64] = []
    var hashes: [UInt64] = [], prefix: [UInt64] = [], suffix: [UInt64] = [], counts: [Int] = []
    for (position, (_, title)) in titles.enumerated() {
      // Most titles are longer: counted without building their words.
      guard asciiWordCountAtLeast(title) <= choiceTitleWords else { continue }
      let words = tokens(title)
      let n = words.count
      guard (2...choiceTitleWords).contains(n) else { continue }
      tokensOf[position] = words
      // The key of a window is a hash of the numbers of words before and after it and of those
      // words, built from running hashes of the prefixes and suffixes: O(n) per title, with no
      // string built. The hash is fixed (not `Hasher`'s per-process seed), so the keys are the
      // same in every process.
      hashes.removeAll(keepingCapacity: true)
      hashes.append(contentsOf: words.lazy.map(Self.wordHash))
      prefix.removeAll(keepingCapacity: true)
      prefix.append(contentsOf: repeatElement(0, count: n + 1))
      suffix.removeAll(keepingCapacity: true)
      suffix.append(contentsOf: repeatElement(0, count: n + 1))
      for k in 0..<n { prefix[k + 1] = Self.mix(prefix[k], hashes[k]) }
      for k in (0..<n).reversed() { suffix[k] = Self.mix(suffix[k + 1], hashes[k]) }
      // Each word read once (one lookup, ``wordClasses``): whether it is counted among words that
      // differ (``settlesPolarity(_:at:)``), and the first and last word naming a subject
      // (``namesSubject(_:)``; a window leaves one outside when it starts after the first or
      // ends before the last).
      counts.removeAll(keepingCapacity: true)
      var firstSubject = n, lastSubject = -1
      var nextClass: UInt8 = 0
      for k in (0..<n).reversed() {
        let c = wordClasses[words[k]] ?? 0
        let settles = c & WordClass.polarity != 0 || (c & WordClass.auxiliary != 0 && nextClass & WordClass.negation != 0)
        counts.append(settles ? 0 : 1)
        if c & WordClass.notSubject == 0 {
          firstSubject = k
          if lastSubject < 0 { lastSubject = k }
        }
        nextClass = c
      }
      counts.reverse()
      for start in 0..<n {
        var counted = 0
        for end in (start + 1)...min(n, start + choiceDifferingWords) {
          counted += counts[end - 1]
          guard counted <= n - (end - start), firstSubject < start || lastSubject >= end else { continue }
          let around = UInt64(start << 8 | (n - end))
          let key = Self.mix(Self.mix(around, prefix[start]), suffix[end] ^ 0x9E37_79B9_7F4A_7C15)
          keyed.append(key & ~positionMask | UInt64(position))
        }
      }
    }
    keyed.sort()
    var seen = Set<UInt64>()
    var pairs: [(Int, Int)] = []
    var runStart = 0
    while runStart < keyed.count {
      let key = keyed[runStart] & ~positionMask
      var runEnd = runStart + 1
      while runEnd < keyed.count, keyed[runEnd] & ~positionMask == key { runEnd += 1 }
      defer { runStart = runEnd }
      guard runEnd - runStart > 1, runEnd - runStart <= choiceBucketLimit else { continue }
      for k in runStart..<runEnd {
        for m in (k + 1)..<runEnd {
          // Positions ascend in a run (the keys are equal above them), one title at most once
          // per key (its windows differ in the numbers of words around them).
          let (p, q) = (Int(keyed[k] & positionMask), Int(keyed[m] & positionMask))
          guard p != q, seen.insert(UInt64(p) << 32 | UInt64(q)).inserted, let x = tokensOf[p], let y = tokensOf[q] else {
            continue
          }
          guard isChoicePair(x, y) else { continue }
          let (a, b) = (titles[p].index, titles[q].index)
          pairs.append((min(a, b), max(a, b)))
        }
      }
    }
    return pairs.sorted { $0 < $1 }
  }

  /// What ``choicePairs(_:)`` reads of a word, as bits of ``wordClasses``.
  enum WordClass {
    /// A negation, or a member of an antonym pair: it only sets polarity.
    static let polarity: UInt8 = 1
    /// A negation: an auxiliary right before it only sets polarity too.
    static let negation: UInt8 = 2
    /// An auxiliary.
    static let auxiliary: UInt8 = 4
    /// A stop word, negation or auxiliary: it names no subject.
    static let notSubject: UInt8 = 8
  }

  /// The ``WordClass`` bits of every word that has some; any other word has none (it is counted
  /// among words that differ, and names a subject).
  static let wordClasses: [String: UInt8] = {
    var out: [String: UInt8] = [:]
    for w in negations { out[w, default: 0] |= WordClass.polarity | WordClass.negation | WordClass.notSubject }
    for w in neutralForm.keys { out[w, default: 0] |= WordClass.polarity }
    for w in auxiliaries { out[w, default: 0] |= WordClass.auxiliary | WordClass.notSubject }
    for w in stopWords { out[w, default: 0] |= WordClass.notSubject }
    return out
  }()

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
