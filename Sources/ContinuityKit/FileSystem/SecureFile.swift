import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Our own file writes outside the database (exports, backups): private from creation,
/// atomic, never half-written.
public enum SecureFile {
  /// Writes `data` to `url` so that the file is either absent/unchanged or complete: the bytes
  /// go to a temporary file in the same directory, created with mode 0600 (whatever the umask),
  /// which is fsynced and then renamed over `url`; the directory is fsynced last.
  ///
  /// Without `overwrite`, an existing file is never replaced, even by a race: the temporary file
  /// is hard-linked to `url` (which fails when `url` exists) instead of renamed.
  ///
  /// With `overwrite`, only a regular file is replaced. A symbolic link (dangling or not), a
  /// device, a FIFO, a socket or a directory at `url` is refused and left as it is: the rename
  /// would swap that directory entry for a regular file, and a `/dev/null` or `/dev/stdout`
  /// replaced that way breaks the system (review 18-c, C1). The type is checked again just before
  /// the rename, so a special file put in place meanwhile is not replaced either (short of a
  /// swap in the instant between that check and the rename).
  /// - Parameters:
  ///   - data: the complete contents.
  ///   - url: the destination file.
  ///   - overwrite: whether an existing regular file at `url` may be replaced.
  /// - Throws: ``WorkspaceError/fileSystem(path:message:)`` naming the path and the cause
  ///   (e.g. `already exists`, `is a character device, not a regular file`, `No space left on
  ///   device`); the temporary file is removed.
  public static func writeAtomically(_ data: Data, to url: URL, overwrite: Bool) throws(WorkspaceError) {
    let path = url.path
    let directory = url.deletingLastPathComponent().path
    var st = stat()
    if lstat(path, &st) == 0 {
      if (st.st_mode & S_IFMT) == S_IFDIR { throw .fileSystem(path: path, message: "is a directory") }
      if !overwrite { throw .fileSystem(path: path, message: "already exists; refusing to overwrite it") }
      if let refusal = replacementRefusal(mode: st.st_mode) { throw .fileSystem(path: path, message: refusal) }
    }
    removeStaleTemporaries(for: url)
    let temp = directory + "/" + temporaryPrefix(for: url) + String(getpid()) + "-" + Environment.randomUUID().uuidString.prefix(8)
    let fd = open(temp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .fileSystem(path: path, message: "cannot create a file here: \(errorText())") }
    var failure: String?
    fchmod(fd, 0o600)
    if !writeAll(fd, data) {
      failure = "cannot write: \(errorText())"
    } else if fsync(fd) != 0 {
      failure = "cannot flush to disk: \(errorText())"
    }
    close(fd)
    if failure == nil {
      if overwrite {
        if lstat(path, &st) == 0, let refusal = replacementRefusal(mode: st.st_mode) {
          failure = refusal
        } else if rename(temp, path) != 0 {
          failure = "cannot move into place: \(errorText())"
        }
      } else if link(temp, path) != 0 {
        let code = errno
        if code == EEXIST {
          failure = "already exists; refusing to overwrite it"
        } else if code == EPERM || code == ENOTSUP || code == EXDEV {
          // A filesystem without hard links: fall back to check-then-rename.
          if lstat(path, &st) == 0 {
            failure = "already exists; refusing to overwrite it"
          } else if rename(temp, path) != 0 {
            failure = "cannot move into place: \(errorText())"
          }
        } else {
          failure = "cannot move into place: \(SystemErrorCause.describe(code))"
        }
      }
    }
    unlink(temp)  // after link(2) the data lives on under `path`; after rename(2) this is a no-op
    if let failure { throw .fileSystem(path: path, message: failure) }
    syncDirectory(directory)
  }

  /// Why an existing directory entry of mode `mode` may not be replaced, or nil for a regular
  /// file (the only kind ``writeAtomically(_:to:overwrite:)`` ever replaces).
  static func replacementRefusal(mode: mode_t) -> String? {
    if FileKind.isRegular(mode) { return nil }
    return "is \(FileKind.name(ofMode: mode)), not a regular file; only a regular file is ever replaced, "
      + "so it was left as it is and nothing was written"
  }

  /// The name every temporary file for `url` starts with: `.<name>.tmp-`, followed by the
  /// writer's process id, `-` and eight random characters. A name over 200 bytes is cut to its
  /// first 200 (whole characters), so the temporary name stays within the 255 bytes a file name
  /// may have (review, s15: a legal 250-byte name could not be written).
  static func temporaryPrefix(for url: URL) -> String {
    var name = url.lastPathComponent
    while name.utf8.count > 200 { name.removeLast() }
    return "." + name + ".tmp-"
  }

  /// Removes temporary files for `url` left by writers that no longer run (a kill between
  /// creating the temporary file and moving it into place). A file whose writer's process id
  /// is alive, or whose name carries no process id, is left alone, and so is anything but a
  /// regular file of this user's (review, s15: root's export removed look-alikes of other users
  /// in `/tmp`).
  static func removeStaleTemporaries(for url: URL) {
    let directory = url.deletingLastPathComponent().path
    let prefix = temporaryPrefix(for: url)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
    for name in names where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0 else { continue }
      var st = stat()
      guard lstat(directory + "/" + name, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid() else {
        continue
      }
      if kill(pid, 0) != 0, errno == ESRCH { unlink(directory + "/" + name) }
    }
  }

  /// Overwrites a regular file's bytes with zeros, fsyncs, and unlinks it.
  ///
  /// Best effort against recovery: on copy-on-write or journaling filesystems and on SSDs the
  /// old blocks may survive on the device; what is guaranteed is that no file under the
  /// workspace directory holds the old bytes any more.
  ///
  /// Nothing is followed (review, s15: a link put in place of `legacy-backups` made erase zero
  /// and unlink files of the link's choosing): the directory holding `url` is opened with
  /// `O_NOFOLLOW`, and the file is opened and removed relative to it (`openat`, `unlinkat`). A
  /// symbolic link there is removed as a link; only a regular file of this user's or root's with
  /// no other hard link is zeroed first (the bytes of a file another name shares are that name's
  /// too).
  /// - Throws: ``WorkspaceError/fileSystem(path:message:)`` when the file cannot be removed, or
  ///   the directory holding it is a symbolic link.
  public static func removeSecurely(_ url: URL) throws(WorkspaceError) {
    let path = url.path
    let directory = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    let dir = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard dir >= 0 else {
      if errno == ENOENT { return }
      let code = errno
      throw .fileSystem(
        path: path,
        message: code == ELOOP || code == ENOTDIR
          ? "cannot remove: \(Limits.shownPath(directory)) is not a directory of its own (a symbolic link?); nothing was followed"
          : "cannot remove: \(SystemErrorCause.describe(code))")
    }
    defer { close(dir) }
    var st = stat()
    guard fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return }
    let user = geteuid()
    if (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0, st.st_nlink == 1, st.st_uid == user || st.st_uid == 0 {
      let fd = openat(dir, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      var opened = stat()
      if fd >= 0 {
        // The same file as looked at, still: not one swapped in meanwhile.
        if fstat(fd, &opened) == 0, opened.st_ino == st.st_ino, opened.st_dev == st.st_dev,
          (opened.st_mode & S_IFMT) == S_IFREG
        {
          let zeros = Data(count: Int(min(opened.st_size, 1 << 20)))
          var remaining = Int(opened.st_size)
          while remaining > 0 {
            let chunk = zeros.prefix(min(remaining, zeros.count))
            if !writeAll(fd, chunk) { break }
            remaining -= chunk.count
          }
          fsync(fd)
        }
        close(fd)
      }
    }
    if unlinkat(dir, name, 0) != 0 {
      throw .fileSystem(path: path, message: "cannot remove: \(errorText())")
    }
    fsync(dir)
  }

  /// Writes all of `data` to `fd`, retrying after a signal (`EINTR`).
  /// - Returns: false when a write fails (`errno` says why) or writes nothing.
  package static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { buf -> Bool in
      var offset = 0
      while offset < buf.count {
        let n = write(fd, buf.baseAddress?.advanced(by: offset), buf.count - offset)
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
      }
      return true
    }
  }

  static func syncDirectory(_ path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }

  static func errorText() -> String { SystemErrorCause.describe(errno) }
}
