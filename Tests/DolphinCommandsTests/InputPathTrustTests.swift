import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Eighth review (s15): files the user names are read without following another user's link
/// and not from a directory others may rename entries of; the demo runs itself, not whatever
/// `argv[0]` names; `migrate` works with a `--workspace` that is the user's own link.
@Suite("Paths dolphin reads from, and the program the demo runs", .serialized)
struct InputPathTrustTests {
  @Test("import, migrate and --content-file refuse a file in a directory every user may rename entries of; the same file elsewhere reads")
  func openDirectoryInputRefused() throws {
    let dir = TemporaryDirectory("input-open-dir")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Seed", "--workspace", ws]).status == 0)
    let export = dir.appending("export.json").path
    #expect(try runDolphin(["export", "--output", export, "--workspace", ws]).status == 0)
    let open = dir.appending("open").path
    try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
    chmod(open, 0o777)
    try FileManager.default.copyItem(atPath: export, toPath: open + "/team.json")
    try Data("notes".utf8).write(to: URL(fileURLWithPath: open + "/notes.txt"))
    let fixture = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v3.json").path
    try FileManager.default.copyItem(atPath: fixture, toPath: open + "/legacy.json")
    let other = dir.appending("other").path
    for args in [
      ["import", open + "/team.json", "--on-conflict", "skip"], ["migrate", open + "/legacy.json"],
      ["capture", "fact", "From a file", "--content-file", open + "/notes.txt"],
    ] {
      let r = try runDolphin(args + ["--workspace", other])
      #expect(r.status != 0, "\(args): \(r.stdout)")
      #expect(r.stderr.contains("the path goes through \(open), which (mode 777) may be written by every user"), "\(args): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: other + "/workspace.sqlite"), "\(args): nothing created")
    }
    chmod(open, 0o1777)
    let sticky = try runDolphin(["import", open + "/team.json", "--on-conflict", "skip", "--workspace", other])
    #expect(sticky.status == 0, "\(sticky.stderr)")
  }

  @Test("migrate with a --workspace that is this user's own link writes its backup where the link leads")
  func migrateThroughOwnLink() throws {
    let dir = TemporaryDirectory("migrate-own-link")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Seed", "--workspace", ws]).status == 0)
    try FileManager.default.createSymbolicLink(atPath: dir.appending("wl").path, withDestinationPath: ws)
    let fixture = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v3.json").path
    let r = try runDolphin(["migrate", fixture, "--workspace", dir.appending("wl").path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: ws + "/legacy-backups").count == 1)
  }

  @Test("the demo started through PATH as a bare name runs itself, not a `dolphin` in the current directory")
  func demoRunsItself() throws {
    let dir = TemporaryDirectory("demo-argv0")
    defer { dir.remove() }
    let bin = dir.appending("bin").path
    let here = dir.appending("here").path
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: here, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: bin + "/dolphin", withDestinationPath: dolphinExecutable().path)
    let marker = dir.appending("ran-the-impostor").path
    try Data("#!/bin/sh\necho impostor > '\(marker)'\n".utf8).write(to: URL(fileURLWithPath: here + "/dolphin"))
    chmod(here + "/dolphin", 0o755)
    let r = try runProcess(
      "/usr/bin/env", ["dolphin", "demo", "--workspace", dir.appending("demo-ws").path],
      environment: ["PATH": bin + ":/usr/bin:/bin"], currentDirectory: URL(fileURLWithPath: here))
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: marker), "the impostor ran")
    #expect(r.stdout.contains("7. Restored in a fresh process"), "\(r.stdout)")
  }

  /// Seventh review (s15): erase zeroed and unlinked every backup path the database recorded —
  /// a copied workspace, or another program, could name any file.
  @Test("erase --kind all removes what is in legacy-backups, never a backup path the database records elsewhere")
  func eraseIgnoresRecordedPaths() throws {
    let dir = TemporaryDirectory("erase-recorded-path")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Seed", "--workspace", ws]).status == 0)
    let fixture = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v3.json").path
    #expect(try runDolphin(["migrate", fixture, "--workspace", ws]).status == 0)
    let victim = dir.appending("victim.txt").path
    try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
    let forged = try runProcess(
      "/usr/bin/env",
      ["sqlite3", ws + "/workspace.sqlite",
       "INSERT INTO legacy_import VALUES('abc','workspace.json','\(victim)',4,'2024-01-01T00:00:00Z')"])
    #expect(forged.status == 0, "\(forged.stderr)")
    let erase = try runDolphin(["erase", "--kind", "all", "--yes", "--workspace", ws])
    #expect(erase.status == 0, "\(erase.stdout)\(erase.stderr)")
    #expect(!erase.stdout.contains(victim), "\(erase.stdout)")
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    #expect(!FileManager.default.fileExists(atPath: ws + "/legacy-backups"), "the real backup went, and its folder")
  }
}
