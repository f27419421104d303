import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The free space of the filesystem holding a path, as `statvfs(3)` gives it, and what to say
/// when it is full.
///
/// A full disk is not an unwritable workspace: SQLite opens the files for writing without
/// complaint and fails only when it must allocate — the `-shm` index that every reader of a WAL
/// database maps, the pages a write appends to the `-wal` (see
/// ``SQLiteWorkspaceStore/open(directory:readOnly:creation:)``).
package struct DiskSpace: Sendable, Equatable, Codable {
  /// Bytes this process may still allocate there: the free blocks open to unprivileged users
  /// (`f_bavail`), or for root every free block (`f_bfree`, the reserved ones included, which
  /// root may use), times the fragment size (`f_frsize`).
  package var availableBytes: Int64
  /// The size of the filesystem in bytes (`f_blocks` × `f_frsize`).
  package var totalBytes: Int64
  /// How many more files this process may create there (`f_favail`, or `f_ffree` for root): a
  /// filesystem out of inodes refuses a new file (`ENOSPC`) with bytes to spare. Nil when the
  /// filesystem does not count them (`f_files` is 0, as on btrfs).
  package var availableFiles: Int64?

  package init(availableBytes: Int64, totalBytes: Int64, availableFiles: Int64? = nil) {
    self.availableBytes = availableBytes
    self.totalBytes = totalBytes
    self.availableFiles = availableFiles
  }

  /// The space of the filesystem holding `path` (a directory or file that exists); nil when
  /// `statvfs` fails.
  /// - Parameters:
  ///   - path: what to ask about.
  ///   - user: the effective user id that decides whether reserved blocks count.
  package static func of(_ path: String, user: uid_t = geteuid()) -> DiskSpace? {
    var fs = statvfs()
    guard statvfs(path, &fs) == 0 else { return nil }
    let blockSize = Int64(fs.f_frsize)
    let free = Int64(user == 0 ? fs.f_bfree : fs.f_bavail)
    let files = fs.f_files == 0 ? nil : Int64(user == 0 ? fs.f_ffree : fs.f_favail)
    return DiskSpace(availableBytes: free * blockSize, totalBytes: Int64(fs.f_blocks) * blockSize, availableFiles: files)
  }

  /// Nothing is left to allocate: no byte (``availableBytes`` is 0), or no inode for a new file.
  package var isFull: Bool { availableBytes <= 0 || availableFiles == 0 }

  /// `0 bytes free of 2 MiB`, with `on the filesystem holding PATH` when `path` is given, and
  /// `, and no inode left for a new file` when that is why it is full.
  /// - Parameter path: where the space was asked, to name in the text.
  package func described(onFilesystemHolding path: String? = nil) -> String {
    "\(Self.bytes(availableBytes)) free of \(Self.bytes(totalBytes))"
      + (path.map { " on the filesystem holding \(Limits.shownPath($0))" } ?? "")
      + (availableFiles == 0 ? ", and no inode left for a new file" : "")
  }

  /// A byte count for a message, in binary units with one decimal past the first (locale-free):
  /// `0 bytes`, `1 byte`, `812 bytes`, `4 KiB`, `1.5 MiB`, `37.2 GiB`.
  /// - Parameter count: bytes (negative counts are shown as 0).
  package static func bytes(_ count: Int64) -> String {
    let count = max(0, count)
    if count < 1024 { return count == 1 ? "1 byte" : "\(count) bytes" }
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    var value = Double(count) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    // Tenths, rounded down, so a nearly full disk never reads as having more room than it has.
    let tenths = Int64((value * 10).rounded(.down))
    let shown = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    return "\(shown) \(units[unit])"
  }

  /// What to do when the disk holding a workspace is full, as a clause: free space, and that
  /// reading and an export to another disk still work. Made on each use: the export command
  /// names the workspace in effect (``SuggestedCommand``).
  package static var fullDiskAdvice: String {
    "free space on that disk (remove or move files there) and run the command again; until then commands that "
    + "only read work, and `\(command: "dolphin export --output FILE")`, with FILE on another disk, saves a copy of everything"
  }
}
