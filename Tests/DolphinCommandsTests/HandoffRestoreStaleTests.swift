import Foundation
import Testing
import TestSupport

/// Open point (s22): `handoff_restore` over MCP said when the restored handoff may be stale and
/// what clears it, while `dolphin handoff restore` restored the same handoff without a word of
/// it. The CLI's brief now ends with the same advice in its own commands, and `--json` carries
/// it as `stale`.
@Suite("dolphin handoff restore: the stale-handoff advice", .serialized)
struct HandoffRestoreStaleTests {
  static func handoffID(_ created: [String: Any]) throws -> String {
    try #require((created["handoff"] as? [String: Any])?["id"] as? String)
  }

  @Test("a fresh handoff: no stale line, no stale member")
  func fresh() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.json(["capture", "decision", "Use SQLite", "--content", "WAL mode."])
    let h = try Self.handoffID(cli.json(["handoff", "create", "--focus", "Storage layer"]))
    let restore = try cli.run(["handoff", "restore", h])
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(!restore.stdout.contains("May be stale"), "\(restore.stdout)")
    let json = try cli.json(["handoff", "restore", h])
    #expect(json["stale"] == nil, "\(json)")
    #expect((json["handoff"] as? [String: Any])?["id"] as? String == h, "the brief's own members are kept")
  }

  @Test("knowledge captured after it: the reason and what clears it, in text and in --json")
  func capturedAfter() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let h = try Self.handoffID(cli.json(["handoff", "create", "--focus", "Storage layer"]))
    _ = try cli.json(["capture", "fact", "The CI runner has 2 cores"])
    let advice = "create a new handoff and mark it active (`dolphin handoff create --focus TEXT --activate --workspace \(cli.workspace)`) "
      + "or deactivate this one (`dolphin handoff deactivate --workspace \(cli.workspace)`)."
    let restore = try cli.run(["handoff", "restore", h])
    #expect(restore.status == 0, "\(restore.stderr)")
    let lines = restore.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "May be stale (rule stale-handoff, priority normal): 1 knowledge item was captured after it; to clear it, " + advice),
      "\(restore.stdout)")
    // Before the closing notice, after the lists.
    let staleAt = try #require(lines.firstIndex { $0.hasPrefix("May be stale") })
    #expect(lines.firstIndex { $0.hasPrefix("Knowledge captured since") }.map { $0 < staleAt } == true)
    let json = try cli.json(["handoff", "restore", h])
    let stale = try #require(json["stale"] as? [String: Any], "\(json)")
    #expect(stale["handoffID"] as? String == h)
    #expect(stale["capturedAfter"] as? Int == 1)
    #expect(stale["isOld"] as? Bool == false)
    #expect(stale["priority"] as? String == "normal")
    #expect(stale["remedy"] as? String == "createActive")
    #expect(stale["reason"] as? String == "1 knowledge item was captured after it")
    #expect(stale["advice"] as? String == advice)
    #expect(json["capturedSinceTotal"] as? Int == 1, "the brief's own members are kept")
  }

  @Test("older than 14 days, followed by captures and a newer handoff: priority high, restore the newer one")
  func oldWithNewer() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let old = try Self.handoffID(cli.json(["handoff", "create", "--focus", "Storage layer"]))
    _ = try cli.json(["capture", "fact", "The CI runner has 2 cores"])
    // Made after the capture, so not stale itself: the one to restore (review 31-a, 6).
    let newer = try Self.handoffID(cli.json(["handoff", "create", "--focus", "Search ranking"]))
    let edit = try runProcess(
      "/usr/bin/env",
      [
        "sqlite3", cli.workspace + "/workspace.sqlite",
        "UPDATE handoff SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-20 days') WHERE id = '\(old)'",
      ])
    #expect(edit.status == 0, "\(edit.stderr)")
    let restore = try cli.run(["handoff", "restore", old])
    #expect(restore.status == 0, "\(restore.stderr)")
    let line = try #require(restore.stdout.split(separator: "\n").first { $0.hasPrefix("May be stale") }, "\(restore.stdout)")
    #expect(line.hasPrefix("May be stale (rule stale-handoff, priority high): it is "), "\(line)")
    #expect(line.contains(" 20 days old (older than 14 days) and 1 knowledge item"), "\(line)")
    #expect(line.contains("was captured after it; to clear it, "), "\(line)")
    #expect(
      line.hasSuffix(
        "restore the newer handoff \"Search ranking\" (id \(newer): `dolphin handoff restore \(newer) --workspace \(cli.workspace)`) "
          + "or deactivate this one (`dolphin handoff deactivate --workspace \(cli.workspace)`)."), "\(line)")
    let stale = try #require(try cli.json(["handoff", "restore", old])["stale"] as? [String: Any])
    #expect(stale["isOld"] as? Bool == true && stale["priority"] as? String == "high")
    #expect(stale["remedy"] as? String == "restoreNewer" && stale["newerHandoffID"] as? String == newer)
    #expect((stale["advice"] as? String)?.contains("`dolphin handoff restore \(newer) --workspace \(cli.workspace)`") == true)
  }
}
