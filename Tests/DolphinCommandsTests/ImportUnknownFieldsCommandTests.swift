import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Regressions (review, s14) in what `dolphin import` says about a document it reads: unknown
/// members were dropped without a word, and a lone surrogate escape got Foundation's bare "The
/// given data was not valid JSON."
@Suite("dolphin import: unknown fields and lone surrogates", .serialized)
struct ImportUnknownFieldsCommandTests {
  /// A workspace with one decision, exported; the export as text.
  func export(_ cli: CLI) throws -> String {
    _ = try cli.json(["capture", "decision", "Use SQLite for the workspace", "--content", "WAL and single-row writes."])
    let export = try cli.run(["export"])
    #expect(export.status == 0, "\(export.stderr)")
    return export.stdout
  }

  @Test("an unknown field in a record is named by its JSON path in a warning; the rest imports")
  func unknownFieldWarned() throws {
    let source = CLI()
    defer { source.dir.remove() }
    let original = try export(source)
    let text = original
      .replacingOccurrences(of: #""priority" : "normal","#, with: #""priorty" : "high", "priority" : "normal","#)
      .replacingOccurrences(of: #""format" : "dolphin-export","#, with: #""evil" : "x", "format" : "dolphin-export","#)
    let file = source.dir.appending("edited.json")
    try Data(text.utf8).write(to: file)

    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["import", file.path, "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "dolphin: warning: \(file.path): evil is not a field of export format version 1; it is ignored (is its name mistyped?)"),
      "\(r.stderr)")
    #expect(
      r.stderr.contains("dolphin: warning: \(file.path): workspace.knowledge[0].priorty is not a field of export format version 1"),
      "\(r.stderr)")
    let listed = try cli.json(["knowledge", "list"])
    #expect((listed["items"] as? [[String: Any]])?.first?["priority"] as? String == "normal")
    // Review (s16): the plan called this restore lossless while the two fields were left out.
    #expect(r.stderr.contains("empty workspace: restore of every field the format defines; 2 unknown field(s) ignored)"), "\(r.stderr)")
    #expect(!r.stderr.contains("lossless"), "\(r.stderr)")

    // An export as written draws no warning.
    let clean = CLI()
    defer { clean.dir.remove() }
    let exported = source.dir.appending("clean.json")
    try Data(original.utf8).write(to: exported)
    let quiet = try clean.run(["import", exported.path])
    #expect(quiet.status == 0 && !quiet.stderr.contains("warning"), "\(quiet.stderr)")
    #expect(quiet.stdout.contains("empty workspace: lossless restore)"), "\(quiet.stdout)")
  }

  @Test("a lone surrogate escape is refused naming the line and column, exit 4, nothing imported")
  func loneSurrogate() throws {
    let source = CLI()
    defer { source.dir.remove() }
    let text = try export(source).replacingOccurrences(
      of: #""title" : "Use SQLite for the workspace""#, with: #""title" : "Use SQLite \ud800for the workspace""#)
    let file = source.dir.appending("surrogate.json")
    try Data(text.utf8).write(to: file)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let index = try #require(lines.firstIndex { $0.contains(#"\ud800"#) })
    let column = try #require(lines[index].utf8.firstIndex(of: UInt8(ascii: "\\")))
    let columnNumber = lines[index].utf8.distance(from: lines[index].utf8.startIndex, to: column) + 1

    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["import", file.path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains("\(file.path): not valid JSON at line \(index + 1), column \(columnNumber) "), "\(r.stderr)")
    #expect(r.stderr.contains(#"\ud800 is a UTF-16 surrogate escape without its partner"#), "\(r.stderr)")
    #expect(!r.stderr.contains("The given data was not valid JSON"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.workspace + "/workspace.sqlite"))
  }
}
