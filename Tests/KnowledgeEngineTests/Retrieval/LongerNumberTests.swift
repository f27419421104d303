import ContinuityKit
import Foundation
import Testing

@testable import KnowledgeEngine

/// Regression (review, s21): a number typed whole was found where its parts stood next to each
/// other, so `v2.3` matched *Release v2.3.9 notes* and `--explain` called it `term v2.3: exact`,
/// `matched stems: v2.3` — untrue: v2.3.9 is another version. The index now holds each number
/// whole (tokenizer version 9, ``WholeNumbers``): the number typed matches exactly only where a
/// note holds it as typed, and a longer number starting with it and a separator is a prefix
/// match, at reduced weight, named as such.
struct LongerNumberTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  @Test("v2.3 finds Release v2.3.9 notes as a prefix match of a longer number, not as v2.3")
  func onlyTheLongerVersion() throws {
    let workspace = try Workspace([
      Item(title: "Release v2.3.9 notes"), Item(title: "Release v2.4 notes", content: "3 fixes"),
    ])
    let response = try workspace.search("v2.3")
    #expect(response.results.map(\.id) == workspace.ids([0]))
    let term = try #require(response.terms.first)
    #expect(term.term == "v2.3")
    #expect(term.match == .prefix)
    #expect(term.variants == ["v2.3.9"])
    #expect(term.longerNumbers == ["v2.3.9"])
    let result = try #require(response.results.first)
    #expect(result.matchedTerms == ["v2.3.9"])
    // Reduced weight, counted as a fuzzy-class match, not in the title's exact part.
    #expect(result.scoreParts.fuzzy > 0)
    #expect(result.scoreParts.title == 0 && result.scoreParts.content == 0)
  }

  struct Pair: CustomTestStringConvertible, Sendable {
    var query: String
    var exact: String
    var longer: String
    var testDescription: String { "\(query): \(exact) above \(longer)" }
  }

  @Test(
    "the number typed ranks above a longer number that starts with it, whatever the titles' lengths",
    arguments: [
      Pair(query: "v2.3", exact: "v2.3", longer: "v2.3.9"),
      Pair(query: "1.2", exact: "1.2", longer: "1.2.3"),
      Pair(query: "V2.3", exact: "v2.3", longer: "v2.3.9"),
      Pair(query: "1,000", exact: "1,000", longer: "1,000,000"),
      Pair(query: "10.0.0", exact: "10.0.0", longer: "10.0.0.1"),
    ])
  func exactAboveLonger(_ c: Pair) throws {
    // The longer number sits in a short title and was captured last (newer), both of which
    // would rank it first on a tie.
    let workspace = try Workspace([
      Item(title: "Notes on what changed in \(c.exact) of the desktop app", content: "See the tracker."),
      Item(title: "\(c.longer)", content: "Tagged."),
    ])
    let response = try workspace.search(c.query)
    #expect(response.results.map(\.id) == workspace.ids([0, 1]), "\(c.query)")
    let term = try #require(response.terms.first)
    #expect(term.match == .exact)
    #expect(term.variants == [c.exact, c.longer])
    #expect(term.longerNumbers == [c.longer])
    #expect(response.results.map(\.matchedTerms) == [[c.exact], [c.longer]])
    #expect(response.results[0].scoreParts.fuzzy == 0 && response.results[0].scoreParts.title > 0)
    #expect(response.results[1].scoreParts.title == 0 && response.results[1].scoreParts.fuzzy > 0)
  }

  @Test("a longer number never scores above the number typed, however much rarer it is")
  func longerBoundedByTyped() throws {
    // v2.3 in four notes, v2.3.9 in one: the longer number's IDF is far higher.
    let workspace = try Workspace(
      (0..<4).map { Item(title: "Build \($0)", content: "Shipped v2.3 to the \($0) ring.") }
        + [Item(title: "Hotfix", content: "Shipped v2.3.9 to the last ring.")])
    let response = try workspace.search("v2.3")
    #expect(response.results.count == 5)
    #expect(response.results.last?.id == workspace.ids([4])[0])
  }

  @Test("a number is never matched inside a longer one that only ends with it or holds it")
  func notASuffix() throws {
    let workspace = try Workspace([
      Item(title: "Release 1.2.3", content: "Tagged."), Item(title: "Kir7.1 channel", content: "rectifier"),
    ])
    #expect(try workspace.search("2.3").results.isEmpty)
    #expect(try workspace.search("7.1").results.isEmpty)
    // The number typed whole finds its own note.
    #expect(try workspace.search("1.2.3").results.map(\.id) == workspace.ids([0]))
  }

  @Test("a longer version written without its v is below one with it, both below the version typed")
  func versionFormsOfLongerNumbers() throws {
    let workspace = try Workspace([
      Item(title: "Release 2.1.8", content: "Shipped on Friday."),
      Item(title: "Shipped v2.1.8", content: "Tagged on Friday."),
      Item(title: "Plan for v2.1", content: "Scope of the release."),
    ])
    let response = try workspace.search("v2.1")
    #expect(response.results.map(\.id) == workspace.ids([2, 1, 0]))
    #expect(response.terms.first?.match == .exact)
    #expect(response.terms.first?.longerNumbers == ["v2.1.8", "2.1.8"])
  }

  @Test("dotted names of words are their words: health.base config ranks the note that says so first")
  func dottedWords() throws {
    let workspace = try Workspace([
      Item(title: "health.base.config loader"), Item(title: "health.base config"),
    ])
    let response = try workspace.search("health.base config")
    #expect(response.results.first?.id == workspace.ids([1])[0])
    #expect(response.terms.map(\.match) == [.exact, .exact, .exact])
    let dotted = try workspace.search("health.base")
    #expect(dotted.results.first?.id == workspace.ids([1])[0])
  }

  @Test("a number found only through a longer one is a prefix match beside the other words, not an unmatched word")
  func prefixBesideOtherWords() throws {
    let workspace = try Workspace([Item(title: "Release v2.3.9 notes")])
    let response = try workspace.search("v2.3 notes")
    #expect(response.terms.map(\.match) == [.prefix, .exact])
    #expect(response.terms.map(\.longerNumbers) == [["v2.3.9"], []])
    #expect(response.unmatchedWords == nil)
  }
}
