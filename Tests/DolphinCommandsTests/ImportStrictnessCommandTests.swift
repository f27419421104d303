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
    #expect(message.hasPrefix("\(file.path): workspace.memories[0].knowledgeID (in record \(memory))"), "\(message)")
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

  @Test("a file with a byte that is not UTF-8 is refused naming the file as given and the byte's offset; nothing is imported (exit 4, as a malformed file)")
  func notUTF8() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let source = CLI()
    defer { source.dir.remove() }
    _ = try source.json(["capture", "decision", "Use SQLite for the workspace"])
    var data = Data(try source.run(["export"]).stdout.utf8)
    let offset = try #require(data.firstRange(of: Data("Use SQLite".utf8))?.lowerBound)
    data[offset] = 0xFF
    try FileManager.default.createDirectory(at: cli.dir.appending("exp"), withIntermediateDirectories: true)
    try data.write(to: cli.dir.appending("exp/bad.json"))
    try Data([0xFF, 0x7B, 0x7D]).write(to: cli.dir.appending("exp/leading.json"))
    try Data("{\"format\": ".utf8).write(to: cli.dir.appending("exp/cut.json"))
    let workspace = ["--workspace", cli.workspace]

    let refused = try runDolphin(["import", "exp/bad.json", "--json"] + workspace, currentDirectory: cli.dir.url)
    let malformed = try runDolphin(["import", "exp/cut.json"] + workspace, currentDirectory: cli.dir.url)
    #expect(malformed.status == 4, "\(malformed.stderr)")
    #expect(refused.status == malformed.status, "\(refused.stderr)")
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any],
      "\(refused.stdout)")
    let message = try #require(error["message"] as? String)
    #expect(
      message.hasPrefix("exp/bad.json is not UTF-8 text: the byte 0xFF at byte offset \(offset) (counting from 0) is not valid UTF-8."),
      "\(message)")
    #expect(message.hasSuffix("Nothing was imported"), "\(message)")
    #expect(error["kind"] as? String == "exportDocument")
    // Not Foundation's generic text, nor a JSON syntax error.
    #expect(!message.contains("The given data") && !message.contains("not valid JSON"), "\(message)")
    #expect(!FileManager.default.fileExists(atPath: cli.workspace + "/workspace.sqlite"))

    // At the very start too, where the file would otherwise be called "not a JSON object".
    let leading = try runDolphin(["import", "exp/leading.json"] + workspace, currentDirectory: cli.dir.url)
    #expect(leading.status == 4, "\(leading.stderr)")
    #expect(leading.stderr.contains("exp/leading.json is not UTF-8 text: the byte 0xFF at byte offset 0 "), "\(leading.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.workspace + "/workspace.sqlite"))
  }

  @Test("a handoff's blank or invisible next steps are dropped, as capture never stores one; the rest of the file imports, and again as the same record")
  func blankNextStep() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    var document = try seededExport(cli)
    var ws = try #require(document["workspace"] as? [String: Any])
    let handoffID = "00000000-0000-0000-0000-0000000000AB"
    // Earlier builds refused these with messages that escaped them unevenly (review s8/h3).
    ws["handoffs"] = [
      [
        "id": handoffID, "focus": "From the file", "summary": "",
        "nextSteps": ["Do this", " \t ", "\u{200B}", "\u{A0}", "\u{FEFF}", "\u{7}", "\u{AD}", "Then that"],
        "knowledgeIDs": [], "taskIDs": [], "recentExcerpts": [], "createdAt": "2026-01-02T03:04:05.000Z",
      ] as [String: Any]
    ]
    document["workspace"] = ws
    let file = cli.dir.appending("blank-step.json")
    try write(document, file)

    // The plan says how many were dropped (review s8/h5: they were dropped silently).
    let preview = try cli.run(["import", file.path, "--dry-run", "--json"])
    #expect(preview.status == 0, "\(preview.stdout)\(preview.stderr)")
    let previewed = try #require(try JSONSerialization.jsonObject(with: Data(preview.stdout.utf8)) as? [String: Any])
    #expect((previewed["plan"] as? [String: Any])?["droppedNextSteps"] as? Int == 6, "\(preview.stdout)")
    let imported = try cli.run(["import", file.path])
    #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    #expect(
      imported.stdout.contains("\n  6 blank handoff next steps dropped (nothing visible in them; capture never stores one).\n"),
      "\(imported.stdout)")
    let shown = try cli.record("handoff", ["handoff", "get", handoffID])
    #expect(shown["nextSteps"] as? [String] == ["Do this", "Then that"], "\(shown)")
    let text = try cli.run(["handoff", "get", handoffID])
    #expect(text.stdout.contains("Summary generated by rules from the selected records"), "\(text.stdout)")
    // Imported again: the same record (new, same, conflicting), although its summary was built.
    let after = try cli.run(["import", file.path]).stdout
    let row = after.split(separator: "\n").first { $0.hasPrefix("  handoffs ") }
    #expect(row?.split(separator: " ") == ["handoffs", "0", "1", "0"], "\(after)")
    // Nothing is dropped from a handoff left as stored, and the line is left out.
    #expect(!after.contains("next step"), "\(after)")
  }

  @Test("the review's repro: a blank next step stored by an earlier build; its export imports into the same workspace (no conflict) and into an empty one")
  func storedBlankNextStep() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let created = try cli.json(["handoff", "create", "--focus", "Import rules", "--next", "Check receipts"])
    let id = try #require((created["handoff"] as? [String: Any])?["id"] as? String, "\(created)")
    let db = cli.workspace + "/" + SQLiteWorkspaceStore.fileName
    let edited = try runProcess("/usr/bin/env", ["sqlite3", db, #"UPDATE handoff SET next_steps = '["Check receipts","  "]'"#])
    try #require(edited.status == 0, "\(edited.stderr)")
    let file = cli.dir.appending("old.json")
    let export = try cli.run(["export", "--output", file.path])
    #expect(export.status == 0, "\(export.stderr)")

    let same = try cli.run(["import", file.path])
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    let row = same.stdout.split(separator: "\n").first { $0.hasPrefix("  handoffs ") }
    #expect(row?.split(separator: " ") == ["handoffs", "0", "1", "0"], "\(same.stdout)")

    let empty = CLI()
    defer { empty.dir.remove() }
    let into = try empty.run(["import", file.path])
    #expect(into.status == 0, "\(into.stdout)\(into.stderr)")
    #expect(into.stdout.contains("  1 blank handoff next step dropped (nothing visible in it; capture never stores one)."), "\(into.stdout)")
    let other = CLI()
    defer { other.dir.remove() }
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(try other.run(["import", file.path, "--json"]).stdout.utf8)) as? [String: Any])
    #expect((report["plan"] as? [String: Any])?["droppedNextSteps"] as? Int == 1, "\(report)")
    let shown = try empty.record("handoff", ["handoff", "get", id])
    #expect(shown["nextSteps"] as? [String] == ["Check receipts"], "\(shown)")
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
    #expect(message.hasPrefix("\(file.path): workspace.settings.knowledgeItemLimit is 2"), "\(message)")
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
    #expect(plan["source"] as? String == file.path)
    let conflicts = try #require(plan["conflicts"] as? [[String: Any]])
    #expect(conflicts.count == 1)
    #expect(conflicts.first?["collection"] as? String == "knowledge")
    #expect(conflicts.first?["id"] as? String == id)
    #expect(conflicts.first?["differingFields"] as? [String] == ["content"])
    #expect((plan["collections"] as? [[String: Any]])?.first?["name"] as? String == "knowledge")
  }
}
