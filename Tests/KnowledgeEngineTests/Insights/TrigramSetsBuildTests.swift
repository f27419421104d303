import Foundation
import Testing

@testable import KnowledgeEngine

/// The trigram sets behind the insight joins are built and joined through quick paths
/// (2026-12-02: trigrams written to a reused scratch buffer, the per-text deduplication of
/// looked-up trigrams kept in their hash table, the join reading its texts in place, neutral
/// titles read on the builder's thread). Each must give exactly what a straightforward reading
/// gives: these tests compare them with references written for clarity, over generated texts
/// that mix ASCII, accented and non-Latin letters (enough of them to grow the looked-up table
/// several times), digits, punctuation, repeats and empty texts.
@Suite("Insights: trigram sets agree with a straightforward reading")
struct TrigramSetsBuildTests {
  // MARK: References

  /// The normalized codes of `text` as the type's discussion defines them: ASCII letters
  /// lowercased, other letters by their first lowercase scalar, digits kept, everything else a
  /// separator; runs of separators collapsed; padded with one separator on each side (0 stands
  /// for the separator). Non-ASCII letters keep their own codes even when they lowercase to an
  /// ASCII letter (the Kelvin sign, `İ`), as the sets have always read them.
  static func referenceCodes(_ text: String) -> [UInt32] {
    var codes: [UInt32] = [0]
    for s in text.unicodeScalars {
      let code: UInt32
      if s.isASCII {
        let v = s.value
        switch v {
        case 0x61...0x7A, 0x30...0x39: code = 1_000 + v
        case 0x41...0x5A: code = 1_000 + v + 0x20
        default: code = 0
        }
      } else if s.properties.isAlphabetic || s.properties.numericType != nil {
        let lower = s.properties.changesWhenLowercased ? s.properties.lowercaseMapping.unicodeScalars.first ?? s : s
        code = 2_000_000 + lower.value
      } else {
        code = 0
      }
      if code == 0, codes.last == 0 { continue }
      codes.append(code)
    }
    if codes.last != 0 { codes.append(0) }
    return codes
  }

  /// The distinct trigrams of `text` in order of first occurrence.
  static func referenceTrigrams(_ text: String) -> [[UInt32]] {
    let codes = referenceCodes(text)
    guard codes.count >= 3 else { return [] }
    var seen = Set<[UInt32]>()
    var out: [[UInt32]] = []
    for i in 0...(codes.count - 3) where seen.insert(Array(codes[i..<(i + 3)])).inserted { out.append(Array(codes[i..<(i + 3)])) }
    return out
  }

  /// Deterministic texts: words from a vocabulary with many non-ASCII letters (Greek, Cyrillic,
  /// accented Latin, CJK, the Kelvin sign), punctuation and digits, with planted repeats.
  static func texts(_ n: Int, seed: UInt64) -> [String] {
    var state = seed
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    let ascii = ["use", "SQLite", "for", "the", "cache", "v2", "port 8080", "a", "", "—", "don't", "x-y", "  "]
    let letters: [String] =
      "αβγδεζηθικλμνξοπρστυφχψωабвгдежзийклмнопрстуфхцчшщэюяéèêëàâîïôûçñøåæœ漢字仮名交じり文".map(String.init)
      + ["\u{212A}", "İ", "e\u{301}"]
    var out: [String] = []
    for i in 0..<n {
      if i > 5, next() % 5 == 0 {
        let earlier = out[next() % out.count]
        out.append(next() % 2 == 0 ? earlier : earlier.uppercased() + "?")
        continue
      }
      var words: [String] = []
      for _ in 0..<(next() % 9) {
        if next() % 3 == 0 {
          words.append((0..<(1 + next() % 4)).map { _ in letters[next() % letters.count] }.joined())
        } else {
          words.append(ascii[next() % ascii.count])
        }
      }
      out.append(words.joined(separator: next() % 4 == 0 ? ", " : " "))
    }
    return out
  }

  /// Checks that `sets` holds, for each of `texts`, exactly the reference trigrams in order of
  /// first occurrence, under one consistent, one-to-one naming of trigrams by id.
  static func expectMatchesReference(_ sets: TrigramSets, _ texts: [String]) {
    #expect(sets.count == texts.count)
    #expect(sets.tokens.count == sets.offsets[sets.count])
    var idOf: [[UInt32]: Int32] = [:]
    var trigramOf: [Int32: [UInt32]] = [:]
    for (i, text) in texts.enumerated() {
      let reference = referenceTrigrams(text)
      let ids = Array(sets.trigrams(of: i))
      #expect(ids.count == reference.count, "text \(i) \(text.debugDescription)")
      for (trigram, id) in zip(reference, ids) {
        #expect(idOf[trigram, default: id] == id, "text \(i): one trigram, two ids")
        #expect(trigramOf[id, default: trigram] == trigram, "text \(i): one id, two trigrams")
        idOf[trigram] = id
        trigramOf[id] = trigram
        #expect(Int(id) < sets.vocabularySize)
      }
    }
  }

  // MARK: Tests

  @Test("batches of any size give the trigrams of a straightforward reading", arguments: [1, 7, 64, 1_024])
  func batchedBuildMatchesReference(batch: Int) {
    let texts = Self.texts(1_500, seed: UInt64(batch))
    var sets = TrigramSets()
    var k = 0
    while k < texts.count {
      sets.append(contentsOf: texts[k..<min(k + batch, texts.count)])
      k += batch
    }
    Self.expectMatchesReference(sets, texts)
    // One text at a time gives the same ids, offsets and fingerprints.
    var single = TrigramSets()
    for t in texts { single.append(t) }
    #expect(single.tokens == sets.tokens)
    #expect(single.offsets == sets.offsets)
    #expect(single.fingerprints == sets.fingerprints)
    #expect(single.vocabularySize == sets.vocabularySize)
    // Enough non-ASCII trigrams that the looked-up table grew past its first 1,024 slots.
    #expect(sets.vocabularySize - 37 * 37 * 37 > 1_024)
  }

  @Test("the join over a subset finds exactly the pairs an all-pairs comparison finds", arguments: [0.3, 0.5, 0.8])
  func joinOverSubsetMatchesAllPairs(threshold: Double) {
    let texts = Self.texts(600, seed: 42)
    var sets = TrigramSets()
    sets.append(contentsOf: texts)
    var state: UInt64 = 7
    let include = texts.indices.map { _ -> Bool in
      state = state &* 6_364_136_223_846_793_005 &+ 1
      return state >> 61 != 0
    }
    let fast = sets.similarPairs(threshold: threshold, maximumGeneratorFrequency: .max, include: include)
    var slow: [TrigramSets.Pair] = []
    for a in texts.indices where include[a] && sets.size(of: a) > 0 {
      for b in (a + 1)..<texts.count where include[b] && sets.size(of: b) > 0 {
        let s = sets.similarity(a, b)
        if s >= threshold - 1e-9 { slow.append(TrigramSets.Pair(first: a, second: b, similarity: s)) }
      }
    }
    #expect(!slow.isEmpty)
    #expect(fast.map { [$0.first, $0.second] } == slow.map { [$0.first, $0.second] })
    #expect(zip(fast, slow).allSatisfy { abs($0.similarity - $1.similarity) < 1e-12 })
  }

  @Test("the builder gives the titles' sets, then the eligible titles' neutral forms in order")
  func builderMatchesSequentialReading() {
    let words = ["Do", "not", "use", "enable", "disabled", "never", "always", "X", "the", "cache", "don't", "allow", "é"]
    var state: UInt64 = 99
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    let titles: [(title: String, eligible: Bool)] = (0..<2_500).map { _ in
      ((0..<(1 + next() % 7)).map { _ in words[next() % words.count] }.joined(separator: " "), next() % 3 != 0)
    }
    let builder = InsightRules.TrigramBuilder()
    var k = 0
    for size in [1, 1_024, 300, 1_024, 5_000] where k < titles.count {
      builder.add(Array(titles[k..<min(k + size, titles.count)]))
      k += size
    }
    let (sets, neutralOf) = builder.finish()
    // The straightforward reading: every title, then the neutral titles of the eligible ones.
    var expectedOf: [Int] = []
    var neutrals: [String] = []
    for (i, t) in titles.enumerated() where t.eligible {
      if let neutral = TitleContrast.neutralTitle(t.title) {
        expectedOf.append(i)
        neutrals.append(neutral)
      }
    }
    var reference = TrigramSets()
    for t in titles { reference.append(t.title) }
    for t in neutrals { reference.append(t) }
    #expect(!neutrals.isEmpty)
    #expect(neutralOf == expectedOf)
    #expect(sets.tokens == reference.tokens)
    #expect(sets.offsets == reference.offsets)
    #expect(sets.fingerprints == reference.fingerprints)
  }
}
