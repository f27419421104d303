import ContinuityKit
import Foundation
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `Creation.atFirstWrite`: a missing workspace exists on disk only once a write succeeded, and
/// a write that fails leaves no file behind — without ever deleting anything afterwards.
@Suite("Workspace created at its first write", .serialized)
struct DeferredCreationTests {
  struct Refused: Error {}

  @Test("reads see an empty workspace and create nothing; a failing write creates nothing")
  func failingWriteCreatesNothing() throws {
    let dir = TemporaryDirectory("deferred")
    defer { dir.remove() }
    let ws = dir.appending("new/ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    #expect(store.databasePath == ws.appendingPathComponent("workspace.sqlite").path)
    #expect(try store.read { tx in try tx.knowledgeCount() } == 0)
    #expect(try store.integrityCheck() == ["ok"])
    #expect(!store.existsOnDisk)
    // Refused by the store (a relationship to a missing item) and by the body itself.
    let dangling = item(2, relationships: [KnowledgeRelationship(kind: .supports, targetID: sequentialID(99))])
    #expect(throws: WorkspaceError.self) { try store.write { tx in try tx.insertKnowledge(dangling) } }
    #expect(throws: Refused.self) {
      try store.write { tx in
        try tx.insertKnowledge(item(1))
        throw Refused()
      }
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appending("new").path))
    #expect(try store.read { tx in try tx.knowledgeCount() } == 0)
  }

  @Test("the first write that succeeds creates the files (0700, 0600) and commits once")
  func succeedingWriteCreates() throws {
    let dir = TemporaryDirectory("deferred-ok")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    var runs: [Bool] = []
    try store.write { tx in
      runs.append(tx.isRehearsal)
      try tx.insertKnowledge(item(1))
    }
    // Tried on the empty in-memory workspace first, then once for real.
    #expect(runs == [true, false])
    #expect(store.existsOnDisk)
    var st = stat()
    #expect(stat(ws.path, &st) == 0 && st.st_mode & 0o777 == 0o700)
    #expect(stat(ws.appendingPathComponent("workspace.sqlite").path, &st) == 0 && st.st_mode & 0o777 == 0o600)
    let reopened = try SQLiteWorkspaceStore.open(directory: ws, create: false)
    #expect(try reopened.read { tx in try tx.listKnowledge().map(\.id) } == [sequentialID(1)])
    // Later writes run once.
    runs = []
    try store.write { tx in
      runs.append(tx.isRehearsal)
      try tx.insertKnowledge(item(2))
    }
    #expect(runs == [false])
    #expect(try reopened.read { tx in try tx.knowledgeCount() } == 2)
  }

  @Test("two stores waiting on the same new workspace: both first writes land, and each sees the other's")
  func concurrentFirstWrites() throws {
    let dir = TemporaryDirectory("deferred-race")
    defer { dir.remove() }
    for round in 0..<10 {
      let ws = dir.appending("ws\(round)")
      let a = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
      let b = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 3) { n in
        do {
          switch n {
          case 0: try a.write { tx in try tx.insertKnowledge(item(1)) }
          case 1: try b.write { tx in try tx.insertKnowledge(item(2)) }
          default:
            // A failing first write racing them removes nothing.
            _ = try? SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite).write { tx in
              try tx.insertKnowledge(item(3))
              throw Refused()
            }
          }
        } catch {
          failures.withLock { $0.append("\(n): \(error)") }
        }
      }
      #expect(failures.withLock { $0 }.isEmpty, "round \(round)")
      for store in [a, b] {
        #expect(try store.read { tx in try tx.listKnowledge().map(\.id).sorted() } == [sequentialID(1), sequentialID(2)], "round \(round)")
      }
    }
  }

  @Test("a store waiting for its first write reads what another process created meanwhile")
  func attachesToFilesCreatedElsewhere() throws {
    let dir = TemporaryDirectory("deferred-attach")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let waiting = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    #expect(try waiting.read { tx in try tx.knowledgeCount() } == 0)
    let other = try SQLiteWorkspaceStore.open(directory: ws)
    try other.write { tx in try tx.insertKnowledge(item(1)) }
    #expect(try waiting.read { tx in try tx.listKnowledge().map(\.id) } == [sequentialID(1)])
    #expect(waiting.existsOnDisk)
    // Its own write is then an ordinary one on those files: run once, never on an empty copy.
    var runs: [Bool] = []
    try waiting.write { tx in
      runs.append(tx.isRehearsal)
      try tx.insertKnowledge(item(2))
    }
    #expect(runs == [false])
    #expect(try other.read { tx in try tx.knowledgeCount() } == 2)
  }

  @Test("read-only and .never still refuse a missing workspace")
  func neverAndReadOnly() throws {
    let dir = TemporaryDirectory("deferred-never")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    #expect(throws: WorkspaceError.noWorkspace(directory: ws.path)) {
      try SQLiteWorkspaceStore.open(directory: ws, creation: .never)
    }
    #expect(throws: WorkspaceError.noWorkspace(directory: ws.path)) {
      try SQLiteWorkspaceStore.open(directory: ws, readOnly: true, creation: .atFirstWrite)
    }
    #expect(!FileManager.default.fileExists(atPath: ws.path))
  }
}
