import Foundation
import Synchronization

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

// SQLITE_TRANSIENT: tells SQLite to copy bound text/blob before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value bound to or read from an SQL statement.
package enum SQLValue: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

/// A thin owner of one `sqlite3*` connection: prepared statements (cached), bound parameters
/// only, typed column reads, and errors carrying SQLite's code and message.
///
/// Not thread-safe by itself: its owner serializes access (``SQLiteWorkspaceStore`` holds it in
/// a `Mutex`).
package final class SQLiteConnection {
  package let path: String
  package let displayName: String
  /// A number no other connection in this process has had, so that values derived from one
  /// connection (a ``ChangeStamp``) never match another's.
  package let serial: UInt64 = SQLiteConnection.serials.add(1, ordering: .relaxed).newValue
  private static let serials = Atomic<UInt64>(0)
  private var handle: OpaquePointer?
  private var cache: [String: OpaquePointer] = [:]
  /// The busy timeout last set, in milliseconds (named by ``WorkspaceError/busy(file:waitedMilliseconds:)``).
  package private(set) var busyTimeoutMilliseconds: Int32 = 0

  /// Opens (creating when `create`) the database at `path` (`:memory:` for a private
  /// in-memory database).
  /// - Parameters:
  ///   - immutable: open read-only with SQLite's `immutable=1` URI parameter: no
  ///     locks, no `-shm`, and the `-wal` and any rollback journal are ignored. Only for a
  ///     database that nothing can change and whose `-wal` holds nothing (the caller checks).
  ///   - readOnlySharedMemory: open read-only with the unix VFS's `readonly_shm=1` URI parameter:
  ///     the existing `-shm` file is opened read-only, never created or grown, and when no other
  ///     connection has it open SQLite reads the `-wal` into heap memory instead (its way of reading
  ///     a WAL database on read-only media, `walBeginShmUnreliable` in `wal.c`), so committed
  ///     changes still in the `-wal` are seen. For a disk too full for the `-shm` to grow; the
  ///     `-shm` file must exist.
  /// - Throws: ``WorkspaceError/storage(file:code:message:)`` when SQLite cannot open it.
  package init(
    path: String, readOnly: Bool, create: Bool, immutable: Bool = false, readOnlySharedMemory: Bool = false
  ) throws(WorkspaceError) {
    self.path = path
    self.displayName = path
    // Never through a symbolic link at the name (review, s15: in a workspace directory shared
    // with users who may write the database, one of them renamed it aside and put a link to
    // root's private database in its place, and SQLite, which resolves a link at the database
    // name before it opens, wrote root's captures there): the caller hands SQLite the checked
    // file itself (``WorkspaceTrust/Verified/databaseFile``).
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE | SQLITE_OPEN_NOFOLLOW
    if readOnly || immutable || readOnlySharedMemory {
      flags |= SQLITE_OPEN_READONLY
    } else {
      flags |= SQLITE_OPEN_READWRITE
      if create { flags |= SQLITE_OPEN_CREATE }
    }
    var name = path
    if immutable {
      flags |= SQLITE_OPEN_URI
      name = "file:" + Self.uriPath(path) + "?immutable=1"
    } else if readOnlySharedMemory {
      flags |= SQLITE_OPEN_URI
      name = "file:" + Self.uriPath(path) + "?readonly_shm=1"
    }
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(name, &db, flags, nil)
    if rc != SQLITE_OK {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      let systemErrno = db.map { sqlite3_system_errno($0) } ?? 0
      sqlite3_close_v2(db)
      throw .storage(
        file: path, code: rc,
        message: Self.explain(code: rc, systemErrno: systemErrno, sqliteMessage: message, path: path))
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
  }

  deinit { close() }

  /// `path` for a `file:` URI: every byte but unreserved characters and `/` percent-encoded,
  /// so `?`, `#` and `%` in a directory name stay part of the path.
  static func uriPath(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      let c = Character(Unicode.Scalar(byte))
      if byte < 0x80, c.isLetter || c.isNumber || "-._~/".contains(c) {
        out.append(c)
      } else {
        out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }

  /// Whether SQLite opened the main database read-only (it silently does so for a file it
  /// may not write).
  package var isReadOnly: Bool { handle.map { sqlite3_db_readonly($0, "main") == 1 } ?? true }

  /// Whether ``close()`` was called: every statement then fails with a storage error.
  package var isClosed: Bool { handle == nil }

  /// Finalizes cached statements and closes the connection. Statements run afterwards fail with
  /// ``WorkspaceError/storage(file:code:message:)`` (`SQLITE_MISUSE`), never reach SQLite.
  package func close() {
    for (_, stmt) in cache { sqlite3_finalize(stmt) }
    cache.removeAll()
    if let h = handle { sqlite3_close_v2(h) }
    handle = nil
  }

  /// The error of a statement on a closed connection (SQLite's own API may not be called so).
  private func closedError() -> WorkspaceError {
    .storage(file: displayName, code: SQLITE_MISUSE, message: "the database connection is closed")
  }

  private func error(_ rc: Int32, _ sql: String? = nil) -> WorkspaceError {
    let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "connection closed"
    let code = handle.map { sqlite3_extended_errcode($0) } ?? rc
    if rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB || (code & 0xff) == SQLITE_CORRUPT
      || (code & 0xff) == SQLITE_NOTADB
    {
      return .damaged(file: displayName, message: "SQLite error \(code): \(message)")
    }
    if (code & 0xff) == SQLITE_BUSY {
      // The busy handler waited for the whole timeout: another connection's write lasted longer.
      return .busy(file: displayName, waitedMilliseconds: Int(busyTimeoutMilliseconds))
    }
    let systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
    return .storage(
      file: displayName, code: code,
      message: Self.explain(code: code, systemErrno: systemErrno, sqliteMessage: message, path: path))
  }

  /// Puts the cause first in plain words when SQLite's code or the operating system's `errno`
  /// names one a user can act on: a full disk, a read-only filesystem, missing permission.
  ///
  /// SQLite reports `ENOSPC` as `SQLITE_FULL` only for some writes (others arrive as
  /// `SQLITE_IOERR_WRITE` or `SQLITE_IOERR_FSYNC`), and `EROFS` or `EACCES` as
  /// `SQLITE_READONLY`, `SQLITE_CANTOPEN` or an I/O error, so both are consulted.
  /// - Parameters:
  ///   - code: SQLite's (extended) result code.
  ///   - systemErrno: `sqlite3_system_errno`, the last `errno` SQLite saw (0 when none).
  ///   - sqliteMessage: `sqlite3_errmsg`, kept at the end for the record.
  ///   - path: the database file, whose filesystem and access are consulted for
  ///     `SQLITE_READONLY` (SQLite opens an unwritable file read-only without saying why).
  /// - Returns: the message for ``WorkspaceError/storage(file:code:message:)``.
  static func explain(code: Int32, systemErrno: Int32, sqliteMessage: String, path: String) -> String {
    let primary = code & 0xff
    // errno is only meaningful for failures that touched the filesystem; for others it may be
    // left over from an earlier, harmless call.
    let fileCodes = [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM]
    let systemErrno = fileCodes.contains(primary) ? systemErrno : 0
    let cause: String?
    if primary == SQLITE_FULL {
      cause = "the disk is full"
    } else if let systemCause = SystemErrorCause.cause(of: systemErrno) {
      cause = systemCause
    } else if primary == SQLITE_PERM {
      cause = "permission denied"
    } else if primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_IOERR {
      // SQLite does not always keep the errno (e.g. for its -shm file): ask the filesystem.
      cause = fileAccessCause(path: path)
        ?? (primary == SQLITE_READONLY
          ? "the workspace is read-only for this process"
          : primary == SQLITE_CANTOPEN ? "cannot open the database file or its -wal/-shm files" : nil)
    } else if primary == SQLITE_ERROR, sqliteMessage.hasPrefix("no such table") {
      // Review 25-a, 1: a table dropped outside dolphin; SQLite's integrity check does not see it.
      cause =
        "the workspace lacks a table that dolphin's schema creates (removed outside dolphin); "
        + "`\(command: "dolphin doctor")` names what is missing and how to recover"
    } else if primary == SQLITE_ERROR,
      sqliteMessage.hasPrefix("no such column") || sqliteMessage.contains(" has no column named ")
    {
      // A table replaced or altered outside dolphin: its name is there, a column is not.
      cause =
        "a table of the workspace lacks a column that dolphin's schema creates (changed outside dolphin); "
        + "`\(command: "dolphin doctor")` names what changed and how to recover"
    } else if primary == SQLITE_ERROR,
      sqliteMessage.hasPrefix("there is already ") || sqliteMessage.hasSuffix(" already exists")
        || sqliteMessage.hasSuffix(" because it is a view")
    {
      // Review 26-b, 9: an object another program made holds the name of one dolphin's schema
      // creates (a view `memory` where the table was), so dolphin cannot make it or write there.
      cause =
        "an object that dolphin did not create holds the name of one that dolphin's schema creates; "
        + "`\(command: "dolphin doctor")` names it and what frees the name"
    } else if code == 1811 {  // SQLITE_CONSTRAINT_TRIGGER: RAISE(ABORT, …) in a trigger
      // dolphin creates no trigger: another program (or sqlite3) added the one that refused.
      cause =
        "a trigger that dolphin did not create refused the write; `\(command: "dolphin doctor")` names the triggers "
        + "added to the workspace"
    } else {
      cause = nil
    }
    guard let cause else { return sqliteMessage }
    if cause == SystemErrorCause.diskFull, path != ":memory:" {
      // Where, how much is left, and what to do: a full disk is the user's to fix.
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      let space = DiskSpace.of(directory).map { " (\($0.described(onFilesystemHolding: directory)))" } ?? ""
      return "\(cause)\(space); nothing was written (SQLite: \(sqliteMessage)). To store "
        + "anything, \(DiskSpace.fullDiskAdvice)"
    }
    return "\(cause); nothing was written (SQLite: \(sqliteMessage))"
  }

  /// Why the workspace files cannot be written, from the filesystem itself: it is mounted
  /// read-only, or this user may not write the database file or its directory (where the
  /// `-wal` and `-shm` files live). Nil when neither holds.
  private static func fileAccessCause(path: String) -> String? {
    guard path != ":memory:" else { return nil }
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var fs = statvfs()
    if statvfs(directory, &fs) == 0, fs.f_flag & UInt(ST_RDONLY) != 0 {
      return "the filesystem holding the workspace is read-only"
    }
    if access(directory, W_OK) != 0 || (access(path, W_OK) != 0 && errno != ENOENT) {
      return "permission denied: this user may not write the workspace database or its directory"
    }
    return nil
  }

  /// Runs one or more SQL statements that take no parameters (schema, pragmas).
  package func execute(_ sql: String) throws(WorkspaceError) {
    guard let handle else { throw closedError() }
    var errmsg: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
    if rc != SQLITE_OK {
      let e = error(rc)
      sqlite3_free(errmsg)
      throw e
    }
  }

  private func prepare(_ sql: String) throws(WorkspaceError) -> OpaquePointer {
    if let stmt = cache[sql] {
      sqlite3_reset(stmt)
      sqlite3_clear_bindings(stmt)
      return stmt
    }
    guard let handle else { throw closedError() }
    var stmt: OpaquePointer?
    let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
    guard rc == SQLITE_OK, let s = stmt else { throw error(rc, sql) }
    cache[sql] = s
    return s
  }

  private func bind(_ stmt: OpaquePointer, _ values: [SQLValue]) throws(WorkspaceError) {
    for (i, value) in values.enumerated() {
      let idx = Int32(i + 1)
      let rc: Int32
      switch value {
      case .null: rc = sqlite3_bind_null(stmt, idx)
      case .integer(let v): rc = sqlite3_bind_int64(stmt, idx, v)
      case .real(let v): rc = sqlite3_bind_double(stmt, idx, v)
      case .text(let v):
        // Every byte, with its length: a C string would end at a NUL another program stored,
        // and the rewritten row would lose the rest of the text.
        let bytes = v.utf8CString
        rc = bytes.withUnsafeBufferPointer { buf in
          sqlite3_bind_text(stmt, idx, buf.baseAddress, Int32(buf.count - 1), sqliteTransient)
        }
      case .blob(let v):
        rc = v.withUnsafeBytes { buf in
          sqlite3_bind_blob(stmt, idx, buf.baseAddress, Int32(buf.count), sqliteTransient)
        }
      }
      if rc != SQLITE_OK { throw error(rc) }
    }
  }

  /// Runs a statement that returns no rows.
  /// - Returns: the number of rows changed.
  @discardableResult
  package func run(_ sql: String, _ values: [SQLValue] = []) throws(WorkspaceError) -> Int {
    let stmt = try prepare(sql)
    defer { sqlite3_reset(stmt) }
    try bind(stmt, values)
    let rc = sqlite3_step(stmt)
    guard rc == SQLITE_DONE || rc == SQLITE_ROW else { throw error(rc, sql) }
    return Int(sqlite3_changes(handle))
  }

  /// Runs a query and hands each row to `body`.
  package func query(
    _ sql: String, _ values: [SQLValue] = [], _ body: (SQLRow) throws(WorkspaceError) -> Void
  ) throws(WorkspaceError) {
    let stmt = try prepare(sql)
    defer { sqlite3_reset(stmt) }
    try bind(stmt, values)
    while true {
      let rc = sqlite3_step(stmt)
      if rc == SQLITE_DONE { return }
      guard rc == SQLITE_ROW else { throw error(rc, sql) }
      try body(SQLRow(stmt: stmt))
    }
  }

  /// Runs a query and maps every row.
  package func all<T>(
    _ sql: String, _ values: [SQLValue] = [], _ map: (SQLRow) throws(WorkspaceError) -> T
  ) throws(WorkspaceError) -> [T] {
    var out: [T] = []
    try query(sql, values) { (row) throws(WorkspaceError) in out.append(try map(row)) }
    return out
  }

  /// The first row mapped, or nil.
  package func first<T>(
    _ sql: String, _ values: [SQLValue] = [], _ map: (SQLRow) throws(WorkspaceError) -> T
  ) throws(WorkspaceError) -> T? {
    let stmt = try prepare(sql)
    defer { sqlite3_reset(stmt) }
    try bind(stmt, values)
    let rc = sqlite3_step(stmt)
    if rc == SQLITE_DONE { return nil }
    guard rc == SQLITE_ROW else { throw error(rc, sql) }
    return try map(SQLRow(stmt: stmt))
  }

  /// A single integer (`SELECT count(*) …`); 0 when there is no row.
  package func integer(_ sql: String, _ values: [SQLValue] = []) throws(WorkspaceError) -> Int64 {
    try first(sql, values) { $0.int64(0) } ?? 0
  }

  /// Rows inserted, updated or deleted through this connection since it was opened
  /// (`sqlite3_total_changes64`), rolled-back changes included.
  package var totalChanges: Int64 { handle.map { sqlite3_total_changes64($0) } ?? 0 }

  /// The rowid of the last inserted row.
  package var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

  /// Sets how long (milliseconds) a statement waits for another connection's lock.
  package func setBusyTimeout(milliseconds: Int32) {
    busyTimeoutMilliseconds = milliseconds
    if let handle { sqlite3_busy_timeout(handle, milliseconds) }
  }

  /// Whether the connection is in autocommit mode (no open transaction).
  package var isAutocommit: Bool { handle.map { sqlite3_get_autocommit($0) != 0 } ?? true }

  /// SQLite's library version, e.g. `3.40.1`.
  package static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

/// One result row, valid only inside the closure it is handed to.
package struct SQLRow {
  let stmt: OpaquePointer

  package func isNull(_ i: Int32) -> Bool { sqlite3_column_type(stmt, i) == SQLITE_NULL }
  package func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(stmt, i) }
  package func int(_ i: Int32) -> Int { Int(sqlite3_column_int64(stmt, i)) }
  package func double(_ i: Int32) -> Double { sqlite3_column_double(stmt, i) }
  package func text(_ i: Int32) -> String {
    guard let p = sqlite3_column_text(stmt, i) else { return "" }
    let n = Int(sqlite3_column_bytes(stmt, i))
    return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
  }
  package func optionalText(_ i: Int32) -> String? { isNull(i) ? nil : text(i) }
  /// How many columns the row has.
  package var columnCount: Int32 { sqlite3_column_count(stmt) }
  /// The name of column `i` (`AS` name, else the column's own), or "" when SQLite has none.
  package func columnName(_ i: Int32) -> String {
    sqlite3_column_name(stmt, i).map { String(cString: $0) } ?? ""
  }
  /// Calls `body` with the bytes of blob column `i`, without copying them (the buffer is valid
  /// only inside `body`; empty for NULL or an empty blob).
  package func withBlob<T>(_ i: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    let n = Int(sqlite3_column_bytes(stmt, i))
    guard n > 0, let p = sqlite3_column_blob(stmt, i) else {
      return try body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    return try body(UnsafeRawBufferPointer(start: p, count: n))
  }
  package func blob(_ i: Int32) -> [UInt8] {
    let n = Int(sqlite3_column_bytes(stmt, i))
    guard n > 0, let p = sqlite3_column_blob(stmt, i) else { return [] }
    return Array(UnsafeRawBufferPointer(start: p, count: n))
  }
}
