import Foundation
import Testing
import TestSupport

/// A supersede cycle stored by older data or a direct edit: `context` and `doctor` say so
/// instead of hiding both items.
@Suite("Supersede cycles at the command line", .serialized)
struct SupersedeCycleCommandTests {
  @Test("context keeps both items and asks which one stands; doctor reports the cycle with exit 5")
  func storedCycle() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let a = try cli.json(["capture", "decision", "Use tabs"])
    let aID = try #require((a["item"] as? [String: Any])?["id"] as? String)
    let b = try cli.json(["capture", "decision", "Use spaces", "--relates", "supersedes:\(aID)"])
    let bID = try #require((b["item"] as? [String: Any])?["id"] as? String)
    // The other direction, as an older build or a direct edit could have stored it.
    let edit = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       "INSERT INTO knowledge_relationship(source_id, ordinal, kind, target_id) VALUES ('\(aID)', 0, 'supersedes', '\(bID)');"])
    #expect(edit.status == 0, "\(edit.stderr)")

    let context = try cli.run(["context"])
    #expect(context.status == 0, "\(context.stderr)")
    #expect(context.stdout.contains("Use tabs"), "\(context.stdout)")
    #expect(context.stdout.contains("Supersede cycle: Use spaces; Use tabs supersede each other — decide which one stands"), "\(context.stdout)")

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    let ids = [aID, bID].sorted().joined(separator: ", ")
    #expect(doctor.stdout.contains("knowledge \(ids) supersede each other in a cycle"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Reference problems were found (dangling references or supersede cycles)"))
  }

  @Test("an import that would store a cycle is refused with exit 4 and the record's path")
  func importRefused() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "seed"]).status == 0)
    let file = cli.dir.appending("export.json")
    #expect(try cli.run(["export", "--output", file.path]).status == 0)
    var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    let x = "00000000-0000-0000-0000-0000000000A1", y = "00000000-0000-0000-0000-0000000000A2"
    func decision(_ id: String, _ title: String, supersedes target: String) -> [String: Any] {
      [
        "id": id, "kind": "decision", "title": title, "content": "", "source": "import", "tags": [String](),
        "relationships": [["kind": "supersedes", "targetID": target]], "priority": "normal",
        "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z", "revision": 1,
      ]
    }
    workspace["knowledge"] = [decision(x, "Use tabs", supersedes: y), decision(y, "Use spaces", supersedes: x)]
    document["workspace"] = workspace
    try JSONSerialization.data(withJSONObject: document).write(to: file)
    let r = try cli.run(["import", file.path, "--on-conflict", "skip"])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains("workspace.knowledge[0].relationships[0]"), "\(r.stderr)")
    #expect(r.stderr.contains("cannot supersede \(y)"), "\(r.stderr)")
    #expect(try cli.run(["knowledge", "list"]).stdout.contains("seed"))
    #expect(try !cli.run(["knowledge", "list"]).stdout.contains("Use tabs"))
  }
}
