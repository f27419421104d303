import Foundation
import Testing
import TestSupport

/// A title printed next to ids cannot forge one: ids come first, and a quoted title has its
/// quotes escaped (review's task line, a brief's references, a deletion plan).
@Suite("titles next to ids", .serialized)
struct QuotedTitleTests {
  static let fake = "AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA"
  /// A title that, printed as `"TITLE" (ID, created DATE)`, would show a forged id and date.
  static let forged = #"Rotate keys" (\#(fake), created 2020-01-01T00:00:00.000Z); newest: "x"#
  static let forgedShown = #""Rotate keys\" (\#(fake), created 2020-01-01T00:00:00.000Z); newest: \"x""#

  static func id(_ obj: [String: Any]) throws -> String {
    try #require(((obj["item"] as? [String: Any]) ?? obj)["id"] as? String)
  }

  @Test("review: the oldest open task's id and date come first, its title last with quotes escaped")
  func reviewTaskLine() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let t = try Self.id(cli.record("task", ["task", "add", Self.forged]))
    let r = try cli.run(["review"])
    #expect(r.status == 0, "\(r.stderr)")
    let line = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("Tasks: ") })
    #expect(line.hasPrefix("Tasks: 1 open, 0 completed; oldest open: \(t) (created "), "\(line)")
    #expect(line.hasSuffix(") " + Self.forgedShown), "\(line)")
    #expect(line.components(separatedBy: Self.fake).count == 2, "the forged id appears once, inside the title: \(line)")
  }

  @Test("a restored handoff's brief lists each record's id before its quoted title")
  func briefReferences() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try Self.id(cli.json(["capture", "fact", #"Keys rotated  (\#(Self.fake))"#]))
    let t = try Self.id(cli.record("task", ["task", "add", #"Rotate keys" [completed]  (\#(Self.fake))"#]))
    let h = try #require(
      (try cli.json(["handoff", "create", "--focus", "Keys", "--knowledge", k, "--task", t])["handoff"] as? [String: Any])?["id"]
        as? String)
    let r = try cli.run(["handoff", "restore", h])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("  - \(k)  fact: \"Keys rotated  (\(Self.fake))\""), "\(r.stdout)")
    #expect(lines.contains(#"  - \#(t)  task [open]: "Rotate keys\" [completed]  (\#(Self.fake))""#), "\(r.stdout)")
    #expect(!lines.contains { $0.hasPrefix("  - \(Self.fake)") })
  }

  @Test("a deletion plan names each record's id before its quoted title")
  func deletionPlan() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let target = try Self.id(cli.json(["capture", "decision", Self.forged]))
    let owner = try Self.id(cli.json(["capture", "fact", #"Owner" (\#(Self.fake))"#, "--relates", "supports:\(target)"]))
    let t = try Self.id(cli.record("task", ["task", "add", #"Task" (\#(Self.fake))"#, "--knowledge", target]))
    let h = try #require(
      (try cli.json(["handoff", "create", "--focus", #"Focus" (\#(Self.fake))"#, "--knowledge", target])["handoff"]
        as? [String: Any])?["id"] as? String)
    let r = try cli.run(["knowledge", "delete", target, "--yes"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("Deletion plan: delete knowledge \(target) \(Self.forgedShown)"), "\(r.stdout)")
    #expect(lines.contains(#"  - remove relationship supports from \#(owner) "Owner\" (\#(Self.fake))""#), "\(r.stdout)")
    #expect(lines.contains(#"  - remove it from task \#(t) "Task\" (\#(Self.fake))""#), "\(r.stdout)")
    #expect(
      lines.contains { $0.hasPrefix(#"  - remove it from handoff \#(h) "Focus\" (\#(Self.fake))" "#) }, "\(r.stdout)")
  }
}
