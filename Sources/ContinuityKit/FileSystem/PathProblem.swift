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
  /// Following the path's symbolic links never reaches a file or directory (`ELOOP`: a link
  /// that leads back to itself, directly or through other links).
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
      "a symbolic link loop: following its links never reaches a file or directory (\(String(cString: strerror(ELOOP))))"
    case .unreachable(let reason): "cannot be reached: \(reason)"
    }
  }
}
