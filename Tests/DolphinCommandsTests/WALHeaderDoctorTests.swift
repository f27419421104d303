import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review (s17): a `-wal` damaged outside SQLite loses the transactions only it held — SQLite
/// ignores a log without a valid header — and `doctor` called such a workspace healthy.
@Suite("doctor and a write-ahead log that is not one", .serialized)
struct WALHeaderDoctorTests {
  @Test("a -wal of bytes without a WAL header is a problem doctor names (exit 5); the next write clears it")
  func garbageLog() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Kept in the database"]).status == 0)
    let wal = cli.workspace + "/workspace.sqlite-wal"
    var bytes = [UInt8](repeating: 0, count: 5_000)
    for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
    #expect(FileManager.default.createFile(atPath: wal, contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stdout.contains("Write-ahead log: \(wal) (5000 bytes) does not start with a WAL header"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("changes committed only in it"), "\(doctor.stdout)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(try cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(json["walProblem"] as? String == "\(wal) (5000 bytes) does not start with a WAL header")
    #expect(json["ok"] as? Bool == false)
    // A header cut short is named too.
    #expect(FileManager.default.createFile(atPath: wal, contents: Data(bytes.prefix(20)), attributes: [.posixPermissions: 0o600]))
    #expect(try cli.run(["doctor"]).stdout.contains("Write-ahead log: \(wal) (20 bytes) is shorter than a WAL header"))
    // The next write starts the log afresh; what the database held is there.
    #expect(try cli.run(["capture", "fact", "After"]).status == 0)
    let after = try cli.run(["doctor"])
    #expect(after.status == 0 && after.stdout.hasSuffix("Doctor: healthy.\n"), "\(after.stdout)")
    #expect(try cli.run(["knowledge", "list"]).stdout.contains("Kept in the database"))
  }

  @Test("a live log of another connection is no problem")
  func liveLog() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "First"]).status == 0)
    // This process keeps the workspace open with a write in its log, as a running `dolphin mcp` would.
    let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: cli.workspace))
    let engine = KnowledgeEngine(store: store)
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "In the log"))
    let size = (try? FileManager.default.attributesOfItem(atPath: cli.workspace + "/workspace.sqlite-wal")[.size] as? Int) ?? 0
    #expect(size >= 32, "the capture left a log: \(size) bytes")
    let doctor = try cli.run(["doctor"])
    #expect(!doctor.stdout.contains("Write-ahead log:"), "\(doctor.stdout)")
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    store.closeConnection()
  }
}
