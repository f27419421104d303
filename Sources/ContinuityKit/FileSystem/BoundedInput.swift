import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads user-supplied input — a file named on the command line, standard input — without
/// ever holding more than a bound in memory.
///
/// `FileManager.contents(atPath:)` and `readDataToEndOfFile()` read until the end, which for
/// `yes |`, `/dev/zero` or a FIFO never comes. Here a file named by path must be a regular
/// file — a FIFO, socket, device or directory is refused without blocking and unread — and one
/// larger than the bound is refused from its size before a byte is read; a descriptor (standard
/// input, where pipes report no useful size) is read in chunks that stop one byte past the
/// bound.
public enum BoundedInput {
  /// What a bounded read got.
  public struct Result: Sendable, Equatable {
    /// The bytes read: at most `maxBytes + 1`, or fewer when `stop` ended the read early.
    public var bytes: [UInt8]
    /// True when the input did not end within the bytes read (more than `maxBytes` bytes,
    /// or `stop` ended the read before the end of input).
    public var truncated: Bool

    public init(bytes: [UInt8], truncated: Bool) {
      self.bytes = bytes
      self.truncated = truncated
    }
  }

  /// Why a bounded read failed.
  public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened (missing, unreadable); `reason` in plain words.
    case cannotOpen(path: String, reason: String)
    /// The path names a directory.
    case isDirectory(path: String)
    /// The path names something other than a regular file or directory — a FIFO, a socket, a
    /// device — which is not opened for reading (a FIFO without a writer would block the read
    /// forever, a device may never end); `kind` in words, `a FIFO (named pipe)`.
    case notRegularFile(path: String, kind: String)
    /// A regular file of `size` bytes, over the bound; it was not read.
    case tooLarge(path: String, size: Int64, maxBytes: Int)
    /// `read(2)` failed part-way.
    case readFailed(source: String, reason: String)

    public var description: String {
      switch self {
      case .cannotOpen(let path, let reason): return "cannot read '\(path)': \(reason)"
      case .isDirectory(let path): return "'\(path)' is a directory, not a file"
      case .notRegularFile(let path, let kind): return "'\(path)' is \(kind), not a regular file"
      case .tooLarge(let path, let size, let maxBytes):
        return "'\(path)' is \(size) bytes; at most \(maxBytes) bytes are read (it was not read)"
      case .readFailed(let source, let reason): return "reading \(source) failed: \(reason)"
      }
    }
  }

  /// The chunk size of every read.
  static let chunkBytes = 64 * 1024

  /// Reads from an open descriptor until end of input, until more than `maxBytes` bytes have
  /// been read, or until `stop` (called after every chunk with everything read so far) returns
  /// true. Never reads more than `maxBytes + 1` bytes.
  /// - Parameters:
  ///   - fd: the descriptor (not closed here).
  ///   - source: how errors name the input, e.g. `standard input`.
  ///   - maxBytes: the bound.
  ///   - stop: an early stop, e.g. once the text is known to be over a character limit.
  /// - Throws: ``Failure/readFailed(source:reason:)``.
  public static func read(
    fileDescriptor fd: Int32, source: String, maxBytes: Int, stop: ([UInt8]) -> Bool = { _ in false }
  ) throws(Failure) -> Result {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: chunkBytes)
    while bytes.count <= maxBytes {
      let want = min(chunkBytes, maxBytes + 1 - bytes.count)
      let n = chunk.withUnsafeMutableBytes { buf in Glibc_read(fd, buf.baseAddress, want) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .readFailed(source: source, reason: SystemErrorCause.describe(errno))
      }
      if n == 0 { return Result(bytes: bytes, truncated: false) }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count <= maxBytes, stop(bytes) { return Result(bytes: bytes, truncated: true) }
    }
    return Result(bytes: bytes, truncated: true)
  }

  /// Reads the regular file at `path` like ``read(fileDescriptor:source:maxBytes:stop:)``,
  /// refusing one larger than `maxBytes` from its size, before reading it.
  ///
  /// Only a regular file (or a symbolic link to one) is read: a directory, FIFO, socket or
  /// device is refused from `stat(2)` before it is opened, and the file is opened with
  /// `O_NONBLOCK` and checked again with `fstat(2)`, so that one swapped in meanwhile is refused
  /// too and a FIFO without a writer never blocks. By default a file within the bound is read
  /// whole (so sizes and counts are exact); with `stopsRegularFiles`, `stop` ends the read early
  /// (a large file of NUL bytes is refused after one chunk, not read up to the bound).
  /// - Throws: ``Failure``: ``Failure/isDirectory(path:)``,
  ///   ``Failure/notRegularFile(path:kind:)``, ``Failure/cannotOpen(path:reason:)``,
  ///   ``Failure/tooLarge(path:size:maxBytes:)`` or ``Failure/readFailed(source:reason:)``.
  public static func readFile(
    atPath path: String, maxBytes: Int, stopsRegularFiles: Bool = false, stop: ([UInt8]) -> Bool = { _ in false }
  ) throws(Failure) -> Result {
    var before = stat()
    if stat(path, &before) == 0 { try requireRegular(before, path: path) }
    let (walked, resolved) = try trustedPath(path)
    let fd = open(walked, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW)
    guard fd >= 0 else {
      let code = errno
      let reason = code == ENOENT ? "no such file" : SystemErrorCause.describe(code)
      throw .cannotOpen(path: path, reason: reason)
    }
    defer { close(fd) }
    // `O_NOFOLLOW` guards the last component only: a directory on the way swapped for a link
    // after the walk (by its owner, review s15) is caught by where the kernel says the file is.
    if resolved, !opened(fd, isAt: walked) {
      throw .cannotOpen(
        path: path,
        reason: "the path changed while dolphin opened it (a directory on the way was replaced by a symbolic link), "
          + "so it was not read; copy the file to a directory of your own and name the copy")
    }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      throw .cannotOpen(path: path, reason: SystemErrorCause.describe(errno))
    }
    try requireRegular(st, path: path)
    if Int64(st.st_size) > Int64(maxBytes) {
      throw .tooLarge(path: path, size: Int64(st.st_size), maxBytes: maxBytes)
    }
    // Reads of a regular file never wait; clearing the flag keeps the descriptor ordinary.
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return try read(
      fileDescriptor: fd, source: "'\(path)'", maxBytes: maxBytes,
      stop: stopsRegularFiles ? stop : { _ in false })
  }

  /// The path to open for the file the user named `path`: its links resolved by
  /// ``WorkspaceTrust/walk(_:user:last:othersDirectories:)``, so that it is then opened with
  /// `O_NOFOLLOW`, never through a link. Refused (``Failure/cannotOpen(path:reason:)``): a
  /// symbolic link on the way of a user other than this one and root, and a directory on the
  /// way whose entries users other than its owner, this user and root may rename (no sticky
  /// bit) — they could swap what the path names while it is read (review, s15: in a shared
  /// directory another user's link, swapped in, read root's private export into a workspace they
  /// could read). Another user's own directory is read from, as its owner could hand the file
  /// over anyway. A path that does not resolve is opened as given, with `O_NOFOLLOW`, for the
  /// system's own error.
  /// - Returns: the path to open, and whether it is the walked one (every link resolved).
  static func trustedPath(_ path: String) throws(Failure) -> (path: String, resolved: Bool) {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      return (path, false)
    #else
      let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
      let advice = "copy the file to a directory of your own and name the copy"
      switch WorkspaceTrust.walk(absolute, last: .any, othersDirectories: true) {
      case .resolved(let real): return (real, true)
      case .foreignLink(let link, let owner):
        throw .cannotOpen(
          path: path,
          reason: "\(Limits.shownPath(link)) is a symbolic link that belongs to \(FileAccessAdvice.owner(owner)), not to "
            + "this user or root, who may point it anywhere at any time, so it is not followed; \(advice)")
      case .exposed(let at, let exposure, let status):
        throw .cannotOpen(
          path: path,
          reason: "the path goes through \(Limits.shownPath(at)), which "
            + WorkspaceTrust.exposureDescription(exposure, directory: at, status: status)
            + ": they may rename anything in it, so what the path names may change while it is read; \(advice)")
      case .missing, .notADirectory, .unresolvable: return (path, false)
      }
    #endif
  }

  /// Whether the file open as `fd` is the one at `path` (absolute, every link resolved), as the
  /// kernel names it (`/proc/self/fd/N`, Linux); true where the kernel does not say.
  static func opened(_ fd: Int32, isAt path: String) -> Bool {
    #if os(Linux)
      guard path.hasPrefix("/"),
        let actual = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
      else { return true }
      return actual == path
    #else
      return true
    #endif
  }

  /// Refuses a status that is not a regular file's: ``Failure/isDirectory(path:)`` for a
  /// directory, ``Failure/notRegularFile(path:kind:)`` for anything else.
  static func requireRegular(_ status: stat, path: String) throws(Failure) {
    if FileKind.isRegular(status.st_mode) { return }
    if status.st_mode & S_IFMT == S_IFDIR { throw .isDirectory(path: path) }
    throw .notRegularFile(path: path, kind: FileKind.name(ofMode: status.st_mode))
  }

  /// A `stop` for ``read(fileDescriptor:source:maxBytes:stop:)`` that ends the read at the first
  /// NUL byte (text never holds one: `/dev/zero`, images, archives).
  /// - Complexity: O(new bytes) per call: each byte is looked at once, however long the read.
  public static func stopAtFirstNUL() -> ([UInt8]) -> Bool {
    var scanned = 0
    return { bytes in
      defer { scanned = bytes.count }
      return bytes[min(scanned, bytes.count)...].contains(0)
    }
  }
}

/// `read(2)`, callable from Swift on Glibc and Darwin.
@inline(__always)
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
