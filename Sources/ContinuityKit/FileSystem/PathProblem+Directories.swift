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
