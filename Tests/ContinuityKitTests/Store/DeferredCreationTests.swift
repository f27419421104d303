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

  // Regression (s17 closing note): the schema was committed step by step before the first
  // write's own transaction, so an `import` killed during that write left an empty workspace
  // that `doctor` called healthy. A body that fails only in the real run (after the files were
  // made) leaves what a kill there leaves: nothing of that transaction.
  @Test("a first write that fails after creating the files leaves a database without schema, which counts as missing")
  func failureAfterCreationLeavesNoWorkspace() throws {
    let dir = TemporaryDirectory("deferred-late")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    #expect(throws: Refused.self) {
      try store.write { tx in
        try tx.insertKnowledge(item(1))
        if !tx.isRehearsal { throw Refused() }
      }
    }
    // The files were made (the rehearsal passed) but hold no schema: no workspace.
    #expect(FileManager.default.fileExists(atPath: ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path))
    #expect(throws: WorkspaceError.noWorkspace(directory: ws.path)) {
      _ = try SQLiteWorkspaceStore.open(directory: ws, creation: .never)
    }
    let inspected = try SQLiteWorkspaceStore.open(directory: ws, readOnly: true)
    #expect(inspected.pendingMigrationSteps.count == WorkspaceSchema.steps.count)
    // The store itself went back to its empty stand-in: reads work and see nothing.
    #expect(!store.existsOnDisk)
    #expect(try store.read { tx in try tx.knowledgeCount() } == 0)
    // The next write that succeeds completes the schema and its rows together.
    try store.write { tx in try tx.insertKnowledge(item(2)) }
    #expect(store.existsOnDisk)
    let reopened = try SQLiteWorkspaceStore.open(directory: ws, creation: .never)
    #expect(reopened.pendingMigrationSteps.isEmpty)
    #expect(try reopened.appliedMigrations() == WorkspaceSchema.steps.map(\.name))
    #expect(try reopened.read { tx in try tx.listKnowledge().map(\.id) } == [sequentialID(2)])
    #expect(try reopened.integrityCheck() == ["ok"])
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

  /// A database file that holds no schema yet, as a first run interrupted before (or right
  /// after creating `schema_migration`) leaves it, and how to make it.
  struct BlankFile: Sendable, CustomTestStringConvertible {
    var testDescription: String
    /// SQL run by `sqlite3` on the new file; nil for a file of 0 bytes.
    var sql: String?
  }

  static let blankFiles = [
    BlankFile(testDescription: "0 bytes", sql: nil),
    BlankFile(testDescription: "an SQLite database without objects", sql: "CREATE TABLE t(x); DROP TABLE t;"),
    BlankFile(
      testDescription: "an empty schema_migration alone",
      sql: "CREATE TABLE schema_migration (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL);"),
  ]

  // Regression (s9/h2): such a file got the whole schema from the open, before a write that
  // was then refused (`dolphin capture fact ""` on a 0-byte workspace.sqlite).
  @Test("a database file without a schema is left byte for byte until a write succeeds, then completed", arguments: blankFiles)
  func blankFileCompletedOnlyByASucceedingWrite(_ blank: BlankFile) throws {
    let dir = TemporaryDirectory("deferred-blank")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: false)
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName)
    if let sql = blank.sql {
      let made = try runProcess("/usr/bin/sqlite3", [db.path, sql])
      try #require(made.status == 0, "sqlite3 is needed to make the file: \(made.stderr)")
    } else {
      try Data().write(to: db)
    }
    let before = try Data(contentsOf: db)
    func unchanged() throws -> Bool {
      try Data(contentsOf: db) == before
        && FileManager.default.contentsOfDirectory(atPath: ws.path) == [SQLiteWorkspaceStore.fileName]
    }

    let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    #expect(try unchanged(), "opening wrote to the file")
    #expect(!store.existsOnDisk)
    #expect(try store.read { tx in try tx.knowledgeCount() } == 0)
    let dangling = item(2, relationships: [KnowledgeRelationship(kind: .supports, targetID: sequentialID(99))])
    #expect(throws: WorkspaceError.self) { try store.write { tx in try tx.insertKnowledge(dangling) } }
    #expect(throws: Refused.self) {
      try store.write { tx in
        try tx.insertKnowledge(item(1))
        throw Refused()
      }
    }
    #expect(try unchanged(), "a refused write changed the file")
    #expect(!store.existsOnDisk)
    // Still no workspace for commands that may not create one.
    #expect(throws: WorkspaceError.noWorkspace(directory: ws.path)) {
      _ = try SQLiteWorkspaceStore.open(directory: ws, creation: .never)
    }

    var runs: [Bool] = []
    try store.write { tx in
      runs.append(tx.isRehearsal)
      try tx.insertKnowledge(item(1))
    }
    #expect(runs == [true, false])
    #expect(store.existsOnDisk)
    let reopened = try SQLiteWorkspaceStore.open(directory: ws, creation: .never)
    #expect(reopened.pendingMigrationSteps.isEmpty)
    #expect(try reopened.read { tx in try tx.listKnowledge().map(\.id) } == [sequentialID(1)])
  }

  @Test("a store waiting on a database file without a schema attaches once another process completes it")
  func blankFileCompletedElsewhere() throws {
    let dir = TemporaryDirectory("deferred-blank-attach")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: false)
    try Data().write(to: ws.appendingPathComponent(SQLiteWorkspaceStore.fileName))
    let waiting = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    #expect(!waiting.existsOnDisk)
    let other = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    try other.write { tx in try tx.insertKnowledge(item(1)) }
    #expect(waiting.existsOnDisk)
    #expect(try waiting.read { tx in try tx.listKnowledge().map(\.id) } == [sequentialID(1)])
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
