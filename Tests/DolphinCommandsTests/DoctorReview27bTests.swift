import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 27-b, end to end: workspaces made by the `dolphin` CLI, changed with `sqlite3` as a
/// person would, checked by `dolphin doctor`, whose advice is followed as printed.
@Suite("doctor: review 27-b (rename candidates, schema_migration renamed, names, columns)", .serialized)
struct DoctorReview27bTests {
  typealias N = DoctorSchemaNamesTests

  /// Follows doctor's advice until it is healthy or `rounds` run out: its `sqlite3` commands
  /// pasted as printed, then `dolphin reindex` when the advice names it.
  static func repair(_ cli: CLI, rounds: Int = 3) throws -> ProcessResult {
    var report = try cli.run(["doctor"])
    for _ in 0..<rounds where report.status != 0 {
      _ = try N.followAdvice(report.stdout)
      if report.stdout.contains("dolphin reindex") {
        let r = try cli.run(["reindex"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
      }
      report = try cli.run(["doctor"])
    }
    return report
  }

  @Test("review 27-b, 1: two tables with the columns of the missing knowledge: doctor names both with their rows and renames back the one holding the records")
  func severalRenameCandidates() throws {
    let cli = try N.workspace()
    defer { cli.dir.remove() }
    let sql = try N.sqlite3(cli, "SELECT sql FROM sqlite_master WHERE name = 'knowledge'")
    let tags = try N.sqlite3(cli, "SELECT count(*) FROM knowledge_tag")
    // The indexes that went along are dropped: only the rows tell the tables apart. `a_empty`
    // comes first by name.
    _ = try N.sqlite3(
      cli,
      "ALTER TABLE knowledge RENAME TO k_real; DROP INDEX knowledge_updated; DROP INDEX knowledge_header; "
        + "DROP INDEX knowledge_memory_mirror; "
        + sql.replacingOccurrences(of: "CREATE TABLE knowledge", with: "CREATE TABLE a_empty"))
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(
      text.stdout.contains(
        "tables k_real (5 rows), a_empty (0 rows) all have exactly its columns; k_real is most likely it, as it holds "
          + "the most rows; the others are left as they are"), "\(text.stdout)")
    #expect(
      text.stdout.contains(
        "table k_real, which dolphin did not create, has exactly the columns of the missing table knowledge: most "
          + "likely it is that table renamed (`ALTER TABLE … RENAME TO`), with the 5 records it held."), "\(text.stdout)")
    #expect(!text.stdout.contains("dolphin's indexes on it"), "it has none: \(text.stdout)")
    #expect(!text.stdout.contains("note: table k_real"), "named as dolphin's table, not as a note: \(text.stdout)")
    #expect(text.stdout.contains("note: table a_empty was not created by dolphin"), "\(text.stdout)")
    let entry = try #require(try N.missing(try DoctorSchemaTests.doctorJSON(cli, status: 5)).first)
    #expect(entry["renamedAs"] as? String == "k_real", "a_empty before the fix: \(entry)")
    let candidates = try #require(entry["renamedCandidates"] as? [[String: Any]], "\(entry)")
    #expect(candidates.map { $0["table"] as? String } == ["k_real", "a_empty"])
    #expect(candidates.map { $0["rows"] as? Int } == [5, 0])

    let after = try Self.repair(cli)
    #expect(after.status == 0, "\(after.stdout)")
    #expect(try N.sqlite3(cli, "SELECT count(*) FROM knowledge") == "5")
    #expect(try N.sqlite3(cli, "SELECT count(*) FROM knowledge_tag") == tags, "reindex emptied it before the fix")
    #expect(try cli.run(["search", "ferry"]).stdout.contains("\"The ferry leaves at nine\""))
  }

  @Test("review 27-b, 10: meta renamed away: its rows are named, no indexes are claimed, and it is not also a note")
  func renamedTableWithoutIndexes() throws {
    let cli = try N.workspace()
    defer { cli.dir.remove() }
    let rows = try N.sqlite3(cli, "SELECT count(*) FROM meta")
    _ = try N.sqlite3(cli, "ALTER TABLE meta RENAME TO meta_old")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(text.stdout.contains("most likely it is this table renamed, with the \(rows) record\(rows == "1" ? "" : "s") it held)"), "\(text.stdout)")
    #expect(!text.stdout.contains("dolphin's indexes on it"), "meta has none: \(text.stdout)")
    #expect(!text.stdout.contains("note: table meta_old"), "\(text.stdout)")
    #expect(try Self.repair(cli).status == 0)
  }

  @Test("review 27-b, 2: schema_migration renamed: doctor and every command name it and the rename back, which repairs it")
  func migrationTableRenamed() throws {
    let cli = try N.workspace()
    defer { cli.dir.remove() }
    _ = try N.sqlite3(cli, "ALTER TABLE schema_migration RENAME TO sm_old")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(!text.stdout.contains("another program's"), "before the fix: \(text.stdout)")
    #expect(text.stdout.contains("table sm_old, which dolphin did not create, has exactly its columns"), "\(text.stdout)")
    #expect(text.stdout.contains(#"'ALTER TABLE "sm_old" RENAME TO "schema_migration"'"#), "\(text.stdout)")
    let status = try cli.run(["status"])
    #expect(status.status == 5)
    #expect(status.stderr.contains("without its schema_migration table") && !status.stderr.contains("move that file away"), "\(status.stderr)")
    #expect(try N.followAdvice(text.stdout).count == 1)
    let after = try cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)")
    #expect(try cli.run(["search", "ferry"]).stdout.contains("\"The ferry leaves at nine\""))
  }

  @Test("review 27-b, 2: another program's database with a table like schema_migration but none of dolphin's tables is still refused as another program's")
  func foreignDatabaseStillRefused() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try FileManager.default.createDirectory(atPath: cli.workspace, withIntermediateDirectories: true)
    let r = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       "CREATE TABLE migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL); "
        + "INSERT INTO migrations VALUES ('\(WorkspaceSchema.steps[0].name)', 'x'); CREATE TABLE orders (id INTEGER);"])
    try #require(r.status == 0, "\(r.stderr)")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(text.stdout.contains("is another program's SQLite database"), "\(text.stdout)")
  }
  @Test("review 27-b, 5: a column dropped from task: doctor offers the ADD COLUMN that makes it healthy, saying only its values are lost")
  func droppedColumnAddedBack() throws {
    let cli = try N.workspace()
    defer { cli.dir.remove() }
    _ = try N.sqlite3(cli, "ALTER TABLE task DROP COLUMN notes")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(
      text.stdout.contains(#"ALTER TABLE "task" ADD COLUMN "notes" TEXT NOT NULL DEFAULT '\'''\'''"#)
        && text.stdout.contains("only the values of notes are lost"), "\(text.stdout)")
    let changed = try #require((try DoctorSchemaTests.schema(try DoctorSchemaTests.doctorJSON(cli, status: 5))["changed"] as? [[String: Any]])?.first)
    #expect(changed["addColumnStatements"] as? [String] == [#"ALTER TABLE "task" ADD COLUMN "notes" TEXT NOT NULL DEFAULT ''"#])
    let after = try Self.repair(cli)
    #expect(after.status == 0, "\(after.stdout)")
    #expect(try cli.run(["task", "list"]).stdout.contains("Check the backup script"))
  }

  @Test("review 27-b, 5: ADD COLUMN is offered only where SQLite allows it")
  func addColumnClauseBounds() {
    #expect(SchemaColumn(name: "id", type: "TEXT", notNull: true, primaryKey: 0).addColumnClause(unique: true) == nil)
    #expect(SchemaColumn(name: "rowid", type: "INTEGER", notNull: false, primaryKey: 1).addColumnClause(unique: false) == nil)
    #expect(SchemaColumn(name: "revision", type: "INTEGER", notNull: true, primaryKey: 0).addColumnClause(unique: false) == #""revision" INTEGER NOT NULL DEFAULT 0"#)
    #expect(SchemaColumn(name: "memory_id", type: "TEXT", notNull: false, primaryKey: 0).addColumnClause(unique: false) == #""memory_id" TEXT"#)
  }

  @Test("review 27-b, 9: a column added with an index on it: the index is dropped first, in the same step, and the advice pasted in order works")
  func addedColumnWithIndex() throws {
    let cli = try N.workspace()
    defer { cli.dir.remove() }
    _ = try N.sqlite3(cli, "ALTER TABLE task ADD COLUMN c2 TEXT REFERENCES knowledge(id); CREATE INDEX c2i ON task(c2)")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(text.stdout.contains(#"'DROP INDEX "c2i"; ALTER TABLE "task" DROP COLUMN "c2"'"#), "\(text.stdout)")
    #expect(try N.followAdvice(text.stdout).count == 1, "\(text.stdout)")
    let after = try cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)")
  }

  @Test("review 27-b, 10: a composite primary key is described as one key over its columns")
  func compositeKeyDescribed() throws {
    let cli = try N.workspace()
    defer { cli.dir.remove() }
    _ = try N.sqlite3(cli, "DROP TABLE digest_evidence; CREATE TABLE digest_evidence(a, b)")
    let text = try cli.run(["doctor"])
    #expect(
      text.stdout.contains(
        "it lacks evidence_id TEXT NOT NULL, digest_id TEXT NOT NULL, with one PRIMARY KEY over (evidence_id, digest_id)"),
      "\(text.stdout)")
    #expect(!text.stdout.contains("(its column 2)"), "\(text.stdout)")
  }
  @Test("review 27-b, 4: a user's UNIQUE index holding a dolphin index name on the user's table: doctor names it and keeps it, reindex refuses, the advice works")
  func foreignIndexHoldingName() throws {
    let cli = try N.workspace()
    defer { cli.dir.remove() }
    _ = try N.sqlite3(
      cli, "CREATE TABLE my_notes(x UNIQUE, y); DROP INDEX knowledge_updated; CREATE UNIQUE INDEX knowledge_updated ON my_notes(y)")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(!text.stdout.contains("as renaming a table takes its indexes along"), "before the fix: \(text.stdout)")
    #expect(text.stdout.contains("index knowledge_updated on table my_notes, which dolphin did not create, holds its name"), "\(text.stdout)")
    #expect(text.stdout.contains("Doctor leaves it alone. Free the name first"), "\(text.stdout)")
    let refused = try cli.run(["reindex"])
    #expect(refused.status == 5, "dropped the user's index before the fix: \(refused.stdout)")
    #expect(try N.sqlite3(cli, "SELECT count(*) FROM sqlite_master WHERE tbl_name = 'my_notes' AND type = 'index' AND sql LIKE '%UNIQUE%'") == "1")
    let after = try Self.repair(cli)
    #expect(after.status == 0, "\(after.stdout)")
    // The user's index is kept, under another name, still UNIQUE.
    #expect(try N.sqlite3(cli, "SELECT name FROM sqlite_master WHERE tbl_name = 'my_notes' AND sql LIKE 'CREATE UNIQUE INDEX%'") == "knowledge_updated_renamed")
  }

  @Test("review 27-b, 4: reindex says which of dolphin's indexes it dropped where they were, in text and JSON")
  func reindexReportsDropped() throws {
    let cli = try N.workspace()
    defer { cli.dir.remove() }
    let sql = try N.sqlite3(cli, "SELECT sql FROM sqlite_master WHERE name = 'knowledge'")
    _ = try N.sqlite3(cli, "ALTER TABLE knowledge RENAME TO knowledge_old; \(sql); INSERT INTO knowledge SELECT * FROM knowledge_old;")
    let r = try cli.json(["reindex"])
    let dropped = try #require(r["dropped"] as? [[String: Any]], "\(r)")
    #expect(dropped.map { $0["table"] as? String } == ["knowledge_old", "knowledge_old", "knowledge_old"])
  }
}
