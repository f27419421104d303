import Foundation
import Testing
import TestSupport

/// Regression (s15): records another program wrote into a workspace that break a rule of
/// `dolphin import` other than a NUL or a tag's control character — an `updatedAt` before its
/// `createdAt`, receipt arguments that are not JSON, a setting out of range, … — made the
/// workspace's own export impossible to restore, while `doctor` called it healthy and `export`
/// said nothing. Each case writes one such value with sqlite3, then checks that doctor names it
/// (table, id, rule), that export warns, and that importing the export into an empty workspace
/// is refused with the same words: the test fails when doctor and import disagree. Where doctor
/// gives one statement that fixes it, the statement is run and the backup then restores.
@Suite("Stored records an import refuses: doctor, export and import agree", .serialized)
struct ImportRefusalCommandTests {
  /// The ids of a workspace with two knowledge items, a task, a conversation with messages, a
  /// receipt and a digest.
  struct Fixture {
    var cli: CLI
    var decision: String
    var fact: String
    var task: String
    var receipt: String
    var message: String
  }

  static func fixture() throws -> Fixture {
    let cli = CLI()
    let decision = try RefusedTextCommandTests.id(cli.json(["capture", "decision", "Use SQLite for the workspace"]))
    let fact = try RefusedTextCommandTests.id(cli.json(["capture", "fact", "Build server is ci-3", "--tags", "ci"]))
    let task = try #require(try cli.record("task", ["task", "add", "Migrate the build"])["id"] as? String)
    #expect(try cli.run(["ask", "/search build"]).status == 0)
    #expect(try cli.run(["context", "--save"]).status == 0)
    let receipt = try RefusedTextCommandTests.sqliteValue(cli, "SELECT id FROM receipt LIMIT 1")
    let message = try RefusedTextCommandTests.sqliteValue(cli, "SELECT id FROM message ORDER BY rowid LIMIT 1")
    return Fixture(cli: cli, decision: decision, fact: fact, task: task, receipt: receipt, message: message)
  }

  /// Settings as stored in `meta`, with these values.
  static func settingsSQL(name: String = "Dolphin", limit: Int = 10_000) -> String {
    "INSERT OR REPLACE INTO meta(key, value) VALUES ('settings', '{\"assistantName\":\"\(name)\","
      + "\"calendarAccessEnabled\":false,\"knowledgeItemLimit\":\(limit),\"responseStyle\":\"balanced\"}')"
  }

  /// One rule, broken by SQL from outside.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// The statements that break it.
    var sql: @Sendable (Fixture) -> String
    /// Doctor's line for the record: `knowledge <id>: <problem>`, as the import words it.
    var doctorLine: @Sendable (Fixture) -> String
    /// What the import says, as export's warning and doctor say it.
    var problem: @Sendable (Fixture) -> String
    /// The rule doctor names; nil for the values the Importable text check reports.
    var rule: String?
    /// Whether doctor's report gives statements that fix it.
    var fixable: Bool
    /// What export's warning says of it, when not ``problem``.
    var exported: (@Sendable (Fixture) -> String)? = nil
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a knowledge item's updatedAt before its createdAt",
      sql: { "UPDATE knowledge SET updated_at = '2000-01-01T00:00:00.000Z' WHERE id = '\($0.decision)'" },
      doctorLine: { "knowledge \($0.decision): updatedAt is 2000-01-01T00:00:00.000Z, earlier than createdAt " },
      problem: { _ in "updatedAt is 2000-01-01T00:00:00.000Z, earlier than createdAt " }, rule: "dateOrder", fixable: true),
    Case(
      name: "receipt arguments that are not JSON",
      sql: { "UPDATE receipt SET arguments = 'not json {' WHERE id = '\($0.receipt)'" },
      doctorLine: { "receipt \($0.receipt): arguments 'not json {' is not JSON text" },
      problem: { _ in "arguments 'not json {' is not JSON text" }, rule: "receiptArguments", fixable: true),
    Case(
      name: "a revision of 0",
      sql: { "UPDATE knowledge SET revision = 0 WHERE id = '\($0.fact)'" },
      doctorLine: { "knowledge \($0.fact): revision is 0; it must be between 1 and 1000000" },
      problem: { _ in "revision is 0; it must be between 1 and 1000000" }, rule: "revision", fixable: true),
    Case(
      name: "an item related to itself",
      sql: {
        "INSERT INTO knowledge_relationship(source_id, ordinal, kind, target_id) VALUES ('\($0.fact)', 0, 'relatesTo', '\($0.fact)')"
      },
      doctorLine: { "knowledge \($0.fact): relationships: an item cannot relate to itself" },
      problem: { _ in "relationships: an item cannot relate to itself" }, rule: "selfRelationship", fixable: true),
    Case(
      name: "an empty title",
      sql: { "UPDATE knowledge SET title = '   ' WHERE id = '\($0.fact)'" },
      doctorLine: { "knowledge \($0.fact): title must not be empty" },
      problem: { _ in "title must not be empty" }, rule: "emptyText", fixable: true),
    Case(
      name: "a knowledgeItemLimit of 0",
      sql: { _ in settingsSQL(limit: 0) },
      doctorLine: { _ in "settings: knowledgeItemLimit is 0; it must be between 1 and 100000" },
      problem: { _ in "knowledgeItemLimit is 0; it must be between 1 and 100000" }, rule: "setting", fixable: true),
    Case(
      name: "a knowledgeItemLimit below the items stored",
      sql: { _ in settingsSQL(limit: 1) },
      doctorLine: { _ in "settings: workspace.settings.knowledgeItemLimit is 1, which this import would adopt" },
      problem: { _ in "workspace.settings.knowledgeItemLimit is 1, which this import would adopt" }, rule: "setting",
      fixable: true),
    Case(
      name: "a NUL in the assistant's name",
      sql: { _ in settingsSQL(name: "Dol\\u0000phin") },
      doctorLine: { _ in "settings: assistantName contains a NUL character (U+0000) at character 4" },
      problem: { _ in "assistantName contains a NUL character (U+0000) at character 4" }, rule: nil, fixable: true,
      exported: { _ in "workspace.settings.assistantName" }),
    Case(
      name: "17 tags",
      sql: { f in
        "UPDATE knowledge SET tags = json_array(" + (1...17).map { "'t\($0)'" }.joined(separator: ", ")
          + ") WHERE id = '\(f.fact)'"
      },
      doctorLine: { "knowledge \($0.fact): tags has 17 tags; the limit is 16" },
      problem: { _ in "tags has 17 tags; the limit is 16" }, rule: "countBound", fixable: false),
    Case(
      name: "a message over its bound",
      sql: { "UPDATE message SET text = printf('%.16001c', 'm') WHERE id = '\($0.message)'" },
      doctorLine: { "message \($0.message): text is 16001 characters; the limit is 16000 characters" },
      problem: { _ in "text is 16001 characters; the limit is 16000 characters" }, rule: "textBound", fixable: true),
    Case(
      name: "more digests than a workspace keeps",
      sql: { _ in
        "INSERT INTO digest(id, created_at, trigger, sections, algorithm, algorithm_version) "
          + "SELECT printf('%08X-0000-4000-8000-000000000000', n), created_at, trigger, sections, algorithm, algorithm_version "
          + "FROM digest, (WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 50) SELECT n FROM c)"
      },
      doctorLine: { _ in "digest: workspace.digests has 51 digests; the limit is 50" },
      problem: { _ in "workspace.digests has 51 digests; the limit is 50" }, rule: "document", fixable: false),
    // Review (s16): an import stored a digest labelled as a model's, and the Markdown export then
    // said so; every digest dolphin keeps is built by rules.
    Case(
      name: "a digest labelled as built otherwise than by rules",
      sql: { _ in "UPDATE digest SET algorithm = 'gpt-4-summary'" },
      doctorLine: { f in
        "digest \((try? RefusedTextCommandTests.sqliteValue(f.cli, "SELECT id FROM digest LIMIT 1")) ?? "?"): "
          + "algorithm 'gpt-4-summary' is not how dolphin builds digests"
      },
      problem: { _ in "algorithm 'gpt-4-summary' is not how dolphin builds digests: every digest is `rule-based-digest`" },
      rule: "digestLabel", fixable: true),
    // Review 18-c, C6 and B9: states no command leaves a task or checkpoint in.
    Case(
      name: "an open task with a completion date",
      sql: { "UPDATE task SET completed_at = '2026-12-01T00:00:00.000Z' WHERE id = '\($0.task)'" },
      doctorLine: { "task \($0.task): completedAt is 2026-12-01T00:00:00.000Z but status is open" },
      problem: { _ in "completedAt is 2026-12-01T00:00:00.000Z but status is open; an open task has no completion date" },
      rule: "taskCompletion", fixable: true),
    Case(
      name: "a completed task without a completion date",
      sql: { "UPDATE task SET status = 'completed', completed_at = NULL WHERE id = '\($0.task)'" },
      doctorLine: { "task \($0.task): status is completed but completedAt is missing" },
      problem: { _ in "status is completed but completedAt is missing" }, rule: "taskCompletion", fixable: true),
    Case(
      name: "a task completed before it was created",
      sql: { "UPDATE task SET status = 'completed', completed_at = '2000-01-01T00:00:00.000Z' WHERE id = '\($0.task)'" },
      doctorLine: { "task \($0.task): completedAt is 2000-01-01T00:00:00.000Z, earlier than createdAt " },
      problem: { _ in "completedAt is 2000-01-01T00:00:00.000Z, earlier than createdAt " }, rule: "taskCompletion",
      fixable: true),
    Case(
      name: "a checkpoint with a negative step",
      sql: { _ in "UPDATE checkpoint SET step = -5 WHERE rowid = (SELECT min(rowid) FROM checkpoint)" },
      doctorLine: { f in
        "checkpoint \((try? RefusedTextCommandTests.sqliteValue(f.cli, "SELECT id FROM checkpoint ORDER BY rowid LIMIT 1")) ?? "?"): "
          + "step is -5; a checkpoint's step is a whole number 0 or more"
      },
      problem: { _ in "step is -5; a checkpoint's step is a whole number 0 or more" }, rule: "checkpointStep", fixable: true),
    // Review 18-c, C7: activity text had no bound on import.
    Case(
      name: "a receipt message over its bound",
      sql: { "UPDATE receipt SET message = printf('%.4001c', 'm') WHERE id = '\($0.receipt)'" },
      doctorLine: { "receipt \($0.receipt): message is 4001 characters; the limit is 4000 characters" },
      problem: { _ in "message is 4001 characters; the limit is 4000 characters" }, rule: "textBound", fixable: true),
    Case(
      name: "a checkpoint note over its bound",
      sql: { _ in "UPDATE checkpoint SET note = printf('%.4001c', 'n') WHERE rowid = (SELECT min(rowid) FROM checkpoint)" },
      doctorLine: { f in
        "checkpoint \((try? RefusedTextCommandTests.sqliteValue(f.cli, "SELECT id FROM checkpoint ORDER BY rowid LIMIT 1")) ?? "?"): "
          + "note is 4001 characters; the limit is 4000 characters"
      },
      problem: { _ in "note is 4001 characters; the limit is 4000 characters" }, rule: "textBound", fixable: true),
    // Review 18-d, M5: more receipt and checkpoint fields without a bound on import.
    Case(
      name: "a receipt tool over its bound",
      sql: { "UPDATE receipt SET tool = printf('%.101c', 't') WHERE id = '\($0.receipt)'" },
      doctorLine: { "receipt \($0.receipt): tool is 101 characters; the limit is 100 characters" },
      problem: { _ in "tool is 101 characters; the limit is 100 characters" }, rule: "textBound", fixable: true),
    Case(
      name: "a receipt callID over its bound",
      sql: { "UPDATE receipt SET call_id = printf('%.201c', 'c') WHERE id = '\($0.receipt)'" },
      doctorLine: { "receipt \($0.receipt): callID is 201 characters; the limit is 200 characters" },
      problem: { _ in "callID is 201 characters; the limit is 200 characters" }, rule: "textBound", fixable: true),
    Case(
      name: "receipt arguments over their bound",
      sql: { "UPDATE receipt SET arguments = json_object('q', printf('%.16000c', 'a')) WHERE id = '\($0.receipt)'" },
      doctorLine: { "receipt \($0.receipt): arguments is 16008 characters; the limit is 16000 characters" },
      problem: { _ in "arguments is 16008 characters; the limit is 16000 characters" }, rule: "textBound", fixable: true),
    Case(
      name: "a receipt with more changedIDs than its bound",
      sql: {
        "UPDATE receipt SET changed_ids = (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1001) "
          + "SELECT json_group_array(printf('00000000-0000-4000-8000-%012d', i)) FROM n) WHERE id = '\($0.receipt)'"
      },
      doctorLine: { "receipt \($0.receipt): changedIDs has 1001 ids; the limit is 1000 ids" },
      problem: { _ in "changedIDs has 1001 ids; the limit is 1000 ids" }, rule: "countBound", fixable: true),
    Case(
      name: "a checkpoint whose state is no state of a run",
      sql: { _ in "UPDATE checkpoint SET state = printf('%.5000c', 's') WHERE rowid = (SELECT min(rowid) FROM checkpoint)" },
      doctorLine: { f in
        "checkpoint \((try? RefusedTextCommandTests.sqliteValue(f.cli, "SELECT id FROM checkpoint ORDER BY rowid LIMIT 1")) ?? "?"): "
          + "state 'sss"
      },
      problem: { _ in "characters) is not a state of a run; it is one of planned, awaitingApproval, executing, finished, cancelled" },
      rule: "checkpointState", fixable: true),
    Case(
      name: "a digest with a negative count of lines left out",
      sql: { _ in
        "UPDATE digest SET sections = json_set(sections, '$.omitted.openTasks', -5) WHERE rowid = (SELECT max(rowid) FROM digest)"
      },
      doctorLine: { f in
        "digest \((try? RefusedTextCommandTests.sqliteValue(f.cli, "SELECT id FROM digest ORDER BY rowid DESC LIMIT 1")) ?? "?"): "
          + "sections.omitted.openTasks is -5"
      },
      problem: { _ in "sections.omitted.openTasks is -5; a digest's count of lines left out is a whole number 0 or more" },
      rule: "digestCount", fixable: true),
    // Review 19-d, #12: a count no workspace could hold was imported, and doctor said nothing.
    Case(
      name: "a digest count of lines left out over what a workspace holds",
      sql: { _ in
        "UPDATE digest SET sections = json_set(sections, '$.omitted.recentContext', 999999999999) "
          + "WHERE rowid = (SELECT max(rowid) FROM digest)"
      },
      doctorLine: { f in
        "digest \((try? RefusedTextCommandTests.sqliteValue(f.cli, "SELECT id FROM digest ORDER BY rowid DESC LIMIT 1")) ?? "?"): "
          + "sections.omitted.recentContext is 999999999999"
      },
      problem: { _ in
        "sections.omitted.recentContext is 999999999999; a digest's count of lines left out there is at most 100000, the "
          + "knowledge items a workspace can hold"
      },
      rule: "digestCount", fixable: true),
    // Review 19-b, F4: digests far beyond what the builder writes were imported, and doctor said healthy.
    Case(
      name: "a digest section with more lines than the builder writes",
      sql: { f in
        "UPDATE digest SET sections = json_set(sections, '$.decisions', json((WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
          + "SELECT i + 1 FROM n WHERE i < 9) SELECT json_group_array(json_object('text', 'decision ' || i, 'evidenceIDs', "
          + "json_array('\(f.decision)'))) FROM n))) WHERE rowid = (SELECT max(rowid) FROM digest)"
      },
      doctorLine: { f in
        "digest \((try? RefusedTextCommandTests.sqliteValue(f.cli, "SELECT id FROM digest ORDER BY rowid DESC LIMIT 1")) ?? "?"): "
          + "sections.decisions has 9 lines; the digest builder writes at most 8 there"
      },
      problem: { _ in "sections.decisions has 9 lines; the digest builder writes at most 8 there" }, rule: "countBound",
      fixable: true),
    Case(
      name: "a digest line longer than the builder writes",
      sql: { _ in
        "UPDATE digest SET sections = json_set(sections, '$.recentContext[0].text', printf('%.241c', 'd')) "
          + "WHERE rowid = (SELECT max(rowid) FROM digest)"
      },
      doctorLine: { f in
        "digest \((try? RefusedTextCommandTests.sqliteValue(f.cli, "SELECT id FROM digest ORDER BY rowid DESC LIMIT 1")) ?? "?"): "
          + "sections.recentContext[0].text is 241 characters; the limit is 240 characters"
      },
      problem: { _ in "sections.recentContext[0].text is 241 characters; the limit is 240 characters" }, rule: "textBound",
      fixable: true),
    // Review 19-d, #1: receipts dated in 2099 pushed out the workspace's own at every later call.
    Case(
      name: "a receipt dated far ahead of the clock",
      sql: {
        "UPDATE receipt SET started_at = '2099-01-01T00:00:00.000Z', finished_at = '2099-01-01T00:00:00.250Z' "
          + "WHERE id = '\($0.receipt)'"
      },
      doctorLine: { "receipt \($0.receipt): startedAt is 2099-01-01T00:00:00.000Z, in the future" },
      problem: { _ in "startedAt is 2099-01-01T00:00:00.000Z, in the future (this machine's clock says " },
      rule: "futureDate", fixable: true),
    Case(
      name: "a task's updatedAt before its createdAt",
      sql: { "UPDATE task SET updated_at = '2000-01-01T00:00:00.000Z' WHERE id = '\($0.task)'" },
      doctorLine: { "task \($0.task): updatedAt is 2000-01-01T00:00:00.000Z, earlier than createdAt " },
      problem: { _ in "updatedAt is 2000-01-01T00:00:00.000Z, earlier than createdAt " }, rule: "dateOrder", fixable: true),
    Case(
      name: "a task's updatedAt far ahead of the clock",
      sql: { "UPDATE task SET updated_at = '2099-01-01T00:00:00.000Z' WHERE id = '\($0.task)'" },
      doctorLine: { "task \($0.task): updatedAt is 2099-01-01T00:00:00.000Z, in the future" },
      problem: { _ in "updatedAt is 2099-01-01T00:00:00.000Z, in the future (this machine's clock says " },
      rule: "futureDate", fixable: true),
    Case(
      name: "a task citing a missing knowledge item",
      sql: { "UPDATE task SET knowledge_ids = json_array('00000000-0000-4000-8000-0000000000AA') WHERE id = '\($0.task)'" },
      doctorLine: { "task \($0.task): workspace.tasks[0].knowledgeIDs[0] (in record \($0.task)): no knowledge item has the id " },
      problem: { _ in "no knowledge item has the id 00000000-0000-4000-8000-0000000000AA" }, rule: "document", fixable: false),
  ]

  @Test("doctor names the record and rule, export warns, and the import refuses it in the same words", arguments: cases)
  func doctorExportImportAgree(_ c: Case) throws {
    let f = try Self.fixture()
    defer { f.cli.dir.remove() }
    try RefusedTextCommandTests.sqlite(f.cli, c.sql(f))

    let doctor = try f.cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    let line = try #require(
      doctor.stdout.split(separator: "\n").first { $0.hasPrefix("  - " + c.doctorLine(f)) }, "\(doctor.stdout)")
    if let rule = c.rule {
      #expect(line.contains("[\(rule)]; fix: "), "\(line)")
      #expect(doctor.stdout.contains("\nImportable records: 1 stored record(s) break a rule of `dolphin import`"), "\(doctor.stdout)")
    } else {
      #expect(doctor.stdout.contains("\nImportable text: 1 stored value(s)"), "\(doctor.stdout)")
    }

    let file = f.cli.dir.appending("backup.json").path
    let export = try f.cli.run(["export", "--output", file])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stderr.contains("dolphin: warning: "), "\(export.stderr)")
    #expect(export.stderr.contains((c.exported ?? c.problem)(f)), "\(export.stderr)")
    // "run `dolphin doctor` on this workspace", or "… on the workspace the file came from", which
    // names no workspace: on import that is another one.
    #expect(export.stderr.contains("`dolphin doctor"), "\(export.stderr)")

    let empty = CLI()
    defer { empty.dir.remove() }
    let restore = try empty.run(["import", file])
    #expect(restore.status == 4, "\(restore.stdout)\(restore.stderr)")
    #expect(restore.stderr.contains(c.problem(f)), "\(restore.stderr)")
    #expect(restore.stderr.contains("Nothing was imported"), "\(restore.stderr)")

    guard c.fixable else { return }
    // The statements doctor gives, run as another program would run them; then the backup restores.
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(f.cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any])
    let refusals = (json["importRefusals"] as? [[String: Any]]) ?? []
    let refused = ((json["refusedText"] as? [String: Any])?["records"] as? [[String: Any]]) ?? []
    let statements = (refusals + refused).compactMap { $0["fixStatement"] as? String }
    #expect(statements.count == 1, "\(json)")
    for statement in statements { try RefusedTextCommandTests.sqlite(f.cli, statement) }
    #expect(try f.cli.run(["reindex"]).status == 0)
    let after = try f.cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
    #expect(after.stdout.contains("\nImportable records: no stored record breaks a rule of `dolphin import`\n"), "\(after.stdout)")
    let again = try f.cli.run(["export", "--output", file, "--force"])
    #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
    let other = CLI()
    defer { other.dir.remove() }
    let restored = try other.run(["import", file])
    #expect(restored.status == 0, "\(restored.stdout)\(restored.stderr)")
  }

  // Review 19-c, #10: a handoff dolphin wrote while a laptop's clock ran ahead was blamed on
  // "another program". The stored row is what such a clock leaves: dated two days ahead.
  @Test("a handoff dated ahead of the clock: doctor and export say a clock that ran ahead may have written it; the fix stays")
  func handoffAheadOfTheClock() throws {
    let f = try Self.fixture()
    defer { f.cli.dir.remove() }
    let handoff = try #require(
      (try f.cli.json(["handoff", "create", "--focus", "Release notes"])["handoff"] as? [String: Any])?["id"] as? String)
    try RefusedTextCommandTests.sqlite(
      f.cli, "UPDATE handoff SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+2 days') WHERE id = '\(handoff)'")
    let origin =
      "Where they come from: a record dated ahead of this machine's clock was written while a clock ran ahead "
      + "(dolphin dates a record by the clock of the machine that writes it, so a clock set right afterwards leaves it "
      + "in the future), by an earlier dolphin's import or migration, which did not check every record's dates, or by "
      + "another program."
    let doctor = try f.cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("  - handoff \(handoff): createdAt is "), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("[futureDate]; fix: date it now instead of in the future"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains(origin), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("another program wrote them") && !doctor.stdout.contains("no dolphin command stores"), "\(doctor.stdout)")
    let file = f.cli.dir.appending("backup.json").path
    let export = try f.cli.run(["export", "--output", file])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stderr.contains(origin), "\(export.stderr)")
    #expect(!export.stderr.contains("another program wrote them"), "\(export.stderr)")
  }

  @Test("a clean workspace: doctor reports no record, export warns of nothing, and the backup restores")
  func cleanWorkspace() throws {
    let f = try Self.fixture()
    defer { f.cli.dir.remove() }
    let doctor = try f.cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stdout.contains("\nImportable records: no stored record breaks a rule of `dolphin import`\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("\nImportable text: no stored value would make an export unimportable\n"), "\(doctor.stdout)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(f.cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any])
    #expect((json["importRefusals"] as? [Any])?.isEmpty == true, "\(json)")

    let file = f.cli.dir.appending("backup.json").path
    let export = try f.cli.run(["export", "--output", file])
    #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
    let empty = CLI()
    defer { empty.dir.remove() }
    #expect(try empty.run(["import", file]).status == 0)
  }
}
