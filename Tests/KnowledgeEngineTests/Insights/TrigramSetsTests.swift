import Foundation
import Testing

@testable import KnowledgeEngine

@Suite("Trigram sets and the similarity join")
struct TrigramSetsTests {
  struct SimilarityCase: CustomStringConvertible, Sendable {
    var name: String
    var a: String
    var b: String
    var similarity: Double
    var description: String { name }
  }

  // Reference values computed by hand (and with a Python one-liner over the same definition).
  static let cases: [SimilarityCase] = [
    SimilarityCase(name: "punctuation and case are ignored", a: "Use SQLite for the workspace", b: "use sqlite, for the WORKSPACE.", similarity: 1),
    SimilarityCase(name: "one word differs", a: "Use SQLite for the workspace store", b: "Use JSON files for the workspace store", similarity: 26.0 / 45.0),
    SimilarityCase(name: "tabs versus spaces", a: "Prefer tabs for indentation", b: "Prefer spaces for indentation", similarity: 22.0 / 34.0),
    SimilarityCase(name: "nothing shared", a: "abc", b: "xyz", similarity: 0),
    SimilarityCase(name: "letters beyond ASCII fold case", a: "ÉCRIRE le résumé", b: "écrire le RÉSUMÉ", similarity: 1),
    SimilarityCase(name: "empty against empty", a: "", b: "?!", similarity: 1),
  ]

  @Test("Jaccard similarity of trigram sets", arguments: cases)
  func similarity(_ c: SimilarityCase) {
    var sets = TrigramSets()
    sets.append(c.a)
    sets.append(c.b)
    #expect(abs(sets.similarity(0, 1) - c.similarity) < 1e-12)
  }

  @Test("a text is padded and split into distinct trigrams")
  func trigramCount() {
    var sets = TrigramSets()
    sets.append("Use SQLite.")
    sets.append("aaaa")
    // " us", "use", "se ", "e s", " sq", "sql", "qli", "lit", "ite", "te "
    #expect(sets.size(of: 0) == 10)
    // " aa", "aaa", "aa " (the repeated "aaa" counts once)
    #expect(sets.size(of: 1) == 3)
  }

  /// Deterministic pseudo-random titles over a small vocabulary, with planted near-copies.
  static func corpus(_ n: Int) -> [String] {
    let words = ["sqlite", "digest", "handoff", "swift", "workspace", "store", "use", "for", "the", "cache", "rule",
                 "insight", "task", "résumé", "naïve", "Ωmega", "trigram", "join", "prefix", "filter"]
    var state: UInt64 = 0x9E37_79B9
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    var out: [String] = []
    for i in 0..<n {
      if i > 10, next() % 4 == 0 {
        var copy = out[next() % out.count]
        if next() % 2 == 0 { copy += " " + words[next() % words.count] } else { copy = copy.uppercased() + "!" }
        out.append(copy)
      } else {
        out.append((0..<(2 + next() % 6)).map { _ in words[next() % words.count] }.joined(separator: " "))
      }
    }
    return out
  }

  struct JoinCase: CustomStringConvertible, Sendable {
    var threshold: Double
    var description: String { "threshold \(threshold)" }
  }

  @Test(
    "the join finds exactly the pairs an all-pairs comparison finds (no generator bound)",
    arguments: [JoinCase(threshold: 0.3), JoinCase(threshold: 0.5), JoinCase(threshold: 0.8), JoinCase(threshold: 1.0)])
  func joinMatchesAllPairs(_ c: JoinCase) {
    let texts = Self.corpus(400) + ["", "?", "a", "A!"]
    var sets = TrigramSets()
    for t in texts { sets.append(t) }
    let fast = sets.similarPairs(threshold: c.threshold, maximumGeneratorFrequency: .max).map { [$0.first, $0.second] }
    var slow: [[Int]] = []
    for a in 0..<texts.count {
      for b in (a + 1)..<texts.count where sets.size(of: a) > 0 && sets.size(of: b) > 0 {
        if sets.similarity(a, b) >= c.threshold - 1e-9 { slow.append([a, b]) }
      }
    }
    #expect(!slow.isEmpty)
    #expect(fast == slow)
  }

  @Test("identical normalized texts are grouped under their first occurrence")
  func representatives() {
    var sets = TrigramSets()
    for t in ["Keep the CLI thin", "keep the cli thin!", "Something else", "KEEP THE CLI THIN", ""] { sets.append(t) }
    let join = sets.join(threshold: 0.8, maximumGeneratorFrequency: 100)
    #expect(join.representative == [0, 0, 2, 0, -1])
    #expect(join.groups == [0: [0, 1, 3]])
    #expect(join.expandedPairs.map { [$0.first, $0.second] } == [[0, 1], [0, 3], [1, 3]])
  }

  @Test("only included texts take part")
  func include() {
    var sets = TrigramSets()
    for t in ["Use SQLite", "Use SQLite", "Use SQLite"] { sets.append(t) }
    let pairs = sets.similarPairs(threshold: 0.5, maximumGeneratorFrequency: 100, include: [true, false, true])
    #expect(pairs.map { [$0.first, $0.second] } == [[0, 2]])
  }
}
