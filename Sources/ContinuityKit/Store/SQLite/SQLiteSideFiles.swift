import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `-wal` and `-shm` files beside a WAL-mode SQLite database as they were at one moment, so
/// that those a read-only inspection created can be removed once it is over.
///
/// A read-only SQLite connection to a WAL database creates both files when they are missing and
/// the directory can be written (the `-shm` holds the WAL index every connection maps; the
/// `-wal` is opened even to find it empty), and it never removes them: only the last connection
/// to close, holding SQLite's EXCLUSIVE lock on the database file, checkpoints the WAL and deletes
/// both, and a connection that opened the file read-only cannot take that lock
/// (https://www.sqlite.org/wal.html, "Read-Only Databases"; `sqlite3WalClose` in SQLite's
/// `wal.c`). A read-only inspection that promises to change nothing (`dolphin doctor`) removes
/// them itself afterwards, as that last connection would, with ``removeCreated()``:
///
/// 1. Only the side files that did not exist when this value was made and are regular files now.
/// 2. Only while holding SQLite's EXCLUSIVE lock on the database file: a write lock on the bytes
///    SQLite's unix VFS locks (its pending byte at offset 0x40000000, the reserved byte and the
///    510-byte shared range after it; https://www.sqlite.org/lockingv3.html, `os_unix.c`). Every
///    connection to a WAL database holds a shared lock on that range from its first read until
///    it closes, and a new one takes it before it opens the `-wal` or `-shm`; so while the write
///    lock is held no other connection uses them or can start to. On Linux the lock is an
///    open-file-description lock, which also conflicts with this process's own SQLite
///    connections; elsewhere it is a classic POSIX lock, and this process must have closed its
///    connections to the database first (as ``removeCreated()`` requires anyway).
/// 3. A new `-wal` only when it is empty. Frames in it are commits of another process that opened
///    the database meanwhile (a reader never writes the `-wal`): it stays, with the `-shm`, for
///    SQLite to checkpoint. A `-wal` or `-shm` that existed before is never touched.
package struct SQLiteSideFiles: Sendable, Equatable {
  /// The side-file suffixes of a WAL database.
  package static let suffixes = ["-wal", "-shm"]

  /// The database file whose side files these are, as SQLite names them: with symbolic links
  /// resolved, since SQLite keeps the side files beside the file a link points to.
  package let databasePath: String
  /// The suffixes (``suffixes``) of the side files that existed when this value was made.
  package let existing: Set<String>

  /// Records which side files of `databasePath` exist now.
  /// - Parameter databasePath: the database file, as the caller names it.
  package init(databasePath: String) {
    let resolved = realpath(databasePath, nil)
    defer { free(resolved) }
    let path = resolved.map { String(cString: $0) } ?? databasePath
    self.databasePath = path
    self.existing = Set(Self.suffixes.filter { Self.exists(path + $0) })
  }

  /// What ``removeCreated()`` did.
  package struct Removal: Sendable, Equatable {
    /// The side files it removed (full paths), in ``SQLiteSideFiles/suffixes`` order.
    package var removed: [String]
    /// The side files created since the ``SQLiteSideFiles`` value was made that it kept.
    package var kept: [String]
    /// Why it kept them; nil when it kept none.
    package var reason: KeptReason?

    /// Nothing was created, nothing removed.
    package static let none = Removal(removed: [], kept: [], reason: nil)
  }

  /// Why ``removeCreated()`` kept side files that did not exist before.
  package enum KeptReason: Sendable, Equatable {
    /// Another connection holds the database open (or is opening it): the files are its now, and
    /// SQLite removes them when the last connection closes.
    case inUse
    /// The new `-wal` holds `bytes` bytes of another process's commits, not yet copied into the
    /// database: SQLite's next checkpoint needs them.
    case holdsCommits(bytes: Int64)
    /// This process may not open the database file for writing, which taking SQLite's lock on it
    /// needs (without the lock it cannot make sure that no other connection uses them), or may not
    /// remove a file; `cause` says why.
    case denied(cause: String)
  }

  /// The side files that did not exist when this value was made and exist now, as full paths.
  package var created: [String] {
    Self.suffixes.filter { !existing.contains($0) && Self.isRegularFile(databasePath + $0) }
      .map { databasePath + $0 }
  }

  /// Removes the side files created since this value was made, as SQLite's last connection would
  /// (see ``SQLiteSideFiles``): under SQLite's EXCLUSIVE lock on the database file, and a `-wal`
  /// only when it is empty. Files that existed before are never touched.
  ///
  /// Call it once this process has closed every SQLite connection to the database (a store's
  /// ``SQLiteWorkspaceStore/closeConnection()``).
  /// - Returns: what was removed and what was kept, and why.
  package func removeCreated() -> Removal {
    let created = self.created
    guard !created.isEmpty else { return .none }
    func newWALBytes() -> Int64 {
      var st = stat()
      let wal = databasePath + "-wal"
      return created.contains(wal) && lstat(wal, &st) == 0 ? Int64(st.st_size) : 0
    }
    // Checked first without the lock, so that what the note says holds whatever the lock gives,
    // and again under it: another process may have written meanwhile.
    if newWALBytes() > 0 {
      return Removal(removed: [], kept: created, reason: .holdsCommits(bytes: newWALBytes()))
    }
    let fd = open(databasePath, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else {
      return Removal(removed: [], kept: created, reason: .denied(cause: SystemErrorCause.describe(errno)))
    }
    defer { close(fd) }  // Releases the lock.
    guard Self.lockExclusively(fd) else { return Removal(removed: [], kept: created, reason: .inUse) }
    if newWALBytes() > 0 {
      return Removal(removed: [], kept: created, reason: .holdsCommits(bytes: newWALBytes()))
    }
    var removal = Removal.none
    for path in created {
      if unlink(path) == 0 || errno == ENOENT {
        removal.removed.append(path)
      } else {
        removal.kept.append(path)
        removal.reason = .denied(cause: SystemErrorCause.describe(errno))
      }
    }
    return removal
  }

  /// Removes an empty `-wal` and its `-shm` that another user's read-only connection left
  /// beside a database this user may write, as SQLite's last connection would have, so that they
  /// do not keep this user's writes out.
  ///
  /// Anyone who may read the database and write its directory (a workspace made mode 777, a
  /// shared directory) creates both files by reading it (see ``SQLiteSideFiles``); they belong to
  /// that user, keep its umask's mode, and SQLite cannot write through them for the database's
  /// owner, whose every write then failed with "permission denied … side files". This removes
  /// them when all of these hold, and otherwise leaves everything as it is:
  ///
  /// - this user may open the database for writing and write its directory (so could SQLite);
  /// - a side file exists that another user owns and either this user may not write it or its
  ///   owner may not write the database (who could write into it while SQLite reads it), or whose
  ///   mode lets such users write it (``writableByStrangers(_:database:)``), and both side files
  ///   are regular files;
  /// - the `-wal` is absent or empty — a reader never writes it, so it holds no commit, and its
  ///   `-shm` indexes nothing (checked again under the lock);
  /// - SQLite's EXCLUSIVE lock on the database file is free (``lockExclusively(_:)``): no other
  ///   connection has the database open, so none uses the files or can start to until they are
  ///   gone.
  ///
  /// Call it before this process opens its own SQLite connection to the database.
  /// - Parameter databasePath: the database file.
  /// - Returns: the side files removed (full paths; empty when none was).
  package static func removeEmptyLeftByOtherUsers(databasePath: String) -> [String] {
    let paths = suffixes.map { databasePath + $0 }
    func status(_ path: String) -> stat? {
      var st = stat()
      return lstat(path, &st) == 0 ? st : nil
    }
    let present = paths.compactMap { path in status(path).map { (path, $0) } }
    var database = stat()
    guard stat(databasePath, &database) == 0, !present.isEmpty,
      present.allSatisfy({ ($0.1.st_mode & S_IFMT) == S_IFREG }),
      present.contains(where: {
        $0.1.st_uid != geteuid() && (access($0.0, W_OK) != 0 || !userMayWrite($0.1.st_uid, database))
          || writableByStrangers($0.1, database: database)
      })
    else { return [] }
    func walIsEmpty() -> Bool { (status(databasePath + "-wal")?.st_size ?? 0) == 0 }
    let directory = URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
    guard walIsEmpty(), access(directory, W_OK) == 0 else { return [] }
    let fd = open(databasePath, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return [] }
    defer { close(fd) }  // Releases the lock.
    guard lockExclusively(fd), walIsEmpty() else { return [] }
    // What SQLite's last connection deletes on closing; the next connection makes both anew.
    return paths.filter { unlink($0) == 0 }
  }

  /// Why the files SQLite reads beside `databasePath` (`-wal`, `-shm`, `-journal`) must not be
  /// used, naming the file and what to do; nil when they may.
  ///
  /// Writing a WAL frame takes a write lock on the database file, which needs it open for
  /// writing; so a user who may not write the database cannot have written its `-wal` by using
  /// it. Anyone who may write the directory can still *put* a `-wal` or a hot `-journal` there,
  /// made from another database, and SQLite would take its pages as the workspace's (review, s13).
  /// Such a file is recognised by ownership: owned by a user other than this one and root, who
  /// neither owns the database nor may write it through its group (as a member) or other
  /// permission bits (``userMayWrite(_:_:)``). Refused:
  ///
  /// - a side file that is a symbolic link (SQLite would read and write through it), or anything
  ///   but a regular file (a FIFO or directory SQLite cannot use: it failed with "disk I/O error");
  /// - a `-wal` or `-journal` of such a user that is not empty: pages SQLite would copy into the
  ///   database;
  /// - unless `emptyForeignAllowed`, any other side file of such a user: its owner may still write
  ///   it while SQLite reads through it. A writable open allows them here and removes them
  ///   (``removeEmptyLeftByOtherUsers(databasePath:)``) before it checks again.
  ///
  /// A check before SQLite opens the files holds only while nobody else may put files in the
  /// directory: ``DirectoryExposure`` refuses a workspace whose directory users who may not write
  /// the database may write, before this runs.
  /// - Parameters:
  ///   - databasePath: the database file.
  ///   - emptyForeignAllowed: whether another user's empty side files pass (see above).
  /// - Returns: the reason, naming the file, its owner and size, with what to do.
  package static func foreignWAL(databasePath: String, emptyForeignAllowed: Bool = false) -> String? {
    var database = stat()
    guard stat(databasePath, &database) == 0 else { return nil }
    let sides = [databasePath + "-wal", databasePath + "-shm", databasePath + "-journal"]
    let refusal = "so dolphin will not open the workspace; nothing was read or changed"
    for side in sides {
      var link = stat()
      guard lstat(side, &link) == 0 else { continue }
      let quoted = FileAccessAdvice.shellQuoted(side)
      switch link.st_mode & S_IFMT {
      case S_IFREG: continue
      case S_IFLNK:
        // Neither SQLite nor dolphin makes one (review, s13: `-wal` → /etc/shadow). Never chown it.
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: side)) ?? "?"
        return "\(side) is a symbolic link (to \(Limits.shownPath(target))) that \(FileAccessAdvice.owner(link.st_uid)) put there; "
          + "neither SQLite nor dolphin makes one, and SQLite would read and write through it, \(refusal). Remove the "
          + "link while no dolphin is running (`rm \(quoted)`; never chown it: chown follows the link to the file it names)"
      default:
        let kind = Self.kindName(link.st_mode)
        let remove = (link.st_mode & S_IFMT) == S_IFDIR ? "rmdir \(quoted)` if it is empty" : "rm \(quoted)`"
        return "\(side) is \(kind) that \(FileAccessAdvice.owner(link.st_uid)) put there, not a file SQLite makes; SQLite cannot use it "
          + "(it would fail with a disk I/O error), \(refusal). Look at it (`ls -l \(quoted)`) and remove it while no "
          + "dolphin is running (`\(remove))"
      }
    }
    for side in sides {
      var status = stat()
      guard lstat(side, &status) == 0 else { continue }
      let owner = status.st_uid
      let foreignOwner = owner != geteuid() && !userMayWrite(owner, database)
      guard foreignOwner || writableByStrangers(status, database: database) else { continue }
      let quoted = FileAccessAdvice.shellQuoted(side)
      let whose =
        foreignOwner
        ? "it belongs to \(FileAccessAdvice.owner(owner)), another user who may not write this database"
        : "its mode (\(FileAccessAdvice.permissions(status.st_mode))) lets users who may not write this database write it"
      if status.st_size > 0 && !side.hasSuffix("-shm") {
        let moved = sides.filter { FileManager.default.fileExists(atPath: $0) }
          .map { "mv \(FileAccessAdvice.shellQuoted($0)) \(FileAccessAdvice.shellQuoted($0 + ".foreign"))" }
          .joined(separator: " && ")
        let what = side.hasSuffix("-wal") ? "changes" : "a rollback journal SQLite would play back into the database"
        return "\(side) holds \(status.st_size) bytes of \(what), but \(whose), so they may not be changes saved "
          + "through it, and dolphin will not read them (they would show as the workspace's records); nothing was read "
          + "or changed. To use the workspace, move the file aside while no dolphin is running: `\(moved)`"
      }
      if emptyForeignAllowed { continue }
      let remedy =
        side.hasSuffix("-shm") && status.st_size > 0
        ? "; SQLite rebuilds it from the -wal" : "; a dolphin command that writes, such as `\(command: "dolphin capture KIND TITLE")`, removes such an empty -wal and -shm itself"
      return "\(side) (\(status.st_size) bytes): \(whose), and that user may write into it while SQLite reads through it, "
        + "\(refusal). Remove it while no program has the workspace open (`rm \(quoted)`)\(remedy)"
    }
    return nil
  }

  /// Whether the mode of the side file with status `side` lets users write it who may not write
  /// the database with status `database`: writable by others when the database is not, or by a
  /// group the database's write permission does not cover and that holds users other than this
  /// one and root (``DirectoryExposure/members(ofGroup:)``; an unknown group counts as such).
  static func writableByStrangers(_ side: stat, database: stat) -> Bool {
    if side.st_mode & S_IWOTH != 0 && database.st_mode & S_IWOTH == 0 { return true }
    guard side.st_mode & S_IWGRP != 0 else { return false }
    if database.st_mode & S_IWGRP != 0 && database.st_gid == side.st_gid { return false }
    guard let members = DirectoryExposure.members(ofGroup: side.st_gid) else { return true }
    return members.contains { $0 != geteuid() && $0 != 0 && !userMayWrite($0, database) }
  }

  /// What a file of mode `mode` that is not a regular file or symbolic link is, for a message
  /// (``FileKind/name(ofMode:)``).
  static func kindName(_ mode: mode_t) -> String { FileKind.name(ofMode: mode) }

  /// Whether user `uid` may write a file with status `file`: root, its owner, anyone when it is
  /// writable by others, and a member of its group (primary or supplementary, from the user and
  /// group databases) when it is writable by the group. The group a file carries says nothing of
  /// who made it (a setgid directory gives every new file its group), so membership is asked.
  static func userMayWrite(_ uid: uid_t, _ file: stat) -> Bool {
    if uid == 0 || uid == file.st_uid || file.st_mode & 0o002 != 0 { return true }
    guard file.st_mode & 0o020 != 0 else { return false }
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 16_384)
    guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
      return false  // A user unknown to this system is a member of no group.
    }
    if entry.pw_gid == file.st_gid { return true }
    var count: Int32 = 256
    var groups = [gid_t](repeating: 0, count: Int(count))
    guard getgrouplist(name, entry.pw_gid, &groups, &count) >= 0 else { return false }
    return groups.prefix(Int(count)).contains(file.st_gid)
  }

  /// SQLite's pending byte: the first byte of the range its unix VFS locks
  /// (`sqlite3PendingByte`, 0x40000000 unless a test build moved it).
  static let pendingByte: off_t = 0x4000_0000
  /// The bytes SQLite's locks cover from ``pendingByte``: the pending and reserved bytes and the
  /// 510-byte shared range (`SHARED_SIZE`).
  static let lockedBytes: off_t = 512

  /// Takes a write lock on SQLite's lock range of the open database file `fd` without waiting:
  /// SQLite's EXCLUSIVE lock, which no other connection may hold any lock beside.
  /// - Returns: whether the lock is held now (released when `fd` is closed).
  static func lockExclusively(_ fd: Int32) -> Bool {
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = pendingByte
    lock.l_len = lockedBytes
    lock.l_pid = 0
    #if os(Linux)
      // F_OFD_SETLK from <asm-generic/fcntl.h>, which Glibc's Swift module does not export: a lock
      // owned by this open file description, so this process's own SQLite connections conflict
      // with it too.
      let command: Int32 = 37
    #else
      let command = F_SETLK
    #endif
    return withUnsafeMutablePointer(to: &lock) { fcntl(fd, command, $0) } == 0
  }

  /// The side files of a WAL database that were removed while another process holds the
  /// database open (review 29-a, 1).
  package struct RemovedWhileOpen: Sendable, Equatable {
    /// The missing side files (full paths), in ``SQLiteSideFiles/suffixes`` order.
    package var missing: [String]
    /// A process that holds a lock on the database file (Linux `/proc/locks`).
    package var holder: Int32
  }

  /// Whether the `-wal` or `-shm` of `databasePath` is missing while another process holds
  /// SQLite's lock on the database file, which only a deletion by hand (`rm *-shm`, a cleaner)
  /// brings about.
  ///
  /// Every connection to a WAL database holds a shared lock on SQLite's lock range from its
  /// first read until it closes, and keeps its `-wal` and `-shm` open and mapped meanwhile; the
  /// last one to close deletes them. When they are deleted under it, it keeps using the
  /// unlinked files, while a process that opens the database now would create new ones and run
  /// WAL recovery on its own: the two then write over each other's commits in the `-wal`, and
  /// commits both acknowledged are lost (https://www.sqlite.org/howtocorrupt.html, section 1.4,
  /// "Deleting a hot journal"; `walIndexRecover` in SQLite's `wal.c`). A new connection must not
  /// open the database until that process has closed it.
  ///
  /// The holder is found in `/proc/locks` (Linux), not by asking the database file with
  /// `fcntl(F_GETLK)`: that needs a descriptor of the file, and closing any descriptor of it
  /// drops every POSIX lock this process's own SQLite connections hold on it. This process's own
  /// locks are not counted. A connection being opened holds the shared lock a moment before it
  /// opens the side files, and the last one to close holds its lock while it deletes them, so a
  /// missing file beside a lock counts only when it stays so for `attempts` looks, `pauseMicroseconds` apart.
  /// Elsewhere than Linux this returns nil.
  /// - Parameters:
  ///   - databasePath: the database file, symbolic links resolved (as SQLite opens it).
  ///   - attempts: how many looks find the state before it counts (at least 1).
  ///   - pauseMicroseconds: the time between two looks.
  /// - Returns: nil when both side files exist, when neither is missing and locked at once, or
  ///   when the database file is missing; otherwise the missing files and a holder's pid.
  /// - Complexity: reads `/proc/locks` once per look (one line per lock held on the machine).
  package static func removedWhileOpen(
    databasePath: String, attempts: Int = 40, pauseMicroseconds: UInt32 = 25_000
  ) -> RemovedWhileOpen? {
    #if os(Linux)
      var database = stat()
      guard stat(databasePath, &database) == 0 else { return nil }
      for attempt in 0..<max(1, attempts) {
        if attempt > 0 { usleep(pauseMicroseconds) }
        let missing = suffixes.map { databasePath + $0 }.filter { !exists($0) }
        guard !missing.isEmpty else { return nil }
        guard let holder = lockHolder(of: database) else { return nil }
        if attempt == max(1, attempts) - 1 { return RemovedWhileOpen(missing: missing, holder: holder) }
      }
      return nil
    #else
      return nil
    #endif
  }

  /// Another process holding SQLite's lock on the database file `databasePath` now (any
  /// connection of another process that has it open), found in `/proc/locks`; nil when none
  /// does, when the file is missing, or elsewhere than Linux.
  package static func otherHolder(databasePath: String) -> Int32? {
    #if os(Linux)
      var database = stat()
      guard stat(databasePath, &database) == 0 else { return nil }
      return lockHolder(of: database)
    #else
      return nil
    #endif
  }

  /// Another process holding a lock on SQLite's lock range of the file with status `file`, as
  /// `/proc/locks` lists it now; nil when none does or the list cannot be read.
  static func lockHolder(of file: stat) -> Int32? {
    guard let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
    return lockHolder(
      device: UInt64(truncatingIfNeeded: file.st_dev), inode: UInt64(truncatingIfNeeded: file.st_ino), in: text,
      excluding: getpid())
  }

  /// A process other than `excluding` that holds a lock overlapping SQLite's lock range
  /// (``pendingByte`` and the ``lockedBytes`` after it) of the file `device`/`inode`, read from
  /// `locks` in the format of Linux's `/proc/locks` (proc(5)): `1: POSIX  ADVISORY  READ 1234
  /// fe:00:16343322 1073741826 1073742335` — the major and minor device numbers in hexadecimal,
  /// the inode in decimal, the first and last byte locked or `EOF`; a waiting request is marked
  /// `->`. Open-file-description locks (pid -1) are not counted.
  /// - Parameter device: a `dev_t` in glibc's encoding (`gnu_dev_major`, `gnu_dev_minor`).
  package static func lockHolder(device: UInt64, inode: UInt64, in locks: String, excluding: Int32) -> Int32? {
    let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
    let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
    let first = Int64(pendingByte)
    let last = Int64(pendingByte + lockedBytes - 1)
    for line in locks.split(separator: "\n") {
      let fields = line.split(separator: " ").filter { $0 != "->" }
      guard fields.count >= 8, let pid = Int32(fields[4]), pid > 0, pid != excluding else { continue }
      let parts = fields[5].split(separator: ":")
      guard parts.count == 3, UInt64(parts[0], radix: 16) == major, UInt64(parts[1], radix: 16) == minor,
        UInt64(parts[2]) == inode, let start = Int64(fields[6])
      else { continue }
      let end = fields[7] == "EOF" ? Int64.max : (Int64(fields[7]) ?? Int64.max)
      if start <= last && end >= first { return pid }
    }
    return nil
  }

  private static func exists(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0
  }

  private static func isRegularFile(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
  }
}
