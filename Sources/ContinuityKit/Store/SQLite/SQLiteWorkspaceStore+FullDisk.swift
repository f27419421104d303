import Foundation

extension SQLiteWorkspaceStore {
  /// Why a workspace is opened for reading when `error` says the disk holding it is full: a
  /// storage error with SQLite's `SQLITE_FULL`, or an I/O or open error whose cause is `ENOSPC`
  /// or `EDQUOT` (``WorkspaceError/isDiskFull``) or, when SQLite kept no `errno` (as for its
  /// `-shm` index), a filesystem with no byte left (``DiskSpace/isFull``). Nil for any other
  /// error.
  ///
  /// On a full disk SQLite opens the files for writing and fails at the first allocation: the
  /// `-shm` index that every connection to a WAL database maps before its first read
  /// (`SQLITE_IOERR_SHMSIZE`), or a pending schema step. Reading needs neither.
  /// - Parameters:
  ///   - error: what opening the database for writing threw.
  ///   - databasePath: the database file.
  /// - Returns: e.g. `the disk is full (0 bytes free of 2 MiB on the filesystem holding
  ///   /mnt/ws)`; what to do is added by ``readOnlyReason``.
  static func fullDiskReason(after error: WorkspaceError, databasePath: String) -> String? {
    guard case .storage(_, let code, _) = error else { return nil }
    // SQLITE_IOERR 10, SQLITE_FULL 13, SQLITE_CANTOPEN 14.
    guard [10, 13, 14].contains(code & 0xff) else { return nil }
    let directory = URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
    let space = DiskSpace.of(directory)
    guard error.isDiskFull || space?.isFull == true else { return nil }
    return SystemErrorCause.diskFull + (space.map { " (\($0.described(onFilesystemHolding: directory)))" } ?? "")
  }
}

extension WorkspaceError {
  /// Whether this is SQLite saying the disk is full: `SQLITE_FULL`, or an error whose message
  /// names that cause first (``SQLiteConnection/explain(code:systemErrno:sqliteMessage:path:)``
  /// does for `ENOSPC` and `EDQUOT`).
  package var isDiskFull: Bool {
    guard case .storage(_, let code, let message) = self else { return false }
    return code & 0xff == 13 || message.hasPrefix(SystemErrorCause.diskFull)
  }
}
