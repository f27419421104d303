import Foundation
import KnowledgeEngine
import Testing

@testable import AgentRuntime

/// `knowledge_search`'s text says when a short query's results are ordered by terms matched
/// first, and each row says how many it matched, as the CLI does (review 30a).
struct SearchOrderTextTests {
  static func result(_ title: String, score: Double, termsMatched: Int?) -> SearchResult {
    SearchResult(
      id: UUID(), kind: .knowledge(.fact), title: title, snippet: "", score: score,
      scoreParts: ScoreParts(title: score, tags: 0, content: 0, fuzzy: 0, phrase: 0, coverage: 0),
      matchedTerms: [], termsMatched: termsMatched)
  }

  static func response(_ results: [SearchResult], ordered: Bool?) -> SearchResponse {
    var r = SearchResponse(
      mode: .hybridLexical, algorithmVersion: "hybrid-lexical-v1", query: "kiwi mango",
      terms: ["kiwi", "mango"].map { QueryTermMatch(term: $0, match: .exact, variants: [$0]) }, results: results,
      total: results.count, truncated: false, emptyReason: nil)
    r.orderedByTermsMatched = ordered
    return r
  }

  @Test("ordered by terms matched: the Order line and each row's count; score order: neither")
  func orderLine() {
    let ordered = SearchTools.text(
      Self.response(
        [Self.result("Fruit list", score: 0.649, termsMatched: 2), Self.result("Kiwi", score: 0.751, termsMatched: 1)],
        ordered: true))
    #expect(ordered.contains("Order: results matching more of the query's 2 terms come first, then higher scores."), "\(ordered)")
    #expect(ordered.contains("score 0.649, 2 of 2 terms matched"), "\(ordered)")
    let plain = SearchTools.text(
      Self.response([Self.result("Kiwi", score: 0.751, termsMatched: nil)], ordered: nil))
    #expect(!plain.contains("Order:"), "\(plain)")
    #expect(!plain.contains("terms matched"), "\(plain)")
  }
}
