import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Review 22 (1): `dolphin analyze DIR` skipped, without a word, every file and folder whose
/// name is not valid UTF-8 (Foundation lists such names as nothing). The walk lists directories
/// by bytes now and analyzes them; these tests make such names with the bytes themselves.
extension CodeReview {
  @Suite("SourceWalker: names that are not UTF-8")
  struct NonUTF8NameWalkTests {
    /// Creates the directory at `path` (bytes, below an existing directory).
    static func makeDirectory(_ path: [UInt8]) throws {
      try #require(SystemPath.withCString(path) { mkdir($0, 0o700) } == 0, "mkdir \(SystemPath.shown(path))")
    }

    /// Writes `text` to the file at `path` (bytes).
    static func write(_ text: String, to path: [UInt8]) throws {
      let fd = SystemPath.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
      try #require(fd >= 0, "open \(SystemPath.shown(path))")
      let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
      try handle.write(contentsOf: Data(text.utf8))
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The reviewer's tree: `t5/sub\xFE/x.swift` (a `try!`), `t5/ok.swift`, and beside them
    /// `t5/bad\xFF.swift` (a force unwrap).
    static func reviewersTree(in dir: TemporaryDirectory) throws -> [UInt8] {
      let t5 = bytes(dir.appending("t5").path)
      try makeDirectory(t5)
      try makeDirectory(t5 + bytes("/sub") + [0xFE])
      try write("let a = try! b()\n", to: t5 + bytes("/sub") + [0xFE] + bytes("/x.swift"))
      try write("let a = 1\n", to: t5 + bytes("/ok.swift"))
      try write("let c = d!\n", to: t5 + bytes("/bad") + [0xFF] + bytes(".swift"))
      return t5
    }

    @Test("a folder and a file whose names are not UTF-8 are walked and analyzed, shown with \\xHH escapes")
    func analyzedWithEscapedNames() throws {
      let dir = TemporaryDirectory("walk-non-utf8")
      defer { dir.remove() }
      let t5 = dir.appending("t5").path
      _ = try Self.reviewersTree(in: dir)

      let walk = SourceWalker().walk([t5])
      #expect(walk.skipped.isEmpty, "\(walk.skipped)")
      #expect(walk.files.map(\.path) == ["\(t5)/bad\\xFF.swift", "\(t5)/ok.swift", "\(t5)/sub\\xFE/x.swift"])
      #expect(
        walk.files.map(\.pathPercentEncoded) == [
          SystemPath.percentEncoded(Self.bytes(t5)) + "/bad%FF.swift", nil,
          SystemPath.percentEncoded(Self.bytes(t5)) + "/sub%FE/x.swift",
        ])

      let analysis = CodeAnalyzer.analyze(paths: [t5])
      #expect(analysis.skipped.isEmpty, "\(analysis.skipped)")
      #expect(analysis.reports.map(\.fileName) == walk.files.map(\.path))
      #expect(analysis.reports.map(\.fileNamePercentEncoded) == walk.files.map(\.pathPercentEncoded))
      #expect(analysis.reports[0].findings.map(\.rule) == [.forceUnwrap])
      #expect(analysis.reports[2].findings.map(\.rule) == [.forceTry])

      // SARIF names the file by a URI that spells its exact bytes (RFC 3986).
      let sarif = SARIFReport(reports: analysis.reports)
      let uris = sarif.runs[0].results.map { $0.locations[0].physicalLocation.artifactLocation.uri }
      #expect(uris.count == 2)
      #expect(uris.allSatisfy { $0.hasPrefix("file:///") && $0.allSatisfy(\.isASCII) }, "\(uris)")
      #expect(uris.contains { $0.hasSuffix("/t5/bad%FF.swift") } && uris.contains { $0.hasSuffix("/t5/sub%FE/x.swift") }, "\(uris)")
    }

    /// Review (s23): a `.gitignore` inside a folder whose name is not UTF-8 was reported as not
    /// applied (`name_not_utf8`), and the files it excludes were analyzed.
    @Test("ignore rules match such names by their bytes; a .gitignore inside such a folder is applied")
    func ignoreRules() throws {
      let dir = TemporaryDirectory("walk-non-utf8-ignore")
      defer { dir.remove() }
      let root = Self.bytes(dir.url.path)
      try Self.makeDirectory(root + Self.bytes("/.git"))
      try Self.write("skip*\n", to: root + Self.bytes("/.gitignore"))
      try Self.write("let a = b!\n", to: root + Self.bytes("/skip") + [0xFE] + Self.bytes(".swift"))
      let folder = root + Self.bytes("/lib") + [0xC3, 0x28]
      try Self.makeDirectory(folder)
      try Self.write("*.swift\n", to: folder + Self.bytes("/.gitignore"))
      try Self.write("let x = y!\n", to: folder + Self.bytes("/kept.swift"))

      let walk = SourceWalker().walk([dir.url.path])
      #expect(walk.ignoredCount == 2)
      #expect(walk.files.isEmpty, "\(walk.files)")
      #expect(walk.unappliedIgnoreFiles.isEmpty, "\(walk.unappliedIgnoreFiles)")
    }

    @Test("a .gitignore inside such a folder matches the paths below it: anchored, basename, directory, negated and non-UTF-8 patterns")
    func ignoreFileInsideSuchFolder() throws {
      let dir = TemporaryDirectory("walk-non-utf8-nested-ignore")
      defer { dir.remove() }
      let path = dir.url.path
      let root = Self.bytes(path)
      try Self.makeDirectory(root + Self.bytes("/.git"))
      let lib = Self.bytes("lib") + [0xC3, 0x28]
      let folder = root + [UInt8(ascii: "/")] + lib
      try Self.makeDirectory(folder)
      try Self.makeDirectory(folder + Self.bytes("/sub"))
      try Self.makeDirectory(folder + Self.bytes("/gen"))
      // Line 4 is itself not UTF-8: `w\xFE*`.
      let rules = Self.bytes("drop*.swift\n/top.swift\ngen/\nw") + [0xFE] + Self.bytes("*\n!dropkeep.swift\n")
      let fd = SystemPath.withCString(folder + Self.bytes("/.gitignore")) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
      try #require(fd >= 0)
      try FileHandle(fileDescriptor: fd, closeOnDealloc: true).write(contentsOf: Data(rules))
      // A deeper .gitignore, below the folder, wins over it.
      try Self.write("!drop2.swift\n", to: folder + Self.bytes("/sub/.gitignore"))
      for name in ["kept", "drop1", "dropkeep", "top", "sub/top", "sub/drop2", "sub/drop3", "gen/g"] {
        try Self.write("let v = w!\n", to: folder + Self.bytes("/\(name).swift"))
      }
      try Self.write("let v = w!\n", to: folder + Self.bytes("/w") + [0xFE] + Self.bytes(".swift"))
      // Outside the folder its rules do not apply.
      try Self.write("let v = w!\n", to: root + Self.bytes("/top.swift"))
      try Self.write("let v = w!\n", to: root + Self.bytes("/drop4.swift"))

      let walk = SourceWalker().walk([path])
      let shown = "\(path)/lib\\xC3("
      #expect(
        walk.files.map(\.path) == [
          "\(path)/drop4.swift", "\(shown)/dropkeep.swift", "\(shown)/kept.swift", "\(shown)/sub/drop2.swift",
          "\(shown)/sub/top.swift", "\(path)/top.swift",
        ])
      // drop1, top, gen/ (its file not counted), w\xFE.swift and sub/drop3.
      #expect(walk.ignoredCount == 5)
      #expect(walk.unappliedIgnoreFiles.isEmpty, "\(walk.unappliedIgnoreFiles)")

      // The rules say where they come from, named as the folder is shown.
      var matcher = GitignoreMatcher(root: dir.url)
      matcher.enter(directoryBytes: lib)
      #expect(matcher.loadedDirectories == ["", "lib\\xC3("])
      let rule = try #require(matcher.lastMatch(bytes: lib + Self.bytes("/drop1.swift"), isDirectory: false))
      #expect(rule.origin == "lib\\xC3(/.gitignore:1" && rule.base == "lib\\xC3(" && rule.text == "drop*.swift")
      let bytesRule = try #require(matcher.lastMatch(bytes: lib + Self.bytes("/w") + [0xFE, 0x41], isDirectory: false))
      #expect(bytesRule.origin == "lib\\xC3(/.gitignore:4")
      #expect(!matcher.excludes(bytes: lib + Self.bytes("/w\u{FE}A"), isDirectory: false), "U+00FE is not the byte 0xFE")
      #expect(!matcher.excludes(bytes: Self.bytes("lib(/drop1.swift"), isDirectory: false))
    }

    @Test("an ignore file inside such a folder that cannot be read is reported, named with \\xHH")
    func unreadableIgnoreFileInsideSuchFolder() throws {
      let dir = TemporaryDirectory("walk-non-utf8-unapplied")
      defer { dir.remove() }
      let root = Self.bytes(dir.url.path)
      try Self.makeDirectory(root + Self.bytes("/.git"))
      let folder = root + Self.bytes("/odd") + [0xFF]
      try Self.makeDirectory(folder)
      try Self.makeDirectory(folder + Self.bytes("/.gitignore"))
      try Self.write("let v = w!\n", to: folder + Self.bytes("/a.swift"))

      let walk = SourceWalker().walk([dir.url.path])
      #expect(walk.files.map(\.path) == ["\(dir.url.path)/odd\\xFF/a.swift"])
      #expect(walk.unappliedIgnoreFiles.map(\.reason) == [.notRegularFile])
      #expect(
        walk.unappliedIgnoreFiles.first?.notice
          == "\(dir.url.path)/odd\\xFF/.gitignore: not applied, it is a directory, not a file; the files it would exclude are analyzed")
    }

    @Test("a .swift link with such a name is followed inside the tree; one to nothing is skipped with its reason and bytes")
    func links() throws {
      let dir = TemporaryDirectory("walk-non-utf8-links")
      defer { dir.remove() }
      let root = Self.bytes(dir.url.path)
      try Self.write("hidden/\n", to: root + Self.bytes("/.gitignore"))
      try Self.makeDirectory(root + Self.bytes("/hidden"))
      try Self.write("let v = w as! Int\n", to: root + Self.bytes("/hidden/h.swift"))
      let link = root + Self.bytes("/l") + [0xFE] + Self.bytes(".swift")
      #expect(SystemPath.withCString(link) { symlink("hidden/h.swift", $0) } == 0)
      let dangling = root + Self.bytes("/gone") + [0xFE] + Self.bytes(".swift")
      let target = Self.bytes("nowhere") + [0xFF]
      #expect(SystemPath.withCString(dangling) { d in SystemPath.withCString(target) { symlink($0, d) } } == 0)

      let analysis = CodeAnalyzer.analyze(paths: [dir.url.path])
      #expect(analysis.reports.map(\.fileName) == ["\(dir.url.path)/l\\xFE.swift"])
      #expect(analysis.reports.first?.findings.map(\.rule) == [.forceCast])
      #expect(analysis.skipped.map(\.reason) == [.missing])
      #expect(analysis.skipped.first?.path == "\(dir.url.path)/gone\\xFE.swift")
      #expect(analysis.skipped.first?.pathPercentEncoded == SystemPath.percentEncoded(dangling))
      #expect(
        analysis.skipped.first?.notice
          == "\(dir.url.path)/gone\\xFE.swift: skipped, a symbolic link to 'nowhere\\xFF', which does not exist")
    }

    @Test("names are shown with \\xHH for each byte outside valid UTF-8 and percent-encoded reversibly")
    func spelling() {
      #expect(SystemPath.shown([0x61, 0xFE, 0x62]) == "a\\xFEb")
      #expect(SystemPath.shown(Array("é/ü".utf8) + [0xE2, 0x82]) == "é/ü\\xE2\\x82")
      #expect(SystemPath.shown([0x05]) == "\u{05}", "a control byte is valid UTF-8: escaped later, by the renderer")
      let odd: [UInt8] = Array("a b/%é".utf8) + [0xFE, 0x7F]
      #expect(SystemPath.percentEncoded(odd) == "a%20b/%25%C3%A9%FE%7F")
      #expect(SystemPath.percentDecoded(SystemPath.percentEncoded(odd)) == odd)
      #expect(SystemPath.percentDecoded("a%G1") == nil)
    }
  }
}
