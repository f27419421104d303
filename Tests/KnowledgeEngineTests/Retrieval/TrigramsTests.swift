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

  /// The scheme written out over `Character`s, as ``Trigrams/trigrams(of:)`` did before its
  /// packed ASCII path: the reference the fast path must equal.
  static func referenceTrigrams(of term: String) -> [String] {
    guard !term.isEmpty else { return [] }
    let padded: [Character] = [" ", " "] + Array(term) + [" "]
    return Set((0..<(padded.count - 2)).map { String(padded[$0..<($0 + 3)]) }).sorted()
  }

  static let packedCases = [
    "a", "ab", "cat", "aaaa", "abab", "handoff", "v2.3.9", "c++", "idolm@ster", "don't",
    "z~!", "0", "e2f", "persistanc", "aaabaaa",
  ]

  @Test("printable ASCII terms take the packed path and give the reference trigrams", arguments: packedCases)
  func packedPathEqualsReference(_ term: String) throws {
    let packed = try #require(Trigrams.asciiTrigrams(of: term))
    #expect(packed.map(Trigrams.string(ofPacked:)) == Self.referenceTrigrams(of: term))
    #expect(Trigrams.trigrams(of: term) == Self.referenceTrigrams(of: term))
    #expect(packed == packed.sorted() && Set(packed).count == packed.count)
  }

  @Test("terms with a space, control or non-ASCII byte take the string path")
  func packedPathRefusesOtherBytes() {
    for term in ["müller", "東京", "a b", "tab\t", "del\u{7F}", "crlf\r\n", "é"] {
      #expect(Trigrams.asciiTrigrams(of: term) == nil, "\(term)")
      #expect(Trigrams.trigrams(of: term) == Self.referenceTrigrams(of: term), "\(term)")
    }
    #expect(Trigrams.asciiTrigrams(of: "") == [])
  }

  @Test("shared counts agree across packed, string and mixed lists")
  func comparisonListsShareAsStringsDo() {
    let terms = ["handoff", "handof", "müller", "muller", "mullerx", "café", "cafe", "東京", "a"]
    for a in terms {
      for b in terms {
        let expected = Trigrams.sharedCount(Self.referenceTrigrams(of: a), Self.referenceTrigrams(of: b))
        let lists = (Trigrams.comparisonList(of: a), Trigrams.comparisonList(of: b))
        #expect(Trigrams.sharedCount(lists.0, lists.1) == expected, "\(a) / \(b)")
        #expect(lists.0.count == Self.referenceTrigrams(of: a).count)
        #expect(lists.0.strings == Self.referenceTrigrams(of: a))
      }
    }
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
