import ContinuityKit
import Testing

@testable import SynthCorpus

/// The port against fingerprints printed by `python3 shared/bench/synth.py` (Python 3.11.7).
///
/// The 100,000-item fingerprint, `5dcfe4f7…06dfa36`, is checked by
/// `swift run -c release --package-path Benchmarks dolphin-bench synth`; here it would make a
/// debug test run slow.
@Suite(.enabled(if: TestData.hasSciFact, Comment(rawValue: TestData.sciFactMissing)))
struct SciFactReferenceTests {
  /// A corpus size and its reference fingerprint.
  struct Reference: CustomTestStringConvertible, Sendable {
    var count: Int
    var sha256: String
    var testDescription: String { "N=\(count)" }
  }

  static let references = [
    Reference(
      count: 1_000, sha256: "f59e3542def79ebf0bdd29c364d47c7f04b3a275a392f28f2a99ab2a1f76dbfe"),
    Reference(
      count: 10_000, sha256: "099c3be0ddcf1baa8523d77d352a76485afba9e7b7bd7cd8b6db00ff8ec985c2"),
  ]

  @Test func vocabulary() throws {
    let source = try #require(TestData.scifact)
    #expect(source.docs.count == 5_183)
    #expect(source.vocab.count == 256)
    #expect(
      Array(source.vocab.prefix(12)) == [
        "cells", "cell", "human", "cancer", "stem", "protein", "patients", "disease", "analysis",
        "gene", "study", "expression",
      ])
    #expect(Array(source.vocab.suffix(3)) == ["evaluation", "global", "glucose"])
  }

  @Test(arguments: references)
  func fingerprintMatchesPython(_ reference: Reference) throws {
    let source = try #require(TestData.scifact)
    let items = synthItems(source, count: reference.count)
    #expect(fingerprint(items[...]) == reference.sha256)
  }

  @Test func firstItems() throws {
    let source = try #require(TestData.scifact)
    let items = synthItems(source, count: 3)
    #expect(items.map(\.content.unicodeScalarCount) == [1203, 288, 1885])
    #expect(
      items.map(\.tags) == [
        ["formation"],
        ["human", "cellular", "embryonic", "disease", "genes"],
        ["study", "viral", "factors", "independent", "population", "self", "cardiac"],
      ])
  }

  @Test func shortQueriesMatchPython() throws {
    let source = try #require(TestData.scifact)
    let queries = shortQueries(source)
    #expect(queries.count == 200)
    #expect(
      Array(queries.prefix(8)) == [
        "crmp pain", "attachment calicivirus", "economics ecology", "differentiation cells",
        "diagnosed prognosis", "older adults", "poisoning role", "english clustering",
      ])
    #expect(
      Array(queries.suffix(3)) == ["patterning limb", "imbalance against", "shock chaperones"])
    // sha256 of the 200 queries joined by "\n", from Python.
    #expect(
      SHA256.hash(queries.joined(separator: "\n")).hexString
        == "cffd4476a712373de66a5071fcef183016cb3f8cb27370f352b4236968972f4b")
  }
}

/// The port against `synth.py` on `Fixtures/unicode-corpus.jsonl`: KELVIN SIGN, dotted
/// capital I, decomposed accents, astral scalars, no-break spaces, a title longer than 200
/// scalars, an empty text and a title without tokens, none of which SciFact exercises.
struct UnicodeReferenceTests {
  @Test func fingerprintsMatchPython() throws {
    let source = try #require(TestData.unicodeCorpus)
    #expect(source.vocab.count == 256)
    #expect(source.vocab.contains("kelvin") && source.vocab.contains("stanbul"))
    let items = synthItems(source, count: 500)
    #expect(
      fingerprint(items.prefix(100))
        == "330088ee3b8ce9419a8739b552df86de1bb8a6832bdb366e6841a8f34eec0300")
    #expect(
      fingerprint(items[...]) == "9c6c61b5f4650c313469074c1b3aa7677217e89c1b1ce8c87fbbffb117678d4c")
  }

  @Test func shortQueriesMatchPython() throws {
    let source = try #require(TestData.unicodeCorpus)
    let queries = shortQueries(source, count: 50)
    #expect(
      Array(queries.prefix(4)) == ["savo xeru", "misa lopomi", "tirumivo poxesa", "voru emoji"])
    #expect(
      SHA256.hash(queries.joined(separator: "\n")).hexString
        == "c950bd6ca38e1bd78fb4e9a1972a5c9a663494f544c86168cc78d75df1feccfa")
  }
}
