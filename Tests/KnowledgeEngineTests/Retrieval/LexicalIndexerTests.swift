import Testing

@testable import KnowledgeEngine

private typealias F = RetrievalFixtures

struct LexicalIndexerTests {
  @Test func postingsPerFieldWithPositions() throws {
    let document = F.document(
      1, "Release plan", "The plan: release, then plan again.", tags: ["release notes", "plan"])
    let indexed = LexicalIndexer.postings(for: document)
    #expect(indexed.fieldLengths == FieldCounts(title: 2, tags: 3, content: 6))
    #expect(indexed.terms.map(\.term) == ["again", "note", "plan", "releas", "the", "then"])

    let plan = try #require(indexed.terms.first { $0.term == "plan" })
    #expect(plan.termFrequencies == FieldCounts(title: 1, tags: 1, content: 2))
    let posting = plan.posting(document: 7, kind: .knowledge(.goal), fieldLengths: indexed.fieldLengths)
    #expect(posting.positions(in: .title) == [1])
    // Tags: "release notes" at 0, 1; a gap; "plan" at 3.
    #expect(posting.positions(in: .tags) == [3])
    // Content: the@0 plan@1, a break after "plan:", release@3, a break after "release,",
    // then@5 plan@6 again@7 — six terms.
    #expect(posting.positions(in: .content) == [1, 6])
  }

  /// The summary doctor's freshness check compares (s20) must be what the index stores: the
  /// field lengths and the distinct terms of `postings(for:)`, on every kind of text the
  /// tokenizer treats specially.
  @Test(arguments: [
    F.document(1, "Release plan", "The plan: release, then plan again.", tags: ["release notes", "plan"]),
    F.document(2, ""),
    F.document(3, "IL-6 and TNF-α in E. coli", "GATA3 / GATA-3; e-mail vs email. Dr. Smith's mice (n = 12) — 0.7 ± 0.1.", tags: ["b-cells"]),
    F.document(4, "Müller's ölçüm données", "Don't re-use C++ or C# here\n\n- a list item\n* another", tags: ["naïve", "co\u{AD}op"]),
    F.document(5, "Ω and µ and ﬁ", "Full-width ０．７ and ＡＢＣ; Greek β-cells; 日本語のテキスト; emoji 👩‍🔬", tags: []),
    F.document(6, String(repeating: "long ", count: 400), String(repeating: "Words words WORDS. ", count: 300), tags: ["a", "b", "c"]),
    // camelCase parts are extra postings (tokenizer version 8): the summary holds them too.
    F.document(7, "getUserProfile returns nil", "URLSession and XMLHttpRequest; mRNA, siRNA, iPhone", tags: ["maxRetryCount"]),
    // Numbers are held whole too (tokenizer version 9).
    F.document(8, "Release v2.3.9 notes", "10.0.0.1, Kir7.1 and ２５０，０００ (0.7). Fig.1 v1.x 2.", tags: ["1.2.3"]),
  ])
  func termSummaryMatchesPostings(document: IndexedDocument) {
    let postings = LexicalIndexer.postings(for: document)
    let summary = LexicalIndexer.termSummary(for: document)
    #expect(summary.fieldLengths == postings.fieldLengths)
    #expect(summary.terms == postings.terms.map(\.term))
  }

  /// Tokenizer version 9 (review, s21): `v2.3` must not be an exact match of `v2.3.9`, which the
  /// parts `v2`, `3`, `9` next to each other cannot tell.
  @Test("a number written with separators is held whole at its first part's position, outside the field's length")
  func wholeNumbers() throws {
    let indexed = LexicalIndexer.postings(
      for: F.document(1, "Release v2.3.9 notes", "Ship 1.2 then 1.2.3; not Fig.1, v1.x or 2. Then ０．７"))
    #expect(indexed.fieldLengths == FieldCounts(title: 5, tags: 0, content: 17))
    func positions(_ term: String, _ field: IndexField) throws -> [Int] {
      let entry = try #require(indexed.terms.first { $0.term == term }, "\(term)")
      return entry.posting(document: 1, kind: .knowledge(.fact), fieldLengths: indexed.fieldLengths)
        .positions(in: field)
    }
    #expect(try positions("v2.3.9", .title) == [1])
    #expect(try positions("v2", .title) == [1])
    #expect(try positions("9", .title) == [3])
    #expect(try positions("1.2", .content) == [1])
    #expect(try positions("1.2.3", .content) == [4])
    #expect(try positions("0.7", .content) == [18])
    let terms = Set(indexed.terms.map(\.term))
    // Only the whole runs: no `2.3` inside `v2.3.9`, no `fig.1`, `v1.x` or `2.`.
    for absent in ["2.3", "2.3.9", "v2.3", "fig.1", "v1.x", "1.x", "2.then"] { #expect(!terms.contains(absent), "\(absent)") }
  }

  @Test func emptyDocumentHasNoTerms() {
    let indexed = LexicalIndexer.postings(for: F.document(1, ""))
    #expect(indexed == DocumentPostings(fieldLengths: .zero, terms: []))
  }
}

struct InMemoryLexicalIndexTests {
  @Test func statisticsAndPostingOrder() {
    let index = F.index([
      F.document(1, "alpha beta", "gamma"),
      F.document(2, "beta", "gamma gamma delta"),
    ])
    #expect(index.count == 2)
    #expect(
      index.statistics()
        == IndexStatistics(
          documentCount: 2, totalFieldLengths: FieldValues(title: 3, tags: 0, content: 4)))
    #expect(index.statistics().averageLength(of: .content) == 2)
    #expect(index.postings(for: "gamma").map(\.document) == [1, 2])
    #expect(index.postings(for: "gamma").map(\.termFrequencies.content) == [1, 2])
    #expect(index.documentFrequency(of: "beta") == 2)
    #expect(index.documentFrequency(of: "missing") == 0)
  }

  @Test func replacingADocumentReindexesIt() {
    var index = F.index([F.document(1, "alpha"), F.document(2, "beta")])
    index.add(F.document(1, "gamma"))
    #expect(index.count == 2)
    #expect(index.postings(for: "alpha").isEmpty)
    #expect(index.postings(for: "gamma").map(\.document) == [3])
    #expect(index.key(of: F.id(1)) == 3)
    #expect(index.statistics().totalFieldLengths.title == 2)
  }

  @Test func removingADocument() {
    var index = F.index([F.document(1, "alpha beta"), F.document(2, "beta")])
    let removed = index.remove(id: F.id(1))
    let removedAgain = index.remove(id: F.id(1))
    #expect(removed && !removedAgain)
    #expect(index.postings(for: "alpha").isEmpty)
    #expect(index.postings(for: "beta").map(\.document) == [2])
    #expect(index.statistics().totalFieldLengths.title == 1)
    #expect(index.documents([1, 2]).keys.sorted() == [2])
    // A removed term is no longer a fuzzy or prefix candidate.
    #expect(index.vocabularyTerms(withPrefix: "al", limit: 5) == [])
  }

  @Test func fuzzyCandidatesShareEnoughTrigrams() {
    let index = F.index([F.document(1, "handoff handle hand"), F.document(2, "handoff")])
    let trigrams = Trigrams.trigrams(of: "handof")
    #expect(
      index.vocabularyTerms(sharingTrigrams: trigrams, minimumShared: 4, limit: 10)
        == ["handoff", "hand", "handl"])
    #expect(index.vocabularyTerms(sharingTrigrams: trigrams, minimumShared: 6, limit: 10) == ["handoff"])
    #expect(index.vocabularyTerms(sharingTrigrams: trigrams, minimumShared: 4, limit: 1) == ["handoff"])
  }

  @Test func prefixCandidatesMostFrequentFirst() {
    let index = F.index([
      F.document(1, "东京 东方 東京"), F.document(2, "东方 ab abc abd"), F.document(3, "abd"),
    ])
    #expect(index.vocabularyTerms(withPrefix: "ab", limit: 10) == ["abd", "abc"])
    #expect(index.vocabularyTerms(withPrefix: "a", limit: 10) == ["abd", "ab", "abc"])
    #expect(index.vocabularyTerms(withPrefix: "东", limit: 10) == ["东方", "东京"])
    #expect(index.vocabularyTerms(withPrefix: "", limit: 10) == [])
  }
}
