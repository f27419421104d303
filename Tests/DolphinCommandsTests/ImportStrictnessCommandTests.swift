import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A new user's review of `dolphin import`: crossed memory ↔ mirror links, the capacity message
/// for a file's own knowledge limit, and the conflicts of a `--json` dry run.
@Suite("dolphin import strictness", .serialized)
struct ImportStrictnessCommandTests {
  /// Two memories and a user decision, exported; returns the export as a JSON object.
  func seededExport(_ cli: CLI) throws -> [String: Any] {
    _ = try cli.json(["capture", "decision", "Use SQLite for the workspace"])
    _ = try cli.json(["memory", "save", "Prefers tabs over spaces"])
    _ = try cli.json(["memory", "save", "Standup is at nine"])
    let export = try cli.run(["export"])
    #expect(export.status == 0, "\(export.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
  }

  func write(_ object: [String: Any], _ url: URL) throws {
    try JSONSerialization.data(withJSONObject: object).write(to: url)
  }

  @Test("the review's repro: a memory linked to a user decision is refused (exit 4); a stored one makes doctor exit 5, and memory delete keeps the decision")
  func crossedLink() throws {
    let source = CLI()
    defer { source.dir.remove() }
    var document = try seededExport(source)
    var ws = try #require(document["workspace"] as? [String: Any])
    var memories = try #require(ws["memories"] as? [[String: Any]])
    let knowledge = try #require(ws["knowledge"] as? [[String: Any]])
    let decision = try #require(knowledge.first { $0["source"] as? String == "user" }?["id"] as? String)
    let memory = try #require(memories[0]["id"] as? String)
    memories[0]["knowledgeID"] = decision
    ws["memories"] = memories
    document["workspace"] = ws
    let file = source.dir.appending("crossed.json")
    try write(document, file)

    let cli = CLI()
    defer { cli.dir.remove() }
    let refused = try cli.run(["import", file.path, "--json"])
    #expect(refused.status == 4, "\(refused.stderr)")
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(error["field"] as? String == "workspace.memories[0].knowledgeID")
    let message = try #require(error["message"] as? String)
    #expect(message.hasPrefix("crossed.json: workspace.memories[0].knowledgeID (in record \(memory))"), "\(message)")
    #expect(message.contains("knowledge item \(decision)"), "\(message)")
    #expect(!FileManager.default.fileExists(atPath: cli.workspace + "/workspace.sqlite"))

    // The same link stored (an import by an earlier build): doctor reports it, deletion keeps the decision.
    let edit = try runProcess(
      "/usr/bin/env",
      ["sqlite3", source.workspace + "/workspace.sqlite", "UPDATE memory SET knowledge_id = '\(decision)' WHERE id = '\(memory)';"])
    #expect(edit.status == 0, "\(edit.stderr)")
    let doctor = try source.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stdout.contains("memory \(memory) links to knowledge \(decision) as its mirror, but that item does not mirror it"), "\(doctor.stdout)")
    let delete = try source.run(["memory", "delete", memory, "--yes"])
    #expect(delete.status == 0, "\(delete.stderr)")
    #expect(delete.stdout.contains("keep knowledge item \(decision)"), "\(delete.stdout)")
    #expect(try source.run(["knowledge", "get", decision]).status == 0)
    #expect(try source.run(["doctor"]).status == 0)
  }

  @Test("a handoff's blank next step is refused (exit 4) naming the file, record, field, bound and value; the workspace is left as it was, and the file without it imports")
  func blankNextStep() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    var document = try seededExport(cli)
    let created = try cli.run(["handoff", "create", "--focus", "Import rules", "--next", "Check the steps"])
    #expect(created.status == 0, "\(created.stderr)")
    let before = try cli.run(["export"]).stdout
    var ws = try #require(document["workspace"] as? [String: Any])
    let handoffID = "00000000-0000-0000-0000-0000000000AB"
    ws["handoffs"] = [
      [
        "id": handoffID, "focus": "From the file", "summary": "", "nextSteps": ["Do this", " \t "], "knowledgeIDs": [],
        "taskIDs": [], "recentExcerpts": [], "createdAt": "2026-01-02T03:04:05.000Z",
      ] as [String: Any]
    ]
    document["workspace"] = ws
    let file = cli.dir.appending("blank-step.json")
    try write(document, file)

    let refused = try cli.run(["import", file.path, "--on-conflict", "replace"])
    #expect(refused.status == 4, "\(refused.stdout)\(refused.stderr)")
    #expect(
      refused.stderr.contains(
        "dolphin: error: blank-step.json: workspace.handoffs[0] (id \(handoffID)): nextSteps[1] is empty: it is ' \\t ' "
          + "(3 character(s), none visible); a next step holds 1 to 300 visible characters, as `dolphin handoff create "
          + "--next` requires. Remove the empty step from the file. Nothing was imported"),
      "\(refused.stderr)")
    var after = try cli.run(["export"]).stdout
    // Only the export's own timestamp differs.
    func withoutExportedAt(_ text: String) -> String {
      text.split(separator: "\n").filter { !$0.contains("\"exportedAt\"") }.joined(separator: "\n")
    }
    #expect(withoutExportedAt(after) == withoutExportedAt(before))

    // Without the blank step it imports, and its empty summary is built by rules as at capture.
    ws["handoffs"] = [
      [
        "id": handoffID, "focus": "From the file", "summary": "", "nextSteps": ["Do this"], "knowledgeIDs": [],
        "taskIDs": [], "recentExcerpts": [], "createdAt": "2026-01-02T03:04:05.000Z",
      ] as [String: Any]
    ]
    document["workspace"] = ws
    try write(document, file)
    let imported = try cli.run(["import", file.path])
    #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    let shown = try cli.run(["handoff", "get", handoffID])
    #expect(shown.stdout.contains("Summary generated by rules from the selected records"), "\(shown.stdout)")
    // Imported again: the same record (new, same, conflicting), although its summary was built.
    after = try cli.run(["import", file.path]).stdout
    let row = after.split(separator: "\n").first { $0.hasPrefix("  handoffs ") }
    #expect(row?.split(separator: " ") == ["handoffs", "0", "1", "0"], "\(after)")
  }

  @Test("a file whose knowledgeItemLimit is below its items: the error names the file, the setting, the limit and the count")
  func fileKnowledgeLimit() throws {
    let source = CLI()
    defer { source.dir.remove() }
    var document = try seededExport(source)
    var ws = try #require(document["workspace"] as? [String: Any])
    var settings = try #require(ws["settings"] as? [String: Any])
    settings["knowledgeItemLimit"] = 2
    ws["settings"] = settings
    document["workspace"] = ws
    let file = source.dir.appending("small.json")
    try write(document, file)

    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["import", file.path, "--json"])
    #expect(r.status == 4, "\(r.stderr)")
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(error["field"] as? String == "workspace.settings.knowledgeItemLimit")
    let message = try #require(error["message"] as? String)
    #expect(message.hasPrefix("small.json: workspace.settings.knowledgeItemLimit is 2"), "\(message)")
    #expect(message.contains("would then hold 3 knowledge items (0 already here and 3 new from the file)"), "\(message)")
    #expect(message.contains("raise knowledgeItemLimit in the file to at least 3"), "\(message)")
    #expect(!message.contains("dolphin knowledge delete"), "\(message)")
  }

  @Test("import --dry-run --json with conflicts puts the plan, conflicts structured, in error.plan")
  func dryRunConflictsCarryThePlan() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    var document = try seededExport(cli)
    var ws = try #require(document["workspace"] as? [String: Any])
    var knowledge = try #require(ws["knowledge"] as? [[String: Any]])
    let i = try #require(knowledge.firstIndex { $0["source"] as? String == "user" })
    let id = try #require(knowledge[i]["id"] as? String)
    knowledge[i]["content"] = "Changed elsewhere."
    ws["knowledge"] = knowledge
    document["workspace"] = ws
    let file = cli.dir.appending("theirs.json")
    try write(document, file)

    let r = try cli.run(["import", file.path, "--dry-run", "--json"])
    #expect(r.status == 4, "\(r.stderr)")
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(error["field"] as? String == "conflicts")
    #expect(error["kind"] as? String == "validation")
    let plan = try #require(error["plan"] as? [String: Any], "\(r.stdout)")
    #expect(plan["source"] as? String == "theirs.json")
    let conflicts = try #require(plan["conflicts"] as? [[String: Any]])
    #expect(conflicts.count == 1)
    #expect(conflicts.first?["collection"] as? String == "knowledge")
    #expect(conflicts.first?["id"] as? String == id)
    #expect(conflicts.first?["differingFields"] as? [String] == ["content"])
    #expect((plan["collections"] as? [[String: Any]])?.first?["name"] as? String == "knowledge")
  }
}
