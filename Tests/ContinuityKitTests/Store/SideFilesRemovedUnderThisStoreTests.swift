import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 29-b, 1: with `workspace.sqlite-wal` (or the `-shm`) deleted while `dolphin mcp` had
/// the workspace open, the server went on acknowledging captures into its unlinked `-wal`; a
/// SIGKILL then lost all of them, and every commit made before the deletion that no checkpoint
/// had copied yet. Now a store that finds its side files gone copies what they hold into the
/// database file and opens new ones: after each commit, and whenever asked.
///
/// What survives a kill is what the database file and the `-wal` at its path hold (a `-wal`
/// deleted under a process goes with it), so each test copies `workspace.sqlite` and the `-wal`
/// found at its path into another directory, as a crash leaves them, and opens the copy.
@Suite("Side files deleted under this process's own store")
struct SideFilesRemovedUnderThisStoreTests {
  static func titles(ofCopyOf database: String, in dir: TemporaryDirectory) throws -> [String] {
    let copy = dir.appending("copy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
    let target = copy.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    try FileManager.default.copyItem(atPath: database, toPath: target)
    if FileManager.default.fileExists(atPath: database + "-wal") {
      try FileManager.default.copyItem(atPath: database + "-wal", toPath: target + "-wal")
    }
    let store: SQLiteWorkspaceStore
    do {
      store = try SQLiteWorkspaceStore.open(directory: copy, create: false)
    } catch .noWorkspace {
      return []  // the file alone holds no schema yet: everything was in the -wal
    }
    defer { store.closeConnection() }
    #expect(try store.integrityCheck() == ["ok"])
    return try store.read { tx in try (1...4).compactMap { try tx.knowledge(id: sequentialID($0))?.title } }
  }

  @Test(
    "a write after the deletion lands in the database file, with every earlier commit, and new side files exist",
    arguments: [["-wal"], ["-shm"], ["-wal", "-shm"]])
  func writeAfterDeletion(deleted: [String]) throws {
    let dir = TemporaryDirectory("sidefiles-own-write")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    let db = store.databasePath
    try store.write { tx in try tx.insertKnowledge(item(1, title: "Before the deletion")) }
    // In the -wal at the path, which a crash leaves and the copy takes along.
    #expect(try Self.titles(ofCopyOf: db, in: dir) == ["Before the deletion"])

    for suffix in deleted { try FileManager.default.removeItem(atPath: db + suffix) }
    #expect(store.removedSideFiles() == deleted.map { db + $0 })
    try store.write { tx in try tx.insertKnowledge(item(2, title: "After the deletion")) }

    #expect(try Self.titles(ofCopyOf: db, in: dir) == ["Before the deletion", "After the deletion"])
    for suffix in SQLiteSideFiles.suffixes { #expect(FileManager.default.fileExists(atPath: db + suffix)) }
    #expect(store.removedSideFiles().isEmpty)
    // The store goes on as before, on its new side files.
    try store.write { tx in try tx.insertKnowledge(item(3, title: "Later")) }
    #expect(try store.read { tx in try tx.knowledgeCount() } == 3)
    #expect(try store.integrityCheck() == ["ok"])
  }

  @Test("asked while idle, the store copies what the deleted -wal held and reports it; asked again, it finds nothing")
  func rescueWhileIdle() throws {
    let dir = TemporaryDirectory("sidefiles-own-idle")
    defer { dir.remove() }
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let db = store.databasePath
    try store.write { tx in
      try tx.insertKnowledge(item(1, title: "One"))
      try tx.insertKnowledge(item(2, title: "Two"))
    }
    #expect(try store.rescueRemovedSideFiles() == nil)
    try FileManager.default.removeItem(atPath: db + "-wal")

    let rescue = try #require(try store.rescueRemovedSideFiles())
    #expect(rescue.removed == [db + "-wal"])
    #expect(rescue.framesCopied > 0)
    #expect(try Self.titles(ofCopyOf: db, in: dir) == ["One", "Two"])
    #expect(try store.rescueRemovedSideFiles() == nil)
    #expect(try store.read { tx in try tx.knowledge(id: sequentialID(2))?.title } == "Two")
  }

  @Test("a -wal replaced by another file counts as removed")
  func replacedWAL() throws {
    let dir = TemporaryDirectory("sidefiles-own-replaced")
    defer { dir.remove() }
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let db = store.databasePath
    try store.write { tx in try tx.insertKnowledge(item(1, title: "One")) }
    try FileManager.default.removeItem(atPath: db + "-wal")
    #expect(FileManager.default.createFile(atPath: db + "-wal", contents: Data(), attributes: [.posixPermissions: 0o600]))
    #expect(store.removedSideFiles() == [db + "-wal"])
    try store.write { tx in try tx.insertKnowledge(item(2, title: "Two")) }
    #expect(try Self.titles(ofCopyOf: db, in: dir) == ["One", "Two"])
    #expect(store.removedSideFiles().isEmpty)
  }

  @Test("side files in place: no check finds anything, and the in-memory and read-only stores are never checked")
  func nothingRemoved() throws {
    let dir = TemporaryDirectory("sidefiles-own-none")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    try store.write { tx in try tx.insertKnowledge(item(1, title: "One")) }
    #expect(store.removedSideFiles().isEmpty)
    #expect(try store.rescueRemovedSideFiles() == nil)
    let memory = SQLiteWorkspaceStore.inMemory()
    try memory.write { tx in try tx.insertKnowledge(item(1, title: "One")) }
    #expect(memory.removedSideFiles().isEmpty)
    #expect(try memory.rescueRemovedSideFiles() == nil)
    let reader = try SQLiteWorkspaceStore.open(directory: ws, readOnly: true)
    #expect(reader.removedSideFiles().isEmpty)
    #expect(try reader.rescueRemovedSideFiles() == nil)
  }

  #if os(Linux)
    /// Review 30-b, 1: with another process reading through the same deleted files, the copy
    /// stopped part way, and once both processes were killed the database file was "malformed".
    @Test("another process has the deleted files open: nothing is copied and writes are refused until it closes")
    func anotherProcessHoldsTheDeletedFiles() throws {
      let dir = TemporaryDirectory("sidefiles-own-shared")
      defer { dir.remove() }
      let ws = dir.appending("ws")
      let store = try SQLiteWorkspaceStore.open(directory: ws)
      let db = store.databasePath
      try store.write { tx in try tx.insertKnowledge(item(1, title: "Kept")) }
      let holder = try SideFilesRemovedWhileOpenTests.Holder(database: db)
      let pid = holder.process.processIdentifier
      let before = try Data(contentsOf: URL(fileURLWithPath: db))
      for suffix in SQLiteSideFiles.suffixes { try FileManager.default.removeItem(atPath: db + suffix) }

      do {
        try store.write { tx in try tx.insertKnowledge(item(2, title: "Refused while shared")) }
        Issue.record("a write was acknowledged into side files another process also holds")
      } catch {
        let message = String(describing: error)
        #expect(message.contains("and process \(pid) has it open too; nothing was written"), "\(message)")
      }
      #expect(throws: WorkspaceError.self) { try store.rescueRemovedSideFiles() }
      // Nothing was copied into the database file: it is exactly as it was.
      #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
      #expect(try store.read { tx in try tx.knowledge(id: sequentialID(2)) } == nil)

      try holder.finish()
      let rescue = try #require(try store.rescueRemovedSideFiles())
      #expect(rescue.removed == SQLiteSideFiles.suffixes.map { db + $0 })
      // The holder's change (item 1's title) is in the database file now.
      #expect(try Self.titles(ofCopyOf: db, in: dir) == ["Changed by the holder"])
      for suffix in SQLiteSideFiles.suffixes { #expect(FileManager.default.fileExists(atPath: db + suffix)) }
      try store.write { tx in try tx.insertKnowledge(item(2, title: "After it closed")) }
      #expect(try store.read { tx in try tx.knowledgeCount() } == 2)
      #expect(try store.integrityCheck() == ["ok"])
    }
  #endif
}
