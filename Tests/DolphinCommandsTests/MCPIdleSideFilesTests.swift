import Foundation
import Testing
import TestSupport

/// An idle `dolphin mcp` session (initialize, ping, a resource read, stdin closed) leaves the
/// workspace directory as it found it: the server closes its SQLite connection before it exits,
/// so SQLite removes the `-wal` and `-shm` it made. Before, the process could end before the
/// store was released, and about half of 30 runs left them behind (seen as a flaky
/// `IndexUpgradeCommandTests` failure).
@Suite("dolphin mcp closes the workspace before it exits", .serialized)
struct MCPIdleSideFilesTests {
  @Test("twenty idle sessions leave no -wal or -shm beside the database")
  func noSideFilesLeft() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    let before = try FileManager.default.contentsOfDirectory(atPath: cli.workspace).sorted()
    try #require(before == ["workspace.sqlite"])
    for run in 1...20 {
      let idle = try MCPRun(
        workspace: cli.workspace,
        lines: initializeLines + [
          #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
          #"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"dolphin://digest/current"}}"#,
        ])
      #expect(idle.status == 0, "run \(run): \(idle.stderr)")
      let after = try FileManager.default.contentsOfDirectory(atPath: cli.workspace).sorted()
      try #require(after == before, "run \(run): \(after)")
    }
  }
}
