import Foundation
import Testing
import TestSupport

/// A review found doctor's recovery steps copying the workspace with `cp -a DIR DIR.copy`: when
/// `DIR.copy` is left from an earlier recovery, `cp -a` copies the workspace into it
/// (`DIR.copy/DIR`), and the next step's `sqlite3 DIR.copy/workspace.sqlite` then opens the old
/// copy (or creates an empty database there). The step now names a directory that does not exist
/// yet and creates it with `mkdir`, which fails rather than let anything be copied into a
/// directory that exists.
@Suite("doctor's recovery copy step", .serialized)
struct DoctorRecoveryCopyTests {
  /// The command between the backquotes of doctor's step 2.
  static func copyCommand(_ stdout: String) throws -> String {
    let step = try #require(stdout.split(separator: "\n").first { $0.hasPrefix("2. Copy the whole directory") }, "\(stdout)")
    let parts = step.split(separator: "`", omittingEmptySubsequences: false)
    return try #require(parts.count >= 3 ? String(parts[1]) : nil, "\(step)")
  }

  @Test("with DIR.copy left from an earlier recovery, the step names a new directory, copies into it flat, and fails when run twice")
  func copyStepNeverNests() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Keep the workspace in SQLite", "--content", "WAL mode, one file per workspace."]).status == 0)
    #expect(try cli.run(["task", "add", "Write the recovery runbook"]).status == 0)
    // An earlier recovery's copy, with the notes taken then.
    let earlier = cli.workspace + ".copy"
    try FileManager.default.createDirectory(atPath: earlier, withIntermediateDirectories: false)
    try Data("recovered 42 items on the first try\n".utf8).write(to: URL(fileURLWithPath: earlier + "/NOTES.txt"))
    // Then the database's header is overwritten: it is no longer an SQLite file.
    let db = cli.workspace + "/workspace.sqlite"
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: db))
    try handle.write(contentsOf: Data(repeating: 0x20, count: 100))
    try handle.close()
    let damaged = try Data(contentsOf: URL(fileURLWithPath: db))

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    let command = try Self.copyCommand(doctor.stdout)
    let fresh = cli.workspace + ".copy-2"
    #expect(command == "mkdir -m 700 '\(fresh)' && cp -a '\(cli.workspace)/.' '\(fresh)'", "\(command)")
    // Step 3 works on that copy too.
    #expect(doctor.stdout.contains("3. Try `sqlite3 '\(fresh)/workspace.sqlite' .recover > recovered.sql`"), "\(doctor.stdout)")

    // Run as printed, it copies the workspace's files to the top of the new directory, private
    // as the workspace is, and leaves the earlier copy as it was.
    let copied = try runProcess("/bin/sh", ["-c", command])
    #expect(copied.status == 0, "\(copied.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: fresh + "/workspace.sqlite")) == damaged)
    let mode = try #require(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int)
    #expect(mode == 0o700, "mode \(String(mode, radix: 8))")
    #expect(try FileManager.default.contentsOfDirectory(atPath: earlier) == ["NOTES.txt"])

    // Run again, it fails instead of copying into the directory it made.
    let twice = try runProcess("/bin/sh", ["-c", command])
    #expect(twice.status != 0, "\(twice.stdout)")
    #expect(!FileManager.default.fileExists(atPath: fresh + "/ws"), "the copy was nested")
    #expect(try FileManager.default.contentsOfDirectory(atPath: earlier) == ["NOTES.txt"])

    // With both taken, doctor names the next free name.
    #expect(try Self.copyCommand(try cli.run(["doctor"]).stdout).hasPrefix("mkdir -m 700 '\(cli.workspace).copy-3' && "))
  }
}
