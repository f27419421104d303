@testable import DolphinCommands
import Foundation
import Testing
import TestSupport

/// The one shape of `--json` documents (README, "JSON output"), held for every command: a
/// command about one record puts it under its type's key with other facts beside it; a list
/// gives `{<plural>, count, total, truncated}`. A new-user review found a different shape per
/// command (`task add` a bare task, `task complete` a task with `alreadyCompleted` mixed into
/// its fields, `handoff get` a bare handoff without the `active` its text shows).
@Suite("--json document shapes", .serialized)
struct JSONShapeCommandTests {
  /// A workspace holding a decision, a task citing it and a handoff carrying both.
  struct Fixture {
    let cli: CLI
    let ids: [String: String]

    /// Made through the text commands and read back from the lists, so that a wrong shape is
    /// reported by the case that has it, not by every case's fixture.
    init() throws {
      let cli = CLI()
      self.cli = cli
      func only(_ list: [String], _ plural: String) throws -> String {
        let entries = try #require(try cli.json(list)[plural] as? [[String: Any]])
        return try #require(entries.first?["id"] as? String, "\(list): \(entries)")
      }
      try #require(try cli.run(["capture", "decision", "Use SQLite", "--content", "WAL."]).status == 0)
      let item = try only(["knowledge", "list"], "items")
      try #require(try cli.run(["task", "add", "Write the README", "--knowledge", item]).status == 0)
      let task = try only(["task", "list"], "tasks")
      try #require(try cli.run(["handoff", "create", "--focus", "Storage", "--knowledge", item, "--task", task]).status == 0)
      ids = ["{item}": item, "{task}": task, "{handoff}": try only(["handoff", "list"], "handoffs")]
    }

    /// `args` with `{item}`, `{task}` and `{handoff}` replaced by the fixture's ids.
    func arguments(_ args: [String]) -> [String] { args.map { ids[$0] ?? $0 } }
  }

  /// A command about one record: its `--json` document holds `record` (an object with an id),
  /// every key of `siblings`, and nothing but those and `optional`.
  struct RecordCase: CustomTestStringConvertible, Sendable {
    var command: String
    var args: [String]
    var record: String
    var siblings: Set<String> = []
    /// Facts given only when they apply (`rebuiltHandoffIDs` when a summary was rewritten).
    var optional: Set<String> = []
    var testDescription: String { command }
  }

  static let recordCases: [RecordCase] = [
    RecordCase(
      command: "capture", args: ["capture", "fact", "SQLite 3.40 is installed"], record: "item",
      siblings: ["sameTitle", "sameTitleTotal"], optional: ["digestID", "rebuiltHandoffIDs"]),
    RecordCase(command: "knowledge get", args: ["knowledge", "get", "{item}"], record: "item", optional: ["supersededBy"]),
    RecordCase(
      command: "knowledge edit", args: ["knowledge", "edit", "{item}", "--priority", "high"], record: "item",
      siblings: ["changed", "digestsQuotingEarlierText"], optional: ["rebuiltHandoffIDs"]),
    RecordCase(
      command: "memory save", args: ["memory", "save", "Prefers tabs"], record: "memory", siblings: ["mirror"],
      optional: ["digestID"]),
    RecordCase(command: "task add", args: ["task", "add", "Benchmark search"], record: "task"),
    RecordCase(command: "task get", args: ["task", "get", "{task}"], record: "task"),
    RecordCase(
      command: "task edit", args: ["task", "edit", "{task}", "--priority", "high"], record: "task",
      siblings: ["changed", "rebuiltHandoffIDs"]),
    RecordCase(
      command: "task complete", args: ["task", "complete", "{task}"], record: "task", siblings: ["alreadyCompleted"],
      optional: ["rebuiltHandoffIDs"]),
    RecordCase(
      command: "task reopen", args: ["task", "reopen", "{task}"], record: "task", siblings: ["alreadyOpen"],
      optional: ["rebuiltHandoffIDs"]),
    RecordCase(
      command: "handoff create", args: ["handoff", "create", "--focus", "Next session"], record: "handoff",
      siblings: ["summaryGenerated"], optional: ["autoSelection", "activated", "previouslyActiveID", "activationWarning"]),
    RecordCase(command: "handoff get", args: ["handoff", "get", "{handoff}"], record: "handoff", siblings: ["active"]),
    RecordCase(
      command: "handoff restore", args: ["handoff", "restore", "{handoff}"], record: "handoff",
      siblings: ["knowledge", "tasks", "capturedSince", "capturedSinceTotal", "tasksSince", "tasksSinceTotal", "notice", "changed", "editedSince"],
      optional: ["previouslyActiveID", "stale"]),
    RecordCase(
      command: "context", args: ["context", "--save"], record: "digest", siblings: ["context", "droppedDigestIDs"]),
  ]

  @Test("a command about one record puts it under its type's key, other facts beside it", arguments: recordCases)
  func recordUnderItsKey(_ c: RecordCase) throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    let doc = try f.cli.json(f.arguments(c.args))
    let keys = Set(doc.keys)
    #expect(keys.isSuperset(of: c.siblings.union([c.record])), "\(c.command): \(keys.sorted())")
    #expect(
      keys.isSubset(of: c.siblings.union(c.optional).union([c.record])),
      "\(c.command): \(keys.subtracting(c.siblings.union(c.optional).union([c.record])).sorted()) beside the record")
    let record = try #require(doc[c.record] as? [String: Any], "\(c.command)")
    #expect(UUID(uuidString: record["id"] as? String ?? "") != nil, "\(c.command): \(record)")
  }

  /// A list: `{<plural>: [...], count, total, truncated}`, and what else it says.
  struct ListCase: CustomTestStringConvertible, Sendable {
    var command: String
    var args: [String]
    var plural: String
    var testDescription: String { command }
  }

  static let listCases: [ListCase] = [
    ListCase(command: "search", args: ["search", "sqlite"], plural: "results"),
    ListCase(command: "knowledge list", args: ["knowledge", "list"], plural: "items"),
    ListCase(command: "memory list", args: ["memory", "list"], plural: "memories"),
    ListCase(command: "memory search", args: ["memory", "search", "tabs"], plural: "results"),
    ListCase(command: "task list", args: ["task", "list"], plural: "tasks"),
    ListCase(command: "task search", args: ["task", "search", "readme"], plural: "results"),
    ListCase(command: "insights", args: ["insights"], plural: "insights"),
    ListCase(command: "handoff list", args: ["handoff", "list"], plural: "handoffs"),
    ListCase(command: "quarantine", args: ["quarantine"], plural: "quarantined"),
    ListCase(command: "tools", args: ["tools"], plural: "tools"),
    ListCase(command: "activity", args: ["activity"], plural: "receipts"),
    ListCase(command: "limits", args: ["limits"], plural: "limits"),
  ]

  @Test("a list gives its entries under a plural key with count, total and truncated", arguments: listCases)
  func listShape(_ c: ListCase) throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    let doc = try f.cli.json(f.arguments(c.args))
    let entries = try #require(doc[c.plural] as? [Any], "\(c.command): \(doc.keys.sorted())")
    let count = try #require(doc["count"] as? Int, "\(c.command): \(doc.keys.sorted())")
    let total = try #require(doc["total"] as? Int, "\(c.command): \(doc.keys.sorted())")
    let truncated = try #require(doc["truncated"] as? Bool, "\(c.command): \(doc.keys.sorted())")
    #expect(count == entries.count, "\(c.command)")
    #expect(total >= count && truncated == (count < total), "\(c.command): count \(count), total \(total), truncated \(truncated)")
  }

  @Test("a list cut by --limit says so: count below total, truncated")
  func cutList() throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    _ = try f.cli.json(["capture", "fact", "SQLite uses WAL"])
    for args in [["search", "sqlite", "--limit", "1"], ["knowledge", "list", "--limit", "1"]] {
      let doc = try f.cli.json(args)
      #expect(doc["count"] as? Int == 1 && doc["total"] as? Int == 2 && doc["truncated"] as? Bool == true, "\(args): \(doc)")
    }
  }

  /// Commands whose document is a report with its own named members (a status, a plan applied,
  /// an export), neither one record nor a list; `mcp` has no `--json`.
  static let reports: Set<String> = [
    "demo", "reindex", "knowledge delete", "memory delete", "task delete", "review", "handoff deactivate",
    "handoff delete", "status", "doctor", "settings", "settings show", "settings set", "migrate", "export", "import",
    "erase", "activity clear", "analyze", "ask", "mcp", "version",
  ]

  @Test("every command is a record, a list or a report here, so a new one's shape is chosen, not left to chance")
  func everyCommandClassified() {
    let records = Set(Self.recordCases.map(\.command))
    let lists = Set(Self.listCases.map(\.command))
    let commands = Commands.all.map { $0.spec.path.joined(separator: " ") }
    for command in commands {
      let kinds = [records.contains(command), lists.contains(command), Self.reports.contains(command)].filter { $0 }
      #expect(kinds.count == 1, "\(command): classified \(kinds.count) times (add it to one table of JSONShapeCommandTests)")
    }
    #expect(records.union(lists).union(Self.reports).subtracting(commands).isEmpty, "every name is a command")
  }

  @Test("handoff get --json says whether the handoff is the active one, as its text marks (active)")
  func handoffGetActive() throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    let id = f.arguments(["{handoff}"])[0]
    #expect(try f.cli.json(["handoff", "get", id])["active"] as? Bool == false)
    #expect(!(try f.cli.run(["handoff", "get", id]).stdout.contains("(active)")))
    _ = try f.cli.json(["handoff", "restore", id])
    #expect(try f.cli.json(["handoff", "get", id])["active"] as? Bool == true)
    #expect(try f.cli.run(["handoff", "get", id]).stdout.contains("(active)"))
    _ = try f.cli.json(["handoff", "deactivate"])
    #expect(try f.cli.json(["handoff", "get", "latest"])["active"] as? Bool == false)
  }

  @Test("task complete and reopen: the task under its key, the flag beside it, never among its fields")
  func statusFlagBesideTask() throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    let id = f.arguments(["{task}"])[0]
    let done = try f.cli.json(["task", "complete", id])
    #expect(done["alreadyCompleted"] as? Bool == false)
    #expect((done["task"] as? [String: Any])?["status"] as? String == "completed")
    #expect((done["task"] as? [String: Any])?["alreadyCompleted"] == nil, "the flag is not a field of the task")
    // The handoff's summary was built by rules and lists the task: rewritten, and named.
    #expect(done["rebuiltHandoffIDs"] as? [String] == [f.arguments(["{handoff}"])[0]], "\(done)")
    let again = try f.cli.json(["task", "complete", id])
    #expect(again["alreadyCompleted"] as? Bool == true && again["rebuiltHandoffIDs"] == nil, "\(again)")
  }
}
