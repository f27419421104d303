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

  /// Review 28-b, 1: a `hardcoded_secret` withheld its own line, but the `todo`, `long_line` and
  /// `force_try` findings on the same lines printed them, secrets included, in text, JSON and SARIF.
  @Test("no finding prints a line holding a hard-coded credential, in text, JSON or SARIF")
  func secretLineNeverPrinted() throws {
    let dir = TemporaryDirectory("analyze-secret-lines")
    defer { dir.remove() }
    let file = dir.appending("s.swift")
    try Data(
      """
      let password = "Xk9#mQ2vLp8Rz4Tw" // TODO rotate this
      let apiKey = "AKx9f8e7d6c5b4a3q2w1e9r8t7y6u5i4o3p2" ; let somethingElseThatMakesThisLineVeryLongIndeedForTheLongLineRule = 1234567
      let token = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"; let t = try! x()
      let config = try! load() // TODO: cache it

      """.utf8
    ).write(to: file)
    let secrets = ["Xk9#mQ2vLp8Rz4Tw", "AKx9f8e7d6c5b4a3q2w1e9r8t7y6u5i4o3p2", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]
    let note = "(line not shown: it holds what looks like a hard-coded credential)"

    let text = try runBounded(["analyze", file.path])
    #expect(text.status == 0, "\(text.stderr)")
    for secret in secrets { #expect(!text.stdout.contains(secret), "text prints \(secret): \(text.stdout)") }
    let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for finding in ["1:38: todo: TODO marker in a comment", "2:121: long_line: Line is 130 characters; the limit is 120", "3:65: force_try: try! crashes if the call throws; handle the error or use try?"] {
      let index = try #require(lines.firstIndex(of: "\(file.path):\(finding) \(note)"), "\(text.stdout)")
      // No snippet line under it: the next line is the next finding.
      #expect(lines[index + 1].hasPrefix(file.path), "\(text.stdout)")
    }
    // A line without a credential still shows its snippet.
    #expect(text.stdout.contains("\(file.path):4:14: force_try: try! crashes if the call throws; handle the error or use try?\n    let config = try! load() // TODO: cache it\n"), "\(text.stdout)")

    let json = try runBounded(["analyze", file.path, "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    for secret in secrets { #expect(!json.stdout.contains(secret), "JSON holds \(secret)") }
    let reports = try jsonObject(json.stdout)["reports"] as? [[String: Any]]
    let findings = reports?.first?["findings"] as? [[String: Any]] ?? []
    let onSecretLines = findings.filter { ($0["line"] as? Int ?? 0) <= 3 }
    #expect(onSecretLines.count == 6, "\(json.stdout)")
    #expect(onSecretLines.allSatisfy { $0["snippet"] as? String == "" && $0["excerpt"] as? String == "" }, "\(json.stdout)")

    let sarif = try runBounded(["analyze", file.path, "--format", "sarif"])
    #expect(sarif.status == 0, "\(sarif.stderr)")
    for secret in secrets { #expect(!sarif.stdout.contains(secret), "SARIF holds \(secret)") }
    #expect(sarif.stdout.contains(#""text" : "TODO marker in a comment \#(note)""#), "\(sarif.stdout)")
    // A line without one keeps its region's snippet.
    #expect(sarif.stdout.contains(#""text" : "try! load() "#), "\(sarif.stdout)")
  }

  /// Review 30-b, 3: a flagged secret found again in pieces under 12 bytes (11 + 9 on one line,
  /// 11 in another file, a wrap-around), or decoded from an escaped literal, was printed by the
  /// text, `--json` (snippet and excerpt) and SARIF output.
  @Test("no part of a flagged secret, nor its decoded spelling, is printed in text, JSON or SARIF")
  func secretPartsNeverPrinted() throws {
    let dir = TemporaryDirectory("analyze-secret-parts")
    defer { dir.remove() }
    try Data(
      #"""
      let password = "Zq8vLm3KpR7wXy2NbT5h"
      // TODO: old one was Zq8vLm3KpR7 and tail wXy2NbT5h
      let loginSecret = "line1Ab9Kq\nline2Zr4Wp"
      let config = ["password": "Pw4Rt7Yu1Io3Pa6Sd9Fg"]

      """#.utf8
    ).write(to: dir.appending("a.swift"))
    try Data(
      #"""
      // TODO partial Zq8vLm3KpR7 only
      let z = try! q()  // NbT5hZq8vLm3 wrap-around
      // TODO old: line1Ab9Kq line2Zr4Wp
      // TODO Pw4Rt7Yu1Io3
      let fine = try! h() // TODO keep

      """#.utf8
    ).write(to: dir.appending("b.swift"))
    let a = dir.appending("a.swift").path
    let b = dir.appending("b.swift").path
    let pieces = ["Zq8vLm3KpR7", "wXy2NbT5h", "NbT5hZq8", "line1Ab9Kq", "line2Zr4Wp", "Pw4Rt7Yu1Io3"]
    let note = "(line not shown: it holds what looks like a hard-coded credential)"

    let text = try runBounded(["analyze", a, b])
    #expect(text.status == 0, "\(text.stderr)")
    for piece in pieces { #expect(!text.stdout.contains(piece), "text prints \(piece): \(text.stdout)") }
    #expect(text.stdout.contains("\(a):4:16: hardcoded_secret: "), "\(text.stdout)")
    for finding in ["\(b):1:4: todo: TODO marker in a comment \(note)", "\(b):2:9: force_try: try! crashes if the call throws; handle the error or use try? \(note)"] {
      #expect(text.stdout.contains(finding + "\n"), "\(text.stdout)")
    }
    #expect(text.stdout.contains("\n    let fine = try! h() // TODO keep\n"), "\(text.stdout)")

    let json = try runBounded(["analyze", a, b, "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    for piece in pieces { #expect(!json.stdout.contains(piece), "JSON holds \(piece)") }
    let reports = try jsonObject(json.stdout)["reports"] as? [[String: Any]]
    let findings = reports?.last?["findings"] as? [[String: Any]] ?? []
    let withheld = findings.filter { ($0["line"] as? Int ?? 0) <= 4 }
    #expect(withheld.count == 4 && withheld.allSatisfy { $0["snippet"] as? String == "" && $0["excerpt"] as? String == "" }, "\(json.stdout)")

    let sarif = try runBounded(["analyze", a, b, "--format", "sarif"])
    #expect(sarif.status == 0, "\(sarif.stderr)")
    for piece in pieces { #expect(!sarif.stdout.contains(piece), "SARIF holds \(piece)") }
    #expect(sarif.stdout.contains(#""text" : "try! h() // TODO keep""#), "\(sarif.stdout)")
  }

  /// Review 28-b, 2: `analyze proj/*.swift` followed `proj/config.swift -> ../secret/env` and
  /// printed the file's lines, while `analyze proj` skipped the link.
  @Test("a .swift link named on the command line that leads out of its folder is skipped with a notice, as in a walk")
  func namedLinkOutsideItsFolder() throws {
    let dir = TemporaryDirectory("analyze-named-link")
    defer { dir.remove() }
    let fm = FileManager.default
    for folder in ["proj", "secret", "lib"] {
      try fm.createDirectory(at: dir.appending(folder), withIntermediateDirectories: true)
    }
    try Data(("API_TOKEN_X=sk-" + String(repeating: "A", count: 130) + " // TODO rotate\nDB_PASS=abc // FIXME\n").utf8)
      .write(to: dir.appending("secret/env"))
    try Data("let shared = try! make()\n".utf8).write(to: dir.appending("lib/Util.swift"))
    try Data("let a = 1\nlet b = c!\n".utf8).write(to: dir.appending("proj/main.swift"))
    try fm.createSymbolicLink(atPath: dir.appending("proj/config.swift").path, withDestinationPath: "../secret/env")
    try fm.createSymbolicLink(atPath: dir.appending("proj/util.swift").path, withDestinationPath: "../lib/Util.swift")
    try fm.createSymbolicLink(atPath: dir.appending("proj/alias.swift").path, withDestinationPath: "main.swift")
    let env = dir.appending("secret/env").resolvingSymlinksInPath().path
    let util = dir.appending("lib/Util.swift").resolvingSymlinksInPath().path
    // What the shell makes of `proj/*.swift`.
    let glob = ["proj/alias.swift", "proj/config.swift", "proj/main.swift", "proj/util.swift"]

    let text = try runDolphin(["analyze"] + glob, currentDirectory: dir.url)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(!text.stdout.contains("API_TOKEN") && !text.stdout.contains("DB_PASS") && !text.stdout.contains("try! make()"), "\(text.stdout)")
    #expect(text.stdout.hasPrefix("Heuristic code analysis (read-only lexical checks; not a compiler): 1 file(s), 1 finding(s)\n"), "\(text.stdout)")
    // A link inside the folder is followed, as in a walk.
    #expect(text.stdout.contains("proj/alias.swift:2:10: force_unwrap"), "\(text.stdout)")
    #expect(
      text.stderr.contains(
        "dolphin: notice: proj/config.swift: skipped, a symbolic link to \(env), outside the folder holding the link (not followed)\n"),
      "\(text.stderr)")
    #expect(
      text.stderr.contains(
        "dolphin: notice: proj/util.swift: skipped, a symbolic link to \(util), outside the folder holding the link "
          + "(not followed; name \(util) itself to analyze it)"), "\(text.stderr)")

    let json = try runDolphin(["analyze", "--json"] + glob, currentDirectory: dir.url)
    #expect(json.status == 0, "\(json.stderr)")
    let skipped = try jsonObject(json.stdout)["skipped"] as? [[String: Any]]
    #expect(skipped?.map { "\($0["reason"] ?? "") \($0["path"] ?? "")" } == [
      // proj/main.swift is the file proj/alias.swift leads to, analyzed under that name (review 28-d, 9).
      "link_outside_tree proj/config.swift", "same_file proj/main.swift", "link_outside_tree proj/util.swift",
    ], "\(json.stdout)")
    let sarif = try runDolphin(["analyze", "--format", "sarif"] + glob, currentDirectory: dir.url)
    #expect(sarif.stdout.contains("proj/config.swift: skipped, a symbolic link to"), "\(sarif.stdout)")
    #expect(!sarif.stdout.contains("API_TOKEN"), "\(sarif.stdout)")

    // The advice works: naming the target analyzes it.
    let followed = try runDolphin(["analyze", util])
    #expect(followed.status == 0, "\(followed.stderr)")
    #expect(followed.stdout.contains("\(util):1:14: force_try"), "\(followed.stdout)")

    // Named alone, the link leaves nothing analyzed, and the report says so.
    let alone = try runDolphin(["analyze", "proj/config.swift"], currentDirectory: dir.url)
    #expect(alone.status == 0, "\(alone.stderr)")
    #expect(alone.stdout.contains("\nNo Swift file was analyzed: 1 path(s) skipped, each named in a notice with the reason.\n"), "\(alone.stdout)")
    #expect(!alone.stdout.contains("API_TOKEN"), "\(alone.stdout)")
  }
}
