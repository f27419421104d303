import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `dolphin doctor` opened the workspace read-only and said "Nothing was changed", yet left an
/// empty `-wal` and a `-shm` behind (also beside a truncated database): a read-only SQLite
/// connection creates them and can never remove them. ``SQLiteSideFiles`` removes what a read
/// created, as SQLite's last connection would, and nothing another connection still needs.
@Suite("Side files a read-only open created")
struct SQLiteSideFilesTests {
  /// A workspace of one record, closed (so without side files), and its database path.
  static func workspace(_ dir: TemporaryDirectory) throws -> String {
    do {
      let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
      try store.write { tx in try tx.insertKnowledge(item(1, title: "Kept")) }
    }
    let db = dir.appending("ws").appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    try #require(regularFiles(under: dir.appending("ws")) == ["workspace.sqlite"])
    return db
  }

  /// Opens the workspace read-only and reads from it, as `doctor` does; the store stays open.
  static func readOnlyRead(_ db: String) throws -> SQLiteWorkspaceStore {
    let store = try SQLiteWorkspaceStore.open(
      directory: URL(fileURLWithPath: db).deletingLastPathComponent(), readOnly: true)
    #expect(try store.integrityCheck() == ["ok"])
    return store
  }

  @Test("a read-only read leaves -wal and -shm; removing what it created restores the directory and the database")
  func removesWhatTheReadCreated() throws {
    let dir = TemporaryDirectory("sidefiles")
    defer { dir.remove() }
    let db = try Self.workspace(dir)
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let sideFiles = SQLiteSideFiles(databasePath: db)
    #expect(sideFiles.existing.isEmpty)
    let store = try Self.readOnlyRead(db)
    store.closeConnection()
    // The premise: SQLite created both and its read-only connection left them.
    #expect(regularFiles(under: dir.appending("ws")) == ["workspace.sqlite", "workspace.sqlite-shm", "workspace.sqlite-wal"])
    let removal = sideFiles.removeCreated()
    #expect(removal.removed == [db + "-wal", db + "-shm"] && removal.kept.isEmpty && removal.reason == nil)
    #expect(regularFiles(under: dir.appending("ws")) == ["workspace.sqlite"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    // The workspace works as before.
    let again = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    #expect(try again.read { tx in try tx.knowledge(id: sequentialID(1))?.title } == "Kept")
  }

  @Test("side files that existed before the read are left exactly as they were")
  func keepsWhatExistedBefore() throws {
    let dir = TemporaryDirectory("sidefiles-existing")
    defer { dir.remove() }
    let db = try Self.workspace(dir)
    // Another connection holds the workspace open, so its -wal and -shm exist (with a commit).
    let other = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    try other.write { tx in try tx.insertKnowledge(item(2, title: "In the WAL")) }
    let sideFiles = SQLiteSideFiles(databasePath: db)
    #expect(sideFiles.existing == ["-wal", "-shm"])
    let wal = try Data(contentsOf: URL(fileURLWithPath: db + "-wal"))
    try Self.readOnlyRead(db).closeConnection()
    #expect(sideFiles.removeCreated() == .none)
    #expect(try Data(contentsOf: URL(fileURLWithPath: db + "-wal")) == wal)
    other.closeConnection()
  }

  @Test("side files another connection uses are kept; that connection removes them when it closes")
  func keepsWhatAnotherConnectionUses() throws {
    let dir = TemporaryDirectory("sidefiles-in-use")
    defer { dir.remove() }
    let db = try Self.workspace(dir)
    let sideFiles = SQLiteSideFiles(databasePath: db)
    let reader = try Self.readOnlyRead(db)
    // Another connection opens the workspace meanwhile (in this process: the lock conflicts
    // with this process's own SQLite connections too).
    let other = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    #expect(try other.read { tx in try tx.knowledge(id: sequentialID(1))?.title } == "Kept")
    reader.closeConnection()
    let removal = sideFiles.removeCreated()
    #expect(removal.removed.isEmpty && removal.reason == .inUse, "\(removal)")
    #expect(regularFiles(under: dir.appending("ws")) == ["workspace.sqlite", "workspace.sqlite-shm", "workspace.sqlite-wal"])
    try other.write { tx in try tx.insertKnowledge(item(2, title: "Written after")) }
    other.closeConnection()  // The last connection: SQLite checkpoints and removes them.
    #expect(regularFiles(under: dir.appending("ws")) == ["workspace.sqlite"])
    let again = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    #expect(try again.read { tx in try tx.knowledge(id: sequentialID(2))?.title } == "Written after")
  }

  @Test("a new -wal holding another connection's commits is never removed, and nothing is lost")
  func keepsCommitsInANewWAL() throws {
    let dir = TemporaryDirectory("sidefiles-commits")
    defer { dir.remove() }
    let db = try Self.workspace(dir)
    let sideFiles = SQLiteSideFiles(databasePath: db)
    let reader = try Self.readOnlyRead(db)
    // A writer commits and closes while the reader is open: its close may not checkpoint, so the
    // commit stays in the -wal the read created.
    do {
      let writer = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
      try writer.write { tx in try tx.insertKnowledge(item(2, title: "Only in the WAL")) }
      writer.closeConnection()
    }
    reader.closeConnection()
    let walBytes = Int64(try Data(contentsOf: URL(fileURLWithPath: db + "-wal")).count)
    try #require(walBytes > 0)
    let removal = sideFiles.removeCreated()
    #expect(removal.removed.isEmpty && removal.reason == .holdsCommits(bytes: walBytes), "\(removal)")
    #expect(Int64(try Data(contentsOf: URL(fileURLWithPath: db + "-wal")).count) == walBytes)
    let again = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    #expect(try again.read { tx in try tx.knowledge(id: sequentialID(2))?.title } == "Only in the WAL")
  }

  @Test("a symbolic link in the way is never followed or removed")
  func leavesLinksAlone() throws {
    let dir = TemporaryDirectory("sidefiles-link")
    defer { dir.remove() }
    let db = try Self.workspace(dir)
    let sideFiles = SQLiteSideFiles(databasePath: db)
    let target = dir.appending("elsewhere").path
    #expect(FileManager.default.createFile(atPath: target, contents: Data()))
    try FileManager.default.createSymbolicLink(atPath: db + "-shm", withDestinationPath: target)
    #expect(sideFiles.created.isEmpty)
    #expect(sideFiles.removeCreated() == .none)
    var st = stat()
    #expect(lstat(db + "-shm", &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK)
  }
}
