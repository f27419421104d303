import Testing

@testable import KnowledgeEngine

struct TrigramsTests {
  @Test func paddingScheme() {
    #expect(Trigrams.trigrams(of: "cat") == ["  c", " ca", "at ", "cat"])
    #expect(Trigrams.trigrams(of: "a") == ["  a", " a "])
    #expect(Trigrams.trigrams(of: "") == [])
    #expect(Trigrams.trigrams(of: "東京") == ["  東", " 東京", "東京 "].sorted())
  }

  @Test func duplicatesAreDropped() {
    #expect(Trigrams.trigrams(of: "aaaa") == ["  a", " aa", "aa ", "aaa"])
  }

  @Test("Ceiling arithmetic: at least half of the query's trigrams must be shared")
  func minimumShared() {
    #expect(
      [1, 2, 3, 4, 5, 6, 7].map { Trigrams.minimumShared(queryTrigramCount: $0) }
        == [1, 1, 2, 2, 3, 3, 4])
  }

  struct Pair: CustomTestStringConvertible, Sendable {
    var query: String
    var candidate: String
    /// Expected Jaccard similarity when it matches, nil when it must not.
    var similarity: Double?
    var testDescription: String {
      "\(query) vs \(candidate): " + (similarity.map { "match \($0)" } ?? "no match")
    }
  }

  static let pairs: [Pair] = [
    // Query terms are compared as the tokenizer leaves them (stemmed).
    Pair(query: "handof", candidate: "handoff", similarity: 6.0 / 9.0),
    Pair(query: "persistanc", candidate: "persistenc", similarity: 8.0 / 14.0),
    Pair(query: "migraton", candidate: "migrat", similarity: 6.0 / 10.0),
    Pair(query: "migraton", candidate: "migration", similarity: 7.0 / 12.0),
    Pair(query: "adob", candidate: "dobromat", similarity: nil),
    Pair(query: "adob", candidate: "plugin", similarity: nil),
    Pair(query: "ballet", candidate: "galleri", similarity: nil),
    Pair(query: "ballet", candidate: "layout", similarity: nil),
    Pair(query: "cat", candidate: "car", similarity: nil),
    Pair(query: "handof", candidate: "handl", similarity: nil),
    Pair(query: "zurich", candidate: "munchen", similarity: nil),
    Pair(query: "12345", candidate: "12346", similarity: nil),
    Pair(query: "ab", candidate: "abc", similarity: nil),
  ]

  @Test(arguments: pairs)
  func fuzzyRule(_ pair: Pair) throws {
    let similarity = Trigrams.fuzzySimilarity(of: pair.query, to: pair.candidate)
    if let expected = pair.similarity {
      let actual = try #require(similarity)
      #expect(abs(actual - expected) < 1e-12)
    } else {
      #expect(similarity == nil)
    }
  }

  @Test("One shared trigram never matches a short term")
  func oneSharedTrigram() {
    // adob: 5 trigrams; dobromat shares only "dob".
    #expect(Trigrams.sharedCount(Trigrams.trigrams(of: "adob"), Trigrams.trigrams(of: "dobromat")) == 1)
    #expect(!Trigrams.isMatch(shared: 1, queryCount: 5, candidateCount: 9))
    #expect(!Trigrams.isMatch(shared: 1, queryCount: 2, candidateCount: 2))
    #expect(Trigrams.isMatch(shared: 2, queryCount: 2, candidateCount: 2))
  }

  @Test func jaccardBoundaryIsInclusiveAndExact() {
    // 3s >= q + c exactly at Jaccard 1/2.
    #expect(Trigrams.isMatch(shared: 4, queryCount: 6, candidateCount: 6))
    #expect(!Trigrams.isMatch(shared: 4, queryCount: 6, candidateCount: 7))
  }
}
