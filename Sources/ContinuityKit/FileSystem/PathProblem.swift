import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a path named by the user does not lead to a file or directory, told apart so that a
/// symbolic link loop is not reported as a missing file.
package enum PathProblem: Sendable, Equatable {
  /// Nothing is at the path (`ENOENT`, `ENOTDIR`).
  case missing
  /// The path is a symbolic link whose target does not exist.
  case danglingLink(target: String)
  /// Following the path's symbolic links does not reach a file or directory (`ELOOP`: a link
  /// that leads back to itself, directly or through other links, or more than 40 links in a
  /// row, the kernel's limit).
  case symbolicLinkLoop
  /// The path cannot be followed for another reason, e.g. a directory on the way that may not
  /// be searched; `reason` in plain words.
  case unreachable(reason: String)

  /// What stops `path` from leading to a file or directory, following symbolic links as
  /// `stat(2)` does.
  /// - Returns: nil when the path leads to something.
  package static func of(_ path: String) -> PathProblem? {
    var status = stat()
    if stat(path, &status) == 0 { return nil }
    let code = errno
    switch code {
    case ELOOP:
      return .symbolicLinkLoop
    case ENOENT, ENOTDIR:
      var link = stat()
      if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK,
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
      {
        return .danglingLink(target: target)
      }
      return .missing
    default:
      return .unreachable(reason: SystemErrorCause.describe(code))
    }
  }

  /// ``of(_:)`` for a path given as the bytes the file system holds (``SystemPath``), which
  /// need not be UTF-8; a link's target is shown with ``SystemPath/shown(_:)``.
  /// - Returns: nil when the path leads to something.
  package static func of(pathBytes path: [UInt8]) -> PathProblem? {
    guard case .failure(let error) = SystemPath.status(path) else { return nil }
    switch error.code {
    case ELOOP:
      return .symbolicLinkLoop
    case ENOENT, ENOTDIR:
      if let link = SystemPath.linkStatus(path), (link.st_mode & S_IFMT) == S_IFLNK, let target = SystemPath.linkTarget(path) {
        return .danglingLink(target: SystemPath.shown(target))
      }
      return .missing
    default:
      return .unreachable(reason: SystemErrorCause.describe(error.code))
    }
  }

  /// The symbolic link that stops a directory from being at `path`, or from being created
  /// there: `path` itself, or the first missing component on the way to it, when it is a link to
  /// nothing or part of a link loop (for a loop, the outermost component that loops).
  ///
  /// Creating the directory through such a link fails with "file exists" (a link to nothing) or
  /// "too many levels of symbolic links"; this says which, and where, instead. A path that exists,
  /// or whose missing part is plainly missing or cannot be reached for another reason (left to the
  /// caller's own error), gives nil.
  /// - Parameter path: a directory path, such as a workspace or the parent of an output file.
  /// - Returns: the offending path (`path` or an ancestor, spelled as in `path`) and its problem,
  ///   ``danglingLink(target:)`` or ``symbolicLinkLoop``.
  package static func linkInTheWay(ofDirectory path: String) -> (path: String, problem: PathProblem)? {
    var current = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    while true {
      switch of(current) {
      case nil, .unreachable?:
        return nil
      case .danglingLink(let target)?:
        return (current, .danglingLink(target: target))
      case .symbolicLinkLoop?:
        // `l1/sub` loops because `l1` does: name the link itself.
        let parent = parentPath(current)
        if parent != current, of(parent) == .symbolicLinkLoop {
          current = parent
          continue
        }
        return (current, .symbolicLinkLoop)
      case .missing?:
        let parent = parentPath(current)
        if parent == current { return nil }
        current = parent
      }
    }
  }

  /// `path` without its last component (`a/b` → `a`, `a` → `.`, `/a` → `/`); `path` itself at
  /// the root or `.`.
  static func parentPath(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path == "." ? path : "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// Whether a symbolic link is the problem: a link to nothing or a link loop.
  package var isSymbolicLinkProblem: Bool {
    switch self {
    case .danglingLink, .symbolicLinkLoop: true
    case .missing, .unreachable: false
    }
  }

  /// Whether the path names nothing (missing, or a link to nothing) rather than something that
  /// cannot be followed.
  package var isMissing: Bool {
    switch self {
    case .missing, .danglingLink: true
    case .symbolicLinkLoop, .unreachable: false
    }
  }

  /// The problem in words, after the path: `no such file or directory`, `a symbolic link to
  /// 'x.swift', which does not exist`, `a symbolic link loop: …`, `cannot be reached: …`.
  package var description: String {
    switch self {
    case .missing: "no such file or directory"
    case .danglingLink(let target): "a symbolic link to '\(target)', which does not exist"
    case .symbolicLinkLoop:
      "a symbolic link loop, or a chain of more than 40 links: following them does not reach a file or directory (\(String(cString: strerror(ELOOP))))"
    case .unreachable(let reason): "cannot be reached: \(reason)"
    }
  }
}
