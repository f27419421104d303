import ContinuityKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the `.swift` files to analyze under files and directories, read-only.
///
/// Directory walks skip hidden entries (names starting with `.`, so `.build`, `.git` and
/// `.swiftpm` too), `.build` directories, symbolic links to directories (not followed, so no
/// cycles), and whatever the repository's ignore files exclude, with git's rules
/// (``GitignoreMatcher``): `.git/info/exclude` and every `.gitignore` from the repository root
/// down, an excluded directory hiding all it holds. Paths given explicitly are always taken (a
/// file given by name is analyzed even if ignored); rules apply below them. Files over
/// ``maximumFileBytes``, and `.swift` names that are symbolic links to nothing or round a loop,
/// or that are not regular files (a FIFO, socket or device, or a link to one: never opened, so
/// a FIFO without a writer cannot block the walk), are skipped with a notice; other files found
/// in a directory are counted (``Walk/nonSwiftCount``), not listed. A `.swift` symbolic link met
/// in a walk is followed only to a file inside the directory given, and one named explicitly
/// only to a file inside the folder holding the link; one leading outside is skipped with a
/// notice (``SkipReason/linkOutsideTree``).
///
/// Directories are listed by the bytes of their entries' names (`readdir(3)`), so a file or
/// folder whose name is not valid UTF-8 (`sub\xFE`, which Foundation lists as nothing) is walked
/// and analyzed like any other: its ``File/path`` shows each such byte as `\xHH`
/// (``SystemPath/shown(_:)``) and ``File/pathPercentEncoded`` spells the exact bytes. Ignore
/// rules match such names byte for byte, as git's do, and a `.gitignore` inside such a folder is
/// applied like any other (``GitignoreMatcher/enter(directory:)``).
public struct SourceWalker: Sendable {
  /// A Swift file to analyze.
  public struct File: Codable, Sendable, Equatable {
    /// The path: the given path, then `/`-joined names below it (relative when given relative);
    /// a byte of a name that is not part of valid UTF-8 is shown as `\xHH` (`sub\xFE/x.swift`).
    public var path: String
    /// The size in bytes.
    public var byteCount: Int
    /// Only for a path that is not valid UTF-8: its exact bytes, percent-encoded (RFC 3986,
    /// `sub%FE/x.swift`), since ``path`` shows them escaped; nil (absent in JSON) otherwise.
    public var pathPercentEncoded: String?

    /// The path's bytes as the file system holds them.
    var systemPath: [UInt8] {
      pathPercentEncoded.flatMap(SystemPath.percentDecoded) ?? Array(path.utf8)
    }
  }

  /// Why a path was not taken.
  public enum SkipReason: String, Codable, Sendable {
    /// Over ``SourceWalker/maximumFileBytes``.
    case tooLarge = "too_large"
    /// Given explicitly but not a `.swift` file.
    case notSwift = "not_swift"
    /// Does not exist.
    case missing
    /// Could not be read (permissions, a symbolic link loop, or a directory that could not be
    /// listed).
    case unreadable
    /// The file's bytes are not valid UTF-8.
    case notUTF8 = "not_utf8"
    /// A FIFO (named pipe), socket or device, or a symbolic link to one, with a `.swift` name:
    /// not opened, since reading a FIFO without a writer would wait forever.
    case notRegularFile = "not_regular_file"
    /// The file holds a NUL byte, which source text never does: a binary file, refused as
    /// `dolphin capture` refuses such input as not text.
    case binary
    /// A `.swift` symbolic link that leads to a file outside the directory given, when met in a
    /// directory walk, or outside the folder holding it, when named explicitly (a shell glob
    /// such as `proj/*.swift` names every link in the folder): `config.swift -> ~/.env`. Not
    /// followed, as git does not follow links, so a cloned repository cannot make the report
    /// print lines of files outside it.
    case linkOutsideTree = "link_outside_tree"
    /// A file reached under another name already taken (spelled two ways, through a symbolic
    /// link, or a hard link: one device and inode): it is read once, under the first name given
    /// (``Walk/files``), and each other name is skipped with a notice naming that one.
    case sameFile = "same_file"
  }

  /// A path that was not taken, with a one-line notice for the user.
  public struct Skipped: Codable, Sendable, Equatable {
    /// The path.
    public var path: String
    /// Why.
    public var reason: SkipReason
    /// For example `Sources/Big.swift: skipped, 250000 bytes is over the 200000-byte limit`.
    public var notice: String
    /// Only for a path that is not valid UTF-8 (``path`` shows its bytes as `\xHH`): its exact
    /// bytes, percent-encoded (RFC 3986); nil (absent in JSON) otherwise.
    public var pathPercentEncoded: String?

    public init(path: String, reason: SkipReason, notice: String, pathPercentEncoded: String? = nil) {
      self.path = path
      self.reason = reason
      self.notice = notice
      self.pathPercentEncoded = pathPercentEncoded
    }
  }

  /// The outcome of ``walk(_:progress:)``.
  public struct Walk: Codable, Sendable, Equatable {
    /// The files to analyze, sorted by path (byte order), without duplicates: a file reached
    /// under several names (spelled two ways, through a symbolic link, or a hard link: one
    /// device and inode) is listed once, under the first of them in the order of the paths
    /// given (then of the walk below each); each other name is in ``skipped``
    /// (``SkipReason/sameFile``).
    public var files: [File]
    /// What was left out and why, sorted by path.
    public var skipped: [Skipped]
    /// How many directory entries the ignore rules excluded (their contents not counted).
    public var ignoredCount: Int
    /// How many files found in the directories walked are not `.swift` files (not ignored, not
    /// hidden), left out without a notice each.
    public var nonSwiftCount: Int
    /// Ignore files that exist but were not read (too large, not a regular file, unreadable),
    /// with notices, sorted by path: the files they would exclude were walked.
    public var unappliedIgnoreFiles: [GitignoreMatcher.UnappliedFile] = []
  }

  /// Progress of a walk, reported after each directory.
  public struct Progress: Sendable, Equatable {
    /// Directories listed so far.
    public var directories: Int
    /// Swift files found so far.
    public var files: Int
  }

  /// The largest file taken, in bytes; default ``Limits/codeAnalysisBytes`` (200,000).
  public var maximumFileBytes: Int

  /// Creates a walker.
  /// - Parameter maximumFileBytes: files over this many bytes are skipped with a notice.
  public init(maximumFileBytes: Int = Limits.codeAnalysisBytes) {
    self.maximumFileBytes = maximumFileBytes
  }

  /// Collects the `.swift` files under `paths`.
  ///
  /// - Parameters:
  ///   - paths: files or directories, relative to the current directory or absolute.
  ///   - progress: called after each directory listed (for a progress line on a terminal).
  /// - Returns: the files sorted by path and the skipped paths with notices. Never throws:
  ///   missing or unreadable paths are reported in ``Walk/skipped``.
  /// - Complexity: O(e · p) for e directory entries and p ignore patterns in force.
  public func walk(_ paths: [String], progress: ((Progress) -> Void)? = nil) -> Walk {
    var state = State()
    for path in paths {
      var url = URL(fileURLWithPath: path)
      // A symbolic link to a directory named on the command line is followed (as `ls` does); a
      // named link to a file only when it stays inside its folder (below).
      if Self.isSymbolicLinkToDirectory(url) { url = url.resolvingSymlinksInPath() }
      // A link loop is not a missing file: the notice says which it is.
      if let problem = PathProblem.of(path) {
        state.skip(path, problem.isMissing ? .missing : .unreadable, "\(path): skipped, \(problem.description)")
        continue
      }
      guard let kind = Self.kind(of: url) else {
        state.skip(path, .missing, "\(path): skipped, no such file or directory")
        continue
      }
      switch kind {
      case .file:
        if path.hasSuffix(".swift") {
          // A link named on the command line (a shell glob, `proj/*.swift`, names every link in
          // the folder) leading out of its own folder is not followed either: the report would
          // print lines of a file the user never chose, as `config.swift -> ~/.env` (review
          // 28-b, 2). Naming the file it leads to analyzes it.
          if let target = Self.namedLinkTargetOutside(path) {
            let advice = target.hasSuffix(".swift") ? "; name \(target) itself to analyze it" : ""
            state.skip(
              path, .linkOutsideTree,
              "\(path): skipped, a symbolic link to \(target), outside the folder holding the link (not followed\(advice))",
              bytes: Array(path.utf8))
          } else {
            take(path, url: url, into: &state)
          }
        } else {
          state.skip(path, .notSwift, "\(path): skipped, not a .swift file")
        }
      case .directory:
        let root = GitignoreMatcher.repositoryRoot(containing: url) ?? url.standardizedFileURL
        var matcher = GitignoreMatcher(root: root)
        let relative = Self.relativePath(of: url.standardizedFileURL, to: root)
        var prefix = ""
        for component in relative.split(separator: "/") {
          prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
          matcher.enter(directory: prefix)
        }
        let tree = SystemPath.resolved(Array(url.path.utf8)) ?? Array(url.resolvingSymlinksInPath().path.utf8)
        visit(
          Directory(system: Array(url.path.utf8), given: Array(path.utf8), display: path), relative: Array(relative.utf8),
          matcher: matcher, tree: tree, state: &state, progress: progress)
      case .special(let what):
        state.skip(path, .notRegularFile, "\(path): skipped, \(what), not a regular file")
      case .other:
        state.skip(path, .notSwift, "\(path): skipped, not a regular file or directory")
      }
    }
    // One file named two ways (`a.swift`, `./a.swift`, an absolute path, a link, a hard link) is
    // read once, under the first name the user gave it: duplicates are dropped in the order of
    // `paths` (and of the walk below each), before sorting. Each other name is said to be
    // skipped, naming the one taken (review 28-d, 9: `proj/*.swift` with three links to one
    // file reported one file under the first link's name and nothing of the others).
    var firstName: [String: File] = [:]
    var unique: [File] = []
    for file in state.files {
      let identity = Self.identity(of: file)
      if let kept = firstName[identity] {
        let notice =
          kept.path == file.path
          ? "\(file.path): skipped, named more than once (a file is read once)"
          : "\(file.path): skipped, the same file as \(kept.path) (a file is read once, under the first name given)"
        state.skipped.append(
          Skipped(path: file.path, reason: .sameFile, notice: notice, pathPercentEncoded: file.pathPercentEncoded))
      } else {
        firstName[identity] = file
        unique.append(file)
      }
    }
    let files = unique.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    let skipped = state.skipped.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    let unapplied = state.unapplied.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    return Walk(
      files: files, skipped: skipped, ignoredCount: state.ignoredCount,
      nonSwiftCount: state.nonSwiftCount, unappliedIgnoreFiles: unapplied)
  }

  /// What makes two names one file: its device and inode (`stat(2)`, following symbolic links),
  /// so that hard links, symbolic links and other spellings of one file compare equal; the
  /// path with `.`, `..` and links resolved when `stat` fails.
  static func identity(of file: File) -> String {
    if case .success(let status) = SystemPath.status(file.systemPath) { return "inode \(status.st_dev):\(status.st_ino)" }
    return URL(fileURLWithPath: file.path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  struct State {
    var files: [File] = []
    var skipped: [Skipped] = []
    var ignoredCount = 0
    var nonSwiftCount = 0
    var directories = 0
    var unapplied: [GitignoreMatcher.UnappliedFile] = []
    var unappliedPaths = Set<String>()

    mutating func skip(_ path: String, _ reason: SkipReason, _ notice: String, bytes: [UInt8]? = nil) {
      let encoded = bytes.flatMap { String(validating: $0, as: UTF8.self) == nil ? SystemPath.percentEncoded($0) : nil }
      skipped.append(Skipped(path: path, reason: reason, notice: notice, pathPercentEncoded: encoded))
    }

    /// Records the ignore files `matcher` could not read, each once however often it is met.
    mutating func note(_ matcher: GitignoreMatcher) {
      for file in matcher.unappliedFiles where unappliedPaths.insert(file.path).inserted {
        unapplied.append(file)
      }
    }
  }

  enum Kind {
    case file, directory
    /// A FIFO, socket or device, or a symbolic link to one; `what` in words (`a FIFO (named
    /// pipe)`).
    case special(what: String)
    /// A symbolic link to a directory (not followed in a walk), to nothing, or round a loop.
    case other
  }

  /// Whether `url` is a symbolic link whose target is a directory.
  static func isSymbolicLinkToDirectory(_ url: URL) -> Bool {
    guard (try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeSymbolicLink
    else { return false }
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
  }

  /// The kind of `url` without following a final symbolic link to a directory; a link to a
  /// regular file counts as a file, a link to a FIFO, socket or device as what it leads to.
  /// Only `lstat(2)` and `stat(2)` are called: nothing is opened.
  static func kind(of url: URL) -> Kind? {
    var link = stat()
    guard lstat(url.path, &link) == 0 else { return nil }
    var status = link
    if link.st_mode & S_IFMT == S_IFLNK {
      // A link to nothing or round a loop: the caller says which (``PathProblem``).
      guard stat(url.path, &status) == 0 else { return .other }
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return link.st_mode & S_IFMT == S_IFLNK ? .other : .directory
    default: return .special(what: FileKind.name(ofMode: status.st_mode))
    }
  }

  /// ``kind(of:)`` for a path given as the bytes the file system holds.
  static func kind(ofSystemPath path: [UInt8]) -> Kind? {
    guard let link = SystemPath.linkStatus(path) else { return nil }
    var status = link
    if link.st_mode & S_IFMT == S_IFLNK {
      guard case .success(let target) = SystemPath.status(path) else { return .other }
      status = target
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return link.st_mode & S_IFMT == S_IFLNK ? .other : .directory
    default: return .special(what: FileKind.name(ofMode: status.st_mode))
    }
  }

  /// `url`'s path relative to `root` (`""` when equal), assuming `root` contains it.
  static func relativePath(of url: URL, to root: URL) -> String {
    let path = url.resolvingSymlinksInPath().path
    let base = root.resolvingSymlinksInPath().path
    guard path.hasPrefix(base) else { return "" }
    let relative = path.dropFirst(base.count)
    return String(relative).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
  }

  static func join(_ directory: String, _ name: String) -> String {
    if directory == "." { return name }
    return directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  func take(_ path: String, url: URL, into state: inout State) {
    take(path, systemPath: Array(url.path.utf8), givenAs: Array(path.utf8), into: &state)
  }

  /// Takes the file at `systemPath` (bytes), shown as `path` and named `given` (the path's
  /// bytes as the user's path and the names below it spell it).
  func take(_ path: String, systemPath: [UInt8], givenAs given: [UInt8], into state: inout State) {
    // `stat`, following a symbolic link: the size of the file it leads to, not of the link.
    guard case .success(let status) = SystemPath.status(systemPath) else {
      state.skip(path, .unreadable, "\(path): skipped, cannot read its size", bytes: given)
      return
    }
    let size = Int(status.st_size)
    if size > maximumFileBytes {
      state.skip(
        path, .tooLarge,
        "\(path): skipped, \(size) bytes is over the \(maximumFileBytes)-byte code analysis limit", bytes: given)
      return
    }
    let encoded = String(validating: given, as: UTF8.self) == nil ? SystemPath.percentEncoded(given) : nil
    state.files.append(File(path: path, byteCount: size, pathPercentEncoded: encoded))
  }

  /// A directory being walked: its path for system calls (absolute), as the user's path and
  /// the names below it spell it (bytes), and as messages show it.
  struct Directory {
    var system: [UInt8]
    var given: [UInt8]
    var display: String

    /// The entry `name` of this directory.
    func appending(_ name: [UInt8]) -> Directory {
      Directory(
        system: Self.join(system, name), given: given == Array(".".utf8) ? name : Self.join(given, name),
        display: SourceWalker.join(display, SystemPath.shown(name)))
    }

    private static func join(_ directory: [UInt8], _ name: [UInt8]) -> [UInt8] {
      directory.last == UInt8(ascii: "/") ? directory + name : directory + [UInt8(ascii: "/")] + name
    }
  }

  /// Walks `directory`, listing it by the bytes of its entries' names; `relative` is its path
  /// below the matcher's root, `tree` the resolved path of the directory given, inside which
  /// symbolic links to files are followed.
  func visit(
    _ directory: Directory, relative: [UInt8], matcher: GitignoreMatcher, tree: [UInt8],
    state: inout State, progress: ((Progress) -> Void)?
  ) {
    let display = directory.display
    guard let names = SystemPath.directoryEntries(directory.system) else {
      state.skip(display, .unreadable, "\(display): skipped, cannot list the directory", bytes: directory.given)
      return
    }
    state.directories += 1
    state.note(matcher)
    let swift = Array(".swift".utf8)
    var subdirectories: [(entry: Directory, relative: [UInt8])] = []
    for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      if name.first == UInt8(ascii: ".") { continue }
      let entry = directory.appending(name)
      guard let kind = Self.kind(ofSystemPath: entry.system) else { continue }
      let childRelative = relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name
      let isSwift = name.count > swift.count && name.suffix(swift.count).elementsEqual(swift)
      switch kind {
      case .directory:
        if matcher.excludes(bytes: childRelative, isDirectory: true) {
          state.ignoredCount += 1
        } else {
          subdirectories.append((entry, childRelative))
        }
      case .file:
        if matcher.excludes(bytes: childRelative, isDirectory: false) {
          state.ignoredCount += 1
        } else if isSwift {
          if let target = Self.linkTargetOutside(entry.system, tree: tree) {
            state.skip(
              entry.display, .linkOutsideTree,
              "\(entry.display): skipped, a symbolic link to \(target), outside the directory analyzed (not followed)",
              bytes: entry.given)
          } else {
            take(entry.display, systemPath: entry.system, givenAs: entry.given, into: &state)
          }
        } else {
          state.nonSwiftCount += 1
        }
      case .special(let what):
        // A `.swift` name reads as a source file: say why it is not analyzed (it is never opened,
        // so a FIFO cannot block the walk). Other sockets, FIFOs and devices are passed over.
        guard isSwift else { continue }
        if matcher.excludes(bytes: childRelative, isDirectory: false) {
          state.ignoredCount += 1
        } else {
          state.skip(entry.display, .notRegularFile, "\(entry.display): skipped, \(what), not a regular file", bytes: entry.given)
        }
      case .other:
        // A `.swift` name that is a symbolic link to nothing, or round a loop, reads as a source
        // file: say why it is not analyzed. Links to directories are not source files and are
        // passed over.
        guard isSwift, let problem = PathProblem.of(pathBytes: entry.system) else { continue }
        if matcher.excludes(bytes: childRelative, isDirectory: false) {
          state.ignoredCount += 1
        } else {
          state.skip(
            entry.display, problem.isMissing ? .missing : .unreadable, "\(entry.display): skipped, \(problem.description)",
            bytes: entry.given)
        }
      }
    }
    progress?(Progress(directories: state.directories, files: state.files.count))
    for (entry, childRelative) in subdirectories {
      var inner = matcher
      inner.enter(directoryBytes: childRelative)
      visit(entry, relative: childRelative, matcher: inner, tree: tree, state: &state, progress: progress)
    }
  }

  /// The resolved target of `path`, a file named on the command line, when it is a symbolic
  /// link leading outside the folder that holds it (the folder resolved too, so `proj/a.swift ->
  /// b.swift` stays inside even when `proj` is itself a link), as messages show it; nil for a
  /// file that is no link or whose link stays inside that folder or below it.
  static func namedLinkTargetOutside(_ path: String) -> String? {
    let bytes = Array(path.utf8)
    let slash = UInt8(ascii: "/")
    let folder: [UInt8] =
      switch bytes.lastIndex(of: slash) {
      case nil: Array(".".utf8)
      case 0: [slash]
      case let index?: Array(bytes[..<index])
      }
    guard let tree = SystemPath.resolved(folder) else { return nil }
    return linkTargetOutside(bytes, tree: tree)
  }

  /// The resolved target of `path` (bytes) when it is a symbolic link leading outside `tree` (a
  /// resolved directory path), as messages show it; nil for a file that is no link or whose link
  /// stays inside.
  static func linkTargetOutside(_ path: [UInt8], tree: [UInt8]) -> String? {
    guard let link = SystemPath.linkStatus(path), link.st_mode & S_IFMT == S_IFLNK,
      let target = SystemPath.resolved(path)
    else { return nil }
    let slash = UInt8(ascii: "/")
    let inside =
      tree == [slash] || target == tree || target.starts(with: tree.last == slash ? tree : tree + [slash])
    return inside ? nil : SystemPath.shown(target)
  }
}
