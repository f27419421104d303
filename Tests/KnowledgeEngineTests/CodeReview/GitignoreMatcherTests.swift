import Foundation
import Testing

@testable import KnowledgeEngine

/// A temporary git repository holding a tree that exercises gitignore(5), and `git` to ask.
struct GitFixture {
  let root: URL

  /// Ignore files: path → contents. Together they use negation, anchoring (leading and middle
  /// `/`), directory-only patterns, `**` in every position, `*`, `?`, `[…]` classes (ranges,
  /// negation, named classes), escaped `\#` and `\!`, trailing spaces (plain and escaped),
  /// nested `.gitignore` files, re-inclusion under an excluded directory (which must fail) and
  /// `.git/info/exclude` precedence.
  static let ignoreFiles: [String: String] = [
    ".gitignore": """
      # a comment line
      \\#hash.swift
      \\!bang.swift
      *.log
      !important.log
      build/
      /Anchored.swift
      docs/*.swift
      **/Generated/
      **/gen_*.swift
      logs/**
      a/**/z.swift
      foo**bar.swift
      file?.swift
      [abc]class.swift
      [!x]neg.swift
      [[:digit:]]num.swift
      trailing.swift\u{20}\u{20}\u{20}
      space\\\u{20}
      *.swift~
      vendor/
      !vendor/keep.swift
      Sources/**/Mocks
      tmp
      !info_keep.swift
      My Dir/Ignored.swift

      """,
    "Sources/.gitignore": """
      *.generated.swift
      /Local.swift
      !keep.log
      deep/
      Inner/*.swift

      """,
    "Sources/Module/.gitignore": "!*.generated.swift\r\nnested-only.swift\n",
    "docs/.gitignore": "!Keep.swift\n",
    ".git/info/exclude": "info_*.swift\nMain.swift\n!Main.swift\n",
  ]

  /// Every file of the tree; directories come from their paths.
  static let files: [String] = [
    "Main.swift", "#hash.swift", "!bang.swift", "app.log", "important.log",
    "build/Out.swift", "Sources/build", "Anchored.swift", "Sources/Anchored.swift",
    "docs/A.swift", "docs/Keep.swift", "docs/sub/B.swift", "x/Generated/G.swift",
    "Generated/H.swift", "y/z/gen_1.swift", "gen_2.swift", "logs/a/b.swift", "logs/c.swift",
    "a/z.swift", "a/b/z.swift", "a/b/c/z.swift", "foobar.swift", "fooXYbar.swift",
    "foo/bar.swift", "file1.swift", "file12.swift", "aclass.swift", "dclass.swift",
    "yneg.swift", "xneg.swift", "1num.swift", "anum.swift", "trailing.swift", "space ",
    "space", "T.swift~", "vendor/keep.swift", "vendor/V.swift", "Sources/Lib/Mocks/M.swift",
    "Sources/Mocks/N.swift", "tmp/T.swift", "other/tmp", "Sources/X.generated.swift",
    "Sources/Module/Y.generated.swift", "Sources/Module/nested-only.swift",
    "Sources/Other/nested-only.swift", "Sources/Local.swift", "Sources/Module/Local.swift",
    "Sources/keep.log", "Sources/deep/D.swift", "Sources/Inner/I.swift",
    "Sources/Inner/more/J.swift", "info_a.swift", "info_keep.swift", "My Dir/Ignored.swift",
    "My Dir/Kept.swift", "Ünïcode.swift", "Sources/App/App.swift",
  ]

  /// Every path of the tree (files and directories), sorted, `.git` excluded.
  static var allPaths: [(path: String, isDirectory: Bool)] {
    var directories = Set<String>()
    for file in files {
      var parts = file.split(separator: "/").dropLast()
      while !parts.isEmpty {
        directories.insert(parts.joined(separator: "/"))
        parts = parts.dropLast()
      }
    }
    let ignoreFilePaths = ignoreFiles.keys.filter { !$0.hasPrefix(".git/") }
    return (files.map { ($0, false) } + ignoreFilePaths.map { ($0, false) }
      + directories.map { ($0, true) })
      .sorted { $0.0 < $1.0 }
  }

  /// Creates the repository in a fresh temporary directory.
  static func make() throws -> GitFixture {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("dolphin-gitignore-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let fixture = GitFixture(root: root)
    _ = try fixture.git(["init", "-q"])
    for (path, contents) in ignoreFiles {
      try fixture.write(path, contents)
    }
    for file in files {
      try fixture.write(file, "let value = 1\n")
    }
    return fixture
  }

  func write(_ path: String, _ contents: String) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: url)
  }

  func remove() {
    try? FileManager.default.removeItem(at: root)
  }

  /// Runs git in the repository, isolated from the user's and the system's configuration (so no
  /// global excludes file takes part).
  func git(_ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    process.currentDirectoryURL = root
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = root.path
    environment["XDG_CONFIG_HOME"] = root.path
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
    process.environment = environment
    let stdout = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardInput = stdin
    process.standardError = FileHandle.nullDevice
    try process.run()
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  /// The paths `git check-ignore --no-index` reports as ignored.
  func gitIgnored(_ paths: [String]) throws -> Set<String> {
    let input = Data(paths.joined(separator: "\0").utf8 + [0])
    let (status, output) = try git(["check-ignore", "--no-index", "-z", "--stdin"], input: input)
    #expect(status == 0 || status == 1, "git check-ignore failed with status \(status)")
    return Set(output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
  }
}

/// One pattern-level case: a pattern line, a path, whether it is a directory, the outcome.
struct PatternCase: CustomTestStringConvertible, Sendable {
  var name: String
  var line: String
  var base = ""
  var path: String
  var isDirectory = false
  var matches: Bool
  var testDescription: String { name }
}

let patternCases: [PatternCase] = [
  PatternCase(name: "basename at any depth", line: "*.log", path: "a/b/c.log", matches: true),
  PatternCase(name: "star stops at slash when anchored", line: "docs/*.swift", path: "docs/sub/B.swift", matches: false),
  PatternCase(name: "leading ** matches at the root", line: "**/gen.swift", path: "gen.swift", matches: true),
  PatternCase(name: "middle ** matches zero directories", line: "a/**/z", path: "a/z", matches: true),
  PatternCase(name: "middle ** matches several directories", line: "a/**/z", path: "a/b/c/z", matches: true),
  PatternCase(name: "trailing ** matches inside only", line: "logs/**", path: "logs", isDirectory: true, matches: false),
  PatternCase(name: "a**b is a*b", line: "foo**bar", path: "fooXYbar", matches: true),
  PatternCase(name: "question mark is one character", line: "file?.swift", path: "file12.swift", matches: false),
  PatternCase(name: "negated class", line: "[!x]neg", path: "xneg", matches: false),
  PatternCase(name: "named class", line: "[[:digit:]]n", path: "7n", matches: true),
  PatternCase(name: "directory-only skips files", line: "build/", path: "Sources/build", matches: false),
  PatternCase(name: "escaped hash", line: "\\#hash", path: "#hash", matches: true),
  PatternCase(name: "escaped trailing space kept", line: "space\\ ", path: "space ", matches: true),
  PatternCase(name: "unescaped trailing spaces dropped", line: "trailing   ", path: "trailing", matches: true),
  PatternCase(name: "nested base: anchored relative to its directory", line: "/Local.swift", base: "Sources", path: "Sources/Local.swift", matches: true),
  PatternCase(name: "nested base: not above it", line: "*.swift", base: "Sources", path: "Main.swift", matches: false),
]

extension CodeReview {
  @Suite("Gitignore")
  struct GitignoreMatcherTests {
    @Test("single patterns", arguments: patternCases)
    func pattern(_ c: PatternCase) throws {
      let pattern = try #require(GitignorePattern(line: c.line, base: c.base, origin: "case"))
      #expect(pattern.matches(c.path, isDirectory: c.isDirectory) == c.matches)
    }

    @Test("comments and blank lines are not patterns")
    func notPatterns() {
      #expect(GitignorePattern(line: "# note", base: "", origin: "x") == nil)
      #expect(GitignorePattern(line: "   ", base: "", origin: "x") == nil)
      #expect(GitignorePattern(line: "", base: "", origin: "x") == nil)
      let bang = GitignorePattern(line: "\\!bang", base: "", origin: "x")
      #expect(bang?.isNegated == false)
      #expect(bang?.matches("!bang", isDirectory: false) == true)
    }

    @Test("agrees with git check-ignore on every path of a tree")
    func agreesWithGit() throws {
      let fixture = try GitFixture.make()
      defer { fixture.remove() }
      let paths = GitFixture.allPaths
      let ignoredByGit = try fixture.gitIgnored(paths.map(\.path))
      #expect(ignoredByGit.count > 20, "the oracle should ignore many paths: \(ignoredByGit.sorted())")
      var disagreements: [String] = []
      for (path, isDirectory) in paths {
        let ours = GitignoreMatcher.isIgnored(path, isDirectory: isDirectory, root: fixture.root)
        let git = ignoredByGit.contains(path)
        if ours != git { disagreements.append("\(path): ours \(ours), git \(git)") }
      }
      #expect(disagreements == [])
      // A few outcomes spelled out, so the oracle itself is pinned down.
      for path in ["vendor/keep.swift", "Sources/Local.swift", "info_a.swift", "space "] {
        #expect(ignoredByGit.contains(path), "\(path)")
      }
      for path in [
        "docs/Keep.swift", "Sources/Module/Y.generated.swift", "info_keep.swift", "Main.swift",
        "Sources/keep.log", "Sources/build", "Sources/Anchored.swift",
      ] {
        #expect(!ignoredByGit.contains(path), "\(path)")
      }
    }

    @Test("the walker returns exactly the .swift files git does not ignore, sorted")
    func walkerAgreesWithGit() throws {
      let fixture = try GitFixture.make()
      defer { fixture.remove() }
      try fixture.write(".hidden/Hidden.swift", "let h = 1\n")
      try fixture.write("Sources/.build/Built.swift", "let b = 1\n")
      let paths = GitFixture.allPaths
      let ignoredByGit = try fixture.gitIgnored(paths.map(\.path))
      let expected = paths.filter { !$0.isDirectory && $0.path.hasSuffix(".swift") }
        .map(\.path).filter { !ignoredByGit.contains($0) }
        .map { fixture.root.path + "/" + $0 }
        .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      var progressCalls = 0
      let walk = SourceWalker().walk([fixture.root.path]) { _ in progressCalls += 1 }
      #expect(walk.files.map(\.path) == expected)
      #expect(walk.skipped == [])
      #expect(walk.ignoredCount > 0)
      #expect(progressCalls > 5)
    }

    @Test("explicit paths: ignored files taken, others skipped with notices")
    func explicitPaths() throws {
      let fixture = try GitFixture.make()
      defer { fixture.remove() }
      try fixture.write("Big.swift", String(repeating: "x", count: 300) + "\n")
      let root = fixture.root.path
      let walk = SourceWalker(maximumFileBytes: 300).walk([
        root + "/Anchored.swift", root + "/app.log", root + "/Nope.swift", root + "/Big.swift",
        root + "/Anchored.swift",
      ])
      #expect(walk.files.map(\.path) == [root + "/Anchored.swift"])
      #expect(walk.files.first?.byteCount == 14)
      #expect(
        walk.skipped.map { "\($0.reason.rawValue) \($0.notice.dropFirst(root.count + 1))" } == [
          // Named twice, read once, and said to be (review 28-d, 9).
          "same_file Anchored.swift: skipped, named more than once (a file is read once)",
          "too_large Big.swift: skipped, 301 bytes is over the 300-byte code analysis limit",
          "missing Nope.swift: skipped, no such file or directory",
          "not_swift app.log: skipped, not a .swift file",
        ])
    }

    @Test("walking a subdirectory applies the ignore files above it")
    func subdirectoryWalk() throws {
      let fixture = try GitFixture.make()
      defer { fixture.remove() }
      let walk = SourceWalker().walk([fixture.root.appendingPathComponent("Sources").path])
      let names = walk.files.map { String($0.path.dropFirst(fixture.root.path.count + 1)) }
      #expect(
        names == [
          "Sources/Anchored.swift", "Sources/App/App.swift", "Sources/Inner/more/J.swift",
          "Sources/Module/Local.swift",
          "Sources/Module/Y.generated.swift", "Sources/Other/nested-only.swift",
        ])
    }

    @Test("a link to a directory named on the command line is walked; a file named two ways is read once")
    func namedLinksAndDuplicates() throws {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      let real = dir.appendingPathComponent("realdir")
      try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
      try Data("let x = try! f()\n".utf8).write(to: real.appendingPathComponent("a.swift"))
      try FileManager.default.createSymbolicLink(
        atPath: dir.appendingPathComponent("symdir").path, withDestinationPath: "realdir")
      let linked = SourceWalker().walk([dir.appendingPathComponent("symdir").path])
      #expect(linked.files.map(\.path) == [dir.appendingPathComponent("symdir/a.swift").path], "\(linked.skipped)")
      let file = real.appendingPathComponent("a.swift").path
      let twice = SourceWalker().walk([file, real.path + "/./a.swift", real.path])
      #expect(twice.files.count == 1, "\(twice.files.map(\.path))")
    }

    /// Review 19-c, finding 7: `config.swift -> ~/.env` in a cloned tree printed a line of the
    /// `.env` file (a token) in the report.
    @Test("a .swift link met in a walk is followed inside the directory given, skipped with a notice outside it")
    func linksOutsideTheTree() throws {
      let fm = FileManager.default
      let dir = fm.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
      defer { try? fm.removeItem(at: dir) }
      let repo = dir.appendingPathComponent("repo")
      let secret = dir.appendingPathComponent("secret")
      try fm.createDirectory(at: repo.appendingPathComponent("Sources"), withIntermediateDirectories: true)
      try fm.createDirectory(at: secret, withIntermediateDirectories: true)
      try Data("GITHUB_TOKEN=ghp_x\n".utf8).write(to: secret.appendingPathComponent("env"))
      try Data("let x = 1\n".utf8).write(to: repo.appendingPathComponent("Sources/real.swift"))
      try fm.createSymbolicLink(atPath: repo.appendingPathComponent("config.swift").path, withDestinationPath: "../secret/env")
      try fm.createSymbolicLink(atPath: repo.appendingPathComponent("alias.swift").path, withDestinationPath: "Sources/real.swift")
      let walk = SourceWalker().walk([repo.path])
      // An inside link is followed: the same file, read once, under the name met first.
      #expect(walk.files.map(\.path) == [repo.path + "/alias.swift"])
      let target = secret.appendingPathComponent("env").resolvingSymlinksInPath().path
      #expect(
        walk.skipped.map { "\($0.reason.rawValue) \($0.notice)" } == [
          // The file's own name, met after the link, is said to be the same file (review 28-d, 9).
          "same_file \(repo.path)/Sources/real.swift: skipped, the same file as \(repo.path)/alias.swift "
            + "(a file is read once, under the first name given)",
          "link_outside_tree \(repo.path)/config.swift: skipped, a symbolic link to \(target), outside the directory analyzed (not followed)",
        ])
      // An inside link to a file the walk does not reach otherwise is analyzed under its name.
      try fm.removeItem(at: repo.appendingPathComponent("Sources/real.swift"))
      try fm.createDirectory(at: repo.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
      try Data("let y = 2\n".utf8).write(to: repo.appendingPathComponent(".hidden/h.swift"))
      try fm.removeItem(at: repo.appendingPathComponent("alias.swift"))
      try fm.createSymbolicLink(atPath: repo.appendingPathComponent("alias.swift").path, withDestinationPath: ".hidden/h.swift")
      #expect(SourceWalker().walk([repo.path]).files.map(\.path) == [repo.path + "/alias.swift"])
      // Named on the command line (as a shell glob names it, review 28-b, 2), a link out of its
      // folder is skipped too, naming its target; one inside it is followed.
      let config = repo.appendingPathComponent("config.swift").path
      let named = SourceWalker().walk([config, repo.appendingPathComponent("alias.swift").path])
      #expect(named.files.map(\.path) == [repo.appendingPathComponent("alias.swift").path], "\(named)")
      #expect(
        named.skipped.map { "\($0.reason.rawValue) \($0.notice)" } == [
          "link_outside_tree \(config): skipped, a symbolic link to \(target), outside the folder holding the link (not followed)"
        ])
      // The folder is resolved too: through a linked folder, a link to a file inside the real
      // one is followed, and one out of it is still skipped.
      try fm.createSymbolicLink(atPath: dir.appendingPathComponent("linked").path, withDestinationPath: "repo")
      let viaLink = SourceWalker().walk([
        dir.appendingPathComponent("linked/alias.swift").path, dir.appendingPathComponent("linked/config.swift").path,
      ])
      #expect(viaLink.files.map(\.path) == [dir.appendingPathComponent("linked/alias.swift").path], "\(viaLink)")
      #expect(viaLink.skipped.map(\.reason) == [.linkOutsideTree], "\(viaLink)")
    }

    @Test("a file named two ways is listed under the first name given, not the first in sort order")
    func duplicateKeepsFirstGivenName() throws {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      let real = dir.appendingPathComponent("realdir")
      try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
      try Data("let x = try! f()\n".utf8).write(to: real.appendingPathComponent("a.swift"))
      try FileManager.default.createSymbolicLink(
        atPath: dir.appendingPathComponent("symdir").path, withDestinationPath: "realdir")
      // `realdir/./a.swift` sorts before `realdir/a.swift`, and `realdir` before `symdir`.
      let plain = real.appendingPathComponent("a.swift").path
      let dotted = real.path + "/./a.swift"
      #expect(SourceWalker().walk([plain, dotted]).files.map(\.path) == [plain])
      #expect(SourceWalker().walk([dotted, plain]).files.map(\.path) == [dotted])
      let viaLink = SourceWalker().walk([dir.appendingPathComponent("symdir").path, real.path])
      #expect(viaLink.files.map(\.path) == [dir.appendingPathComponent("symdir/a.swift").path])
      // Other files keep their sort order.
      try Data("let y = 1\n".utf8).write(to: real.appendingPathComponent("0.swift"))
      let mixed = SourceWalker().walk([plain, real.path])
      #expect(mixed.files.map(\.path) == [real.path + "/0.swift", plain])
    }

    /// A fresh directory holding `loop` (a link to itself), `ping.swift` and `pong.swift` (links
    /// to each other) and `gone.swift` (a link to nothing); the caller removes it.
    static func linkProblems() throws -> URL {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
      let fm = FileManager.default
      try fm.createDirectory(at: dir, withIntermediateDirectories: true)
      try fm.createSymbolicLink(atPath: dir.appendingPathComponent("loop").path, withDestinationPath: "loop")
      try fm.createSymbolicLink(atPath: dir.appendingPathComponent("ping.swift").path, withDestinationPath: "pong.swift")
      try fm.createSymbolicLink(atPath: dir.appendingPathComponent("pong.swift").path, withDestinationPath: "ping.swift")
      try fm.createSymbolicLink(atPath: dir.appendingPathComponent("gone.swift").path, withDestinationPath: "nothere.swift")
      return dir
    }

    @Test("a symbolic link loop named explicitly is reported as a loop, not as a missing file")
    func symbolicLinkLoop() throws {
      let dir = try Self.linkProblems()
      defer { try? FileManager.default.removeItem(at: dir) }
      let walk = SourceWalker().walk(["loop", "ping.swift", "gone.swift"].map { dir.appendingPathComponent($0).path })
      let loopNotice = "a symbolic link loop, or a chain of more than 40 links: following them does not reach a file or directory"
      #expect(
        walk.skipped.map { "\($0.reason.rawValue) \($0.notice.dropFirst(dir.path.count + 1))" } == [
          "missing gone.swift: skipped, a symbolic link to 'nothere.swift', which does not exist",
          "unreadable loop: skipped, \(loopNotice) (Too many levels of symbolic links)",
          "unreadable ping.swift: skipped, \(loopNotice) (Too many levels of symbolic links)",
        ])
    }

    @Test("a .swift link to nothing or round a loop met during a directory walk gets a notice and a skipped entry")
    func symbolicLinkProblemsInWalk() throws {
      let dir = try Self.linkProblems()
      defer { try? FileManager.default.removeItem(at: dir) }
      let fm = FileManager.default
      try fm.createSymbolicLink(atPath: dir.appendingPathComponent("ignored.swift").path, withDestinationPath: "nothere.swift")
      try Data("ignored.swift\n".utf8).write(to: dir.appendingPathComponent(".gitignore"))
      try Data("let x = 1\n".utf8).write(to: dir.appendingPathComponent("ok.swift"))
      let walk = SourceWalker().walk([dir.path])
      #expect(walk.files.map(\.path) == [dir.appendingPathComponent("ok.swift").path])
      let loopNotice = "a symbolic link loop, or a chain of more than 40 links: following them does not reach a file or directory (Too many levels of symbolic links)"
      #expect(
        walk.skipped.map { "\($0.reason.rawValue) \($0.notice.dropFirst(dir.path.count + 1))" } == [
          "missing gone.swift: skipped, a symbolic link to 'nothere.swift', which does not exist",
          "unreadable ping.swift: skipped, \(loopNotice)",
          "unreadable pong.swift: skipped, \(loopNotice)",
        ])
      // `loop` is no .swift name; the ignored link stays ignored.
      #expect(walk.ignoredCount == 1)
      #expect(walk.nonSwiftCount == 0)
    }

    @Test("non-Swift files in a walk are counted, hidden and ignored ones not")
    func nonSwiftCount() throws {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
      for name in ["a.swift", "README.md", "sub/b.txt", "sub/c.swift", ".hidden.txt", "skip.log"] {
        try Data("x\n".utf8).write(to: dir.appendingPathComponent(name))
      }
      try Data("*.log\n".utf8).write(to: dir.appendingPathComponent(".gitignore"))
      let walk = SourceWalker().walk([dir.path])
      #expect(walk.files.count == 2)
      #expect(walk.nonSwiftCount == 2, "README.md and sub/b.txt")
      #expect(walk.ignoredCount == 1)
    }

    @Test("two hard links to one file are analyzed once, under the first name")
    func hardLinksReadOnce() throws {
      let dir = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      try FileManager.default.createDirectory(at: dir.appendingPathComponent("b"), withIntermediateDirectories: true)
      let first = dir.appendingPathComponent("a.swift")
      try Data("let x = try! f()\n".utf8).write(to: first)
      try FileManager.default.linkItem(at: first, to: dir.appendingPathComponent("b/again.swift"))
      try FileManager.default.linkItem(at: first, to: dir.appendingPathComponent("0.swift"))
      // The walk lists a directory's names in byte order: `0.swift` is met first.
      let walk = SourceWalker().walk([dir.path])
      #expect(walk.files.map(\.path) == [dir.appendingPathComponent("0.swift").path], "\(walk.files)")
      // Named explicitly, the first name given wins.
      let named = SourceWalker().walk([dir.appendingPathComponent("b/again.swift").path, dir.path])
      #expect(named.files.map(\.path) == [dir.appendingPathComponent("b/again.swift").path])
      let analysis = CodeAnalyzer.analyze(paths: [dir.path])
      #expect(analysis.reports.count == 1 && analysis.totalFindings == 1)
    }
  }
}
