import ContinuityKit
import Foundation
import Testing
import TestSupport

/// `dolphin doctor` opens the workspace read-only and says "Nothing was changed", yet it left an
/// empty `-wal` and a `-shm` beside the database, also beside a truncated one. It now leaves the
/// directory as it found it: the same files, and the database's (and a `-wal`'s) bytes unchanged.
@Suite("doctor leaves the workspace directory as it found it", .serialized)
struct DoctorLeavesFilesAsFoundTests {
  /// Every file of `directory` with its bytes (the `-shm`, a WAL index SQLite may rebuild, only
  /// by name).
  static func contents(_ directory: String) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
      out[name] = name.hasSuffix("-shm") ? Data() : try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
    }
    return out
  }

  /// Runs `doctor` and `doctor --json` and checks that neither changed the directory.
  static func expectUnchanged(_ cli: CLI, status: Int32, _ comment: Comment? = nil) throws {
    let before = try contents(cli.workspace)
    for args in [["doctor"], ["doctor", "--json"]] {
      let r = try cli.run(args)
      #expect(r.status == status, "\(args): \(r.stdout)\(r.stderr)")
      #expect(!r.stdout.contains("could not remove them"), "\(r.stdout)")
      if status == 0, args == ["doctor"] { #expect(r.stdout.contains("Doctor: healthy."), "\(r.stdout)") }
      let after = try contents(cli.workspace)
      #expect(after.keys.sorted() == before.keys.sorted(), "\(args) left \(after.keys.sorted()); \(comment?.rawValue ?? "")")
      #expect(after == before, "\(args) changed a file; \(comment?.rawValue ?? "")")
    }
  }

  @Test("a healthy workspace: no -wal or -shm is left behind")
  func healthy() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Doctor leaves no trace"]).status == 0)
    try #require(try Self.contents(cli.workspace).keys.sorted() == ["workspace.sqlite"])
    try Self.expectUnchanged(cli, status: 0)
  }

  @Test("a truncated database: reported as damaged, and no -wal or -shm is left beside it")
  func truncated() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for n in 1...30 {
      #expect(try cli.run(["capture", "fact", "Note \(n) with some words", "--content", String(repeating: "text ", count: 200)]).status == 0)
    }
    let db = cli.workspace + "/workspace.sqlite"
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: db))
    try handle.truncate(atOffset: 20_000)
    try handle.close()
    try Self.expectUnchanged(cli, status: 5)
  }

  @Test("-wal and -shm left by a crash: read with them, and left exactly as they were")
  func sideFilesLeftByACrash() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Checkpointed"]).status == 0)
    try ReliabilityScripts.leavingWrites(inWALOf: cli.workspace + "/workspace.sqlite") {
      let capture = try cli.run(["capture", "fact", "Only in the WAL"])
      #expect(capture.status == 0)
    }
    try #require(try Self.contents(cli.workspace).keys.sorted() == ["workspace.sqlite", "workspace.sqlite-shm", "workspace.sqlite-wal"])
    try Self.expectUnchanged(cli, status: 0)
    #expect(try cli.run(["knowledge", "list"]).stdout.contains("Only in the WAL"))
  }

  @Test("a -wal without its -shm: the -shm the read needed is removed again; the -wal is untouched")
  func walWithoutIndex() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Checkpointed"]).status == 0)
    let db = cli.workspace + "/workspace.sqlite"
    try ReliabilityScripts.leavingWrites(inWALOf: db) {
      let capture = try cli.run(["capture", "fact", "Only in the WAL"])
      #expect(capture.status == 0)
    }
    try FileManager.default.removeItem(atPath: db + "-shm")
    try Self.expectUnchanged(cli, status: 0)
    #expect(try cli.run(["knowledge", "list"]).stdout.contains("Only in the WAL"))
  }
}
