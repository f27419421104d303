import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Regressions (review, s14) for what a scanned repository can hold: a file name with a
/// right-to-left override, a `.swift` FIFO, a `.swift` file of binary data.
@Suite("dolphin analyze on untrusted trees", .serialized)
struct AnalyzeUntrustedFilesTests {
  /// Runs `dolphin` under `timeout`, so that a walk that blocks fails (status 124) instead of
  /// hanging the test run; the bound is a safety net, not a measurement.
  func runBounded(_ arguments: [String]) throws -> ProcessResult {
    try runProcess("/usr/bin/timeout", ["60", dolphinExecutable().path] + arguments)
  }

  func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// The file name `an/<U+202E>evil.swift` printed raw made a terminal show the rest of the
  /// finding line reversed; source lines were already escaped.
  @Test("a file name with a bidi override prints escaped in findings, JSON and SARIF, never raw")
  func bidiFileName() throws {
    let dir = TemporaryDirectory("analyze-bidi")
    defer { dir.remove() }
    let folder = dir.appending("an")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let name = "\u{202E}tfiws.evil.swift"
    let file = folder.appendingPathComponent(name)
    try Data("let config = loader.load()!\n".utf8).write(to: file)

    let text = try runBounded(["analyze", folder.path])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(!text.stdout.unicodeScalars.contains("\u{202E}"), "printed U+202E raw: \(text.stdout)")
    #expect(
      text.stdout.contains("\(folder.path)/\\u{202E}tfiws.evil.swift:1:27: force_unwrap"), "\(text.stdout)")

    let json = try runBounded(["analyze", folder.path, "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    #expect(!json.stdout.unicodeScalars.contains("\u{202E}"), "printed U+202E raw: \(json.stdout)")
    #expect(json.stdout.contains(#"\u202e"#), "\(json.stdout)")
    let reports = try jsonObject(json.stdout)["reports"] as? [[String: Any]]
    #expect(reports?.first?["fileName"] as? String == file.path, "JSON keeps the exact name")

    let sarif = try runBounded(["analyze", folder.path, "--format", "sarif"])
    #expect(sarif.status == 0, "\(sarif.stderr)")
    #expect(!sarif.stdout.unicodeScalars.contains("\u{202E}"), "printed U+202E raw: \(sarif.stdout)")

    // A notice and an error naming such a file are escaped as well.
    let missing = try runBounded(["analyze", folder.appendingPathComponent("\u{202E}gone.swift").path])
    #expect(missing.status == 3, "\(missing.stderr)")
    #expect(!missing.stderr.unicodeScalars.contains("\u{202E}"), "\(missing.stderr)")
  }

  /// A `.swift` FIFO met in a walk was skipped without a word (and one swapped in for a file
  /// could block the read).
  @Test("a .swift FIFO in a walk is listed as skipped with its reason, never opened; so is a .gitignore FIFO")
  func fifoInWalk() throws {
    let dir = TemporaryDirectory("analyze-fifo")
    defer { dir.remove() }
    try Data("let total = try! compute()\n".utf8).write(to: dir.appending("Totals.swift"))
    try #require(mkfifo(dir.appending("Pipe.swift").path, 0o600) == 0)
    // Git reads `.gitignore` files too: one that is a FIFO must not block the walk either.
    try #require(mkfifo(dir.appending(".gitignore").path, 0o600) == 0)

    let text = try runBounded(["analyze", dir.path])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("1 file(s), 1 finding(s)"), "\(text.stdout)")
    #expect(
      text.stderr.contains("dolphin: notice: \(dir.path)/Pipe.swift: skipped, a FIFO (named pipe), not a regular file"),
      "\(text.stderr)")

    let json = try runBounded(["analyze", dir.path, "--json"])
    let skipped = try jsonObject(json.stdout)["skipped"] as? [[String: Any]]
    #expect(skipped?.count == 1, "\(json.stdout)")
    #expect(skipped?.first?["path"] as? String == dir.appending("Pipe.swift").path)
    #expect(skipped?.first?["reason"] as? String == "not_regular_file")

    // Named on the command line, it is an error naming what it is.
    let named = try runBounded(["analyze", dir.appending("Pipe.swift").path])
    #expect(named.status == 2, "\(named.stderr)")
    #expect(named.stderr.contains("Pipe.swift is a FIFO (named pipe), not a regular file or directory"), "\(named.stderr)")
  }

  /// `capture` refuses input holding a NUL byte as not text; `analyze` analyzed such a file.
  @Test("a .swift file holding a NUL byte is skipped as binary in a walk, and an error when named")
  func binaryFile() throws {
    let dir = TemporaryDirectory("analyze-binary")
    defer { dir.remove() }
    try Data("let total = try! compute()\n".utf8).write(to: dir.appending("Totals.swift"))
    // A compiled artefact misnamed `.swift`: bytes of a Mach-O header, NULs among them.
    try Data([0xCF, 0xFA, 0xED, 0xFE, 0x07, 0x00, 0x00, 0x01] + Array("let x = y!\n".utf8)).write(
      to: dir.appending("Blob.swift"))

    let text = try runBounded(["analyze", dir.path])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("1 file(s), 1 finding(s)"), "\(text.stdout)")
    #expect(text.stderr.contains("\(dir.path)/Blob.swift: not text: it holds a NUL byte (at byte 5)"), "\(text.stderr)")

    let json = try runBounded(["analyze", dir.path, "--json"])
    let skipped = try jsonObject(json.stdout)["skipped"] as? [[String: Any]]
    #expect(skipped?.map { $0["reason"] as? String } == ["binary"], "\(json.stdout)")

    let named = try runBounded(["analyze", dir.appending("Blob.swift").path])
    #expect(named.status == 4, "\(named.stderr)")
    #expect(named.stderr.contains("Blob.swift: not text: it holds a NUL byte (at byte 5)"), "\(named.stderr)")
  }
}
