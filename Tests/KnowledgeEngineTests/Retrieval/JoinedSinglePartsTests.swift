import Foundation
import Testing

@_spi(Benchmarking) @testable import KnowledgeEngine

/// Review 30a, 6: a one-character part of a joined query word matched unrelated notes on its
/// own (`PD-1` listed *Kir7.1 channel* through its `1`, `e-mail` *e.g. examples* through its
/// `e`). Such a part now counts only beside the query's other words.
struct JoinedSinglePartsTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  static let corpus: [Item] =
    [
      Item(title: "PD-1 blockade results", content: "Anti PD-1 therapy in melanoma."),
      Item(title: "Kir7.1 channel", content: "Inward rectifier 1 of the retina."),
      Item(title: "E-mail templates", content: "Reply within a day."),
      Item(title: "e.g. examples", content: "Use e.g. in lists."),
      Item(title: "PD notes", content: "Parkinson's disease cohort."),
    ] + (1...3).map { Item(title: "filler \($0)", content: "other words \($0)") }

  func titles(_ response: SearchResponse) -> [String] { response.results.map(\.title) }

  @Test("PD-1 and e-mail no longer list notes matched only through their one-character part")
  func noMatchThroughTheSinglePart() throws {
    let workspace = try Workspace(Self.corpus)
    let pd1 = try workspace.search("PD-1")
    #expect(!titles(pd1).contains("Kir7.1 channel"), "\(titles(pd1))")
    #expect(titles(pd1).first == "PD-1 blockade results", "\(titles(pd1))")
    // The other part still matches on its own, below the note holding both.
    #expect(titles(pd1).contains("PD notes"), "\(titles(pd1))")
    let mail = try workspace.search("e-mail")
    #expect(titles(mail) == ["E-mail templates"], "\(titles(mail))")
  }

  @Test("off, the single part matches alone as before: the test can tell")
  func matchesWhenOff() throws {
    let workspace = try Workspace(Self.corpus)
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.joinedSinglePartsDependent = false
    let off = try workspace.engine.rankedIDs("PD-1", depth: 10, parameters: parameters)
    #expect(off.contains(workspace.items[1].id))
    #expect(!(try workspace.engine.rankedIDs("PD-1", depth: 10, parameters: .v1)).contains(workspace.items[1].id))
  }

  @Test("a one-character word typed on its own, or a query of only joined single characters, still matches alone")
  func freeSinglesStillMatch() throws {
    let workspace = try Workspace(Self.corpus)
    // `1` typed apart from `PD` is a word of its own.
    #expect(titles(try workspace.search("PD 1")).contains("Kir7.1 channel"))
    // Nothing else to match beside: `e-g` keeps its parts.
    #expect(titles(try workspace.search("e-g")).contains("e.g. examples"))
  }
}
