import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The workspace in one SQLite database (`workspace.sqlite`, WAL mode).
///
/// Files: the directory is created 0700; the database is created 0600 before SQLite opens it,
/// and SQLite gives its `-wal` and `-shm` files the database file's mode, so no file is ever
/// readable by others whatever the umask. A database whose schema is newer than this build
/// opens read-only. A damaged file is never overwritten. Opened with ``Creation/atFirstWrite``,
/// a missing workspace is created only by the first write that succeeds.
public final class SQLiteWorkspaceStore: WorkspaceStore {
  /// The file name inside a workspace directory.
  public static let fileName = "workspace.sqlite"

  public let databasePath: String
  public let isReadOnly: Bool
  /// Why the store is read-only, when it is.
  public let readOnlyReason: String?
  /// Why the store is read-only, as a case (nil when it is writable).
  public let readOnlyCause: ReadOnlyCause?

  /// Why a store was opened read-only.
  public enum ReadOnlyCause: Sendable, Equatable {
    /// The caller asked for a read-only open (`doctor`).
    case requested
    /// The workspace files cannot be written here: a read-only filesystem, a directory or
    /// database this user may not write, or a disk too full for SQLite to open the workspace for
    /// writing (``isOnFullDisk``). `immutable` when SQLite's `immutable=1` mode was used (no
    /// `-wal` content existed, so nothing committed is hidden).
    case unwritable(reason: String, immutable: Bool)
    /// The schema is newer than this build, or records migration steps it does not know.
    case newerSchema(reason: String)
  }
  /// Whether the store is read-only because the disk holding the workspace was full when it
  /// opened: SQLite could not allocate what a writable open needs (the `-shm` index every
  /// connection to a WAL database maps, or the pages of a pending schema step), so the workspace
  /// was opened for reading instead (``ReadOnlyCause/unwritable(reason:immutable:)``, whose
  /// reason says so with the free space and what to do). Reads work; every write throws
  /// ``WorkspaceError/readOnly(file:reason:)`` until space is freed and the workspace is opened
  /// again.
  public let isOnFullDisk: Bool
  /// Warnings found while opening (e.g. a directory readable by others).
  public let warnings: [String]
  /// The workspace directory as ``WorkspaceTrust`` checked it when the store opened its files,
  /// every symbolic link resolved; nil while it has none (a store opened with
  /// ``Creation/atFirstWrite`` before anything was created, which another process may make
  /// before this store's first write; set once the files are created or attached). Files beside
  /// the database, such as a legacy `workspace.json`, are read only from a directory that was
  /// checked (review, s14: one read from a directory made meanwhile by another user was imported
  /// into this user's workspace).
  public var verifiedDirectory: String? { checkedDirectory.withLock { $0 } }
  private let checkedDirectory: Mutex<String?>
  /// Names of schema migration steps this build knows that the database has not applied yet.
  /// Empty after any writable open (which applies them); a read-only open of a database whose
  /// first run was interrupted (killed between steps), or that an earlier build made, lists what
  /// the next writable open applies (see ``pendingMigrationStepsNeededForReading``).
  public let pendingMigrationSteps: [String]
  /// Those of ``pendingMigrationSteps`` without which the workspace cannot be read (an
  /// interrupted first run). When it is empty but ``pendingMigrationSteps`` is not — a workspace
  /// from an earlier build that cannot be written here — reading works, on the records as they
  /// are stored, and the next writable open finishes the upgrade.
  public let pendingMigrationStepsNeededForReading: [String]
  let connection: Mutex<SQLiteConnection>
  /// The device and inode of the database file `connection` opened (``changeAtPath()``); nil
  /// for the in-memory store and while a store opened with ``Creation/atFirstWrite`` has no
  /// files. Changed only while `connection` is locked.
  let openedFile: Mutex<FileIdentity?>
  /// The `-wal` and `-shm` `connection` opened, by suffix (``removedSideFiles()``); empty for
  /// the in-memory store and a store without files. Changed only while `connection` is locked.
  let openedSideFiles: Mutex<[String: FileIdentity]>
  /// The workspace directory while a store opened with ``Creation/atFirstWrite`` has no files
  /// yet: `connection` is then a private, empty in-memory workspace. Nil once the files exist
  /// (and for every other store). Read and changed only while `connection` is locked.
  let deferredDirectory: Mutex<URL?>
  /// Set when the files of a store opened with ``Creation/atFirstWrite`` were created (or found
  /// without schema) at its first write: the write transactions create the schema first, in
  /// their own transaction, until one commits. Read and changed only while `connection` is locked.
  private let schemaAwaitsFirstWrite = Mutex(false)
  /// Work every write transaction does first (see ``setWritePreamble(_:)``).
  private let writePreamble = Mutex<(key: String, run: WritePreamble)?>(nil)
  /// Whether reads see what the write preamble would add (see ``readsIncludeWritePreamble``).
  private let readsRunPreamble = Mutex(false)

  /// Work a write transaction does before its body, in the same transaction (also in a
  /// rehearsal, see ``Creation/atFirstWrite``). It may return a closure, run once the
  /// transaction has ended, with `true` when it committed and `false` when it was rolled back.
  public typealias WritePreamble =
    @Sendable (WorkspaceTransaction) throws -> (@Sendable (_ committed: Bool) -> Void)?

  /// How long a write waits for another process's lock before failing, in milliseconds.
  public static let busyTimeoutMilliseconds: Int32 = 15_000

  /// When ``open(directory:readOnly:creation:)`` creates a workspace that does not exist.
  public enum Creation: Sendable, Equatable {
    /// Never: a missing workspace throws ``WorkspaceError/noWorkspace(directory:)``, and so
    /// does a database file that holds nothing (0 bytes, as a first run interrupted before its
    /// first schema step leaves it), which is left as it is.
    case never
    /// While opening: the directory (0700) and the database (0600, schema v5) exist when
    /// `open` returns.
    case immediately
    /// At the first write that commits. Until then nothing exists on disk and reads see an
    /// empty workspace. That first write runs once on the empty in-memory workspace and is
    /// rolled back (``WorkspaceTransaction/isRehearsal`` is set); only when it succeeds are
    /// the directory and database created and the write run again for real. So a write that
    /// fails — a refused title, an unknown id — leaves no file behind, and nothing is ever
    /// deleted after the fact (which could race another process that opened the new
    /// workspace). Files that another process creates meanwhile are opened and used: its
    /// records are never hidden or overwritten. The schema is created in the first write's own
    /// transaction, so a process killed during that write leaves a database without schema,
    /// never an empty workspace that looks complete. A database file that holds no schema yet
    /// (0 bytes, or an SQLite database without objects, as such a kill or a first run
    /// interrupted before its first schema step leaves it) counts as missing: the first write
    /// that succeeds completes it, and a write that fails leaves it exactly as it was.
    case atFirstWrite
  }

  /// A connection opened and configured, with what ``open(directory:readOnly:creation:)``
  /// learned about it, before it becomes a store.
  struct Opened {
    var connection: SQLiteConnection
    var readOnlyCause: ReadOnlyCause?
    var warnings: [String]
    var pendingMigrationSteps: [String]
    /// The database holds no schema yet and was left so (``BlankDatabase/firstWrite``): the
    /// store's next write transaction creates it.
    var schemaAwaitsFirstWrite = false
    /// Read-only because the disk is full (``SQLiteWorkspaceStore/isOnFullDisk``).
    var isOnFullDisk = false
    /// Set by ``openFiles(directory:readOnly:creation:)``: see ``SQLiteWorkspaceStore/verifiedDirectory``.
    var verifiedDirectory: String? = nil
    /// The database file the connection opened, as ``SQLiteWorkspaceStore/changeAtPath()``
    /// compares it with the path later; set with ``verifiedDirectory``.
    var file: FileIdentity? = nil
    /// The `-wal` and `-shm` the connection opened, by suffix, as
    /// ``SQLiteWorkspaceStore/removedSideFiles()`` compares them with the paths later; set with
    /// ``file`` (a side file that did not exist then is taken when first seen).
    var sideFiles: [String: FileIdentity] = [:]

    /// This, opened in the checked directory `directory`, on the database file `path`.
    func checked(_ directory: String, file path: String) -> Opened {
      var opened = self
      opened.verifiedDirectory = directory
      // Taken right after SQLite opened the file: a replacement in between is a race of a few
      // microseconds, and SQLite offers no portable way to ask for its file descriptor.
      opened.file = FileIdentity(path: path)
      // Opening read the schema, so a connection in WAL mode has both side files open now.
      opened.sideFiles = SideFileIdentities.taken(databasePath: path)
      return opened
    }
  }

  /// What opening does with a database file that holds no schema object at all (0 bytes, or
  /// only SQLite's header): what a first run interrupted before its first schema step leaves.
  private enum BlankDatabase {
    /// Create the schema in it (a writable open that may create the workspace).
    case complete
    /// Leave the schema to the first write transaction, which creates it with its own rows
    /// (the files of a store opened with ``Creation/atFirstWrite``, created at that write).
    case firstWrite
    /// Treat it as no workspace yet (``WorkspaceError/noWorkspace(directory:)``) and write
    /// nothing: an open with ``Creation/never``, for commands that only read or update.
    case noWorkspace
    /// Open it as it is, with every schema step pending (a read-only open: `doctor`).
    case inspect
  }

  private init(_ opened: sending Opened, path: String, deferredDirectory: URL? = nil) {
    self.pendingMigrationSteps = opened.pendingMigrationSteps
    let neededForReading = Set(WorkspaceSchema.steps.filter(\.isNeededForReading).map(\.name))
    self.pendingMigrationStepsNeededForReading = opened.pendingMigrationSteps.filter { neededForReading.contains($0) }
    self.databasePath = path
    self.isReadOnly = opened.readOnlyCause != nil
    self.readOnlyCause = opened.readOnlyCause
    self.isOnFullDisk = opened.isOnFullDisk && opened.readOnlyCause != nil
    self.readOnlyReason = opened.readOnlyCause.map {
      Self.readOnlyReason($0, databasePath: path, isOnFullDisk: opened.isOnFullDisk)
    }
    self.warnings = opened.warnings
    self.checkedDirectory = Mutex(opened.verifiedDirectory)
    self.openedFile = Mutex(opened.file)
    self.openedSideFiles = Mutex(opened.sideFiles)
    self.connection = Mutex(opened.connection)
    self.deferredDirectory = Mutex(deferredDirectory)
  }

  /// ``readOnlyReason`` for `cause`: an unwritable workspace's reason with what to do about it
  /// (so that every write refused says it) and whether immutable mode hid nothing.
  private static func readOnlyReason(_ cause: ReadOnlyCause, databasePath path: String, isOnFullDisk: Bool) -> String {
    switch cause {
    case .requested: return "opened read-only"
    case .unwritable(let reason, let immutable):
      let advice =
        path == ":memory:"
        ? nil : isOnFullDisk ? "to store anything, " + DiskSpace.fullDiskAdvice : Self.writeAdvice(databasePath: path)
      return reason
        + (immutable ? "; read with SQLite's immutable mode, no committed change was waiting in a -wal file" : "")
        + (advice.map { "; " + $0 } ?? "")
    case .newerSchema(let reason): return reason
    }
  }

  /// Whether only the directory's group may reach into it (no bit for others) and that group
  /// holds no user but this one and root: a private group of root's (mode 770, group `root`), say,
  /// which no other user may use, so no warning is due.
  static func onlyTrustedUsersInGroup(of status: stat, user: uid_t = geteuid()) -> Bool {
    guard status.st_mode & 0o007 == 0 else { return false }
    guard let members = DirectoryExposure.members(ofGroup: status.st_gid) else { return false }
    return members.allSatisfy { $0 == user || $0 == 0 }
  }

  /// Opens the workspace in `directory`, creating the directory (0700) and the database
  /// (0600, schema v5) when they do not exist and `create` is set, and applying pending
  /// migration steps. Same as ``open(directory:readOnly:creation:)`` with
  /// ``Creation/immediately`` (`create`) or ``Creation/never``.
  public static func open(directory: URL, readOnly: Bool = false, create: Bool = true) throws(WorkspaceError)
    -> SQLiteWorkspaceStore
  {
    try open(directory: directory, readOnly: readOnly, creation: create ? .immediately : .never)
  }

  /// Opens the workspace in `directory`, creating a missing one as `creation` says, and
  /// applying pending migration steps.
  ///
  /// When the files cannot be written — a read-only filesystem, a directory or database this
  /// user may not write — the workspace is opened read-only instead (``ReadOnlyCause/unwritable(reason:immutable:)``),
  /// as SQLite documents for WAL databases (https://www.sqlite.org/wal.html, "Read-Only
  /// Databases"): with its `-wal` and `-shm` files when they exist, else with the `immutable`
  /// URI parameter — but only when the `-wal` file is missing or empty and no rollback journal
  /// is present, because immutable mode ignores them and would hide committed changes. Then
  /// the open fails, saying why. Writes to such a store throw ``WorkspaceError/readOnly(file:reason:)``.
  ///
  /// Whatever `creation` and `readOnly` say, a database that another program made (schema
  /// objects but no `schema_migration` table, which dolphin creates first) is refused before
  /// anything is written to it.
  ///
  /// - Parameters:
  ///   - directory: the workspace directory.
  ///   - readOnly: open without ever writing (for `doctor`); a missing workspace then throws
  ///     ``WorkspaceError/noWorkspace(directory:)`` whatever `creation` says.
  ///   - creation: whether and when a missing directory and database are created.
  /// - Throws: ``WorkspaceError/noWorkspace(directory:)``; ``WorkspaceError/notAWorkspace(file:found:)``;
  ///   ``WorkspaceError/fileSystem(path:message:)``
  ///   when the directory or file cannot be created or read, or when the directory (or a missing
  ///   directory on the way to it, or the database file) is a symbolic link to nothing or a link
  ///   loop — the message names that link (``OpenFailure/symbolicLink``); ``WorkspaceError/damaged(file:message:)``
  ///   for a file that is not a usable database; ``WorkspaceError/storage(file:code:message:)``
  ///   for other SQLite errors. With ``Creation/atFirstWrite`` the errors of creating the files
  ///   come from that first write instead.
  public static func open(directory: URL, readOnly: Bool = false, creation: Creation) throws(WorkspaceError)
    -> SQLiteWorkspaceStore
  {
    let path = directory.appendingPathComponent(fileName).path
    switch try openFiles(directory: directory, readOnly: readOnly, creation: creation) {
    case .opened(let opened): return SQLiteWorkspaceStore(opened, path: path)
    case .deferred(let warnings, let verifiedDirectory):
      var empty = try configure(
        SQLiteConnection(path: ":memory:", readOnly: false, create: true), path: ":memory:",
        readOnlyCause: nil, blank: .complete, warnings: warnings)
      empty.verifiedDirectory = verifiedDirectory
      return SQLiteWorkspaceStore(empty, path: path, deferredDirectory: directory)
    }
  }

  /// What ``openFiles(directory:readOnly:creation:)`` found.
  enum FileOpen {
    case opened(Opened)
    /// Nothing exists yet and ``Creation/atFirstWrite`` was asked: no file was created.
    /// `verifiedDirectory` is the checked directory when it exists (only the database is missing).
    case deferred(warnings: [String], verifiedDirectory: String?)
  }

  /// The work of ``open(directory:readOnly:creation:)`` on the files: checks (and, as
  /// `creation` says, creates) the directory and the database, then opens and configures it.
  ///
  /// With `schemaAtFirstWrite`, a database that holds no schema (made now, or left so) is not
  /// given one here: the returned connection's ``Opened/schemaAwaitsFirstWrite`` is set instead.
  static func openFiles(
    directory: URL, readOnly: Bool, creation: Creation, schemaAtFirstWrite: Bool = false
  ) throws(WorkspaceError) -> FileOpen {
    let dir = directory.path
    var warnings: [String] = []
    var st = stat()
    // The directory as checked, resolved (``WorkspaceTrust/verify(directory:database:user:)``):
    // SQLite gets this path, so no symbolic link on the given one is followed a second time.
    var realDirectory = dir
    // The database file as checked: SQLite opens it with `SQLITE_OPEN_NOFOLLOW`.
    var databaseFile = URL(fileURLWithPath: dir, isDirectory: true).appendingPathComponent(fileName).path
    if stat(dir, &st) == 0 {
      guard (st.st_mode & S_IFMT) == S_IFDIR else {
        throw .fileSystem(path: dir, message: "exists and is not a directory")
      }
      // A path other users control (the directory, a directory or link on the way, the database
      // file: ``WorkspaceTrust``) is refused before anything is opened or created, for reads too.
      switch WorkspaceTrust.verify(directory: dir) {
      case .success(let verified):
        realDirectory = verified.directory
        databaseFile = verified.databaseFile
      case .failure(let refusal): throw .fileSystem(path: refusal.path, message: refusal.message)
      }
      if st.st_mode & 0o077 != 0 && !Self.onlyTrustedUsersInGroup(of: st) {
        warnings.append(
          "workspace directory \(dir) is accessible by other users (mode \(FileAccessAdvice.permissions(st.st_mode))); "
            + FileAccessAdvice.makePrivate(path: dir, status: st, privateMode: "700"))
      }
    } else {
      let code = errno
      // A link loop or a link to nothing is neither a missing workspace nor a directory that
      // could be created (creating it fails with "file exists"): say which link it is.
      if let (link, problem) = PathProblem.linkInTheWay(ofDirectory: dir) {
        throw .fileSystem(
          path: link,
          message: problem.description + (link == dir ? "" : " (on the way to the workspace directory \(Limits.shownPath(dir)))"))
      }
      if code != ENOENT {
        // Name the component in the way (`/tmp/somefile is not a directory`), not just errno.
        let why = PathProblem.obstacle(onTheWayTo: dir)?.description ?? SystemErrorCause.describe(code)
        let attempt = readOnly || creation == .never ? "open" : "open or create"
        throw .fileSystem(path: dir, message: "cannot \(attempt) the workspace directory: \(why)")
      }
      if readOnly || creation == .never { throw .noWorkspace(directory: dir) }
      if creation == .atFirstWrite { return .deferred(warnings: warnings, verifiedDirectory: nil) }
      // Not where another user may rename what dolphin creates, and never through a link put on
      // the way meanwhile (reviews, s14): made relative to checked directories, 0700.
      switch WorkspaceTrust.createWorkspaceDirectory(dir) {
      case .success: break
      case .failure(.refused(let refusal)): throw .fileSystem(path: refusal.path, message: refusal.message)
      case .failure(.obstacle(let obstacle)):
        throw .fileSystem(path: dir, message: "cannot create the workspace directory: \(obstacle.description)")
      }
      // Checked as made (its access control list, a default one included).
      switch WorkspaceTrust.verify(directory: dir) {
      case .success(let verified):
        realDirectory = verified.directory
        databaseFile = verified.databaseFile
      case .failure(let refusal): throw .fileSystem(path: refusal.path, message: refusal.message)
      }
    }
    let path = databaseFile
    if stat(path, &st) == 0 {
      if (st.st_mode & S_IFMT) == S_IFDIR {
        throw .fileSystem(path: path, message: "is a directory, not a workspace database")
      }
      if st.st_mode & 0o077 != 0 && !Self.onlyTrustedUsersInGroup(of: st) {
        warnings.append(
          "workspace database \(path) is "
            + (st.st_mode & 0o022 != 0
              ? "writable by other users (mode \(FileAccessAdvice.permissions(st.st_mode))): they may change or erase any record; "
              : "readable by other users (mode \(FileAccessAdvice.permissions(st.st_mode))); ")
            + FileAccessAdvice.makePrivate(path: path, status: st, privateMode: "600"))
      }
    } else {
      let code = errno
      // The database file is a link loop or a link to nothing: SQLite would fail obscurely, or
      // create a file wherever the link points.
      if let problem = PathProblem.of(path), problem.isSymbolicLinkProblem {
        throw .fileSystem(path: path, message: problem.description)
      }
      if code != ENOENT {
        throw .fileSystem(path: path, message: "cannot open the workspace database: \(SystemErrorCause.describe(code))")
      }
      if readOnly || creation == .never { throw .noWorkspace(directory: dir) }
      if creation == .atFirstWrite { return .deferred(warnings: warnings, verifiedDirectory: realDirectory) }
      // Create the file 0600 ourselves so SQLite (and its -wal/-shm, which copy the database's
      // mode) never exist with wider permissions.
      let fd = Glibc_open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
      if fd >= 0 {
        fchmod(fd, 0o600)
        close(fd)
      } else if errno != EEXIST {
        // EEXIST: another process's first command created it a moment ago; SQLite's locks
        // and the per-step migration check make opening it now safe.
        let code = errno
        let advice = code == EACCES ? FileAccessAdvice.cannotCreate(in: dir).map { "; " + $0 } ?? "" : ""
        throw .fileSystem(
          path: path, message: "cannot create the workspace database: \(SystemErrorCause.describe(code))" + advice)
      }
    }
    // A -wal another user put here, who may not write the database, is never read: its frames
    // would show as this workspace's records.
    if let foreign = SQLiteSideFiles.foreignWAL(databasePath: path, emptyForeignAllowed: !readOnly) {
      throw .fileSystem(path: path, message: foreign)
    }
    // A -wal or -shm deleted while another process has the workspace open: opening it now would
    // make new side files beside that process's unlinked ones, and the two would overwrite each
    // other's commits (review 29-a, 1). Refused, for reads too, until that process has closed it.
    if let removed = SQLiteSideFiles.removedWhileOpen(databasePath: path) {
      throw .fileSystem(path: path, message: Self.sideFilesRemovedMessage(removed))
    }
    if readOnly { return .opened(try openReadOnly(path: path, warnings: warnings).checked(realDirectory, file: path)) }
    // Another user's read left its (empty) side files here: gone, as its last close would have
    // made them, if this user could have. Those still here of a user who may not write the
    // database are refused; others are named by `writeBlocker`.
    _ = SQLiteSideFiles.removeEmptyLeftByOtherUsers(databasePath: path)
    if let foreign = SQLiteSideFiles.foreignWAL(databasePath: path) {
      throw .fileSystem(path: path, message: foreign)
    }
    repairSidecarModes(databasePath: path)
    // A blank database gets its schema only from an open that creates the workspace now; one
    // that creates it at its first write leaves the file alone until that write succeeds.
    let blank: BlankDatabase = creation == .immediately ? (schemaAtFirstWrite ? .firstWrite : .complete) : .noWorkspace
    do throws(WorkspaceError) {
      do {
        // Whatever keeps writes out is asked before SQLite opens the files: SQLite opens them for
        // writing without complaint whenever the files themselves can be written, even in a
        // directory this user may not write (a -wal and -shm left behind there are written into,
        // while `doctor` calls the workspace read-only), and fails only at the first write when
        // side files of another owner are in the way. A database that is itself read-only (which
        // left its side files so) is the reason to name: `writeBlocker` names it first.
        if let reason = writeBlocker(databasePath: path) {
          return .opened(
            try openUnwritable(path: path, obstacle: WriteObstacle(reason: reason), blank: blank, warnings: warnings)
              .checked(realDirectory, file: path))
        }
        let conn = try SQLiteConnection(path: path, readOnly: false, create: false)
        return .opened(try configure(conn, path: path, readOnlyCause: nil, blank: blank, warnings: warnings).checked(realDirectory, file: path))
      } catch {
        // A disk too full for the -shm index or a pending schema step lands here too: reading
        // needs neither, so the workspace opens for reading (review s21: every command failed).
        guard let obstacle = writeObstacle(after: error, databasePath: path) else { throw error }
        return .opened(
          try openUnwritable(path: path, obstacle: obstacle, blank: blank, warnings: warnings)
            .checked(realDirectory, file: path))
      }
    } catch .noWorkspace where creation == .atFirstWrite {
      return .deferred(warnings: warnings, verifiedDirectory: realDirectory)
    }
  }

  /// Replaces the in-memory stand-in of a store opened with ``Creation/atFirstWrite`` by the
  /// workspace files: when they exist now (another process created them), or, when `create`,
  /// by creating them. Does nothing for any other store.
  /// - Throws: the errors of ``open(directory:readOnly:creation:)``;
  ///   ``WorkspaceError/readOnly(file:reason:)`` when the files can only be read (a newer
  ///   build created them meanwhile, say): this store was opened as writable, and stays
  ///   unattached rather than write a schema it does not know.
  private func attachFiles(_ connection: inout SQLiteConnection, create: Bool) throws(WorkspaceError) {
    guard let directory = deferredDirectory.withLock({ $0 }) else { return }
    var st = stat()
    // A database file of 0 bytes holds no schema: nothing to attach yet (decided without
    // opening it, since every read of a store that has not written asks).
    guard create || stat(databasePath, &st) == 0 && st.st_size > 0 else { return }
    let opening: FileOpen
    do {
      // Without `create`, a database file that holds no schema stays unattached: only this
      // store's first write that succeeds completes it.
      opening = try Self.openFiles(
        directory: directory, readOnly: false, creation: create ? .immediately : .never, schemaAtFirstWrite: create)
    } catch .noWorkspace where !create {
      return
    }
    guard case .opened(let opened) = opening else { return }
    if let cause = opened.readOnlyCause {
      let reason: String
      switch cause {
      case .requested: reason = "opened read-only"
      case .unwritable(let why, _):
        // A full disk's reason says what to do, as every write of a store opened so does.
        reason = opened.isOnFullDisk ? Self.readOnlyReason(cause, databasePath: databasePath, isOnFullDisk: true) : why
      case .newerSchema(let why): reason = why
      }
      throw .readOnly(file: databasePath, reason: reason)
    }
    connection = opened.connection
    openedFile.withLock { $0 = opened.file }
    openedSideFiles.withLock { $0 = opened.sideFiles }
    checkedDirectory.withLock { $0 = opened.verifiedDirectory }
    deferredDirectory.withLock { $0 = nil }
    schemaAwaitsFirstWrite.withLock { $0 = opened.schemaAwaitsFirstWrite }
  }

  /// SQLite's extended codes for a read-only connection that cannot finish a crashed writer's
  /// recovery: `SQLITE_READONLY_RECOVERY` (264, a WAL index to rebuild), `SQLITE_READONLY_ROLLBACK`
  /// (776, a hot rollback journal) and `SQLITE_READONLY_CANTINIT` (1288).
  private static let recoveryNeedsWriter: Set<Int32> = [264, 776, 1288]

  /// Opens read-only, also right after a crash.
  ///
  /// A process killed in the middle of a write leaves work for the next connection: a hot
  /// rollback journal (a first run killed before the database was switched to WAL mode) to roll
  /// back, or a WAL index (`-shm`) to rebuild. A read-only connection may do neither. Then a
  /// query-only read-write connection opens first and lets SQLite complete its own crash
  /// recovery — which restores the last committed state and changes no committed data — the
  /// read-only connection attaches, and the helper closes while the read-only one is still open,
  /// so the helper's close checkpoints nothing. When the files cannot be written at all, the
  /// open falls back as ``open(directory:readOnly:creation:)`` describes.
  private static func openReadOnly(path: String, warnings: [String]) throws(WorkspaceError)
    -> Opened
  {
    do {
      do {
        let conn = try SQLiteConnection(path: path, readOnly: true, create: false)
        return try configure(conn, path: path, readOnlyCause: .requested, blank: .inspect, warnings: warnings)
      } catch .storage(_, let code, _) where recoveryNeedsWriter.contains(code) {
        let helper = try SQLiteConnection(path: path, readOnly: false, create: false)
        helper.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        try helper.execute("PRAGMA query_only = ON")
        _ = try helper.integer("SELECT count(*) FROM sqlite_master")
        let conn = try SQLiteConnection(path: path, readOnly: true, create: false)
        let opened = try configure(conn, path: path, readOnlyCause: .requested, blank: .inspect, warnings: warnings)
        helper.close()
        return opened
      }
    } catch {
      guard let obstacle = writeObstacle(after: error, databasePath: path) else { throw error }
      return try openUnwritable(path: path, obstacle: obstacle, blank: .inspect, warnings: warnings)
    }
  }

  /// What keeps a workspace from being opened for writing, so that it is opened for reading.
  struct WriteObstacle: Sendable, Equatable {
    /// Why, in words (``writeBlocker(databasePath:)``, or a full disk's).
    var reason: String
    /// The disk holding the workspace is full (``SQLiteWorkspaceStore/isOnFullDisk``).
    var isFullDisk = false
  }

  /// Why the workspace files cannot be written, when `error` is the kind of failure that
  /// causes and the filesystem confirms it: SQLite cannot open a file, or finds the database
  /// read-only, and ``writeBlocker(databasePath:)`` names why; or SQLite could not allocate
  /// space (``fullDiskReason(after:databasePath:)``). Nil otherwise (a damaged file, a busy
  /// database, … are never retried).
  static func writeObstacle(after error: WorkspaceError, databasePath: String) -> WriteObstacle? {
    guard case .storage(_, let code, _) = error else { return nil }
    // SQLITE_PERM 3, SQLITE_READONLY 8, SQLITE_IOERR 10, SQLITE_CANTOPEN 14.
    if [3, 8, 10, 14].contains(code & 0xff), let reason = writeBlocker(databasePath: databasePath) {
      return WriteObstacle(reason: reason)
    }
    return fullDiskReason(after: error, databasePath: databasePath).map { WriteObstacle(reason: $0, isFullDisk: true) }
  }

  /// Why this process cannot write the workspace files, from the filesystem itself: it is
  /// mounted read-only, or this user may not write the directory (where SQLite keeps the
  /// `-wal` and `-shm` files) or the database. Nil when it can.
  package static func writeBlocker(databasePath: String) -> String? {
    let directory = URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
    var fs = statvfs()
    if statvfs(directory, &fs) == 0, fs.f_flag & UInt(ST_RDONLY) != 0 {
      return "the filesystem holding the workspace is read-only"
    }
    if access(directory, W_OK) != 0 {
      return "permission denied: this user may not write the workspace directory \(directory), where SQLite keeps "
        + "the database's -wal and -shm files"
    }
    if deniesWrite(databasePath) {
      return "permission denied: this user may not write the workspace database"
    }
    return sideFileBlocker(databasePath: databasePath)
  }

  /// What to do about ``writeBlocker(databasePath:)``'s reason, for a read-only store's
  /// ``readOnlyReason`` (and so for every write it refuses): remount the filesystem, or make the
  /// directory or database writable when this user owns it (the `chmod` to run), else whose it
  /// is and what works instead. Nil when nothing blocks writing, or when the reason carries its
  /// own advice (side files of another owner).
  package static func writeAdvice(databasePath: String) -> String? {
    let directory = URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
    var fs = statvfs()
    if statvfs(directory, &fs) == 0, fs.f_flag & UInt(ST_RDONLY) != 0 {
      return "to store anything, remount the filesystem read-write, or copy the whole workspace directory somewhere "
        + "writable and pass --workspace with the copy"
    }
    var st = stat()
    if access(directory, W_OK) != 0, stat(directory, &st) == 0 {
      return FileAccessAdvice.makeWritable(path: directory, status: st, writableMode: "700")
    }
    if deniesWrite(databasePath), stat(databasePath, &st) == 0 {
      return FileAccessAdvice.makeWritable(path: databasePath, status: st, writableMode: "600")
    }
    return nil
  }

  /// Whether `path` exists and this user may not write it. A file that does not exist denies
  /// nothing, also one removed while this asks: the last connection of another process deletes
  /// the `-wal` file when it closes, so a check in two steps ("exists", then "writable") once
  /// called a vanished `-wal` unwritable and refused a write that would have succeeded.
  static func deniesWrite(_ path: String) -> Bool {
    access(path, W_OK) != 0 && errno != ENOENT
  }

  /// Why this process cannot write the workspace's `-wal`, `-shm` or `-journal` file (left by another user,
  /// or read-only and not this user's to repair, see ``repairSidecarModes(databasePath:)``), or
  /// nil. SQLite opens such a workspace for writing without complaint and fails at the first
  /// write, so the open asks this first.
  static func sideFileBlocker(databasePath: String) -> String? {
    let blocked = ["-wal", "-shm", "-journal"].filter { deniesWrite(databasePath + $0) }
    if !blocked.isEmpty {
      var owner: uid_t?
      for suffix in blocked {
        var st = stat()
        if stat(databasePath + suffix, &st) == 0, st.st_uid != geteuid() {
          owner = st.st_uid
          break
        }
      }
      let files = blocked.map { databasePath + $0 }.joined(separator: " and ")
      // Never advise removing them: the `-wal` file may hold committed writes not yet copied
      // into the database, and deleting it loses them.
      let advice =
        owner.map {
          "another user, \(FileAccessAdvice.owner($0)), owns them: have root give them to this user while no dolphin is "
            + "running (`chown -h \(geteuid()) \(blocked.map { FileAccessAdvice.shellQuoted(databasePath + $0) }.joined(separator: " "))`; "
            + "-h changes a symbolic link put in their place, never what it names); "
            + "do not delete them, since the -wal file may hold saved changes not yet in the database"
        } ?? "make them writable as the database is (chmod 600)"
      return "permission denied: this user may not write the workspace's side files (\(files)); \(advice)"
    }
    return nil
  }

  /// Gives the `-wal` and `-shm` files the database's permissions again when this user owns
  /// them, the database is writable and they are not.
  ///
  /// SQLite creates them with the database's mode, so reading a workspace whose database was
  /// read-only (0400) leaves them read-only; after the database is made writable again they
  /// would keep every write out ("the workspace is read-only"). Files of another owner are left
  /// alone (``writeBlocker(databasePath:)`` names them). Symbolic links are never followed.
  package static func repairSidecarModes(databasePath: String) {
    var database = stat()
    guard stat(databasePath, &database) == 0, access(databasePath, W_OK) == 0 else { return }
    for suffix in ["-wal", "-shm"] {
      let sidecar = databasePath + suffix
      var st = stat()
      guard lstat(sidecar, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid(),
        access(sidecar, W_OK) != 0
      else { continue }
      // Not through a link swapped in after the look (review, s15): glibc refuses to change a
      // link's mode rather than follow it.
      fchmodat(AT_FDCWD, sidecar, database.st_mode & 0o777, AT_SYMLINK_NOFOLLOW)
    }
  }

  /// Why a workspace could not be opened, in the terms a user acts on.
  public enum OpenFailure: String, Sendable, Equatable, Codable {
    /// No workspace directory or database exists there.
    case noWorkspace = "no workspace"
    /// The workspace path (or its database path) is not what it should be: a file where the
    /// directory should be, a directory where the database should be.
    case notADirectory = "not a directory"
    /// This user may not read the directory or the database.
    case permissionDenied = "permission denied"
    /// The files cannot be written here and could not be read without writing (committed
    /// changes still in the `-wal`, a rollback journal to roll back).
    case readOnly = "read-only"
    /// The disk holding the workspace is full, and the database could not be read without
    /// allocating beside it (committed changes still in the `-wal` file, and no `-shm` index to
    /// read them with).
    case diskFull = "disk full"
    /// The file is damaged or not an SQLite database.
    case notADatabase = "not a database"
    /// The file is an SQLite database that another program made
    /// (``WorkspaceError/notAWorkspace(file:found:)``).
    case notAWorkspace = "not a dolphin workspace"
    /// The workspace's `schema_migration` table is missing, and a table with its columns and
    /// dolphin's steps is most likely it, renamed
    /// (``WorkspaceError/migrationTableRenamed(file:renamedAs:)``, review 27-b, 2).
    case migrationTableRenamed = "schema_migration renamed"
    /// The workspace directory, a directory on the way to it, or the database file is a
    /// symbolic link to nothing or part of a symbolic link loop.
    case symbolicLink = "symbolic link"
    /// A side file beside the database (`-wal`, `-shm`, `-journal`) is another user's who may not
    /// write the database, or others may write it, or it is not a regular file
    /// (``SQLiteSideFiles/foreignWAL(databasePath:emptyForeignAllowed:)``): not read.
    case foreignWAL = "foreign side file"
    /// Users other than this one and root control the workspace directory, a directory on the
    /// way to it, or the database file, or may write the directory without being allowed to write
    /// the database (``WorkspaceTrust``): not opened.
    case untrustedPath = "path others control"
    /// Another SQLite or filesystem error.
    case other = "storage error"
  }

  /// Classifies an error of ``open(directory:readOnly:creation:)`` for `directory`, asking the
  /// filesystem where the error alone does not say.
  public static func openFailure(_ error: WorkspaceError, directory: URL) -> OpenFailure {
    let dir = directory.path
    let db = directory.appendingPathComponent(fileName).path
    switch error {
    case .noWorkspace: return .noWorkspace
    case .damaged: return .notADatabase
    case .notAWorkspace: return .notAWorkspace
    case .migrationTableRenamed: return .migrationTableRenamed
    case .fileSystem, .storage, .readOnly:
      var directoryStatus = stat()
      if stat(dir, &directoryStatus) == 0, (directoryStatus.st_mode & S_IFMT) == S_IFDIR,
        WorkspaceTrust.refusal(directory: dir) != nil
      {
        return .untrustedPath
      }
      if SQLiteSideFiles.foreignWAL(databasePath: db) != nil { return .foreignWAL }
      if PathProblem.linkInTheWay(ofDirectory: dir) != nil { return .symbolicLink }
      if PathProblem.of(db)?.isSymbolicLinkProblem == true { return .symbolicLink }
      var st = stat()
      if stat(dir, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR { return .notADirectory }
      if stat(dir, &st) != 0, errno == ENOTDIR { return .notADirectory }  // A file on the way.
      if stat(db, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { return .notADirectory }
      if access(dir, R_OK | X_OK) != 0 && errno == EACCES { return .permissionDenied }
      if access(db, R_OK) != 0 && errno == EACCES { return .permissionDenied }
      if writeBlocker(databasePath: db) != nil { return .readOnly }
      if error.isDiskFull || DiskSpace.of(dir)?.isFull == true { return .diskFull }
      return .other
    default: return .other
    }
  }

  /// What to do when the workspace cannot be written and SQLite's ordinary read-only open
  /// failed (it needs the `-shm` file and cannot create it).
  package enum UnwritableOpen: Sendable, Equatable {
    /// Open with `immutable=1`: there is no `-wal` content and no rollback journal, so the
    /// database file alone holds every committed change.
    case immutable
    /// Do not open: reading would hide committed changes; the text says which file holds them.
    case refuse(String)
  }

  /// Decides how to open a database that SQLite cannot open read-only in the ordinary way.
  ///
  /// `immutable=1` reads the database file alone, ignoring the `-wal` file and any rollback
  /// journal. That is exact only when neither holds anything; otherwise it would silently
  /// show an older state (committed changes still in the `-wal`) or a half-written one (a
  /// hot journal not rolled back).
  /// - Parameters:
  ///   - walBytes: the size of the `-wal` file, nil when there is none.
  ///   - journalBytes: the size of the `-journal` file, nil when there is none.
  package static func unwritableOpen(walBytes: Int64?, journalBytes: Int64?) -> UnwritableOpen {
    if let walBytes, walBytes > 0 {
      return .refuse(
        "committed changes are still in its -wal file (\(walBytes) bytes), which SQLite can only read "
          + "with a -shm index it must create beside it; reading the database without them would show "
          + "an older state")
    }
    if let journalBytes, journalBytes > 0 {
      return .refuse(
        "an interrupted write left a rollback journal (-journal, \(journalBytes) bytes) that SQLite must "
          + "roll back first; reading the database without that would show a half-written state")
    }
    return .immutable
  }

  /// Opens a workspace whose files cannot be written, read-only: first as SQLite does for a
  /// read-only WAL database whose `-wal` and `-shm` files exist; then, when the `-shm` exists but
  /// cannot be used for writing (a disk too full for it to grow), with that `-shm` opened
  /// read-only (`readonly_shm=1`), which reads the `-wal` into memory; then — when the `-wal`
  /// holds nothing — with `immutable=1`; otherwise fails with
  /// ``WorkspaceError/fileSystem(path:message:)`` saying why and what to do.
  private static func openUnwritable(
    path: String, obstacle: WriteObstacle, blank: BlankDatabase, warnings: [String]
  ) throws(WorkspaceError) -> Opened
  {
    let reason = obstacle.reason
    func marked(_ opened: Opened) -> Opened {
      var opened = opened
      opened.isOnFullDisk = obstacle.isFullDisk
      return opened
    }
    do {
      let conn = try SQLiteConnection(path: path, readOnly: true, create: false)
      return marked(
        try configure(
          conn, path: path, readOnlyCause: .unwritable(reason: reason, immutable: false), blank: blank,
          warnings: warnings))
    } catch {
      guard writeObstacle(after: error, databasePath: path) != nil else { throw error }
    }
    func size(_ suffix: String) -> Int64? {
      var st = stat()
      return stat(path + suffix, &st) == 0 ? Int64(st.st_size) : nil
    }
    if size("-shm") != nil {
      // SQLite's ordinary read-only open maps the -shm for writing whenever the file may be
      // written, and fails when it cannot grow it (ENOSPC). Opened read-only, it is left as it
      // is, and SQLite reads the -wal into memory: committed changes there are seen.
      do {
        let conn = try SQLiteConnection(path: path, readOnly: true, create: false, readOnlySharedMemory: true)
        return marked(
          try configure(
            conn, path: path, readOnlyCause: .unwritable(reason: reason, immutable: false), blank: blank,
            warnings: warnings))
      } catch .storage {
        // Decided below as without a -shm: nothing committed is ever hidden.
      }
    }
    switch unwritableOpen(walBytes: size("-wal"), journalBytes: size("-journal")) {
    case .immutable:
      let conn = try SQLiteConnection(path: path, readOnly: true, create: false, immutable: true)
      return marked(
        try configure(
          conn, path: path, readOnlyCause: .unwritable(reason: reason, immutable: true), blank: blank,
          warnings: warnings))
    case .refuse(let why):
      let directory = (path as NSString).deletingLastPathComponent
      let remedy =
        obstacle.isFullDisk
        ? "Free space on that disk (remove or move files there) and run the command again, or copy the whole "
          + "workspace directory (with workspace.sqlite-wal) to another disk and pass --workspace with the copy"
        : (access(directory, W_OK) == 0 ? "Do as said above" : "Make the directory writable (or remount it read-write)")
          + " and run the command again, or copy the whole workspace directory somewhere writable and pass "
          + "--workspace with the copy"
      throw .fileSystem(path: path, message: "cannot be read here: \(reason), and \(why). Nothing was changed. " + remedy)
    }
  }

  /// A private in-memory workspace with the same schema and behaviour, for tests and previews.
  public static func inMemory() -> SQLiteWorkspaceStore {
    do {
      let conn = try SQLiteConnection(path: ":memory:", readOnly: false, create: true)
      return SQLiteWorkspaceStore(
        try configure(conn, path: ":memory:", readOnlyCause: nil, blank: .complete, warnings: []), path: ":memory:")
    } catch {
      // An in-memory database only fails to open when the process is out of memory.
      fatalError("cannot open an in-memory SQLite database: \(error)")
    }
  }

  /// Configures a connection and, when it may write, applies the pending schema steps.
  /// - Throws: ``WorkspaceError/notAWorkspace(file:found:)`` for another program's database,
  ///   before anything is written to it; ``WorkspaceError/noWorkspace(directory:)`` for a blank
  ///   database when `blank` says so; storage errors.
  private static func configure(
    _ conn: sending SQLiteConnection, path: String, readOnlyCause requested: ReadOnlyCause?,
    blank: BlankDatabase, warnings: [String]
  ) throws(WorkspaceError) -> Opened {
    conn.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
    // Reading the schema first also proves the file is a database.
    let version = try conn.integer("PRAGMA user_version")
    var schemaAwaitsFirstWrite = false
    if path != ":memory:" {
      // dolphin's first step on a new database creates `schema_migration` before anything else,
      // so objects without it are another program's, and a database without any objects is
      // what a first run interrupted before that step leaves. Decided before anything is
      // written: neither may receive dolphin's schema from a command that only reads.
      let objects = try conn.all(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name, type"
      ) { (type: $0.text(0), name: $0.text(1)) }
      // Each step commits with its row, so an empty `schema_migration` beside other objects is
      // not dolphin's either, and one alone is a first run interrupted after creating it. A
      // `schema_migration` without dolphin's columns is another program's table of that name.
      var hasMigrationTable = objects.contains { $0.type == "table" && $0.name == "schema_migration" }
      if hasMigrationTable {
        let columns = Set(try conn.all("PRAGMA table_info(schema_migration)") { $0.text(1) })
        hasMigrationTable = columns.isSuperset(of: ["name", "applied_at"])
      }
      var noStepApplied = false
      if hasMigrationTable {
        let recorded = try conn.integer("SELECT count(*) FROM schema_migration")
        noStepApplied = recorded == 0
        // Rows none of which is a step name dolphin ever shipped are another program's
        // migrations (a table of the same name and columns is a common layout). A newer dolphin
        // build records steps this one does not know, but always after this build's first step,
        // which is never renamed once shipped: one known name is enough to call it dolphin's.
        if recorded > 0 {
          let known = WorkspaceSchema.steps.map(\.name)
          let placeholders = Array(repeating: "?", count: known.count).joined(separator: ", ")
          let recordedKnown = try conn.integer(
            "SELECT count(*) FROM schema_migration WHERE name IN (\(placeholders))", known.map { .text($0) })
          hasMigrationTable = recordedKnown > 0
        }
      }
      let others = hasMigrationTable ? objects.filter { $0.name != "schema_migration" } : objects
      if !hasMigrationTable, !objects.contains(where: { $0.type == "table" && $0.name.lowercased() == "schema_migration" }),
        let renamed = try renamedMigrationTable(conn, tables: objects.filter { $0.type == "table" }.map(\.name))
      {
        throw .migrationTableRenamed(file: path, renamedAs: renamed)
      }
      if !hasMigrationTable && !objects.isEmpty || noStepApplied && !others.isEmpty {
        let shown = WorkspaceError.notAWorkspaceNamesShown
        var found = others.prefix(shown).map { "\($0.type) \($0.name)" }
        if others.count > shown { found.append("\(others.count - shown) more") }
        throw .notAWorkspace(file: path, found: found)
      }
      // dolphin sets `user_version` only in the transaction of a schema step, with its tables
      // and its `schema_migration` row, so a version without a recorded step is not what an
      // interrupted first run leaves: another program set it. dolphin never sets
      // `application_id`, which SQLite reserves for the program that owns the file's format.
      if objects.isEmpty || noStepApplied {
        let applicationID = try conn.integer("PRAGMA application_id")
        if applicationID != 0 {
          throw .notAWorkspace(file: path, found: [WorkspaceError.applicationIDOnly(applicationID)])
        }
        if version != 0 {
          throw .notAWorkspace(file: path, found: [WorkspaceError.userVersionOnly(version)])
        }
      }
      if objects.isEmpty || noStepApplied, blank == .noWorkspace {
        throw .noWorkspace(directory: URL(fileURLWithPath: path).deletingLastPathComponent().path)
      }
      schemaAwaitsFirstWrite = (objects.isEmpty || noStepApplied) && blank == .firstWrite
    }
    try conn.execute("PRAGMA foreign_keys = OFF; PRAGMA secure_delete = ON;")
    var readOnlyCause = requested
    if readOnlyCause == nil, path != ":memory:", conn.isReadOnly {
      // SQLite opens a file it may not write read-only without failing (with existing -wal and
      // -shm files it can even read a WAL database so): say so now, not at the first write.
      readOnlyCause = .unwritable(
        reason: writeBlocker(databasePath: path) ?? "SQLite could open the database only for reading",
        immutable: false)
    } else if readOnlyCause == .requested, path != ":memory:", let reason = writeBlocker(databasePath: path) {
      // Asked for read-only, and it could not have been written anyway: the more useful reason.
      readOnlyCause = .unwritable(reason: reason, immutable: false)
    }
    var pending = WorkspaceSchema.steps.map(\.name)
    if version > Int64(SchemaVersion.current) {
      readOnlyCause = .newerSchema(reason: "schema \(version) is newer than this build's \(SchemaVersion.current)")
    } else {
      let known = Set(WorkspaceSchema.steps.map(\.name))
      let hasTable =
        try conn.integer(
          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migration'")
        > 0
      if hasTable {
        let applied = try conn.all("SELECT name FROM schema_migration") { $0.text(0) }
        pending.removeAll { applied.contains($0) }
        if let unknown = applied.first(where: { !known.contains($0) }) {
          readOnlyCause = .newerSchema(reason: "it records migration step '\(unknown)', unknown to this build")
        }
      }
    }
    if readOnlyCause == nil {
      if path != ":memory:" {
        try enableWAL(conn, path: path)
        try conn.execute("PRAGMA synchronous = NORMAL")
      }
      if !schemaAwaitsFirstWrite {
        try migrate(conn, path: path)
        pending = []
      }
    }
    return Opened(
      connection: conn, readOnlyCause: readOnlyCause, warnings: warnings,
      pendingMigrationSteps: version > Int64(SchemaVersion.current) ? [] : pending,
      schemaAwaitsFirstWrite: schemaAwaitsFirstWrite && readOnlyCause == nil)
  }

  /// Why a workspace whose `-wal` or `-shm` was deleted while another process holds it open is
  /// not opened (``SQLiteSideFiles/removedWhileOpen(databasePath:attempts:pauseMicroseconds:)``).
  static func sideFilesRemovedMessage(_ removed: SQLiteSideFiles.RemovedWhileOpen) -> String {
    let names = removed.missing.map { Limits.shownPath(URL(fileURLWithPath: $0).lastPathComponent) }
    let list = names.joined(separator: " and ")
    return "\(list) \(names.count == 1 ? "was" : "were") deleted while process \(removed.holder) has the workspace open "
      + "(SQLite keeps its recent commits and their index there); opening it now would let this command and that "
      + "process overwrite each other's writes, so nothing was read or written. Let process \(removed.holder) finish, "
      + "or quit it the normal way (for `dolphin mcp`, quit its MCP client; not `kill -9`): as it closes the workspace, "
      + "SQLite writes what it holds into workspace.sqlite. Then run the command again; never delete these files while "
      + "a program has the workspace open"
  }

  /// The table among `tables` that is most likely dolphin's `schema_migration` renamed (review
  /// 27-b, 2): it has exactly that table's columns and records at least one of this build's
  /// schema steps, and the database holds a table those steps create (so it is dolphin's
  /// workspace, not another program's database with a table of the same layout); of several,
  /// the one recording the most steps. Nil when none is.
  private static func renamedMigrationTable(_ conn: SQLiteConnection, tables: [String]) throws(WorkspaceError) -> String? {
    guard let migration = WorkspaceSchema.expectedObjects(applied: []).first(where: { $0.object.name == "schema_migration" })
    else { return nil }
    let known = WorkspaceSchema.steps.map(\.name)
    let names = Set(tables.map { $0.lowercased() })
    var best: (table: String, steps: Int64)?
    for table in tables {
      let columns = try SchemaColumn.columns(ofTable: table, in: conn)
      guard columns.count == migration.columns.count,
        migration.columns.allSatisfy({ e in columns.contains { $0.isDeclared(like: e) } })
      else { continue }
      let recorded = Set(try conn.all("SELECT name FROM main." + ShellWord.sqlIdentifier(table)) { $0.text(0) })
      let steps = known.filter(recorded.contains)
      guard !steps.isEmpty else { continue }
      let dolphinTables = WorkspaceSchema.expectedObjects(applied: Set(steps))
        .filter { $0.object.type == "table" && $0.object.name != "schema_migration" }.map { $0.object.name.lowercased() }
      guard dolphinTables.contains(where: names.contains) else { continue }
      if best.map({ Int64(steps.count) > $0.steps }) ?? true { best = (table, Int64(steps.count)) }
    }
    return best?.table
  }

  /// `PRAGMA journal_mode = WAL`, retried for as long as the busy timeout while another
  /// process's first open of the same new database holds a lock it needs.
  ///
  /// Switching a new database to WAL takes an exclusive lock; when two first commands race
  /// (both holding a shared lock from reading the schema), SQLite answers one of them
  /// `SQLITE_BUSY` at once, without calling the busy handler (waiting could deadlock). The
  /// statement has then released its locks, so trying again shortly after succeeds — or finds
  /// the database already in WAL mode.
  private static func enableWAL(_ conn: SQLiteConnection, path: String) throws(WorkspaceError) {
    let deadline = Date().addingTimeInterval(Double(busyTimeoutMilliseconds) / 1000)
    var mode: String?
    while true {
      do {
        mode = try conn.first("PRAGMA journal_mode = WAL") { $0.text(0) }
        break
      } catch {
        guard case .busy = error, Date() < deadline else { throw error }
        usleep(UInt32.random(in: 2_000...20_000))  // SQLITE_BUSY: the other open holds the lock
      }
    }
    if mode?.lowercased() != "wal" {
      throw .storage(file: path, code: 0, message: "cannot enable WAL (journal mode \(mode ?? "?"))")
    }
  }

  private static let createMigrationTable = WorkspaceSchema.migrationTableSQL

  private static func migrate(_ conn: SQLiteConnection, path: String) throws(WorkspaceError) {
    try conn.execute(createMigrationTable)
    let applied = Set(try conn.all("SELECT name FROM schema_migration") { $0.text(0) })
    for step in WorkspaceSchema.steps where !applied.contains(step.name) {
      try conn.execute("BEGIN IMMEDIATE")
      do {
        try applyIfPending(step, conn)
        try conn.execute("COMMIT")
      } catch {
        try? conn.execute("ROLLBACK")
        throw error
      }
    }
  }

  /// Applies `step` with its `schema_migration` row in the open transaction, unless it is
  /// recorded already (another process may have applied it while this one waited for the lock).
  private static func applyIfPending(_ step: WorkspaceSchema.Step, _ conn: SQLiteConnection) throws(WorkspaceError) {
    guard try conn.integer("SELECT count(*) FROM schema_migration WHERE name = ?", [.text(step.name)]) == 0 else {
      return
    }
    try conn.execute(step.sql)
    try step.apply?(conn)
    try conn.run(
      "INSERT INTO schema_migration(name, applied_at) VALUES (?, ?)",
      [.text(step.name), .text(ISO8601.string(from: Date()))])
    try conn.execute("PRAGMA user_version = \(SchemaVersion.current)")
  }

  /// Creates the whole schema inside the write transaction open on `conn` (see
  /// ``schemaAwaitsFirstWrite``): it commits with that write's rows or not at all. Steps another
  /// process applied meanwhile are skipped.
  private static func createSchemaInTransaction(_ conn: SQLiteConnection) throws(WorkspaceError) {
    try conn.execute(createMigrationTable)
    for step in WorkspaceSchema.steps { try applyIfPending(step, conn) }
  }

  /// Runs `body` with the connection, first attaching the workspace files that another process
  /// created meanwhile (see ``Creation/atFirstWrite``).
  private func withConnection<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    try connection.withLock { conn throws -> T in
      try attachFiles(&conn, create: false)
      return try body(conn)
    }
  }

  /// Whether the workspace exists on disk: false only for a store opened with
  /// ``Creation/atFirstWrite`` that has not written yet, while no other process has created
  /// the workspace since (a database file that holds no schema yet does not count).
  public var existsOnDisk: Bool {
    connection.withLock { conn in
      // Another process's new workspace is attached as the next read would attach it; an
      // error here (a file that is not a workspace) is left for that read to report.
      try? attachFiles(&conn, create: false)
      return deferredDirectory.withLock { $0 == nil }
    }
  }

  /// Makes every later ``write(_:)`` run `preamble` first, inside its transaction: work that
  /// belongs to the first write that succeeds (importing a legacy `workspace.json`), decided
  /// under the write lock, so that concurrent processes do it once and a refused write does
  /// none of it. Nil removes it.
  /// - Parameters:
  ///   - key: names the work, for ``removeWritePreamble(key:)``.
  public func setWritePreamble(key: String, _ preamble: WritePreamble?) {
    writePreamble.withLock { $0 = preamble.map { (key, $0) } }
  }

  /// Whether a write preamble is set (see ``setWritePreamble(key:_:)``): work that only this
  /// store's writes do, so a caller that would write through another connection to the same
  /// file (``reopened()``) writes through this one instead.
  package var hasWritePreamble: Bool { writePreamble.withLock { $0 != nil } }

  /// When set, every ``read(_:)`` while a write preamble is pending runs that preamble first,
  /// in a rehearsal (``WorkspaceTransaction/isRehearsal``: no file is written) that is always
  /// rolled back: the read sees the workspace as the next write will find it, and nothing is
  /// stored. A command that plans a change, shows the plan and applies it only once confirmed
  /// (erase, a deletion, import) plans over what its write will find — a legacy
  /// `workspace.json` imported by that write included — while a plan refused, not found or
  /// declined imports nothing (review 18-d, M4). Such a read takes the write lock for its
  /// duration.
  package var readsIncludeWritePreamble: Bool {
    get { readsRunPreamble.withLock { $0 } }
    set { readsRunPreamble.withLock { $0 = newValue } }
  }

  /// Removes the write preamble set with `key` (a caller about to do that work itself).
  /// - Returns: whether there was one with that key.
  @discardableResult
  public func removeWritePreamble(key: String) -> Bool {
    writePreamble.withLock { current in
      guard current?.key == key else { return false }
      current = nil
      return true
    }
  }

  /// For a store opened with ``Creation/atFirstWrite`` whose files do not exist yet: runs
  /// `body` on the in-memory stand-in and keeps its changes there (nothing is written to disk;
  /// the transaction's ``WorkspaceTransaction/isRehearsal`` is set), so reads before the first
  /// write see them. They are gone once the files exist.
  /// - Returns: false, without running `body`, for any other store.
  /// - Throws: whatever `body` throws (its changes are then rolled back); storage errors.
  @discardableResult
  public func writeToStandIn(_ body: (WorkspaceTransaction) throws -> Void) throws -> Bool {
    try connection.withLock { conn throws -> Bool in
      try attachFiles(&conn, create: false)
      guard deferredDirectory.withLock({ $0 != nil }) else { return false }
      try conn.execute("BEGIN IMMEDIATE")
      let tx = WorkspaceTransaction(db: conn, isWritable: true, isRehearsal: true)
      do {
        try body(tx)
        tx.invalidate()
        try conn.execute("COMMIT")
        return true
      } catch {
        tx.invalidate()
        if !conn.isAutocommit { try? conn.execute("ROLLBACK") }
        throw error
      }
    }
  }

  @discardableResult
  public func read<T: Sendable>(_ body: (WorkspaceTransaction) throws -> T) throws -> T {
    if readsIncludeWritePreamble, let preamble = writePreamble.withLock({ $0?.run }) {
      // What the next write will find, rehearsed and rolled back (see readsIncludeWritePreamble).
      return try withConnection { conn throws -> T in
        try conn.execute("BEGIN IMMEDIATE")
        let tx = WorkspaceTransaction(db: conn, isWritable: true, isRehearsal: true)
        var ended: (@Sendable (Bool) -> Void)?
        defer {
          tx.invalidate()
          if !conn.isAutocommit { try? conn.execute("ROLLBACK") }
          ended?(false)
        }
        ended = try preamble(tx)
        return try body(tx)
      }
    }
    return try withConnection { conn throws -> T in
      try conn.execute("BEGIN")
      let tx = WorkspaceTransaction(db: conn, isWritable: false)
      defer {
        tx.invalidate()
        if !conn.isAutocommit { try? conn.execute("COMMIT") }
      }
      return try body(tx)
    }
  }

  /// Runs `body` in a write transaction. A store opened with ``Creation/atFirstWrite`` whose
  /// files do not exist yet first runs it on its empty in-memory workspace and rolls that back;
  /// only when that succeeds are the files created and `body` run again, for real.
  ///
  /// Once the write lock is held, the database file is checked to be still the one at
  /// ``databasePath`` (``changeAtPath()``): when it was removed or replaced since this store
  /// opened it, nothing is written and the write throws ``WorkspaceError/notAtPath(file:removed:)``.
  @discardableResult
  public func write<T: Sendable>(_ body: (WorkspaceTransaction) throws -> T) throws -> T {
    if isReadOnly {
      throw WorkspaceError.readOnly(file: databasePath, reason: readOnlyReason ?? "read-only")
    }
    let preamble = writePreamble.withLock { $0?.run }
    return try connection.withLock { conn throws -> T in
      try attachFiles(&conn, create: false)
      if deferredDirectory.withLock({ $0 != nil }) {
        // The rehearsal, on the empty in-memory workspace: always rolled back.
        try conn.execute("BEGIN IMMEDIATE")
        let rehearsal = WorkspaceTransaction(db: conn, isWritable: true, isRehearsal: true)
        var ended: (@Sendable (Bool) -> Void)?
        defer {
          rehearsal.invalidate()
          if !conn.isAutocommit { try? conn.execute("ROLLBACK") }
          ended?(false)
        }
        ended = try preamble?(rehearsal)
        _ = try body(rehearsal)
      }
      // The stand-in and what it stood for, kept until the files hold a schema: a first write
      // that fails after creating them leaves a database without schema, which counts as
      // missing, so the store goes back to its stand-in rather than read tables that do not exist.
      let standIn = deferredDirectory.withLock { $0 }.map { (connection: conn, directory: $0) }
      try attachFiles(&conn, create: true)
      let createsSchema = schemaAwaitsFirstWrite.withLock { $0 }
      // Side files deleted under this store: what they hold goes into the database first (the
      // connection is then a new one), or, while another process also has them open, nothing is
      // written (review 30-b, 1).
      if !createsSchema, !removedSideFiles().isEmpty { _ = try rescueSideFiles(&conn) }
      let tx = WorkspaceTransaction(db: conn, isWritable: true)
      var ended: (@Sendable (Bool) -> Void)?
      do {
        try conn.execute("BEGIN IMMEDIATE")
        // Under the write lock: a write into a file that was removed or replaced since it was
        // opened would be acknowledged and then lost (review 19-a).
        try checkStillAtPath()
        if createsSchema { try Self.createSchemaInTransaction(conn) }
        ended = try preamble?(tx)
        let result = try body(tx)
        tx.invalidate()
        try conn.execute("COMMIT")
        if createsSchema { schemaAwaitsFirstWrite.withLock { $0 = false } }
        // A `-wal` or `-shm` deleted while this store had it open (review 29-b, 1): the commit
        // is in a file nothing can reach once this process ends, so it is copied into the
        // database file before it is acknowledged, and the connection takes new side files.
        // (Checked before the write too; this covers a deletion during the transaction.) When
        // that cannot be done now, the commit stays in this process's unlinked `-wal`, which its
        // normal close still checkpoints; a server's watch tries again.
        if !removedSideFiles().isEmpty { _ = try? rescueSideFiles(&conn) }
        ended?(true)
        return result
      } catch {
        tx.invalidate()
        if !conn.isAutocommit { try? conn.execute("ROLLBACK") }
        if createsSchema, let standIn {
          conn = standIn.connection
          deferredDirectory.withLock { $0 = standIn.directory }
          schemaAwaitsFirstWrite.withLock { $0 = false }
        }
        ended?(false)
        throw error
      }
    }
  }

  /// Runs `PRAGMA integrity_check` and returns its messages (`["ok"]` when clean).
  public func integrityCheck() throws -> [String] {
    try withConnection { conn -> [String] in
      try conn.all("PRAGMA integrity_check") { $0.text(0) }
    }
  }

  /// Copies the WAL into the database and truncates it, so deleted text does not linger in
  /// the `-wal` file. Best effort: another open connection may keep part of the WAL.
  public func checkpoint() throws {
    if isReadOnly { return }
    try withConnection { conn in
      try conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
  }

  /// What ``compact()`` left behind.
  public struct Compaction: Sendable, Equatable, Codable {
    /// Size of the `-wal` file afterwards, in bytes (0 unless another process holds the
    /// workspace open).
    public var walBytes: Int64
    /// Pages on SQLite's free list afterwards (0 after a `VACUUM`).
    public var freePages: Int
    /// True when another connection kept the final checkpoint from completing.
    public var checkpointBusy: Bool
  }

  /// Rewrites the database so that deleted text survives nowhere in its files: checkpoints the
  /// WAL, runs `VACUUM` (which rebuilds every page; `temp_store = MEMORY` keeps its scratch copy
  /// off the disk), then checkpoints again with `TRUNCATE` so the `-wal` file is emptied.
  ///
  /// `secure_delete` already zeroes deleted rows in place; this also drops free pages and the
  /// WAL's old frames. Another process with the workspace open can keep the WAL from being
  /// truncated; the result says so.
  /// - Returns: the WAL size and free-page count afterwards.
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)``; storage errors.
  @discardableResult
  public func compact() throws -> Compaction {
    if isReadOnly { throw WorkspaceError.readOnly(file: databasePath, reason: readOnlyReason ?? "read-only") }
    return try withConnection { conn -> Compaction in
      try conn.execute("PRAGMA temp_store = MEMORY")
      try conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      try conn.execute("VACUUM")
      let busy = try conn.first("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int(0) } ?? 0
      let free = Int(try conn.integer("PRAGMA freelist_count"))
      var walBytes: Int64 = 0
      var st = stat()
      if databasePath != ":memory:", stat(databasePath + "-wal", &st) == 0 { walBytes = Int64(st.st_size) }
      return Compaction(walBytes: walBytes, freePages: free, checkpointBusy: busy != 0)
    }
  }

  /// Another store on the same database file with a SQLite connection of its own (and this
  /// one's busy timeout), so that long work (the staged search-index rebuild) neither holds
  /// this store's connection nor mixes its temporary tables with it; nil for the in-memory
  /// store, whose database no other connection can reach.
  /// - Throws: what ``open(directory:readOnly:create:)`` throws.
  package func reopened() throws(WorkspaceError) -> SQLiteWorkspaceStore? {
    guard let directory else { return nil }
    let store = try Self.open(directory: directory, readOnly: isReadOnly, create: false)
    store.setBusyTimeout(milliseconds: connection.withLock { $0.busyTimeoutMilliseconds })
    return store
  }

  /// Runs `body` while this store's SQLite connection is closed, then opens the database again
  /// for this store, read-only. For a read-only store only; any other store runs `body` with its
  /// connection open.
  ///
  /// SQLite's unix VFS keeps one WAL index (`-shm`) mapping per database file and process,
  /// shared by every connection of the process to that file, and opens it read-only when the
  /// first of them cannot open it for writing (a `-shm` left at mode 0400). As long as this
  /// store's connection keeps that mapping, another connection of this process to the same file
  /// inherits it and every write through it fails with `SQLITE_READONLY`, whatever the file's
  /// mode is now. So a caller that opens the workspace again for writing
  /// (`MCPWorkspace.engineForWriting()`) opens it inside `body`, and this store takes its new
  /// read-only connection after that, sharing the new writable mapping.
  ///
  /// Reads on this store wait until `body` has returned and the connection is open again; a
  /// read already running is waited for first. When the database cannot be opened again
  /// (it was removed meanwhile), the connection stays closed: every later call on this store
  /// fails with a storage error, and ``isConnectionClosed`` is true.
  /// - Returns: what `body` returns.
  package func withConnectionClosed<T: Sendable>(_ body: () -> T) -> T {
    connection.withLock { conn -> T in
      guard isReadOnly, let directory, deferredDirectory.withLock({ $0 == nil }) else { return body() }
      let busyTimeout = conn.busyTimeoutMilliseconds
      conn.close()
      let result = body()
      if case .opened(let opened)? = try? Self.openFiles(directory: directory, readOnly: true, creation: .never) {
        conn = opened.connection
        openedFile.withLock { $0 = opened.file }
        openedSideFiles.withLock { $0 = opened.sideFiles }
        conn.setBusyTimeout(milliseconds: busyTimeout)
      }
      return result
    }
  }

  /// Whether this store's connection was closed for good: ``withConnectionClosed(_:)`` could not
  /// open the database again, or ``closeConnection()`` was called.
  package var isConnectionClosed: Bool { connection.withLock { $0.isClosed } }

  /// Closes this store's SQLite connection now rather than when the store is released, so that
  /// the caller can tidy up after it (``SQLiteSideFiles/removeCreated()``) while engines built on
  /// the store may still be around. Every later call on the store fails with a storage error;
  /// calling it again does nothing.
  package func closeConnection() {
    connection.withLock { $0.close() }
  }

  /// Checks that a write could begin now, on this store's own connection: `BEGIN IMMEDIATE`,
  /// which takes the write lock and maps the WAL index for writing, then `ROLLBACK`. Nothing is
  /// written. It fails where a write would fail for want of permission, even when the files'
  /// modes say they can be written (see ``withConnectionClosed(_:)``). A store whose files do
  /// not exist yet (``Creation/atFirstWrite``) is not checked.
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)`` for a read-only store; the storage error
  ///   `BEGIN IMMEDIATE` met (`SQLITE_READONLY`, ``WorkspaceError/busy(file:waitedMilliseconds:)``
  ///   after the busy timeout, …).
  package func checkWritable() throws(WorkspaceError) {
    if isReadOnly {
      throw .readOnly(file: databasePath, reason: readOnlyReason ?? "read-only")
    }
    try connection.withLock { (conn: inout SQLiteConnection) throws(WorkspaceError) in
      guard deferredDirectory.withLock({ $0 == nil }) else { return }
      try conn.execute("BEGIN IMMEDIATE")
      try conn.execute("ROLLBACK")
    }
  }

  /// Sets how long this store's writes wait for another connection's lock (tests shorten
  /// ``busyTimeoutMilliseconds``).
  package func setBusyTimeout(milliseconds: Int32) {
    connection.withLock { $0.setBusyTimeout(milliseconds: milliseconds) }
  }

  /// The workspace directory holding the database, or nil for the in-memory store.
  public var directory: URL? {
    databasePath == ":memory:" ? nil : URL(fileURLWithPath: databasePath).deletingLastPathComponent()
  }

  /// The names of the migration steps applied to this database, in order.
  public func appliedMigrations() throws -> [String] {
    try withConnection { conn -> [String] in
      try conn.all("SELECT name FROM schema_migration ORDER BY name") { $0.text(0) }
    }
  }

  /// `PRAGMA user_version` of the open database.
  public func schemaVersion() throws -> Int {
    try withConnection { conn -> Int in
      Int(try conn.integer("PRAGMA user_version"))
    }
  }

  /// SQLite's library version.
  public static var sqliteVersion: String { SQLiteConnection.libraryVersion }
}

/// `open(2)` with a mode, callable from Swift on Glibc and Darwin.
@inline(__always)
private func Glibc_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}

