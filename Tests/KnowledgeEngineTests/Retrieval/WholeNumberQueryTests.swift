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
    var versionForms: [[String]]? = nil
    var typedWords: [[String]]? = nil
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
    // Whatever its width (NFKC): the same term as the ASCII number, the typed word as typed.
    Case(
      query: "０．７", terms: ["0.7"], numberParts: [["0", "7"]], typedWords: [["０．７"]]),
    Case(
      query: "２５０，０００ people", terms: ["250,000", "peopl"], numberParts: [["250", "000"], []],
      versionForms: [[], []], typedWords: [["２５０，０００"], ["people"]]),
    Case(query: "0．7 ０.７", terms: ["0.7"], numberParts: [["0", "7"]], typedWords: [["0．7"]]),
    Case(query: "𝟎﹒𝟕 1﹐5", terms: ["0.7", "1,5"], numberParts: [["0", "7"], ["1", "5"]]),
    Case(query: "ｋｉｒ７．１", terms: ["kir7.1"], numberParts: [["kir7", "1"]], versionForms: [[]]),
    // A full-width full stop or comma that is no decimal point stays a separator.
    Case(query: "ｍｏｄｅｌ．７", terms: ["model", "7"], numberParts: [[], []]),
    Case(query: "７．　７", terms: ["7"], numberParts: [[]]),
    // A version number is also searched with its `v` added or dropped; only with full stops.
    Case(query: "2.1.8", terms: ["2.1.8"], numberParts: [["2", "1", "8"]], versionForms: [["v2", "1", "8"]]),
    Case(query: "V2.1.8", terms: ["v2.1.8"], numberParts: [["v2", "1", "8"]], versionForms: [["2", "1", "8"]]),
    Case(query: "２．１．８", terms: ["2.1.8"], numberParts: [["2", "1", "8"]], versionForms: [["v2", "1", "8"]]),
    Case(query: "1,000.5", terms: ["1,000.5"], numberParts: [["1", "000", "5"]], versionForms: [[]]),
    Case(query: "vv2.1", terms: ["vv2.1"], numberParts: [["vv2", "1"]], versionForms: [[]]),
  ]

  @Test("which query words make one number", arguments: cases)
  func analysis(_ example: Case) {
    let analysis = HybridLexicalRanker().analyze(example.query)
    #expect(analysis.terms == example.terms)
    #expect(analysis.numberParts == example.numberParts)
    if let versionForms = example.versionForms { #expect(analysis.versionForms == versionForms) }
    if let typedWords = example.typedWords { #expect(analysis.typedWords == typedWords) }
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

  static let wideNotes = [
    Item(title: "Dropout ０．７", content: "Full-width figures, as typed on a Japanese keyboard."),
    Item(title: "Counts", content: "We had 0 errors and 7 warnings."),
    Item(title: "Population ２５０，０００", content: "The town's census."),
    Item(title: "Dropout 0.7", content: "ASCII figures."),
    Item(title: "Budget 250,000", content: "ASCII figures."),
  ]

  @Test("a number is one term whatever its width: ０．７ finds 0.7 and ０．７, never 0 and 7 apart")
  func fullWidthNumbersAreOneTerm() throws {
    let workspace = try Workspace(Self.wideNotes)
    for query in ["０．７", "0.7", "0．7"] {
      let response = try workspace.search(query)
      #expect(response.terms.map(\.term) == ["0.7"], "\(query)")
      #expect(response.terms.first?.match == .exact, "\(query)")
      #expect(Set(response.results.map(\.id)) == Set(workspace.ids([0, 3])), "\(query)")
    }
    for query in ["２５０，０００", "250,000"] {
      let response = try workspace.search(query)
      #expect(response.terms.map(\.term) == ["250,000"], "\(query)")
      #expect(Set(response.results.map(\.id)) == Set(workspace.ids([2, 4])), "\(query)")
    }
    // The typed word is shown as typed.
    let wide = try workspace.search("０．７")
    #expect(wide.terms.first?.typedWords == ["０．７"])
  }

  @Test("a version number is found with or without its v: 2.1.8 finds v2.1.8 below 2.1.8")
  func versionNumbersWithOrWithoutV() throws {
    let workspace = try Workspace([
      Item(title: "Shipped v2.1.8", content: "Tagged on Friday."),
      Item(title: "Release 2.1.8", content: "Shipped on Friday."),
      Item(title: "Kir7.1 channel", content: "Inward rectifier."),
      Item(title: "Release v2.1.9", content: "Tagged on Monday."),
    ])
    // Only the note with the `v` holds it: found as the version's other form.
    let withV = try Workspace([
      Item(title: "Shipped v2.1.8", content: "Tagged on Friday."),
      Item(title: "Kir7.1 channel", content: "Inward rectifier."),
    ])
    let only = try withV.search("2.1.8")
    #expect(only.results.map(\.id) == withV.ids([0]))
    #expect(only.terms.first?.match == .compound)
    #expect(only.terms.first?.compounds == ["v2.1.8"])
    // Both: the number as typed ranks first, at full weight; v2.1.9 is another version.
    let both = try workspace.search("2.1.8")
    #expect(both.results.map(\.id) == workspace.ids([1, 0]))
    #expect(both.terms.first?.match == .exact)
    let typedV = try workspace.search("v2.1.8")
    #expect(typedV.results.map(\.id) == workspace.ids([0, 1]))
    // `v2.1` finds both v2.1 notes, then 2.1.8 without its `v`.
    let prefix = try workspace.search("v2.1").results.map(\.id)
    #expect(Set(prefix.prefix(2)) == Set(workspace.ids([0, 3])) && prefix.last == workspace.ids([1])[0])
    #expect(prefix.count == 3)
    // Only a `v` is dropped or added: 7.1 is not Kir7.1.
    #expect(try workspace.search("7.1").results.isEmpty)
  }

  @Test("off, the parts are searched apart as before")
  func switchedOff() throws {
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.searchesWholeNumbers = false
    let analysis = HybridLexicalRanker(parameters: parameters).analyze("rate 0.7")
    #expect(analysis.terms == ["rate", "0", "7"])
  }
}
