import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 26-b, 3, 5 and 10: what a legacy `workspace.json` in the workspace directory does to a
/// workspace in use (its settings), what doctor says of a file no write can import, and whether
/// the notices' advice is right and can be followed as printed.
@Suite("Legacy workspace.json notices and settings", .serialized)
struct LegacyNoticeTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy")

  /// A workspace directory made by one capture, without any legacy file.
  static func workspaceInUse(_ dir: TemporaryDirectory, _ name: String = "ws") throws -> URL {
    let ws = dir.appending(name)
    let first = try runDolphin(["capture", "decision", "Use SQLite for the store", "--workspace", ws.path])
    #expect(first.status == 0, "\(first.stderr)")
    return ws
  }

  /// A workspace directory `name` holding the v4 fixture as `workspace.json`, imported by a
  /// first capture; the directory and the file.
  static func importedDirectory(_ dir: TemporaryDirectory, _ name: String) throws -> (URL, URL) {
    let ws = dir.appending(name)
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let file = ws.appendingPathComponent("workspace.json")
    try FileManager.default.copyItem(at: fixtures.appendingPathComponent("workspace-v4.json"), to: file)
    #expect(try runDolphin(["capture", "fact", "first", "--workspace", ws.path]).status == 0)
    return (ws, file)
  }

  static func settings(_ ws: URL) throws -> [String: Any] {
    let r = try runDolphin(["settings", "show", "--json", "--workspace", ws.path])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    return (object["settings"] as? [String: Any]) ?? object
  }

  static func legacyState(_ ws: URL) throws -> [String: Any] {
    let json = try runDolphin(["doctor", "--json", "--workspace", ws.path])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    return try #require(object["legacyFile"] as? [String: Any])
  }

  /// A workspace whose settings came from an import (assistant name `Flipper`, from the v2
  /// fixture, by way of an export), with no legacy import of its own.
  static func workspaceWithOwnSettings(_ dir: TemporaryDirectory) throws -> URL {
    let source = dir.appending("source"), export = dir.appending("export.json"), ws = dir.appending("ws")
    #expect(try runDolphin(["migrate", fixtures.appendingPathComponent("workspace-v2.json").path, "--workspace", source.path]).status == 0)
    #expect(try runDolphin(["export", "--output", export.path, "--workspace", source.path]).status == 0)
    let imported = try runDolphin(["import", export.path, "--yes", "--workspace", ws.path])
    #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    #expect(try settings(ws)["assistantName"] as? String == "Flipper")
    return ws
  }

  @Test("a workspace.json put into a workspace with settings of its own imports its records but leaves those settings (review 26-b, 3)")
  func foreignFileKeepsSettings() throws {
    let dir = TemporaryDirectory("legacy-foreign-settings")
    defer { dir.remove() }
    let ws = try Self.workspaceWithOwnSettings(dir)
    // The v4 fixture's settings: assistant Dolphin, responseStyle detailed, calendar access on.
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: ws.appendingPathComponent("workspace.json"))
    let r = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("notice: imported legacy workspace.json (schema v4): 2 conversations"), "\(r.stderr)")
    #expect(r.stderr.contains("the workspace's own settings were kept; the file's (assistant name, response style, calendar access) were not imported"), "\(r.stderr)")
    let settings = try Self.settings(ws)
    #expect(settings["assistantName"] as? String == "Flipper")
    #expect(settings["calendarAccessEnabled"] as? Bool == false)
  }

  @Test("a workspace in use whose settings are the defaults takes the file's (review 27-a, 3: lost after a failed first import)")
  func defaultSettingsTakeTheFiles() throws {
    let dir = TemporaryDirectory("legacy-default-settings")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: ws.appendingPathComponent("workspace.json"))
    let r = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(r.status == 0 && !r.stderr.contains("settings were kept"), "\(r.stderr)")
    // Said, not done unannounced (review 27-b, 10).
    #expect(r.stderr.contains("the file's settings (assistant name, response style, calendar access) were imported"), "\(r.stderr)")
    let settings = try Self.settings(ws)
    #expect(settings["responseStyle"] as? String == "detailed")
    #expect(settings["calendarAccessEnabled"] as? Bool == true)
  }

  @Test("migrate into a workspace with settings of its own keeps them and says so, in text and JSON (review 27-a, 4)")
  func migrateKeepsOwnSettings() throws {
    let dir = TemporaryDirectory("legacy-migrate-settings")
    defer { dir.remove() }
    let ws = try Self.workspaceWithOwnSettings(dir)
    let file = Self.fixtures.appendingPathComponent("workspace-v4.json").path
    let text = try runDolphin(["migrate", file, "--workspace", ws.path])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("The workspace's own settings were kept; the file's (assistant name, response style, calendar access) were not imported."), "\(text.stdout)")
    #expect(try Self.settings(ws)["assistantName"] as? String == "Flipper")
    // Into a new workspace: imported, and said so.
    let fresh = try runDolphin(["migrate", file, "--json", "--workspace", dir.appending("fresh").path])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(fresh.stdout.utf8)) as? [String: Any])
    #expect(report["settingsKept"] as? Bool == false)
    #expect((report["imported"] as? [String: Any])?["settings"] as? Int == 1)
    let again = try runDolphin(["migrate", Self.fixtures.appendingPathComponent("workspace-v2.json").path, "--json", "--workspace", dir.appending("fresh").path])
    let kept = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
    #expect(kept["settingsKept"] as? Bool == true, "\(again.stdout)")
    #expect(try Self.settings(dir.appending("fresh"))["responseStyle"] as? String == "detailed")
    #expect(try Self.settings(dir.appending("fresh"))["assistantName"] as? String == "Dolphin")
  }

  @Test("a workspace.json put where another file was migrated is imported by the first write, not taken for a changed save (review 27-b, 6)")
  func otherFileMigratedBefore() throws {
    let dir = TemporaryDirectory("legacy-other-migrated")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    #expect(try runDolphin(["migrate", Self.fixtures.appendingPathComponent("workspace-v2.json").path, "--workspace", ws.path]).status == 0)
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: ws.appendingPathComponent("workspace.json"))
    #expect(try Self.legacyState(ws)["state"] as? String == "pending")
    let r = try runDolphin(["task", "add", "After the drop", "--workspace", ws.path])
    #expect(r.status == 0 && r.stderr.contains("notice: imported legacy workspace.json (schema v4)"), "\(r.stderr)")
    #expect(!r.stderr.contains("differs from the legacy file"), "\(r.stderr)")
  }

  @Test("a workspace.json whose import record was lost is not imported again: its backup shows it was (review 27-b, 3)")
  func importRecordLost() throws {
    let dir = TemporaryDirectory("legacy-record-lost")
    defer { dir.remove() }
    let (ws, _) = try Self.importedDirectory(dir, "ws")
    #expect(try runDolphin(["erase", "--kind", "memories", "--yes", "--workspace", ws.path]).status == 0)
    // The table dropped and made again by hand, as doctor's advice for a missing table does.
    let db = ws.appendingPathComponent("workspace.sqlite").path
    let schema = try runProcess("/usr/bin/env", ["sqlite3", db, "SELECT sql FROM sqlite_master WHERE name = 'legacy_import'"])
    let drop = try runProcess("/usr/bin/env", ["sqlite3", db, "DROP TABLE legacy_import; " + schema.stdout])
    #expect(drop.status == 0, "\(drop.stderr)")
    let r = try runDolphin(["task", "add", "after the repair", "--workspace", ws.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("was imported into this workspace before") && r.stderr.contains("record of that import is gone"), "\(r.stderr)")
    #expect(r.stderr.contains("those deleted or erased since included"), "\(r.stderr)")
    // The erased memories stay gone.
    let memories = try runDolphin(["memory", "list", "--json", "--workspace", ws.path])
    #expect(((try JSONSerialization.jsonObject(with: Data(memories.stdout.utf8)) as? [String: Any])?["memories"] as? [Any])?.count == 0, "\(memories.stdout)")
    #expect(try Self.legacyState(ws)["state"] as? String == "importRecordLost")
  }

  @Test("into a new workspace directory the file's settings are imported")
  func newDirectoryTakesSettings() throws {
    let dir = TemporaryDirectory("legacy-new-settings")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: ws.appendingPathComponent("workspace.json"))
    let r = try runDolphin(["capture", "fact", "first", "--workspace", ws.path])
    #expect(r.status == 0 && !r.stderr.contains("settings were kept"), "\(r.stderr)")
    #expect(try Self.settings(ws)["responseStyle"] as? String == "detailed")
  }

  @Test("a file from a newer app is not told to be fixed; the notice says the next process tries again (review 26-b, 10)")
  func newerFileNotice() throws {
    let dir = TemporaryDirectory("legacy-newer")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    try Data(#"{"schemaVersion": 99, "memories": []}"#.utf8).write(to: ws.appendingPathComponent("workspace.json"))
    let r = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("declares schemaVersion 99"), "\(r.stderr)")
    #expect(r.stderr.contains("written by a newer Dolphin than this build knows"), "\(r.stderr)")
    #expect(!r.stderr.contains("Fix the file"), "\(r.stderr)")
    #expect(r.stderr.contains("so this build cannot import it"), "\(r.stderr)")
    #expect(r.stderr.contains("The command went on without it; the next dolphin process that writes here tries it again"), "\(r.stderr)")
  }

  @Test("dolphin mcp says the server goes on, not the command (review 26-b, 10)")
  func mcpNotice() throws {
    let dir = TemporaryDirectory("legacy-mcp")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    try Data().write(to: ws.appendingPathComponent("workspace.json"))
    let r = try runDolphin(["mcp", "--workspace", ws.path], stdin: "")
    #expect(r.stderr.contains("dolphin mcp: notice: the legacy workspace.json in the workspace directory was not imported"), "\(r.stderr)")
    #expect(r.stderr.contains("The server goes on without it"), "\(r.stderr)")
    #expect(!r.stderr.contains("The command went on"), "\(r.stderr)")
  }

  @Test("a changed file: the notice and doctor give a migrate --again command that works as printed, --workspace included (review 26-b, 5 and 10)")
  func changedFileAdvice() throws {
    let dir = TemporaryDirectory("legacy-changed-advice")
    defer { dir.remove() }
    // A directory name a shell would split: the printed command quotes it.
    let (ws, file) = try Self.importedDirectory(dir, "my ws")
    #expect(try runDolphin(["erase", "--kind", "tasks", "--yes", "--workspace", ws.path]).status == 0)
    // The old app saves the file again: one byte more.
    try (try Data(contentsOf: file) + Data("\n".utf8)).write(to: file)
    let r = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("differs from the legacy file (workspace.json) imported into this workspace on "), "\(r.stderr)")
    #expect(!r.stderr.contains("Fix the file"), "\(r.stderr)")
    let quotedFile = "'\(file.path)'", quotedDir = "'\(ws.path)'"
    let printed = "dolphin migrate \(quotedFile) --again --workspace \(quotedDir)"
    #expect(r.stderr.contains(printed), "\(r.stderr)")
    // Doctor: not "not imported yet", and the same command.
    let doctor = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(doctor.stdout.contains("Legacy workspace.json: differs from the legacy file (workspace.json) imported on "), "\(doctor.stdout)")
    #expect(doctor.stdout.contains(printed), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("not imported yet"), "\(doctor.stdout)")
    let state = try Self.legacyState(ws)
    #expect(state["state"] as? String == "changed" && state["earlierFile"] as? String == "workspace.json")
    // Run as printed, through a shell, from another directory without DOLPHIN_HOME.
    let shell = try runProcess(
      "/bin/sh", ["-c", printed.replacingOccurrences(of: "dolphin ", with: "'\(dolphinExecutable().path)' ")],
      environment: ["DOLPHIN_HOME": dir.appending("elsewhere").path], currentDirectory: dir.url)
    #expect(shell.status == 0 && shell.stdout.contains("3 tasks"), "\(shell.stdout)\(shell.stderr)")
  }

  @Test("doctor calls a file whose import every write refuses not importable, with the reason (review 26-b, 5)")
  func doctorNamesRefusedImport() throws {
    let dir = TemporaryDirectory("legacy-refused")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    // No room for the backup: `legacy-backups` is a file.
    try Data("not a directory".utf8).write(to: ws.appendingPathComponent("legacy-backups"))
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: ws.appendingPathComponent("workspace.json"))
    let capture = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(capture.status == 0 && capture.stderr.contains("was not imported"), "\(capture.stderr)")
    let doctor = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(doctor.stdout.contains("Legacy workspace.json: cannot be imported"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("legacy-backups: not a directory of this user's"), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("run the command again"), "\(doctor.stdout)")
    #expect(try Self.legacyState(ws)["state"] as? String == "notImportable")
    // Moved aside as the reason says: pending, then imported by the next write.
    try FileManager.default.removeItem(at: ws.appendingPathComponent("legacy-backups"))
    #expect(try Self.legacyState(ws)["state"] as? String == "pending")
    #expect(try runDolphin(["capture", "fact", "third", "--workspace", ws.path]).status == 0)
    #expect(try Self.legacyState(ws)["state"] as? String == "imported")
    // Its settings too: the workspace's were still the defaults (review 27-a, 3).
    #expect(try Self.settings(ws)["responseStyle"] as? String == "detailed")
  }

  @Test("a changed file that does not decode is not importable, not `changed`: no --again advice that would fail (review 27-a, 2)")
  func changedButDamaged() throws {
    let dir = TemporaryDirectory("legacy-changed-damaged")
    defer { dir.remove() }
    let (ws, file) = try Self.importedDirectory(dir, "ws")
    try (try Data(contentsOf: file) + Data("1".utf8)).write(to: file)
    let r = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(r.status == 0 && r.stderr.contains("is not valid JSON"), "\(r.stderr)")
    #expect(!r.stderr.contains("--again"), "\(r.stderr)")
    let state = try Self.legacyState(ws)
    #expect(state["state"] as? String == "notImportable", "\(state)")
  }

  @Test("advice about a workspace named by DOLPHIN_HOME names it with --workspace, so it works pasted in a shell without it (review 27-a, 1)")
  func adviceNamesWorkspaceFromHome() throws {
    let dir = TemporaryDirectory("legacy-home")
    defer { dir.remove() }
    let ws = dir.appending("home ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let file = ws.appendingPathComponent("workspace.json")
    try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: file)
    let home = ["DOLPHIN_HOME": ws.path]
    #expect(try runDolphin(["capture", "fact", "first"], environment: home).status == 0)
    try (try Data(contentsOf: file) + Data("\n".utf8)).write(to: file)
    let r = try runDolphin(["capture", "fact", "second"], environment: home)
    #expect(r.stderr.contains("dolphin migrate '\(file.path)' --again --workspace '\(ws.path)'"), "\(r.stderr)")
    let doctor = try runDolphin(["doctor"], environment: home)
    #expect(doctor.stdout.contains("dolphin migrate '\(file.path)' --again --workspace '\(ws.path)'"), "\(doctor.stdout)")
  }

  @Test("before there is a workspace: status and doctor say whether the legacy file can be imported (review 27-a, 5 and 6)")
  func beforeTheWorkspace() throws {
    let dir = TemporaryDirectory("legacy-no-db")
    defer { dir.remove() }
    let empty = dir.appending("empty"), pending = dir.appending("pending"), fifo = dir.appending("fifo")
    for d in [empty, pending, fifo] {
      try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    try Data().write(to: empty.appendingPathComponent("workspace.json"))
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: pending.appendingPathComponent("workspace.json"))
    #expect(mkfifo(fifo.appendingPathComponent("workspace.json").path, 0o600) == 0)
    let status = try runDolphin(["status", "--workspace", empty.path])
    #expect(status.status == 3, "\(status.stderr)")
    #expect(status.stderr.contains("cannot be imported: ") && status.stderr.contains("the input is empty"), "\(status.stderr)")
    #expect(!status.stderr.contains("dolphin migrate"), "\(status.stderr)")
    let ready = try runDolphin(["status", "--workspace", pending.path])
    #expect(ready.stderr.contains("which the first command that stores something imports"), "\(ready.stderr)")
    #expect(try Self.legacyState(pending)["state"] as? String == "pending")
    #expect(try Self.legacyState(empty)["state"] as? String == "notImportable")
    let named = try Self.legacyState(fifo)
    #expect(named["state"] as? String == "notImportable" && (named["reason"] as? String)?.contains("FIFO") == true, "\(named)")
    // A command that writes but creates no workspace treats a damaged file as no workspace
    // (review 27-a, 9: `erase --kind tasks` created an empty one).
    let erase = try runDolphin(["erase", "--kind", "tasks", "--yes", "--workspace", empty.path])
    #expect(erase.status == 3 && erase.stderr.contains("cannot be imported"), "\(erase.stderr)")
    // Nothing was created by any of it.
    for d in [empty, pending, fifo] {
      #expect(!FileManager.default.fileExists(atPath: d.appendingPathComponent("workspace.sqlite").path))
    }
  }

  @Test("migrate of the workspace's own damaged workspace.json says it once, as an error (review 27-a, 5)")
  func migrateOwnFileOnce() throws {
    let dir = TemporaryDirectory("legacy-migrate-own")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    let file = ws.appendingPathComponent("workspace.json")
    try Data().write(to: file)
    let r = try runDolphin(["migrate", file.path, "--workspace", ws.path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(!r.stderr.contains("notice:"), "\(r.stderr)")
    #expect(r.stderr.components(separatedBy: "the input is empty").count == 2, "\(r.stderr)")
  }

  @Test("erase --kind all with a damaged workspace.json says the erase removes it, not that it is tried again (review 27-a, 9)")
  func eraseAllDamaged() throws {
    let dir = TemporaryDirectory("legacy-erase-damaged")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    try Data().write(to: ws.appendingPathComponent("workspace.json"))
    let r = try runDolphin(["erase", "--yes", "--workspace", ws.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("This erase removes it with everything else."), "\(r.stderr)")
    #expect(!r.stderr.contains("tries it again"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: ws.appendingPathComponent("workspace.json").path))
  }

  @Test(
    "another user's workspace.json, which no write imports, is said by writes and not called pending by doctor",
    .enabled(if: getuid() == 0, "needs root to give the file to another user"))
  func anotherUsersFile() throws {
    let dir = TemporaryDirectory("legacy-stranger")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    let file = ws.appendingPathComponent("workspace.json")
    try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: file)
    #expect(chown(file.path, 65534, 65534) == 0)
    let capture = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    #expect(capture.status == 0)
    // Said at the write, with the command that imports it (s28: skipped in silence before).
    #expect(
      capture.stderr.contains(
        "is not imported: \(file.path) belongs to another user (uid 65534), so no command imports it by itself; "
          + "`dolphin migrate \(file.path) --workspace \(ws.path)` imports it. The command went on without it; "
          + "moving workspace.json out of the workspace directory ends this notice."),
      "\(capture.stderr)")
    let state = try Self.legacyState(ws)
    #expect(state["state"] as? String == "notImportable")
    #expect((state["reason"] as? String)?.contains("belongs to another user (uid 65534)") == true, "\(state)")
    // Nothing of it was imported.
    let tasks = try runDolphin(["task", "list", "--json", "--workspace", ws.path])
    let listed = (try JSONSerialization.jsonObject(with: Data(tasks.stdout.utf8)) as? [String: Any])?["tasks"] as? [Any]
    #expect(listed?.count == 0, "\(tasks.stdout)")
  }

  @Test(
    "a workspace.json that is a symbolic link is not imported by writes, but each says so until what it leads to is migrated; doctor names it with a migrate command that works pasted (review 27-b, 7; s28)"
  )
  func symbolicLink() throws {
    let dir = TemporaryDirectory("legacy-link")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    let target = dir.appending("saved.json")
    try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: target)
    try FileManager.default.createSymbolicLink(at: ws.appendingPathComponent("workspace.json"), withDestinationURL: target)
    let link = ws.appendingPathComponent("workspace.json").path
    let capture = try runDolphin(["capture", "fact", "second", "--workspace", ws.path])
    // Said, not skipped in silence; nothing of it imported.
    #expect(capture.status == 0, "\(capture.stderr)")
    #expect(
      capture.stderr.contains(
        "notice: the legacy workspace.json in the workspace directory is not imported: \(link) is a symbolic link, which "
          + "no command follows by itself; `dolphin migrate \(link) --workspace \(ws.path)` imports the file it points to. "
          + "The command went on without it; moving workspace.json out of the workspace directory ends this notice."),
      "\(capture.stderr)")
    let before = try runDolphin(["task", "list", "--json", "--workspace", ws.path])
    #expect(!before.stdout.contains("\"title\""), "\(before.stdout)")
    let state = try Self.legacyState(ws)
    let reason = try #require(state["reason"] as? String)
    #expect(state["state"] as? String == "notImportable" && reason.contains("is a symbolic link"), "\(state)")
    // The command in the reason, pasted through a shell from elsewhere, imports what it points to.
    let parts = reason.components(separatedBy: "`")
    try #require(parts.count >= 3, "\(reason)")
    let command = parts[1]
    #expect(command.hasPrefix("dolphin migrate ") && command.contains("--workspace"), "\(command)")
    let shell = try runProcess(
      "/bin/sh", ["-c", command.replacingOccurrences(of: "dolphin ", with: "'\(dolphinExecutable().path)' ")],
      environment: ["DOLPHIN_HOME": dir.appending("elsewhere").path], currentDirectory: dir.url)
    #expect(shell.status == 0 && shell.stdout.contains("3 tasks"), "\(shell.stdout)\(shell.stderr)")
    // Migrated as advised: the link leads to imported bytes, so writes say nothing and doctor
    // calls it imported.
    let after = try runDolphin(["capture", "fact", "third", "--workspace", ws.path])
    #expect(after.status == 0 && !after.stderr.contains("notice"), "\(after.stderr)")
    let imported = try Self.legacyState(ws)
    #expect(imported["state"] as? String == "imported" && imported["importedAt"] != nil, "\(imported)")
    // What it leads to changes (the old app saved again): said again.
    var saved = try Data(contentsOf: target)
    saved.append(contentsOf: Array(" \n".utf8))
    try saved.write(to: target)
    let changed = try runDolphin(["capture", "fact", "fourth", "--workspace", ws.path])
    #expect(changed.stderr.contains("is a symbolic link, which no command follows by itself"), "\(changed.stderr)")
    // A changed save of a file imported here: the advice is `--again` (review 28-d, 3: a plain
    // `migrate` was advised, and refused the records the workspace holds), and it works pasted.
    #expect(
      changed.stderr.contains(
        "`dolphin migrate \(link) --again --workspace \(ws.path)` imports its records this workspace does not hold"),
      "\(changed.stderr)")
    let again = try runDolphin(try #require(Self.firstQuotedCommand(changed.stderr)))
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    let quiet = try runDolphin(["capture", "fact", "fifth", "--workspace", ws.path])
    #expect(!quiet.stderr.contains("notice"), "\(quiet.stderr)")
  }

  /// The words of the first command quoted in backticks in `text`, without `dolphin`.
  static func firstQuotedCommand(_ text: String) -> [String]? {
    let parts = text.split(separator: "`", omittingEmptySubsequences: false)
    guard parts.count >= 3 else { return nil }
    return parts[1].split(separator: " ").dropFirst().map(String.init)
  }

  @Test("doctor --json gives the sha256 of a workspace.json refused for what it holds (UTF-16), none for a directory (s28)")
  func refusedFileDigest() throws {
    let dir = TemporaryDirectory("legacy-utf16-digest")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    let file = ws.appendingPathComponent("workspace.json")
    let text = try String(contentsOf: Self.fixtures.appendingPathComponent("workspace-v4.json"), encoding: .utf8)
    let utf16 = try #require(text.data(using: .utf16))  // with a byte order mark
    try utf16.write(to: file)
    let state = try Self.legacyState(ws)
    #expect(state["state"] as? String == "notImportable", "\(state)")
    #expect((state["reason"] as? String)?.contains("is saved as UTF-16") == true, "\(state)")
    #expect(state["sha256"] as? String == SHA256.hash(Array(utf16)).hexString, "\(state)")
    try FileManager.default.removeItem(at: file)
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
    let directory = try Self.legacyState(ws)
    #expect(directory["state"] as? String == "notImportable" && directory["sha256"] == nil, "\(directory)")
  }

  @Test("erase --kind all as the first write: the notice says the erase removes the file and its backup, not where the backup is (review 26-b, 10)")
  func eraseAllFirstWrite() throws {
    let dir = TemporaryDirectory("legacy-erase-first")
    defer { dir.remove() }
    let ws = try Self.workspaceInUse(dir)
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("workspace-v4.json"), to: ws.appendingPathComponent("workspace.json"))
    let r = try runDolphin(["erase", "--yes", "--workspace", ws.path])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("notice: imported legacy workspace.json"), "\(r.stderr)")
    #expect(r.stderr.contains("this erase removes its records with everything else, and the file and its backup"), "\(r.stderr)")
    #expect(!r.stderr.contains("backup is at"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: ws.appendingPathComponent("workspace.json").path))
    let backups = (try? FileManager.default.contentsOfDirectory(atPath: ws.appendingPathComponent("legacy-backups").path)) ?? []
    #expect(backups.isEmpty)
  }

  @Test("migrate of a file whose records the workspace holds names --again with the --workspace given (review 26-b, 10)")
  func migrateRefusalNamesWorkspace() throws {
    let dir = TemporaryDirectory("legacy-migrate-hint")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let file = Self.fixtures.appendingPathComponent("workspace-v4.json")
    #expect(try runDolphin(["migrate", file.path, "--workspace", ws.path]).status == 0)
    #expect(try runDolphin(["erase", "--kind", "tasks", "--yes", "--workspace", ws.path]).status == 0)
    let again = try runDolphin(["migrate", file.path, "--workspace", ws.path])
    #expect(again.stdout.contains("dolphin migrate \(file.path) --again --workspace \(ws.path)"), "\(again.stdout)")
  }
}
