import Foundation
import Testing

@_spi(Benchmarking) @testable import KnowledgeEngine

/// Word-form variants: a query term found in the vocabulary also matches, at reduced weight,
/// vocabulary terms that share its first five characters and at least 0.4 of its trigrams
/// (Jaccard) — word forms the Porter stemmer leaves apart.
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
    // tumor/tumour share only "tum": no variant, although their Jaccard is 0.5.
    #expect(try workspace.search("tumor").results.map(\.id) == workspace.ids([1]))
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
}
