import Foundation

/// Character-trigram sets of short texts, and a similarity self-join over them whose candidates
/// come from trigram postings (never from all pairs).
///
/// ## Trigrams
///
/// A text is normalized to runs of letters and digits separated by single spaces: ASCII
/// letters are lowercased, other letters by their Unicode lowercase mapping (first scalar), and
/// everything that is not a letter or digit is a separator. The result is padded with one space
/// on each side, and its trigrams are the distinct windows of three Unicode scalars (`Use
/// SQLite.` gives ` us`, `use`, `se `, `e s`, ` sq`, …, `te `). Similarity is the Jaccard
/// coefficient |A ∩ B| / |A ∪ B| of two trigram sets (as PostgreSQL's `pg_trgm`, which pads
/// each word instead of the whole text); two texts without trigrams have similarity 1.
///
/// ## Self-join
///
/// ``similarPairs(threshold:maximumGeneratorFrequency:include:)`` is PPJoin (Xiao, Wang, Lin
/// and Yu, "Efficient Similarity Joins for Near Duplicate Detection", WWW 2008) with the
/// k-shared prefix of Wang, Li and Feng ("Can We Beat the Prefix Filtering?", SIGMOD 2012),
/// *k* = ``sharedPrefixTrigrams``: trigrams are ordered rarest first; texts are processed by
/// increasing size; a text of *s* trigrams probes the postings of its first *s* − ⌈*t*·*s*⌉ + *k*
/// trigrams and is indexed under its first *s* − ⌈2*t*/(1 + *t*)·*s*⌉ + *k*; a candidate must share
/// *k* of them (or the whole required overlap, when that is smaller), pass the size filter
/// (*t*·|x| ≤ |y|) and the positional filter (shared so far + what is left ≥
/// ⌈*t*/(1 + *t*)·(|x| + |y|)⌉, the overlap Jaccard ≥ *t* needs). Survivors are verified
/// exactly. A trigram found in more than `maximumGeneratorFrequency` texts is neither probed nor
/// indexed, so pairs whose prefixes share fewer than *k* rarer trigrams are not found: the
/// documented bound that keeps the work near linear. Below it, the result equals an all-pairs
/// comparison.
/// - Complexity: building is O(*L*) for *L* UTF-8 bytes; the join is O(*T* + *P* + *C*·*s*) for
///   *T* trigram occurrences, *P* probed postings and *C* verified candidates of size *s*.
struct TrigramSets {
  /// Shared prefix trigrams a candidate pair needs (see the type's discussion).
  static let sharedPrefixTrigrams = 3

  /// Distinct trigram ids of text `i`: `tokens[offsets[i]..<offsets[i + 1]]` (exactly
  /// `offsets.last` of them).
  private(set) var tokens: [Int32] = []
  /// Where ``append(contentsOf:)`` writes a call's trigrams before they are appended to
  /// `tokens`: sized for the longest call so far (at most one id per UTF-8 byte, plus one per
  /// text), and reused, so `tokens` holds only what was written and is never zero-filled ahead.
  private var scratch: [Int32] = []
  private(set) var offsets: [Int] = [0]
  /// FNV-1a (64-bit) of each text's trigram ids in order of first occurrence: texts with equal
  /// normalized forms have equal fingerprints (so do the rare other texts with the same
  /// trigram sequence, whose similarity is 1 anyway).
  private(set) var fingerprints: [UInt64] = []
  /// How many trigram ids exist (ids are `0..<vocabularySize`).
  private(set) var vocabularySize = directIDs

  /// Codes 0 (space), 1–26 (a–z) and 27–36 (0–9) form ids directly; others are looked up.
  private static let directAlphabet: UInt32 = 37
  private static let directIDs = 37 * 37 * 37
  /// Looked-up ids (≥ `directIDs`), with the last text each was seen in (for per-text
  /// deduplication).
  private var table = OpenAddressingTable()
  /// Direct ids seen in the current text: a bitset small enough to stay in the L1 cache,
  /// cleared after each text.
  private var seenDirect = [UInt64](repeating: 0, count: (directIDs + 63) / 64)

  /// How many texts were added.
  var count: Int { offsets.count - 1 }

  /// How many distinct trigrams text `i` has.
  func size(of i: Int) -> Int { offsets[i + 1] - offsets[i] }

  /// The distinct trigram ids of text `i`.
  func trigrams(of i: Int) -> ArraySlice<Int32> { tokens[offsets[i]..<offsets[i + 1]] }

  /// Adds a text; its index is the previous ``count``.
  mutating func append(_ text: String) {
    append(contentsOf: CollectionOfOne(text))
  }

  /// Letter and digit codes of ASCII bytes: 1–26 for a–z and A–Z, 27–36 for 0–9, 0 otherwise.
  private static let asciiCodes: [UInt8] = (0..<128).map { b -> UInt8 in
    switch b {
    case 0x61...0x7A: return UInt8(b - 0x60)
    case 0x41...0x5A: return UInt8(b - 0x40)
    case 0x30...0x39: return UInt8(b - 0x30 + 27)
    default: return 0
    }
  }

  /// Adds texts in order; the first one's index is the previous ``count``. One call for many
  /// texts is faster than one call each: buffers are sized once for all of them.
  mutating func append<C: Collection>(contentsOf texts: C) where C.Element == String {
    // A text of b bytes has at most b + 1 trigrams and at most b + 1 new looked-up ids.
    var bytes = 0
    for text in texts { bytes += text.utf8.count + 1 }
    let start = offsets[offsets.count - 1]
    if scratch.count < bytes { scratch = [Int32](repeating: 0, count: bytes) }
    // Positions below are in `tokens` (from `start`); `out` is `scratch`, so it is indexed
    // relative to `start`.
    var written = 0
    var vocabulary = vocabularySize
    var textIndex = Int32(count)
    var newOffsets: [Int] = []
    var newFingerprints: [UInt64] = []
    newOffsets.reserveCapacity(texts.count)
    newFingerprints.reserveCapacity(texts.count)
    let a = Self.directAlphabet
    Self.asciiCodes.withUnsafeBufferPointer { ascii in
    scratch.withUnsafeMutableBufferPointer { out in
    seenDirect.withUnsafeMutableBufferPointer { seen in
      for text in texts {
        let textStart = written
        // c0, c1: the two codes before the current one; the leading pad is a separator.
        var c0: UInt32 = 0, c1: UInt32 = 0
        var have = 1
        var previousWasSeparator = true
        @inline(__always) func emit(_ c2: UInt32) {
          if c0 < a, c1 < a, c2 < a {
            let id = Int((c0 &* a &+ c1) &* a &+ c2)
            let word = id &>> 6
            let bit: UInt64 = 1 &<< UInt64(id & 63)
            let w = seen[word]
            if w & bit == 0 {
              seen[word] = w | bit
              out[written] = Int32(truncatingIfNeeded: id)
              written &+= 1
            }
          } else {
            let key = UInt64(c0) << 42 | UInt64(c1) << 21 | UInt64(c2)
            let (found, inserted, firstInText) = table.id(for: key, next: Int32(vocabulary), text: textIndex)
            if inserted { vocabulary += 1 }
            if firstInText {
              out[written] = found
              written += 1
            }
          }
        }
        @inline(__always) func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
          let n = bytes.count
          var i = 0
          while i < n {
            let b = bytes[i]
            let code: UInt32
            if b < 0x80 {
              i &+= 1
              code = UInt32(ascii[Int(b)])
            } else {
              var value: UInt32
              var length: Int
              if b & 0xE0 == 0xC0 {
                value = UInt32(b & 0x1F)
                length = 2
              } else if b & 0xF0 == 0xE0 {
                value = UInt32(b & 0x0F)
                length = 3
              } else {
                value = UInt32(b & 0x07)
                length = 4
              }
              length = max(1, min(length, n - i))
              for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
              i += length
              code = Self.code(nonASCII: value)
            }
            if code == 0 {
              if previousWasSeparator { continue }
              previousWasSeparator = true
            } else {
              previousWasSeparator = false
            }
            if have >= 2 { emit(code) }
            c0 = c1
            c1 = code
            have &+= 1
          }
        }
        if text.utf8.withContiguousStorageIfAvailable(scan) == nil {
          Array(text.utf8).withUnsafeBufferPointer(scan)
        }
        // The trailing pad (a text ending on a separator already has it).
        if !previousWasSeparator, have >= 2 { emit(0) }
        // FNV-1a over the trigram ids in order of first occurrence: equal normalized texts have
        // equal sequences, hence equal fingerprints.
        var fingerprint: UInt64 = 0xCBF2_9CE4_8422_2325
        for p in textStart..<written {
          let id = out[p]
          fingerprint = (fingerprint ^ UInt64(UInt32(bitPattern: id))) &* 0x100_0000_01B3
          if Int(id) < Self.directIDs { seen[Int(id) &>> 6] = 0 }
        }
        newOffsets.append(start + written)
        newFingerprints.append(fingerprint)
        textIndex &+= 1
      }
    }
    }
    }
    tokens.append(contentsOf: scratch[0..<written])
    offsets.append(contentsOf: newOffsets)
    fingerprints.append(contentsOf: newFingerprints)
    vocabularySize = vocabulary
  }

  /// 0 for a separator; otherwise 37 + the lowercased scalar value of a letter or digit.
  static func code(nonASCII value: UInt32) -> UInt32 {
    guard let s = Unicode.Scalar(value) else { return 0 }
    let p = s.properties
    guard p.isAlphabetic || p.numericType != nil else { return 0 }
    if p.changesWhenLowercased, let lower = p.lowercaseMapping.unicodeScalars.first {
      return 37 + lower.value
    }
    return 37 + value
  }

  /// Jaccard similarity of the trigram sets of texts `a` and `b` (1 when both are empty).
  /// - Complexity: O(|a| · |b|) compared in place for short titles (at most 4,096 comparisons,
  ///   no allocation), O(|a| + |b|) through a set for longer ones.
  func similarity(_ a: Int, _ b: Int) -> Double {
    let x = trigrams(of: a), y = trigrams(of: b)
    var overlap = 0
    if x.count * y.count <= 4_096 {
      // Each text's ids are distinct, so each id of `y` found in `x` is one shared trigram.
      for t in y where x.contains(t) { overlap += 1 }
    } else {
      let set = Set<Int32>(x)
      for t in y where set.contains(t) { overlap += 1 }
    }
    let union = x.count + y.count - overlap
    return union == 0 ? 1 : Double(overlap) / Double(union)
  }

  /// One verified pair of texts (`first` < `second`).
  struct Pair: Equatable {
    var first: Int
    var second: Int
    var similarity: Double
  }

  /// The result of ``join(threshold:maximumGeneratorFrequency:include:)``: texts with the same
  /// normalized form are joined once, through their first occurrence.
  struct Join {
    /// For each text, the first text with the same normalized form (itself when it is the
    /// first), or -1 for texts left out or without trigrams.
    var representative: [Int]
    /// Pairs of representatives, ordered by `first` then `second`.
    var pairs: [Pair]

    /// The texts each representative stands for (itself included), ascending; only groups of
    /// two or more.
    var groups: [Int: [Int]] {
      var out: [Int: [Int]] = [:]
      for (i, r) in representative.enumerated() where r >= 0 && r != i { out[r, default: [r]].append(i) }
      return out
    }

    /// Every pair of texts (not only representatives), ordered by `first` then `second`.
    var expandedPairs: [Pair] {
      let groups = self.groups
      var out: [Pair] = []
      for group in groups.values {
        for a in 0..<(group.count - 1) {
          for b in (a + 1)..<group.count { out.append(Pair(first: group[a], second: group[b], similarity: 1)) }
        }
      }
      for p in pairs {
        for a in groups[p.first] ?? [p.first] {
          for b in groups[p.second] ?? [p.second] {
            out.append(Pair(first: min(a, b), second: max(a, b), similarity: p.similarity))
          }
        }
      }
      return out.sorted { $0.first != $1.first ? $0.first < $1.first : $0.second < $1.second }
    }
  }

  /// ⌈x⌉ for a non-negative x computed in floating point, robust to rounding just above an
  /// integer.
  private static func ceiling(_ x: Double) -> Int { Int((x - 1e-9).rounded(.up)) }

  /// Every pair of texts whose trigram Jaccard similarity is at least `threshold`, ordered by
  /// `first`, then `second` (subject to the generator bound in the type's discussion).
  /// - Parameters:
  ///   - threshold: in (0, 1].
  ///   - maximumGeneratorFrequency: trigrams in more texts than this generate no candidates.
  ///   - include: which texts take part (nil: all). Texts with no trigram never pair.
  func similarPairs(threshold: Double, maximumGeneratorFrequency: Int, include: [Bool]? = nil) -> [Pair] {
    join(threshold: threshold, maximumGeneratorFrequency: maximumGeneratorFrequency, include: include).expandedPairs
  }

  /// The similarity self-join (see the type's discussion). Texts with the same trigram sequence
  /// (equal normalized forms among them) are grouped first (similarity 1) and only one of each
  /// group takes part in the join, so repeated texts cost nothing extra.
  /// - Parameters: as ``similarPairs(threshold:maximumGeneratorFrequency:include:)``.
  func join(threshold t: Double, maximumGeneratorFrequency: Int, include: [Bool]? = nil) -> Join {
    let n = count
    var representative = [Int](repeating: -1, count: n)
    var size = [Int](repeating: 0, count: n)
    var firstOf = [UInt64: Int](minimumCapacity: n)
    for i in 0..<n where (include?[i] ?? true) && offsets[i + 1] > offsets[i] {
      if let r = firstOf[fingerprints[i]], sameSet(r, i) {
        representative[i] = r
      } else {
        if firstOf[fingerprints[i]] == nil { firstOf[fingerprints[i]] = i }
        representative[i] = i
        size[i] = offsets[i + 1] - offsets[i]
      }
    }
    guard t > 0 else { return Join(representative: representative, pairs: []) }
    let pairs = joinRepresentatives(threshold: t, maximumGeneratorFrequency: maximumGeneratorFrequency, size: size)
    return Join(representative: representative, pairs: pairs)
  }

  /// Whether texts `a` and `b` have the same trigram sequence. Texts with equal normalized
  /// forms always do (trigrams are listed in order of first occurrence), so this only guards
  /// against fingerprint collisions.
  private func sameSet(_ a: Int, _ b: Int) -> Bool {
    let count = size(of: a)
    guard count == size(of: b) else { return false }
    // The ids compared as bytes (`memcmp`): equal bytes are equal ids.
    return tokens.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return true }
      return memcmp(base + offsets[a], base + offsets[b], count * MemoryLayout<Int32>.stride) == 0
    }
  }

  /// PPJoin over the texts with `size[i] > 0`.
  private func joinRepresentatives(threshold t: Double, maximumGeneratorFrequency: Int, size globalSize: [Int]) -> [Pair] {
    // Texts taking part are numbered 0..<n (`members` maps them back), so every array below is
    // sized by them; their trigram ids are read in place from `self.tokens`.
    let members = globalSize.indices.filter { globalSize[$0] > 0 }
    let n = members.count
    guard n > 1 else { return [] }
    var offsets = [Int](repeating: 0, count: n + 1)
    for (i, g) in members.enumerated() { offsets[i + 1] = offsets[i] + globalSize[g] }
    let occurrences = offsets[n]
    let size = members.map { globalSize[$0] }
    let k = Self.sharedPrefixTrigrams
    let v = vocabularySize
    let largest = size.max() ?? 0
    // Per size s: the smallest partner size, the probe and index prefix lengths.
    var minimumPartner = [Int](repeating: 0, count: largest + 1)
    var probeLength = [Int](repeating: 0, count: largest + 1)
    var indexLength = [Int](repeating: 0, count: largest + 1)
    for s in 1...largest {
      minimumPartner[s] = Self.ceiling(t * Double(s))
      probeLength[s] = min(s, s - max(1, Self.ceiling(t * Double(s))) + k)
      indexLength[s] = min(s, s - max(1, Self.ceiling(2 * t / (1 + t) * Double(s))) + k)
    }
    // The overlap a pair of total size u needs.
    var required = [Int](repeating: 0, count: 2 * largest + 1)
    for u in 0...(2 * largest) { required[u] = Self.ceiling(t / (1 + t) * Double(u)) }

    // Document frequencies and postings by trigram id (texts ascending).
    var df = [Int32](repeating: 0, count: v)
    var start = [Int32](repeating: 0, count: v + 1)
    var postings: [Int32] = []
    self.tokens.withUnsafeBufferPointer { tokens in
      df.withUnsafeMutableBufferPointer { df in
        for g in members {
          for p in self.offsets[g]..<self.offsets[g + 1] { df[Int(tokens[p])] += 1 }
        }
        start.withUnsafeMutableBufferPointer { start in
          for id in 0..<v { start[id + 1] = start[id] + df[id] }
        }
      }
      var fill = start
      // Every slot is written below (the postings partition the occurrences), so the array is
      // not zero-filled first.
      postings = [Int32](unsafeUninitializedCapacity: occurrences) { postings, initialized in
        fill.withUnsafeMutableBufferPointer { fill in
          for (i, g) in members.enumerated() {
            for p in self.offsets[g]..<self.offsets[g + 1] {
              let id = Int(tokens[p])
              postings[Int(fill[id])] = Int32(i)
              fill[id] += 1
            }
          }
        }
        initialized = occurrences
      }
    }
    // Ranks: rarest first, ties by id (a counting sort on frequency). Non-generators are the
    // most frequent, so they rank last.
    var firstOfFrequency = [Int](repeating: 0, count: n + 2)
    for id in 0..<v where df[id] > 0 { firstOfFrequency[Int(df[id]) + 1] += 1 }
    for f in 1..<firstOfFrequency.count { firstOfFrequency[f] += firstOfFrequency[f - 1] }
    let ranked = firstOfFrequency[n + 1]
    var idOfRank = [Int32](repeating: 0, count: ranked)
    for id in 0..<v where df[id] > 0 {
      idOfRank[firstOfFrequency[Int(df[id])]] = Int32(id)
      firstOfFrequency[Int(df[id])] += 1
    }
    var generators = 0
    while generators < ranked, Int(df[Int(idOfRank[generators])]) <= maximumGeneratorFrequency { generators += 1 }
    // Each text's trigrams as ranks, ascending (filled in rank order). Every occurrence has a
    // rank, so every slot is written and the array is not zero-filled first.
    var next = Array(offsets.dropLast())
    let sorted = [Int32](unsafeUninitializedCapacity: occurrences) { sorted, initialized in
      next.withUnsafeMutableBufferPointer { next in
        postings.withUnsafeBufferPointer { postings in
          idOfRank.withUnsafeBufferPointer { idOfRank in
            start.withUnsafeBufferPointer { start in
              for r in 0..<ranked {
                let id = Int(idOfRank[r])
                for p in Int(start[id])..<Int(start[id + 1]) {
                  let text = Int(postings[p])
                  sorted[next[text]] = Int32(r)
                  next[text] += 1
                }
              }
            }
          }
        }
      }
      initialized = occurrences
    }
    // The index: (text, position) under each generator rank, filled as texts are processed.
    var indexStart = [Int](repeating: 0, count: generators + 1)
    for i in 0..<n {
      for p in 0..<indexLength[size[i]] {
        let r = Int(sorted[offsets[i] + p])
        if r < generators { indexStart[r + 1] += 1 }
      }
    }
    for r in 0..<generators { indexStart[r + 1] += indexStart[r] }
    var indexFill = indexStart
    var entries = [UInt64](repeating: 0, count: indexStart[generators])  // text << 32 | position

    let order = (0..<n).sorted { size[$0] != size[$1] ? size[$0] < size[$1] : $0 < $1 }
    var overlapSoFar = [Int32](repeating: 0, count: n)  // -1: pruned
    var touched: [Int] = []
    var stamp = [Int32](repeating: -1, count: ranked)
    var out: [Pair] = []
    sorted.withUnsafeBufferPointer { sorted in
      entries.withUnsafeMutableBufferPointer { entries in
        overlapSoFar.withUnsafeMutableBufferPointer { overlapSoFar in
          stamp.withUnsafeMutableBufferPointer { stamp in
            indexFill.withUnsafeMutableBufferPointer { indexFill in
              size.withUnsafeBufferPointer { size in
                required.withUnsafeBufferPointer { required in
                indexStart.withUnsafeMutableBufferPointer { indexStart in
                  for x in order {
                    let sx = size[x], base = offsets[x]
                    let smallest = minimumPartner[sx]
                    for i in 0..<probeLength[sx] {
                      let r = Int(sorted[base + i])
                      if r >= generators { break }
                      let remainingX = sx - i - 1
                      // A list holds texts in processing order (size ascending) and `smallest`
                      // never decreases, so entries too small now stay too small: drop them
                      // from the front for good (PPJoin's length filter on the lists).
                      var front = indexStart[r]
                      let end = indexFill[r]
                      while front < end, size[Int(entries[front] >> 32)] < smallest { front += 1 }
                      indexStart[r] = front
                      for e in front..<end {
                        let entry = entries[e]
                        let y = Int(entry >> 32)
                        let sy = size[y]
                        let soFar = overlapSoFar[y]
                        if soFar < 0 { continue }
                        let bound = Int(soFar) + 1 + min(remainingX, sy - Int(entry & 0xFFFF_FFFF) - 1)
                        if soFar == 0 { touched.append(y) }
                        overlapSoFar[y] = bound >= required[sx + sy] ? soFar + 1 : -1
                      }
                    }
                    for i in 0..<indexLength[sx] {
                      let r = Int(sorted[base + i])
                      if r >= generators { break }
                      entries[indexFill[r]] = UInt64(x) << 32 | UInt64(i)
                      indexFill[r] += 1
                    }
                    guard !touched.isEmpty else { continue }
                    for p in base..<(base + sx) { stamp[Int(sorted[p])] = Int32(x) }
                    for y in touched {
                      let sy = size[y]
                      let need = required[sx + sy]
                      if Int(overlapSoFar[y]) < min(k, need) { continue }
                      var overlap = 0
                      var left = sy
                      for p in offsets[y]..<(offsets[y] + sy) {
                        if stamp[Int(sorted[p])] == Int32(x) { overlap += 1 }
                        left -= 1
                        if overlap + left < need { break }
                      }
                      if overlap >= need {
                        let similarity = Double(overlap) / Double(sx + sy - overlap)
                        if similarity >= t - 1e-9 {
                          let (a, b) = (members[x], members[y])
                          out.append(Pair(first: min(a, b), second: max(a, b), similarity: similarity))
                        }
                      }
                    }
                    for y in touched { overlapSoFar[y] = 0 }
                    touched.removeAll(keepingCapacity: true)
                  }
                }
                }
              }
            }
          }
        }
      }
    }
    return out.sorted { $0.first != $1.first ? $0.first < $1.first : $0.second < $1.second }
  }
}

/// Open addressing (linear probing) from 63-bit trigram keys to dense ids, with the last text
/// each key was seen in.
private struct OpenAddressingTable {
  private static let empty = UInt64.max
  private var keys = [UInt64](repeating: empty, count: 1024)
  private var values = [Int32](repeating: 0, count: 1024)
  /// Per slot, the last text its key was looked up for (-1: none yet).
  private var lastText = [Int32](repeating: -1, count: 1024)
  private var used = 0

  /// The id of `key`, inserting it with `next` when absent, and whether this is the first time
  /// it is looked up for `text` (texts are numbered in the order they are read, so the last
  /// text a key was seen in is all it takes to tell).
  mutating func id(for key: UInt64, next: Int32, text: Int32) -> (id: Int32, inserted: Bool, firstInText: Bool) {
    if (used + 1) * 2 > keys.count { grow() }
    let mask = keys.count - 1
    var slot = Self.hash(key) & mask
    while true {
      let k = keys[slot]
      if k == key {
        let first = lastText[slot] != text
        lastText[slot] = text
        return (values[slot], false, first)
      }
      if k == Self.empty {
        keys[slot] = key
        values[slot] = next
        lastText[slot] = text
        used += 1
        return (next, true, true)
      }
      slot = (slot + 1) & mask
    }
  }

  private static func hash(_ key: UInt64) -> Int {
    // A fixed multiplicative mix (Fibonacci hashing), so every process hashes alike.
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 17)
  }

  private mutating func grow() {
    let oldKeys = keys, oldValues = values, oldLast = lastText
    keys = [UInt64](repeating: Self.empty, count: oldKeys.count * 2)
    values = [Int32](repeating: 0, count: oldKeys.count * 2)
    lastText = [Int32](repeating: -1, count: oldKeys.count * 2)
    let mask = keys.count - 1
    for j in oldKeys.indices where oldKeys[j] != Self.empty {
      var slot = Self.hash(oldKeys[j]) & mask
      while keys[slot] != Self.empty { slot = (slot + 1) & mask }
      keys[slot] = oldKeys[j]
      values[slot] = oldValues[j]
      lastText[slot] = oldLast[j]
    }
  }
}
