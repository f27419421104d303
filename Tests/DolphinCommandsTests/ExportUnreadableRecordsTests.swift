import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 29-a, 8: one row whose JSON another program broke made every export fail.
@Suite("export salvages records it cannot decode; import keeps them aside", .serialized)
struct ExportUnreadableRecordsTests {
  static func sqlite3(_ workspace: URL, _ sql: String) throws -> String {
    try DurabilityReview29aTests.sqlite3(workspace, sql)
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  @Test("every readable record is exported, the corrupted ones as stored, exit 6; an import restores the good ones intact")
  func salvageAndRestore() throws {
    let dir = TemporaryDirectory("export-unreadable")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    for (kind, title) in [("fact", "first fact"), ("decision", "second, damaged"), ("goal", "third goal")] {
      let r = try runDolphin(["capture", kind, title, "--content", "about \(title)", "--tags", "alpha,beta", "--workspace", ws.path])
      try #require(r.status == 0, "\(r.stderr)")
    }
    for title in ["kept task", "damaged task"] {
      try #require(try runDolphin(["task", "add", title, "--workspace", ws.path]).status == 0)
    }
    let damagedItem = try Self.sqlite3(ws, "SELECT id FROM knowledge WHERE title = 'second, damaged'")
    let damagedTask = try Self.sqlite3(ws, "SELECT id FROM task WHERE title = 'damaged task'")
    // Rows edited outside dolphin: a JSON column that no longer parses, a status no build knows.
    _ = try Self.sqlite3(ws, "UPDATE knowledge SET tags = '[\"alpha\", oops' WHERE id = '\(damagedItem)'")
    _ = try Self.sqlite3(ws, "UPDATE task SET status = 'blocked' WHERE id = '\(damagedTask)'")

    let file = dir.appending("export.json")
    let export = try runDolphin(["export", "--output", file.path, "--workspace", ws.path])
    #expect(export.status == 6, "was exit 5 and no file: \(export.stdout)\(export.stderr)")
    #expect(
      export.stderr.contains(
        "2 stored record(s) could not be decoded (knowledge \(damagedItem): knowledge.tags holds malformed JSON: [\"alpha\", oops; "
          + "task \(damagedTask): task.status holds an unknown value \"blocked\")"), "\(export.stderr)")
    #expect(export.stderr.contains("`unreadable` section"), "\(export.stderr)")
    #expect(export.stdout.contains("2 knowledge, 0 memories, 1 tasks"), "\(export.stdout)")
    #expect(export.stdout.contains("2 unreadable record(s) written as stored"), "\(export.stdout)")
    let document = try Self.json(String(decoding: try Data(contentsOf: file), as: UTF8.self))
    let workspace = try #require(document["workspace"] as? [String: Any])
    let knowledge = try #require(workspace["knowledge"] as? [[String: Any]])
    #expect(Set(knowledge.compactMap { $0["title"] as? String }) == ["first fact", "third goal"])
    #expect((workspace["tasks"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["kept task"])
    let unreadable = try #require(document["unreadable"] as? [[String: Any]])
    #expect(unreadable.map { "\($0["table"] ?? "") \($0["id"] ?? "")" } == ["knowledge \(damagedItem)", "task \(damagedTask)"])
    let item = try #require(unreadable.first?["columns"] as? [String: Any])
    #expect(item["tags"] as? String == "[\"alpha\", oops")
    #expect(item["title"] as? String == "second, damaged")
    #expect(item["content"] as? String == "about second, damaged")
    #expect((unreadable.last?["columns"] as? [String: Any])?["status"] as? String == "blocked")

    // --json names them and the exit code; standard output carries the same document.
    let jsonRun = try runDolphin(["export", "--output", dir.appending("e2.json").path, "--json", "--workspace", ws.path])
    #expect(jsonRun.status == 6, "\(jsonRun.stderr)")
    let out = try Self.json(jsonRun.stdout)
    #expect((out["unreadable"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [damagedItem, damagedTask])
    #expect((out["error"] as? [String: Any])?["exitCode"] as? Int == 6, "\(jsonRun.stdout)")
    #expect((out["error"] as? [String: Any])?["kind"] as? String == "partial", "\(jsonRun.stdout)")
    let toStdout = try runDolphin(["export", "--workspace", ws.path])
    #expect(toStdout.status == 6)
    #expect((try Self.json(toStdout.stdout)["unreadable"] as? [Any])?.count == 2)
    #expect(try runDolphin(["export", "--format", "markdown", "--workspace", ws.path]).stdout.contains("## Unreadable records (2)"))
    #expect(try runDolphin(["export", "--help"]).stdout.contains("exit code is\n6"), "documented in --help")

    // A restore into an empty workspace: the good records exactly, the others kept aside.
    let restored = dir.appending("restored")
    let importRun = try runDolphin(["import", file.path, "--yes", "--workspace", restored.path])
    #expect(importRun.status == 0, "\(importRun.stdout)\(importRun.stderr)")
    #expect(importRun.stdout.contains("restore of every readable record; 2 unreadable record(s) kept aside"), "\(importRun.stdout)")
    #expect(importRun.stdout.contains("2 record(s) of the file's `unreadable` section"), "\(importRun.stdout)")
    let again = try runDolphin(["export", "--workspace", restored.path])
    #expect(again.status == 0, "the restored workspace reads whole: \(again.stderr)")
    let restoredWorkspace = try #require(try Self.json(again.stdout)["workspace"] as? [String: Any])
    let original = try JSONSerialization.data(withJSONObject: knowledge, options: [.sortedKeys])
    let roundTripped = try JSONSerialization.data(withJSONObject: restoredWorkspace["knowledge"] ?? [], options: [.sortedKeys])
    #expect(original == roundTripped, "the readable items come back unchanged")
    let quarantine = try #require(try Self.json(again.stdout)["quarantine"] as? [[String: Any]])
    #expect(quarantine.compactMap { $0["collection"] as? String } == ["knowledge", "tasks"])
    #expect((quarantine.first?["raw"] as? String)?.contains("oops") == true, "kept verbatim: \(quarantine)")
    // The same file again: the entries are there already, nothing is added twice.
    let twice = try runDolphin(["import", file.path, "--yes", "--on-conflict", "skip", "--workspace", restored.path])
    #expect(twice.status == 0, "\(twice.stdout)\(twice.stderr)")
    #expect(twice.stdout.contains("quarantine: 0 new, 2 already present"), "\(twice.stdout)")
  }

  @Test("a value no other check names (a date that is not a date) is a problem for doctor, and export carries its record")
  func malformedDate() throws {
    let dir = TemporaryDirectory("export-unreadable-date")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try #require(try runDolphin(["capture", "fact", "dated", "--workspace", ws.path]).status == 0)
    try #require(try runDolphin(["capture", "fact", "kept", "--workspace", ws.path]).status == 0)
    let id = try Self.sqlite3(ws, "SELECT id FROM knowledge WHERE title = 'dated'")
    _ = try Self.sqlite3(ws, "UPDATE knowledge SET created_at = 'yesterday' WHERE id = '\(id)'")
    let named = "knowledge \(id): knowledge.created_at holds a malformed date \"yesterday\""
    let doctor = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(doctor.status == 5, "the export doctor reads no longer stops here: \(doctor.stdout)")
    #expect(doctor.stdout.contains("Unreadable values: 1 record(s) cannot be decoded:\n  - \(named)\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("a date as 2026-11-29T18:19:32.000Z"), "\(doctor.stdout)")
    #expect(doctor.stdout.hasSuffix("Doctor: problems found.\n"), "\(doctor.stdout)")
    let json = try Self.json(try runDolphin(["doctor", "--json", "--workspace", ws.path]).stdout)
    #expect(json["unreadableRecords"] as? [String] == [named])
    let export = try runDolphin(["export", "--workspace", ws.path])
    #expect(export.status == 6 && export.stderr.contains(named), "\(export.stderr)")
    let workspace = try #require(try Self.json(export.stdout)["workspace"] as? [String: Any])
    #expect((workspace["knowledge"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["kept"])
    // Repaired as doctor says, the workspace is healthy again.
    _ = try Self.sqlite3(ws, "UPDATE knowledge SET created_at = '2026-11-29T18:19:32.000Z' WHERE id = '\(id)'")
    let healthy = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(healthy.status == 0, "\(healthy.stdout)")
  }
}
