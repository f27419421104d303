import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 29a (durability), end to end with the `dolphin` binary.
@Suite("review 29a: durability findings", .serialized)
struct DurabilityReview29aTests {
  @Test("review 29a, 9: status and doctor show a workspace path holding a line break on one line, escaped")
  func pathWithLineBreak() throws {
    let home = TemporaryDirectory("r29a-path")
    defer { home.remove() }
    let workspace = home.appending("new\nline").path
    let capture = try runDolphin(["capture", "fact", "a fact", "--workspace", workspace])
    #expect(capture.status == 0, "\(capture.stderr)")
    let status = try runDolphin(["status", "--workspace", workspace])
    #expect(status.status == 0, "\(status.stderr)")
    let escaped = workspace.replacingOccurrences(of: "\n", with: "\\n")
    #expect(status.stdout.contains("Workspace: \(escaped)\n"), "\(status.stdout)")
    #expect(status.stdout.contains("Database:  \(escaped)/workspace.sqlite\n"), "\(status.stdout)")
    // The suggested commands keep the path as one shell word, quoted in ANSI-C quotes on one
    // line (review 29-b, 6): pasted into bash, they name it.
    #expect(status.stdout.contains("--workspace $'\(escaped)'"), "\(status.stdout)")
    let doctor = try runDolphin(["doctor", "--workspace", workspace])
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stdout.contains("Database: \(escaped)/workspace.sqlite\n"), "\(doctor.stdout)")
    // JSON keeps the path as it is.
    let json = try runDolphin(["status", "--json", "--workspace", workspace])
    #expect(json.stdout.contains(#"new\nline"#), "\(json.stdout)")
  }

  /// Runs `sql` on the workspace database with the `sqlite3` program.
  static func sqlite3(_ workspace: URL, _ sql: String) throws -> String {
    let r = try runProcess("/usr/bin/env", ["sqlite3", workspace.appendingPathComponent("workspace.sqlite").path, sql])
    try #require(r.status == 0, "sqlite3 is needed: \(sql): \(r.stderr)")
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test("review 29a, 2: an erase --kind all interrupted before it removed the legacy files is reported by doctor, and running it again finishes it")
  func interruptedEraseAll() throws {
    let dir = TemporaryDirectory("r29a-erase")
    defer { dir.remove() }
    let ws = try LegacyFirstWriteTests.legacyDirectory(dir)
    let legacy = ws.appendingPathComponent("workspace.json")
    let first = try runDolphin(["capture", "fact", "first", "--workspace", ws.path])
    #expect(first.status == 0, "\(first.stderr)")
    let backups = ws.appendingPathComponent("legacy-backups")
    let backupNames = try FileManager.default.contentsOfDirectory(atPath: backups.path)
    try #require(backupNames.count == 1, "the first write keeps a backup: \(backupNames)")
    let backup = backups.appendingPathComponent(backupNames[0])
    let aside = dir.appending("aside")
    try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: legacy, to: aside.appendingPathComponent("workspace.json"))
    try FileManager.default.copyItem(at: backup, to: aside.appendingPathComponent("backup"))

    // The marker is written in the erase's own transaction: a trigger of the test sees it.
    _ = try Self.sqlite3(
      ws,
      "CREATE TABLE seen(k TEXT); CREATE TRIGGER seen_marker AFTER INSERT ON meta WHEN new.key = 'eraseInterrupted' "
        + "BEGIN INSERT INTO seen VALUES (new.key); END;")
    let erase = try runDolphin(["erase", "--kind", "all", "--yes", "--workspace", ws.path])
    #expect(erase.status == 0, "\(erase.stdout)\(erase.stderr)")
    #expect(try Self.sqlite3(ws, "SELECT count(*) FROM seen") == "1", "the erase set the marker")
    #expect(try Self.sqlite3(ws, "SELECT count(*) FROM meta WHERE key = 'eraseInterrupted'") == "0", "and cleared it")
    _ = try Self.sqlite3(ws, "DROP TRIGGER seen_marker; DROP TABLE seen;")
    #expect(!FileManager.default.fileExists(atPath: legacy.path) && !FileManager.default.fileExists(atPath: backup.path))

    // The state an erase killed right after its commit leaves: the records and the record of
    // the import are gone, the marker is set, the legacy files are still there.
    try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.copyItem(at: aside.appendingPathComponent("workspace.json"), to: legacy)
    try FileManager.default.copyItem(at: aside.appendingPathComponent("backup"), to: backup)
    _ = try Self.sqlite3(ws, "INSERT INTO meta(key, value) VALUES ('eraseInterrupted', '2025-03-01T00:00:00.000Z')")

    let doctor = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(doctor.status == 5, "was healthy before the fix: \(doctor.stdout)")
    let w: String = ws.path
    var advice: String = "An erase of everything (`dolphin erase --kind all --workspace \(w)`) was interrupted after it erased the "
    advice += "records and before it removed these files, which still hold erased data: \(backup.path), \(legacy.path). "
    advice += "Nothing was changed. Run `dolphin erase --finish --workspace \(w)`: it removes them and touches no record, "
    advice += "so records stored since the interruption stay (`dolphin erase --kind all --workspace \(w)` would erase those too)."
    #expect(doctor.stdout.contains(advice), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Erase: interrupted; 2 file(s) still hold erased data"), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("--again"), "no advice to import the erased data again: \(doctor.stdout)")
    #expect(doctor.stdout.hasSuffix("Doctor: problems found.\n"), "\(doctor.stdout)")
    let json = try runDolphin(["doctor", "--json", "--workspace", ws.path])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(report["interruptedErase"] as? [String] == [backup.path, legacy.path], "\(json.stdout)")
    #expect(report["legacyFile"] is NSNull, "\(json.stdout)")
    #expect(report["ok"] as? Bool == false)

    // Another command says what the file is, and does not import it.
    let status = try runDolphin(["capture", "fact", "meanwhile", "--workspace", ws.path])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stderr.contains("holds data that an interrupted `dolphin erase --kind all` erased"), "\(status.stderr)")
    #expect(!status.stderr.contains("--again"), "\(status.stderr)")
    #expect(try Self.sqlite3(ws, "SELECT count(*) FROM memory") == "0", "nothing of the file was imported again")

    // The whole erase run again finishes it too (erasing what was stored since), and doctor is healthy.
    let again = try runDolphin(["erase", "--kind", "all", "--yes", "--workspace", ws.path])
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    #expect(!FileManager.default.fileExists(atPath: legacy.path) && !FileManager.default.fileExists(atPath: backup.path))
    #expect(try Self.sqlite3(ws, "SELECT count(*) FROM meta WHERE key = 'eraseInterrupted'") == "0")
    let healthy = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(healthy.status == 0 && healthy.stdout.hasSuffix("Doctor: healthy.\n"), "\(healthy.stdout)")
  }
}
