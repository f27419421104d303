import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension BoundedInput {
  /// Reads the regular file at `path`, given as the bytes the file system holds, which need not
  /// be UTF-8 (a file found by a directory walk, ``SystemPath``), as
  /// ``readFile(atPath:maxBytes:stopsRegularFiles:stop:)`` reads one named by the user.
  ///
  /// A UTF-8 path is read by that function. Otherwise a final symbolic link (this user's or
  /// root's: another user's is refused, as there) is resolved first; then the longest leading
  /// run of components that is UTF-8 is opened through the same checks of the links and
  /// directories on the way, and each component after it with `openat(2)` and `O_NOFOLLOW`, so
  /// that no link below it is followed (one swapped in meanwhile is refused), the file itself
  /// with `O_NONBLOCK` and checked with `fstat(2)` (a FIFO never blocks).
  /// - Parameters:
  ///   - path: the path's bytes, relative to the current directory or absolute.
  ///   - shown: how errors name the file (``SystemPath/shown(_:)``).
  ///   - maxBytes: the bound; a larger file is refused from its size, unread.
  /// - Throws: ``Failure``, naming the file as `shown`: ``Failure/cannotOpen(path:reason:)``
  ///   (missing, unreadable, a link on the way), ``Failure/isDirectory(path:)``,
  ///   ``Failure/notRegularFile(path:kind:)``, ``Failure/tooLarge(path:size:maxBytes:)``,
  ///   ``Failure/readFailed(source:reason:)``.
  package static func readFile(atPathBytes path: [UInt8], shownAs shown: String, maxBytes: Int) throws(Failure) -> Result {
    if let text = String(validating: path, as: UTF8.self) { return try readFile(atPath: text, maxBytes: maxBytes) }
    var target = path
    if let link = SystemPath.linkStatus(path), link.st_mode & S_IFMT == S_IFLNK {
      guard link.st_uid == geteuid() || link.st_uid == 0 else {
        throw .cannotOpen(
          path: shown,
          reason: "it is a symbolic link that belongs to \(FileAccessAdvice.owner(link.st_uid)), not to this user or root, "
            + "so it is not followed")
      }
      guard let real = SystemPath.resolved(path) else {
        throw .cannotOpen(path: shown, reason: "it is a symbolic link that leads nowhere (\(SystemErrorCause.describe(errno)))")
      }
      if let text = String(validating: real, as: UTF8.self) { return try readFile(atPath: text, maxBytes: maxBytes) }
      target = real
    }
    let isAbsolute = target.first == UInt8(ascii: "/")
    let components = target.split(separator: UInt8(ascii: "/")).map(Array.init)
    guard let last = components.last else { throw .cannotOpen(path: shown, reason: "it is not a file name") }
    let firstOther = components.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? components.count - 1
    let leading = components[..<firstOther].map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
    let start = isAbsolute ? "/" + leading : (leading.isEmpty ? "." : leading)
    let (walked, _) = try trustedPath(start)
    var directory = open(walked, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard directory >= 0 else { throw .cannotOpen(path: shown, reason: SystemErrorCause.describe(errno)) }
    defer { close(directory) }
    for component in components[firstOther..<(components.count - 1)] {
      guard component != Array("..".utf8) else {
        throw .cannotOpen(path: shown, reason: "it goes up (`..`) after a name that is not UTF-8")
      }
      let next = SystemPath.withCString(component) { openat(directory, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
      guard next >= 0 else { throw .cannotOpen(path: shown, reason: Self.openFailure(errno)) }
      close(directory)
      directory = next
    }
    let fd = SystemPath.withCString(last) {
      openat(directory, $0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW)
    }
    guard fd >= 0 else { throw .cannotOpen(path: shown, reason: Self.openFailure(errno)) }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw .cannotOpen(path: shown, reason: SystemErrorCause.describe(errno)) }
    try requireRegular(status, path: shown)
    if Int64(status.st_size) > Int64(maxBytes) {
      throw .tooLarge(path: shown, size: Int64(status.st_size), maxBytes: maxBytes)
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return try read(fileDescriptor: fd, source: "'\(shown)'", maxBytes: maxBytes)
  }

  /// Why an `openat` with `O_NOFOLLOW` failed, in words: a symbolic link met on the way
  /// (`ELOOP`, or `ENOTDIR` for a link where a directory was expected) is named as such.
  private static func openFailure(_ code: Int32) -> String {
    switch code {
    case ELOOP, ENOTDIR:
      "the path changed while dolphin opened it (a symbolic link is where a directory or file was found), so it was not read"
    case ENOENT: "no such file"
    default: SystemErrorCause.describe(code)
    }
  }
}
