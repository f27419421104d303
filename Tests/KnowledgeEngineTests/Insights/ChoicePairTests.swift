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
    // Review 27-a, 14 (insights v14): sides of different lengths pair too.
    PairCase(a: "Host the docs on GitHub Pages", b: "Host the docs on Read the Docs", pairs: true, why: "two words and three, after 'on'"),
    PairCase(
      a: "Store sessions in Redis with TTL", b: "Store sessions in Memcached without TTL", pairs: true,
      why: "a negation on one side: opposite, found word by word as well as by the neutral join"),
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
    PairCase(a: "Enable the cache", b: "Disable the cache", pairs: true, why: "opposite, which the neutral join finds too"),
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
    // Review 27-a, 14: the review's pairs, sides of different lengths, phrase antonyms, `needn't`,
    // `log to`, one modifier after a choosing verb.
    PairCase(a: "Store dates in UTC", b: "Store dates in local time", pairs: true, why: "one word and two, after 'in'"),
    PairCase(a: "Deploy with Kubernetes", b: "Deploy with Docker Compose", pairs: true, why: "one word and two, after 'with'"),
    PairCase(a: "Enable telemetry", b: "Turn off telemetry", pairs: true, why: "opposite: 'off' flips, 'turn off' counts one word"),
    PairCase(a: "Needn't sign commits", b: "Need to sign commits", pairs: true, why: "opposite: 'needn't' is a negation"),
    PairCase(a: "Log to stdout", b: "Log to stderr", pairs: true, why: "after 'log to'"),
    PairCase(a: "Use managed Postgres", b: "Use managed MySQL", pairs: true, why: "one modifier after 'use'"),
    PairCase(a: "Use the managed Postgres service", b: "Use the managed MySQL service", pairs: true, why: "a determiner and one modifier"),
    PairCase(a: "Use Postgres", b: "Use Docker Compose v2", pairs: false, why: "a value on one side"),
    PairCase(a: "Use fully managed Postgres", b: "Use fully managed MySQL", pairs: false, why: "two modifiers: past one, words describe"),
    PairCase(a: "Use Swift concurrency", b: "Use Swift packages", pairs: false, why: "'swift' names what is used, not how: no modifier"),
    PairCase(a: "Use alpha beta", b: "Use alpha gamma", pairs: false, why: "only listed modifiers: the one-tag benchmark's titles"),
    PairCase(a: "Use Redis to cache sessions", b: "Use Redis to cache tokens", pairs: false, why: "'to' ends the search for a verb"),
    PairCase(a: "Use Postgres for analytics", b: "Use Postgres for ad hoc reporting", pairs: false, why: "a purpose after 'for', of another length"),
    PairCase(a: "Run tests on CI", b: "Run the linters on CI", pairs: false, why: "two tasks, of another length"),
    PairCase(a: "Encrypt backups at rest", b: "Compress old backups at rest", pairs: false, why: "two actions, of another length"),
    PairCase(a: "Cache API responses", b: "Cache all DB queries", pairs: false, why: "one word shared, three differ"),
    PairCase(a: "Use Go", b: "Use Rust for new services", pairs: false, why: "four words differ"),
    PairCase(a: "Deploy with Kubernetes", b: "Deploy with Kubernetes on GCP", pairs: false, why: "one title only adds words"),
    PairCase(a: "Do not enable telemetry", b: "Do not turn off the cache", pairs: false, why: "only 'do not' shared"),
    PairCase(a: "Never log passwords", b: "Never log access tokens", pairs: false, why: "two prohibitions, of another length"),
    PairCase(a: "Enable telemetry", b: "Turn off all the telemetry", pairs: false, why: "four words differ"),
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

  /// Titles of two to seven words, each with copies of itself whose words from one place on are
  /// replaced by one to three others (as many or not), from a vocabulary with choosing words,
  /// polarity words, stop words and values: what the keys must find.
  static let generatedTitles: [String] = {
    let vocabulary = [
      "use", "prefer", "with", "in", "on", "to", "for", "the", "a", "not", "do", "never", "enable", "disable", "turn", "off",
      "log", "managed", "postgres", "mysql", "duckdb", "tabs", "spaces", "kubernetes", "docker", "compose", "nomad", "utc",
      "local", "time", "dates", "store", "deploy", "cache", "sessions", "tests", "ci", "run", "8080", "v2", "telemetry", "needn't",
      "need", "sign", "commits", "stdout", "stderr", "vim", "emacs", "host",
    ]
    var state: UInt64 = 0xC401_CE27
    func next(_ n: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(n))
    }
    var out: [String] = []
    for _ in 0..<90 {
      let base = (0..<(2 + next(6))).map { _ in vocabulary[next(vocabulary.count)] }
      out.append(base.joined(separator: " "))
      for _ in 0..<3 {
        let from = next(base.count), removed = 1 + next(min(3, base.count - from))
        let inserted = (0..<(1 + next(3))).map { _ in vocabulary[next(vocabulary.count)] }
        out.append((base[..<from] + inserted + base[(from + removed)...]).joined(separator: " "))
      }
    }
    return out
  }()

  @Test("the keys find every pair the rules allow, as comparing all pairs does (review 27-a, 14)")
  func keysFindEveryPair() {
    let titles = Self.generatedTitles.enumerated().map { (index: $0.offset, title: $0.element) }
    var expected: [[Int]] = []
    for a in titles.indices {
      for b in titles.indices where b > a {
        if TitleContrast.isChoicePair(TitleContrast.tokens(titles[a].title), TitleContrast.tokens(titles[b].title)) {
          expected.append([a, b])
        }
      }
    }
    #expect(TitleContrast.choicePairs(titles).map { [$0.0, $0.1] } == expected)
    // Both kinds, and sides of different lengths, are exercised.
    let kinds = expected.map { TitleContrast(titles[$0[0]].title, titles[$0[1]].title).kind }
    #expect(kinds.count(where: { $0 == .alternatives }) > 10, "\(kinds)")
    #expect(kinds.count(where: { $0 == .opposite }) > 10, "\(kinds)")
    #expect(
      expected.count(where: { TitleContrast.tokens(titles[$0[0]].title).count != TitleContrast.tokens(titles[$0[1]].title).count }) > 10)
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
