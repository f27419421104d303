import Foundation
import Testing
import TestSupport

/// Review 31-a, 2, the reviewer's commands: a carried decision reversed by `knowledge edit` after
/// the handoff showed its new title unmarked under the old summary, `Knowledge captured since
/// this handoff (0 of 0)`, and no stale notice.
@Suite("dolphin handoff restore: carried knowledge edited since", .serialized)
struct HandoffRestoreEditedSinceTests {
  @Test("the edit is marked with its revision, counted, and makes the handoff stale")
  func reversedDecision() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require(
      (try cli.json(["capture", "decision", "Use Redis for caching", "--content", "TTL 30 minutes"])["item"] as? [String: Any])?["id"]
        as? String)
    let h = try #require(
      (try cli.json(["handoff", "create", "--focus", "Caching", "--knowledge", k, "--summary", "We chose Redis; TTL 30 minutes."])[
        "handoff"] as? [String: Any])?["id"] as? String)
    Thread.sleep(forTimeInterval: 0.05)
    let edit = try cli.run(["knowledge", "edit", k, "--title", "Do not use Redis for caching", "--content", "Abandoned: licence change"])
    #expect(edit.status == 0, "\(edit.stderr)")

    let restore = try cli.run(["handoff", "restore", h])
    #expect(restore.status == 0, "\(restore.stderr)")
    let out = restore.stdout
    #expect(out.contains("Knowledge: (1 of them edited since this handoff)\n"), "\(out)")
    #expect(out.contains("  - \(k)  decision (edited since this handoff, revision 2): \"Do not use Redis for caching\"\n"), "\(out)")
    #expect(out.contains("Knowledge captured since this handoff (0 of 0):\n  (nothing)"), "\(out)")
    #expect(
      out.contains("May be stale (rule stale-handoff, priority normal): 1 knowledge item it carries was edited after it; to clear it, "),
      "\(out)")

    let json = try cli.json(["handoff", "restore", h])
    #expect(json["editedSince"] as? Int == 1, "\(json)")
    let item = try #require((json["knowledge"] as? [[String: Any]])?.first)
    #expect(item["revision"] as? Int == 2 && item["change"] as? String == "edited", "\(item)")
    let stale = try #require(json["stale"] as? [String: Any], "\(json)")
    #expect(stale["editedAfter"] as? Int == 1 && stale["capturedAfter"] as? Int == 0, "\(stale)")

    let insights = try cli.run(["insights"])
    #expect(insights.stdout.contains("1 knowledge item it carries was edited after it"), "\(insights.stdout)")
  }
}
