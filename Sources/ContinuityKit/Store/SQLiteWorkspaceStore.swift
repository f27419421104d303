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
/// opens read-only. A damaged file is never overwritten.
public final class SQLiteWorkspaceStore: WorkspaceStore {
  /// The file name inside a workspace directory.
  public static let fileName = "workspace.sqlite"

  public let databasePath: String
  public let isReadOnly: Bool
  /// Why the store is read-only, when it is.
  public let readOnlyReason: String?
  /// Warnings found while opening (e.g. a directory readable by others).
  public let warnings: [String]
  /// Names of schema migration steps this build knows that the database has not applied yet.
  /// Empty after any writable open (which applies them); a read-only open of a database whose
  /// first run was interrupted (killed between steps) lists what the next writable open applies.
  public let pendingMigrationSteps: [String]
  private let connection: Mutex<SQLiteConnection>

  /// How long a write waits for another process's lock before failing, in milliseconds.
  public static let busyTimeoutMilliseconds: Int32 = 15_000

  private init(
    connection: sending SQLiteConnection, path: String, readOnlyReason: String?,
    warnings: [String], pendingMigrationSteps: [String]
  ) {
    self.pendingMigrationSteps = pendingMigrationSteps
    self.connection = Mutex(connection)
    self.databasePath = path
    self.isReadOnly = readOnlyReason != nil
    self.readOnlyReason = readOnlyReason
    self.warnings = warnings
  }

  /// Opens the workspace in `directory`, creating the directory (0700) and the database
  /// (0600, schema v5) when they do not exist, and applying pending migration steps.
  ///
  /// - Parameters:
  ///   - directory: the workspace directory.
  ///   - readOnly: open without ever writing (for `status`, `doctor`).
  /// - Throws: ``WorkspaceError/fileSystem(path:message:)`` when the directory or file cannot
  ///   be created; ``WorkspaceError/damaged(file:message:)`` for a file that is not a usable
  ///   database; ``WorkspaceError/storage(file:code:message:)`` for other SQLite errors.
  public static func open(directory: URL, readOnly: Bool = false) throws(WorkspaceError)
    -> SQLiteWorkspaceStore
  {
    let dir = directory.path
    var warnings: [String] = []
    let fm = FileManager.default
    var isDir: ObjCBool = false
    if fm.fileExists(atPath: dir, isDirectory: &isDir) {
      guard isDir.boolValue else {
        throw .fileSystem(path: dir, message: "exists and is not a directory")
      }
      var st = stat()
      if stat(dir, &st) == 0, st.st_mode & 0o077 != 0 {
        warnings.append(
          "workspace directory \(dir) is accessible by other users (mode "
            + String(st.st_mode & 0o777, radix: 8)
            + "); consider `chmod 700 \(dir)`")
      }
    } else {
      if readOnly { throw .fileSystem(path: dir, message: "no workspace directory here") }
      do {
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
      } catch {
        // FileManager's message does not say why; the parent directory's access does.
        let parent = directory.deletingLastPathComponent().path
        let reason = access(parent, W_OK) != 0 ? SystemErrorCause.describe(errno) : error.localizedDescription
        throw .fileSystem(path: dir, message: "cannot create directory: \(reason)")
      }
      if chmod(dir, 0o700) != 0 {
        throw .fileSystem(path: dir, message: "cannot set mode 0700: \(SystemErrorCause.describe(errno))")
      }
    }
    let path = directory.appendingPathComponent(fileName).path
    let exists = fm.fileExists(atPath: path)
    if !exists {
      if readOnly { throw .fileSystem(path: path, message: "no workspace database here") }
      // Create the file 0600 ourselves so SQLite (and its -wal/-shm, which copy the database's
      // mode) never exist with wider permissions.
      let fd = Glibc_open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
      if fd < 0 {
        throw .fileSystem(path: path, message: "cannot create: \(SystemErrorCause.describe(errno))")
      }
      fchmod(fd, 0o600)
      close(fd)
    } else {
      var st = stat()
      if stat(path, &st) == 0, st.st_mode & 0o077 != 0 {
        warnings.append(
          "workspace database \(path) is readable by other users (mode "
            + String(st.st_mode & 0o777, radix: 8) + "); consider `chmod 600 \(path)`")
      }
    }
    if readOnly { return try openReadOnly(path: path, warnings: warnings) }
    let conn = try SQLiteConnection(path: path, readOnly: false, create: false)
    return try configure(conn, path: path, requestedReadOnly: false, warnings: warnings)
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
  /// so the helper's close checkpoints nothing.
  private static func openReadOnly(path: String, warnings: [String]) throws(WorkspaceError)
    -> SQLiteWorkspaceStore
  {
    do {
      let conn = try SQLiteConnection(path: path, readOnly: true, create: false)
      return try configure(conn, path: path, requestedReadOnly: true, warnings: warnings)
    } catch .storage(_, let code, _) where recoveryNeedsWriter.contains(code) {
      let helper = try SQLiteConnection(path: path, readOnly: false, create: false)
      helper.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
      try helper.execute("PRAGMA query_only = ON")
      _ = try helper.integer("SELECT count(*) FROM sqlite_master")
      let conn = try SQLiteConnection(path: path, readOnly: true, create: false)
      let store = try configure(conn, path: path, requestedReadOnly: true, warnings: warnings)
      helper.close()
      return store
    }
  }

  /// A private in-memory workspace with the same schema and behaviour, for tests and previews.
  public static func inMemory() -> SQLiteWorkspaceStore {
    do {
      let conn = try SQLiteConnection(path: ":memory:", readOnly: false, create: true)
      return try configure(conn, path: ":memory:", requestedReadOnly: false, warnings: [])
    } catch {
      // An in-memory database only fails to open when the process is out of memory.
      fatalError("cannot open an in-memory SQLite database: \(error)")
    }
  }

  private static func configure(
    _ conn: sending SQLiteConnection, path: String, requestedReadOnly: Bool, warnings: [String]
  ) throws(WorkspaceError) -> SQLiteWorkspaceStore {
    conn.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
    // Reading the schema first also proves the file is a database.
    let version = try conn.integer("PRAGMA user_version")
    try conn.execute("PRAGMA foreign_keys = OFF; PRAGMA secure_delete = ON;")
    var readOnlyReason: String? = requestedReadOnly ? "opened read-only" : nil
    var pending = WorkspaceSchema.steps.map(\.name)
    if version > Int64(SchemaVersion.current) {
      readOnlyReason = "schema \(version) is newer than this build's \(SchemaVersion.current)"
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
          readOnlyReason = "it records migration step '\(unknown)', unknown to this build"
        }
      }
    }
    if readOnlyReason == nil {
      if path != ":memory:" {
        let mode = try conn.first("PRAGMA journal_mode = WAL") { $0.text(0) }
        if mode?.lowercased() != "wal" {
          throw .storage(file: path, code: 0, message: "cannot enable WAL (journal mode \(mode ?? "?"))")
        }
        try conn.execute("PRAGMA synchronous = NORMAL")
      }
      try migrate(conn, path: path)
      pending = []
    }
    let store = SQLiteWorkspaceStore(
      connection: conn, path: path, readOnlyReason: readOnlyReason, warnings: warnings,
      pendingMigrationSteps: version > Int64(SchemaVersion.current) ? [] : pending)
    if version > Int64(SchemaVersion.current) {
      _ = store  // opened read-only; the caller reports `newerSchema` through readOnlyReason
    }
    return store
  }

  private static func migrate(_ conn: SQLiteConnection, path: String) throws(WorkspaceError) {
    try conn.execute(
      "CREATE TABLE IF NOT EXISTS schema_migration (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)"
    )
    let applied = Set(try conn.all("SELECT name FROM schema_migration") { $0.text(0) })
    for step in WorkspaceSchema.steps where !applied.contains(step.name) {
      try conn.execute("BEGIN IMMEDIATE")
      do {
        // Another process may have applied it while we waited for the lock.
        if try conn.integer("SELECT count(*) FROM schema_migration WHERE name = ?", [.text(step.name)]) == 0 {
          try conn.execute(step.sql)
          try conn.run(
            "INSERT INTO schema_migration(name, applied_at) VALUES (?, ?)",
            [.text(step.name), .text(ISO8601.string(from: Date()))])
          try conn.execute("PRAGMA user_version = \(SchemaVersion.current)")
        }
        try conn.execute("COMMIT")
      } catch {
        try? conn.execute("ROLLBACK")
        throw error
      }
    }
  }

  @discardableResult
  public func read<T: Sendable>(_ body: (WorkspaceTransaction) throws -> T) throws -> T {
    try connection.withLock { conn throws -> T in
      try conn.execute("BEGIN")
      let tx = WorkspaceTransaction(db: conn, isWritable: false)
      defer {
        tx.invalidate()
        if !conn.isAutocommit { try? conn.execute("COMMIT") }
      }
      return try body(tx)
    }
  }

  @discardableResult
  public func write<T: Sendable>(_ body: (WorkspaceTransaction) throws -> T) throws -> T {
    if isReadOnly {
      throw WorkspaceError.readOnly(file: databasePath, reason: readOnlyReason ?? "read-only")
    }
    return try connection.withLock { conn throws -> T in
      try conn.execute("BEGIN IMMEDIATE")
      let tx = WorkspaceTransaction(db: conn, isWritable: true)
      do {
        let result = try body(tx)
        tx.invalidate()
        try conn.execute("COMMIT")
        return result
      } catch {
        tx.invalidate()
        if !conn.isAutocommit { try? conn.execute("ROLLBACK") }
        throw error
      }
    }
  }

  /// Runs `PRAGMA integrity_check` and returns its messages (`["ok"]` when clean).
  public func integrityCheck() throws -> [String] {
    try connection.withLock { conn throws(WorkspaceError) -> [String] in
      try conn.all("PRAGMA integrity_check") { $0.text(0) }
    }
  }

  /// Copies the WAL into the database and truncates it, so deleted text does not linger in
  /// the `-wal` file. Best effort: another open connection may keep part of the WAL.
  public func checkpoint() throws {
    if isReadOnly { return }
    try connection.withLock { conn throws(WorkspaceError) in
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
    return try connection.withLock { conn throws(WorkspaceError) -> Compaction in
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

  /// The workspace directory holding the database, or nil for the in-memory store.
  public var directory: URL? {
    databasePath == ":memory:" ? nil : URL(fileURLWithPath: databasePath).deletingLastPathComponent()
  }

  /// The names of the migration steps applied to this database, in order.
  public func appliedMigrations() throws -> [String] {
    try connection.withLock { conn throws(WorkspaceError) -> [String] in
      try conn.all("SELECT name FROM schema_migration ORDER BY name") { $0.text(0) }
    }
  }

  /// `PRAGMA user_version` of the open database.
  public func schemaVersion() throws -> Int {
    try connection.withLock { conn throws(WorkspaceError) -> Int in
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

