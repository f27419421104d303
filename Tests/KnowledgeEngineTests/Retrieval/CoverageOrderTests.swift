import Foundation
import Testing

@_spi(Benchmarking) @testable import KnowledgeEngine

/// Issue 3's Must-hold "more query terms covered beats fewer": in a query of two or three
/// distinct terms, results are ordered by how many of the terms they match before their score
/// (coordination level). Review 30a found the title *Kiwi* above a content naming both `kiwi`
/// and `mango`, since the coverage factor (1 + 0.25 · share) cannot outweigh a title's field
/// weight.
struct CoverageOrderTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  func ranked(_ response: SearchResponse) -> String {
    "\(response.results.map { ($0.title, $0.score, $0.termsMatched as Any) })"
  }

  /// The reviewer's corpus (review 30a, finding 2, related).
  static let fruit: [Item] =
    [
      Item(title: "Kiwi"),
      Item(
        title: "Fruit list",
        content:
          "We bought kiwi and mango at the market on Saturday morning along with several other fruits for the party"),
    ] + (1...3).map { Item(title: "filler \($0)", content: "other words \($0)") }

  @Test("kiwi mango: a content naming both words ranks above a title naming one, though it scores less")
  func bothWordsAboveOneInTitle() throws {
    let workspace = try Workspace(Self.fruit)
    let response = try workspace.search("kiwi mango")
    #expect(response.results.map(\.title) == ["Fruit list", "Kiwi"], "\(ranked(response))")
    #expect(response.results.map(\.termsMatched) == [2, 1])
    #expect(response.orderedByTermsMatched == true)
    // The order is not the scores' order: the title's field weight still scores higher.
    #expect(response.results[0].score < response.results[1].score, "\(ranked(response))")
  }

  @Test("with the order off, the title naming one word ranks first: the test can tell")
  func titleFirstWithoutTheOrder() throws {
    let workspace = try Workspace(Self.fruit)
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.coverageOrderMaximumTerms = 0
    #expect(try workspace.engine.rankedIDs("kiwi mango", depth: 10, parameters: parameters) == workspace.ids([0, 1]))
    #expect(try workspace.engine.rankedIDs("kiwi mango", depth: 10, parameters: .v1) == workspace.ids([1, 0]))
  }

  @Test("the bound is three terms: kiwi mango papaya is ordered by terms matched, a fourth word orders by score")
  func boundAtThreeTerms() throws {
    let workspace = try Workspace(Self.fruit)
    let three = try workspace.search("kiwi mango papaya")
    #expect(three.orderedByTermsMatched == true)
    #expect(three.results.map(\.title) == ["Fruit list", "Kiwi"], "\(ranked(three))")
    let four = try workspace.search("kiwi mango papaya guava")
    #expect(four.orderedByTermsMatched == nil)
    #expect(four.results.map(\.title) == ["Kiwi", "Fruit list"], "\(ranked(four))")
    #expect(HybridLexicalRanker.Parameters.v1.coverageOrderMaximumTerms == 3)
  }

  @Test("the order note: said when results matched different numbers of terms, or always with --explain; never for score order")
  func orderNote() throws {
    let said = "Order: results matching more of the query's 2 terms come first, then higher scores"
    #expect(SearchResponse.termsMatchedOrderNote(ordered: true, termsMatched: [2, 1], termCount: 2) == said)
    #expect(SearchResponse.termsMatchedOrderNote(ordered: true, termsMatched: [2, 2], termCount: 2) == nil)
    #expect(SearchResponse.termsMatchedOrderNote(ordered: true, termsMatched: [2, 2], termCount: 2, always: true) == said)
    #expect(SearchResponse.termsMatchedOrderNote(ordered: nil, termsMatched: [nil, nil], termCount: 1, always: true) == nil)
    #expect(
      SearchResponse.termsMatchedOrderNote(ordered: true, termsMatched: [3, 1], termCount: 3, records: "tasks")
        == "Order: tasks matching more of the query's 3 terms come first, then higher scores")
  }

  @Test("a one-word query is ordered by score alone, and says nothing of terms matched")
  func oneWordByScore() throws {
    let workspace = try Workspace(Self.fruit)
    let response = try workspace.search("kiwi")
    #expect(response.results.map(\.title) == ["Kiwi", "Fruit list"], "\(ranked(response))")
    #expect(response.orderedByTermsMatched == nil)
    #expect(response.results.allSatisfy { $0.termsMatched == nil })
  }

  @Test("three words: three matched, then two, then one, each tier by score")
  func tiersInOrder() throws {
    let workspace = try Workspace(
      [
        Item(title: "Backup restore drill", content: ""),
        Item(title: "Backup", content: ""),
        Item(title: "Notes", content: "a long note that mentions backup, restore and the weekly drill in passing among much else"),
        Item(title: "Backup restore", content: ""),
        Item(title: "Restore", content: "restore the backup"),
      ] + (1...3).map { Item(title: "filler \($0)", content: "other words \($0)") })
    let response = try workspace.search("backup restore drill")
    #expect(response.results.map(\.termsMatched) == [3, 3, 2, 2, 1], "\(ranked(response))")
    #expect(
      response.results.map(\.title) == ["Backup restore drill", "Notes", "Backup restore", "Restore", "Backup"],
      "\(ranked(response))")
    // Within a tier, scores fall.
    #expect(response.results[0].score > response.results[1].score)
    #expect(response.results[2].score > response.results[3].score)
  }

  @Test("the best-covered note is kept by a limit of 1 among many higher-scoring notes with fewer words")
  func limitKeepsTheBestCovered() throws {
    // Fifty titles `Kiwi` fill the top-k selection first (capture order is index order), so
    // the note naming both words must displace them through the tier, not the score.
    let workspace = try Workspace(
      (1...50).map { Item(title: "Kiwi", content: "note \($0)") }
        + [Item(title: "Basket", content: "a long list that names kiwi once and mango once among other fruit and vegetables")])
    let response = try workspace.search("kiwi mango", limit: 1)
    #expect(response.results.map(\.title) == ["Basket"], "\(ranked(response))")
    #expect(response.total == 51)
    #expect(response.truncated)
  }

  @Test("a query of four or more terms is ordered by score: a claim missing one word may rank first")
  func longQueryByScore() throws {
    let workspace = try Workspace(
      [
        Item(title: "Statin therapy lowers cardiovascular mortality", content: ""),
        Item(
          title: "Cohort notes",
          content:
            "In this cohort statin use, therapy adherence, cardiovascular events, mortality and elderly patients were recorded over many years of follow-up in several clinics across the region"),
      ] + (1...4).map { Item(title: "filler \($0)", content: "other words \($0)") })
    let response = try workspace.search("statin therapy lowers cardiovascular mortality elderly")
    #expect(response.orderedByTermsMatched == nil)
    #expect(response.results.allSatisfy { $0.termsMatched == nil })
    #expect(response.results.first?.title == "Statin therapy lowers cardiovascular mortality", "\(ranked(response))")
    let scores = response.results.map(\.score)
    #expect(scores == scores.sorted(by: >))
  }

  @Test("a typo counts as the word it stands for: Zookeper upgrade covers both words of zookeeper upgrade")
  func typoCoversItsWord() throws {
    let workspace = try Workspace(
      [
        Item(title: "Zookeper upgrade"),
        Item(title: "Cluster maintenance", content: "Restart the zookeeper nodes one at a time."),
      ] + (1...4).map { Item(title: "Misc \($0)", content: "unrelated text \($0)") })
    let response = try workspace.search("zookeeper upgrade")
    #expect(response.results.map(\.title) == ["Zookeper upgrade", "Cluster maintenance"], "\(ranked(response))")
    #expect(response.results.map(\.termsMatched) == [2, 1])
  }

  @Test("equal tiers and scores still break ties by kind, recency, title, then UUID, the same every run")
  func tiesWithinATier() throws {
    let workspace = try Workspace(
      [
        Item(title: "Both", content: "kiwi mango"),
        Item(title: "Both", content: "kiwi mango"),
        Item(title: "Kiwi only", content: "kiwi"),
      ] + (1...3).map { Item(title: "filler \($0)", content: "other words \($0)") },
      environment: PersistedSearchTests.steadyEnvironment(first: 900))
    let first = try workspace.search("kiwi mango")
    #expect(first.results.map(\.title) == ["Both", "Both", "Kiwi only"])
    // Ids count down in capture order, so the second capture has the smaller UUID.
    #expect(first.results.prefix(2).map(\.id) == workspace.ids([1, 0]))
    #expect(try workspace.search("kiwi mango") == first)
  }
}
