import Foundation
import Testing

@testable import KnowledgeEngine

/// A number typed with a decimal point or digit-group separator is one query term (UAX #29,
/// WB11/WB12), found where its parts stand next to each other: `0.7` searched every note holding
/// a `0` and a `7` anywhere, and SciFact's claim *Glucose restriction to 0.05% …* ranked
/// abstracts with a `0` and a `05` (p-values, dates) beside the one about 0.05% glucose.
struct WholeNumberQueryTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  struct Case: CustomTestStringConvertible, Sendable {
    var query: String
    var terms: [String]
    var numberParts: [[String]]
    var testDescription: String { query }
  }

  static let cases: [Case] = [
    Case(query: "rate 0.7", terms: ["rate", "0.7"], numberParts: [[], ["0", "7"]]),
    Case(query: "3.14", terms: ["3.14"], numberParts: [["3", "14"]]),
    Case(query: "250,000 people", terms: ["250,000", "peopl"], numberParts: [["250", "000"], []]),
    Case(query: "Kir7.1 channel", terms: ["kir7.1", "channel"], numberParts: [["kir7", "1"], []]),
    Case(query: "10.0.0.1", terms: ["10.0.0.1"], numberParts: [["10", "0", "0", "1"]]),
    // No digit on one side, or white space after the separator: words apart, as before.
    Case(query: "Fig.1", terms: ["fig", "1"], numberParts: [[], []]),
    Case(query: "1, 2", terms: ["1", "2"], numberParts: [[], []]),
    Case(query: "v1.x", terms: ["v1", "x"], numberParts: [[], []]),
    Case(query: "2.", terms: ["2"], numberParts: [[]]),
  ]

  @Test("which query words make one number", arguments: cases)
  func analysis(_ example: Case) {
    let analysis = HybridLexicalRanker().analyze(example.query)
    #expect(analysis.terms == example.terms)
    #expect(analysis.numberParts == example.numberParts)
  }

  static let notes = [
    Item(title: "Learning rate schedule", content: "Set the learning rate to 0.7 after the warm-up."),
    Item(title: "Run 7 retries", content: "Run 7 used 0 retries and a higher learning rate."),
    Item(title: "Release 2.1.8", content: "Shipped on Friday."),
  ]

  @Test("`0.7` finds the note that says 0.7, not one with a 7 and a 0 apart")
  func decimalFindsOnlyTheNumber() throws {
    let workspace = try Workspace(Self.notes)
    let response = try workspace.search("0.7")
    #expect(response.results.map(\.id) == workspace.ids([0]))
    #expect(response.terms.map(\.term) == ["0.7"])
    #expect(response.terms.first?.match == .exact)
    #expect(response.results.first?.matchedTerms == ["0.7"])
    #expect(response.results.first?.snippet.contains("0.7") == true)
    // Beside other words it is one term among them; the number still decides the order.
    let rate = try workspace.search("learning rate 0.7")
    #expect(rate.results.map(\.id).first == workspace.ids([0]).first)
    #expect(rate.results.count == 2)
    // A version number is one term too.
    #expect(try workspace.search("2.1.8").results.map(\.id) == workspace.ids([2]))
  }

  @Test("off, the parts are searched apart as before")
  func switchedOff() throws {
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.searchesWholeNumbers = false
    let analysis = HybridLexicalRanker(parameters: parameters).analyze("rate 0.7")
    #expect(analysis.terms == ["rate", "0", "7"])
  }
}
