import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 18-b B1–B3 through the built binary, with the review's reproduction steps.
@Suite("Superseded items and task status in continuity commands", .serialized)
struct SupersededContinuityCommandTests {
  static func id(_ obj: [String: Any]) throws -> String {
    let inner = (obj["item"] as? [String: Any]) ?? (obj["handoff"] as? [String: Any]) ?? obj
    return try #require(inner["id"] as? String)
  }

  /// A ← B ← C, each superseding the one before (the review's w20).
  static func chain(_ cli: CLI) throws -> (a: String, b: String, c: String) {
    let a = try id(cli.json(["capture", "decision", "Use JSON files for storage", "--tags", "storage"]))
    let b = try id(cli.json(["capture", "decision", "Use SQLite for storage", "--tags", "storage", "--relates", "supersedes:\(a)"]))
    let c = try id(cli.json(["capture", "decision", "Use Postgres for storage", "--tags", "storage", "--relates", "supersedes:\(b)"]))
    return (a, b, c)
  }

  @Test("handoff create --auto leaves superseded decisions out and says so; restore, get and search mark them")
  func supersededAreMarked() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let (a, b, c) = try Self.chain(cli)
    let created = try cli.run(["handoff", "create", "--focus", "storage", "--auto"])
    #expect(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.contains("Left out 2 superseded knowledge item(s) that matched"), "\(created.stdout)")
    #expect(!created.stdout.contains("JSON files") && !created.stdout.contains("\"Use SQLite"), "\(created.stdout)")
    let handoffs = try cli.json(["handoff", "list"])
    let h = try #require(((handoffs["handoffs"] as? [[String: Any]])?.first)?["id"] as? String)

    // A handoff that carries them by hand: the brief marks each and names its successor.
    let explicit = try Self.id(cli.json(["handoff", "create", "--focus", "storage", "--knowledge", c, "--knowledge", b, "--knowledge", a]))
    let restore = try cli.run(["handoff", "restore", explicit])
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(restore.stdout.contains("decision: \"Use SQLite for storage\"  [superseded by \(c)]"), "\(restore.stdout)")
    #expect(restore.stdout.contains("decision: \"Use JSON files for storage\"  [superseded by \(b)]"))
    #expect(restore.stdout.contains("decision: \"Use Postgres for storage\"\n"))
    #expect(restore.stdout.contains(#"decision "Use SQLite for storage" (superseded)"#), "the summary marks them")
    let restoredJSON = try cli.json(["handoff", "restore", h])
    #expect(((restoredJSON["knowledge"] as? [[String: Any]]) ?? []).allSatisfy { $0["supersededBy"] == nil })

    let get = try cli.run(["knowledge", "get", b])
    #expect(get.stdout.contains("superseded by: \(c) \"Use Postgres for storage\""), "\(get.stdout)")
    let getJSON = try cli.json(["knowledge", "get", b])
    #expect(getJSON["supersededBy"] as? [String] == [c])
    #expect((getJSON["item"] as? [String: Any])?["title"] as? String == "Use SQLite for storage", "the item under its key")
    #expect(getJSON["title"] == nil, "the item's fields are not mixed into the document")
    #expect(try cli.json(["knowledge", "get", c])["supersededBy"] == nil)

    let search = try cli.run(["search", "storage"])
    #expect(search.stdout.contains("\"Use JSON files for storage\"  [superseded by \(b)]"), "\(search.stdout)")
    let rows = try #require(try cli.json(["search", "storage"])["results"] as? [[String: Any]])
    let marks = Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "", $0["supersededBy"] as? [String]) })
    #expect(marks[a] == [b] && marks[b] == [c])
    #expect(marks.keys.contains(c) && (marks[c] ?? nil) == nil, "the current decision carries no mark")
  }

  @Test("captured since links a new decision to the handoff item it supersedes")
  func capturedSinceLinks() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let old = try Self.id(cli.json(["capture", "decision", "Use Postgres 16 for storage"]))
    let h = try Self.id(cli.json(["handoff", "create", "--focus", "storage", "--knowledge", old]))
    let new = try Self.id(cli.json(["capture", "decision", "Stay on SQLite after all", "--relates", "supersedes:\(old)"]))
    let restore = try cli.run(["handoff", "restore", h])
    #expect(restore.stdout.contains("\"Stay on SQLite after all\"  [supersedes \(old) (in this handoff)]"), "\(restore.stdout)")
    #expect(restore.stdout.contains("\"Use Postgres 16 for storage\"  [superseded by \(new)]"))
  }

  @Test("deleting the middle of a supersede chain names the decision that comes back")
  func deletionPlanNamesWhatComesBack() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let (a, b, c) = try Self.chain(cli)
    let r = try cli.run(["knowledge", "delete", b, "--yes"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains("knowledge item \(a) \"Use JSON files for storage\" is then superseded by no item and shows as current again"),
      "\(r.stdout)")
    #expect(r.stdout.contains("dolphin knowledge edit \(c) --relates supersedes:\(a)"))
  }

  @Test("task complete and reopen rebuild the rule-built summary of a handoff that carries the task")
  func taskStatusRebuildsSummary() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let t = try Self.id(cli.record("task", ["task", "add", "Write the migration"]))
    let h = try Self.id(cli.json(["handoff", "create", "--focus", "migration", "--task", t]))
    #expect(try cli.run(["task", "complete", t]).status == 0)
    let restore = try cli.run(["handoff", "restore", h])
    #expect(restore.stdout.contains(#"Tasks marked completed: "Write the migration"."#), "\(restore.stdout)")
    #expect(!restore.stdout.contains("Open tasks:"))
    #expect(try cli.run(["task", "reopen", t]).status == 0)
    let again = try cli.run(["handoff", "get", h])
    #expect(again.stdout.contains(#"Open tasks: "Write the migration"."#), "\(again.stdout)")
  }

  // Review 18-d, M10: `knowledge list` showed superseded items as equals of the current one.
  @Test("knowledge list marks superseded items, in text and as a supersededBy map in JSON")
  func knowledgeListMarks() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let (a, b, c) = try Self.chain(cli)
    let list = try cli.run(["knowledge", "list"])
    #expect(list.status == 0, "\(list.stderr)")
    let lines = list.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first { $0.contains("Use SQLite for storage") }?.hasSuffix("[superseded by \(c)]") == true, "\(list.stdout)")
    #expect(lines.first { $0.contains("Use JSON files for storage") }?.hasSuffix("[superseded by \(b)]") == true, "\(list.stdout)")
    #expect(lines.first { $0.contains("Use Postgres for storage") }?.contains("superseded") == false, "\(list.stdout)")
    let json = try cli.json(["knowledge", "list"])
    let marks = try #require(json["supersededBy"] as? [String: [String]])
    #expect(marks == [b: [c], a: [b]])
    // Nothing superseded: no map.
    let other = CLI()
    defer { other.dir.remove() }
    _ = try other.run(["capture", "fact", "Grafana runs on port 3000"])
    #expect(try other.json(["knowledge", "list"])["supersededBy"] == nil)
  }

  @Test("memory list and memory search mark a memory whose mirror is superseded, in text and JSON")
  func memoryMarks() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let saved = try cli.json(["memory", "save", "Deploys go through the staging cluster first"])
    let memory = try #require((saved["memory"] as? [String: Any])?["id"] as? String)
    let mirror = try #require((saved["mirror"] as? [String: Any])?["id"] as? String)
    let other = try cli.json(["memory", "save", "The staging cluster runs in eu-west-1"])
    let otherID = try #require((other["memory"] as? [String: Any])?["id"] as? String)
    // Nothing superseded yet: no marks, no map.
    #expect(try cli.json(["memory", "list"])["supersededBy"] == nil)
    #expect(!(try cli.run(["memory", "search", "staging"]).stdout.contains("superseded")))

    let newer = try Self.id(
      cli.json(["capture", "decision", "Deploys go straight to production behind a flag", "--relates", "supersedes:\(mirror)"]))
    let list = try cli.run(["memory", "list"])
    #expect(list.status == 0, "\(list.stderr)")
    let lines = list.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first { $0.hasPrefix(memory) }?.hasSuffix("[superseded by \(newer)]") == true, "\(list.stdout)")
    #expect(lines.first { $0.hasPrefix(otherID) }?.contains("superseded") == false, "\(list.stdout)")
    #expect(try cli.json(["memory", "list"])["supersededBy"] as? [String: [String]] == [memory: [newer]])

    let search = try cli.run(["memory", "search", "staging cluster"])
    #expect(search.status == 0, "\(search.stderr)")
    let row = search.stdout.split(separator: "\n").first { $0.contains(memory) }
    #expect(row?.hasSuffix("[superseded by \(newer)]") == true, "\(search.stdout)")
    let rows = try #require(try cli.json(["memory", "search", "staging cluster"])["results"] as? [[String: Any]])
    let marks = Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "", $0["supersededBy"] as? [String]) })
    #expect(marks[memory] == [newer], "\(rows)")
    #expect(marks.keys.contains(otherID) && (marks[otherID] ?? nil) == nil)
    // Beside knowledge, ranked as its mirror: the same mark.
    let both = try #require(try cli.json(["search", "staging cluster", "--include-memories"])["results"] as? [[String: Any]])
    #expect(both.first { $0["id"] as? String == memory }?["supersededBy"] as? [String] == [newer], "\(both)")
  }
}
