import Foundation
import Testing
import TestSupport

/// Review 28-a, 2 and 8, and review 28-b, 10: a query that is a record's id was pointed to its
/// record only in `search`'s text (not `--json`); `knowledge get`, `knowledge delete` and `task
/// delete` given another record's id said only "no … has the id"; and a memory's id was sent to
/// `memory list`, whose first page need not hold it.
@Suite("A record's id given where it does not belong is pointed to its record", .serialized)
struct RecordIDPointerCommandTests {
  /// The words of the first command quoted in backticks in `text`, without `dolphin`.
  static func quotedCommand(_ text: String) throws -> [String] {
    let parts = text.split(separator: "`", omittingEmptySubsequences: false)
    let command = try #require(parts.count >= 3 ? parts[1] : nil, "no command in \(text)")
    return command.split(separator: " ").dropFirst().map(String.init)
  }

  @Test("search --json (and memory search, task search) carries idLookup: the record type and the command, or no record")
  func searchJSONPointsToTheRecord() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let task = try #require(try cli.record("task", ["task", "add", "Write the plan"])["id"] as? String)
    let item = try #require(try cli.record("item", ["capture", "fact", "Grafana"])["id"] as? String)
    let json = try cli.json(["search", task])
    let lookup = try #require(json["idLookup"] as? [String: Any], "\(json.keys.sorted())")
    #expect(lookup["id"] as? String == task)
    #expect(lookup["recordType"] as? String == "task")
    #expect(lookup["shownBy"] as? String == "dolphin task get \(task) --workspace \(cli.workspace)")
    #expect(
      lookup["message"] as? String
        == "\(task) is a task's id; search matches words, not ids: dolphin task get \(task) --workspace \(cli.workspace) shows it")
    // The text prints the same message.
    #expect(try cli.run(["search", task]).stdout.contains(try #require(lookup["message"] as? String)))
    let knowledge = try #require(try cli.json(["search", item])["idLookup"] as? [String: Any])
    #expect(knowledge["recordType"] as? String == "knowledge")
    #expect(knowledge["shownBy"] as? String == "dolphin knowledge get \(item) --workspace \(cli.workspace)")
    let none = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    let nobody = try #require(try cli.json(["search", none])["idLookup"] as? [String: Any])
    #expect(nobody["recordType"] == nil && nobody["shownBy"] == nil, "\(nobody)")
    #expect(nobody["message"] as? String == "No record in this workspace has the id \(none); search matches words, not ids")
    #expect((try cli.json(["memory", "search", task])["idLookup"] as? [String: Any])?["recordType"] as? String == "task")
    #expect((try cli.json(["task", "search", item])["idLookup"] as? [String: Any])?["recordType"] as? String == "knowledge")
    // A search that is not an id has none.
    #expect(try cli.json(["search", "grafana"])["idLookup"] == nil)
    #expect(try cli.json(["search", "nothingmatches"])["idLookup"] == nil)
  }

  @Test("a memory's id points to its mirror, or without one to the memory list page it ends; the advice works")
  func memoryPointer() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let memory = try #require(try cli.record("memory", ["memory", "save", "Deploys go out on Tuesdays"])["id"] as? String)
    let mirror = try #require(
      try cli.json(["memory", "list"])["memories"].flatMap { ($0 as? [[String: Any]])?.first?["knowledgeID"] as? String })
    for i in 1...3 { _ = try cli.run(["memory", "save", "Later memory \(i)"]) }
    let withMirror = try cli.run(["search", memory])
    #expect(
      withMirror.stdout.contains(
        "\(memory) is a legacy memory's id; search matches words, not ids: dolphin knowledge get \(mirror) --workspace "
          + "\(cli.workspace) shows its text (the memory's knowledge mirror)"), "\(withMirror.stdout)")
    // Without its mirror, `memory list --limit N` lists it last (not `memory list`, whose first
    // page need not hold it).
    #expect(try cli.run(["erase", "--kind", "knowledge", "--yes"]).status == 0)
    let json = try cli.json(["memory", "search", memory])
    let lookup = try #require(json["idLookup"] as? [String: Any])
    #expect(lookup["shownBy"] as? String == "dolphin memory list --limit 4 --workspace \(cli.workspace)", "\(lookup)")
    #expect((lookup["message"] as? String)?.hasSuffix("lists it last") == true, "\(lookup)")
    let listed = try runDolphin(try #require(lookup["shownBy"] as? String).split(separator: " ").dropFirst().map(String.init))
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.split(separator: "\n").last?.contains(memory) == true, "\(listed.stdout)")
  }

  /// Review 28-c, 12: `knowledge list` shows a memory by its mirror's id, the id a user pastes.
  @Test("memory delete given a memory's mirror id names the memory it mirrors, and the advice deletes it")
  func memoryDeleteOfMirrorID() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let memory = try #require(try cli.record("memory", ["memory", "save", "I like tea"])["id"] as? String)
    let mirror = try #require(
      try cli.json(["memory", "list"])["memories"].flatMap { ($0 as? [[String: Any]])?.first?["knowledgeID"] as? String })
    let r = try cli.run(["memory", "delete", mirror, "--yes"])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "no memory has the id \(mirror) (it is the id of the knowledge item mirroring memory \(memory); give that "
          + "memory's id: `dolphin memory delete \(memory) --workspace \(cli.workspace)`)"), "\(r.stderr)")
    let advised = try runDolphin(try Self.quotedCommand(r.stderr) + ["--yes"])
    #expect(advised.status == 0, "\(advised.stderr)")
    #expect(try cli.json(["memory", "list"])["total"] as? Int == 0)
  }

  @Test("knowledge get/delete and task get/delete/complete given another record's id name it and the command for it")
  func notFoundNamesTheOwner() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let task = try #require(try cli.record("task", ["task", "add", "Benchmark WAL"])["id"] as? String)
    let item = try #require(try cli.record("item", ["capture", "fact", "WAL is on"])["id"] as? String)
    let w = cli.workspace
    let cases: [([String], String)] = [
      (["knowledge", "get", task], "no knowledge item has the id \(task) (it is a task's id; give it to `dolphin task get \(task) --workspace \(w)`)"),
      // `--yes` carried, as every option the other command takes (review 28-d, 9).
      (["knowledge", "delete", task, "--yes"], "no knowledge item has the id \(task) (it is a task's id; give it to `dolphin task delete \(task) --yes --workspace \(w)`)"),
      (["task", "get", item], "no task has the id \(item) (it is a knowledge item's id; give it to `dolphin knowledge get \(item) --workspace \(w)`)"),
      (["task", "delete", item, "--yes"], "no task has the id \(item) (it is a knowledge item's id; give it to `dolphin knowledge delete \(item) --yes --workspace \(w)`)"),
      // No `knowledge complete`: the command that shows it.
      (["task", "complete", item], "no task has the id \(item) (it is a knowledge item's id; `dolphin knowledge get \(item) --workspace \(w)` shows it)"),
      (["handoff", "get", task], "no handoff has the id \(task) (it is a task's id; give it to `dolphin task get \(task) --workspace \(w)`)"),
    ]
    for (args, expected) in cases {
      let r = try cli.run(args)
      #expect(r.status == 3, "\(args): \(r.stderr)")
      #expect(r.stderr == "dolphin: error: \(expected)\n", "\(args): \(r.stderr)")
      let json = try cli.run(args + ["--json"])
      #expect(json.stdout.contains("\"kind\" : \"notFound\""), "\(args): \(json.stdout)")
      #expect(json.stdout.contains("(it is a"), "\(args): \(json.stdout)")
      // The advice works: the command named shows (or would delete) the record. Deletions are
      // not followed, to keep the records for the next cases.
      let advised = try Self.quotedCommand(r.stderr)
      if !advised.contains("delete") {
        let followed = try runDolphin(advised)
        #expect(followed.status == 0, "\(advised): \(followed.stderr)")
      }
    }
    // Nothing was deleted.
    #expect(try cli.run(["task", "get", task]).status == 0)
    #expect(try cli.run(["knowledge", "get", item]).status == 0)
    // An id no record has is said as before.
    let none = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    #expect(try cli.run(["knowledge", "get", none]).stderr == "dolphin: error: no knowledge item has the id \(none)\n")
    // Followed as printed (its `--yes` carried), the delete advice deletes the task.
    let delete = try Self.quotedCommand(try cli.run(["knowledge", "delete", task, "--yes"]).stderr)
    #expect(delete.contains("--yes"))
    #expect(try runDolphin(delete).status == 0)
    #expect(try cli.run(["task", "get", task]).status == 3)
  }

  @Test("an id ending in a line break or other white space is read as the id, for every command that takes one")
  func idTrimmedOfLineBreaks() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let item = try #require(try cli.record("item", ["capture", "fact", "WAL is on"])["id"] as? String)
    let task = try #require(try cli.record("task", ["task", "add", "Benchmark WAL"])["id"] as? String)
    let handoff = try #require(try cli.record("handoff", ["handoff", "create", "--focus", "f"])["id"] as? String)
    for args in [
      ["knowledge", "get", item + "\n"], ["knowledge", "get", " \(item)\r\n"], ["task", "get", "\t\(task)\n"],
      ["handoff", "get", handoff + "\n"], ["task", "edit", task + "\n", "--title", "Benchmark WAL again"],
      ["handoff", "create", "--focus", "g", "--knowledge", item + "\n", "--task", task + "\n"],
    ] {
      let r = try cli.run(args)
      #expect(r.status == 0, "\(args): \(r.stderr)")
    }
    // White space inside an id is still refused.
    let inside = try cli.run(["knowledge", "get", String(item.prefix(8)) + "\n" + item.dropFirst(8)])
    #expect(inside.status == 4, "\(inside.stderr)")
  }

  @Test("--json after -- is text: the error is not a JSON document")
  func jsonAfterDoubleDash() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.run(["capture", "fact", "Handoff notes"])
    let r = try runDolphin(["search", "handoff", "--workspace", cli.workspace, "--", "--json"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stdout.isEmpty, "\(r.stdout)")
    #expect(r.stderr.contains("unexpected argument '--json'"), "\(r.stderr)")
    // Before --, it asks for JSON, as before; and `search -- --json` searches the word.
    let before = try runDolphin(["search", "handoff", "--json", "--workspace", cli.workspace, "--", "extra"])
    #expect(before.stdout.contains("\"exitCode\" : 2"), "\(before.stdout)")
    #expect(try runDolphin(["search", "--workspace", cli.workspace, "--", "--json"]).status == 0)
  }

  @Test("a word with a trailing * is noted as no prefix search, and an empty answer does not call it a typo")
  func trailingStar() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.run(["capture", "fact", "Handoff checklist"])
    let r = try cli.run(["search", "hand*"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains(
        "'hand*' is not a prefix search here: '*' is no wildcard, so the word 'hand' was searched, not the words that begin with it"),
      "\(r.stdout)")
    #expect(!r.stdout.contains("typo"), "\(r.stdout)")
    let json = try cli.json(["search", "hand*"])
    #expect(json["unappliedOperators"] as? [String] == ["hand*"], "\(json)")
    // With results, the same note.
    let found = try cli.run(["search", "checklist*"])
    #expect(found.stdout.contains("Note: 'checklist*' is not a prefix search here"), "\(found.stdout)")
  }

  @Test("a search after the last memory was deleted says the workspace holds none, not 'yet'")
  func noMemoryAfterDeletion() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let memory = try #require(try cli.record("memory", ["memory", "save", "Pelicans nest here"])["id"] as? String)
    #expect(try cli.run(["memory", "delete", memory, "--yes"]).status == 0)
    let r = try cli.run(["memory", "search", "pelican"])
    #expect(
      r.stdout.contains("No results: the workspace holds no memory to search; `dolphin memory save TEXT --workspace \(cli.workspace)` adds one."),
      "\(r.stdout)")
    #expect(!r.stdout.contains("yet"), "\(r.stdout)")
  }
}
