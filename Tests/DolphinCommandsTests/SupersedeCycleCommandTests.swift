import Foundation
import Testing
import TestSupport

/// A supersede cycle stored by older data or a direct edit: `context` and `doctor` say so
/// instead of hiding both items.
@Suite("Supersede cycles at the command line", .serialized)
struct SupersedeCycleCommandTests {
  /// Captures "Use spaces" superseding "Use tabs", then stores the other direction too, as an
  /// older build or a direct edit could have; returns the two ids (tabs, spaces).
  static func storeCycle(in cli: CLI) throws -> (String, String) {
    let a = try cli.json(["capture", "decision", "Use tabs"])
    let aID = try #require((a["item"] as? [String: Any])?["id"] as? String)
    let b = try cli.json(["capture", "decision", "Use spaces", "--relates", "supersedes:\(aID)"])
    let bID = try #require((b["item"] as? [String: Any])?["id"] as? String)
    let edit = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       "INSERT INTO knowledge_relationship(source_id, ordinal, kind, target_id) VALUES ('\(aID)', 0, 'supersedes', '\(bID)');"])
    try #require(edit.status == 0, "\(edit.stderr)")
    return (aID, bID)
  }

  @Test("context keeps both items and asks which one stands; doctor reports the cycle with exit 5")
  func storedCycle() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let (aID, bID) = try Self.storeCycle(in: cli)

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

  @Test("export keeps a stored cycle and warns with its ids and the fix; importing that file elsewhere is refused naming them")
  func exportWarnsImportRefuses() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let (aID, bID) = try Self.storeCycle(in: cli)
    let ids = [aID, bID].sorted().joined(separator: ", ")

    let file = cli.dir.appending("export.json")
    let export = try cli.run(["export", "--output", file.path])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stderr.contains("dolphin: warning: knowledge \(ids) supersede each other in a cycle"), "\(export.stderr)")
    #expect(export.stderr.contains("`dolphin import` refuses"), "\(export.stderr)")
    #expect(export.stderr.contains("remove one of its supersedes relationships"), "\(export.stderr)")
    #expect(export.stderr.contains("--on-conflict replace"), "\(export.stderr)")
    // Nothing is lost: the file holds both relationships as stored.
    let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    let knowledge = try #require((document["workspace"] as? [String: Any])?["knowledge"] as? [[String: Any]])
    let supersedes = knowledge.flatMap { k in
      ((k["relationships"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "supersedes" }
    }
    #expect(supersedes.count == 2)

    // To stdout too, the warning goes to stderr and stdout stays the document.
    let stdout = try cli.run(["export"])
    #expect(stdout.status == 0, "\(stdout.stderr)")
    #expect(stdout.stderr.contains("supersede each other in a cycle"), "\(stdout.stderr)")
    #expect((try? JSONSerialization.jsonObject(with: Data(stdout.stdout.utf8))) != nil)
    // A Markdown export is not read by `dolphin import`: no warning.
    let markdown = try cli.run(["export", "--format", "markdown"])
    #expect(!markdown.stderr.contains("warning"), "\(markdown.stderr)")

    let elsewhere = cli.dir.appending("other").path
    let r = try runDolphin(["import", file.path, "--workspace", elsewhere])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains(aID) && r.stderr.contains(bID), "\(r.stderr)")
    #expect(r.stderr.contains("supersede cycle"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: elsewhere), "a refused import creates no workspace")

    // The fix the warning gives: remove one relationship of the cycle from the file, import it
    // back with --on-conflict replace; the workspace has no cycle left and exports cleanly.
    let edited = knowledge.map { k -> [String: Any] in
      guard k["id"] as? String == aID else { return k }
      var k = k
      k["relationships"] = [[String: Any]]()
      return k
    }
    var workspace = try #require(document["workspace"] as? [String: Any])
    workspace["knowledge"] = edited
    var fixed = document
    fixed["workspace"] = workspace
    try JSONSerialization.data(withJSONObject: fixed).write(to: file)
    let replace = try cli.run(["import", file.path, "--on-conflict", "replace", "--yes"])
    #expect(replace.status == 0, "\(replace.stderr)")
    #expect(try cli.run(["doctor"]).status == 0)
    let again = try cli.run(["export", "--output", cli.dir.appending("again.json").path])
    #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
    #expect(try runDolphin(["import", cli.dir.appending("again.json").path, "--workspace", elsewhere]).status == 0)
  }

  @Test("a workspace without a supersede cycle exports without a warning")
  func noCycleNoWarning() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let a = try cli.json(["capture", "decision", "Use tabs"])
    let aID = try #require((a["item"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["capture", "decision", "Use spaces", "--relates", "supersedes:\(aID)"]).status == 0)
    let export = try cli.run(["export", "--output", cli.dir.appending("export.json").path])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stderr.isEmpty, "\(export.stderr)")
  }
}
