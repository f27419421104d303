import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 23-a, 10: `Use Postgres for analytics` / `Use DuckDB for analytics` (same tag, one word
/// differs) was no possible conflict: its trigram similarity (0.47) is under the 0.5 gate, since
/// the differing words are long. Titles naming different choices are now compared word by word.
@Suite("Possible conflicts: different choices found word by word")
struct ChoicePairTests {
  struct PairCase: CustomStringConvertible, Sendable {
    var a: String
    var b: String
    var pairs: Bool
    var why: String
    var description: String { "\(a) / \(b): \(why)" }
  }

  static let pairCases: [PairCase] = [
    PairCase(a: "Use Postgres for analytics", b: "Use DuckDB for analytics", pairs: true, why: "the review's pair"),
    PairCase(a: "Use tabs for indentation", b: "Use spaces for indentation", pairs: true, why: "one word"),
    PairCase(a: "Use tabs", b: "Use spaces", pairs: true, why: "two words, one shared"),
    PairCase(a: "Host the docs on GitHub Pages", b: "Host the docs on Read the Docs", pairs: false, why: "unequal word counts"),
    PairCase(
      a: "Store sessions in Redis with TTL", b: "Store sessions in Memcached without TTL", pairs: false,
      why: "a negation on one side: opposite, not a choice"),
    PairCase(a: "Run the API on Kubernetes", b: "Run the API on Nomad", pairs: true, why: "one word of five"),
    PairCase(a: "Ship the release notes as Markdown files", b: "Ship the release notes as HTML pages", pairs: true, why: "two words of seven"),
    PairCase(
      a: "Deploy the site with Kubernetes on GCP", b: "Deploy the site with Nomad on AWS", pairs: false,
      why: "a word on both sides of what differs ('on'), as the contrast reads it"),
    PairCase(a: "Deploy with Kubernetes on GCP", b: "Deploy with Nomad on AWS", pairs: false, why: "three words of five: fewer shared"),
    PairCase(a: "Cache API responses", b: "Cache DB queries", pairs: false, why: "two words differ, one shared"),
    PairCase(a: "Upgrade runners to Node 18", b: "Upgrade runners to Node 20", pairs: false, why: "a value, not a choice"),
    PairCase(a: "Use port 8080 for the API", b: "Use port 9090 for the API", pairs: false, why: "a number"),
    PairCase(a: "Use Postgres for analytics", b: "Use PostGIS for analytics", pairs: false, why: "words with the same start"),
    PairCase(a: "Put it in the repo", b: "Put it on the repo", pairs: false, why: "only stop words differ"),
    PairCase(a: "Use the tool", b: "Use a tool", pairs: false, why: "only stop words differ"),
    PairCase(a: "Postgres", b: "DuckDB", pairs: false, why: "one word each: nothing shared"),
    PairCase(a: "Of Postgres", b: "Of DuckDB", pairs: false, why: "only a stop word shared"),
    PairCase(a: "Enable the cache", b: "Disable the cache", pairs: false, why: "opposite, which the neutral join finds"),
    // Review 25-b, 7: two rules that share only "do not" are not two choices of one thing.
    PairCase(a: "Do not enable telemetry", b: "Do not use tabs", pairs: false, why: "only 'do not' shared"),
    // Review 26-b, 11: two prohibitions under one shared negation hold together.
    PairCase(a: "Must not log tokens", b: "Must not cache tokens", pairs: false, why: "two prohibitions, not a choice"),
    PairCase(a: "Never log passwords", b: "Never log tokens", pairs: false, why: "two prohibitions, not a choice"),
    PairCase(a: "Use Postgres without an ORM", b: "Use SQLite without an ORM", pairs: true, why: "'without' negates only its object"),
    PairCase(a: "We will use tabs", b: "We will use spaces", pairs: true, why: "'use' shared beside a stop word and a modal"),
    // Review 27-a, 13: the differing words must stand where a choice is named.
    PairCase(a: "Deploy with Kubernetes", b: "Deploy with Nomad", pairs: true, why: "after a choosing preposition"),
    PairCase(a: "Store dates in UTC", b: "Store dates in localtime", pairs: true, why: "after 'in'"),
    PairCase(a: "Prefer Vim", b: "Prefer Emacs", pairs: true, why: "after a choosing verb"),
    PairCase(a: "Host on AWS", b: "Host on GCP", pairs: true, why: "after 'on'"),
    PairCase(a: "Migrate to Postgres", b: "Migrate to MySQL", pairs: true, why: "after 'migrate to'"),
    PairCase(a: "Run tests on CI", b: "Run linters on CI", pairs: false, why: "two tasks: what 'run' acts on is no choice"),
    PairCase(a: "Write tests for the API", b: "Write docs for the API", pairs: false, why: "two pieces of work"),
    PairCase(a: "Encrypt backups at rest", b: "Compress backups at rest", pairs: false, why: "the verbs differ: two actions"),
    PairCase(a: "Run tests before merging", b: "Run tests before releasing", pairs: false, why: "two moments, both kept"),
    PairCase(a: "Use Postgres for analytics", b: "Use Postgres for reporting", pairs: false, why: "two purposes after 'for'"),
    PairCase(
      a: "Use one two three four five six seven eight nine ten eleven Postgres",
      b: "Use one two three four five six seven eight nine ten eleven DuckDB", pairs: false, why: "over 12 words"),
  ]

  @Test("which pairs of titles name different choices word by word", arguments: pairCases)
  func pairs(_ c: PairCase) {
    let found = TitleContrast.choicePairs([(index: 0, title: c.a), (index: 1, title: c.b)])
    #expect(found.map { [$0.0, $0.1] } == (c.pairs ? [[0, 1]] : []))
  }

  @Test("a key that many titles share is skipped; pairs are sorted and each is given once")
  func bucketsAndOrder() {
    // Distinct two-letter words, none a stop word, none starting like another.
    func titles(_ n: Int) -> [(index: Int, title: String)] {
      (0..<n).map { i in
        let word = String(Character(UnicodeScalar(UInt8(98 + i % 20)))) + String(Character(UnicodeScalar(UInt8(98 + i / 20))))
        return (index: i, title: "Use \(word) for builds")
      }
    }
    let limit = TitleContrast.choiceBucketLimit
    #expect(TitleContrast.choicePairs(titles(limit)).count == limit * (limit - 1) / 2)
    // One more, and the titles share every key that could pair them: skipped.
    #expect(TitleContrast.choicePairs(titles(limit + 1)).isEmpty)
    let three = [(index: 7, title: "Use Rust for the CLI"), (index: 2, title: "Use Go for the CLI"), (index: 5, title: "Use Zig for the CLI")]
    #expect(TitleContrast.choicePairs(three).map { [$0.0, $0.1] } == [[2, 5], [2, 7], [5, 7]])
  }

  @Test("words are read alike on the ASCII fast path and the general one; the cheap count is a lower bound")
  func tokens() {
    #expect(TitleContrast.tokens("  Use\tTABS\r\nfor (x) -- ") == ["use", "tabs", "for", "x"])
    #expect(TitleContrast.tokens("Don’t mock the network") == ["don't", "mock", "the", "network"])
    #expect(TitleContrast.tokens("Don't mock the network") == ["don't", "mock", "the", "network"])
    #expect(TitleContrast.tokens("É l’été — «dash»") == ["é", "l'été", "dash"])
    #expect(TitleContrast.tokens("x\u{00A0}y https://x.example.com/p?q=1.") == ["x", "y", "https://x.example.com/p?q=1"])
    for title in ["  Use\tTABS\r\nfor (x) -- ", "É l’été — «dash»", "x\u{00A0}y z", "日本語 テキスト", "a - b"] {
      #expect(TitleContrast.asciiWordCountAtLeast(title) <= TitleContrast.tokens(title).count, "\(title)")
    }
    #expect(TitleContrast.asciiWordCountAtLeast("Use tabs - for indentation") == 4)
  }

  static func item(_ n: Int, _ kind: KnowledgeKind, _ title: String, content: String = "", tags: [String]) -> KnowledgeItem {
    InsightsTests.item(n, kind, title, content: content, tags: tags)
  }

  @Test("the review's reproduction: Postgres / DuckDB is a possible conflict beside tabs / spaces")
  func reviewReproduction() throws {
    let engine = try InsightsTests.engine([
      Self.item(1, .decision, "Use Postgres for analytics", tags: ["db"]),
      Self.item(2, .decision, "Use DuckDB for analytics", tags: ["db"]),
      Self.item(3, .decision, "Use tabs for indentation", tags: ["style"]),
      Self.item(4, .decision, "Use spaces for indentation", tags: ["style"]),
    ])
    // Under the trigram gate: only the word pass finds the pair.
    var sets = TrigramSets()
    sets.append(contentsOf: ["Use Postgres for analytics", "Use DuckDB for analytics"])
    #expect(InsightRules.format(sets.similarity(0, 1)) == "0.47")
    #expect(sets.similarity(0, 1) < InsightThresholds().conflictTitleSimilarity)
    let conflicts = try InsightsTests.insights(engine, .possibleConflict)
    #expect(Set(conflicts.map { Set($0.evidenceIDs) }) == [[sequentialID(1), sequentialID(2)], [sequentialID(3), sequentialID(4)]])
    let db = try #require(conflicts.first { Set($0.evidenceIDs) == [sequentialID(1), sequentialID(2)] })
    #expect(
      db.message
        == #"Possible conflict: Decisions "Use DuckDB for analytics" and "Use Postgres for analytics" share the tag "db" and have titles that are the same but for words naming different choices (duckdb / postgres); link them (supersedes, contradicts) or reword one."#
    )
    // Above the trigram threshold the message still gives the similarity.
    let style = try #require(conflicts.first { Set($0.evidenceIDs) == [sequentialID(3), sequentialID(4)] })
    #expect(style.message.contains("have similar titles (trigram similarity 0.61) that name different choices (spaces / tabs)"), "\(style.message)")
  }

  @Test("word-found pairs keep the rule's other conditions: same kind, a shared tag, no link, not superseded")
  func otherConditions() throws {
    func conflicts(_ items: [KnowledgeItem]) throws -> [Insight] {
      try InsightsTests.insights(InsightsTests.engine(items), .possibleConflict)
    }
    let postgres = Self.item(1, .decision, "Use Postgres for analytics", tags: ["db"])
    // Another kind, no shared tag, facts: none.
    #expect(try conflicts([postgres, Self.item(2, .preference, "Use DuckDB for analytics", tags: ["db"])]).isEmpty)
    #expect(try conflicts([postgres, Self.item(2, .decision, "Use DuckDB for analytics", tags: ["olap"])]).isEmpty)
    #expect(
      try conflicts([
        Self.item(1, .fact, "Use Postgres for analytics", tags: ["db"]), Self.item(2, .fact, "Use DuckDB for analytics", tags: ["db"]),
      ]).isEmpty)
    // Linked, or superseded: none.
    var duck = Self.item(2, .decision, "Use DuckDB for analytics", tags: ["db"])
    duck.relationships = [KnowledgeRelationship(kind: .relatesTo, targetID: postgres.id)]
    #expect(try conflicts([postgres, duck]).isEmpty)
    duck.relationships = [KnowledgeRelationship(kind: .supersedes, targetID: postgres.id)]
    #expect(try conflicts([postgres, duck]).isEmpty)
    // Preferences pair too.
    #expect(
      try conflicts([
        Self.item(1, .preference, "Prefer Vim for editing", tags: ["tools"]), Self.item(2, .preference, "Prefer Emacs for editing", tags: ["tools"]),
      ]).count == 1)
  }
}
