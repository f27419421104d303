import ContinuityKit
import Foundation
import Testing
import TestSupport

/// What `dolphin mcp` relies on to open a read-only workspace again for writing: a read-only
/// store can give up its connection while another opens, and a write can be tried without
/// writing. (The permission case itself needs another user: `MCPReopenForWritingTests`.)
@Suite("Reopening a read-only store's connection")
struct ConnectionReopeningTests {
  @Test("a read-only store reads again after its connection was closed for another open")
  func readsAfterReopening() throws {
    let dir = TemporaryDirectory("reconnect")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let writer = try SQLiteWorkspaceStore.open(directory: ws)
    try writer.write { tx in _ = try tx.insertKnowledge(item(1)) }
    let reader = try SQLiteWorkspaceStore.open(directory: ws, readOnly: true)
    #expect(try reader.read { try $0.knowledgeCount() } == 1)

    let count = reader.withConnectionClosed { () -> Int? in
      // Meanwhile another connection of this process opens and writes.
      try? writer.write { tx in _ = try tx.insertKnowledge(item(2)) }
      return try? writer.read { try $0.knowledgeCount() }
    }
    #expect(count == 2)
    #expect(!reader.isConnectionClosed)
    #expect(try reader.read { try $0.knowledgeCount() } == 2)
    #expect(reader.isReadOnly)
  }

  @Test("a store whose database is gone stays closed, and its calls fail instead of reaching SQLite")
  func staysClosedWhenGone() throws {
    let dir = TemporaryDirectory("reconnect")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try SQLiteWorkspaceStore.open(directory: ws).write { tx in _ = try tx.insertKnowledge(item(1)) }
    let reader = try SQLiteWorkspaceStore.open(directory: ws, readOnly: true)
    reader.withConnectionClosed { try? FileManager.default.removeItem(at: ws) }
    #expect(reader.isConnectionClosed)
    #expect(throws: WorkspaceError.self) { try reader.read { try $0.knowledgeCount() } }
    #expect(throws: WorkspaceError.self) { try reader.integrityCheck() }
  }

  @Test("checkWritable begins and rolls back a write on a writable store, and refuses a read-only one")
  func checkWritable() throws {
    let dir = TemporaryDirectory("reconnect")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    try store.write { tx in _ = try tx.insertKnowledge(item(1)) }
    try store.checkWritable()
    #expect(try store.read { try $0.knowledgeCount() } == 1)
    let reader = try SQLiteWorkspaceStore.open(directory: ws, readOnly: true)
    #expect(throws: WorkspaceError.self) { try reader.checkWritable() }
    // A store whose files do not exist yet has nothing to check and creates nothing.
    let deferred = try SQLiteWorkspaceStore.open(directory: dir.appending("later"), creation: .atFirstWrite)
    try deferred.checkWritable()
    #expect(!FileManager.default.fileExists(atPath: dir.appending("later").path))
  }
}
