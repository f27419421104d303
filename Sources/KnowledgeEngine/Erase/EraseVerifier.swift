import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks on disk that erased records are gone: every byte of every file under the workspace
/// directory is searched for the text form of each erased record's id (every stored row holds
/// its id beside its text, so a surviving id means a surviving row, free page or WAL frame).
enum EraseVerifier {
  /// Scans the files and fills in `verification`'s files, bytes and leaked ids.
  ///
  /// An erased id may legitimately remain where a live record mentions it (an activity
  /// receipt's changed ids after erasing knowledge); such ids are not counted as leaked.
  /// - Complexity: O(total file size), plus one pass over the live records when an erased id
  ///   is found at all.
  ///
  /// Files in `keptFiles` (legacy backups a partial erase keeps on purpose) are scanned too, but
  /// a hit there is reported in ``EraseVerification/retainedCopies``, not as a leak.
  static func verify(
    _ erased: Set<UUID>, in directory: URL, keptFiles: Set<String>, store: any WorkspaceStore,
    into verification: inout EraseVerification
  ) throws {
    var found = Set<UUID>()
    var hitsByFile: [(String, Set<UUID>)] = []
    scanFiles(under: directory.path, skipped: { path, why in
      verification.notes.append("did not look inside \(path): \(why)")
      verification.unscanned.append(path)
    }) { path, fd in
      var hits = Set<UUID>()
      guard let bytes = readUUIDs(fd, { id in if erased.contains(id) { hits.insert(id) } }) else {
        verification.notes.append("could not read \(path)")
        verification.unscanned.append(path)
        return
      }
      verification.filesScanned.append(path)
      verification.bytesScanned += bytes
      guard !erased.isEmpty else { return }
      if keptFiles.contains(path) {
        if !hits.isEmpty { verification.retainedCopies.append(path) }
      } else if !hits.isEmpty {
        found.formUnion(hits)
        hitsByFile.append((path, hits))
      }
    }
    if !found.isEmpty {
      let live = try liveIDs(store)
      verification.mentionedByKeptRecords = found.intersection(live).count
      found.subtract(live)
    }
    verification.leakedIDs = Array(found.sorted { $0.uuidString < $1.uuidString }.prefix(20))
    verification.filesWithLeaks = hitsByFile.filter { !$0.1.isDisjoint(with: found) }.map(\.0)
  }

  /// Reads the file open as `fd` to its end in chunks of 1 MiB, calling `body` with every UUID
  /// written in it (``forEachUUID(in:_:)``; one spanning two chunks is found once), and returns
  /// the bytes read; nil when a read fails. Plain reads, not a mapping: a file cut short while it
  /// is read ends the read, not the process (review, s15: a mapped file truncated meanwhile raised
  /// SIGBUS after the erase had committed).
  static func readUUIDs(_ fd: Int32?, _ body: (UUID) -> Void) -> Int? {
    guard let fd else { return nil }
    var total = 0
    var carry: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if n == 0 { return total }
      total += n
      // 35 bytes carried over: too few to hold a whole id, enough to finish one cut in two.
      let window = carry + chunk[0..<n]
      window.withUnsafeBytes { forEachUUID(in: $0, body) }
      carry = Array(window.suffix(35))
    }
  }

  /// Calls `visit` with the path and an open descriptor (nil when it cannot be opened as the
  /// file it was seen to be) of every regular file below the directory `directory`, by path,
  /// without following a link:
  /// each directory is opened relative to its parent with `O_NOFOLLOW`, each file relative to
  /// its directory with `O_NOFOLLOW` and read only when it is the regular file `fstatat` saw
  /// (review, s15: another user's link swapped in for a directory of a shared workspace made
  /// root's erase read files outside it, and could have made it read the whole filesystem). At
  /// most ``maximumDepth`` directories deep: `skipped` is called with a directory below that,
  /// or one that cannot be opened, and why, so the result never claims what was not read. The
  /// descriptor is closed when `visit` returns.
  static func scanFiles(
    under directory: String, skipped: (String, String) -> Void = { _, _ in },
    _ visit: (String, Int32?) -> Void
  ) {
    let top = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard top >= 0 else {
      skipped(directory, "cannot be opened (\(SystemErrorCause.describe(errno)))")
      return
    }
    defer { close(top) }
    scan(top, directory, depth: 0, skipped, visit)
  }

  /// How many directories deep the scan goes below the workspace directory (dolphin makes one,
  /// `legacy-backups`).
  static let maximumDepth = 16

  private static func scan(
    _ dir: Int32, _ path: String, depth: Int, _ skipped: (String, String) -> Void,
    _ visit: (String, Int32?) -> Void
  ) {
    guard depth < maximumDepth else {
      skipped(path, "more than \(maximumDepth) directories below the workspace directory")
      return
    }
    var names: [String] = []
    let listing = dup(dir)
    guard listing >= 0, let stream = fdopendir(listing) else {
      if listing >= 0 { close(listing) }
      return
    }
    while let entry = readdir(stream) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
      }
      if name != "." && name != ".." { names.append(name) }
    }
    closedir(stream)
    for name in names.sorted() {
      let child = path + "/" + name
      var seen = stat()
      guard fstatat(dir, name, &seen, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      switch seen.st_mode & S_IFMT {
      case S_IFDIR:
        let sub = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard sub >= 0 else {
          skipped(child, "cannot be opened (\(SystemErrorCause.describe(errno)))")
          continue
        }
        scan(sub, child, depth: depth + 1, skipped, visit)
        close(sub)
      case S_IFREG:
        let fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
          visit(child, nil)
          continue
        }
        defer { close(fd) }
        var opened = stat()
        guard fstat(fd, &opened) == 0, opened.st_ino == seen.st_ino, opened.st_dev == seen.st_dev,
          (opened.st_mode & S_IFMT) == S_IFREG
        else {
          visit(child, nil)
          continue
        }
        // Reads of a regular file never wait; clearing the flag keeps the descriptor ordinary.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        visit(child, fd)
      default:
        continue  // A link, a FIFO, a socket, a device: not a file dolphin keeps.
      }
    }
  }

  /// Ids mentioned anywhere in the live workspace (records, quarantine, legacy-import records).
  static func liveIDs(_ store: any WorkspaceStore) throws -> Set<UUID> {
    let text = try store.read { tx in
      try StableJSON.string(tx.snapshot()) + (try StableJSON.string(tx.listQuarantine()))
        + (try StableJSON.string(tx.listLegacyImports()))
    }
    var out = Set<UUID>()
    var copy = text
    copy.withUTF8 { buf in forEachUUID(in: UnsafeRawBufferPointer(buf)) { out.insert($0) } }
    return out
  }

  /// Calls `body` with every UUID written as 36 characters (8-4-4-4-12 hex digits, either case).
  static func forEachUUID(in bytes: UnsafeRawBufferPointer, _ body: (UUID) -> Void) {
    let n = bytes.count
    guard n >= 36 else { return }
    func isHex(_ c: UInt8) -> Bool {
      (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }
    let dash = UInt8(ascii: "-")
    var i = 0
    while i <= n - 36 {
      if bytes[i + 8] == dash, bytes[i + 13] == dash, bytes[i + 18] == dash, bytes[i + 23] == dash {
        var ok = true
        for k in 0..<36 where k != 8 && k != 13 && k != 18 && k != 23 && !isHex(bytes[i + k]) {
          ok = false
          break
        }
        if ok, let id = UUID(uuidString: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<(i + 36)]), as: UTF8.self)) {
          body(id)
          i += 36
          continue
        }
      }
      i += 1
    }
  }
}
