import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 27-a, all with two decisions sharing a tag:
/// - 12: `Use spaces, not tabs` / `Use tabs, not spaces` were near-duplicates to "check whether
///   they say the same thing before merging them", and no possible conflict;
/// - 13: complementary decisions (`Run tests on CI` / `Run linters on CI`) were possible
///   conflicts "that name different choices";
/// - 16: `Use an ORM` / `Use no ORM` was described as `(an / no)`.
@Suite("Insights v13: exchanged titles are opposite, choices only where a choice is named")
struct ChoicePositionInsightTests {
  /// Each pair as two title-only decisions sharing a tag; `a` is named first.
  static let reviewPairs: [ReviewPair] = [
    // 12: opposite, named with what each rejects.
    ReviewPair(a: "Use spaces, not tabs", b: "Use tabs, not spaces", how: "have titles that say opposite things (not tabs / not spaces)"),
    // 16: `no` named with its noun.
    ReviewPair(a: "Use an ORM", b: "Use no ORM", how: "have titles that say opposite things (an orm / no orm)"),
    // 13: complementary, found neither by trigrams (their content is the same) nor word by word.
    ReviewPair(a: "Run linters on CI", b: "Run tests on CI", how: nil),
    ReviewPair(a: "Write docs for the API", b: "Write tests for the API", how: nil),
    ReviewPair(a: "Compress backups at rest", b: "Encrypt backups at rest", how: nil),
    ReviewPair(a: "Run tests before merging", b: "Run tests before releasing", how: nil),
    // 13: real choices stay found, word by word under the trigram gate, or as similar titles.
    ReviewPair(
      a: "Use DuckDB for analytics", b: "Use Postgres for analytics",
      how: "have titles that are the same but for words naming different choices (duckdb / postgres)"),
    ReviewPair(
      a: "Use spaces for indentation", b: "Use tabs for indentation",
      how: "have similar titles (trigram similarity 0.61) that name different choices (spaces / tabs)"),
    ReviewPair(a: "We will use spaces", b: "We will use tabs", how: "have titles that are the same but for words naming different choices (spaces / tabs)"),
    ReviewPair(a: "Deploy with Kubernetes", b: "Deploy with Nomad", how: "have titles that are the same but for words naming different choices (kubernetes / nomad)"),
    ReviewPair(a: "Store dates in UTC", b: "Store dates in localtime", how: "have similar titles (trigram similarity 0.50) that name different choices (utc / localtime)"),
    ReviewPair(a: "Prefer Emacs", b: "Prefer Vim", how: "have titles that are the same but for words naming different choices (emacs / vim)"),
    ReviewPair(a: "Host on AWS", b: "Host on GCP", how: "have titles that are the same but for words naming different choices (aws / gcp)"),
  ]

  @Test("the review's workspace: which pairs are possible conflicts, and how they are worded")
  func reviewWorkspace() throws {
    let report = try ReviewPair.checkConflicts(Self.reviewPairs, version: "14") { pair, k, message in
      message.hasPrefix(#"Possible conflict: Decisions "\#(pair.a)" and "\#(pair.b)" share the tag "pair\#(k)" and "#)
        && message.contains(pair.how ?? "") && message.hasSuffix("; link them (supersedes, contradicts) or reword one.")
    }
    // 12: the exchanged pair is no longer near-duplicates to merge; the opposite pair is kept
    // apart as the possible conflict names it.
    let duplicates = report.insights.filter { $0.rule == .nearDuplicates }
    #expect(!duplicates.contains { $0.evidenceIDs.contains(sequentialID(1)) }, "\(duplicates.map(\.message))")
  }

  @Test("review 27-a, 12: the whole message of the exchanged pair")
  func exchangedMessage() throws {
    let found = try InsightsTests.insights(
      InsightsTests.engine([
        InsightsTests.item(1, .decision, "Use tabs, not spaces", tags: ["style"]),
        InsightsTests.item(2, .decision, "Use spaces, not tabs", tags: ["style"]),
      ]), .possibleConflict)
    #expect(
      found.map(\.message) == [
        #"Possible conflict: Decisions "Use spaces, not tabs" and "Use tabs, not spaces" share the tag "style" and have titles that say opposite things (not tabs / not spaces); link them (supersedes, contradicts) or reword one."#
      ])
    #expect(found.first?.evidenceIDs == [sequentialID(2), sequentialID(1)])
  }

  @Test("review 27-a, 13: similar complementary titles with different content are a possible conflict on their content, not called different choices")
  func complementaryWithDifferentContent() throws {
    let engine = try InsightsTests.engine([
      InsightsTests.item(1, .decision, "Write tests for the API", content: "XCTest for every endpoint.", tags: ["api"]),
      InsightsTests.item(2, .decision, "Write docs for the API", content: "DocC for every endpoint.", tags: ["api"]),
    ])
    let found = try InsightsTests.insights(engine, .possibleConflict)
    #expect(
      found.map(\.message) == [
        #"Possible conflict: Decisions "Write docs for the API" and "Write tests for the API" share the tag "api" and have similar titles (trigram similarity 0.61) but different content; link them (supersedes, contradicts) or reword one."#
      ])
    // Under the trigram gate they are not compared at all: word by word only choices are.
    var sets = TrigramSets()
    sets.append(contentsOf: ["Run tests on CI", "Run linters on CI"])
    #expect(sets.similarity(0, 1) < InsightThresholds().conflictTitleSimilarity)
    #expect(
      try InsightsTests.insights(
        InsightsTests.engine([
          InsightsTests.item(1, .decision, "Run tests on CI", content: "On every push.", tags: ["ci"]),
          InsightsTests.item(2, .decision, "Run linters on CI", content: "On pull requests.", tags: ["ci"]),
        ]), .possibleConflict
      ).isEmpty)
  }
}
