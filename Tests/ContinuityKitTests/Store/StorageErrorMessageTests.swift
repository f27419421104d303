import Foundation
import Testing
import TestSupport

@testable import ContinuityKit

/// Storage errors name the cause a user can act on before SQLite's own words.
@Suite("storage error messages")
struct StorageErrorMessageTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var code: Int32
    var systemErrno: Int32
    var expected: String
    var testDescription: String { name }
  }

  // SQLite result codes: 13 SQLITE_FULL, 10 SQLITE_IOERR (4874 = IOERR_SHMSIZE), 14 SQLITE_CANTOPEN,
  // 3 SQLITE_PERM, 19 SQLITE_CONSTRAINT.
  static let cases: [Case] = [
    Case(name: "SQLITE_FULL", code: 13, systemErrno: 0, expected: "the disk is full; nothing was written (SQLite: m)"),
    Case(name: "I/O error with ENOSPC", code: 4874, systemErrno: ENOSPC, expected: "the disk is full; nothing was written (SQLite: m)"),
    Case(name: "cannot open with EROFS", code: 14, systemErrno: EROFS, expected: "the filesystem is read-only; nothing was written (SQLite: m)"),
    Case(name: "cannot open with EACCES", code: 14, systemErrno: EACCES, expected: "permission denied; nothing was written (SQLite: m)"),
    Case(name: "SQLITE_PERM", code: 3, systemErrno: 0, expected: "permission denied; nothing was written (SQLite: m)"),
    Case(name: "a constraint ignores a stale errno", code: 19, systemErrno: EACCES, expected: "m"),
    // Review 29-a, 5: `ulimit -f` (778 IOERR_WRITE, 4874 IOERR_SHMSIZE) and `ulimit -n` (14).
    Case(
      name: "write beyond ulimit -f", code: 778, systemErrno: EFBIG,
      expected: "a file-size limit was reached (this process's `ulimit -f`, or the largest file the filesystem holds); nothing was written (SQLite: m)"),
    Case(
      name: "-shm beyond ulimit -f", code: 4874, systemErrno: EFBIG,
      expected: "a file-size limit was reached (this process's `ulimit -f`, or the largest file the filesystem holds); nothing was written (SQLite: m)"),
    Case(
      name: "cannot open with EMFILE", code: 14, systemErrno: EMFILE,
      expected: "too many open files (this process's limit, `ulimit -n`); nothing was written (SQLite: m)"),
    Case(
      name: "I/O error with EIO", code: 10, systemErrno: EIO,
      expected: "the storage device reported an input/output error (check the disk and the system log); nothing was written (SQLite: m)"),
  ]

  @Test("SQLite codes and errno map to a plain cause", arguments: cases)
  func mapping(_ c: Case) {
    #expect(SQLiteConnection.explain(code: c.code, systemErrno: c.systemErrno, sqliteMessage: "m", path: ":memory:") == c.expected)
  }

  @Test("a full disk under a workspace: the free space there and what to do, after SQLite's words")
  func fullDiskAdvice() {
    let dir = TemporaryDirectory("storage-full")
    defer { dir.remove() }
    let message = SQLiteConnection.explain(
      code: 13, systemErrno: 0, sqliteMessage: "database or disk is full", path: dir.appending("workspace.sqlite").path)
    #expect(message.hasPrefix("the disk is full ("), "\(message)")
    #expect(message.contains(" free of "), "\(message)")
    #expect(
      message.contains(
        " on the filesystem holding \(dir.path)); nothing was written (SQLite: database or disk is full). To store "
          + "anything, free space on that disk (remove or move files there) and run the command again; until then "
          + "commands that only read work, and `dolphin export --output FILE`, with FILE on another disk, saves a copy"),
      "\(message)")
  }

  @Test("errno causes in plain words, the system's text kept")
  func systemCauses() {
    #expect(SystemErrorCause.describe(ENOSPC).hasPrefix("the disk is full ("))
    #expect(SystemErrorCause.describe(EROFS).hasPrefix("the filesystem is read-only ("))
    // The system's text saying the same is not repeated (review, s17).
    #expect(SystemErrorCause.describe(EACCES) == "permission denied")
    #expect(SystemErrorCause.cause(of: ENOENT) == nil)
  }
}
