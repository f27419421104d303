import ContinuityKit
import Foundation
import Testing
import TestSupport

@_spi(Benchmarking) @testable import KnowledgeEngine

/// Regression (review, s21): `stgaing` and `stagign`, each one adjacent swap from *staging*, found
/// nothing, since typos were compared with stems and the stemmer moves a typo further away
/// (`stgaing` stems to `stga`, *staging* to `stage`: two edits). The words one edit away from the
/// word as typed (Norvig's `edits1`: Damerau–Levenshtein distance 1) are now stemmed like indexed
/// words and looked up in one batch.
struct TypedWordEditTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  static let corpus = [
    Item(title: "Staging server setup", content: "the staging box"),
    Item(title: "Production deploy", content: "blue-green, after the smoke tests"),
    Item(title: "Lunch", content: "soup"),
    Item(title: "Mouse traps", content: "in the barn"),
  ]

  struct Typo: CustomTestStringConvertible, Sendable {
    var query: String
    var expected: Int
    var stem: String
    var testDescription: String { query }
  }

  @Test(
    "a typo one edit from a word the stemmer reduces finds it, as a fuzzy match",
    arguments: [
      // The review's: an adjacent swap in a seven-letter word.
      Typo(query: "stgaing", expected: 0, stem: "stage"), Typo(query: "stagign", expected: 0, stem: "stage"),
      Typo(query: "Stgaing", expected: 0, stem: "stage"),
      // A letter left out, one added, one replaced.
      Typo(query: "stagng", expected: 0, stem: "stage"), Typo(query: "staaging", expected: 0, stem: "stage"),
      Typo(query: "stsging", expected: 0, stem: "stage"),
      // Round 14's miss: `prodction` stems to itself, *production* to `product`.
      Typo(query: "prodction", expected: 1, stem: "product"),
      // `mouze` stems to `mouz`, *mouse* to `mous`: one edit as typed, too short as stems.
      Typo(query: "mouze", expected: 3, stem: "mous"),
    ])
  func typoOfAStemmedWord(_ c: Typo) throws {
    let workspace = try Workspace(Self.corpus)
    let response = try workspace.search(c.query)
    #expect(response.results.map(\.id) == workspace.ids([c.expected]), "\(c.query)")
    let term = try #require(response.terms.first)
    #expect(term.match == .fuzzy)
    #expect(term.variants.contains(c.stem))
    let result = try #require(response.results.first)
    #expect(result.scoreParts.fuzzy > 0)
    #expect(result.scoreParts.title == 0 && result.scoreParts.content == 0)
    #expect(response.emptyReason == nil)
  }

  @Test("a typo scores below the word spelled right on the same note")
  func belowTheWordSpelledRight() throws {
    let workspace = try Workspace(Self.corpus)
    let typo = try #require(try workspace.search("stgaing").results.first)
    let right = try #require(try workspace.search("staging").results.first)
    #expect(typo.id == right.id)
    #expect(typo.score < right.score / 2)
  }

  @Test("the issue's negative cases still find nothing, and a near word still counts")
  func mustNotMatch() throws {
    let workspace = try Workspace([
      Item(title: "Dobromat plugin", content: "x"), Item(title: "Gallery layout", content: "y"),
      Item(title: "Session handoff notes", content: "what to pick up next"),
    ])
    #expect(try workspace.search("Adobe").results.isEmpty)
    #expect(try workspace.search("Ballet").results.isEmpty)
    #expect(try workspace.search("handof").results.map(\.id) == workspace.ids([2]))
  }

  @Test("two edits away is no typo: stgagni finds nothing")
  func twoEditsAway() throws {
    let workspace = try Workspace(Self.corpus)
    #expect(try workspace.search("stgagni").results.isEmpty)
  }

  @Test("switched off with the other one-edit rules")
  func switchedOff() throws {
    let workspace = try Workspace(Self.corpus)
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.matchesOneEditTypos = false
    #expect(try workspace.engine.rankedIDs("stgaing", depth: 10, parameters: parameters).isEmpty)
  }

  @Test("every word one edit away, each once, and only those")
  func oneEditWords() {
    let word = Array("stgaing".utf8)
    let edits = Trigrams.oneEditWords(of: word)
    #expect(edits.contains(Array("staging".utf8)))
    #expect(edits.contains(Array("stging".utf8)))
    #expect(edits.contains(Array("sxgaing".utf8)))
    #expect(edits.contains(Array("stgaings".utf8)))
    #expect(!edits.contains(word))
    #expect(Set(edits).count == edits.count)
    #expect(edits.count <= 54 * word.count + 25)
    #expect(edits.allSatisfy { Trigrams.areOneEditApart($0.map { Character(UnicodeScalar($0)) }, Array("stgaing")) })
    // Every word one edit away is there: all words of three to five letters over the letters
    // of `stag` and one more, checked against the definition.
    let short = Array("stag".utf8)
    let letters = Array("stagx".utf8)
    var expected = Set<[UInt8]>()
    func enumerate(_ length: Int, _ prefix: [UInt8]) {
      guard prefix.count < length else {
        if Trigrams.areOneEditApart(prefix.map { Character(UnicodeScalar($0)) }, Array("stag")) {
          expected.insert(prefix)
        }
        return
      }
      for letter in letters { enumerate(length, prefix + [letter]) }
    }
    for length in 3...5 { enumerate(length, []) }
    let restricted = Set(Trigrams.oneEditWords(of: short).filter { $0.allSatisfy(letters.contains) })
    #expect(restricted == expected)
    #expect(expected.count > 30)
    // Runs of equal letters give each word once, with no set to look it up in.
    for word in ["aabbcc", "llama", "zzz", "a", "stgaing"] {
      let edits = Trigrams.oneEditWords(of: Array(word.utf8))
      #expect(Set(edits).count == edits.count, "\(word)")
      #expect(!edits.contains(Array(word.utf8)), "\(word)")
      #expect(edits.allSatisfy { Trigrams.areOneEditApart($0.map { Character(UnicodeScalar($0)) }, Array(word)) }, "\(word)")
    }
    // Every word one edit from `llama` over its letters and one more, by the definition.
    var llama = Set<[UInt8]>()
    let alphabet = Array("lamx".utf8)
    func enumerateLlama(_ length: Int, _ prefix: [UInt8]) {
      guard prefix.count < length else {
        if Trigrams.areOneEditApart(prefix.map { Character(UnicodeScalar($0)) }, Array("llama")) { llama.insert(prefix) }
        return
      }
      for letter in alphabet { enumerateLlama(length, prefix + [letter]) }
    }
    for length in 4...6 { enumerateLlama(length, []) }
    #expect(Set(Trigrams.oneEditWords(of: Array("llama".utf8)).filter { $0.allSatisfy(alphabet.contains) }) == llama)
  }

  @Test("a word too long for the edit look-up is left to the trigram rule")
  func longWordsBounded() throws {
    let workspace = try Workspace(Self.corpus)
    let long = String(repeating: "stgaing", count: 4)
    #expect(long.count > HybridLexicalRanker.maximumEditedWordLength)
    #expect(try workspace.search(long).results.isEmpty)
  }
}

/// The batched document-frequency look-up the typo path uses: the persisted index answers as
/// one look-up per term would, whatever characters the terms hold.
struct DocumentFrequenciesTests {
  @Test("the SQLite reader's batch equals one look-up per term, for terms present, absent and odd")
  func batchEqualsOneByOne() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    _ = try engine.captureBulk([
      CaptureRequest(kind: .fact, title: "Staging server setup", content: "the staging box, v2.3.9"),
      CaptureRequest(kind: .fact, title: "Staging again", content: "東京 and Müller"),
    ])
    let terms = ["stage", "server", "box", "v2.3.9", "東京", "muller", "absent", "a\"b", "c\\d", "tab\there", "", "stage"]
    try store.read { tx in
      let index = SQLiteLexicalIndex(tx: tx)
      let batch = try index.documentFrequencies(of: terms)
      var oneByOne: [String: Int] = [:]
      for term in terms where try index.documentFrequency(of: term) > 0 {
        oneByOne[term] = try index.documentFrequency(of: term)
      }
      #expect(batch == oneByOne)
      #expect(batch["stage"] == 2 && batch["v2.3.9"] == 1 && batch["東京"] == 1)
      #expect(try index.documentFrequencies(of: []).isEmpty)
    }
    let json = SQLiteLexicalIndex.jsonArray(of: ["a\"b", "c\\d", "tab\there", "\u{1}", "é"])
    let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
    #expect(decoded == ["a\"b", "c\\d", "tab\there", "\u{1}", "é"])
  }
}
