#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a path names, in the words messages use for a file that is not a regular one.
package enum FileKind {
  /// What a file of mode `mode` (`st_mode` from `stat(2)`) is, with its article: `a FIFO (named
  /// pipe)`, `a socket`, `a character device`, `a block device`, `a directory`, `a symbolic
  /// link`, `a regular file`, or `a special file` for any other type.
  package static func name(ofMode mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: return "a regular file"
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFDIR: return "a directory"
    case S_IFSOCK: return "a socket"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFLNK: return "a symbolic link"
    default: return "a special file"
    }
  }

  /// Whether `mode` is a regular file's.
  package static func isRegular(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFREG }
}
