import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A workspace directory made read-only after a `-wal` was left behind: `doctor` called the
/// workspace read-only, while `capture` went on writing into that `-wal` (SQLite opens files it
/// may write for writing, whatever the directory says). Every write command now refuses as doctor
/// reads it, naming the directory and what to do, and everything stored stays readable.
@Suite(
  "Writes in a directory this user may not write",
  .serialized,
  .enabled(
    if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
    "needs root and setpriv to run dolphin as a user the directory's mode applies to (root writes anywhere)"))
struct UnwritableDirectoryWriteTests {
  static func asNobody(_ args: [String]) throws -> ProcessResult {
    try runProcess(
      "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", dolphinExecutable().path] + args)
  }

  static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  @Test("capture, task add and memory save refuse as doctor reads it, naming the directory and the chmod; nothing stored is lost")
  func writesRefusedLikeDoctor() throws {
    let directory = TemporaryDirectory("unwritable-dir")
    defer {
      chmod(directory.appending("ws").path, 0o700)
      directory.remove()
    }
    chown(directory.path, 65534, 65534)
    let workspace = directory.appending("ws").path
    let db = workspace + "/workspace.sqlite"
    #expect(try Self.asNobody(["capture", "fact", "First note", "--workspace", workspace]).status == 0)
    // A commit left in the -wal, with its -shm, as a crash leaves them.
    try ReliabilityScripts.leavingWrites(inWALOf: db) {
      let second = try Self.asNobody(["capture", "fact", "Second note", "--workspace", workspace])
      #expect(second.status == 0, "\(second.stderr)")
    }
    try #require(try Self.bytes(db + "-wal").count > 0)
    chmod(workspace, 0o500)
    let database = try Self.bytes(db)
    let wal = try Self.bytes(db + "-wal")

    let doctor = try Self.asNobody(["doctor", "--workspace", workspace])
    let reason = "permission denied: this user may not write the workspace directory \(workspace), where SQLite keeps"
    #expect(doctor.stdout.contains("Open: read-only (\(reason)"), "\(doctor.stdout)")
    for args in [
      ["capture", "fact", "Third note"], ["task", "add", "A task"], ["memory", "save", "A memory"],
    ] {
      let r = try Self.asNobody(args + ["--workspace", workspace])
      // capture exited 0 here, having written its record into the -wal.
      #expect(r.status == 5, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains("is open read-only (\(reason)"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains("make it writable again (`chmod 700 '\(workspace)'`)"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains("nothing was written"), "\(args): \(r.stderr)")
      #expect(try Self.bytes(db) == database, "\(args) wrote to the database")
      #expect(try Self.bytes(db + "-wal") == wal, "\(args) wrote to the -wal")
    }
    // Everything stored reads, the commit in the -wal included.
    let list = try Self.asNobody(["knowledge", "list", "--workspace", workspace])
    #expect(list.status == 0 && list.stdout.contains("First note") && list.stdout.contains("Second note"), "\(list.stdout)")
    #expect(!list.stdout.contains("Third note"), "\(list.stdout)")

    // Writable again: writes work, and nothing was lost.
    chmod(workspace, 0o700)
    #expect(try Self.asNobody(["capture", "fact", "Fourth note", "--workspace", workspace]).status == 0)
    let after = try Self.asNobody(["knowledge", "list", "--workspace", workspace])
    for title in ["First note", "Second note", "Fourth note"] { #expect(after.stdout.contains(title), "\(after.stdout)") }
    #expect(try Self.asNobody(["doctor", "--workspace", workspace]).stdout.contains("Doctor: healthy."))
  }
}
