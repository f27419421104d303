import Foundation
import Testing
import TestSupport

/// Review 19-c, findings 9 and 13, as reproduced: merging an older export brought a deleted
/// item back with the plan only counting it; the `refuse` plan promised a digest; the conflict
/// error called an edited copy "a different record"; `skip` counted the active-handoff marker as
/// a kept record.
@Suite("dolphin import: what a merge adds, refuses and keeps", .serialized)
struct ImportMergePlanCommandTests {
  static func id(_ object: [String: Any]) throws -> String {
    try #require((object["item"] as? [String: Any])?["id"] as? String)
  }

  @Test("a record deleted since the export is named in the plan (text and --json) before it comes back")
  func deletedRecordNamed() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let gone = try Self.id(try cli.json(["capture", "fact", "Staging DB host is db-staging.internal"]))
    _ = try cli.json(["capture", "decision", "Use SQLite"])
    let file = cli.dir.appending("old.json").path
    #expect(try cli.run(["export", "--output", file]).status == 0)
    #expect(try cli.run(["knowledge", "delete", gone, "--yes"]).status == 0)

    let dry = try cli.run(["import", file, "--on-conflict", "skip", "--dry-run"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(
      dry.stdout.contains(
        "\n  New knowledge, memories, tasks and handoffs (1; not in this workspace, so any deleted here since the export "
          + "come back):\n    - knowledge \(gone) \"Staging DB host is db-staging.internal\"\n"), "\(dry.stdout)")
    let json = try cli.json(["import", file, "--on-conflict", "skip", "--dry-run"])
    let new = try #require((json["plan"] as? [String: Any])?["newRecords"] as? [String: Any], "\(json)")
    #expect(new["count"] as? Int == 1)
    let records = try #require(new["records"] as? [[String: Any]])
    #expect(records.map { $0["id"] as? String } == [gone])
    #expect(records.first?["collection"] as? String == "knowledge")
    #expect(records.first?["title"] as? String == "Staging DB host is db-staging.internal")

    // Into an empty workspace it is a restore: nothing is called new by name.
    let restore = try runDolphin(["import", file, "--dry-run", "--json", "--workspace", cli.dir.appending("fresh").path])
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(!restore.stdout.contains("newRecords"), "\(restore.stdout)")
  }

  @Test("the text plan names 20 new records and counts the rest")
  func twentyShown() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let file = cli.dir.appending("tasks.json").path
    for i in 1...23 { #expect(try cli.run(["task", "add", "Task \(i)"]).status == 0) }
    #expect(try cli.run(["export", "--output", file]).status == 0)
    #expect(try cli.run(["erase", "--kind", "tasks", "--yes"]).status == 0)
    _ = try cli.json(["capture", "fact", "Keeps the workspace non-empty"])
    let r = try cli.run(["import", file, "--dry-run"])
    #expect(r.stdout.contains("New knowledge, memories, tasks and handoffs (23; "), "\(r.stdout)")
    #expect(r.stdout.components(separatedBy: "\n    - tasks ").count - 1 == 20, "\(r.stdout)")
    #expect(r.stdout.contains("\n    … and 3 more\n"), "\(r.stdout)")
  }

  @Test("refuse: 'nothing will be imported' is not followed by a digest; the error says same id, different content")
  func refuseWording() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let gone = try Self.id(try cli.json(["capture", "fact", "Deleted later"]))
    let edited = try Self.id(try cli.json(["capture", "decision", "Use SQLite"]))
    let file = cli.dir.appending("old.json").path
    #expect(try cli.run(["export", "--output", file]).status == 0)
    #expect(try cli.run(["knowledge", "delete", gone, "--yes"]).status == 0)
    #expect(try cli.run(["knowledge", "edit", edited, "--title", "Use SQLite 3"]).status == 0)

    let refused = try cli.run(["import", file])
    #expect(refused.status == 4)
    #expect(refused.stdout.hasSuffix("  On conflict: refuse — nothing will be imported.\n"), "\(refused.stdout)")
    #expect(!refused.stdout.contains("digest will be stored"), "\(refused.stdout)")
    #expect(
      refused.stderr.contains(
        "1 record(s) have the same id as a record in this workspace, with different content: knowledge \(edited) "
          + "(title, updatedAt and revision differ). Nothing was imported."), "\(refused.stderr)")
    let json = try cli.run(["import", file, "--json"])
    let plan = try #require(
      ((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])?["plan"]
        as? [String: Any], "\(json.stdout)")
    #expect(plan["storesDigest"] as? Bool == false)
    // skip does store one, and says so.
    #expect(try cli.run(["import", file, "--on-conflict", "skip", "--dry-run"]).stdout.contains("One rule-based digest will be stored at the end."))
  }

  @Test("skip over a different active handoff keeps it and says so, without calling it a record")
  func skipKeepsActiveHandoff() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let first = try #require((try cli.json(["handoff", "create", "--focus", "First"])["handoff"] as? [String: Any])?["id"] as? String)
    let second = try #require((try cli.json(["handoff", "create", "--focus", "Second"])["handoff"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["handoff", "restore", first]).status == 0)
    let exported = try cli.run(["export"])
    #expect(exported.status == 0)
    let file = cli.dir.appending("other-active.json")
    try Data(exported.stdout.replacingOccurrences(of: "\"activeHandoffID\" : \"\(first)\"", with: "\"activeHandoffID\" : \"\(second)\"").utf8)
      .write(to: file)

    let plan = try cli.run(["import", file.path, "--dry-run"])
    #expect(
      plan.stdout.contains(
        "  Conflicts (1) — the file marks another handoff active:\n    - activeHandoffID \(second) (the file marks this handoff "
          + "active, this workspace another)\n"), "\(plan.stdout)")
    let r = try cli.run(["import", file.path, "--on-conflict", "skip"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Imported 0 record(s); kept this workspace's active handoff (the file marks another one active).\n"), "\(r.stdout)")
    #expect(!r.stdout.contains("conflicting record"), "\(r.stdout)")
    let json = try cli.json(["import", file.path, "--on-conflict", "skip"])
    #expect(json["skipped"] as? Int == 0 && json["keptActiveHandoff"] as? Bool == true, "\(json)")
  }
}
