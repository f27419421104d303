import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 25-a (1): a table dropped outside dolphin is no damage to SQLite, so `PRAGMA
/// integrity_check` passed while every write that needed the table failed, and a trigger
/// another program added refused every capture. ``WorkspaceTransaction/schemaDifference()``
/// compares `sqlite_master` with what the applied schema steps create.
@Suite("Schema difference", .serialized)
struct SchemaDifferenceTests {
  /// A file workspace with a knowledge item, a task and a digest citing the item.
  static func workspace(_ dir: TemporaryDirectory) throws -> SQLiteWorkspaceStore {
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    try store.write { tx in
      try tx.insertKnowledge(item(1, kind: .decision, title: "Keep nightly backups for 30 days"))
      try tx.insertTask(TaskItem(id: sequentialID(100), title: "Check the backup script", createdAt: t0))
      try tx.insertDigest(citingDigest)
    }
    return store
  }

  static let citingDigest = Digest(
    id: sequentialID(200), createdAt: t0, trigger: .manual,
    sections: DigestSections(decisions: [DigestLine(text: "Keep nightly backups", evidenceIDs: [sequentialID(1)])]),
    algorithm: "rule-based-digest", algorithmVersion: "1")

  static func names(_ store: SQLiteWorkspaceStore) throws -> [String] {
    try store.read { tx in
      try tx.db.all("SELECT type || ' ' || name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY 1") {
        $0.text(0)
      }
    }
  }

  @Test("a fresh workspace holds exactly what the steps create, and the expected list is that")
  func fresh() throws {
    let dir = TemporaryDirectory("schema-fresh")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    #expect(try store.read { tx in try tx.schemaDifference() } == SchemaDifference(missing: [], unexpected: []))
    let expected = WorkspaceSchema.expectedObjects(applied: Set(WorkspaceSchema.steps.map(\.name)))
      .map(\.object.description).sorted()
    #expect(expected == (try Self.names(store)))
    // Derived from the steps: what a later step drops is not expected, what it adds is.
    #expect(expected.contains("table lexical_trigram") && expected.contains("table lexical_stale"))
    #expect(expected.contains("index knowledge_header") && !expected.contains("index knowledge_kind"))
    #expect(expected.contains("table schema_migration"))
  }

  struct Dropped: Sendable, CustomTestStringConvertible {
    var statement: String
    /// What the difference names as missing, and whether `reindex` recreates each.
    var missing: [String: Bool]
    var testDescription: String { statement }
  }

  @Test(
    "each object dropped is named as missing, with whether reindex recreates it",
    arguments: [
      Dropped(statement: "DROP TABLE lexical_trigram", missing: ["table lexical_trigram": true]),
      Dropped(statement: "DROP TABLE digest_evidence", missing: ["table digest_evidence": true]),
      Dropped(statement: "DROP TABLE legacy_import", missing: ["table legacy_import": false]),
      Dropped(statement: "DROP INDEX knowledge_updated", missing: ["index knowledge_updated": true]),
      Dropped(
        statement: "DROP TABLE knowledge_tag",
        missing: ["table knowledge_tag": true, "index knowledge_tag_rowid": true]),
      Dropped(
        statement: "DROP TABLE task", missing: ["table task": false]),
      Dropped(
        statement: "DROP TABLE knowledge",
        missing: [
          "table knowledge": false, "index knowledge_updated": false, "index knowledge_header": false,
          "index knowledge_memory_mirror": false,
        ]),
    ])
  func dropped(_ c: Dropped) throws {
    let dir = TemporaryDirectory("schema-dropped")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in try tx.db.execute(c.statement) }
    let difference = try #require(try store.read { tx in try tx.schemaDifference() })
    #expect(difference.unexpected.isEmpty)
    #expect(
      Dictionary(uniqueKeysWithValues: difference.missing.map { ($0.object.description, $0.recreatedByReindex) })
        == c.missing)
    #expect(difference.problems.count == c.missing.count)
    for m in difference.missing {
      #expect(difference.problems.contains { $0.hasPrefix("\(m.object) is missing (schema step 0") })
      // The statement that recreates it is the step's own.
      #expect(m.sql.hasPrefix("CREATE ") && m.sql.contains(m.object.name))
    }
  }

  @Test("triggers, views, tables and indexes another program added are named, with the table they are on")
  func unexpected() throws {
    let dir = TemporaryDirectory("schema-unexpected")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in
      try tx.db.execute(
        """
        CREATE TRIGGER block BEFORE INSERT ON knowledge BEGIN SELECT RAISE(ABORT, 'blocked by trigger'); END;
        CREATE VIEW recent AS SELECT id FROM knowledge;
        CREATE TABLE notes_of_mine (x);
        CREATE UNIQUE INDEX one_title ON knowledge(title);
        """)
    }
    let difference = try #require(try store.read { tx in try tx.schemaDifference() })
    #expect(difference.missing.isEmpty && difference.changed.isEmpty)
    #expect(
      difference.unexpected.map { "\($0.object) on \($0.table)" } == [
        "trigger block on knowledge", "table notes_of_mine on notes_of_mine", "index one_title on knowledge",
        "view recent on recent",
      ])
    // The trigger and the index act on dolphin's writes: problems. The table and the view are
    // neither read nor written by dolphin: notes.
    #expect(difference.unexpected.map(\.isProblem) == [true, false, true, false])
    #expect(difference.hasProblems)
    #expect(difference.problems.count == 2)
    #expect(difference.problems.first?.hasPrefix("trigger block on knowledge was not created by dolphin") == true)
    #expect(difference.problems.last?.hasPrefix("index one_title on knowledge was not created by dolphin") == true)
    #expect(
      difference.notes == [
        "table notes_of_mine was not created by dolphin; dolphin neither reads nor writes it, and `dolphin export` "
          + "does not carry it (not a problem)",
        "view recent was not created by dolphin; dolphin neither reads nor writes it, and `dolphin export` "
          + "does not carry it (not a problem)",
      ])
    // The trigger does refuse dolphin's writes, and the error says where to look.
    let refused = #expect(throws: WorkspaceError.self) {
      try store.write { tx in try tx.insertKnowledge(item(2, kind: .fact, title: "Blocked")) }
    }
    #expect(refused?.description.contains("a trigger that dolphin did not create refused the write") == true)
    #expect(refused?.description.contains("dolphin doctor") == true)
    #expect(refused?.description.contains("blocked by trigger") == true)
  }

  @Test("a table and a view added on purpose are notes, not problems")
  func addedTableAndViewAreNotes() throws {
    let dir = TemporaryDirectory("schema-notes")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in
      try tx.db.execute("CREATE TABLE my_notes (x TEXT); CREATE VIEW open_tasks AS SELECT id, title FROM task")
    }
    let difference = try #require(try store.read { tx in try tx.schemaDifference() })
    #expect(!difference.isEmpty && !difference.hasProblems)
    #expect(difference.problems.isEmpty)
    #expect(difference.notes.count == 2)
    #expect(difference.notes.first?.hasPrefix("table my_notes was not created by dolphin") == true)
    // dolphin writes as before.
    try store.write { tx in try tx.insertKnowledge(item(2, kind: .fact, title: "Still written")) }
  }

  struct ChangedCase: Sendable, CustomTestStringConvertible {
    var statement: String
    var table: String
    var missingColumns: [String]
    var unexpectedColumns: [String]
    var alteredColumns: [String]
    var recreatedByReindex: Bool
    /// The table dolphin did not create with exactly the columns the step gives this one.
    var renamedAs: String? = nil
    /// What is missing beside it: dolphin's indexes of a table renamed aside went along with it
    /// (review 26-b, 6).
    var missing: [String] = []
    var testDescription: String { statement }
  }

  @Test(
    "a table replaced or altered to other columns is named with the columns it lacks, has, or declares otherwise",
    arguments: [
      ChangedCase(
        statement: "ALTER TABLE knowledge RENAME TO k_old; CREATE TABLE knowledge(id TEXT)", table: "knowledge",
        missingColumns: [
          "rowid INTEGER PRIMARY KEY", "kind TEXT NOT NULL", "title TEXT NOT NULL", "content TEXT NOT NULL",
          "source TEXT NOT NULL", "tags TEXT NOT NULL", "priority TEXT NOT NULL", "created_at TEXT NOT NULL",
          "updated_at TEXT NOT NULL", "revision INTEGER NOT NULL", "memory_id TEXT",
        ],
        unexpectedColumns: [], alteredColumns: ["id TEXT → id TEXT NOT NULL"], recreatedByReindex: false,
        renamedAs: "k_old",
        missing: ["index knowledge_updated", "index knowledge_header", "index knowledge_memory_mirror"]),
      ChangedCase(
        statement: "ALTER TABLE task ADD COLUMN x TEXT NOT NULL DEFAULT ''", table: "task", missingColumns: [],
        unexpectedColumns: ["x TEXT NOT NULL"], alteredColumns: [], recreatedByReindex: false),
      ChangedCase(
        statement: "ALTER TABLE legacy_import DROP COLUMN backup_path", table: "legacy_import",
        missingColumns: ["backup_path TEXT NOT NULL"], unexpectedColumns: [], alteredColumns: [],
        recreatedByReindex: false),
      ChangedCase(
        statement: "ALTER TABLE task RENAME COLUMN notes TO details", table: "task",
        missingColumns: ["notes TEXT NOT NULL"], unexpectedColumns: ["details TEXT NOT NULL"], alteredColumns: [],
        recreatedByReindex: false),
      ChangedCase(
        statement: "DROP TABLE lexical_trigram; CREATE TABLE lexical_trigram(trigram TEXT PRIMARY KEY, term_id BLOB)",
        table: "lexical_trigram", missingColumns: [], unexpectedColumns: [],
        alteredColumns: [
          "trigram TEXT PRIMARY KEY → trigram TEXT NOT NULL PRIMARY KEY",
          "term_id BLOB → term_id INTEGER NOT NULL PRIMARY KEY (its column 2)",
        ],
        recreatedByReindex: true),
    ])
  func changedColumns(_ c: ChangedCase) throws {
    let dir = TemporaryDirectory("schema-changed")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in try tx.db.execute(c.statement) }
    let difference = try #require(try store.read { tx in try tx.schemaDifference() })
    #expect(difference.missing.map(\.object.description) == c.missing, "\(difference.missing)")
    #expect(difference.missing.allSatisfy { $0.nameHeldBy?.table == c.renamedAs && !$0.recreatedByReindex })
    #expect(difference.changed.count == 1)
    let changed = try #require(difference.changed.first)
    #expect(changed.table == c.table)
    #expect(changed.step == "0001-schema-v5-records" || changed.step == "0002-lexical-index")
    #expect(changed.missingColumns.map(\.description) == c.missingColumns)
    #expect(changed.unexpectedColumns.map(\.description) == c.unexpectedColumns)
    #expect(changed.alteredColumns.map { "\($0.actual) → \($0.expected)" } == c.alteredColumns)
    #expect(changed.recreatedByReindex == c.recreatedByReindex)
    #expect(changed.renamedAs == c.renamedAs)
    #expect(changed.sql.hasPrefix("CREATE TABLE \(c.table) ("), "\(changed.sql)")
    #expect(difference.hasProblems)
    #expect(difference.problems.dropFirst(c.missing.count).first == changed.description)
    #expect(changed.description.hasPrefix("table \(c.table) has other columns than schema step 0"), "\(changed.description)")
  }

  @Test("the same columns in another order, or with types in other letter case, are the table dolphin made")
  func sameColumnsOtherwiseWritten() throws {
    let dir = TemporaryDirectory("schema-same-columns")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in
      try tx.db.execute(
        """
        CREATE TABLE legacy_import_new (imported_at text not null, sha256 Text Primary Key Not Null,
          file_name TEXT NOT NULL, backup_path  TEXT NOT NULL, source_version integer NOT NULL);
        DROP TABLE legacy_import; ALTER TABLE legacy_import_new RENAME TO legacy_import;
        """)
    }
    #expect(try store.read { tx in try tx.schemaDifference() } == SchemaDifference())
  }

  @Test("the column a pending step adds is not foreign; without the step and the column, task is as made")
  func pendingStepColumn() throws {
    let dir = TemporaryDirectory("schema-pending-column")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { (tx) throws -> Void in
      try tx.db.run("DELETE FROM schema_migration WHERE name = '\(TaskUpdatedAtStep.name)'")
      // The column there, the step not recorded: the step keeps it when it runs.
      #expect(try tx.schemaDifference() == SchemaDifference())
      try tx.db.execute("ALTER TABLE task DROP COLUMN updated_at")
      #expect(try tx.schemaDifference() == SchemaDifference())
      // With the step recorded, the column it adds is expected.
      try tx.db.run("INSERT INTO schema_migration(name, applied_at) VALUES ('\(TaskUpdatedAtStep.name)', '2026-01-01')")
      let difference = try #require(try tx.schemaDifference())
      #expect(difference.changed.map(\.table) == ["task"])
      #expect(difference.changed.first?.missingColumns.map(\.name) == ["updated_at"])
      // Named with the step that creates the table.
      #expect(difference.changed.first?.step == "0001-schema-v5-records")
    }
  }

  @Test("a write that needs a dropped table fails naming the table and pointing to dolphin doctor")
  func noSuchTableError() throws {
    let dir = TemporaryDirectory("schema-error")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in try tx.db.execute("DROP TABLE digest_evidence") }
    let error = #expect(throws: WorkspaceError.self) {
      var another = Self.citingDigest
      another.id = sequentialID(201)
      try store.write { tx in try tx.insertDigest(another) }
    }
    #expect(error?.description.contains("lacks a table that dolphin's schema creates") == true, "\(String(describing: error))")
    #expect(error?.description.contains("`dolphin doctor`") == true)
    #expect(error?.description.contains("no such table: digest_evidence") == true)
  }

  @Test("an older workspace is compared with the steps it applied, and a newer one is not judged")
  func appliedSteps() throws {
    let dir = TemporaryDirectory("schema-applied")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { (tx) throws -> Void in
      // As the build before step 0008 left it: its indexes not there, the step not recorded.
      try tx.db.execute(
        "DROP INDEX digest_created; DROP INDEX message_created; DROP INDEX receipt_started; DROP INDEX checkpoint_created")
      try tx.db.run("DELETE FROM schema_migration WHERE name = '0008-activity-date-indexes'")
      #expect(try tx.schemaDifference() == SchemaDifference(missing: [], unexpected: []))
      try tx.db.run("INSERT INTO schema_migration(name, applied_at) VALUES ('0099-from-a-newer-build', '2027-01-01')")
      #expect(try tx.schemaDifference() == nil)
    }
  }

  @Test("recreating the derived tables: empty search index tables, the evidence of every stored digest; records untouched")
  func recreate() throws {
    let dir = TemporaryDirectory("schema-recreate")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    let evidence = "SELECT evidence_id || ' ' || digest_id FROM digest_evidence ORDER BY 1"
    let before = try store.read { tx in (try tx.snapshot(), try tx.db.all(evidence) { $0.text(0) }) }
    #expect(before.1 == ["\(sequentialID(1).uuidString) \(sequentialID(200).uuidString)"])
    try store.write { tx in
      try tx.db.execute("DROP TABLE lexical_stats; DROP TABLE digest_evidence; DROP INDEX knowledge_updated")
    }
    let recreated = try store.write { tx in try tx.recreateDerivedSchemaObjects() }
    #expect(recreated.map(\.description) == ["index knowledge_updated", "table digest_evidence", "table lexical_stats"])
    try store.read { (tx) throws -> Void in
      #expect(try tx.schemaDifference() == SchemaDifference(missing: [], unexpected: []))
      #expect(try tx.db.all(evidence) { $0.text(0) } == before.1)
      #expect(try tx.db.integer("SELECT count(*) FROM lexical_stats WHERE id = 1") == 1)
      #expect(try tx.snapshot() == before.0)
    }
    // Nothing else missing: nothing to do.
    #expect(try store.write { tx in try tx.recreateDerivedSchemaObjects() }.isEmpty)
  }

  @Test("recreating a derived table with other columns: dropped and made as the step makes it, with its index and rows")
  func recreateChanged() throws {
    let dir = TemporaryDirectory("schema-recreate-changed")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    let evidence = "SELECT evidence_id || ' ' || digest_id FROM digest_evidence ORDER BY 1"
    let before = try store.read { tx in (try tx.snapshot(), try tx.db.all(evidence) { $0.text(0) }) }
    try store.write { tx in
      try tx.db.execute(
        """
        ALTER TABLE digest_evidence ADD COLUMN note TEXT;
        ALTER TABLE knowledge_tag RENAME TO knowledge_tag_old; DROP TABLE knowledge_tag_old;
        CREATE TABLE knowledge_tag (tag TEXT);
        """)
    }
    let changed = try #require(try store.read { tx in try tx.schemaDifference() })
    #expect(changed.changed.map(\.table) == ["knowledge_tag", "digest_evidence"])
    #expect(changed.missing.map(\.object.description) == ["index knowledge_tag_rowid"])
    let recreated = try store.write { tx in try tx.recreateDerivedSchemaObjects() }
    #expect(
      recreated.map(\.description) == ["table knowledge_tag", "table digest_evidence", "index knowledge_tag_rowid"])
    try store.read { (tx) throws -> Void in
      #expect(try tx.schemaDifference() == SchemaDifference())
      #expect(try tx.db.all(evidence) { $0.text(0) } == before.1)
      #expect(try tx.snapshot() == before.0)
    }
  }
}
