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
/// `yes |`, `/dev/zero` or a FIFO never comes. Here a regular file larger than the bound is
/// refused from its size before a byte is read, and every source (pipes and devices report no
/// useful size) is read in chunks that stop one byte past the bound.
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
    /// A regular file of `size` bytes, over the bound; it was not read.
    case tooLarge(path: String, size: Int64, maxBytes: Int)
    /// `read(2)` failed part-way.
    case readFailed(source: String, reason: String)

    public var description: String {
      switch self {
      case .cannotOpen(let path, let reason): return "cannot read '\(path)': \(reason)"
      case .isDirectory(let path): return "'\(path)' is a directory, not a file"
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

  /// Reads the file at `path` like ``read(fileDescriptor:source:maxBytes:stop:)``, refusing a
  /// regular file larger than `maxBytes` from its size, before reading it.
  ///
  /// By default a regular file within the bound is read whole (so sizes and counts are exact)
  /// and `stop` applies only to the sources whose size is unknown until read — FIFOs, devices,
  /// `/dev/zero`. With `stopsRegularFiles`, `stop` ends the read of a regular file too (a large
  /// file of NUL bytes is refused after one chunk, not read up to the bound).
  /// - Throws: ``Failure``.
  public static func readFile(
    atPath path: String, maxBytes: Int, stopsRegularFiles: Bool = false, stop: ([UInt8]) -> Bool = { _ in false }
  ) throws(Failure) -> Result {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      let reason = code == ENOENT ? "no such file" : SystemErrorCause.describe(code)
      throw .cannotOpen(path: path, reason: reason)
    }
    defer { close(fd) }
    var st = stat()
    var regular = false
    if fstat(fd, &st) == 0 {
      if (st.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: path) }
      regular = (st.st_mode & S_IFMT) == S_IFREG
      if regular, Int64(st.st_size) > Int64(maxBytes) {
        throw .tooLarge(path: path, size: Int64(st.st_size), maxBytes: maxBytes)
      }
    }
    return try read(
      fileDescriptor: fd, source: "'\(path)'", maxBytes: maxBytes,
      stop: regular && !stopsRegularFiles ? { _ in false } : stop)
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
