import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization
import Testing
import TestSupport

/// A directory holding only a legacy `workspace.json` is a workspace not created yet: its import
/// belongs to the first write that succeeds, happens once however many processes race, and a
/// refused command leaves the directory as it was.
@Suite("A legacy workspace.json is imported by the first write that succeeds", .serialized)
struct LegacyFirstWriteTests {
  static let id = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

  /// A new directory holding a copy of the v3 fixture as `workspace.json`.
  static func legacyDirectory(_ dir: TemporaryDirectory) throws -> URL {
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let fixture = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v3.json")
    try FileManager.default.copyItem(at: fixture, to: ws.appendingPathComponent("workspace.json"))
    return ws
  }

  static func contents(_ ws: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: ws.path).sorted()
  }

  static let refused: [[String]] = [
    ["capture", "fact", ""], ["task", "add", ""], ["capture", "fact", "x", "--relates", "supersedes:" + id],
    ["memory", "save", "password=hunter22222"], ["migrate", "{dir}/bad.json"], ["task", "complete", id],
  ]

  @Test("a refused command leaves only workspace.json: no database, no backup, nothing imported", arguments: refused)
  func refusedLeavesNothing(_ args: [String]) throws {
    let dir = TemporaryDirectory("legacy-refused")
    defer { dir.remove() }
    let ws = try Self.legacyDirectory(dir)
    try Data("{".utf8).write(to: dir.appending("bad.json"))
    let r = try runDolphin(args.map { $0.replacingOccurrences(of: "{dir}", with: dir.path) } + ["--workspace", ws.path])
    #expect(r.status != 0, "\(r.stdout)\(r.stderr)")
    #expect(!r.stderr.contains("imported legacy"), "\(r.stderr)")
    #expect(try Self.contents(ws) == ["workspace.json"], "\(r.stderr)")
  }

  @Test("after a refusal, the first write that succeeds imports the legacy records with it, and says so")
  func firstSuccessImports() throws {
    let dir = TemporaryDirectory("legacy-first")
    defer { dir.remove() }
    let ws = try Self.legacyDirectory(dir)
    #expect(try runDolphin(["capture", "fact", "", "--workspace", ws.path]).status == 4)
    let ok = try runDolphin(["capture", "fact", "kept", "--workspace", ws.path])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(ok.stderr.contains("notice: imported legacy workspace.json (schema v3)"), "\(ok.stderr)")
    #expect(try Self.contents(ws) == ["legacy-backups", "workspace.json", "workspace.sqlite"])
    let tasks = try runDolphin(["task", "list", "--json", "--workspace", ws.path])
    #expect(tasks.stdout.contains("\"title\""), "\(tasks.stdout)")
    // A second write does not import again, nor say so.
    let again = try runDolphin(["capture", "fact", "again", "--workspace", ws.path])
    #expect(again.status == 0 && !again.stderr.contains("imported legacy"), "\(again.stderr)")
  }

  @Test("migrate of the very workspace.json of a new workspace imports it and reports it")
  func migrateThePendingFile() throws {
    let dir = TemporaryDirectory("legacy-migrate")
    defer { dir.remove() }
    let ws = try Self.legacyDirectory(dir)
    let r = try runDolphin(["migrate", ws.appendingPathComponent("workspace.json").path, "--workspace", ws.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Imported legacy schema v3"), "\(r.stdout)")
    #expect(FileManager.default.fileExists(atPath: ws.appendingPathComponent("workspace.sqlite").path))
  }

  @Test("ten first captures racing on a legacy directory all succeed and import it once (3 rounds)")
  func racingFirstWrites() async throws {
    for n in 0..<3 {
      let dir = TemporaryDirectory("legacy-race-\(n)")
      defer { dir.remove() }
      let round = try Self.legacyDirectory(dir)
      let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
        for i in 0..<10 { group.addTask { try runDolphin(["capture", "fact", "lr \(i)", "--workspace", round.path]) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      // These failed with "UNIQUE constraint failed: conversation.id": two imports.
      for r in results { #expect(r.status == 0, "\(r.stderr)") }
      #expect(results.filter { $0.stderr.contains("imported legacy") }.count == 1)
      let status = try runDolphin(["status", "--json", "--workspace", round.path])
      let obj = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
      let counts = obj?["counts"] as? [String: Any]
      #expect(counts?["conversation"] as? Int == 1, "\(status.stdout)")
      #expect(counts?["knowledge"] as? Int == 10, "\(status.stdout)")
    }
  }

  /// Review (s14): a store opened before its directory existed read `<dir>/workspace.json` by
  /// name when the command started, from a directory nothing had checked — one another user
  /// made meanwhile through a path they control — and imported it into this user's new
  /// workspace at its first write.
  @Test("a workspace.json in a directory that appeared after the store was opened is never read or imported")
  func legacyFileInDirectoryMadeMeanwhile() throws {
    let dir = TemporaryDirectory("legacy-made-meanwhile")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    #expect(store.verifiedDirectory == nil)
    // Someone else makes the directory, with a legacy file, before the command reads it.
    _ = try Self.legacyDirectory(dir)
    let reports = Mutex(0)
    let planned = try KnowledgeEngine.importLegacyWorkspaceAtFirstWrite(in: ws, store: store) { _ in reports.withLock { $0 += 1 } }
    #expect(!planned)
    try store.write { tx in try tx.setSettings(tx.settings()) }
    #expect(try store.read { tx in (try tx.memoryCount(), try tx.listConversations().count) } == (0, 0))
    #expect(reports.withLock { $0 } == 0)
    #expect(try Self.contents(ws).filter { !$0.hasPrefix("workspace.sqlite-") } == ["workspace.json", "workspace.sqlite"], "no backup was made")

    // The same directory, existing when a store is opened, is checked and its file imported.
    let other = TemporaryDirectory("legacy-checked")
    defer { other.remove() }
    let checked = try Self.legacyDirectory(other)
    let opened = try SQLiteWorkspaceStore.open(directory: checked, creation: .atFirstWrite)
    #expect(opened.verifiedDirectory == checked.path)
    #expect(try KnowledgeEngine.importLegacyWorkspaceAtFirstWrite(in: checked, store: opened) { _ in })
    try opened.write { tx in try tx.setSettings(tx.settings()) }
    #expect(try opened.read { tx in try tx.listConversations().count } == 1)
  }

  @Test("dolphin mcp starting and stopping without a tool call creates nothing and imports nothing")
  func mcpStartCreatesNothing() throws {
    let dir = TemporaryDirectory("legacy-mcp")
    defer { dir.remove() }
    let ws = try Self.legacyDirectory(dir)
    let run = try MCPRun(
      workspace: ws.path,
      lines: initializeLines + [#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!run.stderr.contains("imported legacy"), "\(run.stderr)")
    #expect(try Self.contents(ws) == ["workspace.json"], "\(run.stderr)")
  }
}
