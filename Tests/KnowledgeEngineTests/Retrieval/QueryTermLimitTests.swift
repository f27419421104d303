import Foundation
import Testing

@testable import KnowledgeEngine

/// Regression (review, s13): a query with more than 64 distinct words searched the first 64 and
/// dropped the rest without a word: `w0 … w63 postgres` found nothing in a workspace about
/// postgres and said "no query word (or a close spelling of one) occurs", which is untrue of
/// the query typed. The words past the limit are now reported (``SearchResponse/wordsPastTermLimit``)
/// and named in the empty explanation.
struct QueryTermLimitTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  static func filler(_ count: Int) -> String { (0..<count).map { "w\($0)" }.joined(separator: " ") }

  @Test("the 65th distinct word is reported as not searched, and the empty explanation says so")
  func sixtyFifthWord() throws {
    let workspace = try Workspace([Item(title: "Database choice", content: "We use postgres for the ledger")])
    let response = try workspace.search(Self.filler(64) + " postgres")
    #expect(response.results.isEmpty && response.terms.count == 64)
    #expect(response.wordsPastTermLimit == ["postgres"])
    #expect(
      response.emptyExplanation
        == "none of 'w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7' and 56 more (or a close spelling of one) occurs "
        + "in any knowledge item; only the first 64 distinct words were searched, not 'postgres'")
    #expect(response.unmatchedWords?.count == 64)
    // One word fewer and it is searched, and nothing is reported.
    let fits = try workspace.search(Self.filler(63) + " postgres")
    #expect(fits.results.map(\.id) == workspace.ids([0]) && fits.wordsPastTermLimit == nil)
  }

  @Test("words past the limit are named once each, as typed, at most eight, then how many more")
  func namedOnceAsTyped() throws {
    let workspace = try Workspace([Item(title: "Database choice", content: "We use postgres")])
    let tail = "Postgres w3 POSTGRES " + (1...10).map { "extra\($0)" }.joined(separator: " ")
    let response = try workspace.search(Self.filler(64) + " " + tail)
    #expect(response.wordsPastTermLimit == ["Postgres"] + (1...10).map { "extra\($0)" })
    #expect(
      SearchResponse.wordsPastTermLimitNote(response.wordsPastTermLimit)
        == "only the first 64 distinct words were searched, not 'Postgres', 'extra1', 'extra2', 'extra3', "
        + "'extra4', 'extra5', 'extra6', 'extra7' and 3 more")
    #expect(SearchResponse.wordsPastTermLimitNote(nil) == nil)
    #expect(SearchResponse.wordsPastTermLimitNote([]) == nil)
  }

  @Test("a search that finds something still reports the words it did not search")
  func reportedWithResults() throws {
    let workspace = try Workspace([Item(title: "Database choice", content: "We use postgres")])
    let response = try workspace.search("database " + Self.filler(63) + " postgres")
    #expect(response.results.map(\.id) == workspace.ids([0]))
    #expect(response.wordsPastTermLimit == ["postgres"])
    #expect(response.emptyExplanation == nil)
  }

  @Test("task search reports them too")
  func taskSearch() throws {
    let workspace = try Workspace([])
    _ = try workspace.engine.addTask(title: "Upgrade postgres")
    let response = try workspace.engine.searchTasks(Self.filler(64) + " postgres")
    #expect(response.results.isEmpty && response.wordsPastTermLimit == ["postgres"])
    #expect(response.emptyExplanation?.hasSuffix("only the first 64 distinct words were searched, not 'postgres'") == true)
  }
}

/// Review 30-a, 8: a 500-character word, and one letter with 4,999 combining marks, were echoed
/// whole in `No results:` and `unmatchedWords`, though a term compares at most 64 characters and
/// capture refuses a character of more than 10 scalars.
struct ShownTypedWordTests {
  @Test("an unmatched word is shown at most 64 characters long, each of at most 10 scalars, the cut marked")
  func longWordsShownBounded() throws {
    let workspace = try PersistedSearchTests.Workspace([PersistedSearchTests.Item(title: "Database choice", content: "postgres")])
    let long = "wal" + String(repeating: "x", count: 497)
    let response = try workspace.search(long)
    let shown = try #require(response.unmatchedWords?.first)
    #expect(shown == String(long.prefix(64)) + "…")
    let explanation = try #require(response.emptyExplanation)
    #expect(!explanation.contains(String(long.prefix(65))))

    let marks = "e" + String(repeating: "\u{301}", count: 4999)
    let marked = try workspace.search(marks)
    let word = try #require(marked.unmatchedWords?.first)
    #expect(word.unicodeScalars.count == 11)  // e, nine marks, the ellipsis
    #expect(word.hasSuffix("…"))
    let markedExplanation = try #require(marked.emptyExplanation)
    #expect(markedExplanation.unicodeScalars.count < 400, "\(markedExplanation.unicodeScalars.count)")
    // A word within both bounds is shown as typed.
    #expect(try workspace.search("Zürich").unmatchedWords == ["Zürich"])
  }
}
