import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Regression (review, s14): a FIFO named as input — `--content-file FIFO`, `dolphin import
/// FIFO`, `dolphin migrate FIFO` — with no writer hung the command until it was killed: opening a
/// FIFO for reading waits for a writer. Every file the CLI reads by name must now be a regular
/// file; a FIFO, socket, device or directory is refused at once, naming the option, the path and
/// what it is. Standard input (`-`) still reads from a pipe.
@Suite("input files that are not regular files", .serialized)
struct SpecialFileInputTests {
  /// Runs `dolphin` under `timeout`, so that a regression fails (status 124) instead of hanging
  /// the test run; the bound is a safety net, not a measurement.
  func runBounded(_ cli: CLI, _ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
    try runProcess(
      "/usr/bin/timeout", ["60", dolphinExecutable().path] + arguments + ["--workspace", cli.workspace], stdin: stdin)
  }

  func makeFIFO(_ cli: CLI, _ name: String) throws -> String {
    try FileManager.default.createDirectory(at: cli.dir.url, withIntermediateDirectories: true)
    let path = cli.dir.appending(name).path
    try #require(mkfifo(path, 0o600) == 0, "mkfifo \(path)")
    return path
  }

  @Test("--content-file, import and migrate refuse a FIFO without a writer at once (exit 4), creating nothing")
  func fifoRefused() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let notes = try makeFIFO(cli, "notes.txt")
    let export = try makeFIFO(cli, "export.json")
    let legacy = try makeFIFO(cli, "workspace-v4.json")

    let capture = try runBounded(cli, ["capture", "fact", "Release checklist", "--content-file", notes])
    #expect(capture.status == 4, "\(capture.stderr)")
    #expect(
      capture.stderr.contains("--content-file: '\(notes)' is a FIFO (named pipe), not a regular file"),
      "\(capture.stderr)")

    let imported = try runBounded(cli, ["import", export])
    #expect(imported.status == 4, "\(imported.stderr)")
    #expect(
      imported.stderr.contains("\(export) is a FIFO (named pipe), not a regular file; name the export file"),
      "\(imported.stderr)")

    let migrated = try runBounded(cli, ["migrate", legacy, "--json"])
    #expect(migrated.status == 4, "\(migrated.stderr)")
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(migrated.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(
      (error["message"] as? String)?.contains("\(legacy) is a FIFO (named pipe), not a regular file") == true,
      "\(error)")

    #expect(!FileManager.default.fileExists(atPath: cli.workspace), "a refused input creates no workspace")
  }

  @Test("a directory named by --content-file is refused naming the option; standard input still reads a pipe")
  func directoryAndStandardInput() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let folder = cli.dir.appending("drafts")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let r = try runBounded(cli, ["capture", "fact", "Release checklist", "--content-file", folder.path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains("--content-file: '\(folder.path)' is a directory, not a file"), "\(r.stderr)")

    let piped = try runBounded(
      cli, ["capture", "fact", "Release checklist", "--content", "-", "--json"], stdin: "Tag, build, notarize.\n")
    #expect(piped.status == 0, "\(piped.stderr)")
    let item = (try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [String: Any])?["item"] as? [String: Any]
    #expect(item?["content"] as? String == "Tag, build, notarize.\n")
  }
}
