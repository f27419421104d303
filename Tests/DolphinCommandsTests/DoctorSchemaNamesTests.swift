import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 26-b, 6–9, end to end: workspaces made by the `dolphin` CLI, changed with `sqlite3` as a
/// person would, then checked by `dolphin doctor`, whose advice is followed literally (its
/// `sqlite3` commands pasted into a shell as shown) until doctor finds the workspace healthy.
@Suite("doctor: index placement, renamed tables, user objects, names held", .serialized)
struct DoctorSchemaNamesTests {
  static func workspace() throws -> CLI { try DoctorSchemaTests.workspace() }

  /// Runs `sql` with the `sqlite3` program, as a person editing the workspace would.
  static func sqlite3(_ cli: CLI, _ sql: String) throws -> String {
    let r = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    try #require(r.status == 0, "sqlite3 is needed to change the schema as a person would: \(sql): \(r.stderr)")
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs every `sqlite3` command doctor's advice gives, in order, in a shell as shown.
  static func followAdvice(_ report: String) throws -> [String] {
    let commands = DoctorSchemaTests.sqlite3Commands(report)
    for command in commands {
      let run = try runProcess("/bin/sh", ["-c", command])
      #expect(run.status == 0, "\(command): \(run.stderr)")
    }
    return commands
  }

  static func missing(_ doc: [String: Any]) throws -> [[String: Any]] {
    try #require((doc["schema"] as? [String: Any])?["missing"] as? [[String: Any]], "\(doc)")
  }

  @Test("review 26-b, 6: knowledge renamed away and made again: its indexes are on the old table; doctor names them, reindex moves them")
  func indexesLeftOnRenamedTable() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    let sql = try Self.sqlite3(cli, "SELECT sql FROM sqlite_master WHERE name = 'knowledge'")
    _ = try Self.sqlite3(cli, "ALTER TABLE knowledge RENAME TO knowledge_old; \(sql); INSERT INTO knowledge SELECT * FROM knowledge_old;")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "was healthy before the fix: \(text.stdout)")
    #expect(text.stdout.contains("\nSchema: 3 missing, 1 table(s) or view(s) not created by dolphin (not a problem)\n"), "\(text.stdout)")
    #expect(
      text.stdout.contains(
        cli.naming(
          "  - index knowledge_header is missing from table knowledge (schema step 0004-knowledge-header-covering-index "
            + "creates it; the index of that name is on table knowledge_old instead, as renaming a table takes its "
            + "indexes along; nothing stored is lost; `dolphin reindex` recreates it, dropping that one)\n")),
      "\(text.stdout)")
    #expect(text.stdout.contains(cli.naming("`dolphin reindex` recreates them")), "\(text.stdout)")
    let entries = try Self.missing(try DoctorSchemaTests.doctorJSON(cli, status: 5))
    #expect(entries.map { $0["table"] as? String } == ["knowledge", "knowledge", "knowledge"])
    #expect(entries.map { ($0["nameHeldBy"] as? [String: Any])?["table"] as? String } == ["knowledge_old", "knowledge_old", "knowledge_old"])
    #expect(entries.map { $0["recreatedByReindex"] as? Bool } == [true, true, true])

    let reindex = try cli.run(["reindex"])
    #expect(reindex.status == 0, "\(reindex.stderr)")
    // Review 27-b, 4: what it dropped is said too.
    #expect(
      reindex.stdout.hasPrefix(
        "Dropped dolphin's indexes of those names where they were: index knowledge_updated on table knowledge_old, "
          + "index knowledge_header on table knowledge_old, index knowledge_memory_mirror on table knowledge_old\n"
          + "Recreated what the database lacked: index knowledge_updated, index knowledge_header, index knowledge_memory_mirror\n"),
      "\(reindex.stdout)")
    #expect(try Self.sqlite3(cli, "SELECT group_concat(tbl_name) FROM sqlite_master WHERE name IN ('knowledge_updated', 'knowledge_header', 'knowledge_memory_mirror')") == "knowledge,knowledge,knowledge")
    let after = try cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)")
    #expect(after.stdout.contains("  note: table knowledge_old was not created by dolphin"))
  }

  @Test("review 26-b, 7: knowledge renamed away: doctor names the table and the command that renames it back, which repairs it")
  func recordTableRenamedAway() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    // A name that needs quoting, in SQL and in the shell.
    _ = try Self.sqlite3(cli, #"ALTER TABLE knowledge RENAME TO "knowledge's ""old"" copy""#)
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(
      text.stdout.contains(
        #"  - table knowledge is missing (schema step 0001-schema-v5-records creates it; table knowledge's "old" copy, "#
          + "which dolphin did not create, has exactly its columns: most likely it is this table renamed, with the "
          + "5 records it held and dolphin's indexes on it)\n"), "\(text.stdout)")
    #expect(!text.stdout.contains("went with it") && !text.stdout.contains(#""OLD""#) && !text.stdout.contains(#""NAME""#))
    #expect(
      text.stdout.contains(
        #"Table knowledge's "old" copy, which dolphin did not create, has exactly the columns of the missing table knowledge: "#
          + "most likely it is that table renamed"), "\(text.stdout)")
    // Not the steps that recreate it empty: its rows are there.
    #expect(!text.stdout.contains("CREATE TABLE knowledge"), "\(text.stdout)")
    let entries = try Self.missing(try DoctorSchemaTests.doctorJSON(cli, status: 5))
    #expect(entries.first?["renamedAs"] as? String == #"knowledge's "old" copy"#)

    let commands = try Self.followAdvice(text.stdout)
    #expect(commands == [
      "sqlite3 '\(cli.workspace)/workspace.sqlite' " + #"'ALTER TABLE "knowledge'\''s ""old"" copy" RENAME TO "knowledge"'"#
    ])
    let after = try cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)")
    #expect(after.stdout.contains("\nSchema: every table and index the schema steps create, with their columns, and nothing else\n"))
    #expect(try cli.run(["search", "ferry"]).stdout.contains("\"The ferry leaves at nine\""))
  }

  @Test("review 26-b, 8: an index and a trigger on the user's own table are notes: doctor exits 0 and status lists no problem")
  func userTableIndexAndTrigger() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    _ = try Self.sqlite3(
      cli,
      """
      CREATE TABLE my_notes (x TEXT, y TEXT);
      CREATE INDEX my_notes_x ON my_notes(x);
      CREATE TRIGGER my_notes_seen AFTER INSERT ON my_notes BEGIN UPDATE my_notes SET y = 'seen' WHERE rowid = new.rowid; END;
      """)
    let text = try cli.run(["doctor"])
    #expect(text.status == 0, "\(text.stdout)")
    #expect(
      text.stdout.contains(
        "\nSchema: every table and index the schema steps create, with their columns, and 1 table(s) or view(s) not "
          + "created by dolphin and 2 index(es) or trigger(s) on them (not a problem)\n"), "\(text.stdout)")
    #expect(
      text.stdout.contains(
        "  note: index my_notes_x on my_notes was not created by dolphin; it is on a table dolphin did not create, "
          + "which dolphin neither reads nor writes (not a problem)\n"), "\(text.stdout)")
    #expect(text.stdout.contains("  note: trigger my_notes_seen on my_notes was not created by dolphin;"))
    #expect(!text.stdout.contains("DROP "), "no advice to remove them: \(text.stdout)")
    #expect(text.stdout.hasSuffix("Doctor: healthy.\n"), "\(text.stdout)")
    let unexpected = try #require(try DoctorSchemaTests.schema(try DoctorSchemaTests.doctorJSON(cli, status: 0))["unexpected"] as? [[String: Any]])
    #expect(unexpected.map { $0["isProblem"] as? Bool } == [false, false, false])
    let status = try cli.json(["status"])
    #expect((status["integrityProblems"] as? [Any])?.isEmpty == true, "\(status)")

    // The same on one of dolphin's tables is still a problem.
    _ = try Self.sqlite3(cli, "CREATE INDEX task_title ON task(title)")
    let problem = try cli.run(["doctor"])
    #expect(problem.status == 5)
    #expect(problem.stdout.contains("  - index task_title on task was not created by dolphin; it slows dolphin's writes to task"))
    #expect(problem.stdout.contains(#"'DROP INDEX "task_title"'"#), "\(problem.stdout)")
    #expect(!problem.stdout.contains(#"DROP INDEX "my_notes_x""#), "\(problem.stdout)")
  }

  @Test("review 26-b, 9: a user's lexical_notes survives erase --kind all and reindex")
  func userLexicalTableKept() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    _ = try Self.sqlite3(cli, "CREATE TABLE lexical_notes (note TEXT); INSERT INTO lexical_notes VALUES ('mine, keep me');")
    let erase = try cli.run(["erase", "--kind", "all", "--yes"])
    #expect(erase.status == 0, "\(erase.stdout)\(erase.stderr)")
    #expect(erase.stdout.contains("empty the search index (dolphin's own lexical_* tables; no other table)"), "\(erase.stdout)")
    #expect(try Self.sqlite3(cli, "SELECT note FROM lexical_notes") == "mine, keep me", "emptied before the fix")
    #expect(try Self.sqlite3(cli, "SELECT count(*) FROM lexical_document") == "0", "the search index itself is empty")
    #expect(try cli.run(["capture", "fact", "The ferry leaves at nine"]).status == 0)
    #expect(try cli.run(["reindex"]).status == 0)
    #expect(try Self.sqlite3(cli, "SELECT note FROM lexical_notes") == "mine, keep me")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("  note: table lexical_notes was not created by dolphin"))
  }

  @Test("review 26-b, 9: a view named like the dropped memory table: doctor advises DROP VIEW first; the advice, followed, repairs it")
  func viewNamedLikeRecordTable() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    _ = try Self.sqlite3(cli, "DROP TABLE memory; CREATE VIEW memory AS SELECT id, title FROM knowledge;")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(text.stdout.contains("\nSchema: 1 missing, 1 not created by dolphin\n"), "\(text.stdout)")
    #expect(
      text.stdout.contains(
        "  - view memory was not created by dolphin and holds the name of dolphin's table memory, which is missing: "
          + "dolphin's commands that use table memory reach it instead, and fail\n"), "\(text.stdout)")
    #expect(!text.stdout.contains("dolphin neither reads nor writes it"), "not a harmless note: \(text.stdout)")
    let commands = DoctorSchemaTests.sqlite3Commands(text.stdout)
    #expect(commands.count == 2, "\(commands)")
    #expect(commands.first?.hasSuffix(#"'DROP VIEW "memory"'"#) == true, "first: \(commands)")
    #expect(commands.last?.contains("CREATE TABLE memory (") == true, "\(commands)")
    let doc = try DoctorSchemaTests.doctorJSON(cli, status: 5)
    let unexpected = try #require(try DoctorSchemaTests.schema(doc)["unexpected"] as? [[String: Any]])
    #expect(unexpected.map { ($0["holdsNameOf"] as? [String: Any])?["name"] as? String } == ["memory"])
    #expect(
      (try Self.missing(doc).first?["nameHeldBy"] as? [String: Any])?["freeingStatement"] as? String
        == #"DROP VIEW "memory""#)

    _ = try Self.followAdvice(text.stdout)
    let after = try cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)")
    #expect(try cli.run(["memory", "save", "The printer is on floor two"]).status == 0)
  }

  @Test("review 26-b, 9: a view named like a search index table: reindex fails pointing to doctor; DROP VIEW, then reindex repairs it")
  func viewNamedLikeDerivedTable() throws {
    let cli = try Self.workspace()
    defer { cli.dir.remove() }
    _ = try Self.sqlite3(cli, "DROP TABLE lexical_trigram; CREATE VIEW lexical_trigram AS SELECT 'abc' AS trigram, 1 AS term_id;")
    let refused = try cli.run(["reindex"])
    #expect(refused.status == 5)
    #expect(
      refused.stderr.contains(
        cli.naming(
          "an object that dolphin did not create holds the name of one that dolphin's schema creates; "
            + "`dolphin doctor` names it and what frees the name")), "\(refused.stderr)")
    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)")
    #expect(text.stdout.contains(cli.naming("Once the name is free (above), `dolphin reindex` recreates it")), "\(text.stdout)")
    #expect(try Self.followAdvice(text.stdout).count == 1)
    #expect(try cli.run(["reindex"]).status == 0)
    #expect(try cli.run(["doctor"]).status == 0)
    #expect(try cli.run(["search", "kubernets"]).stdout.contains("\"Ship the kubernetes rollout\""))
  }
}
