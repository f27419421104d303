import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 19-a: a workspace deleted, or replaced by another one at the same path, while a
/// process kept it open went on answering from the old file, and its writes were acknowledged
/// and then lost. The store notices (``SQLiteWorkspaceStore/changeAtPath()``) and refuses such a
/// write; opening the workspace again reaches what is there now.
@Suite("A workspace removed or replaced while open", .serialized)
struct WorkspaceReplacedTests {
  /// How the workspace at the path changed.
  struct Change: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var expected: SQLiteWorkspaceStore.PathChange
    /// Changes the workspace at `workspace`, the store having it open.
    var apply: @Sendable (_ workspace: URL) throws -> Void
  }

  static let changes = [
    Change(testDescription: "directory deleted", expected: .removed) { ws in
      try FileManager.default.removeItem(at: ws)
    },
    Change(testDescription: "database deleted", expected: .removed) { ws in
      try FileManager.default.removeItem(at: ws.appendingPathComponent(SQLiteWorkspaceStore.fileName))
    },
    Change(testDescription: "directory moved away", expected: .removed) { ws in
      try FileManager.default.moveItem(at: ws, to: ws.deletingLastPathComponent().appendingPathComponent("moved"))
    },
    Change(testDescription: "directory deleted, another workspace created at the path", expected: .replaced) { ws in
      try FileManager.default.removeItem(at: ws)
      let other = try SQLiteWorkspaceStore.open(directory: ws)
      try other.write { tx in try tx.insertKnowledge(item(7, title: "Made by another process")) }
      other.closeConnection()
    },
    Change(testDescription: "database replaced by another workspace's file", expected: .replaced) { ws in
      let elsewhere = ws.deletingLastPathComponent().appendingPathComponent("elsewhere")
      let other = try SQLiteWorkspaceStore.open(directory: elsewhere)
      try other.write { tx in try tx.insertKnowledge(item(7, title: "Made by another process")) }
      try other.checkpoint()
      other.closeConnection()
      let database = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName)
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
      try FileManager.default.moveItem(at: elsewhere.appendingPathComponent(SQLiteWorkspaceStore.fileName), to: database)
    },
  ]

  @Test("the store says what changed and refuses to write; nothing reaches the old file or the new one", arguments: changes)
  func refusesWrite(_ change: Change) throws {
    let dir = TemporaryDirectory("replaced")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    try store.write { tx in try tx.insertKnowledge(item(1, title: "Before")) }
    #expect(store.changeAtPath() == nil)
    #expect(store.isStillAtPath)

    try change.apply(ws)
    #expect(store.changeAtPath() == change.expected)
    #expect(!store.isStillAtPath)
    let removed = change.expected == .removed
    #expect(throws: WorkspaceError.notAtPath(file: store.databasePath, removed: removed)) {
      try store.write { tx in try tx.insertKnowledge(item(2, title: "After")) }
    }
    // The write was refused before it began: the old connection still holds only "Before".
    #expect(try store.read { tx in try tx.listKnowledge().map(\.title) } == ["Before"])
    let message = WorkspaceError.notAtPath(file: store.databasePath, removed: removed).description
    #expect(message.contains("nothing was written"))
    #expect(message.contains(removed ? "was deleted or moved away" : "is another file than the one this process opened"))
    #expect(message.contains("Open the workspace again"))
    store.closeConnection()

    // What is at the path now is untouched by the refused write.
    if removed {
      #expect(!FileManager.default.fileExists(atPath: ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path))
    } else {
      let now = try SQLiteWorkspaceStore.open(directory: ws, create: false)
      #expect(try now.read { tx in try tx.listKnowledge().map(\.title) } == ["Made by another process"])
      #expect(now.changeAtPath() == nil)
      now.closeConnection()
    }
  }

  @Test("a store whose files do not exist yet never counts as changed; once its first write created them, it does")
  func deferredStore() throws {
    let dir = TemporaryDirectory("replaced-deferred")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    #expect(store.changeAtPath() == nil)
    try store.write { tx in try tx.insertKnowledge(item(1)) }
    #expect(store.changeAtPath() == nil)
    try FileManager.default.removeItem(at: ws)
    #expect(store.changeAtPath() == .removed)
    #expect(throws: WorkspaceError.notAtPath(file: store.databasePath, removed: true)) {
      try store.write { tx in try tx.insertKnowledge(item(2)) }
    }
    // Nothing was recreated by the refused write.
    #expect(!FileManager.default.fileExists(atPath: ws.path))
    store.closeConnection()
  }

  @Test("the in-memory store never changes")
  func inMemory() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in try tx.insertKnowledge(item(1)) }
    #expect(store.changeAtPath() == nil)
  }
}
