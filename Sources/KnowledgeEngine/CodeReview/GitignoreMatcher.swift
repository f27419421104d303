import ContinuityKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ignore rules in force at one place of a repository walk: the patterns of
/// `.git/info/exclude` and of every `.gitignore` from the repository root down to the current
/// directory.
///
/// Precedence follows gitignore(5): a deeper `.gitignore` beats a shallower one, any
/// `.gitignore` beats `.git/info/exclude`, and within a file the last matching line wins. A path
/// whose parent directory is excluded is excluded too and cannot be re-included; ``SourceWalker``
/// gets that by not descending into excluded directories, and ``isIgnored(_:isDirectory:)``
/// checks every ancestor. The user's global `core.excludesFile` is not read.
public struct GitignoreMatcher: Sendable, Equatable {
  /// An ignore file that exists but whose rules are not in force, and why: the files it would
  /// exclude are walked and analyzed.
  public struct UnappliedFile: Codable, Sendable, Equatable {
    /// Why an ignore file was not read.
    public enum Reason: String, Codable, Sendable {
      /// Over ``GitignoreMatcher/maximumIgnoreFileBytes``.
      case tooLarge = "too_large"
      /// A FIFO, socket or device (never opened, so that a FIFO cannot block the walk), or a
      /// directory.
      case notRegularFile = "not_regular_file"
      /// It could not be opened or read (permissions, a symbolic link loop).
      case unreadable
    }

    /// The ignore file's path (the repository root's path, then the path below it), each byte of
    /// a directory name that is not part of valid UTF-8 written `\xHH` (``SystemPath/shown(_:)``).
    public var path: String
    /// Why it was not read.
    public var reason: Reason
    /// For example `/repo/.gitignore: not applied, it is 16777216 bytes, over the 8388608-byte
    /// limit for ignore files; the files it would exclude are analyzed`.
    public var notice: String

    /// Makes a record.
    public init(path: String, reason: Reason, notice: String) {
      self.path = path
      self.reason = reason
      self.notice = notice
    }
  }

  /// The repository root (the directory holding `.git`), or the walk root outside a repository.
  public let root: URL
  /// The ignore files read, lowest precedence first, each with its patterns indexed.
  private var files: [IgnoreFilePatterns] = []
  /// Directories whose `.gitignore` has been loaded, relative to the root (`""` for the root),
  /// each byte of a name that is not part of valid UTF-8 written `\xHH`.
  public private(set) var loadedDirectories: [String] = []
  /// Ignore files met so far (along the directories entered) that exist but could not be read,
  /// in the order met.
  public private(set) var unappliedFiles: [UnappliedFile] = []

  /// The patterns in force, lowest precedence first.
  public var patterns: [GitignorePattern] { files.flatMap(\.patterns) }

  /// Starts with `.git/info/exclude` (when present) and the root's `.gitignore`.
  public init(root: URL) {
    self.root = root.standardizedFileURL
    load(Array(".git/info/exclude".utf8), base: [])
    enter(directory: "")
  }

  /// Finds the repository holding `url` (the nearest ancestor with a `.git` entry).
  /// - Returns: that directory, or `nil` outside a repository.
  public static func repositoryRoot(containing url: URL) -> URL? {
    var directory = url.standardizedFileURL
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    {
      directory.deleteLastPathComponent()
    }
    while true {
      if FileManager.default.fileExists(atPath: directory.appendingPathComponent(".git").path) {
        return directory
      }
      let parent = directory.deletingLastPathComponent()
      if parent.path == directory.path { return nil }
      directory = parent
    }
  }

  /// Adds the patterns of one ignore file whose directory is `base`.
  ///
  /// - Parameters:
  ///   - contents: the file's text (a UTF-8 byte-order mark is skipped).
  ///   - base: its directory relative to ``root`` (`""` for the root).
  ///   - origin: its path for messages, e.g. `Sources/.gitignore`.
  public mutating func add(contents: String, base: String, origin: String) {
    add(bytes: Array(contents.utf8), base: Array(base.utf8), origin: origin)
  }

  /// Adds the patterns of one ignore file given as bytes, in any encoding, as git reads them,
  /// whose directory is `base` (bytes, which need not be UTF-8).
  mutating func add(bytes contents: [UInt8], base: [UInt8], origin: String) {
    var bytes = contents[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    // Split on bytes: as `Character`s, "\r\n" is one grapheme and would not split on "\n".
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    var parsed: [GitignorePattern] = []
    for (index, line) in lines.enumerated() {
      if let pattern = GitignorePattern(bytes: Array(line), base: base, origin: "\(origin):\(index + 1)") {
        parsed.append(pattern)
      }
    }
    if !parsed.isEmpty { files.append(IgnoreFilePatterns(parsed, base: base)) }
  }

  /// Loads the `.gitignore` of `directory` (relative to ``root``), if it has one.
  ///
  /// An ignore file that exists but cannot be read (over ``maximumIgnoreFileBytes``, not a
  /// regular file, unreadable) is recorded in ``unappliedFiles``; one that is not UTF-8 is read
  /// as bytes, as git does.
  /// - Returns: the ignore file not applied, if there is one.
  @discardableResult
  public mutating func enter(directory: String) -> UnappliedFile? {
    enter(directoryBytes: Array(directory.utf8))
  }

  /// Loads the `.gitignore` of the directory at `relative` (below ``root``, as the file system
  /// holds the name: bytes, which need not be UTF-8) as ``enter(directory:)`` does.
  ///
  /// A `.gitignore` below a folder whose name is not UTF-8 (`lib\xC3(/.gitignore`) is applied
  /// like any other: its patterns and the paths below its folder are matched byte for byte, as
  /// git matches them, so a pattern (`*.swift`, `/kept.swift`) matches the path below the
  /// folder whatever bytes the folder's own name holds, and so does a pattern that is itself
  /// not UTF-8.
  /// - Returns: the ignore file not applied, if there is one.
  @discardableResult
  mutating func enter(directoryBytes relative: [UInt8]) -> UnappliedFile? {
    loadedDirectories.append(SystemPath.shown(relative))
    return load(relative.isEmpty ? Array(".gitignore".utf8) : relative + Array("/.gitignore".utf8), base: relative)
  }

  /// Reads the ignore file at `file` (bytes, relative to ``root``) and adds its patterns, or
  /// records why it could not be read.
  @discardableResult
  private mutating func load(_ file: [UInt8], base: [UInt8]) -> UnappliedFile? {
    let rootBytes = Array(root.path.utf8)
    let path = rootBytes.last == UInt8(ascii: "/") ? rootBytes + file : rootBytes + [UInt8(ascii: "/")] + file
    switch Self.readIgnoreFile(atPathBytes: path) {
    case .absent: return nil
    case .read(let bytes):
      add(bytes: bytes, base: base, origin: SystemPath.shown(file))
      return nil
    case .unapplied(let unapplied):
      unappliedFiles.append(unapplied)
      return unapplied
    }
  }

  /// The largest ignore file read, in bytes: far more than any real one holds (200,000 patterns
  /// take about 4 MB).
  public static let maximumIgnoreFileBytes = 8 * 1024 * 1024

  /// What reading an ignore file gave.
  enum IgnoreFileRead: Equatable {
    /// There is none: git reads nothing then either.
    case absent
    /// Its bytes.
    case read([UInt8])
    /// It exists but was not read.
    case unapplied(UnappliedFile)
  }

  /// Reads the ignore file at `path`, given as the bytes the file system holds, which need not
  /// be UTF-8 (`/repo/lib\xC3(/.gitignore`): its bytes, or why it was not read: not a regular
  /// file (a FIFO named `.gitignore` would block the walk forever; it is refused without being
  /// opened for reading), over ``maximumIgnoreFileBytes``, or unreadable. Notices name it with
  /// ``SystemPath/shown(_:)``.
  static func readIgnoreFile(atPathBytes path: [UInt8]) -> IgnoreFileRead {
    guard let link = SystemPath.linkStatus(path) else { return .absent }
    let shown = SystemPath.shown(path)
    func unapplied(_ reason: UnappliedFile.Reason, _ why: String) -> IgnoreFileRead {
      .unapplied(
        UnappliedFile(
          path: shown, reason: reason,
          notice: "\(shown): not applied, \(why); the files it would exclude are analyzed"))
    }
    // Refused from its status, never opened: a FIFO or device named `.gitignore`, or a link to one.
    if case .success(let target) = SystemPath.status(path), !FileKind.isRegular(target.st_mode) {
      return target.st_mode & S_IFMT == S_IFDIR
        ? unapplied(.notRegularFile, "it is a directory, not a file")
        : unapplied(.notRegularFile, "it is \(FileKind.name(ofMode: target.st_mode)), not a regular file")
    }
    do {
      let read = try BoundedInput.readFile(atPathBytes: path, shownAs: shown, maxBytes: maximumIgnoreFileBytes)
      if read.truncated {
        return unapplied(
          .tooLarge, "it is more than \(maximumIgnoreFileBytes) bytes, the limit for ignore files")
      }
      return .read(read.bytes)
    } catch {
      switch error {
      case .tooLarge(_, let size, let maxBytes):
        return unapplied(.tooLarge, "it is \(size) bytes, over the \(maxBytes)-byte limit for ignore files")
      case .isDirectory:
        return unapplied(.notRegularFile, "it is a directory, not a file")
      case .notRegularFile(_, let kind):
        return unapplied(.notRegularFile, "it is \(kind), not a regular file")
      case .cannotOpen(_, let reason), .readFailed(_, let reason):
        // A link to nothing fails to open as a loop would (O_NOFOLLOW's ELOOP): said as what it
        // is (review 18-d).
        if (link.st_mode & S_IFMT) == S_IFLNK {
          guard case .success = SystemPath.status(path) else { return unapplied(.unreadable, "it is a symbolic link to nothing") }
          return unapplied(.unreadable, "it is a symbolic link, which is not followed")
        }
        return unapplied(.unreadable, "it cannot be read (\(reason))")
      }
    }
  }

  /// The last pattern matching `path` by itself, or `nil` (parents not consulted).
  /// - Complexity: for each ignore file in force, a few dictionary look-ups per byte length of
  ///   its literal pattern parts, then one glob match per pattern that can match
  ///   (``IgnoreFilePatterns``); patterns with no literal part (`*`) are tried for every path.
  public func lastMatch(_ path: String, isDirectory: Bool) -> GitignorePattern? {
    lastMatch(bytes: Array(path.utf8), isDirectory: isDirectory)
  }

  /// The last pattern matching the path given as bytes (which need not be UTF-8: patterns match
  /// bytes, as git's do), or `nil`.
  func lastMatch(bytes: [UInt8], isDirectory: Bool) -> GitignorePattern? {
    for file in files.reversed() {
      if let match = file.lastMatch(bytes, isDirectory: isDirectory) { return match }
    }
    return nil
  }

  /// Whether the patterns in force exclude `path` by itself (parents not consulted).
  public func excludes(_ path: String, isDirectory: Bool) -> Bool {
    lastMatch(path, isDirectory: isDirectory).map { !$0.isNegated } ?? false
  }

  /// Whether the patterns in force exclude the path given as bytes (which need not be UTF-8).
  func excludes(bytes path: [UInt8], isDirectory: Bool) -> Bool {
    lastMatch(bytes: path, isDirectory: isDirectory).map { !$0.isNegated } ?? false
  }

  /// Whether git would ignore `path`, reading the `.gitignore` files along it: `path` or one
  /// of its ancestor directories is excluded.
  ///
  /// - Parameters:
  ///   - path: relative to ``root``, `/`-separated.
  ///   - isDirectory: whether `path` itself is a directory.
  public static func isIgnored(_ path: String, isDirectory: Bool, root: URL) -> Bool {
    var matcher = GitignoreMatcher(root: root)
    let components = path.split(separator: "/").map(String.init)
    var prefix = ""
    for component in components.dropLast() {
      prefix = prefix.isEmpty ? component : prefix + "/" + component
      if matcher.excludes(prefix, isDirectory: true) { return true }
      matcher.enter(directory: prefix)
    }
    return matcher.excludes(path, isDirectory: isDirectory)
  }
}
