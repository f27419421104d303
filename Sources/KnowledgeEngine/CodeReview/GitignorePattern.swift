import ContinuityKit

/// One pattern line of a `.gitignore` file, parsed as git does (gitignore(5)).
///
/// - A line starting with `#` is a comment; `\#` and `\!` escape a leading `#` or `!`.
/// - Trailing spaces are dropped unless escaped with `\`; a trailing `\r` is dropped.
/// - `!` negates: a matching path is re-included (unless a parent directory is excluded).
/// - A trailing `/` matches directories only.
/// - A `/` at the start or in the middle anchors the pattern to the directory of its
///   `.gitignore`; otherwise it matches a name at any depth below that directory.
/// - `*`, `?`, `[…]` and `**` follow git's wildmatch (``Wildmatch``).
public struct GitignorePattern: Sendable, Equatable, CustomStringConvertible {
  /// The pattern as written (after trailing-space trimming), e.g. `!/build/keep/`.
  public var text: String
  /// The directory of the `.gitignore` holding the pattern, relative to the repository root,
  /// without leading or trailing `/` (`""` for the root). A directory name that is not valid
  /// UTF-8 is shown with each such byte written `\xHH` (`lib\xC3(`); matching uses the exact
  /// bytes. Setting it sets the directory to the UTF-8 bytes of the text given.
  public var base: String {
    get { SystemPath.shown(baseBytes) }
    set { baseBytes = Array(newValue.utf8) }
  }
  /// The directory of the `.gitignore`, as the bytes the file system holds (need not be UTF-8).
  private(set) var baseBytes: [UInt8]
  /// Where the pattern comes from, e.g. `Sources/.gitignore:3`.
  public var origin: String
  /// Whether the pattern starts with `!` (re-includes).
  public var isNegated: Bool
  /// Whether the pattern ends with `/` (matches directories only).
  public var isDirectoryOnly: Bool
  /// Whether the pattern holds no `/` except a trailing one: it then matches the last path
  /// component at any depth below ``base``.
  public var matchesBasename: Bool
  /// The glob, without `!`, the trailing `/` and a leading `/`.
  var glob: [UInt8]

  /// Parses one line; `nil` for blank lines and comments.
  ///
  /// - Parameters:
  ///   - line: the line, without its `\n`.
  ///   - base: the `.gitignore`'s directory relative to the repository root (`""` for the root).
  ///   - origin: a label for messages, e.g. `.gitignore:3`.
  public init?(line: String, base: String, origin: String) {
    self.init(bytes: Array(line.utf8), base: Array(base.utf8), origin: origin)
  }

  /// Parses one line given as bytes, as git reads ignore files: any encoding, matched byte for
  /// byte (``text`` shows bytes that are not UTF-8 as U+FFFD), for the `.gitignore` in the
  /// directory `base` (bytes, which need not be UTF-8: a folder `lib\xC3(` found by the walk).
  init?(bytes line: [UInt8], base: [UInt8], origin: String) {
    var bytes = line
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    if bytes.first == UInt8(ascii: "#") { return nil }
    bytes = Self.trimmingTrailingSpaces(bytes)
    if bytes.isEmpty { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    var negated = false
    if bytes.first == UInt8(ascii: "!") {
      negated = true
      bytes.removeFirst()
    }
    var directoryOnly = false
    if bytes.last == UInt8(ascii: "/") {
      directoryOnly = true
      bytes.removeLast()
    }
    let basename = !bytes.contains(UInt8(ascii: "/"))
    if !basename, bytes.first == UInt8(ascii: "/") { bytes.removeFirst() }
    if bytes.isEmpty { return nil }
    self.text = text
    self.baseBytes = base
    self.origin = origin
    self.isNegated = negated
    self.isDirectoryOnly = directoryOnly
    self.matchesBasename = basename
    self.glob = bytes
  }

  /// git's `trim_trailing_spaces`: drops unescaped trailing spaces (not tabs).
  static func trimmingTrailingSpaces(_ bytes: [UInt8]) -> [UInt8] {
    var lastSpace: Int?
    var i = 0
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: " "):
        if lastSpace == nil { lastSpace = i }
      case UInt8(ascii: "\\"):
        i += 1
        if i == bytes.count { return bytes }
        lastSpace = nil
      default:
        lastSpace = nil
      }
      i += 1
    }
    if let lastSpace { return Array(bytes[..<lastSpace]) }
    return bytes
  }

  /// Whether the pattern matches `path` by itself (negation not applied, parents not
  /// consulted).
  ///
  /// - Parameters:
  ///   - path: relative to the repository root, `/`-separated, no leading or trailing `/`.
  ///   - isDirectory: whether `path` is a directory (symbolic links are not).
  /// - Returns: `false` for paths not strictly below ``base``.
  public func matches(_ path: String, isDirectory: Bool) -> Bool {
    matches(pathBytes: Array(path.utf8), isDirectory: isDirectory)
  }

  /// ``matches(_:isDirectory:)`` for a path already in UTF-8 bytes, so that a caller trying many
  /// patterns on one path converts it once.
  func matches(pathBytes bytes: [UInt8], isDirectory: Bool) -> Bool {
    if isDirectoryOnly && !isDirectory { return false }
    var relativeStart = 0
    if !baseBytes.isEmpty {
      guard bytes.count > baseBytes.count, bytes[baseBytes.count] == UInt8(ascii: "/"),
        bytes.starts(with: baseBytes)
      else { return false }
      relativeStart = baseBytes.count + 1
    }
    if matchesBasename {
      let nameStart = (bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 }) ?? 0
      let name = Array(bytes[max(nameStart, relativeStart)...])
      return Wildmatch.matches(glob, name, pathname: false)
    }
    return Wildmatch.matches(glob, Array(bytes[relativeStart...]), pathname: true)
  }

  /// ``text`` and ``origin``.
  public var description: String { "\(origin): \(text)" }
}
