import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 29-b, 3: finishing an interrupted `erase --kind all` keeps the records stored since.
@Suite("erase --finish: an interrupted erase of everything is finished without erasing newer records", .serialized)
struct EraseFinishTests {
  static func sqlite3(_ workspace: URL, _ sql: String) throws -> String {
    try DurabilityReview29aTests.sqlite3(workspace, sql)
  }

  /// A workspace left as an `erase --kind all` killed right after its commit leaves it: the
  /// records gone, the marker the erase wrote set, the legacy `workspace.json` and its backup
  /// still there.
  struct Interrupted {
    var ws: URL
    var legacy: URL
    var backup: URL
  }

  static func interruptedErase(_ dir: TemporaryDirectory) throws -> Interrupted {
    let ws = try LegacyFirstWriteTests.legacyDirectory(dir)
    let legacy = ws.appendingPathComponent("workspace.json")
    let first = try runDolphin(["capture", "fact", "erased before the interruption", "--workspace", ws.path])
    try #require(first.status == 0, "\(first.stderr)")
    let backups = ws.appendingPathComponent("legacy-backups")
    let names = try FileManager.default.contentsOfDirectory(atPath: backups.path)
    try #require(names.count == 1, "the first write keeps a backup: \(names)")
    let backup = backups.appendingPathComponent(names[0])
    let aside = dir.appending("aside")
    try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: legacy, to: aside.appendingPathComponent("workspace.json"))
    try FileManager.default.copyItem(at: backup, to: aside.appendingPathComponent("backup"))
    // The marker as the erase writes it, in its own transaction, caught by a trigger of the test.
    _ = try sqlite3(
      ws,
      "CREATE TABLE seen(v TEXT); CREATE TRIGGER seen_marker AFTER INSERT ON meta WHEN new.key = 'eraseInterrupted' "
        + "BEGIN INSERT INTO seen VALUES (new.value); END;")
    let erase = try runDolphin(["erase", "--kind", "all", "--yes", "--workspace", ws.path])
    try #require(erase.status == 0, "\(erase.stdout)\(erase.stderr)")
    let marker = try sqlite3(ws, "SELECT v FROM seen")
    _ = try sqlite3(ws, "DROP TRIGGER seen_marker; DROP TABLE seen;")
    // The marker names the files the erase was to remove.
    let named = try JSONSerialization.jsonObject(with: Data(marker.utf8)) as? [String: Any]
    #expect(named?["files"] as? [String] == [backup.path, legacy.path], "\(marker)")
    try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.copyItem(at: aside.appendingPathComponent("workspace.json"), to: legacy)
    try FileManager.default.copyItem(at: aside.appendingPathComponent("backup"), to: backup)
    _ = try sqlite3(ws, "INSERT INTO meta(key, value) VALUES ('eraseInterrupted', '\(marker.replacingOccurrences(of: "'", with: "''"))')")
    return Interrupted(ws: ws, legacy: legacy, backup: backup)
  }

  @Test("records captured after the interruption survive `erase --finish`, the named files go, and doctor is healthy")
  func finishKeepsNewerRecords() throws {
    let dir = TemporaryDirectory("erase-finish")
    defer { dir.remove() }
    let state = try Self.interruptedErase(dir)
    let ws = state.ws
    // Stored since the interruption: a fact and a task.
    #expect(try runDolphin(["capture", "fact", "stored since the interruption", "--workspace", ws.path]).status == 0)
    #expect(try runDolphin(["task", "add", "a task stored since", "--workspace", ws.path]).status == 0)
    #expect(try Self.sqlite3(ws, "SELECT count(*) FROM knowledge") == "1")

    let doctor = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(doctor.status == 5, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Run `dolphin erase --finish --workspace \(ws.path)`"), "\(doctor.stdout)")

    // Without a terminal and without --yes: the plan, exit 1, nothing changed.
    let asked = try runDolphin(["erase", "--finish", "--workspace", ws.path])
    #expect(asked.status == 1, "\(asked.stdout)\(asked.stderr)")
    #expect(asked.stdout.contains("Plan to finish the interrupted erase of everything:"), "\(asked.stdout)")
    #expect(asked.stdout.contains("remove the file \(state.backup.path)"), "\(asked.stdout)")
    #expect(asked.stdout.contains("remove the file \(state.legacy.path)"), "\(asked.stdout)")
    #expect(asked.stderr.contains("finishing the interrupted erase needs confirmation"), "\(asked.stderr)")
    #expect(FileManager.default.fileExists(atPath: state.legacy.path))

    let finish = try runDolphin(["erase", "--finish", "--yes", "--json", "--workspace", ws.path])
    #expect(finish.status == 0, "\(finish.stdout)\(finish.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(finish.stdout.utf8)) as? [String: Any])
    #expect(report["removedFiles"] as? [String] == [state.legacy.path, state.backup.path], "\(finish.stdout)")
    #expect((report["removed"] as? [String: Any])?.isEmpty == true, "no record removed: \(finish.stdout)")
    #expect((report["changed"] as? [String: Int]) == ["clearEraseMarker": 1], "\(finish.stdout)")
    #expect((report["plan"] as? [String: Any])?["target"] as? String == "finishInterrupted")
    #expect(!FileManager.default.fileExists(atPath: state.legacy.path))
    #expect(!FileManager.default.fileExists(atPath: state.backup.path))
    #expect(try Self.sqlite3(ws, "SELECT title FROM knowledge") == "stored since the interruption")
    #expect(try Self.sqlite3(ws, "SELECT title FROM task") == "a task stored since")
    #expect(try Self.sqlite3(ws, "SELECT count(*) FROM meta WHERE key = 'eraseInterrupted'") == "0")
    let healthy = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(healthy.status == 0 && healthy.stdout.hasSuffix("Doctor: healthy.\n"), "\(healthy.stdout)")

    // Nothing left to finish: said, exit 0, nothing written.
    let again = try runDolphin(["erase", "--finish", "--workspace", ws.path])
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    #expect(again.stdout.contains("No erase was interrupted: there is nothing to finish, and nothing was changed."), "\(again.stdout)")
    #expect(try Self.sqlite3(ws, "SELECT count(*) FROM knowledge") == "1")
  }

  @Test("erase --finish removes only the files the marker names: a backup made since is kept")
  func finishKeepsFilesMadeSince() throws {
    let dir = TemporaryDirectory("erase-finish-kept")
    defer { dir.remove() }
    let state = try Self.interruptedErase(dir)
    let later = state.ws.appendingPathComponent("legacy-backups/later-import.json")
    try Data("{}".utf8).write(to: later)
    let finish = try runDolphin(["erase", "--finish", "--yes", "--workspace", state.ws.path])
    #expect(finish.status == 0, "\(finish.stdout)\(finish.stderr)")
    #expect(finish.stdout.contains("Finished the interrupted erase: removed 2 file(s) it left and cleared its marker; no record was touched."), "\(finish.stdout)")
    #expect(!FileManager.default.fileExists(atPath: state.backup.path))
    #expect(FileManager.default.fileExists(atPath: later.path), "not named by the marker")
  }

  @Test("erase --kind all while an erase is interrupted says how many records stored since it erases too")
  func wholeEraseNamesNewerRecords() throws {
    let dir = TemporaryDirectory("erase-all-since")
    defer { dir.remove() }
    let state = try Self.interruptedErase(dir)
    let ws = state.ws
    #expect(try runDolphin(["capture", "fact", "one", "--workspace", ws.path]).status == 0)
    #expect(try runDolphin(["capture", "fact", "two", "--workspace", ws.path]).status == 0)
    #expect(try runDolphin(["task", "add", "three", "--workspace", ws.path]).status == 0)
    let asked = try runDolphin(["erase", "--kind", "all", "--workspace", ws.path])
    #expect(asked.status == 1, "\(asked.stdout)\(asked.stderr)")
    #expect(
      asked.stdout.contains(
        "all 3 record(s) this erase removes were stored since then. To finish only that erase and keep them, run "
          + "`dolphin erase --finish --workspace \(ws.path)` instead."), "\(asked.stdout)")
    let json = try runDolphin(["erase", "--kind", "all", "--json", "--workspace", ws.path])
    #expect(json.status == 1)
    #expect(json.stdout.contains(#""storedSinceInterruptedErase" : 3"#), "\(json.stdout)")
    #expect(try Self.sqlite3(ws, "SELECT count(*) FROM knowledge") == "2", "nothing erased unconfirmed")
    // Confirmed, everything goes, the files too.
    let erase = try runDolphin(["erase", "--kind", "all", "--yes", "--workspace", ws.path])
    #expect(erase.status == 0, "\(erase.stdout)\(erase.stderr)")
    #expect(try Self.sqlite3(ws, "SELECT count(*) FROM knowledge") == "0")
    #expect(!FileManager.default.fileExists(atPath: state.legacy.path))
    // Without an interrupted erase, the plan says nothing of it.
    #expect(try runDolphin(["capture", "fact", "four", "--workspace", ws.path]).status == 0)
    let plain = try runDolphin(["erase", "--kind", "all", "--workspace", ws.path])
    #expect(!plain.stdout.contains("interrupted"), "\(plain.stdout)")
  }

  @Test("--finish with --kind is a usage error")
  func finishWithKind() throws {
    let dir = TemporaryDirectory("erase-finish-kind")
    defer { dir.remove() }
    let r = try runDolphin(["erase", "--finish", "--kind", "all", "--workspace", dir.appending("ws").path])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("--finish and --kind cannot be given together"), "\(r.stderr)")
  }
}
