import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 26-a, 1 and 2: a `workspace.json` left in the workspace directory that changed after its
/// import (the old app saved it again), was damaged or emptied, refused every later write with
/// "already exists" or "not valid JSON"; and `migrate` of a file whose records came back through
/// an export was refused, `--again` included.
@Suite("A changed, damaged or restored legacy file blocks no write", .serialized)
struct LegacyChangedFileTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy")

  /// A workspace directory holding the v4 fixture as `workspace.json`, imported by a first capture.
  static func importedWorkspace(_ dir: TemporaryDirectory) throws -> URL {
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("workspace-v4.json"), to: ws.appendingPathComponent("workspace.json"))
    let first = try runDolphin(["capture", "fact", "first", "--workspace", ws.path])
    #expect(first.status == 0 && first.stderr.contains("notice: imported legacy workspace.json (schema v4): 2 conversations"), "\(first.stderr)")
    return ws
  }

  static func count(_ ws: URL, _ args: [String], _ key: String) throws -> Int {
    let r = try runDolphin(args + ["--json", "--workspace", ws.path])
    let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    return (object?[key] as? [Any])?.count ?? -1
  }

  @Test("a file changed after its import: the write goes on, nothing comes back by itself (review 26-b, 1); migrate --again, asked for, imports what is missing")
  func changedAfterImport() throws {
    let dir = TemporaryDirectory("legacy-changed")
    defer { dir.remove() }
    let ws = try Self.importedWorkspace(dir)
    let file = ws.appendingPathComponent("workspace.json")
    // Erased since: must stay gone when the old app saves the file again.
    #expect(try runDolphin(["erase", "--kind", "memories", "--yes", "--workspace", ws.path]).status == 0)
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    var tasks = try #require(object["tasks"] as? [[String: Any]])
    var added = try #require(tasks.first)
    added["id"] = "6D5E3B41-0C2A-4D1E-9F8B-7A6C5D4E3F21"
    added["title"] = "Added by the app after the import"
    tasks.append(added)
    object["tasks"] = tasks
    try JSONSerialization.data(withJSONObject: object).write(to: file)
    let second = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stderr.contains("so it is not imported again by itself"), "\(second.stderr)")
    #expect(try Self.count(ws, ["memory", "list"], "memories") == 0)
    #expect(try Self.count(ws, ["task", "list"], "tasks") == 3)
    let again = try runDolphin(["migrate", file.path, "--again", "--workspace", ws.path])
    #expect(again.status == 0 && again.stdout.contains("3 memories, 1 tasks"), "\(again.stdout)\(again.stderr)")
  }

  @Test("a damaged or emptied workspace.json is named in a notice and the write goes on", arguments: ["truncated", "empty"])
  func damaged(_ how: String) throws {
    let dir = TemporaryDirectory("legacy-damaged")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let first = try runDolphin(["capture", "fact", "first", "--workspace", ws.path])
    #expect(first.status == 0, "\(first.stderr)")
    let file = ws.appendingPathComponent("workspace.json")
    if how == "empty" {
      try Data().write(to: file)
    } else {
      try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("workspace-v3-truncated.json"), to: file)
    }
    let before = try Data(contentsOf: file)
    let second = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stderr.contains("notice: the legacy workspace.json in the workspace directory was not imported: "), "\(second.stderr)")
    #expect(second.stderr.contains("The command went on without it"), "\(second.stderr)")
    #expect(try Self.count(ws, ["knowledge", "list"], "items") == 2)
    #expect(try Data(contentsOf: file) == before)
    // Doctor names it (a note: the workspace itself is healthy).
    let doctor = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(doctor.status == 0, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Legacy workspace.json: cannot be imported (not a problem of the workspace"), "\(doctor.stdout)")
    let json = try runDolphin(["doctor", "--json", "--workspace", ws.path])
    let legacy = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["legacyFile"] as? [String: Any])
    #expect(legacy["state"] as? String == "notImportable")
    #expect((legacy["reason"] as? String)?.contains(file.path) == true)
  }

  @Test("doctor says whether workspace.json is pending, then imported; without one, legacyFile is null")
  func doctorStates() throws {
    let dir = TemporaryDirectory("legacy-doctor")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    #expect(try runDolphin(["capture", "fact", "first", "--workspace", ws.path]).status == 0)
    let none = try runDolphin(["doctor", "--json", "--workspace", ws.path])
    #expect((try JSONSerialization.jsonObject(with: Data(none.stdout.utf8)) as? [String: Any])?["legacyFile"] is NSNull)
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: ws.appendingPathComponent("workspace.json"))
    let pending = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(pending.status == 0 && pending.stdout.contains("Legacy workspace.json: not imported yet"), "\(pending.stdout)")
    #expect(try runDolphin(["capture", "fact", "second", "--workspace", ws.path]).status == 0)
    let imported = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(imported.status == 0 && imported.stdout.contains("Legacy workspace.json: imported on "), "\(imported.stdout)")
  }

  @Test("a brand-new directory with a damaged workspace.json: the first capture creates the workspace and says why nothing was imported")
  func damagedInNewDirectory() throws {
    let dir = TemporaryDirectory("legacy-damaged-new")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v3-truncated.json"), to: ws.appendingPathComponent("workspace.json"))
    let r = try runDolphin(["capture", "fact", "first", "--workspace", ws.path])
    #expect(r.status == 0 && r.stderr.contains("is not valid JSON"), "\(r.stderr)")
    #expect(try Self.count(ws, ["knowledge", "list"], "items") == 1)
  }

  @Test("an import that fails inside the write (no room for its backup) is rolled back alone; the capture is stored")
  func failedImportRolledBackAlone() throws {
    let dir = TemporaryDirectory("legacy-savepoint")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    #expect(try runDolphin(["capture", "fact", "first", "--workspace", ws.path]).status == 0)
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: ws.appendingPathComponent("workspace.json"))
    // A file where the backup directory goes: the backup, the import's last step, fails.
    try Data("not a directory".utf8).write(to: ws.appendingPathComponent("legacy-backups"))
    let r = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("was not imported") && !r.stderr.contains("imported legacy"), "\(r.stderr)")
    #expect(try Self.count(ws, ["knowledge", "list"], "items") == 2)
    #expect(try Self.count(ws, ["task", "list"], "tasks") == 0)
    #expect(try Self.count(ws, ["memory", "list"], "memories") == 0)
  }

  @Test("migrate of a file whose records came back through an export: refused with the way out; --again imports what is missing")
  func migrateAfterRestore() throws {
    let dir = TemporaryDirectory("legacy-restored")
    defer { dir.remove() }
    let file = Self.fixtures.appendingPathComponent("workspace-v4.json").path
    let first = dir.appending("first"), second = dir.appending("second"), export = dir.appending("export.json")
    #expect(try runDolphin(["migrate", file, "--workspace", first.path]).status == 0)
    #expect(try runDolphin(["export", "--output", export.path, "--workspace", first.path]).status == 0)
    #expect(try runDolphin(["import", export.path, "--workspace", second.path]).status == 0)
    let refused = try runDolphin(["migrate", file, "--workspace", second.path])
    #expect(refused.status == 4, "\(refused.stderr)")
    #expect(refused.stderr.contains("already exists; this workspace already holds records of this file"), "\(refused.stderr)")
    #expect(refused.stderr.contains("`dolphin migrate \(file) --again --workspace \(second.path)` imports only those it does not hold"), "\(refused.stderr)")
    // One task removed since: --again brings it back and leaves the rest.
    let tasks = try #require(
      try JSONSerialization.jsonObject(with: Data(runDolphin(["task", "list", "--json", "--workspace", second.path]).stdout.utf8))
        as? [String: Any])
    let taskID = try #require(((tasks["tasks"] as? [[String: Any]])?.first?["id"]) as? String)
    #expect(try runDolphin(["task", "delete", taskID, "--yes", "--workspace", second.path]).status == 0)
    let again = try runDolphin(["migrate", file, "--again", "--workspace", second.path])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("0 conversations, 0 messages, 0 memories, 1 tasks"), "\(again.stdout)")
    #expect(again.stdout.contains("Held already, left as they are: 2 conversations, 5 messages, 3 memories, 2 tasks"), "\(again.stdout)")
    #expect(again.stdout.contains("The workspace's own settings were kept"), "\(again.stdout)")
    #expect(try Self.count(second, ["task", "list"], "tasks") == 3)
    // Recorded now: migrate without --again says it was imported before.
    let once = try runDolphin(["migrate", file, "--workspace", second.path])
    #expect(once.status == 0 && once.stdout.contains("was imported before"), "\(once.stdout)")
  }
}
