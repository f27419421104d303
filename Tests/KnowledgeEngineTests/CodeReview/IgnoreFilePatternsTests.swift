import Foundation
import Testing

@testable import KnowledgeEngine

extension CodeReview {
  /// The indexed pattern look-up (review 18-c, C8) and ignore files that cannot be applied.
  @Suite("Ignore file patterns")
  struct IgnoreFilePatternsTests {
    /// The answer of trying every pattern, last first: what the index must agree with.
    static func linearLastMatch(_ patterns: [GitignorePattern], _ path: String, isDirectory: Bool)
      -> GitignorePattern?
    {
      patterns.last { $0.matches(path, isDirectory: isDirectory) }
    }

    /// A small deterministic generator (SplitMix64), so a failing case can be replayed.
    struct SplitMix: RandomNumberGenerator {
      var state: UInt64
      mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
      }
    }

    @Test("literal prefixes and suffixes stop at special bytes and never rely on a slash next to **")
    func literalParts() {
      func prefix(_ glob: String) -> String {
        String(decoding: IgnoreFilePatterns.literalPrefix(Array(glob.utf8)), as: UTF8.self)
      }
      func suffix(_ glob: String) -> String {
        String(decoding: IgnoreFilePatterns.literalSuffix(Array(glob.utf8)), as: UTF8.self)
      }
      #expect(prefix("pat12_*.swift") == "pat12_")
      #expect(prefix("a/**/z") == "a")
      #expect(prefix("\\#hash") == "")
      #expect(prefix("build") == "build")
      #expect(suffix("*.swift") == ".swift")
      #expect(suffix("**/gen.swift") == "gen.swift")
      #expect(suffix("[abc]class") == "class")
      #expect(suffix("foo\\*") == "")
      #expect(suffix("logs/**") == "")
    }

    @Test("the index gives exactly the answer of trying every pattern (random patterns and paths)")
    func agreesWithLinearScan() throws {
      var random = SplitMix(state: 18)
      let atoms = ["a", "b", "ab", "x.swift", ".log", "*", "**", "?", "[ab]", "[!a]", "/", "\\*", "gen_", "z"]
      func glob() -> String {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in atoms.randomElement(using: &random) ?? "a" }
          .joined()
      }
      let names = ["a", "b", "ab", "x.swift", "gen_x.swift", "a.log", "z", "*", "ba"]
      func path() -> String {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in names.randomElement(using: &random) ?? "a" }
          .joined(separator: "/")
      }
      var disagreements: [String] = []
      var matched = 0
      for base in ["", "a", "a/b"] {
        for round in 0..<40 {
          var lines: [String] = []
          for _ in 0..<30 {
            let negation = Bool.random(using: &random) && Bool.random(using: &random) ? "!" : ""
            let trailing = Int.random(in: 0..<5, using: &random) == 0 ? "/" : ""
            lines.append(negation + glob() + trailing)
          }
          let patterns = lines.enumerated().compactMap {
            GitignorePattern(line: $0.element, base: base, origin: "r\(round):\($0.offset + 1)")
          }
          let index = IgnoreFilePatterns(patterns, base: Array(base.utf8))
          for _ in 0..<60 {
            let p = (base.isEmpty ? "" : base + "/") + path()
            for isDirectory in [false, true] {
              let expected = Self.linearLastMatch(patterns, p, isDirectory: isDirectory)
              if expected != nil { matched += 1 }
              let indexed = index.lastMatch(Array(p.utf8), isDirectory: isDirectory)
              if indexed != expected {
                disagreements.append("\(p) dir=\(isDirectory): index \(indexed?.description ?? "nil"), linear \(expected?.description ?? "nil")")
              }
            }
          }
        }
      }
      #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
      // Not vacuous: many paths match some pattern, many match none.
      #expect(matched > 1_000 && matched < 14_000, "\(matched) of 14400")
    }

    @Test("200,000 literal-prefix patterns against 300 files take seconds, not minutes, and still apply")
    func manyPatternsScale() throws {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ignore-scale-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
      var ignore = (0..<200_000).map { "pat\($0)_*.swift" }
      ignore.append("!pat7_keep.swift")
      try Data(ignore.joined(separator: "\n").utf8).write(to: dir.appendingPathComponent(".gitignore"))
      for i in 0..<297 {
        try Data("let x = 1\n".utf8).write(to: dir.appendingPathComponent("file\(i).swift"))
      }
      for name in ["pat199999_a.swift", "pat7_keep.swift", "pat7_drop.swift"] {
        try Data("let x = 1\n".utf8).write(to: dir.appendingPathComponent(name))
      }
      let clock = ContinuousClock()
      var walk: SourceWalker.Walk?
      let elapsed = clock.measure { walk = SourceWalker().walk([dir.path]) }
      let result = try #require(walk)
      #expect(result.ignoredCount == 2)
      #expect(result.files.count == 298)
      #expect(result.files.contains { $0.path.hasSuffix("/pat7_keep.swift") })
      #expect(result.unappliedIgnoreFiles == [])
      // Trying every pattern for every file took about 118 s (debug build); the index needs well
      // under a second of matching. The bound is generous for a loaded machine.
      #expect(elapsed < .seconds(30), "\(elapsed)")
    }

    @Test("an ignore file that is not UTF-8 is applied byte for byte, as git applies it")
    func latin1IgnoreFileApplies() throws {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ignore-latin1-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
      // `# café règles` in Latin-1: bytes that are not UTF-8.
      let bytes: [UInt8] = Array("# caf".utf8) + [0xE9] + Array(" r".utf8) + [0xE8] + Array("gles\nsecret.swift\n".utf8)
      try Data(bytes).write(to: dir.appendingPathComponent(".gitignore"))
      try Data("let a = b!\n".utf8).write(to: dir.appendingPathComponent("a.swift"))
      try Data("let a = b!\n".utf8).write(to: dir.appendingPathComponent("secret.swift"))
      let walk = SourceWalker().walk([dir.path])
      #expect(walk.files.map { ($0.path as NSString).lastPathComponent } == ["a.swift"])
      #expect(walk.ignoredCount == 1)
      #expect(walk.unappliedIgnoreFiles == [])
    }

    @Test("an ignore file over the size bound is not applied, and the walk and analysis say so")
    func oversizedIgnoreFileIsReported() throws {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ignore-big-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
      let size = GitignoreMatcher.maximumIgnoreFileBytes + 1
      var text = Array(repeating: UInt8(ascii: "#"), count: size - "\nsecret.swift\n".utf8.count)
      text += Array("\nsecret.swift\n".utf8)
      #expect(text.count == size)
      let ignorePath = dir.appendingPathComponent(".gitignore").path
      try Data(text).write(to: URL(fileURLWithPath: ignorePath))
      try Data("let a = b!\n".utf8).write(to: dir.appendingPathComponent("secret.swift"))
      let walk = SourceWalker().walk([dir.path])
      #expect(walk.files.count == 1)
      let expected = GitignoreMatcher.UnappliedFile(
        path: ignorePath, reason: .tooLarge,
        notice: "\(ignorePath): not applied, it is 8388609 bytes, over the 8388608-byte limit for ignore files; "
          + "the files it would exclude are analyzed")
      #expect(walk.unappliedIgnoreFiles == [expected])

      let analysis = CodeAnalyzer.analyze(paths: [dir.path])
      #expect(analysis.unappliedIgnoreFiles == [expected])
      let json = String(decoding: try StableJSON.encoder().encode(analysis), as: UTF8.self)
      #expect(json.contains(#""reason":"too_large""#))
      #expect(json.contains(#""unappliedIgnoreFiles":[{"#))
      // A report written before the field existed still decodes.
      let old = #"{"ignoredCount":0,"reports":[],"skipped":[]}"#
      #expect(try JSONDecoder().decode(PathAnalysis.self, from: Data(old.utf8)).unappliedIgnoreFiles == [])
    }

    @Test("a FIFO named .gitignore is not opened, and the walk says its rules are not applied")
    func fifoIgnoreFileIsReported() throws {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ignore-fifo-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
      let fifo = dir.appendingPathComponent("sub/.gitignore").path
      #expect(mkfifo(fifo, 0o600) == 0)
      try Data("let a = 1\n".utf8).write(to: dir.appendingPathComponent("sub/a.swift"))
      // Walked twice (as `.` and `sub`): reported once.
      let walk = SourceWalker().walk([dir.path, dir.appendingPathComponent("sub").path])
      #expect(walk.unappliedIgnoreFiles.map(\.path) == [fifo])
      #expect(walk.unappliedIgnoreFiles.first?.reason == .notRegularFile)
      #expect(walk.unappliedIgnoreFiles.first?.notice.contains("not applied, it is a FIFO") == true)
    }

    // Review 18-d: a `.gitignore` linking to nothing was called "Too many levels of symbolic links".
    @Test("a .gitignore that is a symbolic link to nothing is said to be one")
    func danglingIgnoreLink() throws {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ignore-link-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
      let link = dir.appendingPathComponent(".gitignore").path
      #expect(symlink("/nonexistent-\(UUID().uuidString)", link) == 0)
      try Data("let a = 1\n".utf8).write(to: dir.appendingPathComponent("a.swift"))
      let walk = SourceWalker().walk([dir.path])
      let notice = try #require(walk.unappliedIgnoreFiles.first?.notice)
      #expect(notice.contains("not applied, it is a symbolic link to nothing"), "\(notice)")
      #expect(!notice.contains("Too many levels"), "\(notice)")
    }
  }
}
