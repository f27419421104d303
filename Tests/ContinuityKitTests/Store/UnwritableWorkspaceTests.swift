import ContinuityKit
import Foundation
import Synchronization
import Testing
import TestSupport

/// The read-only fallback's pieces, testable as any user (root included): the decision when
/// SQLite's ordinary read-only open fails, the `immutable=1` open itself, `create: false`, and
/// how open failures are classified. The end-to-end behaviour on a read-only mount is in
/// `ReadOnlyWorkspaceTests` (DolphinCommandsTests).
@Suite("Unwritable workspaces")
struct UnwritableWorkspaceTests {
  @Test("immutable mode only when no committed change can be hidden in a -wal or a rollback journal")
  func decision() {
    #expect(SQLiteWorkspaceStore.unwritableOpen(walBytes: nil, journalBytes: nil) == .immutable)
    #expect(SQLiteWorkspaceStore.unwritableOpen(walBytes: 0, journalBytes: nil) == .immutable)
    #expect(SQLiteWorkspaceStore.unwritableOpen(walBytes: 0, journalBytes: 0) == .immutable)
    guard case .refuse(let wal) = SQLiteWorkspaceStore.unwritableOpen(walBytes: 8272, journalBytes: nil) else {
      Issue.record("a -wal with content must be refused")
      return
    }
    #expect(wal.contains("committed changes are still in its -wal file (8272 bytes)"))
    guard case .refuse(let journal) = SQLiteWorkspaceStore.unwritableOpen(walBytes: nil, journalBytes: 512) else {
      Issue.record("a rollback journal with content must be refused")
      return
    }
    #expect(journal.contains("rollback journal"))
  }

  @Test("an immutable connection reads the database without creating -wal or -shm, and cannot write", arguments: ["ws", "a ?#%é dir"])
  func immutableConnection(_ name: String) throws {
    let dir = TemporaryDirectory("immutable")
    defer { dir.remove() }
    let ws = dir.appending(name)
    do {
      let store = try SQLiteWorkspaceStore.open(directory: ws)
      try store.write { tx in try tx.insertKnowledge(item(1, title: "On disk")) }
    }  // closing the last connection checkpoints and removes the -wal and -shm
    #expect(try FileManager.default.contentsOfDirectory(atPath: ws.path) == ["workspace.sqlite"])
    let db = ws.appendingPathComponent("workspace.sqlite").path
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let conn = try SQLiteConnection(path: db, readOnly: true, create: false, immutable: true)
    #expect(try conn.integer("SELECT count(*) FROM knowledge WHERE title = 'On disk'") == 1)
    #expect(conn.isReadOnly)
    #expect(throws: WorkspaceError.self) { try conn.execute("DELETE FROM knowledge") }
    conn.close()
    #expect(try FileManager.default.contentsOfDirectory(atPath: ws.path) == ["workspace.sqlite"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
  }

  @Test("a writable directory has no write blocker")
  func writable() {
    let dir = TemporaryDirectory("writable")
    defer { dir.remove() }
    #expect(SQLiteWorkspaceStore.writeBlocker(databasePath: dir.appending("workspace.sqlite").path) == nil)
  }

  /// Another process's last connection deletes the `-wal` file when it closes. A check that
  /// asked "exists?" and then "writable?" once saw it vanish in between and refused a capture
  /// ("may not write the workspace's side files", CI, ten captures racing).
  @Test("a -wal file that comes and goes while the check runs is never called unwritable")
  func vanishingSideFile() throws {
    let dir = TemporaryDirectory("vanishing-wal")
    defer { dir.remove() }
    let db = dir.appending("workspace.sqlite").path
    #expect(FileManager.default.createFile(atPath: db, contents: Data(), attributes: [.posixPermissions: 0o600]))
    let wal = db + "-wal"
    // A thread of its own, not a task: the cooperative pool may be busy with other tests.
    let rounds = Mutex(0)
    let stop = Mutex(false)
    let finished = DispatchSemaphore(value: 0)
    let churn = Thread {
      while !stop.withLock({ $0 }) {
        let fd = open(wal, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
        unlink(wal)
        rounds.withLock { $0 += 1 }
      }
      finished.signal()
    }
    churn.start()
    while rounds.withLock({ $0 }) == 0 { usleep(100) }
    var blockers: [String] = []
    for _ in 0..<50_000 {
      if let reason = SQLiteWorkspaceStore.writeBlocker(databasePath: db) { blockers.append(reason) }
    }
    stop.withLock { $0 = true }
    finished.wait()
    let churned = rounds.withLock { $0 }
    #expect(churned > 100, "the -wal file came and went only \(churned) times")
    #expect(blockers.isEmpty, "\(blockers.count) of 50000 checks: \(blockers.first ?? "")")
  }

  @Test("create: false and readOnly never create a directory or a database")
  func noCreation() throws {
    let dir = TemporaryDirectory("nocreate")
    defer { dir.remove() }
    let missing = dir.appending("a/b")
    #expect(throws: WorkspaceError.noWorkspace(directory: missing.path)) {
      try SQLiteWorkspaceStore.open(directory: missing, create: false)
    }
    #expect(throws: WorkspaceError.noWorkspace(directory: missing.path)) {
      try SQLiteWorkspaceStore.open(directory: missing, readOnly: true)
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appending("a").path))
    // An existing, empty directory is no workspace either, and stays empty.
    #expect(throws: WorkspaceError.noWorkspace(directory: dir.path)) {
      try SQLiteWorkspaceStore.open(directory: dir.url, create: false)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    #expect(
      WorkspaceError.noWorkspace(directory: "/x").description
        == "no workspace at /x (nothing has been captured there; `dolphin capture KIND TITLE` creates it)")
  }

  @Test("open failures are classified by what the user can act on")
  func classification() throws {
    let dir = TemporaryDirectory("classify")
    defer { dir.remove() }
    func failure(_ url: URL) -> SQLiteWorkspaceStore.OpenFailure? {
      do {
        _ = try SQLiteWorkspaceStore.open(directory: url, readOnly: true)
        return nil
      } catch {
        return SQLiteWorkspaceStore.openFailure(error, directory: url)
      }
    }
    #expect(failure(dir.appending("missing")) == .noWorkspace)
    let file = dir.appending("file")
    try Data("x".utf8).write(to: file)
    #expect(failure(file) == .notADirectory)
    let dbDir = dir.appending("db-is-dir")
    try FileManager.default.createDirectory(at: dbDir.appendingPathComponent("workspace.sqlite"), withIntermediateDirectories: true)
    #expect(failure(dbDir) == .notADirectory)
    let junk = dir.appending("junk")
    try FileManager.default.createDirectory(at: junk, withIntermediateDirectories: true)
    try Data(repeating: 0x41, count: 8192).write(to: junk.appendingPathComponent("workspace.sqlite"))
    #expect(failure(junk) == .notADatabase)
  }
}
