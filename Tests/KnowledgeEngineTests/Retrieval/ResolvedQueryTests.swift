import Foundation
import Testing

@_spi(Benchmarking) @testable import KnowledgeEngine

/// `KnowledgeEngine.resolvedQueryJSON`, the benchmark dump behind
/// `Benchmarks/scripts/prototype/`: it must describe the query exactly as the ranker searches it.
struct ResolvedQueryTests {
  struct Resolved: Decodable, Equatable {
    struct Term: Decodable, Equatable {
      struct Variant: Decodable, Equatable {
        var term: String
        var weight: Double
      }
      var term: String
      var variants: [Variant]
    }
    var terms: [Term]
    var pairs: [[Int]]
  }

  func resolve(_ query: String) throws -> Resolved {
    let workspace = try PersistedSearchTests.Workspace([
      .init(title: "Handoff checklist", content: "Write the session handoff before leaving."),
      .init(title: "Schema migrations", content: "Each migration step is append-only."),
    ])
    let text = try workspace.engine.resolvedQueryJSON(query)
    return try JSONDecoder().decode(Resolved.self, from: Data(text.utf8))
  }

  @Test("stop words are dropped, terms are stemmed and phrase pairs keep the query distance")
  func exactTerms() throws {
    let resolved = try resolve("the migration of handoff")
    #expect(resolved.terms.map(\.term) == ["migrat", "handoff"])
    #expect(
      resolved.terms.map(\.variants) == [
        [.init(term: "migrat", weight: 1)], [.init(term: "handoff", weight: 1)],
      ])
    // "of" sits between the two words: they are two positions apart in the query.
    #expect(resolved.pairs == [[0, 1, 2]])
  }

  @Test("a typo resolves to its fuzzy variant with a weight below 1, an unknown word to none")
  func fuzzyAndMissing() throws {
    let resolved = try resolve("handof zyxwvut")
    #expect(resolved.terms.count == 2)
    let typo = try #require(resolved.terms.first)
    #expect(typo.variants.map(\.term) == ["handoff"])
    #expect(typo.variants.allSatisfy { $0.weight > 0 && $0.weight < 1 })
    #expect(resolved.terms[1].variants.isEmpty)
  }
}
