import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 25-a (1): `dolphin doctor` said "healthy" (exit 0) on a workspace whose table had been
/// dropped, or that held a trigger refusing every capture, while writes failed with a bare
/// SQLite error, and `dolphin reindex` could not repair a dropped `lexical_*` table. Doctor now
/// compares the schema with what its steps create, names each difference, exits 5 and says
/// what to do.
@Suite("doctor checks the schema", .serialized)
struct DoctorSchemaTests {
  /// A workspace with five captures (the fifth stores a digest) and a task.
  static func workspace() throws -> CLI {
    let cli = CLI()
    for title in ["Use SQLite for the workspace", "The ferry leaves at nine", "Ship the kubernetes rollout",
                  "Backups run nightly", "The office opens at eight"] {
      #expect(try cli.run(["capture", "fact", title, "--tags", "storage"]).status == 0)
    }
    #expect(try cli.run(["task", "add", "Check the backup script"]).status == 0)
    return cli
  }

  /// Runs `sql` on the workspace database as another program would.
  static func edit(_ cli: CLI, _ sql: String) throws {
    let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: cli.workspace))
    defer { store.closeConnection() }
    try store.write { tx in try tx.db.execute(sql) }
  }

  static func doctorJSON(_ cli: CLI, status: Int32) throws -> [String: Any] {
    let r = try cli.run(["doctor", "--json"])
    #expect(r.status == status, "\(r.stdout)\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
  }

  static func missing(_ doc: [String: Any]) -> [String] {
    let schema = doc["schema"] as? [String: Any]
    return (schema?["missing"] as? [[String: Any]] ?? []).compactMap { m in
      (m["object"] as? [String: Any]).map { "\($0["type"] ?? "") \($0["name"] ?? "")" }
    }
  }

  @Test("a fresh workspace: the schema check runs and finds nothing")
  func fresh() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    let text = try cli.run(["doctor"])
    #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
    #expect(
      text.stdout.contains("\nSchema: every table and index the schema steps create, with their columns, and nothing else\n"),
      "\(text.stdout)")
    let doc = try Self.doctorJSON(cli, status: 0)
    let schema = try #require(doc["schema"] as? [String: Any], "\(doc)")
    #expect((schema["missing"] as? [Any])?.isEmpty == true && (schema["unexpected"] as? [Any])?.isEmpty == true)
    #expect((schema["changed"] as? [Any])?.isEmpty == true)
  }

  @Test("lexical_trigram dropped: doctor names it (exit 5) and advises reindex, which recreates it; search and writes work")
  func droppedSearchIndexTable() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(cli, "DROP TABLE lexical_trigram")
    let capture = try cli.run(["capture", "fact", "Refused"])
    #expect(capture.status == 5)
    #expect(capture.stderr.contains(cli.naming("`dolphin doctor` names what is missing")), "\(capture.stderr)")

    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    #expect(text.stdout.contains("\nSchema: 1 missing\n"), "\(text.stdout)")
    #expect(
      text.stdout.contains(
        cli.naming(
          "  - table lexical_trigram is missing (schema step 0002-lexical-index creates it; its rows are derived from "
            + "the stored records; `dolphin reindex` recreates it)\n")), "\(text.stdout)")
    #expect(text.stdout.contains("Search index: not run (it reads the tables missing above)"))
    #expect(text.stdout.contains(cli.naming("Nothing stored is lost: what it holds is derived from the records. `dolphin reindex` recreates it")))
    #expect(text.stdout.hasSuffix("Doctor: problems found.\n"))
    #expect(Self.missing(try Self.doctorJSON(cli, status: 5)) == ["table lexical_trigram"])

    let reindex = try cli.run(["reindex"])
    #expect(reindex.status == 0, "\(reindex.stderr)")
    #expect(reindex.stdout.hasPrefix("Recreated what the database lacked: table lexical_trigram\nRe-indexed 5 document(s); index check: ok\n"), "\(reindex.stdout)")
    #expect(try cli.run(["doctor"]).status == 0)
    // A typo finds its word through the recreated trigram table.
    let search = try cli.run(["search", "kubernets"])
    #expect(search.stdout.contains("\"Ship the kubernetes rollout\""), "\(search.stdout)")
    #expect(try cli.run(["capture", "fact", "Written after the repair"]).status == 0)
    #expect(try cli.json(["status"])["counts"].flatMap { ($0 as? [String: Any])?["knowledge"] as? Int } == 6)
  }

  @Test("digest_evidence dropped: named (exit 5); reindex refills it from the stored digest")
  func droppedDigestEvidence() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(cli, "DROP TABLE digest_evidence")
    #expect(Self.missing(try Self.doctorJSON(cli, status: 5)) == ["table digest_evidence"])
    let reindex = try cli.run(["reindex", "--json"])
    #expect(reindex.status == 0, "\(reindex.stderr)")
    #expect(reindex.stdout.contains("\"name\" : \"digest_evidence\""), "\(reindex.stdout)")
    #expect(Self.missing(try Self.doctorJSON(cli, status: 0)).isEmpty)
    // Deleting an item the digest cites removes the digest: the evidence rows are back.
    let list = try cli.json(["knowledge", "list"])
    let id = try #require(((list["items"] as? [[String: Any]])?.last)?["id"] as? String, "\(list)")
    let delete = try cli.run(["knowledge", "delete", id, "--yes"])
    #expect(delete.stdout.contains("delete digest"), "\(delete.stdout)")
  }

  @Test("legacy_import dropped: named (exit 5) with the statement that recreates it; following the advice makes it healthy")
  func droppedRecordTable() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(cli, "DROP TABLE legacy_import")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    // Review 26-b, 7: said as it is — no table has its columns, as one renamed from it would.
    #expect(
      text.stdout.contains(
        "  - table legacy_import is missing (schema step 0001-schema-v5-records creates it; no table has exactly its "
          + "columns, as one renamed from it would: the records it held are not in the database unless copied elsewhere)\n"),
      "\(text.stdout)")
    #expect(!text.stdout.contains(#""OLD""#) && !text.stdout.contains(#""NAME""#), "no placeholder: \(text.stdout)")
    #expect(text.stdout.contains("Records: not run (it reads the tables missing above)"))
    #expect(text.stdout.contains("2. Recreate what is missing, empty, with the statements of the schema steps"))
    #expect(text.stdout.contains(cli.naming("`dolphin export --output ")), "\(text.stdout)")
    let doc = try Self.doctorJSON(cli, status: 5)
    let entries = try #require((doc["schema"] as? [String: Any])?["missing"] as? [[String: Any]])
    #expect(entries.map { $0["recreatedByReindex"] as? Bool } == [false])
    let sql = try #require(entries.first?["sql"] as? String)
    #expect(sql.hasPrefix("CREATE TABLE legacy_import ( sha256 TEXT PRIMARY KEY NOT NULL,"), "\(sql)")
    // Step 2 of the advice, then step 3: doctor runs every check and finds nothing else.
    try Self.edit(cli, sql)
    #expect(try cli.run(["doctor"]).status == 0)
  }

  @Test("knowledge dropped: the advice recovers everything else into a new workspace")
  func droppedKnowledgeRecovered() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(cli, "DROP TABLE knowledge")
    let doc = try Self.doctorJSON(cli, status: 5)
    #expect(
      Self.missing(doc) == [
        "table knowledge", "index knowledge_updated", "index knowledge_header", "index knowledge_memory_mirror",
      ])
    let sql = ((doc["schema"] as? [String: Any])?["missing"] as? [[String: Any]] ?? []).compactMap { $0["sql"] as? String }
    try Self.edit(cli, sql.joined(separator: "; "))
    // Doctor now names what still refers to the lost items (the digest, the search index).
    let after = try cli.run(["doctor"])
    #expect(after.status == 5)
    #expect(after.stdout.contains("cites 5 missing record(s)"), "\(after.stdout)")
    #expect(try cli.run(["erase", "--kind", "digests", "--yes"]).status == 0)
    #expect(try cli.run(["reindex"]).status == 0)
    #expect(try cli.run(["doctor"]).status == 0)
    let file = cli.dir.appending("export.json").path
    let fresh = cli.dir.appending("new").path
    #expect(try cli.run(["export", "--output", file]).status == 0)
    let imported = try runDolphin(["import", file, "--workspace", fresh])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try runDolphin(["doctor", "--workspace", fresh]).status == 0)
    let tasks = try runDolphin(["task", "list", "--workspace", fresh])
    #expect(tasks.stdout.contains("\"Check the backup script\""), "the task survived: \(tasks.stdout)")
  }

  @Test("a foreign trigger is named with the statement that removes it; doctor leaves it; captures fail pointing to doctor")
  func foreignTrigger() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(
      cli,
      "CREATE TRIGGER block BEFORE INSERT ON knowledge BEGIN SELECT RAISE(ABORT, 'blocked by trigger'); END; "
        + "CREATE VIEW recent AS SELECT id FROM knowledge")
    let capture = try cli.run(["capture", "fact", "Refused"])
    #expect(capture.status == 5)
    #expect(capture.stderr.contains("a trigger that dolphin did not create refused the write"), "\(capture.stderr)")
    #expect(capture.stderr.contains("blocked by trigger"))

    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    #expect(
      text.stdout.contains("\nSchema: 1 not created by dolphin, 1 table(s) or view(s) not created by dolphin (not a problem)\n"),
      "\(text.stdout)")
    #expect(text.stdout.contains("  - trigger block on knowledge was not created by dolphin; it runs inside dolphin's writes to knowledge"))
    // The view is a note: dolphin neither reads nor writes it.
    #expect(text.stdout.contains("  note: view recent was not created by dolphin; dolphin neither reads nor writes it"))
    #expect(text.stdout.contains(#"'DROP TRIGGER "block"'"#), "\(text.stdout)")
    #expect(!text.stdout.contains(#"DROP VIEW"#), "\(text.stdout)")
    #expect(text.stdout.contains("Doctor leaves it alone."))
    // Reported, not removed: the capture is still refused.
    #expect(try cli.run(["capture", "fact", "Still refused"]).status == 5)
    let status = try cli.run(["status"])
    #expect(status.stdout.contains("Integrity: 1 problem(s):"), "\(status.stdout)")
    #expect(status.stdout.contains("  - trigger block on knowledge was not created by dolphin"))
    #expect(!status.stdout.contains("view recent"), "\(status.stdout)")
  }

  /// The `sqlite3` commands doctor's advice gives, in order, as shown between backticks.
  static func sqlite3Commands(_ report: String) -> [String] {
    report.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 && $0.element.hasPrefix("sqlite3 ") }.map { String($0.element) }
  }

  static func schema(_ doc: [String: Any]) throws -> [String: Any] {
    try #require(doc["schema"] as? [String: Any], "\(doc)")
  }

  @Test("a view and a table added on purpose are notes: doctor exits 0, names them, and status lists no problem")
  func addedViewAndTableAreNotes() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(cli, "CREATE TABLE my_notes (x TEXT); CREATE VIEW open_tasks AS SELECT id, title FROM task")
    let text = try cli.run(["doctor"])
    #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
    #expect(
      text.stdout.contains(
        "\nSchema: every table and index the schema steps create, with their columns, and 2 table(s) or view(s) not "
          + "created by dolphin (not a problem)\n"
          + "  note: table my_notes was not created by dolphin; dolphin neither reads nor writes it, and `dolphin export` "
          + "does not carry it (not a problem)\n"
          + "  note: view open_tasks was not created by dolphin;"), "\(text.stdout)")
    #expect(!text.stdout.contains("DROP "), "no advice to remove them: \(text.stdout)")
    #expect(text.stdout.hasSuffix("Doctor: healthy.\n"), "\(text.stdout)")
    let doc = try Self.doctorJSON(cli, status: 0)
    #expect(doc["ok"] as? Bool == true)
    let unexpected = try #require(try Self.schema(doc)["unexpected"] as? [[String: Any]])
    #expect(unexpected.map { ($0["object"] as? [String: Any])?["name"] as? String } == ["my_notes", "open_tasks"])
    #expect(unexpected.map { $0["isProblem"] as? Bool } == [false, false])
    let status = try cli.json(["status"])
    #expect((status["integrityProblems"] as? [Any])?.isEmpty == true, "\(status)")
    #expect(try cli.run(["capture", "fact", "Written beside the view"]).status == 0)
  }

  @Test("knowledge replaced by a table of other columns: named (exit 5), checks skipped, advice; renaming back repairs it")
  func replacedRecordTable() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(cli, "ALTER TABLE knowledge RENAME TO k_old; CREATE TABLE knowledge(id TEXT)")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    // Review 26-b, 6: dolphin's indexes went along with the table renamed aside.
    #expect(
      text.stdout.contains("\nSchema: 3 missing, 1 with other columns\n"),
      "\(text.stdout)")
    #expect(
      text.stdout.contains(
        "  - index knowledge_updated is missing from table knowledge (schema step 0001-schema-v5-records creates it; "
          + "the index of that name is on table k_old instead"), "\(text.stdout)")
    #expect(
      text.stdout.contains(
        "  - table knowledge has other columns than schema step 0001-schema-v5-records creates: it lacks rowid "
          + "INTEGER PRIMARY KEY, kind TEXT NOT NULL, title TEXT NOT NULL,"), "\(text.stdout)")
    #expect(text.stdout.contains("; it has id TEXT where dolphin creates id TEXT NOT NULL (changed outside dolphin; "))
    // Review 27-b, 10: named as dolphin's table put aside, not also as a harmless note.
    #expect(!text.stdout.contains("  note: table k_old was not created by dolphin"))
    #expect(text.stdout.contains("Records: not run (it reads the tables changed above)"), "\(text.stdout)")
    #expect(text.stdout.contains("\nSearch index: not run\n"), "\(text.stdout)")
    #expect(!text.stdout.contains("Checks stopped"), "\(text.stdout)")
    #expect(text.stdout.contains("Doctor changed nothing. To recover:"), "\(text.stdout)")
    // Review 26-b, 7: the real names, quoted, in a command to paste as it is.
    let rename = #"ALTER TABLE "knowledge" RENAME TO "knowledge_replaced"; ALTER TABLE "k_old" RENAME TO "knowledge""#
    #expect(text.stdout.contains(rename), "\(text.stdout)")
    #expect(text.stdout.contains("table k_old, which dolphin did not create, has exactly the columns dolphin gives it"))
    #expect(!text.stdout.contains(#""OLD""#), "\(text.stdout)")
    #expect(text.stdout.hasSuffix("Doctor: problems found.\n"))

    let doc = try Self.doctorJSON(cli, status: 5)
    #expect(doc["ok"] as? Bool == false)
    let changed = try #require(try Self.schema(doc)["changed"] as? [[String: Any]], "\(doc)")
    #expect(changed.map { $0["table"] as? String } == ["knowledge"])
    #expect(changed.first?["step"] as? String == "0001-schema-v5-records")
    #expect(changed.first?["recreatedByReindex"] as? Bool == false)
    #expect(changed.first?["renamedAs"] as? String == "k_old")
    let lacks = (changed.first?["missingColumns"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    #expect(lacks.first == "rowid" && lacks.contains("title") && lacks.count == 11, "\(lacks)")
    let altered = try #require(changed.first?["alteredColumns"] as? [[String: Any]])
    #expect(altered.count == 1)
    #expect((altered.first?["expected"] as? [String: Any])?["notNull"] as? Bool == true)
    #expect((altered.first?["actual"] as? [String: Any])?["notNull"] as? Bool == false)
    #expect(doc["malformedRecords"] is NSNull, "skipped as for a missing table")

    // Reads of the table fail pointing to doctor.
    let list = try cli.run(["knowledge", "list"])
    #expect(list.status == 5)
    #expect(list.stderr.contains(cli.naming("lacks a column that dolphin's schema creates")), "\(list.stderr)")
    #expect(list.stderr.contains(cli.naming("`dolphin doctor` names what changed")), "\(list.stderr)")

    // The advice, pasted into a shell as shown: the former table is back. What is left aside is a note only.
    let commands = Self.sqlite3Commands(text.stdout)
    #expect(commands.count == 1, "\(commands)")
    for command in commands {
      let run = try runProcess("/bin/sh", ["-c", command])
      #expect(run.status == 0, "\(command): \(run.stderr)")
    }
    let after = try cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)")
    #expect(after.stdout.contains("  note: table knowledge_replaced was not created by dolphin"))
    #expect(try cli.run(["search", "ferry"]).stdout.contains("\"The ferry leaves at nine\""))
  }

  @Test("a column added to task: named (exit 5) and listed by status; the checks run; dropping it as advised repairs it")
  func addedColumn() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(cli, "ALTER TABLE task ADD COLUMN x TEXT NOT NULL DEFAULT ''")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    let line =
      "table task has other columns than schema step 0001-schema-v5-records creates: it has x TEXT NOT NULL, which "
      + "dolphin did not create (changed outside dolphin; commands that read or write it may fail, and `dolphin export` "
      + "carries only the columns dolphin created)"
    #expect(text.stdout.contains("\nSchema: 1 with other columns\n  - " + line + "\n"), "\(text.stdout)")
    #expect(text.stdout.contains("Records: every JSON column and named value is readable"), "\(text.stdout)")
    #expect(text.stdout.contains("Search index: agrees with the records"), "\(text.stdout)")
    let drop = #"ALTER TABLE "task" DROP COLUMN "x""#
    #expect(text.stdout.contains(drop), "\(text.stdout)")
    #expect(text.stdout.contains("Doctor changed nothing."))
    let doc = try Self.doctorJSON(cli, status: 5)
    let changed = try #require(try Self.schema(doc)["changed"] as? [[String: Any]])
    #expect(
      (changed.first?["unexpectedColumns"] as? [[String: Any]])?.map { $0["name"] as? String } == ["x"], "\(changed)")
    let status = try cli.run(["status"])
    #expect(status.stdout.contains("Integrity: 1 problem(s):\n  - " + line), "\(status.stdout)")

    try Self.edit(cli, drop)
    #expect(try cli.run(["doctor"]).status == 0)
  }

  @Test("lexical_trigram replaced with other columns: named (exit 5) with reindex, which recreates it; search works")
  func replacedDerivedTable() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(cli, "DROP TABLE lexical_trigram; CREATE TABLE lexical_trigram(trigram TEXT, term INTEGER)")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    #expect(
      text.stdout.contains(
        cli.naming(
          "\nSchema: 1 with other columns\n  - table lexical_trigram has other columns than schema step "
            + "0002-lexical-index creates: it lacks term_id INTEGER NOT NULL PRIMARY KEY (its column 2); it has term "
            + "INTEGER, which dolphin did not create; it has trigram TEXT where dolphin creates trigram TEXT NOT NULL "
            + "PRIMARY KEY (changed outside dolphin; its rows are derived from the stored records; `dolphin reindex` "
            + "recreates it)\n")), "\(text.stdout)")
    #expect(text.stdout.contains("Search index: not run (it reads the tables changed above)"), "\(text.stdout)")
    #expect(text.stdout.contains("Records: every JSON column"), "the record checks run: \(text.stdout)")
    #expect(text.stdout.contains(cli.naming("`dolphin reindex` drops it, recreates it as the schema steps do")), "\(text.stdout)")
    let doc = try Self.doctorJSON(cli, status: 5)
    let changed = try #require(try Self.schema(doc)["changed"] as? [[String: Any]])
    #expect(changed.map { $0["recreatedByReindex"] as? Bool } == [true])

    let reindex = try cli.run(["reindex"])
    #expect(reindex.status == 0, "\(reindex.stderr)")
    #expect(
      reindex.stdout.hasPrefix(
        "Recreated with the columns the schema steps give them: table lexical_trigram\nRe-indexed 5 document(s); index check: ok\n"),
      "\(reindex.stdout)")
    #expect(try cli.run(["doctor"]).status == 0)
    let search = try cli.run(["search", "kubernets"])
    #expect(search.stdout.contains("\"Ship the kubernetes rollout\""), "\(search.stdout)")
    #expect(try cli.run(["capture", "fact", "Written after the repair"]).status == 0)
  }

  @Test("reindex --json names the derived table it replaced")
  func reindexJSONNamesReplaced() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    try Self.edit(cli, "ALTER TABLE knowledge_tag ADD COLUMN extra TEXT")
    let reindex = try cli.json(["reindex"])
    #expect((reindex["replaced"] as? [[String: Any]])?.map { $0["name"] as? String } == ["knowledge_tag"], "\(reindex)")
    #expect((reindex["recreated"] as? [Any])?.isEmpty == true)
    #expect(Self.missing(try Self.doctorJSON(cli, status: 0)).isEmpty)
    let search = try cli.run(["search", "ferry", "--tag", "storage"])
    #expect(search.stdout.contains("\"The ferry leaves at nine\""), "\(search.stdout)")
  }
}
