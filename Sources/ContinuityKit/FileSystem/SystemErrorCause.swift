import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Plain-words causes for the `errno` values a user can act on, so storage and file errors
/// name the cause first ("the disk is full") and keep the system's text after it.
package enum SystemErrorCause {
  /// The cause named for `ENOSPC` and `EDQUOT` (and SQLite's `SQLITE_FULL`); messages that carry
  /// it start with it, which ``WorkspaceError/isDiskFull`` relies on.
  package static let diskFull = "the disk is full"

  /// The cause of `code` in plain words followed by the system's own text, e.g.
  /// `the disk is full (No space left on device)`; just the system's text for other codes.
  /// - Parameter code: an `errno` value.
  package static func describe(_ code: Int32) -> String {
    let system = String(cString: strerror(code))
    guard let cause = cause(of: code) else { return system }
    // Not "permission denied (Permission denied)" (review, s17).
    return cause.lowercased() == system.lowercased() ? cause : "\(cause) (\(system))"
  }

  /// The plain-words cause of `code`, or nil when it is not one of the actionable ones.
  /// - Parameter code: an `errno` value.
  package static func cause(of code: Int32) -> String? {
    switch code {
    case ENOSPC, EDQUOT: return diskFull
    case EROFS: return "the filesystem is read-only"
    case EACCES, EPERM: return "permission denied"
    // Review 29-a, 5: these reached the user as SQLite's bare "disk I/O error".
    case EFBIG:
      return "a file-size limit was reached (this process's `ulimit -f`, or the largest file the filesystem holds)"
    case EMFILE: return "too many open files (this process's limit, `ulimit -n`)"
    case ENFILE: return "too many open files on this system"
    case EIO: return "the storage device reported an input/output error (check the disk and the system log)"
    default: return nil
    }
  }
}
