import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Review 22 (1): `dolphin analyze t5` with `t5/sub\xFE/x.swift` and `t5/bad\xFF.swift` beside
/// `t5/ok.swift` said "1 file(s), 0 finding(s)", nothing on stderr, `skipped: []`: names that are
/// not UTF-8 were dropped without a word. They are analyzed now, named with `\xHH` escapes.
@Suite("dolphin analyze: names that are not UTF-8", .serialized)
struct AnalyzeNonUTF8NamesTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// Writes `text` to the file at `path` (bytes).
  static func write(_ text: String, to path: [UInt8]) throws {
    let fd = SystemPath.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
    try #require(fd >= 0, "open \(SystemPath.shown(path))")
    try FileHandle(fileDescriptor: fd, closeOnDealloc: true).write(contentsOf: Data(text.utf8))
  }

  func run(_ arguments: [String]) throws -> ProcessResult {
    try runProcess("/usr/bin/timeout", ["60", dolphinExecutable().path] + arguments)
  }

  @Test("the reviewer's tree: three files analyzed, findings named with escapes in text, JSON and SARIF")
  func reviewersTree() throws {
    let dir = TemporaryDirectory("analyze-non-utf8")
    defer { dir.remove() }
    let t5 = dir.appending("t5").path
    let sub = Self.bytes(t5) + Self.bytes("/sub") + [0xFE]
    try FileManager.default.createDirectory(atPath: t5, withIntermediateDirectories: true)
    try #require(SystemPath.withCString(sub) { mkdir($0, 0o700) } == 0)
    try Self.write("let a = try! b()\n", to: sub + Self.bytes("/x.swift"))
    try Self.write("let a = 1\n", to: Self.bytes(t5 + "/ok.swift"))
    try Self.write("let c = d!\n", to: Self.bytes(t5 + "/bad") + [0xFF] + Self.bytes(".swift"))

    let text = try run(["analyze", t5])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stderr.isEmpty, "\(text.stderr)")
    #expect(text.stdout.contains("3 file(s), 2 finding(s)"), "\(text.stdout)")
    #expect(text.stdout.contains("\(t5)/sub\\xFE/x.swift:1:9: force_try"), "\(text.stdout)")
    #expect(text.stdout.contains("\(t5)/bad\\xFF.swift:1:10: force_unwrap"), "\(text.stdout)")

    let json = try run(["analyze", t5, "--format", "json"])
    #expect(json.status == 0, "\(json.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((doc["skipped"] as? [Any])?.isEmpty == true, "\(json.stdout)")
    let reports = try #require(doc["reports"] as? [[String: Any]])
    #expect(reports.map { $0["fileName"] as? String } == ["\(t5)/bad\\xFF.swift", "\(t5)/ok.swift", "\(t5)/sub\\xFE/x.swift"])
    let encoded = SystemPath.percentEncoded(Self.bytes(t5))
    #expect(
      reports.map { $0["fileNamePercentEncoded"] as? String } == ["\(encoded)/bad%FF.swift", nil, "\(encoded)/sub%FE/x.swift"],
      "\(json.stdout)")

    let sarif = try run(["analyze", t5, "--format", "sarif"])
    #expect(sarif.status == 0, "\(sarif.stderr)")
    let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
    let results = try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
    let uris = results.compactMap {
      (($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        .flatMap { ($0["artifactLocation"] as? [String: Any])?["uri"] as? String }
    }
    #expect(uris.sorted() == ["file://\(encoded)/bad%FF.swift", "file://\(encoded)/sub%FE/x.swift"], "\(uris)")
  }
}
