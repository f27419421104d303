import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The identities of a database's `-wal` and `-shm` files at one moment.
enum SideFileIdentities {
  /// The ``SQLiteWorkspaceStore/FileIdentity`` of each side file of `databasePath` that exists
  /// now, by suffix (``SQLiteSideFiles/suffixes``).
  static func taken(databasePath: String) -> [String: SQLiteWorkspaceStore.FileIdentity] {
    var identities: [String: SQLiteWorkspaceStore.FileIdentity] = [:]
    for suffix in SQLiteSideFiles.suffixes {
      identities[suffix] = SQLiteWorkspaceStore.FileIdentity(path: databasePath + suffix)
    }
    return identities
  }
}

extension SQLiteWorkspaceStore {
  /// What ``rescueRemovedSideFiles()`` did.
  public struct SideFilesRescue: Sendable, Equatable {
    /// The side files (full paths) that were deleted, moved away or replaced while this store's
    /// connection had them open.
    public var removed: [String]
    /// WAL frames the checkpoint copied into the database file (SQLite's `wal_checkpoint`
    /// count: one per page written by a commit since the last checkpoint; 0 when none was).
    public var framesCopied: Int
  }

  /// Which of the `-wal` and `-shm` this store's connection opened are no longer the files at
  /// their paths: deleted (`rm workspace.sqlite-wal`, a cleaner), moved away, or replaced.
  ///
  /// A connection to a WAL database keeps both files open from its first read until it closes.
  /// When they are deleted under it, it goes on writing commits into the unlinked `-wal` and
  /// acknowledging them; those commits reach the database file only at a checkpoint, and a
  /// process killed before one (SIGKILL, a crash, a power loss) takes them with it (review
  /// 29-b, 1; https://www.sqlite.org/howtocorrupt.html, section 1.4). This compares the device
  /// and inode numbers of the files at the paths now with those of the files opened
  /// (``FileIdentity``); a side file that did not exist when the store opened is taken as
  /// opened when first seen here.
  /// - Returns: the full paths of the side files no longer at their paths, in
  ///   ``SQLiteSideFiles/suffixes`` order; empty while both are (and always for the in-memory
  ///   store, a read-only store and a store without files yet).
  ///   A database file itself removed or replaced is not looked at here: ``changeAtPath()``.
  /// - Complexity: two `stat` calls.
  public func removedSideFiles() -> [String] {
    guard !isReadOnly, openedFile.withLock({ $0 }) != nil else { return [] }
    return openedSideFiles.withLock { opened -> [String] in
      var removed: [String] = []
      for suffix in SQLiteSideFiles.suffixes {
        let now = FileIdentity(path: databasePath + suffix)
        guard let before = opened[suffix] else {
          opened[suffix] = now
          continue
        }
        if now != before { removed.append(databasePath + suffix) }
      }
      return removed
    }
  }

  /// When side files this store's connection opened were deleted, moved away or replaced
  /// (``removedSideFiles()``), copies every commit they hold into the database file and opens
  /// the database again, so that the connection writes into new side files at the paths.
  ///
  /// The copy is SQLite's `PRAGMA wal_checkpoint(FULL)` on this connection, which still reads
  /// its unlinked `-wal` and `-shm`: it waits for other writers (the busy timeout), writes every
  /// frame into the database file and syncs it
  /// (https://www.sqlite.org/pragma.html#pragma_wal_checkpoint). Commits that other
  /// processes made through the same unlinked files are copied too. Then the connection closes
  /// and the database is opened as at the start (which makes new side files); other processes,
  /// refused while the side files were missing and this one held the workspace
  /// (``SQLiteSideFiles/removedWhileOpen(databasePath:attempts:pauseMicroseconds:)``), can open
  /// it again.
  ///
  /// While another process has the workspace open (it holds SQLite's lock on the database file,
  /// read from `/proc/locks`), nothing is copied: a reader of that process in the middle of a
  /// transaction would stop the checkpoint part way, and a database file holding part of the
  /// `-wal`'s pages is readable only with that `-wal`, which nothing can reach once both
  /// processes end (review 30-b, 1: "database disk image is malformed" after both were killed).
  /// The call throws instead, and ``write(_:)``, which asks first, refuses to write: nothing is
  /// acknowledged that only the deleted `-wal` would hold. Once that process has closed the
  /// workspace, the next call copies and opens anew. ``write(_:)`` calls this after a commit; a long-lived process (`dolphin mcp`)
  /// also calls it from time to time, so that commits made before the deletion are copied
  /// while it is idle.
  /// - Returns: nil when nothing was removed (and for the in-memory, read-only or file-less
  ///   store, and one whose database file was removed or replaced: ``changeAtPath()``); otherwise what was removed and how many frames the checkpoint copied.
  /// - Throws: ``WorkspaceError/fileSystem(path:message:)`` while another process has the
  ///   workspace open (nothing copied), when a reader of this process kept the checkpoint from
  ///   copying everything (the connection is kept, with what it holds, and a later call tries
  ///   again), or when the database cannot be opened again (the
  ///   connection stays closed: every later call fails with a storage error until the caller
  ///   opens the workspace again); the storage error of the checkpoint.
  @discardableResult
  public func rescueRemovedSideFiles() throws(WorkspaceError) -> SideFilesRescue? {
    guard !isReadOnly else { return nil }
    return try connection.withLock { (conn: inout SQLiteConnection) throws(WorkspaceError) -> SideFilesRescue? in
      try rescueSideFiles(&conn)
    }
  }

  /// ``rescueRemovedSideFiles()`` on `conn`, which the caller holds locked.
  func rescueSideFiles(_ conn: inout SQLiteConnection) throws(WorkspaceError) -> SideFilesRescue? {
    // A database file removed or replaced is ``changeAtPath()``'s case: its writes are refused.
    guard !conn.isClosed, let directory, deferredDirectory.withLock({ $0 == nil }), changeAtPath() == nil else {
      return nil
    }
    let removed = removedSideFiles()
    guard !removed.isEmpty else { return nil }
    let names = removed.map { ($0 as NSString).lastPathComponent }.joined(separator: " and ")
    let verb = removed.count == 1 ? "was" : "were"
    if let holder = SQLiteSideFiles.otherHolder(databasePath: databasePath) {
      throw .fileSystem(
        path: databasePath,
        message: "\(names) \(verb) deleted, moved or replaced while this process had the workspace open, and process "
          + "\(holder) has it open too; nothing was written. What they hold is copied into the database once that "
          + "process has closed the workspace (let it finish, or quit it normally); until then reads work and writes "
          + "are refused")
    }
    // Columns: 1 when a reader kept the checkpoint from finishing, WAL frames, frames copied.
    let result = try conn.first("PRAGMA wal_checkpoint(FULL)") { row in
      (busy: row.int(0), frames: row.int(1), copied: row.int(2))
    }
    if let result, result.busy != 0 || result.copied < result.frames {
      throw .fileSystem(
        path: databasePath,
        message: "\(names) \(verb) deleted while this process had the workspace open, "
          + "and another reader kept the commits they hold from being copied into the database "
          + "(\(result.copied) of \(result.frames) WAL frames copied); they are kept while this process runs, "
          + "and copied when it tries again or closes the workspace normally")
    }
    let copied = result?.copied ?? 0
    let busyTimeout = conn.busyTimeoutMilliseconds
    conn.close()
    let opening: FileOpen
    do {
      opening = try Self.openFiles(directory: directory, readOnly: false, creation: .never)
    } catch {
      throw .fileSystem(
        path: databasePath,
        message: "\(names) \(removed.count == 1 ? "was" : "were") deleted while this process had the workspace open; "
          + "every commit was copied into the database, but opening it again failed: \(error)")
    }
    guard case .opened(let opened) = opening, opened.readOnlyCause == nil else {
      throw .fileSystem(
        path: databasePath,
        message: "\(names) \(removed.count == 1 ? "was" : "were") deleted while this process had the workspace open; "
          + "every commit was copied into the database, but it opened again only for reading")
    }
    conn = opened.connection
    conn.setBusyTimeout(milliseconds: busyTimeout)
    openedFile.withLock { $0 = opened.file }
    openedSideFiles.withLock { $0 = opened.sideFiles }
    return SideFilesRescue(removed: removed, framesCopied: copied)
  }
}
