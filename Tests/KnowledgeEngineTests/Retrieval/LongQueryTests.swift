import ContinuityKit
import Foundation
import Testing

@testable import KnowledgeEngine

private typealias F = RetrievalFixtures

/// Review 20-b, #8: a pasted stack trace over 500 characters was refused (exit 4).
struct LongQueryTests {
  /// The review's input: a Swift runtime error and eight frames, 792 characters.
  static let stackTrace =
    "Thread 1: Fatal error: Unexpectedly found nil while unwrapping an Optional value "
    + (0..<8).map { i in
      "frame #\(i): 0x0000000100\(String(format: "%04x", i)) MyApp`ViewController.viewDidLoad() at ViewController.swift:42"
    }.joined(separator: " ")

  @Test("a query over 500 characters is searched by its first 500, cut between words, and says so")
  func longQueryIsCut() throws {
    #expect(Self.stackTrace.count == 792)
    let index = F.index([
      F.document(1, "Fatal error unwrapping Optional in ViewController", "viewDidLoad crashed on nil"),
      F.document(2, "Release notes"),
    ])
    let response = try HybridLexicalRanker().search(Self.stackTrace, in: index)
    #expect(response.results.first?.id == F.id(1))
    let cutAt = try #require(response.queryCutAt)
    #expect(cutAt <= Limits.query)
    #expect(response.queryCharacters == 792)
    #expect(response.query.count == cutAt)
    #expect(Self.stackTrace.hasPrefix(response.query))
    // Cut at white space: the next character of the query as given is a space.
    let next = Self.stackTrace[Self.stackTrace.index(Self.stackTrace.startIndex, offsetBy: cutAt)]
    #expect(next == " ")
    let note = try #require(
      SearchResponse.queryCutNote(response.query, cutAt: response.queryCutAt, of: response.queryCharacters))
    #expect(note.hasPrefix("only the first \(cutAt) of the query's 792 characters were searched (a query is searched by its first 500, cut between words), up to '…"))
    #expect(
      SearchResponse.notes(
        wordsPastTermLimit: nil, unsearchedSymbols: nil,
        queryCut: (response.query, response.queryCutAt, response.queryCharacters)) == [note])
  }

  @Test("a query of 500 characters or fewer is searched whole and says nothing")
  func shortQueryIsWhole() throws {
    let query = String(repeating: "word ", count: 100).trimmingCharacters(in: .whitespaces)
    #expect(query.count == 499)
    let response = try HybridLexicalRanker().search(query, in: F.index([F.document(1, "word")]))
    #expect(response.queryCutAt == nil && response.queryCharacters == nil)
    #expect(HybridLexicalRanker.searchedPart(of: query) == query)
  }

  @Test("one word of more than 500 characters is cut at the 500th")
  func longWordIsCutAtTheBound() {
    let word = String(repeating: "a", count: 600)
    #expect(HybridLexicalRanker.searchedPart(of: word).count == 500)
    // A word that ends exactly at the bound is kept whole.
    let exact = String(repeating: "b", count: 499) + " " + String(repeating: "c", count: 100)
    #expect(HybridLexicalRanker.searchedPart(of: exact) == String(repeating: "b", count: 499))
  }

  @Test("knowledge and task search of the engine report the cut")
  func engineReportsTheCut() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "ViewController crashes on nil"))
    let response = try engine.search(Self.stackTrace)
    #expect(response.results.count == 1)
    #expect(response.queryCharacters == 792)
    let tasks = try engine.searchTasks(Self.stackTrace)
    #expect(tasks.queryCharacters == 792)
    #expect(tasks.emptyExplanation?.contains("of the query's 792 characters were searched") == true)
  }
}
