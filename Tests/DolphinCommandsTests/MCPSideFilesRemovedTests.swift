import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Review 29-b, 1: `rm workspace.sqlite-wal workspace.sqlite-shm` while `dolphin mcp` ran. The
/// server went on answering "Captured …" into its unlinked `-wal`; killed (SIGKILL, an OOM
/// kill, a crash), it took every one of them with it, and every commit made before the deletion
/// that no checkpoint had copied: the reviewer's workspace was left without even its schema.
/// Now each commit is copied into the database file once the server sees the deletion, and a
/// watch looks every second while no call comes.
@Suite("dolphin mcp when its -wal and -shm are deleted under it", .serialized)
struct MCPSideFilesRemovedTests {
  typealias Server = MCPWorkspaceReplacedTests.Server

  /// Deletes the side files, lets `settle` run, then kills the server with SIGKILL.
  static func deleteThenKill(
    _ workspace: String, titles: [String], deleted: [String], settle: (Server) throws -> Void
  ) throws -> String {
    let server = try Server(workspace: workspace)
    for title in titles {
      #expect(try MCPWorkspaceReplacedTests.text(server.call("knowledge_capture", ["kind": "fact", "title": .string(title)])).hasPrefix("Captured fact"))
    }
    let db = workspace + "/" + SQLiteWorkspaceStore.fileName
    for suffix in deleted { try FileManager.default.removeItem(atPath: db + suffix) }
    try settle(server)
    kill(server.process.processIdentifier, SIGKILL)
    server.process.waitUntilExit()
    #expect(server.process.terminationReason == .uncaughtSignal)
    return String(decoding: server.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  @Test("captures answered after the deletion, and those before it, survive a SIGKILL", arguments: [["-wal", "-shm"], ["-wal"]])
  func capturesAfterDeletionSurviveKill(deleted: [String]) throws {
    let directory = TemporaryDirectory("mcp-sidefiles-write")
    defer { directory.remove() }
    let workspace = directory.appending("ws").path
    let stderr = try Self.deleteThenKill(workspace, titles: ["before one", "before two"], deleted: deleted) { server in
      for title in ["after one", "after two"] {
        let capture = try server.call("knowledge_capture", ["kind": "fact", "title": .string(title)])
        #expect(capture["isError"] == false, "\(capture)")
      }
    }
    #expect(try MCPWorkspaceReplacedTests.titles(workspace) == ["after one", "after two", "before one", "before two"])
    let names = deleted.map { workspace + "/workspace.sqlite" + $0 }.joined(separator: " and ")
    #expect(stderr.contains("dolphin mcp: notice: \(names) \(deleted.count == 1 ? "was" : "were") deleted, moved or replaced while the server had the workspace open"), "\(stderr)")
    let doctor = try runDolphin(["doctor", "--workspace", workspace])
    #expect(doctor.status == 0, "\(doctor.stdout)")
  }

  @Test("no call after the deletion: the watch copies what the deleted -wal held within seconds; a CLI capture then works")
  func idleServerKilledAfterTheWatch() throws {
    let directory = TemporaryDirectory("mcp-sidefiles-idle")
    defer { directory.remove() }
    let workspace = directory.appending("ws").path
    let stderr = try Self.deleteThenKill(workspace, titles: ["only before"], deleted: ["-wal", "-shm"]) { _ in
      let db = workspace + "/" + SQLiteWorkspaceStore.fileName
      // The watch looks every second; new side files show that it has copied and reopened.
      var waited = 0
      while !FileManager.default.fileExists(atPath: db + "-wal") && waited < 100 {
        usleep(100_000)
        waited += 1
      }
      #expect(FileManager.default.fileExists(atPath: db + "-wal"))
      // Other processes are no longer refused (review 29-a, 1) once the server has new side files.
      let capture = try runDolphin(["capture", "fact", "from the cli", "--workspace", workspace])
      #expect(capture.status == 0, "\(capture.stderr)")
    }
    #expect(try MCPWorkspaceReplacedTests.titles(workspace) == ["from the cli", "only before"])
    #expect(stderr.contains("every commit they held"), "\(stderr)")
  }
}
