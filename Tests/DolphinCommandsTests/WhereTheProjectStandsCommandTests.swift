import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 19-c findings 1, 4, 5, 6 and the priorities wording, through the built binary with
/// the review's reproduction steps: the digest shows the newest decisions and its priorities
/// in priority order, marks task evidence that was superseded, and the insights report tasks
/// resting on replaced knowledge, keep near-duplicates beside an unrelated contradiction and
/// do not ask to tag a memory mirror.
@Suite("context and insights: where the project stands (review 19-c)", .serialized)
struct WhereTheProjectStandsCommandTests {
  static func id(_ obj: [String: Any]) throws -> String {
    let inner = (obj["item"] as? [String: Any]) ?? (obj["mirror"] as? [String: Any]) ?? obj
    return try #require(inner["id"] as? String)
  }

  @Test("finding 1: the decision captured last is shown; the oldest is the one left out")
  func newestDecisionShown() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let titles = [
      "Adopt trunk-based development", "Build with Bazel", "Choose AWS eu-west-1", "Deploy with Helm", "Enable HTTP/2",
      "Freeze API v1", "Gate merges on CI", "Host docs on GitHub Pages", "Use Rust for the thumbnailer",
    ]
    var ids: [String: String] = [:]
    for t in titles { ids[t] = try Self.id(cli.json(["capture", "decision", t, "--tags", "arch"])) }
    let context = try cli.run(["context"])
    #expect(context.status == 0, "\(context.stderr)")
    #expect(context.stdout.hasPrefix("Project context — rule-based digest (rule-based-digest v12"), "\(context.stdout)")
    let rust = try #require(ids["Use Rust for the thumbnailer"])
    #expect(context.stdout.contains("Decisions:\n  - [\(rust)] Use Rust for the thumbnailer\n"), "\(context.stdout)")
    #expect(!context.stdout.contains("Adopt trunk-based development"), "\(context.stdout)")
    #expect(context.stdout.contains("  … and 1 more decision (not shown)\n"), "\(context.stdout)")
    // The stored digest and the review show it too.
    let saved = try cli.json(["context", "--save"])
    let sections = try #require((saved["context"] as? [String: Any])?["sections"] as? [String: Any])
    let decisions = try #require(sections["decisions"] as? [[String: Any]])
    #expect(decisions.first?["text"] as? String == "Use Rust for the thumbnailer")
    #expect(try cli.run(["review"]).stdout.contains("[\(rust)] Use Rust for the thumbnailer"))
  }

  @Test("priorities wording: a critical task comes before a high decision")
  func prioritiesInOrder() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Use Postgres", "--priority", "high"]).status == 0)
    #expect(try cli.run(["task", "add", "Fix the data-loss bug", "--priority", "critical"]).status == 0)
    #expect(try cli.run(["capture", "goal", "Ship beta", "--priority", "critical"]).status == 0)
    #expect(try cli.run(["task", "add", "Write docs", "--priority", "high"]).status == 0)
    let out = try cli.run(["context"]).stdout
    let lines = out.split(separator: "\n").drop { $0 != "Priorities:" }.dropFirst().prefix { $0.hasPrefix("  - ") }
    #expect(lines.map { $0.split(separator: "] ", maxSplits: 1).last.map(String.init) } == [
      "Critical goal: Ship beta", "Critical task: Fix the data-loss bug", "High decision: Use Postgres", "High task: Write docs",
    ], "\(out)")
  }

  @Test("finding 5: a task that cites a superseded goal is marked in context and named by an insight")
  func taskOnSupersededGoal() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let a = try Self.id(cli.json(["capture", "goal", "Ship beta by January 15", "--tags", "release"]))
    let b = try Self.id(cli.json(["capture", "goal", "Ship beta by February 1", "--tags", "release", "--relates", "supersedes:\(a)"]))
    let added = try cli.record("task", ["task", "add", "Cut the beta branch on January 10", "--knowledge", a])
    let task = try #require(added["id"] as? String)

    let context = try cli.run(["context"])
    #expect(
      context.stdout.contains("Open tasks:\n  - [\(task), \(a)] Cut the beta branch on January 10 (\(a) superseded by \(b))\n"),
      "\(context.stdout)")

    let insights = try cli.run(["insights"])
    #expect(
      insights.stdout.contains(
        #"[normal] superseded-evidence: Open task "Cut the beta branch on January 10" rests on replaced knowledge: "Ship beta by January 15" is superseded by "Ship beta by February 1"; "#
      ), "\(insights.stdout)")
    #expect(insights.stdout.contains("    evidence: \(task), \(a), \(b)\n"), "\(insights.stdout)")
    #expect(insights.stdout.hasPrefix("Insights — rule-based (rule-based-insights v14"))
    let json = try cli.json(["insights"])
    let rules = (json["insights"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
    #expect(rules == ["superseded-evidence"], "\(rules)")

    // Completing the task settles it.
    #expect(try cli.run(["task", "complete", task]).status == 0)
    #expect(!(try cli.run(["insights"]).stdout.contains("superseded-evidence")))
  }

  @Test("finding 4: a contradiction with a third item keeps the 100 / 500 rate limits as near-duplicates")
  func contradictionKeepsOtherNearDuplicates() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let a = try Self.id(cli.json(["capture", "fact", "API rate limit is 100 requests per minute per user", "--tags", "api"]))
    let b = try Self.id(cli.json(["capture", "fact", "API rate limit is 500 requests per minute per user", "--tags", "api"]))
    let nearDuplicates =
      #"[normal] near-duplicates: 2 items have near-identical titles (trigram similarity up to 0.88) that may state different values (100 / 500): "API rate limit is 100 requests per minute per user", "API rate limit is 500 requests per minute per user"; check which one holds"#
    let before = try cli.run(["insights"]).stdout
    #expect(before.contains(nearDuplicates), "\(before)")
    let c = try Self.id(
      cli.json(["capture", "fact", "Rate limits are per API key, not per user", "--tags", "api", "--relates", "contradicts:\(a)"]))
    let after = try cli.run(["insights"]).stdout
    #expect(after.contains("[high] contradiction: "), "\(after)")
    #expect(after.contains(nearDuplicates), "\(after)")
    let json = try cli.json(["insights"])
    let list = json["insights"] as? [[String: Any]] ?? []
    let contradiction = list.first { $0["rule"] as? String == "contradiction" }
    let duplicates = list.first { $0["rule"] as? String == "near-duplicates" }
    #expect(Set(contradiction?["evidenceIDs"] as? [String] ?? []) == [a, c])
    #expect(Set(duplicates?["evidenceIDs"] as? [String] ?? []) == [a, b])
  }

  @Test("finding 6: missing-tags does not ask to tag a memory mirror, which knowledge edit refuses")
  func mirrorNotAskedForTags() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let saved = try cli.json(["memory", "save", "Tom prefers reviews in the afternoon"])
    let mirror = try Self.id(saved)
    let insights = try cli.run(["insights"])
    #expect(!insights.stdout.contains("missing-tags"), "\(insights.stdout)")
    #expect(insights.stdout.contains("No rule fired."), "\(insights.stdout)")
    let edit = try cli.run(["knowledge", "edit", mirror, "--add-tags", "team"])
    #expect(edit.status == 4, "\(edit.stdout)\(edit.stderr)")
    // A captured item without tags is still asked for them.
    _ = try cli.json(["capture", "fact", "Reviews happen on Tuesdays"])
    let again = try cli.run(["insights"]).stdout
    #expect(again.contains(#"[low] missing-tags: 1 item has no tags: "Reviews happen on Tuesdays"; "#), "\(again)")
  }
}
