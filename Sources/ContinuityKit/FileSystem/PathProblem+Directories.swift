import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which component of a directory path stops it from being reached or created, and why, so a
/// message can name that component and the system's cause instead of a generic "cannot read".
package struct DirectoryObstacle: Sendable, Equatable {
  /// The component at fault, spelled as in the path given (`/tmp/somefile` for
  /// `/tmp/somefile/sub`).
  package var path: String
  /// Why, in words that follow the component: `is not a directory (Not a directory)`, `may not
  /// be searched by this user: permission denied`, `could not be created:
  /// No such file or directory …`.
  package var reason: String

  /// `<path> <reason>`, e.g. `/tmp/somefile is not a directory (Not a directory)`.
  package var description: String { "\(Limits.shownPath(path)) \(reason)" }
}

/// A component of a directory path that exists and is not a directory
/// (``PathProblem/nonDirectory(onTheWayTo:)``).
package struct NonDirectory: Sendable, Equatable {
  /// The component, spelled as in the path given (`/etc/passwd` for `/etc/passwd/ws`).
  package var path: String
  /// What it is, through symbolic links: `st_mode` of `stat(2)` (``FileKind/name(ofMode:)``).
  package var mode: mode_t
  /// Whether the component itself is a symbolic link (to that file).
  package var isSymbolicLink: Bool
  /// Whether the component is the whole path given, not one on the way to it.
  package var isWholePath: Bool

  /// What it is, with its article, then `, not a directory`: `a file, not a directory`, `a
  /// symbolic link to a file, not a directory`, `a character device, not a directory`.
  package var description: String {
    let kind = FileKind.isRegular(mode) ? "a file" : FileKind.name(ofMode: mode)
    return (isSymbolicLink ? "a symbolic link to \(kind)" : kind) + ", not a directory"
  }
}

extension PathProblem {
  /// The first component on the way to the directory `path` that is in the way: one that exists
  /// but is not a directory, or one this user may not search, or one that cannot be examined.
  /// Components that do not exist yet are not in the way (they can be created).
  /// - Parameter path: a directory path, absolute or relative.
  /// - Returns: the component and why, or nil when every existing component is a directory
  ///   that can be searched.
  package static func obstacle(onTheWayTo path: String) -> DirectoryObstacle? {
    let prefixes = componentPrefixes(path)
    for (i, prefix) in prefixes.enumerated() {
      var status = stat()
      if stat(prefix, &status) == 0 {
        if (status.st_mode & S_IFMT) != S_IFDIR {
          return DirectoryObstacle(path: prefix, reason: "is not a directory (\(String(cString: strerror(ENOTDIR))))")
        }
        continue
      }
      let code = errno
      switch code {
      case ENOENT:
        return nil  // The rest does not exist yet.
      case EACCES where i > 0:
        return DirectoryObstacle(
          path: prefixes[i - 1], reason: "may not be searched by this user: \(SystemErrorCause.describe(code))")
      case ELOOP:
        return DirectoryObstacle(path: prefix, reason: PathProblem.symbolicLinkLoop.description)
      default:
        return DirectoryObstacle(path: prefix, reason: "cannot be examined: \(SystemErrorCause.describe(code))")
      }
    }
    return nil
  }

  /// The first component of the directory path `path` — a component on the way, or `path`
  /// itself — that exists and is not a directory: a regular file (`--workspace /etc/passwd`,
  /// `/etc/passwd/ws`), a device, a FIFO or a socket, judged through symbolic links as opening
  /// it would be. Such a path can never be a directory, whatever is created, so a caller can
  /// refuse it as a bad value before anything is opened or created (review 30-a, 13).
  /// - Parameter path: a directory path, absolute or relative (to the current directory).
  /// - Returns: that component, or nil when every existing component is a directory, or when a
  ///   component cannot be examined (missing, not searchable, a link loop: left to the caller's
  ///   own errors).
  package static func nonDirectory(onTheWayTo path: String) -> NonDirectory? {
    let prefixes = componentPrefixes(path)
    for (i, prefix) in prefixes.enumerated() {
      var status = stat()
      guard stat(prefix, &status) == 0 else { return nil }
      if (status.st_mode & S_IFMT) != S_IFDIR {
        var link = stat()
        let isLink = lstat(prefix, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
        return NonDirectory(path: prefix, mode: status.st_mode, isSymbolicLink: isLink, isWholePath: i == prefixes.count - 1)
      }
    }
    return nil
  }

  /// Creates the directory `path` and any missing directories on the way (as `mkdir -p`): the
  /// intermediate ones with mode 0755 less the umask (never writable by others, so that no one
  /// else may move what is inside: ``WorkspaceTrust``), and `path` itself with 0700.
  /// - Parameter path: the directory to create.
  /// - Returns: nil when the directory exists afterwards (created here, before, or by another
  ///   process meanwhile); otherwise the component that could not be created, or that is in the
  ///   way, and the system's cause.
  package static func createDirectories(_ path: String) -> DirectoryObstacle? {
    let prefixes = componentPrefixes(path)
    for (i, prefix) in prefixes.enumerated() {
      var status = stat()
      if stat(prefix, &status) == 0 {
        if (status.st_mode & S_IFMT) == S_IFDIR { continue }
        return DirectoryObstacle(path: prefix, reason: "is not a directory (\(String(cString: strerror(ENOTDIR))))")
      }
      if errno != ENOENT { return obstacle(onTheWayTo: prefix) ?? failure(prefix, errno) }
      // Directories on the way: 755 at most, whatever the umask (with umask 000 a 777 one would
      // let every user move the workspace aside, and dolphin would then refuse its own path).
      if mkdir(prefix, i == prefixes.count - 1 ? 0o700 : 0o755) == 0 { continue }
      let code = errno
      // Another process created it a moment ago.
      if code == EEXIST, stat(prefix, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { continue }
      return failure(prefix, code)
    }
    return nil
  }

  /// Why `mkdir` of `path` failed, with a hint where the system's text alone misleads (`No
  /// such file or directory` from a directory that exists), naming the directory it was to be
  /// created in: `/` for `/ws`, the current directory's path for a relative `ws`.
  static func failure(_ path: String, _ code: Int32) -> DirectoryObstacle {
    var reason = "could not be created: \(SystemErrorCause.describe(code))"
    var inParent = parentPath(path)
    if inParent == "." { inParent = FileManager.default.currentDirectoryPath }
    switch code {
    case ENOENT:
      reason += "; \(inParent) exists, but its filesystem does not allow creating a directory there"
    case EACCES, EPERM:
      reason += "; this user may not create entries in \(inParent)"
    default: break
    }
    return DirectoryObstacle(path: path, reason: reason)
  }

  /// The paths of `path`'s components, each with those before it: `/a/b` → `/a`, `/a/b`;
  /// `a/b/` → `a`, `a/b`. `.` components and repeated slashes are kept out.
  static func componentPrefixes(_ path: String) -> [String] {
    let absolute = path.hasPrefix("/")
    var prefixes: [String] = []
    var current: String? = absolute ? "" : nil
    for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
      let next = current.map { $0 + "/" + part } ?? String(part)
      prefixes.append(next)
      current = next
    }
    return prefixes
  }
}
