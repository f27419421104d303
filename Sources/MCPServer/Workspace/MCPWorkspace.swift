import ContinuityKit
import KnowledgeEngine
import Synchronization

/// The workspace a Dolphin MCP server works on: opened on first use and then kept.
///
/// An open that fails (a damaged or unreadable database, a path that is not a directory) is
/// not fatal: the failure is reported to the call that needed the workspace, as
/// ``MCPServerError/workspaceUnavailable(path:reason:)``, and the next call tries again, so a
/// server started on a broken workspace keeps serving and recovers once it is fixed. A
/// workspace with a newer schema opens read-only: reads work, writes fail with
/// `WorkspaceError.readOnly`. So does one whose files this user could not write when it was
/// opened; a call that writes checks again (``engineForWriting()``), so that the server writes
/// once the user has fixed the permissions, without a restart.
///
/// A server lives for days. When the workspace is deleted, or replaced by another one at the
/// same path (`rm -rf` then a new capture, an import into a fresh directory), while it runs,
/// the engine's connection would keep reading and writing the old file, its writes acknowledged
/// and lost. So each ``engine()`` first asks the store whether its database is still the file
/// at the path (``SQLiteWorkspaceStore/changeAtPath()``, one `stat`); when not, the notice says
/// so once, and the workspace is opened again as at the start: a workspace that now exists is
/// served, a missing one is created by the first write that succeeds. A write already running
/// on the old engine is refused by the store (``WorkspaceError/notAtPath(file:removed:)``) and
/// succeeds when sent again.
///
/// Opening is serialized: concurrent first calls open the workspace once.
public final class MCPWorkspace: Sendable {
  /// Where the workspace is, for messages (the directory, or `:memory:`).
  public let path: String
  private let open: @Sendable () throws -> KnowledgeEngine
  private let opened = Mutex<KnowledgeEngine?>(nil)
  /// Told when a read-only workspace was opened again for writing.
  private let notice: (@Sendable (String) -> Void)?
  /// The last notice about deleted side files, so that a watch repeating it says it once.
  private let sideFilesNotice = Mutex<String?>(nil)

  /// A workspace opened by `open` on first use.
  ///
  /// - Parameters:
  ///   - path: the workspace directory, named in error messages.
  ///   - notice: receives one line when ``engineForWriting()`` opens a read-only workspace
  ///     again for writing, and when the workspace is opened again because its database was
  ///     removed or replaced (default: nothing is said). Never standard output.
  ///   - open: opens the store and builds the engine; may write notices to standard error,
  ///     never to standard output.
  public init(
    path: String, notice: (@Sendable (String) -> Void)? = nil,
    open: @escaping @Sendable () throws -> KnowledgeEngine
  ) {
    self.path = path
    self.notice = notice
    self.open = open
  }

  /// A workspace that is already open (tests, in-memory stores).
  public convenience init(engine: KnowledgeEngine) {
    self.init(path: engine.store.databasePath) { engine }
    _ = try? self.engine()
  }

  /// The engine over the workspace, opening it first if needed, and again when its database
  /// was removed or replaced since it was opened (see the type's discussion).
  ///
  /// - Returns: the engine; the same one for every call once an open has succeeded, until the
  ///   database at the path is another file or none.
  /// - Throws: ``MCPServerError/workspaceUnavailable(path:reason:)`` with the open's error.
  public func engine() throws(MCPServerError) -> KnowledgeEngine {
    try opened.withLock {
      (engine: inout KnowledgeEngine?) throws(MCPServerError) -> KnowledgeEngine in
      dropIfMoved(&engine)
      if let engine { return engine }
      return try openEngine(into: &engine)
    }
  }

  /// Forgets `engine` when its database is no longer the file at the workspace path, saying so
  /// through the notice: the next open reaches what is there now. Forgotten before that open,
  /// so that an open that fails (the new file is damaged) is said once, not at every call.
  private func dropIfMoved(_ engine: inout KnowledgeEngine?) {
    guard let store = engine?.store as? SQLiteWorkspaceStore else { return }
    guard let change = store.changeAtPath() else {
      rescueSideFiles(of: store)
      // Its side files were deleted and it could not be opened again: start over, as a first call.
      if store.isConnectionClosed { engine = nil }
      return
    }
    engine = nil
    let what =
      switch change {
      case .removed: "was deleted or moved away (or its directory was)"
      case .replaced: "is another file than the one the server opened (the workspace was replaced)"
      }
    notice?(
      "\(store.databasePath) \(what) while the server ran; opening the workspace at that path again"
        + (change == .removed ? " (a missing workspace is created by the first write that succeeds)" : ""))
  }

  /// Copies into the database file what the workspace's `-wal` held when it, or the `-shm`,
  /// was deleted while the server had them open, and opens new ones
  /// (``SQLiteWorkspaceStore/rescueRemovedSideFiles()``); says so through the notice. Does
  /// nothing while they are in place (two `stat` calls) or before the workspace was opened.
  ///
  /// Every call that needs the engine does this first; ``watchSideFiles(every:)`` does it while
  /// no call comes, so that a server killed after such a deletion loses nothing it acknowledged
  /// more than about one interval earlier.
  public func keepSideFiles() {
    opened.withLock { (engine: inout KnowledgeEngine?) in
      guard let store = engine?.store as? SQLiteWorkspaceStore else { return }
      rescueSideFiles(of: store)
      if store.isConnectionClosed { engine = nil }
    }
  }

  /// Closes the workspace's SQLite connection, when one is open, so that SQLite copies the
  /// `-wal` into the database and removes it and the `-shm` before the process exits: an idle
  /// `dolphin mcp` session ended before its store was released and left them behind (seen in
  /// about half of 30 runs). A later call opens the workspace again.
  public func close() {
    opened.withLock { (engine: inout KnowledgeEngine?) in
      (engine?.store as? SQLiteWorkspaceStore)?.closeConnection()
      engine = nil
    }
  }

  /// Runs ``keepSideFiles()`` every `interval` until the task running it is cancelled.
  /// - Parameter interval: the time between two checks (`dolphin mcp` uses 1 second).
  public func watchSideFiles(every interval: Duration) async {
    while !Task.isCancelled {
      do { try await Task.sleep(for: interval) } catch { return }
      keepSideFiles()
    }
  }

  /// ``SQLiteWorkspaceStore/rescueRemovedSideFiles()`` on `store`, said through the notice.
  private func rescueSideFiles(of store: SQLiteWorkspaceStore) {
    do {
      guard let rescue = try store.rescueRemovedSideFiles() else {
        sideFilesNotice.withLock { $0 = nil }
        return
      }
      let names = rescue.removed.joined(separator: " and ")
      noticeOnce(
        "\(names) \(rescue.removed.count == 1 ? "was" : "were") deleted, moved or replaced while the server had the "
          + "workspace open; every commit they held (\(rescue.framesCopied) WAL frames) was copied into the database, "
          + "and the workspace was opened again with new side files")
      sideFilesNotice.withLock { $0 = nil }
    } catch {
      noticeOnce("\(error)")
    }
  }

  /// Says `line` through the notice unless it was the last side-file notice said.
  private func noticeOnce(_ line: String) {
    let repeated = sideFilesNotice.withLock { last -> Bool in
      defer { last = line }
      return last == line
    }
    if !repeated { notice?(line) }
  }

  /// The engine for a call that writes: as ``engine()``, except that a workspace open read-only
  /// because its files could not be written
  /// (``SQLiteWorkspaceStore/ReadOnlyCause/unwritable(reason:immutable:)``) is checked once
  /// more. When the filesystem now lets this user write it (after `chmod 600`, say:
  /// ``SQLiteWorkspaceStore/writeBlocker(databasePath:)`` finds nothing once this user's side
  /// files have the database's mode again), it is opened again, and only when a write can
  /// really begin on the new connection (`BEGIN IMMEDIATE`, rolled back:
  /// ``SQLiteWorkspaceStore/checkWritable()``) does the writable engine replace the read-only
  /// one for every later call, and the notice say so. The check costs a few `stat` calls;
  /// nothing is opened while the files still cannot be written.
  ///
  /// The read-only engine's connection is closed while the new one opens
  /// (``SQLiteWorkspaceStore/withConnectionClosed(_:)``): SQLite shares one WAL index mapping
  /// among a process's connections to a file, and the read-only connection's, opened read-only
  /// from a `-shm` left at mode 0400, would make every write of the new one fail. It then opens
  /// again read-only, so calls still running on the old engine finish on it.
  ///
  /// A workspace opened read-only because its disk was full is checked the same way, once the
  /// disk has a byte free again (``SQLiteWorkspaceStore/isOnFullDisk``).
  ///
  /// A workspace read-only for another reason (a newer schema), or still unwritable, or whose
  /// new open fails, is read-only again, or cannot begin a write, keeps its engine: the write
  /// then fails as before, and the next write checks again.
  /// - Returns: the engine, writable when the workspace can now be written.
  /// - Throws: ``MCPServerError/workspaceUnavailable(path:reason:)`` when no open has
  ///   succeeded yet (or the read-only engine could not be opened again) and this one fails.
  public func engineForWriting() throws(MCPServerError) -> KnowledgeEngine {
    try opened.withLock {
      (engine: inout KnowledgeEngine?) throws(MCPServerError) -> KnowledgeEngine in
      dropIfMoved(&engine)
      guard let current = engine else { return try openEngine(into: &engine) }
      guard let store = current.store as? SQLiteWorkspaceStore, case .unwritable? = store.readOnlyCause else {
        return current
      }
      // As a writable open does first: this user's `-wal` and `-shm`, which the read-only
      // connection may have left read-only, get the database's mode again once it is writable.
      SQLiteWorkspaceStore.repairSidecarModes(databasePath: store.databasePath)
      guard SQLiteWorkspaceStore.writeBlocker(databasePath: store.databasePath) == nil else { return current }
      // A disk that is still full would only be opened, and refused, again (with its notice).
      if store.isOnFullDisk, store.directory.flatMap({ DiskSpace.of($0.path) })?.isFull == true { return current }
      let writable = store.withConnectionClosed { () -> KnowledgeEngine? in
        guard let fresh = try? open(), let freshStore = fresh.store as? SQLiteWorkspaceStore,
          (try? freshStore.checkWritable()) != nil
        else { return nil }
        return fresh
      }
      guard let writable else {
        if store.isConnectionClosed {
          // The old connection could not be opened again either: start over, as a first call.
          engine = nil
          return try openEngine(into: &engine)
        }
        return current
      }
      engine = writable
      notice?("\(store.databasePath) can be written now; the workspace was opened again for writing")
      return writable
    }
  }

  /// Opens the workspace and keeps its engine in `engine`.
  private func openEngine(into engine: inout KnowledgeEngine?) throws(MCPServerError) -> KnowledgeEngine {
    do {
      let fresh = try open()
      engine = fresh
      return fresh
    } catch {
      throw MCPServerError.workspaceUnavailable(path: path, reason: "\(error)")
    }
  }
}
