import Foundation
import Testing

@testable import KnowledgeEngine

private typealias F = RetrievalFixtures

/// Review 20-b, #2: camelCase identifiers were indexed whole, so no part of one could be found.
struct CamelCaseWordsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var word: String
    var parts: [String]?
    var testDescription: String { word }
  }

  static let cases: [Case] = [
    Case(word: "getUserProfile", parts: ["get", "User", "Profile"]),
    Case(word: "testUploadRetry", parts: ["test", "Upload", "Retry"]),
    Case(word: "UploadRetry", parts: ["Upload", "Retry"]),
    Case(word: "maxRetryCount", parts: ["max", "Retry", "Count"]),
    Case(word: "URLSession", parts: ["URL", "Session"]),
    Case(word: "XMLHttpRequest", parts: ["XML", "Http", "Request"]),
    Case(word: "ViewController", parts: ["View", "Controller"]),
    // Scientific names: capitals alone or in runs, or a one-letter part.
    Case(word: "mRNA", parts: nil), Case(word: "siRNA", parts: nil), Case(word: "hTERT", parts: nil),
    Case(word: "NFkB", parts: nil), Case(word: "IgG", parts: nil), Case(word: "BamHI", parts: nil),
    Case(word: "iPhone", parts: nil), Case(word: "eGFP", parts: nil),
    // Not identifiers: one word, capitals only, digits.
    Case(word: "Profile", parts: nil), Case(word: "profile", parts: nil), Case(word: "HTTP", parts: nil),
    Case(word: "covid19", parts: nil), Case(word: "getUser2Profile", parts: nil),
  ]

  @Test("camelCase and PascalCase words are split where a capitalised word starts", arguments: cases)
  func parts(_ c: Case) {
    #expect(CamelCaseWords.parts(of: c.word.utf8) == c.parts)
  }

  static let corpus = [
    F.document(1, "getUserProfile returns nil when token expired"),
    F.document(2, "max_retry_count defaults to 5"),
    F.document(3, "testUploadRetry flakes on CI", "the upload retry test"),
    F.document(4, "Retry helper snippet"),
  ]

  @Test("a part of a camelCase word finds it, alone or with the other parts")
  func partsFindTheWord() throws {
    let index = F.index(Self.corpus)
    let ranker = HybridLexicalRanker()
    #expect(try ranker.search("profile", in: index).results.map(\.id) == [F.id(1)])
    #expect(try ranker.search("get user profile", in: index).results.first?.id == F.id(1))
    let upload = try ranker.search("upload retry", in: index)
    #expect(upload.results.first?.id == F.id(3))
    #expect(upload.terms.first { $0.term == "upload" }?.match == .exact)
  }

  @Test("a camelCase query word finds the same words written snake_case, as a compound form")
  func camelCaseQueryFindsSnakeCase() throws {
    let response = try HybridLexicalRanker().search("maxRetryCount", in: F.index(Self.corpus))
    #expect(response.results.map(\.id) == [F.id(2)])
    #expect(response.terms.first?.match == .compound)
    #expect(response.terms.first?.compounds == ["max retri count"])
  }

  @Test("the parts add nothing to the field's length and share the word's position")
  func partsDoNotLengthenTheDocument() {
    let postings = LexicalIndexer.postings(for: F.document(1, "getUserProfile returns nil"))
    #expect(postings.fieldLengths.title == 3)
    let title = Dictionary(uniqueKeysWithValues: postings.terms.map { ($0.term, $0.positions.positions(in: .title, counts: $0.termFrequencies)) })
    #expect(title["getuserprofil"] == [0])
    #expect(title["get"] == [0])
    #expect(title["user"] == [0])
    #expect(title["profil"] == [0])
    #expect(title["return"] == [1])
    // Scientific names stay one term.
    let names = LexicalIndexer.postings(for: F.document(2, "mRNA and siRNA in IgG"))
    #expect(names.terms.map(\.term).sorted() == ["and", "igg", "in", "mrna", "sirna"])
  }
}
