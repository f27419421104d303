import Foundation
import KnowledgeEngine
import Testing

@Suite("SearchResponse: words cut at 64 characters")
struct SearchResponseCutWordsTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var query: String
    var cut: Bool
    var testDescription: String { name }
  }

  static func a(_ n: Int) -> String { String(repeating: "a", count: n) }

  static let cases: [Case] = [
    Case(name: "63 ASCII letters", query: a(63), cut: false),
    Case(name: "exactly 64 ASCII letters", query: a(64), cut: false),
    Case(name: "65 ASCII letters", query: a(65), cut: true),
    Case(name: "64 letters and digits, then more", query: a(60) + "12345", cut: true),
    Case(name: "exactly 64 with an accent", query: "é" + a(63), cut: false),
    Case(name: "65 with an accent", query: "é" + a(64), cut: true),
    Case(name: "ß folds to ss: 63 written, 64 folded", query: "ß" + a(62), cut: false),
    Case(name: "ß folds to ss: 64 written, 65 folded", query: "ß" + a(63), cut: true),
    Case(name: "a soft hyphen does not count", query: a(32) + "\u{AD}" + a(32), cut: false),
    Case(name: "a 64-letter word beside a longer one", query: a(64) + " " + String(repeating: "b", count: 70), cut: false),
    // The tokenizer ends a word where a script written without spaces starts: the Latin word
    // is whole, though the run of letters goes on.
    Case(name: "64 Latin letters, then a Han character", query: a(64) + "東", cut: false),
    // A Greek letter in notation is spelled out before the cut: `β` is the four letters of `beta`.
    Case(name: "62 letters and β: 66 spelled out", query: a(62) + "β", cut: true),
    Case(name: "60 letters and β: 64 spelled out", query: a(60) + "β", cut: false),
  ]

  @Test("a term is cut only when its word was longer than 64 characters", arguments: cases)
  func cut(_ c: Case) throws {
    let response = SearchResponse(
      mode: .hybridLexical, algorithmVersion: nil, query: c.query, terms: [], results: [], total: 0, truncated: false,
      emptyReason: nil)
    let first = try #require(Tokenizer.terms(c.query).first?.term)
    #expect(response.termsCutFromLongerWords.contains(first) == c.cut, "\(response.termsCutFromLongerWords)")
  }

  @Test("of two words, only the longer one's term is cut")
  func twoWords() throws {
    let query = Self.a(64) + " " + String(repeating: "b", count: 70)
    let response = SearchResponse(
      mode: .hybridLexical, algorithmVersion: nil, query: query, terms: [], results: [], total: 0, truncated: false,
      emptyReason: nil)
    #expect(response.termsCutFromLongerWords == [String(repeating: "b", count: 64)])
  }
}
