import Foundation
import Testing
import TestSupport

@testable import ContinuityKit

@Suite("Disk space")
struct DiskSpaceTests {
  struct ByteCase: CustomTestStringConvertible, Sendable {
    var bytes: Int64
    var shown: String
    var testDescription: String { "\(bytes) → \(shown)" }
  }

  static let byteCases: [ByteCase] = [
    ByteCase(bytes: 0, shown: "0 bytes"), ByteCase(bytes: 1, shown: "1 byte"), ByteCase(bytes: 812, shown: "812 bytes"),
    ByteCase(bytes: 1023, shown: "1023 bytes"), ByteCase(bytes: 4096, shown: "4 KiB"),
    // Rounded down: a nearly full disk never reads as roomier than it is.
    ByteCase(bytes: 2_097_151, shown: "1.9 MiB"), ByteCase(bytes: 2 << 20, shown: "2 MiB"),
    ByteCase(bytes: 1_572_864, shown: "1.5 MiB"), ByteCase(bytes: 40_000_000_000, shown: "37.2 GiB"),
    ByteCase(bytes: -5, shown: "0 bytes"),
  ]

  @Test("byte counts in binary units, locale-free", arguments: byteCases)
  func bytes(_ c: ByteCase) {
    #expect(DiskSpace.bytes(c.bytes) == c.shown)
  }

  @Test("full: no byte left, or no inode for a new file; said so")
  func fullness() {
    let empty = DiskSpace(availableBytes: 0, totalBytes: 2 << 20, availableFiles: 100)
    #expect(empty.isFull)
    #expect(empty.described(onFilesystemHolding: "/mnt/ws") == "0 bytes free of 2 MiB on the filesystem holding /mnt/ws")
    let noInode = DiskSpace(availableBytes: 1_900_000, totalBytes: 2 << 20, availableFiles: 0)
    #expect(noInode.isFull)
    #expect(noInode.described() == "1.8 MiB free of 2 MiB, and no inode left for a new file")
    // A filesystem that does not count inodes (btrfs reports none) is full only for bytes.
    #expect(!DiskSpace(availableBytes: 4096, totalBytes: 2 << 20, availableFiles: nil).isFull)
  }

  @Test("statvfs of a real directory; nil for a path that does not exist")
  func ofPath() throws {
    let dir = TemporaryDirectory("diskspace")
    defer { dir.remove() }
    let space = try #require(DiskSpace.of(dir.path))
    #expect(space.totalBytes > 0 && space.availableBytes >= 0 && space.availableBytes <= space.totalBytes)
    #expect(DiskSpace.of(dir.appending("missing/deeper").path) == nil)
  }

  struct ErrorCase: CustomTestStringConvertible, Sendable {
    var name: String
    var error: WorkspaceError
    var isDiskFull: Bool
    var testDescription: String { name }
  }

  // 13 SQLITE_FULL, 4874 SQLITE_IOERR_SHMSIZE, 14 SQLITE_CANTOPEN, 19 SQLITE_CONSTRAINT.
  static let errorCases: [ErrorCase] = [
    ErrorCase(name: "SQLITE_FULL", error: .storage(file: "/x", code: 13, message: "database or disk is full"), isDiskFull: true),
    ErrorCase(
      name: "the -shm cannot grow (ENOSPC)",
      error: .storage(file: "/x", code: 4874, message: "the disk is full; nothing was written (SQLite: disk I/O error)"),
      isDiskFull: true),
    ErrorCase(
      name: "an I/O error for another cause",
      error: .storage(file: "/x", code: 4874, message: "permission denied; nothing was written (SQLite: disk I/O error)"),
      isDiskFull: false),
    ErrorCase(
      name: "a constraint", error: .storage(file: "/x", code: 19, message: "UNIQUE constraint failed: knowledge.id"),
      isDiskFull: false),
    ErrorCase(name: "a damaged file", error: .damaged(file: "/x", message: "the disk is full"), isDiskFull: false),
    ErrorCase(name: "busy", error: .busy(file: "/x", waitedMilliseconds: 10), isDiskFull: false),
  ]

  @Test("which open errors mean a full disk, and the reason given for reading instead", arguments: errorCases)
  func fullDiskErrors(_ c: ErrorCase) throws {
    let dir = TemporaryDirectory("fulldisk-reason")
    defer { dir.remove() }
    let database = dir.appending("workspace.sqlite").path
    #expect(c.error.isDiskFull == c.isDiskFull)
    let reason = SQLiteWorkspaceStore.fullDiskReason(after: c.error, databasePath: database)
    // This directory has room, so only what the error itself says counts.
    if c.isDiskFull {
      let shown = try #require(reason)
      #expect(shown.hasPrefix("the disk is full ("), "\(shown)")
      #expect(shown.hasSuffix(" on the filesystem holding \(dir.path))"), "\(shown)")
    } else {
      #expect(reason == nil, "\(reason ?? "")")
    }
  }
}
