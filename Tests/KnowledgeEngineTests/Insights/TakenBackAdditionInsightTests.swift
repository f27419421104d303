import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 28-d, 7: two items with the same title, one content repeating the other's and adding
/// a negation or a correction (`Retry three times` / `Retry three times. Actually do not retry at
/// all`), were near-duplicates "the content of one only adds to the other's", advised to be
/// merged into the fullest — which keeps the contradiction.
@Suite("Insights: an addition that takes back what it repeats is no elaboration")
struct TakenBackAdditionInsightTests {
  /// The review's pairs, each a title with two contents.
  static let reviewPairs: [(title: String, short: String, long: String)] = [
    ("Retries", "Retry three times", "Retry three times. Actually do not retry at all"),
    ("Signing", "Sign commits", "Sign commits: no, never"),
    ("Rate limit", "100 requests per minute", "100 requests per minute is wrong; use 500"),
    ("Retries", "Retry three times", "Retry three times? Don't."),
    ("Cache", "Cache responses for an hour", "Instead of that, cache responses for an hour only in staging"),
  ]

  @Test("two decisions sharing a tag: a possible conflict, not near-duplicates to merge", arguments: reviewPairs)
  func decisionsConflict(_ pair: (title: String, short: String, long: String)) throws {
    let found = try UnequalChoiceAndElaborationInsightTests.insights([(pair.title, pair.short), (pair.title, pair.long)])
    #expect(found.map(\.rule) == [.possibleConflict], "\(found.map(\.message))")
    #expect(
      found.first?.message
        == #"Possible conflict: Decisions "\#(pair.title)" and "\#(pair.title)" share the tag "d7" and have similar titles (trigram similarity 1.00) but different content; link them (supersedes, contradicts) or reword one."#
    )
  }

  @Test("two facts (no conflict rule): near-duplicates to review, not to merge into the fullest")
  func factsAreReviewed() throws {
    let engine = try InsightsTests.engine([
      InsightsTests.item(1, .fact, "Retries", content: "Retry three times"),
      InsightsTests.item(2, .fact, "Retries", content: "Retry three times. Actually do not retry at all"),
    ])
    let found = try engine.insights().insights.filter { $0.rule == .nearDuplicates }
    #expect(
      found.map(\.message) == [
        #"2 items have identical titles but different content: "Retries", "Retries"; review them: keep one or reconcile them, or make the titles distinct."#
      ])
  }

  @Test("pure additions stay near-duplicates to merge")
  func pureAdditionsStayDuplicates() throws {
    for pair in [
      [("Retries", "Retry three times"), ("Retries", "Retry three times, with exponential backoff")],
      [("Rate limit", "100 requests per minute"), ("Rate limit", "100 requests per minute, burst of 20; use a token bucket")],
      [("Signing", "Sign commits"), ("Signing", "Sign commits with the release key")],
    ] {
      let found = try UnequalChoiceAndElaborationInsightTests.insights(pair)
      #expect(found.map(\.rule) == [.nearDuplicates], "\(pair): \(found.map(\.message))")
      #expect(found.first?.message.contains("the content of one only adds to the other's") == true, "\(pair)")
    }
  }

  @Test("which additions take back what they repeat")
  func openings() {
    func agree(_ a: String, _ b: String) -> Bool {
      InsightRules.openingsAgree(InsightRules.Opening(a, length: 100), InsightRules.Opening(b, length: 100))
    }
    #expect(!agree("Retry three times", "Retry three times. Actually do not retry at all"))
    #expect(!agree("Sign commits", "Sign commits: no, never"))
    #expect(!agree("100 requests per minute", "100 requests per minute is wrong; use 500"))
    #expect(!agree("Retry three times", "Retry three times? Don't."))
    #expect(!agree("Retry three times", "Retry three times – we can’t, though"))
    #expect(!agree("Retry three times", "Retry three times (incorrect)"))
    #expect(!agree("Retry three times", "Actually, retry three times"))
    // Added words that neither negate nor correct, values included, still only add.
    #expect(agree("Retry three times", "Retry three times, then stop"))
    #expect(agree("100 requests per minute", "100 requests per minute, burst 20"))
    #expect(agree("WAL mode", "Open it in WAL mode"))
    // `t` alone, or after a word that makes no negation with it, is no contraction.
    #expect(agree("Use tabs", "Use tabs: see section t"))
    #expect(agree("Use tabs", "Use tabs, it's the team's style"))
  }

  /// Review 29-b, 5: words that only look like a negation made a possible conflict of an
  /// addition: `no-cache`, `NO_PROXY`, `--no-verify`, `cannot-miss`, `not only … but also`.
  struct Addition: CustomTestStringConvertible, Sendable {
    var name: String
    var short: String
    var long: String
    var testDescription: String { name }
  }

  static let falseNegations: [Addition] = [
    Addition(name: "not only … but also", short: "Deploy on Fridays", long: "Deploy on Fridays, and not only on Fridays but also on Mondays"),
    Addition(name: "not just", short: "Deploy on Fridays", long: "Deploy on Fridays, not just before holidays"),
    Addition(name: "no-cache", short: "Send cache headers", long: "Send cache headers: no-cache for HTML"),
    Addition(name: "NO_PROXY", short: "Use the proxy", long: "Use the proxy; set NO_PROXY for localhost"),
    Addition(name: "no_proxy", short: "Use the proxy", long: "Use the proxy; export no_proxy=localhost"),
    Addition(name: "NO_CACHE", short: "Build the image", long: "Build the image with NO_CACHE=1 in CI"),
    Addition(name: "--no-verify", short: "Commit often", long: "Commit often; use --no-verify for WIP commits"),
    Addition(name: "non-blocking", short: "Use async IO", long: "Use async IO with non-blocking sockets"),
    Addition(name: "nothing changed", short: "Retry three times", long: "Retry three times. Nothing changed since March"),
    Addition(name: "notice, note, knot", short: "Retry three times", long: "Retry three times; notice the note about the knot"),
    Addition(name: "cannot-miss", short: "Retry three times", long: "Retry three times, a cannot-miss step"),
    Addition(name: "Unicode hyphens", short: "Retry three times", long: "Retry three times \u{2010} no\u{2011}op otherwise, naïvely"),
    // Review 30-b, 4: phrases that add or insist rather than take back.
    Addition(name: "don't forget", short: "Back up the database", long: "Back up the database. Don't forget to verify restores"),
    Addition(name: "do not forget", short: "Back up the database", long: "Back up the database; do not forget the -wal"),
    Addition(name: "no problem", short: "Use the new driver", long: "Use the new driver. No problem with it either"),
    Addition(name: "no more than", short: "Use Node 20", long: "Use Node 20; no more than 4 workers"),
    Addition(name: "no exceptions", short: "Comparison is case-insensitive", long: "Comparison is case-insensitive; no exceptions"),
    Addition(name: "without exception", short: "Sign commits", long: "Sign commits, without exception"),
    Addition(name: "instead of", short: "Use tabs", long: "Use tabs instead of spaces, as gofmt does"),
    Addition(name: "from scratch", short: "Rebuild the index", long: "Rebuild the index from scratch after an upgrade"),
    // Review 30-b, 4 (lead-ins): the words of a correcting lead-in, without its colon or inside
    // a sentence, add.
    Addition(name: "update as a verb", short: "Release on Fridays", long: "Release on Fridays. Update the changelog first"),
    Addition(name: "last update:", short: "Release on Fridays", long: "Release on Fridays (last update: May)"),
    Addition(name: "now inside a sentence", short: "Run the linters", long: "Run the linters, now with the new rules: strict"),
    Addition(name: "a note: label", short: "Use Postgres", long: "Use Postgres. Note: the replica is read-only"),
  ]

  @Test("a word that only looks like a negation adds: near-duplicates to merge", arguments: falseNegations)
  func falseNegationsAdd(_ c: Addition) throws {
    let found = try UnequalChoiceAndElaborationInsightTests.insights([("Policy", c.short), ("Policy", c.long)])
    #expect(found.map(\.rule) == [.nearDuplicates], "\(found.map(\.message))")
    #expect(found.first?.message.contains("the content of one only adds to the other's") == true)
  }

  static let corrections: [Addition] = [
    Addition(name: "do not", short: "Commit often", long: "Commit often. Do not use --no-verify"),
    Addition(name: "never", short: "Use the proxy", long: "Use the proxy, never for NO_PROXY hosts"),
    Addition(name: "no longer", short: "Send cache headers", long: "Send cache headers: no longer needed"),
    Addition(name: "actually", short: "Retry three times", long: "Retry three times. Actually, retry once"),
    Addition(name: "instead", short: "Retry three times", long: "Retry three times, or use a queue instead"),
    Addition(name: "wrong", short: "Retry three times", long: "Retry three times: wrong, retry once"),
    Addition(name: "isn't", short: "Deploy on Fridays", long: "Deploy on Fridays isn't allowed any more"),
    Addition(name: "not, not only in another place", short: "Deploy on Fridays", long: "Deploy on Fridays, not only-if-green: not at all"),
    Addition(name: "no, between dashes and spaces", short: "Sign commits", long: "Sign commits - no - skip that"),
    // Review 30-b, 4: corrections without a negation.
    Addition(name: "scratch that", short: "Retry three times", long: "Retry three times. Scratch that: retry once"),
    Addition(name: "reverted", short: "Use Postgres", long: "Use Postgres; reverted after the incident"),
    Addition(name: "no longer than, still no longer", short: "Cache for an hour", long: "Cache for an hour, no longer needed"),
    // Review 30-b, 4: a correcting lead-in, without a negation, was read as an addition to merge.
    Addition(
      name: "Update:", short: "We use MySQL for the orders service",
      long: "We use MySQL for the orders service. Update: we switched to Postgres."),
    Addition(name: "UPDATE: in capitals", short: "Use MySQL", long: "Use MySQL.\nUPDATE : moved to Postgres"),
    Addition(name: "Updated:", short: "Use MySQL", long: "Use MySQL (updated: Postgres since March)"),
    Addition(name: "Edit:", short: "Retry three times", long: "Retry three times. Edit: retry once"),
    Addition(name: "Changed:", short: "Deploy on Fridays", long: "Deploy on Fridays; changed: Mondays only"),
    Addition(name: "Now:", short: "Deploy on Fridays", long: "Deploy on Fridays! Now: on Mondays"),
    Addition(name: "Update: before the repeated text", short: "Use Postgres", long: "Update: use Postgres"),
  ]

  @Test("a real negation or correction still takes back: a possible conflict", arguments: corrections)
  func correctionsConflict(_ c: Addition) throws {
    let found = try UnequalChoiceAndElaborationInsightTests.insights([("Policy", c.short), ("Policy", c.long)])
    #expect(found.map(\.rule) == [.possibleConflict], "\(found.map(\.message))")
  }

  @Test("which words label what follows them: a sentence's first word with a colon after it")
  func labels() {
    let read = InsightRules.openingWords("Update: use X. Last update: May; now: y (edit : z) now x:")
    #expect(read.words == ["update", "use", "x", "last", "update", "may", "now", "y", "edit", "z", "now", "x"])
    #expect(read.labels == [true, false, false, false, false, false, true, false, true, false, false, false])
    let unicode = InsightRules.openingWords("Ünïcode. Änderung: x\u{2028}Now: ü")
    #expect(unicode.labels == [false, true, false, true, false])
  }

  @Test("which words are joined to a neighbour")
  func joinedWords() {
    let read = InsightRules.openingWords("Use --no-verify, NO_PROXY and no-cache; no - never: don't")
    #expect(read.words == ["use", "no", "verify", "no", "proxy", "and", "no", "cache", "no", "never", "don", "t"])
    #expect(read.joined == [false, true, true, true, true, false, true, true, false, false, false, false])
    #expect(InsightRules.normalizedOpening("Ünïcode  no\u{2011}op — nötig") == "ünïcode no op nötig")
    #expect(InsightRules.openingWords("Ünïcode no\u{2011}op — nötig").joined == [false, true, true, false])
  }
}
