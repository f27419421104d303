import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SQLiteWorkspaceStore {
  /// A file as the filesystem tells files apart: its device and inode numbers (`st_dev`,
  /// `st_ino`), which stay the same while the file is open, whatever it is renamed to, and which
  /// no other file has meanwhile.
  struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file `status` describes.
    init(_ status: stat) {
      device = UInt64(truncatingIfNeeded: status.st_dev)
      inode = UInt64(truncatingIfNeeded: status.st_ino)
    }

    /// The identity of the file at `path` (symbolic links followed, as SQLite opens it), or nil
    /// when it cannot be asked.
    init?(path: String) {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      self.init(status)
    }
  }

  /// What became of the database file a store opened, seen from its path now.
  public enum PathChange: Sendable, Equatable {
    /// Nothing is at ``SQLiteWorkspaceStore/databasePath`` any more: the database, or its
    /// directory, was deleted or moved away.
    case removed
    /// Another file is at ``SQLiteWorkspaceStore/databasePath`` now: another workspace was
    /// created there, or a copy was put in its place.
    case replaced
  }

  /// Whether ``databasePath`` still leads to the database file this store opened, and if not,
  /// what happened to it.
  ///
  /// A long-lived process (`dolphin mcp`, an app) keeps its connection to the file it opened.
  /// When the workspace directory is deleted, or replaced by another workspace at the same
  /// path, that connection still reads and writes the old file: its writes succeed and are lost
  /// once the process closes it (a deleted file) or land where nothing reads them any more, and
  /// its reads show what is no longer there. This compares the device and inode numbers of the
  /// file at the path now with those of the file opened. ``write(_:)`` checks it under the
  /// write lock and refuses such a write; a caller that reads for a long time (a server) asks
  /// before each request and opens the workspace again.
  ///
  /// A path this process may no longer look up (a directory made unreadable) says nothing about
  /// the file and counts as unchanged; only a path that leads nowhere (`ENOENT`, `ENOTDIR`) counts
  /// as removed. The in-memory store, and a store opened with ``Creation/atFirstWrite`` before
  /// its files exist, never change.
  /// - Returns: nil while the path leads to the file opened; ``PathChange/removed`` or
  ///   ``PathChange/replaced`` otherwise.
  /// - Complexity: one `stat` call.
  public func changeAtPath() -> PathChange? {
    guard let opened = openedFile.withLock({ $0 }) else { return nil }
    var status = stat()
    guard stat(databasePath, &status) == 0 else {
      let code = errno
      return code == ENOENT || code == ENOTDIR ? .removed : nil
    }
    return FileIdentity(status) == opened ? nil : .replaced
  }

  /// Whether ``databasePath`` still leads to the database file this store opened
  /// (``changeAtPath()`` finds no change).
  public var isStillAtPath: Bool { changeAtPath() == nil }

  /// Throws when the database file was removed or replaced since it was opened.
  /// - Throws: ``WorkspaceError/notAtPath(file:removed:)``.
  func checkStillAtPath() throws(WorkspaceError) {
    guard let change = changeAtPath() else { return }
    throw .notAtPath(file: databasePath, removed: change == .removed)
  }
}
