import Foundation
import Testing
import TestSupport

/// A record whose JSON column was damaged outside dolphin (a direct edit, a bad tool): the
/// commands that read it refuse the workspace and point at `doctor`, so `doctor` must find it,
/// name it and say how to recover — and `status` must name it instead of printing SQLite's error.
@Suite("Damaged records at the command line", .serialized)
struct DamagedRecordCommandTests {
  func sqlite(_ cli: CLI, _ sql: String) throws {
    let edit = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    #expect(edit.status == 0, "\(edit.stderr)")
  }

  /// Regression (second review, s13): a priority or status another program set to a name the
  /// store does not know made `knowledge list`, `task list`, `search` and `export` refuse the
  /// workspace as damaged, while doctor said "healthy" (exit 0).
  @Test("doctor names an unknown priority, status or kind (exit 5) with a fix, and the fix makes the workspace readable")
  func doctorNamesUnknownValues() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require((try cli.json(["capture", "fact", "Widgets", "--content", "spring plan", "--json"])["item"] as? [String: Any])?["id"] as? String)
    let t = try #require(try cli.record("task", ["task", "add", "Ship the widgets", "--json"])["id"] as? String)
    try sqlite(cli, "UPDATE knowledge SET priority = 'urgent', kind = 'note' WHERE id = '\(k)'; UPDATE task SET status = 'blocked' WHERE id = '\(t)'")
    #expect(try cli.run(["knowledge", "list"]).status == 5)

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Records: 3 with an unknown value"), "\(doctor.stdout)")
    #expect(
      doctor.stdout.contains(
        "  - knowledge \(k): knowledge.priority holds an unknown value (one of low, normal, high, critical is expected) ('urgent')"),
      "\(doctor.stdout)")
    #expect(doctor.stdout.contains("  - task \(t): task.status holds an unknown value (one of open, completed is expected) ('blocked')"))
    let fix = "UPDATE task SET status = 'open' WHERE id = '\(t)' AND (status IS NULL OR CAST(status AS TEXT) NOT IN ('open', 'completed'))"
    #expect(doctor.stdout.contains(fix), "\(doctor.stdout)")

    try sqlite(
      cli,
      fix + "; UPDATE knowledge SET priority = 'normal' WHERE id = '\(k)' AND priority NOT IN ('low', 'normal', 'high', 'critical')"
        + "; UPDATE knowledge SET kind = 'context' WHERE id = '\(k)' AND kind NOT IN ('decision', 'goal', 'preference', 'fact', 'insight', 'context', 'code')")
    // Step 4: the kind is part of the search index (the item was a fact; it is now a context).
    let again = try cli.run(["doctor"])
    #expect(again.stdout.contains("Records: every JSON column and named value is readable"), "\(again.stdout)")
    #expect(again.stdout.contains("(run `dolphin reindex --workspace \(cli.workspace)`)"), "\(again.stdout)")
    #expect(try cli.run(["reindex"]).status == 0)
    let healthy = try cli.run(["doctor"])
    #expect(healthy.status == 0 && healthy.stdout.hasSuffix("Doctor: healthy.\n"), "\(healthy.stdout)")
    #expect(try cli.run(["knowledge", "list"]).stdout.contains("Widgets"))
    #expect(try cli.run(["export"]).status == 0)
    // A known name stored as a blob reads as the name: no problem (third review, s13).
    try sqlite(cli, "UPDATE knowledge SET priority = CAST('high' AS BLOB) WHERE id = '\(k)'")
    #expect(try cli.run(["doctor"]).status == 0)
    #expect(try cli.run(["knowledge", "list"]).status == 0)
  }

  @Test("doctor names a record with malformed JSON (exit 5) and its recovery step makes the workspace readable again")
  func doctorNamesMalformedRecords() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require((try cli.json(["capture", "decision", "Use SQLite", "--tags", "a"])["item"] as? [String: Any])?["id"] as? String)
    _ = try cli.json(["capture", "fact", "WAL is on"])
    let t = try #require(try cli.record("task", ["task", "add", "Write the README", "--knowledge", k])["id"] as? String)
    try sqlite(cli, "UPDATE knowledge SET tags = '[\"A\",' WHERE id = '\(k)'; UPDATE task SET knowledge_ids = 'oops' WHERE id = '\(t)'")

    // The refusal names the record (table and id) as well as the column.
    let named = "knowledge \(k): knowledge.tags holds malformed JSON: [\"A\","
    let r = try cli.run(["knowledge", "list"])
    #expect(r.status == 5 && r.stderr.contains("run `dolphin doctor --workspace \(cli.workspace)` for recovery steps"), "\(r.stderr)")
    #expect(r.stderr.contains(named), "\(r.stderr)")
    // An export carries them as stored and says so, exit 6 (review 29-a, 8: it refused the workspace).
    for args in [["export"], ["export", "--format", "markdown"]] {
      let r = try cli.run(args)
      #expect(r.status == 6 && r.stderr.contains("`dolphin doctor --workspace \(cli.workspace)` names them with a repair"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains(named), "\(args): \(r.stderr)")
    }

    let status = try cli.run(["status"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(!(status.stdout + status.stderr).contains("SQLite error"), "\(status.stdout)\(status.stderr)")
    #expect(status.stdout.contains("Integrity: 2 problem(s):"), "\(status.stdout)")
    #expect(status.stdout.contains("  - task \(t): task.knowledge_ids holds malformed JSON ('oops')"), "\(status.stdout)")

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    #expect(!doctor.stdout.contains("Doctor: healthy"))
    #expect(doctor.stdout.contains("Records: 2 with malformed JSON"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("  - knowledge \(k): knowledge.tags holds malformed JSON ('[\"A\",')"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("  - task \(t): task.knowledge_ids holds malformed JSON ('oops')"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("References: ok"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Doctor: problems found."))
    // Every check ran: the index comparison, which cannot read such a record, leaves it to this report.
    #expect(!doctor.stdout.contains("Checks stopped"), "\(doctor.stdout)")
    let fix = "UPDATE task SET knowledge_ids = '[]' WHERE id = '\(t)'"
    #expect(doctor.stdout.contains(fix), "\(doctor.stdout)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(try cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any])
    let error = try #require(json["error"] as? [String: Any], "\(json)")
    #expect(error["kind"] as? String == "storage" && error["exitCode"] as? Int == 5)
    #expect(error["message"] as? String == "the workspace has problems (see the report)")
    let records = try #require(json["malformedRecords"] as? [[String: String]])
    #expect(records.map { [$0["table"], $0["column"], $0["id"]] } == [["knowledge", "tags", k], ["task", "knowledge_ids", t]])

    // The steps doctor gives repair it.
    try sqlite(cli, "UPDATE knowledge SET tags = '[]' WHERE id = '\(k)'; " + fix)
    // Emptying the tags changed what the index holds for that note: step 4 names it.
    let stale = try cli.run(["doctor"])
    #expect(stale.status == 5, "\(stale.stdout)")
    #expect(stale.stdout.contains("knowledge \(k) (tags) (run `dolphin reindex --workspace \(cli.workspace)`)"), "\(stale.stdout)")
    #expect(try cli.run(["reindex"]).status == 0)
    let again = try cli.run(["doctor"])
    #expect(again.stdout.contains("Doctor: healthy."), "\(again.stdout)\(again.stderr)")
    #expect(again.stdout.contains("Records: every JSON column and named value is readable"))
    #expect(try cli.run(["knowledge", "list"]).status == 0)
  }

  @Test("doctor's sqlite3 commands quote the workspace path: one with a space, a quote and a $ pastes as shown")
  func doctorQuotesPaths() throws {
    let dir = TemporaryDirectory("quoted")
    defer { dir.remove() }
    let workspace = dir.appending("it's a $HOME workspace").path
    func run(_ args: [String]) throws -> ProcessResult { try runDolphin(args + ["--workspace", workspace]) }
    let added = try run(["task", "add", "Write the README", "--json"])
    try #require(added.status == 0, "\(added.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any]
    let t = try #require((document?["task"] as? [String: Any])?["id"] as? String)
    let db = workspace + "/workspace.sqlite"
    let edit = try runProcess("/usr/bin/env", ["sqlite3", db, "UPDATE task SET knowledge_ids = 'oops' WHERE id = '\(t)'"])
    try #require(edit.status == 0, "\(edit.stderr)")

    let doctor = try run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    let quoted = "'" + dir.path + "/it'\\''s a $HOME workspace/workspace.sqlite'"
    let fix = "sqlite3 \(quoted) \"UPDATE task SET knowledge_ids = '[]' WHERE id = '\(t)'\""
    #expect(doctor.stdout.contains("e.g.: " + fix + "\n"), "\(doctor.stdout)")
    // Pasted into a shell as printed, the command repairs the record.
    let pasted = try runProcess("/bin/sh", ["-c", fix])
    #expect(pasted.status == 0, "\(pasted.stderr)")
    let again = try run(["doctor"])
    #expect(again.status == 0 && again.stdout.contains("Doctor: healthy."), "\(again.stdout)")

    // A file that is not a database: the .recover step quotes the path as well.
    try Data(repeating: 0x78, count: 4096).write(to: URL(fileURLWithPath: db))
    let damaged = try run(["doctor"])
    #expect(damaged.status == 5)
    // The commands work on a copy: sqlite3 may write beside a WAL database it opens.
    let copy = "'" + dir.path + "/it'\\''s a $HOME workspace.copy'"
    #expect(
      damaged.stdout.contains("`mkdir -m 700 \(copy) && cp -a '" + dir.path + "/it'\\''s a $HOME workspace/.' \(copy)`"),
      "\(damaged.stdout)")
    let copiedDatabase = "'" + dir.path + "/it'\\''s a $HOME workspace.copy/workspace.sqlite'"
    #expect(damaged.stdout.contains("3. Try `sqlite3 \(copiedDatabase) .recover > recovered.sql`"), "\(damaged.stdout)")
    #expect(!damaged.stdout.contains("sqlite3 \(quoted) .recover"), "\(damaged.stdout)")
    // Debian's sqlite3 has no sqlite_dbpage table, so `.recover` fails there: the `.dump`
    // fallback keeps the rows that read, with the damaged script's ROLLBACK made a COMMIT.
    #expect(
      damaged.stdout.contains(
        "`sqlite3 \(copiedDatabase) .dump | sed 's/^ROLLBACK; -- due to errors$/COMMIT;/' > recovered.sql`"),
      "\(damaged.stdout)")
  }

  // A review found one handoff id edited outside dolphin stopping every check after the
  // integrity check (the credential scan decoded it), with the id quoted as stored: a quote
  // closed the quotation early and a line break printed what read as doctor's own verdict.
  @Test("a malformed handoff id: doctor names it escaped, runs every later check, and its fix makes the workspace readable")
  func malformedHandoffID() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Staging deploy key", "--content", "api_key = \(FakeSecrets.stripe)", "--allow-credentials"]).status == 0)
    #expect(try cli.run(["task", "add", "Write the release notes"]).status == 0)
    #expect(try cli.run(["handoff", "create", "--focus", "Ship the beta", "--next", "Tag v0.9"]).status == 0)
    // A right-to-left override (U+202E) would reorder the rest of the line on screen.
    try sqlite(cli, "UPDATE handoff SET id = 'HF-7' || char(39) || '; DROP' || char(10) || 'Doctor: healthy.' || char(27) || '[2J' || char(8238)")
    let shown = #""HF-7'; DROP\nDoctor: healthy.\u{1B}[2J\u{202E}""#

    // The commands that read it refuse the workspace on one line, the id escaped.
    let list = try cli.run(["handoff", "list"])
    #expect(list.status == 5, "\(list.stdout)\(list.stderr)")
    #expect(list.stderr.contains("handoff holds a malformed id \(shown)"), "\(list.stderr)")
    #expect(list.stderr.split(separator: "\n").count == 1, "\(list.stderr)")

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    #expect(!doctor.stdout.contains("\u{1B}"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("\nRecord ids: 1 not a UUID\n  - handoff at row 1: id \(shown) is not a UUID\n"), "\(doctor.stdout)")
    // Every later check ran.
    #expect(doctor.stdout.contains("\nReferences: ok\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("\nSearch index: agrees with the records\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("\nCredentials: 1 record(s) hold text that looks like a credential:\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("\nHandoff next steps: none blank\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("\nText bounds: all stored text is within its bounds\n"), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("not run") && !doctor.stdout.contains("Checks stopped"), "\(doctor.stdout)")
    // The only line that says healthy is not doctor's.
    #expect(doctor.stdout.hasSuffix("\nDoctor: problems found.\n"), "\(doctor.stdout)")

    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(try cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(json["ok"] as? Bool == false)
    #expect(json["checkError"] == nil, "\(json)")
    let ids = try #require(json["malformedIDs"] as? [[String: Any]], "\(json)")
    #expect(ids.count == 1)
    #expect(ids.first?["table"] as? String == "handoff" && ids.first?["rowID"] as? Int == 1, "\(ids)")
    #expect(ids.first?["id"] as? String == "HF-7'; DROP\nDoctor: healthy.\u{1B}[2J\u{202E}", "\(ids)")
    #expect((json["credentials"] as? [String: Any])?["count"] as? Int == 1, "\(json)")
    #expect((json["searchIndexProblems"] as? [Any])?.isEmpty == true, "\(json)")

    // The step doctor gives, pasted as printed, gives the handoff a new id and keeps its text.
    let line = try #require(doctor.stdout.split(separator: "\n").first { $0.contains("UPDATE handoff SET id") })
    let fix = try #require(line.components(separatedBy: "e.g.: ").last)
    let pasted = try runProcess("/bin/sh", ["-c", fix])
    #expect(pasted.status == 0, "\(fix): \(pasted.stderr)")
    let again = try cli.run(["doctor"])
    #expect(again.status == 0 && again.stdout.hasSuffix("Doctor: healthy.\n"), "\(again.stdout)")
    #expect(again.stdout.contains("\nRecord ids: every id is a UUID\n"), "\(again.stdout)")
    let handoffs = try cli.run(["handoff", "list"])
    #expect(handoffs.status == 0 && handoffs.stdout.contains("Ship the beta"), "\(handoffs.stdout)\(handoffs.stderr)")
  }

  struct UnknownValueCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// The edit, with `{K}` and `{T}` standing for the knowledge item's and the task's ids.
    var sql: String
    var command: [String]
    /// What stderr names, with `{K}` and `{T}` as above.
    var named: String
    var testDescription: String { name }
  }

  static let unknownValues = [
    UnknownValueCase(
      name: "knowledge list, a kind", sql: "UPDATE knowledge SET kind = 'hypothesis' WHERE id = '{K}'",
      command: ["knowledge", "list"], named: "knowledge {K}: knowledge.kind holds an unknown value \"hypothesis\""),
    UnknownValueCase(
      name: "export, a source", sql: "UPDATE knowledge SET source = 'sync' WHERE id = '{K}'",
      command: ["export"], named: "knowledge {K}: knowledge.source holds an unknown value \"sync\""),
    UnknownValueCase(
      name: "context, a priority (the digest's projection)", sql: "UPDATE knowledge SET priority = 'urgent' WHERE id = '{K}'",
      command: ["context"], named: "knowledge {K}: knowledge.priority holds an unknown value \"urgent\""),
    UnknownValueCase(
      name: "task list, a status", sql: "UPDATE task SET status = 'blocked' WHERE id = '{T}'",
      command: ["task", "list"], named: "task {T}: task.status holds an unknown value \"blocked\""),
  ]

  /// Regression (review, s14): the command that met a name the store does not know said only
  /// `knowledge.kind holds an unknown value "hypothesis"`, so in a workspace of thousands of items
  /// the record could be found only through `doctor`. The error now names it as doctor does (table,
  /// id, column, value). Lists still refuse the workspace rather than leave the record out: a list
  /// that hid a record would misstate what is stored; doctor gives the one-line fix. An export
  /// carries the record as stored in its `unreadable` section, names it the same way, and exits 6
  /// (review 29-a, 8: refusing, it let no data out).
  @Test("the command that meets an unknown name names the record: table, id, column and value", arguments: unknownValues)
  func commandNamesUnknownValue(_ c: UnknownValueCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require((try cli.json(["capture", "fact", "Widgets", "--content", "spring plan", "--json"])["item"] as? [String: Any])?["id"] as? String)
    let t = try #require(try cli.record("task", ["task", "add", "Ship the widgets", "--json"])["id"] as? String)
    func filled(_ s: String) -> String { s.replacingOccurrences(of: "{K}", with: k).replacingOccurrences(of: "{T}", with: t) }
    try sqlite(cli, filled(c.sql))
    let run = try cli.run(c.command)
    if c.command == ["export"] {
      #expect(run.status == 6)
      #expect(run.stderr.contains("could not be decoded (" + filled(c.named) + ")"), "\(run.stderr)")
      return
    }
    #expect(run.status == 5)
    #expect(run.stderr.contains(filled(c.named) + ". Nothing was changed; run `dolphin doctor --workspace \(cli.workspace)` for recovery steps"), "\(run.stderr)")
  }
}
