import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 20-b, #1 and #16: title-only decisions that say opposite things were advised to be
/// merged, or not reported at all; identical titles were called "near-identical".
@Suite("Title contrast and title-only conflicts")
struct TitleContrastTests {
  struct ContrastCase: CustomStringConvertible, Sendable {
    var a: String
    var b: String
    var kind: TitleContrast.Kind
    var detail: String?
    var description: String { "\(a) / \(b)" }
  }

  static let contrastCases: [ContrastCase] = [
    ContrastCase(a: "Enable feature flag new_checkout", b: "Disable feature flag new_checkout", kind: .opposite, detail: "enable / disable"),
    ContrastCase(a: "Always squash merge PRs", b: "Never squash merge PRs", kind: .opposite, detail: "always / never"),
    ContrastCase(a: "Do not use SQLite WAL mode", b: "Use SQLite WAL mode for the workspace", kind: .opposite, detail: "do not use / use"),
    // Review 24-b, 6: one title only adds a negation; both sides name the negated word.
    ContrastCase(a: "Allow force push on main", b: "Do not allow force push on main", kind: .opposite, detail: "allow / do not allow"),
    ContrastCase(a: "Mock the network in tests", b: "Don't mock the network in tests", kind: .opposite, detail: "mock / don't mock"),
    // Review 25-b, 7: a modal before the negation is named on both sides; `may` is a modal too.
    ContrastCase(a: "Must validate input on the client", b: "Must not validate input on the client", kind: .opposite, detail: "must validate / must not validate"),
    ContrastCase(a: "We will not ship on Fridays", b: "We will ship on Fridays", kind: .opposite, detail: "will not ship / will ship"),
    ContrastCase(a: "Should block the main thread", b: "Should not block the main thread", kind: .opposite, detail: "should block / should not block"),
    ContrastCase(a: "Users may delete projects", b: "Users may not delete projects", kind: .opposite, detail: "may delete / may not delete"),
    // Review 26-b, 11: a side that ends with its negation names the word it negates, on both sides.
    ContrastCase(
      a: "Should validate input on the client", b: "Must not validate input on the client", kind: .opposite,
      detail: "should validate / must not validate"),
    // Two prohibitions under one negation hold together: not different choices.
    ContrastCase(a: "Never log passwords", b: "Never log tokens", kind: .reworded, detail: nil),
    ContrastCase(a: "Do not use tabs", b: "Do not use spaces", kind: .reworded, detail: nil),
    // `without` negates only its object: still a choice.
    ContrastCase(a: "Use Postgres without an ORM", b: "Use SQLite without an ORM", kind: .alternatives, detail: "postgres / sqlite"),
    // A modal only on the negated side stays there (`do allow` is not what the other says).
    ContrastCase(a: "Allow force push on main", b: "You must not allow force push on main", kind: .opposite, detail: "allow / must not allow"),
    // Negated contractions of `are`, `was`, `have`…: opposite.
    ContrastCase(a: "Retries are idempotent", b: "Retries aren't idempotent", kind: .opposite, detail: "are / aren't"),
    ContrastCase(a: "Webhooks were signed", b: "Webhooks weren\u{2019}t signed", kind: .opposite, detail: "were / weren't"),
    ContrastCase(a: "The migration has run", b: "The migration hasn't run", kind: .opposite, detail: "has / hasn't"),
    ContrastCase(a: "Deploy Docker images", b: "Deploy without Docker images", kind: .opposite, detail: "docker / without docker"),
    ContrastCase(a: "Don't mock the network in tests", b: "Mock the network in tests", kind: .opposite, detail: "don't mock / mock"),
    ContrastCase(a: "Allow root login", b: "Deny root login", kind: .opposite, detail: "allow / deny"),
    ContrastCase(a: "Deploy with Docker", b: "Deploy without Docker", kind: .opposite, detail: nil),
    // Two flips cancel: "do not disable" agrees with "enable".
    ContrastCase(a: "Do not disable the cache", b: "Enable the cache", kind: .reworded, detail: nil),
    ContrastCase(a: "Use tabs for indentation", b: "Use spaces for indentation", kind: .alternatives, detail: "tabs / spaces"),
    ContrastCase(
      a: "Staging URL is https://staging.example.com", b: "Staging URL is https://staging2.example.com", kind: .differentValues,
      detail: "https://staging.example.com / https://staging2.example.com"),
    ContrastCase(a: "Use port 8080", b: "Use port 8081", kind: .differentValues, detail: "8080 / 8081"),
    ContrastCase(a: "Use Redis for caching", b: "use redis for caching.", kind: .sameWords, detail: ""),
    // One word reworded (same start), or words added: not different choices.
    ContrastCase(a: "Use Redis for caching", b: "Use Redis for the caching layer", kind: .reworded, detail: nil),
    ContrastCase(a: "Use Redis for caching", b: "Use Redis for cache", kind: .reworded, detail: nil),
    ContrastCase(a: "Use tabs for indentation", b: "Use tabs in indentation", kind: .reworded, detail: nil),
    // Review 27-a, 12: two phrases exchanged around a rejection say opposite things, each named
    // with what it rejects.
    ContrastCase(a: "Use spaces, not tabs", b: "Use tabs, not spaces", kind: .opposite, detail: "not tabs / not spaces"),
    ContrastCase(a: "Prefer tabs over spaces", b: "Prefer spaces over tabs", kind: .opposite, detail: "over spaces / over tabs"),
    ContrastCase(
      a: "Use tabs instead of spaces", b: "Use spaces instead of tabs", kind: .opposite, detail: "instead of spaces / instead of tabs"),
    ContrastCase(
      a: "Use spaces, do not use tabs", b: "Use tabs, do not use spaces", kind: .opposite, detail: "do not use tabs / do not use spaces"),
    ContrastCase(
      a: "Do not use tabs, use spaces", b: "Do not use spaces, use tabs", kind: .opposite, detail: "do not use tabs / do not use spaces"),
    ContrastCase(a: "Enable gzip, disable brotli", b: "Enable brotli, disable gzip", kind: .opposite, detail: "disable brotli / disable gzip"),
    // Exchanges that reject nothing, or reject both phrases alike, change nothing.
    ContrastCase(a: "Run tests and linters", b: "Run linters and tests", kind: .reworded, detail: nil),
    ContrastCase(a: "Do not use tabs or use spaces", b: "Do not use spaces or use tabs", kind: .reworded, detail: nil),
    ContrastCase(a: "Do not use tabs, do not use spaces", b: "Do not use spaces, do not use tabs", kind: .reworded, detail: nil),
    ContrastCase(a: "Never log passwords, never log tokens", b: "Never log tokens, never log passwords", kind: .reworded, detail: nil),
    // Review 27-a, 16: `no` is named with the word it negates; one-word sides stay as they were.
    ContrastCase(a: "Use an ORM", b: "Use no ORM", kind: .opposite, detail: "an orm / no orm"),
    ContrastCase(a: "Keep the cache", b: "Keep no cache", kind: .opposite, detail: "the cache / no cache"),
    ContrastCase(a: "Deploy with Docker", b: "Deploy without Docker", kind: .opposite, detail: "with / without"),
    // Review 27-a, 13: different choices only where a choice is named.
    ContrastCase(a: "Use Postgres for analytics", b: "Use DuckDB for analytics", kind: .alternatives, detail: "postgres / duckdb"),
    ContrastCase(a: "We will use tabs", b: "We will use spaces", kind: .alternatives, detail: "tabs / spaces"),
    ContrastCase(a: "Deploy with Kubernetes", b: "Deploy with Nomad", kind: .alternatives, detail: "kubernetes / nomad"),
    ContrastCase(a: "Store dates in UTC", b: "Store dates in localtime", kind: .alternatives, detail: "utc / localtime"),
    ContrastCase(a: "Prefer Vim", b: "Prefer Emacs", kind: .alternatives, detail: "vim / emacs"),
    ContrastCase(a: "Host on AWS", b: "Host on GCP", kind: .alternatives, detail: "aws / gcp"),
    ContrastCase(a: "Use the Postgres driver", b: "Use the MySQL driver", kind: .alternatives, detail: "postgres / mysql"),
    ContrastCase(a: "Switch to Bun", b: "Switch to Deno", kind: .alternatives, detail: "bun / deno"),
    ContrastCase(a: "Vim as the editor", b: "Emacs as the editor", kind: .alternatives, detail: "vim / emacs"),
    ContrastCase(a: "Use Postgres for analytics", b: "Adopt DuckDB for analytics", kind: .alternatives, detail: "use postgres / adopt duckdb"),
    ContrastCase(a: "Deploy on day two of each sprint", b: "Deploy on day one of each sprint", kind: .alternatives, detail: "two / one"),
    ContrastCase(a: "Run tests on CI", b: "Run linters on CI", kind: .reworded, detail: nil),
    ContrastCase(a: "Write tests for the API", b: "Write docs for the API", kind: .reworded, detail: nil),
    ContrastCase(a: "Encrypt backups at rest", b: "Compress backups at rest", kind: .reworded, detail: nil),
    ContrastCase(a: "Run tests before merging", b: "Run tests before releasing", kind: .reworded, detail: nil),
    ContrastCase(a: "Use Postgres for analytics", b: "Use Postgres for reporting", kind: .reworded, detail: nil),
    ContrastCase(a: "Tests for the API", b: "Docs for the API", kind: .reworded, detail: nil),
    // Review 27-a, 14 (insights v14): sides of different lengths, a phrase with an antonym,
    // negated contractions, `log to`, one modifier after a choosing verb.
    ContrastCase(a: "Store dates in UTC", b: "Store dates in local time", kind: .alternatives, detail: "utc / local time"),
    ContrastCase(a: "Deploy with Kubernetes", b: "Deploy with Docker Compose", kind: .alternatives, detail: "kubernetes / docker compose"),
    ContrastCase(a: "Enable telemetry", b: "Turn off telemetry", kind: .opposite, detail: "enable / turn off"),
    ContrastCase(a: "Needn't sign commits", b: "Need to sign commits", kind: .opposite, detail: "needn't / need to"),
    ContrastCase(a: "Needn\u{2019}t sign commits", b: "Need to sign commits", kind: .opposite, detail: "needn't / need to"),
    ContrastCase(a: "We shan't ship on Fridays", b: "We shall ship on Fridays", kind: .opposite, detail: "shan't / shall"),
    ContrastCase(a: "Retries mightn't help", b: "Retries might help", kind: .opposite, detail: "mightn't / might"),
    ContrastCase(a: "You oughtn't force push", b: "You ought to force push", kind: .opposite, detail: "oughtn't / ought to"),
    ContrastCase(a: "The job hadn't run", b: "The job had run", kind: .opposite, detail: "hadn't / had"),
    ContrastCase(a: "Log to stdout", b: "Log to stderr", kind: .alternatives, detail: "stdout / stderr"),
    ContrastCase(a: "Use managed Postgres", b: "Use managed MySQL", kind: .alternatives, detail: "postgres / mysql"),
    ContrastCase(a: "Use the managed Postgres service", b: "Use the managed MySQL service", kind: .alternatives, detail: "postgres / mysql"),
    // Past one modifier, or a preposition or small word, the words describe what is chosen.
    ContrastCase(a: "Use fully managed Postgres", b: "Use fully managed MySQL", kind: .reworded, detail: nil),
    // The modifier is one of a closed list: a word that names what is chosen is no modifier, and
    // the words after it are parts of it that hold together.
    ContrastCase(a: "Use local SQLite", b: "Use local Postgres", kind: .alternatives, detail: "sqlite / postgres"),
    ContrastCase(a: "Use Swift concurrency", b: "Use Swift packages", kind: .reworded, detail: nil),
    ContrastCase(a: "Use React hooks", b: "Use React context", kind: .reworded, detail: nil),
    ContrastCase(a: "Use Redis to cache sessions", b: "Use Redis to cache tokens", kind: .reworded, detail: nil),
    ContrastCase(a: "Use Postgres for ad hoc analytics", b: "Use Postgres for reporting", kind: .reworded, detail: nil),
  ]

  @Test("how two titles differ", arguments: contrastCases)
  func contrast(_ c: ContrastCase) {
    let contrast = TitleContrast(c.a, c.b)
    #expect(contrast.kind == c.kind)
    if let detail = c.detail { #expect(contrast.detail == detail) }
  }

  @Test("a neutral title drops negations and reads antonyms as the first word of their pair")
  func neutralTitles() {
    #expect(TitleContrast.neutralTitle("Do not use SQLite WAL mode") == "use sqlite wal mode")
    #expect(TitleContrast.neutralTitle("Disable feature flag X") == "enable feature flag x")
    #expect(TitleContrast.neutralTitle("Never squash merge PRs") == "always squash merge prs")
    #expect(TitleContrast.neutralTitle("Users may not export projects") == "users export projects")
    #expect(TitleContrast.neutralTitle("Retries aren't idempotent") == "retries idempotent")
    #expect(TitleContrast.neutralTitle("Needn't sign commits") == "sign commits")
    #expect(TitleContrast.neutralTitle("Turn off telemetry") == "turn on telemetry")
    #expect(TitleContrast.neutralTitle("Use SQLite WAL mode") == nil)
    #expect(TitleContrast.neutralTitle("Adopt trunk-based development") == nil)
  }

  static func item(_ n: Int, _ kind: KnowledgeKind, _ title: String, content: String = "", tags: [String]) -> KnowledgeItem {
    InsightsTests.item(n, kind, title, content: content, tags: tags)
  }

  /// The review's workspace (ws3): titles only, no content.
  static let reviewItems: [KnowledgeItem] = [
    item(1, .decision, "Enable feature flag new_checkout", tags: ["flags"]),
    item(2, .decision, "Disable feature flag new_checkout", tags: ["flags"]),
    item(3, .decision, "Use tabs for indentation", tags: ["style"]),
    item(4, .decision, "Use spaces for indentation", tags: ["style"]),
    item(5, .preference, "Always squash merge PRs", tags: ["git"]),
    item(6, .preference, "Never squash merge PRs", tags: ["git"]),
    item(7, .fact, "Staging URL is https://staging.example.com", tags: ["env"]),
    item(8, .fact, "Staging URL is https://staging2.example.com", tags: ["env"]),
    item(9, .decision, "Do not use SQLite WAL mode", tags: ["storage"]),
    item(10, .decision, "Use SQLite WAL mode for the workspace", tags: ["storage"]),
  ]

  @Test("review 20-b #1: title-only opposite decisions and preferences are possible conflicts, never merged")
  func reviewReproduction() throws {
    let report = try InsightsTests.engine(Self.reviewItems).insights()
    #expect(report.algorithmVersion == "14")
    let conflicts = report.insights.filter { $0.rule == .possibleConflict }
    let pairs = Set(conflicts.map { Set($0.evidenceIDs) })
    #expect(
      pairs == [
        [sequentialID(1), sequentialID(2)], [sequentialID(3), sequentialID(4)], [sequentialID(5), sequentialID(6)],
        [sequentialID(9), sequentialID(10)],
      ], "\(conflicts.map(\.message))")
    func message(_ a: Int, _ b: Int) -> String {
      conflicts.first { Set($0.evidenceIDs) == [sequentialID(a), sequentialID(b)] }?.message ?? ""
    }
    #expect(
      message(1, 2)
        == #"Possible conflict: Decisions "Disable feature flag new_checkout" and "Enable feature flag new_checkout" share the tag "flags" and have titles that say opposite things (disable / enable); link them (supersedes, contradicts) or reword one."#)
    #expect(message(3, 4).contains("that name different choices (spaces / tabs)"), "\(message(3, 4))")
    #expect(message(5, 6).contains("Preferences \"Always squash merge PRs\" and \"Never squash merge PRs\""), "\(message(5, 6))")
    #expect(message(5, 6).contains("say opposite things (always / never)"), "\(message(5, 6))")
    #expect(message(9, 10).contains("say opposite things (do not use / use)"), "\(message(9, 10))")
    // Nothing here is advised to be merged; the two staging URLs may be two values.
    let duplicates = report.insights.filter { $0.rule == .nearDuplicates }
    #expect(duplicates.count == 1, "\(duplicates.map(\.message))")
    let staging = try #require(duplicates.first)
    #expect(staging.evidenceIDs == [sequentialID(7), sequentialID(8)])
    #expect(!staging.message.contains("merge them"), "\(staging.message)")
    #expect(
      staging.message.contains(
        "that may state different values (https://staging.example.com / https://staging2.example.com)"), "\(staging.message)")
  }

  @Test("opposite facts are near-duplicates asked which one holds, not merged")
  func oppositeFacts() throws {
    let found = try InsightsTests.insights(
      InsightsTests.engine([
        Self.item(1, .fact, "Enable feature flag new_checkout", tags: []),
        Self.item(2, .fact, "Disable feature flag new_checkout", tags: []),
      ]), .nearDuplicates)
    let message = try #require(found.first?.message)
    #expect(message.contains("that say opposite things (disable / enable)"), "\(message)")
    #expect(message.hasSuffix("decide which one holds: link them (supersedes, contradicts) or reword one."), "\(message)")
  }

  @Test("a reworded title with the same empty content is still no conflict, and near-duplicates may be merged")
  func rewordedTitlesStayNearDuplicates() throws {
    let engine = try InsightsTests.engine([
      Self.item(1, .decision, "Use Redis for caching", tags: ["cache"]),
      Self.item(2, .decision, "Use Redis for caching.", tags: ["cache"]),
    ])
    #expect(try InsightsTests.insights(engine, .possibleConflict).isEmpty)
    let message = try #require(try InsightsTests.insights(engine, .nearDuplicates).first?.message)
    #expect(
      message
        == #"2 items have titles that are the same apart from case and punctuation: "Use Redis for caching", "Use Redis for caching."; merge them, or link them (supersedes, contradicts) if they disagree, or make the titles distinct."#)
  }

  @Test("review 20-b #16: identical titles are called identical, not near-identical at 1.00")
  func identicalTitles() throws {
    let engine = try InsightsTests.engine([
      Self.item(1, .decision, "Use Redis for caching", content: "TTL 5 minutes", tags: []),
      Self.item(2, .decision, "Use Redis for caching", content: "TTL 5 minutes", tags: []),
    ])
    let message = try #require(try InsightsTests.insights(engine, .nearDuplicates).first?.message)
    #expect(message.hasPrefix(#"2 items have identical titles: "Use Redis for caching", "Use Redis for caching"; merge them"#), "\(message)")
  }

  @Test("review 20-b #16: tasks whose titles differ in case and punctuation are not said to have the same title")
  func duplicateTaskWording() throws {
    let found = try InsightsTests.insights(
      InsightsTests.engine(
        [], tasks: [DuplicateTasksInsightTests.task(1, "Fix login bug"), DuplicateTasksInsightTests.task(2, "fix login bug.")]),
      .duplicateTasks)
    let message = try #require(found.first?.message)
    #expect(
      message.hasPrefix(#"2 open tasks have titles that are the same apart from case and punctuation: "Fix login bug", "fix login bug.""#),
      "\(message)")
  }
}

/// Review 21-a, 5: "Use tabs" superseded by "Use 4 spaces" was still named in a possible
/// conflict with "Use spaces", advised to be linked although it already was.
@Suite("Possible conflicts leave superseded items out")
struct SupersededConflictTests {
  @Test("a superseded decision is in no possible conflict; without the link it is")
  func supersededIsHistory() throws {
    let tabs = TitleContrastTests.item(1, .decision, "Use tabs for indentation", tags: ["style"])
    let spaces = TitleContrastTests.item(2, .decision, "Use spaces for indentation", tags: ["style"])
    var four = TitleContrastTests.item(3, .decision, "Use 4 spaces", tags: ["style"])
    // Without a supersedes link the two are a possible conflict (the control).
    let before = try InsightsTests.engine([tabs, spaces, four]).insights()
    #expect(before.insights.contains { $0.rule == .possibleConflict && Set($0.evidenceIDs) == [tabs.id, spaces.id] })
    four.relationships = [KnowledgeRelationship(kind: .supersedes, targetID: tabs.id)]
    let after = try InsightsTests.engine([tabs, spaces, four]).insights()
    #expect(after.algorithmVersion == "14")
    let conflicts = after.insights.filter { $0.rule == .possibleConflict }
    #expect(!conflicts.contains { $0.evidenceIDs.contains(tabs.id) }, "\(conflicts.map(\.message))")
  }
}
