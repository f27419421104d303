import Foundation
import Testing
import TestSupport

/// Review 26-a, #4: import keeps repeated ids once and says so; doctor names stored repeats.
@Suite("Repeated ids on import and in doctor", .serialized)
struct ImportRepeatedIDsCommandTests {
  @Test("an export whose task and handoff repeat an id restores each id once, and the plan says how many it drops")
  func importKeepsOnce() throws {
    let source = CLI()
    defer { source.dir.remove() }
    let k = try #require(try source.record("item", ["capture", "decision", "Use WAL"])["id"] as? String)
    let t = try #require(try source.record("task", ["task", "add", "Bench", "--knowledge", k])["id"] as? String)
    _ = try source.json(["handoff", "create", "--focus", "f", "--knowledge", k, "--task", t])
    let file = source.dir.appending("dup.json").path
    #expect(try source.run(["export", "--output", file]).status == 0)
    var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    var tasks = try #require(workspace["tasks"] as? [[String: Any]])
    tasks[0]["knowledgeIDs"] = [k, k]
    var handoffs = try #require(workspace["handoffs"] as? [[String: Any]])
    handoffs[0]["knowledgeIDs"] = [k, k, k]
    workspace["tasks"] = tasks
    workspace["handoffs"] = handoffs
    document["workspace"] = workspace
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: file))

    let target = CLI()
    defer { target.dir.remove() }
    let r = try target.run(["import", file])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("empty workspace: restore of every record; 3 repeated id(s) kept once, see below"), "\(r.stdout)")
    #expect(!r.stdout.contains("lossless"), "\(r.stdout)")
    #expect(r.stdout.contains("3 repeated id(s) dropped from tasks' and handoffs' id lists"), "\(r.stdout)")
    let listed = try #require(try target.json(["task", "list"])["tasks"] as? [[String: Any]])
    #expect(listed.first?["knowledgeIDs"] as? [String] == [k])
    let handoff = try target.record("handoff", ["handoff", "get", "latest"])
    #expect(handoff["knowledgeIDs"] as? [String] == [k])
    #expect(try target.run(["doctor"]).status == 0)

    // --json carries the count in the plan.
    let again = CLI()
    defer { again.dir.remove() }
    let json = try again.json(["import", file])
    #expect((json["plan"] as? [String: Any])?["droppedRepeatedIDs"] as? Int == 3, "\(json)")
  }

  @Test("doctor names an id a stored task lists twice, and the export-and-import it suggests keeps it once")
  func doctorNamesStoredRepeats() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require(try cli.record("item", ["capture", "decision", "Use WAL"])["id"] as? String)
    let t = try #require(try cli.record("task", ["task", "add", "Bench", "--knowledge", k])["id"] as? String)
    // As an earlier build's import stored it.
    try RefusedTextCommandTests.sqlite(cli, "UPDATE task SET knowledge_ids = json_array('\(k)', '\(k)') WHERE id = '\(t)'")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status != 0, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("task \(t) lists knowledge item \(k) 2 times in its knowledgeIDs"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("import FILE --on-conflict replace --yes"), "\(doctor.stdout)")
    let file = cli.dir.appending("self.json").path
    #expect(try cli.run(["export", "--output", file]).status == 0)
    let replace = try cli.run(["import", file, "--on-conflict", "replace", "--yes"])
    #expect(replace.status == 0, "\(replace.stderr)")
    #expect(replace.stdout.contains("1 repeated id(s) dropped"), "\(replace.stdout)")
    let listed = try #require(try cli.json(["task", "list"])["tasks"] as? [[String: Any]])
    #expect(listed.first?["knowledgeIDs"] as? [String] == [k])
    let healthy = try cli.run(["doctor"])
    #expect(healthy.status == 0, "\(healthy.stdout)")
  }
}
