/// The patterns of one ignore file (all with one ``GitignorePattern/base``), indexed so that a
/// path is tried only against the patterns that can match it.
///
/// A glob that starts with literal bytes (up to its first `*`, `?`, `[` or `\`) can only match
/// text that starts with them; one that ends with literal bytes can only match text that ends
/// with them. Patterns are filed under their literal prefix, else their literal suffix, in four
/// tables (basename patterns keyed on the path's last component, anchored ones on the path
/// below ``baseBytes``); the rest (`*`, `**/x*`, …) are tried for every path. The answer is exactly
/// what trying every pattern gives (gitignore(5): the last matching line wins): the index only
/// leaves out patterns that cannot match. A `.gitignore` of 200,000 `name_*.swift` lines is then
/// a few dictionary look-ups per path, not 200,000 glob matches.
struct IgnoreFilePatterns: Sendable, Equatable {
  /// The patterns, in file order.
  let patterns: [GitignorePattern]
  /// The ignore file's directory relative to the repository root (`[]` for the root), as the
  /// bytes the file system holds (need not be UTF-8).
  let baseBytes: [UInt8]
  private var namePrefixes = LiteralTable()
  private var nameSuffixes = LiteralTable()
  private var pathPrefixes = LiteralTable()
  private var pathSuffixes = LiteralTable()
  /// Indices of patterns with neither a literal prefix nor suffix, ascending.
  private var unindexed: [Int] = []

  /// Indexes `patterns`, which must all have the base `base` (bytes).
  /// - Complexity: O(n · k) for n patterns of at most k bytes.
  init(_ patterns: [GitignorePattern], base: [UInt8]) {
    self.patterns = patterns
    self.baseBytes = base
    for (index, pattern) in patterns.enumerated() {
      let prefix = Self.literalPrefix(pattern.glob)
      let suffix = prefix.isEmpty ? Self.literalSuffix(pattern.glob) : []
      switch (pattern.matchesBasename, !prefix.isEmpty, !suffix.isEmpty) {
      case (true, true, _): namePrefixes.add(prefix, index)
      case (true, false, true): nameSuffixes.add(suffix, index)
      case (false, true, _): pathPrefixes.add(prefix, index)
      case (false, false, true): pathSuffixes.add(suffix, index)
      default: unindexed.append(index)
      }
    }
  }

  /// The bytes a glob's matches all start with: up to its first special byte, without a
  /// trailing `/` (so that `**` after it, which may match no directory, is never relied on).
  static func literalPrefix(_ glob: [UInt8]) -> [UInt8] {
    var end = glob.firstIndex(where: isSpecial) ?? glob.endIndex
    if end > 0, glob[end - 1] == UInt8(ascii: "/") { end -= 1 }
    return Array(glob[..<end])
  }

  /// The bytes a glob's matches all end with: after its last special byte (or `]`), without a
  /// leading `/` (`**/x` matches `x`, which does not end with `/x`).
  static func literalSuffix(_ glob: [UInt8]) -> [UInt8] {
    var start =
      glob.lastIndex(where: { isSpecial($0) || $0 == UInt8(ascii: "]") }).map { $0 + 1 } ?? 0
    if start < glob.endIndex, glob[start] == UInt8(ascii: "/") { start += 1 }
    return Array(glob[start...])
  }

  private static func isSpecial(_ byte: UInt8) -> Bool { Wildmatch.isGlobSpecial(byte) }

  /// The last pattern matching `path` (bytes, relative to the repository root), or `nil`.
  /// - Complexity: O(L · d) dictionary look-ups for a path of L bytes and d distinct literal
  ///   lengths, then a glob match per candidate, last first.
  func lastMatch(_ path: [UInt8], isDirectory: Bool) -> GitignorePattern? {
    var relativeStart = 0
    if !baseBytes.isEmpty {
      guard path.count > baseBytes.count, path[baseBytes.count] == UInt8(ascii: "/"),
        path.starts(with: baseBytes)
      else { return nil }
      relativeStart = baseBytes.count + 1
    }
    let relative = path[relativeStart...]
    let nameStart = (path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 }) ?? 0
    let name = path[max(nameStart, relativeStart)...]
    var candidates = unindexed
    namePrefixes.collect(prefixesOf: name, into: &candidates)
    nameSuffixes.collect(suffixesOf: name, into: &candidates)
    pathPrefixes.collect(prefixesOf: relative, into: &candidates)
    pathSuffixes.collect(suffixesOf: relative, into: &candidates)
    candidates.sort(by: >)
    for index in candidates where patterns[index].matches(pathBytes: path, isDirectory: isDirectory) {
      return patterns[index]
    }
    return nil
  }

  /// Pattern indices filed under literal byte strings, with the distinct lengths of those.
  struct LiteralTable: Sendable, Equatable {
    private var entries: [[UInt8]: [Int]] = [:]
    /// The distinct key lengths, ascending.
    private var lengths: [Int] = []

    mutating func add(_ key: [UInt8], _ index: Int) {
      if entries[key, default: []].isEmpty, !lengths.contains(key.count) {
        lengths.append(key.count)
        lengths.sort()
      }
      entries[key, default: []].append(index)
    }

    /// Appends the indices filed under each prefix of `text`.
    func collect(prefixesOf text: ArraySlice<UInt8>, into out: inout [Int]) {
      for length in lengths {
        guard length <= text.count else { break }
        if let hits = entries[Array(text.prefix(length))] { out.append(contentsOf: hits) }
      }
    }

    /// Appends the indices filed under each suffix of `text`.
    func collect(suffixesOf text: ArraySlice<UInt8>, into out: inout [Int]) {
      for length in lengths {
        guard length <= text.count else { break }
        if let hits = entries[Array(text.suffix(length))] { out.append(contentsOf: hits) }
      }
    }
  }
}
