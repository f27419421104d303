import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 26-b, 6–9: the schema comparison matched dolphin's indexes by name only (an index left on
/// a table renamed away counted as present), named no table a missing one was renamed to, called
/// an index or trigger on a user's own table a problem, took every `lexical_*` table for the
/// search index's (a user's `lexical_notes` was emptied by `erase --kind all`), and did not see
/// that a view named like a missing table blocks every fix.
@Suite("Schema names: index placement, renamed tables, names held, the search index's tables", .serialized)
struct SchemaNamesTests {
  static func workspace(_ dir: TemporaryDirectory) throws -> SQLiteWorkspaceStore {
    try SchemaDifferenceTests.workspace(dir)
  }

  static func difference(_ store: SQLiteWorkspaceStore) throws -> SchemaDifference {
    try #require(try store.read { tx in try tx.schemaDifference() })
  }

  static func tableOf(_ index: String, _ store: SQLiteWorkspaceStore) throws -> String? {
    try store.read { tx in try tx.db.first("SELECT tbl_name FROM sqlite_master WHERE name = ?", [.text(index)]) { $0.text(0) } }
  }

  @Test("definitions compare by their tokens: quoting, letter case, white space and comments aside")
  func definitionTokens() {
    let made = WorkspaceSchema.definitionTokens("CREATE INDEX knowledge_updated ON knowledge(updated_at)")
    // What `ALTER TABLE … RENAME` leaves in sqlite_master after renaming away and back.
    #expect(WorkspaceSchema.definitionTokens(#"CREATE INDEX knowledge_updated ON "knowledge"(updated_at)"#) == made)
    #expect(
      WorkspaceSchema.definitionTokens("create index [Knowledge_Updated] on `knowledge` ( updated_at ) -- why\n")
        == made)
    #expect(WorkspaceSchema.definitionTokens("CREATE INDEX knowledge_updated /* x */ ON knowledge(updated_at)") == made)
    #expect(WorkspaceSchema.definitionTokens(#"CREATE INDEX knowledge_updated ON "knowledge_old"(updated_at)"#) != made)
    #expect(WorkspaceSchema.definitionTokens("CREATE INDEX knowledge_updated ON knowledge(title)") != made)
    #expect(WorkspaceSchema.definitionTokens("CREATE UNIQUE INDEX knowledge_updated ON knowledge(updated_at)") != made)
    // A partial index's condition counts, its string literals as written.
    let partial = "CREATE INDEX m ON knowledge(memory_id) WHERE memory_id IS NOT NULL"
    #expect(WorkspaceSchema.definitionTokens(partial) != WorkspaceSchema.definitionTokens("CREATE INDEX m ON knowledge(memory_id)"))
    #expect(
      WorkspaceSchema.definitionTokens("CREATE INDEX m ON knowledge(kind) WHERE kind = 'Fact'")
        != WorkspaceSchema.definitionTokens("CREATE INDEX m ON knowledge(kind) WHERE kind = 'fact'"))
    #expect(
      WorkspaceSchema.definitionTokens(#"CREATE INDEX "a""b" ON t(x)"#) == ["create", "index", #"a"b"#, "on", "t", "(", "x", ")"])
  }

  @Test("an index left on a table renamed away is missing from the table dolphin made; recreating drops it and makes it there")
  func indexOnRenamedTable() throws {
    let dir = TemporaryDirectory("schema-names-renamed-index")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    let before = try store.read { tx in try tx.snapshot() }
    try store.write { (tx) throws -> Void in
      let sql = try #require(try tx.db.first("SELECT sql FROM sqlite_master WHERE name = 'knowledge'") { $0.text(0) })
      try tx.db.execute("ALTER TABLE knowledge RENAME TO knowledge_old; \(sql); INSERT INTO knowledge SELECT * FROM knowledge_old")
    }
    let difference = try Self.difference(store)
    #expect(
      difference.missing.map(\.object.description) == [
        "index knowledge_updated", "index knowledge_header", "index knowledge_memory_mirror",
      ])
    #expect(difference.missing.allSatisfy { $0.isMisplacedIndex && $0.recreatedByReindex && $0.table == "knowledge" })
    #expect(difference.missing.map { $0.nameHeldBy?.table } == ["knowledge_old", "knowledge_old", "knowledge_old"])
    #expect(difference.missing.first?.nameHeldBy?.freeingStatement == #"DROP INDEX "knowledge_updated""#)
    #expect(
      difference.problems.first
        == "index knowledge_updated is missing from table knowledge (schema step 0001-schema-v5-records creates it; "
        + "the index of that name is on table knowledge_old instead, as renaming a table takes its indexes along; "
        + "nothing stored is lost; `dolphin reindex` recreates it, dropping that one)")
    #expect(difference.hasProblems && difference.changed.isEmpty)
    #expect(difference.unexpected.map(\.description) == [
      "table knowledge_old was not created by dolphin; dolphin neither reads nor writes it, and `dolphin export` "
        + "does not carry it (not a problem)"
    ])

    let recreated = try store.write { tx in try tx.recreateDerivedSchemaObjects() }
    #expect(recreated.map(\.description) == ["index knowledge_updated", "index knowledge_header", "index knowledge_memory_mirror"])
    #expect(try Self.tableOf("knowledge_header", store) == "knowledge")
    let after = try Self.difference(store)
    #expect(after.missing.isEmpty && !after.hasProblems, "\(after)")
    #expect(try store.read { tx in try tx.snapshot() } == before)
  }

  @Test("an index of dolphin's name defined otherwise is missing; the same index spelled otherwise is dolphin's")
  func indexDefinedOtherwise() throws {
    let dir = TemporaryDirectory("schema-names-redefined-index")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in
      try tx.db.execute(#"DROP INDEX knowledge_updated; create index "knowledge_updated" on [knowledge] ( updated_at )"#)
    }
    #expect(try Self.difference(store) == SchemaDifference())
    try store.write { tx in try tx.db.execute("DROP INDEX knowledge_updated; CREATE INDEX knowledge_updated ON knowledge(title)") }
    let difference = try Self.difference(store)
    #expect(difference.missing.map(\.object.description) == ["index knowledge_updated"])
    #expect(difference.missing.first?.isMisplacedIndex == true)
    #expect(difference.problems.first?.contains("the index of that name there is defined otherwise") == true)
    #expect(try store.write { tx in try tx.recreateDerivedSchemaObjects() }.map(\.description) == ["index knowledge_updated"])
    #expect(try Self.difference(store) == SchemaDifference())
  }

  @Test("a missing table of records is named with the table renamed from it, preferring the one holding its indexes")
  func renamedAway() throws {
    let dir = TemporaryDirectory("schema-names-renamed")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { (tx) throws -> Void in
      let sql = try #require(try tx.db.first("SELECT sql FROM sqlite_master WHERE name = 'knowledge'") { $0.text(0) })
      // An empty copy with the same columns, first by name; the renamed table holds the indexes.
      try tx.db.execute(
        "ALTER TABLE knowledge RENAME TO zz_knowledge_old; "
          + sql.replacingOccurrences(of: "CREATE TABLE knowledge", with: "CREATE TABLE aa_copy"))
    }
    let difference = try Self.difference(store)
    let table = try #require(difference.missing.first)
    #expect(table.object.description == "table knowledge" && !table.recreatedByReindex)
    #expect(table.renamedAs == "zz_knowledge_old")
    #expect(
      table.description
        == "table knowledge is missing (schema step 0001-schema-v5-records creates it; tables zz_knowledge_old (1 row, "
        + "with dolphin's indexes on it), aa_copy (0 rows) all have exactly its columns; zz_knowledge_old is most likely "
        + "it, as dolphin's indexes went along with it; the others are left as they are (look at them before removing "
        + "anything); table zz_knowledge_old, which dolphin did not create, has exactly its columns: most likely it is "
        + "this table renamed, with the 1 record it held and dolphin's indexes on it)")
    // Review 27-b, 1: every candidate, with what it holds.
    #expect(table.renamedCandidates.map(\.table) == ["zz_knowledge_old", "aa_copy"])
    #expect(table.renamedCandidates.map(\.rows) == [1, 0])
    // Its indexes went along, and come back with it.
    #expect(difference.missing.dropFirst().allSatisfy { $0.nameHeldBy?.table == "zz_knowledge_old" && !$0.recreatedByReindex })
    try store.write { tx in try tx.db.execute(#"ALTER TABLE "zz_knowledge_old" RENAME TO "knowledge""#) }
    let after = try Self.difference(store)
    #expect(after.missing.isEmpty && !after.hasProblems, "\(after)")

    // Dropped, not renamed: no table has its columns, and the description says so.
    try store.write { tx in try tx.db.execute("DROP TABLE legacy_import") }
    let dropped = try #require(try Self.difference(store).missing.first)
    #expect(dropped.renamedAs == nil)
    #expect(dropped.description.hasSuffix("no table has exactly its columns, as one renamed from it would: the records it held are not in the database unless copied elsewhere)"))
  }

  @Test("a table replaced by one of other columns is named with the table it replaced, renamed aside")
  func replacedRenamedAside() throws {
    let dir = TemporaryDirectory("schema-names-replaced")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in try tx.db.execute("ALTER TABLE task RENAME TO task_before; CREATE TABLE task(id TEXT)") }
    let difference = try Self.difference(store)
    #expect(difference.changed.map(\.table) == ["task"])
    #expect(difference.changed.first?.renamedAs == "task_before")
    #expect(difference.changed.first?.description.hasSuffix(
      "; table task_before, which dolphin did not create, has exactly the columns dolphin gives it: most likely the "
        + "table it replaced, renamed aside, with the 1 record it held)") == true, "\(difference.changed)")
    // A column added is no replacement: nothing renamed aside to look for.
    try store.write { tx in
      try tx.db.execute("DROP TABLE task; ALTER TABLE task_before RENAME TO task; ALTER TABLE task ADD COLUMN x TEXT")
    }
    #expect(try Self.difference(store).changed.map(\.renamedAs) == [nil])
  }

  @Test("indexes and triggers on a user's own table are notes; on dolphin's tables they stay problems")
  func userTableIndexesAreNotes() throws {
    let dir = TemporaryDirectory("schema-names-user-index")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in
      try tx.db.execute(
        """
        CREATE TABLE my_notes (x TEXT, y TEXT);
        CREATE INDEX my_notes_x ON my_notes(x);
        CREATE TRIGGER my_notes_seen AFTER INSERT ON my_notes BEGIN UPDATE my_notes SET y = 'seen' WHERE rowid = new.rowid; END;
        INSERT INTO my_notes(x) VALUES ('mine');
        """)
    }
    let notes = try Self.difference(store)
    #expect(!notes.hasProblems && notes.problems.isEmpty)
    #expect(notes.unexpected.map { "\($0.object) \($0.isProblem)" } == [
      "table my_notes false", "trigger my_notes_seen false", "index my_notes_x false",
    ])
    #expect(
      notes.notes.contains(
        "index my_notes_x on my_notes was not created by dolphin; it is on a table dolphin did not create, which dolphin "
          + "neither reads nor writes (not a problem)"))
    try store.write { tx in
      try tx.db.execute(
        """
        CREATE INDEX task_title ON task(title);
        CREATE TRIGGER task_seen AFTER INSERT ON task BEGIN SELECT 1; END;
        """)
    }
    let problems = try Self.difference(store)
    #expect(problems.unexpected.filter(\.isProblem).map(\.object.name) == ["task_seen", "task_title"])
  }

  @Test("a view named like a missing table holds its name: a problem, with the statement that frees it")
  func viewHoldsTableName() throws {
    let dir = TemporaryDirectory("schema-names-view")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { tx in
      try tx.db.execute(
        """
        DROP TABLE memory; CREATE VIEW memory AS SELECT id, title FROM knowledge;
        CREATE TRIGGER memory_insert INSTEAD OF INSERT ON memory BEGIN SELECT 1; END;
        DROP INDEX knowledge_updated; CREATE TABLE knowledge_updated (kept TEXT); INSERT INTO knowledge_updated VALUES ('mine');
        """)
    }
    let difference = try Self.difference(store)
    let memory = try #require(difference.missing.first { $0.object.name == "memory" })
    #expect(memory.isNameHeldByForeignObject && memory.renamedAs == nil)
    #expect(memory.nameHeldBy?.freeingStatement == #"DROP VIEW "memory""#)
    #expect(memory.description.contains("view memory, which dolphin did not create, holds its name"))
    // A table holding an index's name is renamed aside, never dropped: its rows stay.
    let index = try #require(difference.missing.first { $0.object.name == "knowledge_updated" })
    #expect(index.nameHeldBy?.freeingStatement == #"ALTER TABLE "knowledge_updated" RENAME TO "knowledge_updated_renamed""#)
    let view = try #require(difference.unexpected.first { $0.object.type == "view" })
    #expect(view.isProblem && view.holdsNameOf == SchemaObject(type: "table", name: "memory"))
    #expect(
      view.description
        == "view memory was not created by dolphin and holds the name of dolphin's table memory, which is missing: "
        + "dolphin's commands that use table memory reach it instead, and fail")
    // The trigger on it runs on dolphin's writes to `memory`: a problem.
    #expect(difference.unexpected.first { $0.object.type == "trigger" }?.isProblem == true)

    // Reindex leaves the user's objects alone: creating the index fails on the table holding its name.
    #expect(throws: WorkspaceError.self) { try store.write { tx in try tx.recreateDerivedSchemaObjects() } }
    try store.write { tx in
      try tx.db.execute(
        [memory.nameHeldBy?.freeingStatement, index.nameHeldBy?.freeingStatement].compactMap { $0 }.joined(separator: "; ")
          + "; " + memory.sql)
    }
    #expect(try store.write { tx in try tx.recreateDerivedSchemaObjects() }.map(\.description) == ["index knowledge_updated"])
    let after = try Self.difference(store)
    #expect(!after.hasProblems, "\(after.problems)")
    #expect(try store.read { tx in try tx.db.first("SELECT kept FROM knowledge_updated_renamed") { $0.text(0) } } == "mine")
  }

  @Test("the search index's tables are an explicit list, the one the schema steps create; a user's lexical_notes is not one")
  func lexicalTablesByName() throws {
    let created = WorkspaceSchema.expectedObjects(applied: Set(WorkspaceSchema.steps.map(\.name)))
      .filter { $0.object.type == "table" && $0.object.name.hasPrefix("lexical_") }.map(\.object.name)
    #expect(Set(WorkspaceSchema.lexicalTables) == Set(created))
    #expect(!WorkspaceSchema.isDerivedTable("lexical_notes") && WorkspaceSchema.isDerivedTable("lexical_term"))

    let dir = TemporaryDirectory("schema-names-lexical")
    defer { dir.remove() }
    let store = try Self.workspace(dir)
    try store.write { (tx) throws -> Void in
      try tx.db.execute("CREATE TABLE lexical_notes (note TEXT); INSERT INTO lexical_notes VALUES ('mine, keep me')")
      #expect(try !tx.lexicalTables().contains("lexical_notes"))
      #expect(Set(try tx.lexicalTables()) == Set(created))
      try tx.clearLexicalIndex()
      #expect(try tx.db.first("SELECT note FROM lexical_notes") { $0.text(0) } == "mine, keep me")
    }
  }
}
