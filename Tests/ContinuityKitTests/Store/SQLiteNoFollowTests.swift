@testable import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Eighth review (s15): SQLite resolves a symbolic link at the database name before it opens the
/// file, so in a workspace directory shared with users who may write the database, one of them
/// swapped the name for a link to root's private database and root's captures, and an erase,
/// went there. Dolphin hands SQLite the checked file and opens it with `SQLITE_OPEN_NOFOLLOW`.
@Suite("SQLite is never handed a symbolic link")
struct SQLiteNoFollowTests {
  @Test("opening a database path that is a link fails; a workspace whose database is this user's link opens the file it leads to")
  func linkRefusedAtOpen() throws {
    let dir = TemporaryDirectory("nofollow")
    defer { dir.remove() }
    let real = dir.appending("real")
    let store = try SQLiteWorkspaceStore.open(directory: real)
    try store.write { tx in try tx.setSettings(tx.settings()) }
    store.closeConnection()
    let link = dir.appending("link.sqlite").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real.appendingPathComponent("workspace.sqlite").path)
    #expect(throws: WorkspaceError.self) { _ = try SQLiteConnection(path: link, readOnly: true, create: false) }
    #expect(throws: WorkspaceError.self) { _ = try SQLiteConnection(path: link, readOnly: false, create: false) }

    // The user's own link as the database of a workspace: allowed, and opened where it leads.
    let viaLink = dir.appending("via")
    try FileManager.default.createDirectory(at: viaLink, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    try FileManager.default.createSymbolicLink(
      atPath: viaLink.appendingPathComponent("workspace.sqlite").path,
      withDestinationPath: real.appendingPathComponent("workspace.sqlite").path)
    chmod(real.path, 0o700)
    let opened = try SQLiteWorkspaceStore.open(directory: viaLink, create: false)
    #expect(try opened.read { tx in try tx.knowledgeCount() } == 0)
    opened.closeConnection()
  }
}
