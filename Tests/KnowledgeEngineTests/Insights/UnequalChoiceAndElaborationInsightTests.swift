import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 27-a, all with two decisions sharing a tag:
/// - 14: no possible conflict for `Store dates in UTC` / `Store dates in local time`, `Deploy with
///   Kubernetes` / `Deploy with Docker Compose` (the words that differ are not as many on both
///   sides), `Enable telemetry` / `Turn off telemetry` (an antonym in a phrase), `Needn't sign
///   commits` / `Need to sign commits` (`needn't` was no negation); and, from the word lists'
///   documented gaps, `Log to stdout` / `Log to stderr`, `Use managed Postgres` / `Use managed
///   MySQL`;
/// - 15: `Use tabs` twice, one with the content "Indent with tabs everywhere", was a possible
///   conflict "but different content", and so never advised to be merged.
@Suite("Insights v14: choices of different lengths, phrase antonyms, elaborated duplicates")
struct UnequalChoiceAndElaborationInsightTests {
  /// Each pair as two title-only decisions sharing a tag; `a` is named first.
  static let reviewPairs: [ReviewPair] = [
    // 14: found word by word, sides of different lengths.
    ReviewPair(
      a: "Store dates in UTC", b: "Store dates in local time",
      how: "have titles that are the same but for words naming different choices (utc / local time)"),
    ReviewPair(
      a: "Deploy with Docker Compose", b: "Deploy with Kubernetes",
      how: "have titles that are the same but for words naming different choices (docker compose / kubernetes)"),
    ReviewPair(a: "Enable telemetry", b: "Turn off telemetry", how: "have titles that say opposite things (enable / turn off)"),
    ReviewPair(a: "Need to sign commits", b: "Needn't sign commits", how: "have titles that say opposite things (need to / needn't)"),
    // The word lists' gaps.
    ReviewPair(
      a: "Log to stderr", b: "Log to stdout",
      how: "have similar titles (trigram similarity 0.53) that name different choices (stderr / stdout)"),
    ReviewPair(
      a: "Use managed MySQL", b: "Use managed Postgres",
      how: "have titles that are the same but for words naming different choices (mysql / postgres)"),
    // Not choices, whatever their lengths: a purpose, two tasks, two actions, two prohibitions,
    // past a preposition or two modifiers, too few words shared.
    ReviewPair(a: "Use Postgres for analytics", b: "Use Postgres for reporting", how: nil),
    ReviewPair(a: "Use Postgres for ad hoc reporting", b: "Use Postgres for analytics", how: nil),
    ReviewPair(a: "Run linters on CI", b: "Run tests on CI", how: nil),
    ReviewPair(a: "Run the linters on CI", b: "Run tests on CI", how: nil),
    ReviewPair(a: "Compress backups at rest", b: "Encrypt backups at rest", how: nil),
    ReviewPair(a: "Compress old backups at rest", b: "Encrypt backups at rest", how: nil),
    ReviewPair(a: "Never log access tokens", b: "Never log passwords", how: nil),
    ReviewPair(a: "Use fully managed MySQL", b: "Use fully managed Postgres", how: nil),
    ReviewPair(a: "Use Redis to cache sessions", b: "Use Redis to cache tokens", how: nil),
    ReviewPair(a: "Cache API responses", b: "Cache all DB queries", how: nil),
    ReviewPair(a: "Do not enable telemetry", b: "Do not turn off the cache", how: nil),
  ]

  @Test("review 27-a, 14: which pairs are possible conflicts, and how they are worded")
  func reviewWorkspace() throws {
    _ = try ReviewPair.checkConflicts(Self.reviewPairs, version: "14") { pair, k, message in
      message
        == #"Possible conflict: Decisions "\#(pair.a)" and "\#(pair.b)" share the tag "pair\#(k)" and \#(pair.how ?? ""); link them (supersedes, contradicts) or reword one."#
    }
  }

  @Test("review 27-a, 14: pairs of different lengths are under the trigram gate, so only the word pass finds them")
  func underTheTrigramGate() {
    var sets = TrigramSets()
    let titles = [
      "Store dates in UTC", "Store dates in local time", "Deploy with Kubernetes", "Deploy with Docker Compose", "Enable telemetry",
      "Turn off telemetry",
    ]
    sets.append(contentsOf: titles)
    for k in stride(from: 0, to: titles.count, by: 2) {
      #expect(sets.similarity(k, k + 1) < InsightThresholds().conflictTitleSimilarity, "\(titles[k])")
    }
  }

  // MARK: Review 27-a, 15

  /// The insights of two or more decisions under one tag, each a title and its content.
  static func insights(_ items: [(String, String)]) throws -> [Insight] {
    try InsightsTests.engine(
      items.enumerated().map { InsightsTests.item($0.offset + 1, .decision, $0.element.0, content: $0.element.1, tags: ["d7"]) }
    ).insights().insights.filter { $0.rule == .possibleConflict || $0.rule == .nearDuplicates }
  }

  @Test("review 27-a, 15: the same title, one content empty, is a near-duplicate to merge, not a possible conflict")
  func emptyContentIsADuplicate() throws {
    let found = try Self.insights([("Use tabs", ""), ("Use tabs", "Indent with tabs everywhere")])
    #expect(found.map(\.rule) == [.nearDuplicates], "\(found.map(\.message))")
    #expect(
      found.first?.message
        == #"2 items have identical titles, and the content of one only adds to the other's: "Use tabs", "Use tabs"; merge them into the one with the fullest content, or link them (supersedes) if one replaces the other, or make the titles distinct."#
    )
    #expect(found.first?.evidenceIDs == [sequentialID(1), sequentialID(2)])
    // The same words apart from case and punctuation read alike.
    let punctuated = try Self.insights([("Use tabs", "Indent with tabs everywhere"), ("use tabs.", "")])
    #expect(punctuated.map(\.rule) == [.nearDuplicates], "\(punctuated.map(\.message))")
    #expect(punctuated.first?.message.hasPrefix("2 items have titles that are the same apart from case and punctuation, and the content of one only adds") == true)
  }

  @Test("review 27-a, 15: content that opens with, or leads into, the other's is a near-duplicate; three items are named as some and others")
  func elaboratedContentIsADuplicate() throws {
    for pair in [
      [("Rate limit", "100 requests per minute."), ("Rate limit", "100 requests per minute, burst of 20.")],
      [("Use SQLite", "WAL mode"), ("Use SQLite", "Open it in WAL mode")],
      [("Use SQLite", "In WAL mode."), ("Use SQLite", "in wal mode")],
    ] {
      let found = try Self.insights(pair)
      #expect(found.map(\.rule) == [.nearDuplicates], "\(pair): \(found.map(\.message))")
    }
    // Equal openings keep the plain merge advice.
    let equal = try Self.insights([("Use SQLite", "In WAL mode."), ("Use SQLite", "in wal mode")])
    #expect(equal.first?.message.hasSuffix("; merge them, or link them (supersedes, contradicts) if they disagree, or make the titles distinct.") == true)
    let three = try Self.insights([("Use tabs", ""), ("Use tabs", "Indent with tabs"), ("Use tabs", "Indent with tabs everywhere, Makefiles too")])
    #expect(
      three.map(\.message) == [
        #"3 items have identical titles, and the content of some only adds to the others': "Use tabs", "Use tabs", "Use tabs"; merge them into the one with the fullest content, or link them (supersedes) if one replaces the others, or make the titles distinct."#
      ])
  }

  @Test("review 27-a, 15: the same title with contents that differ otherwise stays a possible conflict")
  func differentContentStaysAConflict() throws {
    for pair in [
      [("Rate limit", "100 requests per minute"), ("Rate limit", "200 requests per minute")],
      // A negation, or another value, before the other's words is no elaboration.
      [("Use tabs", "Use tabs everywhere"), ("Use tabs", "Do not use tabs everywhere")],
      [("Rate limit", "100 requests per minute"), ("Rate limit", "200 requests per minute, up from 100 requests per minute")],
      [("Use SQLite", "For the workspace"), ("Use SQLite", "WAL mode")],
    ] {
      let found = try Self.insights(pair)
      #expect(found.map(\.rule) == [.possibleConflict], "\(pair): \(found.map(\.message))")
      #expect(
        found.first?.message
          == #"Possible conflict: Decisions "\#(pair[0].0)" and "\#(pair[1].0)" share the tag "d7" and have similar titles (trigram similarity 1.00) but different content; link them (supersedes, contradicts) or reword one."#
      )
    }
    // Similar titles that are not the same words keep needing the same content (as in v13): one
    // content empty is still a possible conflict.
    let reworded = try Self.insights([("Use Redis for caching", ""), ("Use Redis for the caching layer", "Sessions and pages.")])
    #expect(reworded.map(\.rule) == [.possibleConflict], "\(reworded.map(\.message))")
  }

  @Test("review 27-a, 15: which openings agree, one adding to the other")
  func openingsAgree() {
    func agree(_ a: String, _ b: String, length: Int = 100) -> Bool {
      InsightRules.openingsAgree(InsightRules.Opening(a, length: length), InsightRules.Opening(b, length: length))
    }
    #expect(agree("", "Indent with tabs everywhere"))
    #expect(agree("Indent with tabs", "indent with tabs!"))
    #expect(agree("100 requests per minute", "100 requests per minute, burst 20"))
    #expect(agree("WAL mode", "Open it in WAL mode"))
    #expect(!agree("Use tabs", "Do not use tabs"))
    #expect(!agree("Use tabs", "Never use tabs"))
    #expect(!agree("100 requests per minute", "200 requests per minute"))
    #expect(!agree("100 requests per minute", "200 requests per minute, up from 100 requests per minute"))
    #expect(!agree("For the workspace", "WAL mode"))
    // Words are compared whole: `100` is not in `1000`.
    #expect(!agree("limit 100", "limit 1000"))
    // A longer opening cut at the prefix may have its last word cut: `limit is 1000` read as
    // `limit is 100` (16 characters of "Our limit is 1000") does not hold `limit is 100`.
    #expect(!agree("Our limit is 100", "limit is 100", length: 16))
    #expect(agree("Our limit is 100", "limit is 100", length: 100))
    // A shorter opening that is cut may say more than was read.
    #expect(
      !InsightRules.openingsAgree(
        InsightRules.Opening("abcdefghij klmno", length: 16), InsightRules.Opening("abcdefghij klmno pq", length: 100)))
    #expect(InsightRules.Opening("", length: 100).wordCount == 0)
    #expect(InsightRules.Opening("Indent, with tabs!", length: 100).wordCount == 3)
  }
}
