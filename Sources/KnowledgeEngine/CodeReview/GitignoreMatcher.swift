import ContinuityKit
import Foundation

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
  /// The repository root (the directory holding `.git`), or the walk root outside a repository.
  public let root: URL
  /// The patterns in force, lowest precedence first.
  public private(set) var patterns: [GitignorePattern] = []
  /// Directories whose `.gitignore` has been loaded, relative to the root (`""` for the root).
  public private(set) var loadedDirectories: [String] = []

  /// Starts with `.git/info/exclude` (when present) and the root's `.gitignore`.
  public init(root: URL) {
    self.root = root.standardizedFileURL
    if let exclude = Self.ignoreFileText(self.root.appendingPathComponent(".git/info/exclude")) {
      add(contents: exclude, base: "", origin: ".git/info/exclude")
    }
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
    var bytes = Array(contents.utf8)[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    // Split on bytes: as `Character`s, "\r\n" is one grapheme and would not split on "\n".
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
      let text = String(decoding: line, as: UTF8.self)
      if let pattern = GitignorePattern(line: text, base: base, origin: "\(origin):\(index + 1)") {
        patterns.append(pattern)
      }
    }
  }

  /// Loads the `.gitignore` of `directory` (relative to ``root``), if it has one.
  public mutating func enter(directory: String) {
    loadedDirectories.append(directory)
    let file = directory.isEmpty ? ".gitignore" : directory + "/.gitignore"
    if let contents = Self.ignoreFileText(root.appendingPathComponent(file)) {
      add(contents: contents, base: directory, origin: file)
    }
  }

  /// The largest ignore file read, in bytes: far more than any real one holds.
  static let maximumIgnoreFileBytes = 8 * 1024 * 1024

  /// The text of the ignore file at `url`, or nil when there is none to read: missing, not a
  /// regular file (a FIFO named `.gitignore` would block the walk forever; it is refused without
  /// being opened for reading), over ``maximumIgnoreFileBytes``, unreadable, or not UTF-8.
  static func ignoreFileText(_ url: URL) -> String? {
    guard let read = try? BoundedInput.readFile(atPath: url.path, maxBytes: maximumIgnoreFileBytes),
      !read.truncated
    else { return nil }
    return String(validating: read.bytes, as: UTF8.self)
  }

  /// The last pattern matching `path` by itself, or `nil` (parents not consulted).
  /// - Complexity: O(p) pattern matches for p patterns in force.
  public func lastMatch(_ path: String, isDirectory: Bool) -> GitignorePattern? {
    patterns.last { $0.matches(path, isDirectory: isDirectory) }
  }

  /// Whether the patterns in force exclude `path` by itself (parents not consulted).
  public func excludes(_ path: String, isDirectory: Bool) -> Bool {
    lastMatch(path, isDirectory: isDirectory).map { !$0.isNegated } ?? false
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
