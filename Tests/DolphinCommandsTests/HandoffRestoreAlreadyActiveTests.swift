import Foundation
import Testing
import TestSupport

/// Review 31-a, 8: `dolphin handoff restore latest` run twice printed `Continuity brief — handoff
/// … is now active` both times, and `--json` had no member saying that nothing changed, while MCP
/// `handoff_restore` and `ask /restore` said "It was the active handoff already; nothing
/// changed." The CLI now says the same, and `--json` carries `changed` as `handoff deactivate
/// --json` does.
@Suite("dolphin handoff restore: the handoff active already", .serialized)
struct HandoffRestoreAlreadyActiveTests {
  @Test("restoring the active handoff again says that nothing changed, in text and in --json")
  func restoredTwice() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let created = try cli.json(["handoff", "create", "--focus", "Storage layer"])
    let h = try #require((created["handoff"] as? [String: Any])?["id"] as? String)

    let first = try cli.run(["handoff", "restore", "latest"])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.hasPrefix("Continuity brief — handoff \(h) is now active\n"), "\(first.stdout)")
    #expect(first.stdout.contains("Restoring only marked this handoff active."), "\(first.stdout)")
    #expect(!first.stdout.contains("nothing changed"), "\(first.stdout)")

    let second = try cli.run(["handoff", "restore", "latest"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(
      second.stdout.hasPrefix("Continuity brief — handoff \(h) was the active handoff already; nothing changed\n"),
      "\(second.stdout)")
    #expect(!second.stdout.contains("is now active"), "\(second.stdout)")
    #expect(!second.stdout.contains("Restoring only marked this handoff active."), "\(second.stdout)")
    #expect(
      second.stdout.hasSuffix(
        "It was the active handoff already; nothing changed. Nothing was re-run, no approval was reused, no task was "
          + "completed, and nothing here claims that work was done.\n"), "\(second.stdout)")

    let json = try cli.json(["handoff", "restore", h])
    #expect(json["changed"] as? Bool == false, "\(json)")
    #expect((json["notice"] as? String)?.hasPrefix("It was the active handoff already; nothing changed.") == true, "\(json)")
    #expect(json["previouslyActiveID"] == nil, "\(json)")

    // Another handoff made active, then this one restored: changed, naming the one before.
    let other = try #require(
      (try cli.json(["handoff", "create", "--focus", "Search ranking", "--activate"])["handoff"] as? [String: Any])?["id"] as? String)
    let back = try cli.json(["handoff", "restore", h])
    #expect(back["changed"] as? Bool == true, "\(back)")
    #expect(back["previouslyActiveID"] as? String == other, "\(back)")
    #expect((back["notice"] as? String)?.hasPrefix("Restoring only marked this handoff active.") == true, "\(back)")
    #expect(try cli.json(["handoff", "list"])["activeHandoffID"] as? String == h)
  }
}
