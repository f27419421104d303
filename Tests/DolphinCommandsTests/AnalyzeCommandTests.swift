import ContinuityKit
import Foundation
import Testing
import TestSupport

/// `dolphin analyze`: a file the user names is analyzed or refused, never silently skipped.
@Suite("dolphin analyze", .serialized)
struct AnalyzeCommandTests {
  @Test("a file named explicitly over the input limit is a validation error naming file, size and limit")
  func explicitFileTooLarge() throws {
    let dir = TemporaryDirectory("analyze-big")
    defer { dir.remove() }
    let big = dir.appending("Big.swift")
    let size = Limits.codeAnalysisBytes + 1
    try Data(repeating: UInt8(ascii: "x"), count: size).write(to: big)
    for extra in [[], ["--json"]] {
      let r = try runDolphin(["analyze", big.path] + extra)
      #expect(r.status == 4, "\(r.stdout)\n\(r.stderr)")
      #expect(r.stderr.contains("\(big.path) is \(size) bytes, over the \(Limits.codeAnalysisBytes)-byte code analysis limit"), "\(r.stderr)")
      #expect(!r.stdout.contains("0 file(s)"))
      if extra == ["--json"] { #expect(r.stdout.contains(#""field" : "source""#), "\(r.stdout)") }
    }
  }

  @Test("a file named explicitly that is not .swift is a usage error")
  func explicitFileNotSwift() throws {
    let dir = TemporaryDirectory("analyze-txt")
    defer { dir.remove() }
    let readme = dir.appending("readme.txt")
    try Data("hello\n".utf8).write(to: readme)
    let r = try runDolphin(["analyze", readme.path])
    #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains("\(readme.path) is not a .swift file"), "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  @Test("a file named explicitly that is not UTF-8 is an error, not a skip")
  func explicitFileNotUTF8() throws {
    let dir = TemporaryDirectory("analyze-latin1")
    defer { dir.remove() }
    let file = dir.appending("Latin1.swift")
    try Data([0x6C, 0x65, 0x74, 0x20, 0xE9, 0x0A]).write(to: file)
    let r = try runDolphin(["analyze", file.path])
    #expect(r.status == 4, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains("\(file.path): not UTF-8 text"), "\(r.stderr)")
  }

  @Test("a directory walk still skips such files with a notice and exits 0")
  func directoryWalkSkips() throws {
    let dir = TemporaryDirectory("analyze-walk")
    defer { dir.remove() }
    try Data(repeating: UInt8(ascii: "x"), count: Limits.codeAnalysisBytes + 1).write(to: dir.appending("Big.swift"))
    try Data("hello\n".utf8).write(to: dir.appending("readme.txt"))
    try Data("let x = 1\n".utf8).write(to: dir.appending("Small.swift"))
    let r = try runDolphin(["analyze", dir.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("Big.swift: skipped, \(Limits.codeAnalysisBytes + 1) bytes is over"), "\(r.stderr)")
    #expect(r.stdout.contains("1 file(s)"))
    // A small .swift file named explicitly is analyzed as before.
    let one = try runDolphin(["analyze", dir.appending("Small.swift").path])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdout.contains("1 file(s)"))
  }
}
