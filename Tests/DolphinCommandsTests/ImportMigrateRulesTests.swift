import ContinuityKit
import Foundation
import Testing
import TestSupport

/// `import` and `migrate` refuse what no command stores, naming the record and field (review
/// 18-c, C3–C7, and 18-b, B9): ids a migration finds stored already, a legacy file past a
/// collection's capacity, days a month does not have, task and handoff states capture never
/// produces, and activity and quarantine text without a bound.
@Suite("import and migrate refuse records no command stores, naming the record and field", .serialized)
struct ImportMigrateRulesTests {
  static let legacy = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy")

  /// The v4 fixture as a JSON object, for editing.
  static func v4() throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: legacy.appendingPathComponent("workspace-v4.json")))
        as? [String: Any])
  }

  static func write(_ object: Any, to path: String) throws {
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
  }

  /// An export of a workspace holding a task, a handoff and a fact, as a JSON object.
  static func export(_ cli: CLI) throws -> [String: Any] {
    _ = try cli.json(["capture", "fact", "Build server is ci-3"])
    _ = try cli.record("task", ["task", "add", "Write tests"])
    _ = try cli.json(["handoff", "create", "--focus", "Release", "--summary", "Where we are"])
    let r = try cli.run(["export"])
    #expect(r.status == 0, "\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
  }

  /// `document` with `edit` applied to the first record of `collection` in its workspace.
  static func editing(_ document: [String: Any], _ collection: String, _ edit: (inout [String: Any]) -> Void)
    throws -> [String: Any]
  {
    var document = document
    var ws = try #require(document["workspace"] as? [String: Any])
    var records = try #require(ws[collection] as? [[String: Any]])
    edit(&records[0])
    ws[collection] = records
    document["workspace"] = ws
    return document
  }

  @Test("migrating a file whose conversation, receipt or checkpoint ids are stored already is exit 4 naming the record")
  func storedActivityIDs() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let first = try cli.run(["migrate", Self.legacy.appendingPathComponent("workspace-v4.json").path])
    #expect(first.status == 0, "\(first.stderr)")
    let base = try Self.v4()
    let conversation = try #require((base["conversations"] as? [[String: Any]])?.first?["id"] as? String)
    let receipt = try #require((base["receipts"] as? [[String: Any]])?.first?["id"] as? String)
    let checkpoint = try #require((base["checkpoints"] as? [[String: Any]])?.first?["id"] as? String)
    let cases: [(keep: String, record: String)] = [
      ("conversations", "conversation \(conversation): a conversation with id \(conversation) already exists"),
      ("receipts", "receipt \(receipt): a receipt with id \(receipt) already exists"),
      ("checkpoints", "checkpoint \(checkpoint): a checkpoint with id \(checkpoint) already exists"),
    ]
    for c in cases {
      var file = base
      for other in ["conversations", "memories", "tasks", "receipts", "checkpoints"] where other != c.keep { file[other] = [] }
      let path = cli.dir.appending("only-\(c.keep).json").path
      try Self.write(file, to: path)
      let r = try cli.run(["migrate", path])
      #expect(r.status == 4, "\(c.keep): \(r.stderr)")
      #expect(r.stderr.contains("\(path): \(c.record); this workspace already holds records of this file"), "\(r.stderr)")
      // The command as it can be pasted: with the --workspace given (review 26-b, 10).
      #expect(r.stderr.contains("--again --workspace \(cli.workspace)` imports only those it does not hold. Nothing was imported"), "\(r.stderr)")
      #expect(!r.stderr.contains("UNIQUE constraint"), "\(r.stderr)")
    }
  }

  @Test("a legacy file that would take memories past their capacity is refused with the true counts and its name")
  func legacyCapacity() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for i in 1...3 { _ = try cli.json(["memory", "save", "own memory \(i)"]) }
    let memories = (1...9_999).map { i -> [String: Any] in
      ["id": String(format: "00000000-0000-4000-8000-%012X", i), "text": "memory \(i)", "createdAt": "2025-01-01T00:00:00Z"]
    }
    let path = cli.dir.appending("mem9999.json").path
    try Self.write(["schemaVersion": 1, "conversations": [], "memories": memories] as [String: Any], to: path)
    let r = try cli.run(["migrate", path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "\(path): the workspace holds 3 memories and may hold 10000 (a fixed limit, not a setting); adding 9999 would "
          + "make 10002."), "\(r.stderr)")
    #expect(r.stderr.contains("Nothing was imported"), "\(r.stderr)")
    let list = try cli.json(["memory", "list", "--limit", "10"])
    #expect((list["memories"] as? [Any])?.count == 3, "\(list)")
  }

  @Test("a day the month does not have is refused by import naming the field, and quarantined by migrate")
  func impossibleDays() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let document = try Self.editing(try Self.export(cli), "knowledge") { $0["createdAt"] = "2026-02-30T00:00:00Z" }
    let path = cli.dir.appending("feb30.json").path
    try Self.write(document, to: path)
    let empty = CLI()
    defer { empty.dir.remove() }
    let r = try empty.run(["import", path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains("workspace.knowledge[0].createdAt"), "\(r.stderr)")
    #expect(r.stderr.contains("'2026-02-30T00:00:00Z' (2026-02 has 28 days, so day 30 does not exist)"), "\(r.stderr)")

    var legacy = try Self.v4()
    var memories = try #require(legacy["memories"] as? [[String: Any]])
    memories[0]["createdAt"] = "2026-04-31T00:00:00Z"
    legacy["memories"] = memories
    let file = cli.dir.appending("apr31.json").path
    try Self.write(legacy, to: file)
    let migrated = try empty.run(["migrate", file])
    #expect(migrated.status == 0, "\(migrated.stderr)")
    #expect(migrated.stdout.contains("quarantined memories[0]: field 'createdAt' is not an ISO-8601 date"), "\(migrated.stdout)")
    #expect(migrated.stdout.contains("2026-04 has 30 days, so day 31 does not exist"), "\(migrated.stdout)")
  }

  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var collection: String
    var edit: @Sendable (inout [String: Any]) -> Void
    var error: String
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "open task with a completion date", collection: "tasks", edit: { $0["completedAt"] = "2026-12-01T00:00:00Z" },
      error: "workspace.tasks[0] (id {id}): completedAt is 2026-12-01T00:00:00.000Z but status is open"),
    Case(
      name: "completed task without a completion date", collection: "tasks",
      edit: { $0["status"] = "completed"; $0["completedAt"] = nil },
      error: "workspace.tasks[0] (id {id}): status is completed but completedAt is missing"),
    Case(
      name: "task completed before it was created", collection: "tasks",
      edit: { $0["status"] = "completed"; $0["completedAt"] = "2001-01-01T00:00:00Z" },
      error: "workspace.tasks[0] (id {id}): completedAt is 2001-01-01T00:00:00.000Z, earlier than createdAt"),
    Case(
      name: "handoff dated two days ahead", collection: "handoffs",
      edit: { $0["createdAt"] = ISO8601.string(from: Date().addingTimeInterval(2 * 86_400)) },
      error: "workspace.handoffs[0] (id {id}): createdAt is "),
  ]

  @Test("import refuses task and handoff states capture never produces, naming the record and field", arguments: cases)
  func inconsistentStates(_ c: Case) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    var id = ""
    let document = try Self.editing(try Self.export(cli), c.collection) {
      c.edit(&$0)
      id = $0["id"] as? String ?? ""
    }
    let path = cli.dir.appending("edited.json").path
    try Self.write(document, to: path)
    let empty = CLI()
    defer { empty.dir.remove() }
    let r = try empty.run(["import", path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains(c.error.replacingOccurrences(of: "{id}", with: id)), "\(r.stderr)")
    #expect(r.stderr.contains("Nothing was imported"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: empty.dir.appending("ws/workspace.sqlite").path))
  }

  @Test("migrate quarantines a legacy receipt whose tool, callID or arguments are over import's bounds")
  func legacyReceiptBounds() throws {
    let long = String(repeating: "a", count: Limits.receiptArguments)
    let cases: [(field: String, value: Any, reason: String)] = [
      ("tool", String(repeating: "t", count: 101), "field 'tool' is 101 characters; the limit is 100 characters"),
      ("callID", String(repeating: "c", count: 201), "field 'callID' is 201 characters; the limit is 200 characters"),
      // {"q":"aaa…"}: the text plus 8 characters of JSON.
      ("arguments", ["q": long],
       "field 'arguments' (as JSON text) is \(Limits.receiptArguments + 8) characters; the limit is 16000 characters"),
    ]
    for c in cases {
      let cli = CLI()
      defer { cli.dir.remove() }
      var legacy = try Self.v4()
      var receipts = try #require(legacy["receipts"] as? [[String: Any]])
      receipts[0][c.field] = c.value
      legacy["receipts"] = receipts
      let file = cli.dir.appending("long-\(c.field).json").path
      try Self.write(legacy, to: file)
      let r = try cli.run(["migrate", file])
      #expect(r.status == 0, "\(c.field): \(r.stderr)")
      #expect(r.stdout.contains("quarantined receipts[0]: \(c.reason)"), "\(c.field): \(r.stdout)")
      // The other receipts are migrated; the long one is kept verbatim in the quarantine only.
      let activity = try cli.json(["activity"])
      let listed = try #require(activity["receipts"] as? [[String: Any]], "\(activity.keys)")
      #expect(listed.count == receipts.count - 1, "\(c.field): \(listed.count)")
      let quarantine = try cli.run(["quarantine", "--json"])
      #expect(quarantine.stdout.contains(receipts[0]["id"] as? String ?? "?"), "\(c.field)")
    }
    // Within every bound: migrated.
    let cli = CLI()
    defer { cli.dir.remove() }
    var legacy = try Self.v4()
    var receipts = try #require(legacy["receipts"] as? [[String: Any]])
    receipts[0]["tool"] = String(repeating: "t", count: 100)
    receipts[0]["callID"] = String(repeating: "c", count: 200)
    receipts[0]["arguments"] = ["q": String(repeating: "a", count: Limits.receiptArguments - 8)]
    legacy["receipts"] = receipts
    let file = cli.dir.appending("at-bounds.json").path
    try Self.write(legacy, to: file)
    let r = try cli.run(["migrate", file])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stdout.contains("quarantined receipts"), "\(r.stdout)")
  }

  /// The v4 fixture with a 20,000-character message, a 301-character conversation title (of
  /// another conversation) and a 301-character assistant name.
  static func overBoundLegacy() throws -> (file: [String: Any], message: String, conversation: String) {
    var legacy = try Self.v4()
    var conversations = try #require(legacy["conversations"] as? [[String: Any]])
    try #require(conversations.count >= 2)
    var messages = try #require(conversations[0]["messages"] as? [[String: Any]])
    messages[0]["text"] = String(repeating: "m", count: 20_000)
    conversations[0]["messages"] = messages
    conversations[1]["title"] = String(repeating: "t", count: 301)
    legacy["conversations"] = conversations
    var settings = legacy["settings"] as? [String: Any] ?? [:]
    settings["assistantName"] = String(repeating: "n", count: 301)
    legacy["settings"] = settings
    return (
      legacy, try #require(messages[0]["id"] as? String), try #require(conversations[1]["id"] as? String)
    )
  }

  @Test("migrate quarantines an over-bound message, conversation title and assistant name instead of failing (19-b F2)")
  func legacyActivityBounds() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let (legacy, message, conversation) = try Self.overBoundLegacy()
    let file = cli.dir.appending("long-chat.json").path
    try Self.write(legacy, to: file)
    let r = try cli.run(["migrate", file])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("from \(file):"), "names the file: \(r.stdout)")
    #expect(r.stdout.contains("3 quarantined"), "\(r.stdout)")
    #expect(
      r.stdout.contains("quarantined conversations[0].messages[0]: field 'text' is 20000 characters; the limit is 16000 characters"),
      "\(r.stdout)")
    #expect(
      r.stdout.contains("quarantined conversations[1]: field 'title' is 301 characters; the limit is 300 characters"),
      "\(r.stdout)")
    #expect(
      r.stdout.contains("quarantined settings: field 'assistantName' is 301 characters; the limit is 300 characters"),
      "\(r.stdout)")
    // Kept verbatim, and everything else migrated: the other conversation's messages, memories, tasks.
    let quarantine = try cli.run(["quarantine", "--json"])
    #expect(quarantine.stdout.contains(message) && quarantine.stdout.contains(conversation), "\(quarantine.stdout.prefix(400))")
    let json = try cli.json(["migrate", file])
    #expect(json["alreadyImported"] as? Bool == true)
    let status = try cli.json(["status"])
    let counts = try #require(status["counts"] as? [String: Any], "\(status.keys)")
    #expect((counts["memory"] as? Int ?? 0) > 0, "\(counts)")
    let settings = try cli.json(["settings", "show"])
    #expect("\(settings)".contains("Dolphin"), "the default name is used: \(settings)")
  }

  @Test("a workspace.json holding an over-bound message no longer blocks the directory (19-b F2)")
  func legacyActivityBoundsAtFirstWrite() throws {
    let dir = TemporaryDirectory("legacy-long-chat")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try Self.write(try Self.overBoundLegacy().file, to: ws.appendingPathComponent("workspace.json").path)
    // The first write imports it (reading commands point to it until then), then everything works.
    let capture = try runDolphin(["capture", "fact", "Build server is ci-3", "--workspace", ws.path])
    #expect(capture.status == 0, "\(capture.stderr)")
    #expect(capture.stderr.contains("notice: imported legacy workspace.json (schema v4)"), "\(capture.stderr)")
    #expect(capture.stderr.contains("3 quarantined (see `dolphin quarantine --workspace \(ws.path)`)"), "\(capture.stderr)")
    let list = try runDolphin(["task", "list", "--workspace", ws.path])
    #expect(list.status == 0, "\(list.stderr)")
    let quarantine = try runDolphin(["quarantine", "--workspace", ws.path])
    #expect(quarantine.stdout.contains("workspace.json conversations[0].messages[0]: field 'text' is 20000 characters"), "\(quarantine.stdout.prefix(300))")
  }

  @Test("the export header's generator and quarantine entries are bounded; raw must be JSON; quarantine cuts long reasons")
  func headerAndQuarantineBounds() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let base = try Self.export(cli)
    let entry: [String: Any] = [
      "sourceFile": "workspace.json", "collection": "memories", "recordIndex": 0, "reason": "bad", "raw": "{\"a\":1}",
      "quarantinedAt": "2026-01-01T00:00:00Z",
    ]
    func with(_ change: (inout [String: Any], inout [String: Any]) -> Void) -> [String: Any] {
      var document = base
      var q = entry
      change(&document, &q)
      document["quarantine"] = [q]
      return document
    }
    let cases: [(String, [String: Any], String)] = [
      ("generator", with { d, _ in d["generator"] = String(repeating: "g", count: 301) },
       "generator.json: generator is 301 characters; the limit is 300 characters. Nothing was imported"),
      ("reason", with { _, q in q["reason"] = String(repeating: "r", count: 4_001) },
       "reason.json: quarantine[0]: reason is 4001 characters; the limit is 4000 characters"),
      ("raw", with { _, q in q["raw"] = "{{{{" }, "quarantine[0]: raw '{{{{' is not JSON text"),
      ("recordIndex", with { _, q in q["recordIndex"] = 1 << 62 }, "quarantine[0]: recordIndex is \(1 << 62)"),
    ]
    for (name, document, error) in cases {
      let path = cli.dir.appending("\(name).json").path
      try Self.write(document, to: path)
      let empty = CLI()
      defer { empty.dir.remove() }
      let r = try empty.run(["import", path])
      #expect(r.status == 4, "\(name): \(r.stderr)")
      #expect(r.stderr.contains(error), "\(name): \(r.stderr)")
      // The field is named once (review 19-b, F14: `generator: generator is 301 characters`).
      #expect(!r.stderr.contains("\(name): \(name)") && !r.stderr.contains(".\(name): \(name)"), "\(r.stderr)")
      // JSON keeps the whole path as the field.
      let json = try empty.run(["import", path, "--json"])
      #expect(json.stdout.contains(name == "generator" ? "\"field\" : \"generator\"" : "\"field\" : \"quarantine[0].\(name)\""), "\(json.stdout)")
    }
    // A reason within the bound but long is cut in the listing (whole in --json).
    let long = with { _, q in q["reason"] = String(repeating: "x", count: 3_000) }
    let path = cli.dir.appending("long.json").path
    try Self.write(long, to: path)
    let target = CLI()
    defer { target.dir.remove() }
    #expect(try target.run(["import", path]).status == 0)
    let listing = try target.run(["quarantine"])
    #expect(listing.status == 0, "\(listing.stderr)")
    #expect(!listing.stdout.contains(String(repeating: "x", count: 2001)), "the reason is cut")
    #expect(listing.stdout.contains("workspace.json memories[0]: xxx"), "\(listing.stdout.prefix(300))")
  }
}

/// Review 20-a, 9: `migrate` of a file imported before said only "nothing changed", even after
/// its records were erased; it now says what stays gone and how to bring it back (`--again`).
@Suite("migrate --again brings back what was erased since")
struct MigrateAgainCommandTests {
  @Test("after erasing memories, migrate names --again, and --again imports them back")
  func againAfterErase() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let file = cli.dir.appending("old.json").path
    try FileManager.default.copyItem(
      atPath: repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v4.json").path,
      toPath: file)
    #expect(try cli.run(["migrate", file]).status == 0)
    let erase = try cli.run(["erase", "--kind", "memories", "--yes"])
    #expect(erase.status == 0, "\(erase.stderr)")
    let skipped = try cli.run(["migrate", file])
    #expect(skipped.status == 0, "\(skipped.stderr)")
    #expect(skipped.stdout.contains("was imported before on 20"), "\(skipped.stdout)")
    #expect(skipped.stdout.contains("erased or deleted since stay gone"), "\(skipped.stdout)")
    #expect(skipped.stdout.contains("dolphin migrate \(file) --again"), "\(skipped.stdout)")
    let again = try cli.run(["migrate", file, "--again"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("Imported again (first imported on 20"), "\(again.stdout)")
    #expect(again.stdout.contains("3 memories"), "\(again.stdout)")
    #expect(again.stdout.contains("still held, left as they are: 2 conversations, 5 messages, 3 tasks, 3 receipts, 6 checkpoints."), "\(again.stdout)")
    let json = try cli.json(["migrate", file, "--again"])
    #expect(json["importedAgain"] as? Bool == true)
    #expect((json["imported"] as? [String: Any])?["memories"] as? Int == 0)
    #expect((json["alreadyHeld"] as? [String: Any])?["memories"] as? Int == 3)
    let status = try cli.json(["status"])
    #expect((status["counts"] as? [String: Any])?["memory"] as? Int == 3, "\(status)")
  }
}

/// Review 21-a, 19: `quarantine` listed records in the order they were found (`memories[1]`,
/// `[3]`, `[2]`); it lists them by import, collection and place in the file.
@Suite("quarantine lists records in the file's order")
struct QuarantineOrderTests {
  @Test("within each collection the indices ascend")
  func indicesAscend() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let fixture = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v4-quarantine.json")
    #expect(try cli.run(["migrate", fixture.path]).status == 0)
    let listing = try cli.run(["quarantine"])
    #expect(listing.status == 0, "\(listing.stderr)")
    // `workspace-v4-quarantine.json memories[3]: …` → ("memories", 3)
    let places: [(String, Int)] = listing.stdout.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("workspace-v4-quarantine.json "), let open = line.firstIndex(of: "["),
        let close = line[open...].firstIndex(of: "]"), let index = Int(line[line.index(after: open)..<close])
      else { return nil }
      return (String(line[line.index(line.startIndex, offsetBy: 29)..<open]), index)
    }
    #expect(places.count > 5, "\(listing.stdout.prefix(600))")
    let memories = places.filter { $0.0 == "memories" }.map(\.1)
    #expect(memories.count >= 3 && memories == memories.sorted(), "\(memories)")
    let collections = places.map(\.0)
    #expect(collections == collections.sorted(), "\(collections)")
  }
}
