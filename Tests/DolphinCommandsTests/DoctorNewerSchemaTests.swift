import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 22 (2): on a workspace whose schema is newer than this build, `doctor` printed "The
/// database is newer than this build … It was not modified." then "Doctor: healthy." (exit 0,
/// `--json` ok true), while every write there fails with exit 5. It names what this build cannot
/// do now, and exits 5 as README's exit codes say for a newer-schema workspace.
@Suite("doctor on a newer-schema workspace", .serialized)
struct DoctorNewerSchemaTests {
  @Test("doctor says this build cannot write it, exits 5 with ok false and newerSchema; the database is unchanged")
  func newerSchema() throws {
    let dir = TemporaryDirectory("doctor-newer")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Written before the upgrade", "--workspace", ws]).status == 0)
    let newer = SchemaVersion.current + 1
    let db = ws + "/workspace.sqlite"
    let bump = try runProcess("/usr/bin/env", ["sqlite3", db, "PRAGMA user_version = \(newer);"])
    try #require(bump.status == 0, "sqlite3 is needed to fake a newer schema: \(bump.stderr)")
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let reason = "schema \(newer) is newer than this build's \(SchemaVersion.current)"

    let text = try runDolphin(["doctor", "--workspace", ws])
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    #expect(text.stdout.contains("Schema: newer than this build (\(reason)): read-only here, not writable by this build"), "\(text.stdout)")
    #expect(text.stdout.contains("PRAGMA integrity_check: ok"), "the checks still run: \(text.stdout)")
    #expect(!text.stdout.contains("Doctor: healthy"), "\(text.stdout)")
    #expect(
      text.stdout.hasSuffix("Doctor: not writable by this build: the workspace's schema is newer; upgrade dolphin.\n"),
      "\(text.stdout)")
    #expect(
      text.stderr.contains("dolphin: error: this build cannot write the workspace: its schema is newer (\(reason)); upgrade dolphin"),
      "\(text.stderr)")

    let json = try runDolphin(["doctor", "--workspace", ws, "--json"])
    #expect(json.status == 5, "\(json.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(doc["ok"] as? Bool == false)
    #expect(doc["newerSchema"] as? String == reason, "\(json.stdout)")
    #expect((doc["integrityCheck"] as? [String]) == ["ok"])

    // What doctor now says, a write shows: exit 5 too.
    let write = try runDolphin(["capture", "fact", "After", "--workspace", ws])
    #expect(write.status == 5, "\(write.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "doctor and the refused write left it byte for byte")
  }

  @Test("a workspace of this build's schema: newerSchema null, healthy")
  func currentSchema() throws {
    let dir = TemporaryDirectory("doctor-current")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Now", "--workspace", ws]).status == 0)
    let json = try runDolphin(["doctor", "--workspace", ws, "--json"])
    #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(doc["ok"] as? Bool == true)
    #expect(doc.keys.contains("newerSchema") && doc["newerSchema"] is NSNull, "\(json.stdout)")
  }
}
