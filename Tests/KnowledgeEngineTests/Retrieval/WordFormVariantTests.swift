import Foundation
import Testing

@_spi(Benchmarking) @testable import KnowledgeEngine

/// Word-form variants: a query term found in the vocabulary also matches, at reduced weight,
/// vocabulary terms that share its first five characters and whose trigram Jaccard similarity
/// to it is at least 0.5 (the typo rule) — word forms the Porter stemmer leaves apart.
struct WordFormVariantTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  static let corpus = [
    Item(title: "Diagnosis notes", content: "what the first visit found"),
    Item(title: "Diagnostic checklist", content: "steps to run before a release"),
    Item(title: "Release calendar", content: "dates for the spring train"),
  ]

  @Test("diagnosis also finds diagnostic, below the exact form, as a fuzzy part")
  func variantFoundBelowExact() throws {
    let workspace = try Workspace(Self.corpus)
    let response = try workspace.search("diagnosis")
    #expect(response.results.map(\.id) == workspace.ids([0, 1]))
    #expect(response.terms.map(\.match) == [.exact])
    // Porter stems: diagnosis → diagnosi, diagnostic → diagnost (Jaccard 7/11).
    #expect(response.terms.first?.variants == ["diagnosi", "diagnost"])
    let exact = response.results[0]
    let variant = response.results[1]
    #expect(exact.scoreParts.fuzzy == 0 && exact.scoreParts.title > 0)
    #expect(variant.scoreParts.fuzzy > 0 && variant.scoreParts.title == 0)
    #expect(variant.score < exact.score)
    #expect(variant.matchedTerms == ["diagnost"])
  }

  @Test("an item with the exact form in its content outranks one with a variant in its title")
  func exactContentBeatsVariantTitle() throws {
    let workspace = try Workspace([
      Item(title: "Metastatic spread", content: "imaging plan"),
      Item(title: "Imaging plan", content: "watch for metastasis in the liver"),
    ])
    let response = try workspace.search("metastasis")
    #expect(response.results.map(\.id) == workspace.ids([1, 0]))
  }

  @Test("turned off, the ranker matches only the exact form")
  func switchedOff() throws {
    let workspace = try Workspace(Self.corpus)
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.maximumWordFormVariants = 0
    #expect(
      try workspace.engine.rankedIDs("diagnosis", depth: 10, parameters: parameters)
        == workspace.ids([0]))
    #expect(try workspace.engine.rankedIDs("diagnosis", depth: 10) == workspace.ids([0, 1]))
  }

  @Test("no variant without the shared five-character prefix, nor for short or digit terms")
  func boundaries() throws {
    let workspace = try Workspace([
      Item(title: "Tumour board", content: "weekly"),
      Item(title: "Tumor registry", content: "monthly"),
      Item(title: "Page v2 layout", content: "uses the v20 grid"),
      Item(title: "Cat photos", content: "cats and catalogs"),
    ])
    // tumor/tumour share only "tum": no word-form variant, although their Jaccard is 0.5;
    // they find each other as spellings (EnglishSpellingTests), at full weight.
    let tumor = try workspace.search("tumor")
    #expect(tumor.terms.first?.variants == ["tumor", "tumour"])
    #expect(tumor.terms.first?.spellings == ["tumour"])
    #expect(tumor.results.allSatisfy { $0.scoreParts.fuzzy == 0 })
    let digits = try workspace.search("v2")
    #expect(digits.terms.first?.variants == ["v2"])
    // cat/catalog share "cat" but only 3 of 9 trigrams.
    #expect(try workspace.search("cat").terms.first?.variants == ["cat"])
  }

  @Test("at most two variants, the most similar first")
  func atMostTwo() throws {
    let workspace = try Workspace([
      Item(title: "Diagnosis", content: "a"),
      Item(title: "Diagnostician", content: "b"),
      Item(title: "Diagnostic", content: "c"),
      Item(title: "Diagnosed", content: "d"),
    ])
    let response = try workspace.search("diagnosis")
    // Jaccard to diagnosi: diagnos 0.7, diagnost 0.64, diagnostician below both.
    #expect(response.terms.first?.variants == ["diagnosi", "diagnos", "diagnost"])
    #expect(response.results.map(\.id) == workspace.ids([0, 3, 2]))
  }

  // Regression cases from a new user's review (2026-11-30).

  @Test("British and American spellings find each other both ways (optim is a candidate)")
  func bothSpellings() throws {
    let workspace = try Workspace([
      Item(title: "Optimise the loader", content: "cache warm paths"),
      Item(title: "Optimize the palette", content: "fewer colours"),
      Item(title: "Organisation chart", content: "teams"),
      Item(title: "Organization goals", content: "quarterly"),
    ])
    // Since spellings are searched in their own right (EnglishSpellingTests), the other form
    // counts nearly in full (no fuzzy part), below the form typed.
    for (query, order) in [
      ("optimise", [0, 1]), ("optimize", [1, 0]), ("organisation", [2, 3]),
      ("organization", [3, 2]),
    ] {
      let response = try workspace.search(query)
      #expect(response.results.map(\.id) == workspace.ids(order), "\(query)")
      #expect(response.results.allSatisfy { $0.scoreParts.fuzzy == 0 }, "\(query)")
    }
  }

  @Test("two forms in one query are each searched once, not also as each other's variant")
  func noDoubleCredit() throws {
    let workspace = try Workspace([
      Item(title: "Deploy on Fridays is forbidden", content: "policy"),
      Item(title: "Deployment pipeline", content: "stages"),
    ])
    let response = try workspace.search("deploy deployment")
    // Porter: deploy → deploi, deployment → deploy.
    #expect(response.terms.map(\.variants) == [["deploi"], ["deploy"]])
    #expect(response.results.allSatisfy { $0.scoreParts.fuzzy == 0 })
    #expect(response.results.map(\.id) == workspace.ids([1, 0]))
    #expect(response.results.map(\.matchedTerms) == [["deploy"], ["deploi"]])
  }

  @Test("a variant is at most twice as long as the query word, nor under half as long")
  func comparableLengths() throws {
    let workspace = try Workspace([
      Item(title: "Contrast levels", content: "meet WCAG AA"),
      Item(title: "Deploy checklist", content: "tag the release"),
    ])
    let run = try workspace.search(String(repeating: "a", count: 500))
    #expect(run.results.isEmpty)
    #expect(run.emptyReason == .allBelowThreshold)
    let repeated = try workspace.search(String(repeating: "deploy", count: 80))
    #expect(repeated.results.isEmpty)
    #expect(Trigrams.haveComparableLengths("handof", "handoff"))
    #expect(Trigrams.haveComparableLengths("immun", "immunolog"))
    #expect(!Trigrams.haveComparableLengths("immun", "immunohistochem"))
  }

  @Test("a lone letter beside other words is not expanded by prefix; alone it still is")
  func loneLetters() throws {
    let workspace = try Workspace([
      Item(title: "Deploy on Fridays is forbidden", content: "policy"),
      Item(title: "Service startup script", content: "schema checks"),
    ])
    let possessive = try workspace.search("deploy's policy")
    #expect(possessive.results.map(\.id) == workspace.ids([0]))
    #expect(try workspace.search("s").results.map(\.id) == workspace.ids([1]))
  }

  @Test("possessive and contraction endings after an apostrophe are not searched")
  func clitics() throws {
    let workspace = try Workspace([
      Item(title: "The deploy's rollback", content: "revert the release"),
      Item(title: "Crash report", content: "null pointer"),
      Item(title: "T cell counts", content: "lab results"),
    ])
    let crash = try workspace.search("crash's")
    #expect(crash.terms.map(\.term) == ["crash"])
    #expect(crash.results.map(\.id) == workspace.ids([1]))
    #expect(try workspace.search("team\u{2019}s deploy").terms.map(\.term) == ["team", "deploi"])
    #expect(try workspace.search("don't").terms.map(\.term) == ["don"])
    // A letter that is not after an apostrophe is a word: "T cell".
    #expect(try workspace.search("T cell").results.first?.id == workspace.items[2].id)
    // Nothing but an ending is still searched.
    #expect(try workspace.search("'s").terms.map(\.term) == ["s"])
  }

  @Test("words sharing a prefix but few trigrams are not variants (content/context)")
  func unrelatedPrefixSharers() throws {
    let workspace = try Workspace([
      Item(title: "Context window is 128k tokens", content: "model limits"),
      Item(title: "Content calendar", content: "posts"),
    ])
    // Jaccard 5/11, under the typo rule's 1/2.
    #expect(try workspace.search("content").results.map(\.id) == workspace.ids([1]))
    #expect(try workspace.search("context").results.map(\.id) == workspace.ids([0]))
  }

  /// Records the prefix look-ups the ranker makes.
  final class PrefixSpy: LexicalIndexReader, @unchecked Sendable {
    let base: InMemoryLexicalIndex
    var prefixLimits: [Int] = []
    init(_ base: InMemoryLexicalIndex) { self.base = base }
    func statistics() -> IndexStatistics { base.statistics() }
    func postings(for term: String) -> [Posting] { base.postings(for: term) }
    func documentFrequency(of term: String) -> Int { base.documentFrequency(of: term) }
    func vocabularyTerms(sharingTrigrams trigrams: [String], minimumShared: Int, limit: Int)
      -> [String]
    {
      base.vocabularyTerms(sharingTrigrams: trigrams, minimumShared: minimumShared, limit: limit)
    }
    func vocabularyTerms(withPrefix prefix: String, limit: Int) -> [String] {
      prefixLimits.append(limit)
      return base.vocabularyTerms(withPrefix: prefix, limit: limit)
    }
    func documents(_ keys: [Int64]) -> [Int64: IndexedDocument] { base.documents(keys) }
  }

  /// `fillers` vocabulary terms share the prefix "plann" but are too dissimilar to be variants
  /// (`plannabcd`…: Jaccard 5/11), each in two documents; "planner" (Jaccard 5/9, a variant)
  /// is in one, so it is among the most frequent candidates only when fillers are few.
  static func plannCorpus(fillers: Int) -> [IndexedDocument] {
    var documents: [IndexedDocument] = []
    var n = 0
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    for i in 0..<fillers {
      let word = "plann" + String(letters[i / 26]) + String(letters[i % 26]) + "qz"
      for _ in 0..<2 {
        n += 1
        documents.append(RetrievalFixtures.document(n, "Note \(n)", word))
      }
    }
    documents.append(RetrievalFixtures.document(n + 1, "Planner", "the planner"))
    documents.append(RetrievalFixtures.document(n + 2, "Plann", "plann"))
    return documents
  }

  @Test("word-form candidates are read once per query word, at most 256 of them, most frequent first")
  func candidateReadIsBounded() throws {
    let few = PrefixSpy(RetrievalFixtures.index(Self.plannCorpus(fillers: 100)))
    let found = try HybridLexicalRanker().search("plann", in: few)
    #expect(few.prefixLimits == [HybridLexicalRanker.wordFormCandidateLimit])
    #expect(HybridLexicalRanker.wordFormCandidateLimit == 256)
    #expect(found.terms.first?.variants == ["plann", "planner"])

    // With 300 more frequent prefix-sharers the rare close form is past the cut.
    let many = PrefixSpy(RetrievalFixtures.index(Self.plannCorpus(fillers: 300)))
    let cut = try HybridLexicalRanker().search("plann", in: many)
    #expect(many.prefixLimits == [256])
    #expect(cut.terms.first?.variants == ["plann"])
    #expect(cut.results.map(\.title) == ["Plann"])
  }
}
