import Foundation

/// How a workspace database's schema objects (`sqlite_master`) differ from those its applied
/// schema steps create (``WorkspaceSchema/expectedObjects(applied:)``), by name (and, for an
/// index, by its table and definition), and how the columns of each table it holds differ from
/// those the steps give it.
///
/// SQLite's integrity check passes on a database whose table was dropped or replaced by one
/// with other columns (it is not damage to SQLite), yet every dolphin command that needs the
/// table, or the column, fails; a trigger another program added runs inside dolphin's writes and
/// may refuse them. Tables and views another program added are noted, not problems: dolphin
/// neither reads nor writes them.
public struct SchemaDifference: Sendable, Equatable, Codable {
  /// An object the database holds under the name of a missing one the schema steps create
  /// (SQLite keeps one name space for tables, views and indexes, without regard to ASCII case):
  /// while it is there, the missing one cannot be created.
  public struct NameHolder: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The object holding the name: dolphin's own index of that name on another table (`ALTER
    /// TABLE … RENAME` takes a table's indexes along) or defined otherwise, or an object dolphin
    /// did not create (a view named like a table, …).
    public var object: SchemaObject
    /// The table it is on (`sqlite_master.tbl_name`): its own name for a table or a view.
    public var table: String
    /// The statement that frees the name and loses nothing stored: `DROP INDEX` or `DROP VIEW`
    /// (neither holds rows of its own), or for a table `ALTER TABLE … RENAME TO` a name nothing
    /// holds, which keeps its rows. Identifiers quoted (``ShellWord/sqlIdentifier(_:)``).
    public var freeingStatement: String
    /// Whether it is an index of the missing one's name that dolphin did not create: on a table
    /// dolphin did not create that is no renamed copy of the index's table (a user's own index,
    /// perhaps UNIQUE, on the user's own table). Doctor and `dolphin reindex` leave it alone
    /// like any other object holding the name; its ``freeingStatement`` makes it again under
    /// another name (review 27-b, 4).
    public var isForeignIndex: Bool

    /// `object`, on `table`, freed by `freeingStatement`.
    public init(object: SchemaObject, table: String, freeingStatement: String, isForeignIndex: Bool = false) {
      self.object = object
      self.table = table
      self.freeingStatement = freeingStatement
      self.isForeignIndex = isForeignIndex
    }

    /// E.g. `index knowledge_updated on table knowledge_old`, `view memory`.
    public var description: String { object.type == "index" ? "\(object) on table \(table)" : object.description }
  }

  /// A table dolphin did not create whose columns are exactly those a schema step gives one of
  /// dolphin's tables of records: what `ALTER TABLE knowledge RENAME TO knowledge_old` leaves, or
  /// a copy made with the same statement. When several match, doctor names every one with what
  /// it holds, since renaming back an empty one would leave the records in another (review 27-b, 1).
  public struct RenameCandidate: Sendable, Equatable, Codable {
    /// The table's name.
    public var table: String
    /// How many rows it holds (`count(*)`).
    public var rows: Int
    /// Dolphin's indexes of the missing or replaced table that are on this one (`ALTER TABLE …
    /// RENAME` takes a table's indexes along), by name; empty when none is.
    public var dolphinIndexes: [String]

    /// Table `table`, holding `rows` rows and `dolphinIndexes`.
    public init(table: String, rows: Int, dolphinIndexes: [String] = []) {
      self.table = table
      self.rows = rows
      self.dolphinIndexes = dolphinIndexes
    }

    /// What it holds, true of this table only: e.g. `with the 3 records it held and dolphin's
    /// indexes on it`, `though it holds no records and none of dolphin's indexes`.
    public var holding: String {
      let records = rows == 1 ? "the 1 record it held" : "the \(rows) records it held"
      switch (rows > 0, !dolphinIndexes.isEmpty) {
      case (true, true): return "with \(records) and dolphin's indexes on it"
      case (true, false): return "with \(records)"
      case (false, true): return "with dolphin's indexes on it, though it holds no records"
      case (false, false): return "though it holds no records and none of dolphin's indexes"
      }
    }

    /// E.g. `k_real (3 rows, with dolphin's indexes on it)`, `a_empty (0 rows)`.
    public var summary: String {
      "\(table) (\(rows) row\(rows == 1 ? "" : "s")" + (dolphinIndexes.isEmpty ? "" : ", with dolphin's indexes on it") + ")"
    }

    /// Candidates best first: those holding dolphin's indexes (more first), then those holding
    /// more rows, then by name.
    package static func ranked(_ candidates: [RenameCandidate]) -> [RenameCandidate] {
      candidates.sorted {
        ($0.dolphinIndexes.count, $0.rows) != ($1.dolphinIndexes.count, $1.rows)
          ? ($0.dolphinIndexes.count, $0.rows) > ($1.dolphinIndexes.count, $1.rows)
          : $0.table.lowercased() < $1.table.lowercased()
      }
    }

    /// For several `candidates` (best first, as ``ranked(_:)`` orders them), why the first is
    /// taken and what the others hold, for doctor's report; empty for one.
    public static func choice(_ candidates: [RenameCandidate]) -> String {
      guard let first = candidates.first, candidates.count > 1 else { return "" }
      let second = candidates[1]
      let tie = (first.dolphinIndexes.count, first.rows) == (second.dolphinIndexes.count, second.rows)
      let why =
        tie
        ? "the database cannot tell which of them it is (they hold as many rows"
          + (first.dolphinIndexes.isEmpty ? "" : " and indexes") + "): \(first.table) is taken as the first by name; if "
          + "another holds the records you want, rename that one back instead"
        : first.dolphinIndexes.count > second.dolphinIndexes.count
          ? "\(first.table) is most likely it, as dolphin's indexes went along with it"
          : "\(first.table) is most likely it, as it holds the most rows"
      return "tables " + candidates.map(\.summary).joined(separator: ", ") + " all have exactly its columns; " + why
        + "; the others are left as they are (look at them before removing anything)"
    }
  }

  /// A table or index (or any object) the applied steps create that the database lacks, with
  /// the step that creates it.
  public struct Missing: Sendable, Equatable, Codable, CustomStringConvertible {
    public var object: SchemaObject
    /// The schema step that creates it (`schema_migration` itself has none: empty).
    public var step: String
    /// Whether `dolphin reindex` recreates it: a table whose rows it rebuilds from the stored
    /// records (the search index, the tag filter, the digests' evidence index:
    /// ``WorkspaceSchema/isDerivedTable(_:)``), or an index, on a table that exists with the
    /// columns its step gives it or that it recreates. Nothing stored is lost with it. Dolphin's
    /// own index of the name elsewhere (``isMisplacedIndex``) is dropped first; an object dolphin
    /// did not create holding the name (``nameHeldBy``) must be removed first, by hand: `dolphin
    /// reindex` leaves it alone and fails while it is there.
    public var recreatedByReindex: Bool
    /// The statement that creates it, as the step does, on one line (white space runs
    /// collapsed): what recreates it empty.
    public var sql: String
    /// The table it belongs to, as the step creates it: its own name for a table, the table an
    /// index is on.
    public var table: String
    /// What holds its name, when something does (nil otherwise): dolphin's own index of that
    /// name on another table or defined otherwise (review 26-b, 6), or an object dolphin did not
    /// create, such as a view named like the table (review 26-b, 9), which must go first
    /// (``NameHolder/freeingStatement``).
    public var nameHeldBy: NameHolder?
    /// For a missing table of records: a table dolphin did not create whose columns are exactly
    /// those the step gives this one — what `ALTER TABLE knowledge RENAME TO knowledge_old`
    /// leaves —, one holding this table's indexes first, then the first by name. Renaming it
    /// back restores the table with its rows and indexes (review 26-b, 7). Nil when no table has
    /// them. When several have them, the first of ``renamedCandidates``.
    public var renamedAs: String?
    /// Every table that has exactly this one's columns, best first (``RenameCandidate/ranked(_:)``:
    /// holding dolphin's indexes of it, then the most rows), with what each holds; empty when
    /// none does (review 27-b, 1).
    public var renamedCandidates: [RenameCandidate]

    /// The first of `renamedCandidates`, with what it holds.
    public var renamedCandidate: RenameCandidate? { renamedCandidates.first }

    /// A missing object, as ``WorkspaceTransaction/schemaDifference()`` finds it.
    public init(
      object: SchemaObject, step: String, recreatedByReindex: Bool, sql: String, table: String,
      nameHeldBy: NameHolder? = nil, renamedAs: String? = nil, renamedCandidates: [RenameCandidate] = []
    ) {
      self.object = object
      self.step = step
      self.recreatedByReindex = recreatedByReindex
      self.sql = sql
      self.table = table
      self.nameHeldBy = nameHeldBy
      self.renamedAs = renamedAs ?? renamedCandidates.first?.table
      self.renamedCandidates = renamedCandidates
    }

    /// Whether dolphin's own index of this name holds it: on another table, or defined otherwise.
    public var isMisplacedIndex: Bool {
      nameHeldBy.map {
        !$0.isForeignIndex && $0.object.type == object.type && $0.object.name.lowercased() == object.name.lowercased()
      } ?? false
    }

    /// Whether an object dolphin did not create holds this one's name.
    public var isNameHeldByForeignObject: Bool { nameHeldBy != nil && !isMisplacedIndex }

    /// E.g. `table lexical_trigram is missing (schema step 0002-lexical-index creates it; …)`.
    public var description: String {
      var parts = [step.isEmpty ? "dolphin creates it first" : "schema step \(step) creates it"]
      if let holder = nameHeldBy {
        if isMisplacedIndex {
          parts.append(
            holder.table.lowercased() == table.lowercased()
              ? "the index of that name there is defined otherwise"
              : "the index of that name is on table \(holder.table) instead, as renaming a table takes its indexes along")
        } else {
          parts.append("\(holder), which dolphin did not create, holds its name")
        }
      }
      if object.type == "table" && !recreatedByReindex {
        let choice = RenameCandidate.choice(renamedCandidates)
        parts.append(
          renamedAs.map { name in
            (choice.isEmpty ? "" : choice + "; ")
              + "table \(name), which dolphin did not create, has exactly its columns: most likely it is this table "
              + "renamed" + (renamedCandidate.map { $0.table == name ? ", " + $0.holding : "" } ?? "")
          }
            ?? "no table has exactly its columns, as one renamed from it would: the records it held are not in the "
            + "database unless copied elsewhere")
      } else if object.type == "table" {
        parts.append(
          "its rows are derived from the stored records; `\(command: "dolphin reindex")` recreates it"
            + (isNameHeldByForeignObject ? " once that is gone" : ""))
      } else if recreatedByReindex {
        parts.append(
          "nothing stored is lost; `\(command: "dolphin reindex")` recreates it"
            + (isMisplacedIndex ? ", dropping that one" : isNameHeldByForeignObject ? " once that is gone" : ""))
      } else {
        parts.append("nothing stored is lost with it; it can be made again once table \(table) is as the schema steps make it")
      }
      return "\(object) is missing" + (isMisplacedIndex ? " from table \(table)" : "") + " (" + parts.joined(separator: "; ") + ")"
    }
  }

  /// A table the database holds whose columns differ from those the applied steps give it:
  /// replaced outside dolphin by a table of the same name (`ALTER TABLE … RENAME`, then `CREATE
  /// TABLE`), or changed by `ALTER TABLE … ADD COLUMN` or `DROP COLUMN`. Columns are compared by
  /// name (without regard to ASCII case), declared type, `NOT NULL` and position in the primary
  /// key; their order does not matter (dolphin names every column it reads or writes).
  public struct Changed: Sendable, Equatable, Codable, CustomStringConvertible {
    /// A column both declare, declared differently.
    public struct Altered: Sendable, Equatable, Codable {
      /// The column as the schema step creates it.
      public var expected: SchemaColumn
      /// The column as the database holds it.
      public var actual: SchemaColumn

      /// The column as `expected` and as the database holds it (`actual`).
      public init(expected: SchemaColumn, actual: SchemaColumn) {
        self.expected = expected
        self.actual = actual
      }
    }

    /// The table's name.
    public var table: String
    /// The schema step that creates it (empty for `schema_migration`, which dolphin creates
    /// before its first step).
    public var step: String
    /// The columns the step creates that the table lacks: every dolphin command reading or
    /// writing them fails ("no such column").
    public var missingColumns: [SchemaColumn]
    /// The columns the table has that dolphin did not create: dolphin neither reads nor exports
    /// them, and one `NOT NULL` without a default refuses dolphin's inserts.
    public var unexpectedColumns: [SchemaColumn]
    /// The columns both have, declared otherwise than the step declares them.
    public var alteredColumns: [Altered]
    /// Whether `dolphin reindex` drops the table and recreates it as the step does: a table whose
    /// rows it rebuilds from the stored records (``WorkspaceSchema/isDerivedTable(_:)``).
    /// Nothing stored is lost with it.
    public var recreatedByReindex: Bool
    /// The statement that creates the table as the step does, on one line (white space runs
    /// collapsed).
    public var sql: String
    /// For a table of records that lacks a column or declares one otherwise: a table dolphin
    /// did not create whose columns are exactly those the step gives this one — most likely
    /// the table this one replaced, renamed aside (`ALTER TABLE knowledge RENAME TO k_old;
    /// CREATE TABLE knowledge(…)`) —, one holding this table's indexes first, then the first by
    /// name (review 26-b, 7). Nil when no table has them. When several have them, the first of
    /// ``renamedCandidates``.
    public var renamedAs: String?
    /// Every table that has exactly the columns dolphin gives this one, best first
    /// (``RenameCandidate/ranked(_:)``), with what each holds; empty when none does (review
    /// 27-b, 1).
    public var renamedCandidates: [RenameCandidate] = []
    /// For a table of records that lacks columns and declares none otherwise: the `ALTER TABLE
    /// … ADD COLUMN` statements that add each back as the schema step declares it, with a default
    /// every existing row takes (only that column's values are lost), when SQLite allows all of
    /// them (no column of the primary key or under a UNIQUE constraint); empty otherwise (review
    /// 27-b, 5). Identifiers quoted.
    public var addColumnStatements: [String] = []
    /// For a table with columns dolphin did not create: the indexes dolphin did not create on it
    /// that use one of those columns (by their definition). SQLite refuses to drop the column
    /// while such an index is there, so doctor's advice drops them first (review 27-b, 9).
    public var indexesOnUnexpectedColumns: [String] = []

    /// The first of `renamedCandidates`, with what it holds.
    public var renamedCandidate: RenameCandidate? { renamedCandidates.first }

    /// A changed table, as ``WorkspaceTransaction/schemaDifference()`` finds it.
    public init(
      table: String, step: String, missingColumns: [SchemaColumn], unexpectedColumns: [SchemaColumn],
      alteredColumns: [Altered], recreatedByReindex: Bool, sql: String, renamedAs: String? = nil
    ) {
      self.table = table
      self.step = step
      self.missingColumns = missingColumns
      self.unexpectedColumns = unexpectedColumns
      self.alteredColumns = alteredColumns
      self.recreatedByReindex = recreatedByReindex
      self.sql = sql
      self.renamedAs = renamedAs
    }

    /// How table `table`'s `actual` columns differ from the `expected` ones; nil when they do not.
    /// - Parameter pending: the table's columns once every step this build knows has run: a
    ///   column of those, as declared there, is not unexpected (a pending step adds it, and
    ///   keeps one already there).
    package static func compare(
      table: String, step: String, sql: String, expected: [SchemaColumn], actual: [SchemaColumn],
      pending: [SchemaColumn] = []
    ) -> Changed? {
      func named(_ columns: [SchemaColumn]) -> [String: SchemaColumn] {
        Dictionary(columns.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
      }
      let actualByName = named(actual)
      let expectedByName = named(expected)
      let pendingByName = named(pending)
      let missing = expected.filter { actualByName[$0.name.lowercased()] == nil }
      let unexpected = actual.filter { column in
        expectedByName[column.name.lowercased()] == nil
          && pendingByName[column.name.lowercased()].map { column.isDeclared(like: $0) } != true
      }
      let altered = expected.compactMap { e in
        actualByName[e.name.lowercased()].flatMap { a in a.isDeclared(like: e) ? nil : Altered(expected: e, actual: a) }
      }
      guard !missing.isEmpty || !unexpected.isEmpty || !altered.isEmpty else { return nil }
      return Changed(
        table: table, step: step, missingColumns: missing, unexpectedColumns: unexpected, alteredColumns: altered,
        recreatedByReindex: WorkspaceSchema.isDerivedTable(table),
        sql: sql.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }

    /// E.g. `table knowledge has other columns than schema step 0001-schema-v5-records creates:
    /// it lacks kind TEXT NOT NULL, …; …`.
    public var description: String {
      var parts: [String] = []
      if !missingColumns.isEmpty {
        parts.append("it lacks " + SchemaColumn.listed(missingColumns))
      }
      if !unexpectedColumns.isEmpty {
        parts.append("it has " + SchemaColumn.listed(unexpectedColumns) + ", which dolphin did not create")
      }
      for a in alteredColumns {
        parts.append("it has \(a.actual) where dolphin creates \(a.expected)")
      }
      return "table \(table) has other columns than "
        + (step.isEmpty ? "dolphin creates" : "schema step \(step) creates") + ": " + parts.joined(separator: "; ")
        + " (changed outside dolphin; "
        + (recreatedByReindex
          ? "its rows are derived from the stored records; `\(command: "dolphin reindex")` recreates it"
          : "commands that read or write it may fail, and `dolphin export` carries only the columns dolphin created")
        + (renamedAs.map { name in
          let choice = RenameCandidate.choice(renamedCandidates)
          return "; " + (choice.isEmpty ? "" : choice + "; ") + "table \(name), which dolphin did not create, has "
            + "exactly the columns dolphin gives it: most likely the table it replaced, renamed aside"
            + (renamedCandidate.map { $0.table == name ? ", " + $0.holding : "" } ?? "")
        } ?? "")
        + ")"
    }
  }

  /// An object no applied step creates: another program, or someone with `sqlite3`, added it.
  public struct Unexpected: Sendable, Equatable, Codable, CustomStringConvertible {
    public var object: SchemaObject
    /// The table it belongs to (`sqlite_master.tbl_name`): for a trigger or an index, the table
    /// it is on.
    public var table: String
    /// Whether it is a problem: a trigger (it runs inside dolphin's writes and may change or
    /// refuse them) or an index (it slows dolphin's writes, and a UNIQUE one refuses some) on a
    /// table dolphin creates, or any object holding the name of a missing one the schema steps
    /// create (``holdsNameOf``). A table or a view, and a trigger or an index on a table dolphin
    /// did not create, is a note, not a problem: dolphin neither reads nor writes it (review 26-b,
    /// 8).
    public var isProblem: Bool
    /// The missing object the schema steps create whose name this one holds (a view `memory`
    /// where dolphin's table `memory` was): it cannot be created while this is there, and
    /// dolphin's commands reach this one instead. Nil otherwise.
    public var holdsNameOf: SchemaObject?

    /// An object of `sqlite_master` on `table`; ``isProblem`` follows from its type, whether
    /// `table` is one the schema steps create (`onTableOfDolphin`), and `holdsNameOf`.
    public init(object: SchemaObject, table: String, onTableOfDolphin: Bool = true, holdsNameOf: SchemaObject? = nil) {
      self.object = object
      self.table = table
      self.holdsNameOf = holdsNameOf
      self.isProblem =
        holdsNameOf != nil || (object.type != "table" && object.type != "view" && onTableOfDolphin)
    }

    /// E.g. `trigger block on table knowledge was not created by dolphin; it runs inside …`.
    public var description: String {
      if let held = holdsNameOf {
        return "\(object) was not created by dolphin and holds the name of dolphin's \(held), which is missing: "
          + (held.type == "table"
            ? "dolphin's commands that use table \(held.name) reach it instead, and fail"
            : "the \(held.type) cannot be made while it is there")
      }
      switch object.type {
      case "trigger" where isProblem:
        return "trigger \(object.name) on \(table) was not created by dolphin; it runs inside dolphin's writes to "
          + "\(table) and may change or refuse them"
      case "index" where isProblem:
        return "index \(object.name) on \(table) was not created by dolphin; it slows dolphin's writes to \(table), "
          + "and a UNIQUE one refuses some of them"
      case "trigger", "index":
        return "\(object) on \(table) was not created by dolphin; it is on a table dolphin did not create, which "
          + "dolphin neither reads nor writes (not a problem)"
      default:
        return "\(object) was not created by dolphin; dolphin neither reads nor writes it, and `dolphin export` "
          + "does not carry it (not a problem)"
      }
    }
  }

  /// What the database lacks, in the order the schema steps create it.
  public var missing: [Missing]
  /// The tables the database holds whose columns differ from those the steps give them, in
  /// the order the steps create them.
  public var changed: [Changed]
  /// What the database holds beyond the schema, sorted by name: problems (triggers and indexes
  /// on dolphin's tables, objects holding a missing one's name) and notes (tables, views, and
  /// triggers and indexes on them), as ``Unexpected/isProblem`` says.
  public var unexpected: [Unexpected]

  /// A difference of `missing` objects, `changed` tables and `unexpected` objects (none by
  /// default: the schema as made).
  public init(missing: [Missing] = [], changed: [Changed] = [], unexpected: [Unexpected] = []) {
    self.missing = missing
    self.changed = changed
    self.unexpected = unexpected
  }

  /// Whether the schema is exactly what the applied steps create (no note either).
  public var isEmpty: Bool { missing.isEmpty && changed.isEmpty && unexpected.isEmpty }

  /// Whether any difference is a problem: something missing or changed, or a trigger or index
  /// dolphin did not create on one of its tables. Tables and views added, and triggers and
  /// indexes on them, are notes only (``notes``).
  public var hasProblems: Bool { !missing.isEmpty || !changed.isEmpty || unexpected.contains(where: \.isProblem) }

  /// Whether `dolphin reindex` recreates everything missing (and something is missing).
  public var missingRecreatedByReindex: Bool { !missing.isEmpty && missing.allSatisfy(\.recreatedByReindex) }

  /// One line per problem: the missing objects, the changed tables, then the unexpected
  /// objects that are problems (``Unexpected/isProblem``).
  public var problems: [String] {
    missing.map(\.description) + changed.map(\.description) + unexpected.filter(\.isProblem).map(\.description)
  }

  /// One line per table or view dolphin did not create, and per trigger or index on such a
  /// table: not a problem.
  public var notes: [String] { unexpected.filter { !$0.isProblem }.map(\.description) }
}

extension WorkspaceTransaction {
  /// Compares `sqlite_master` with the objects the applied schema steps create
  /// (``WorkspaceSchema/expectedObjects(applied:)``): tables, indexes, triggers and views, by
  /// type and name (without regard to ASCII case, as SQLite takes names), each of dolphin's
  /// indexes by the table it is on and its definition too (``WorkspaceSchema/definitionTokens(_:)``:
  /// one of dolphin's names elsewhere is missing, its name held), and the columns of each
  /// expected table the database holds (`PRAGMA table_info`) with those the steps give it
  /// (``SchemaDifference/Changed``). SQLite's own objects (`sqlite_autoindex_…`,
  /// `sqlite_stat1`) are not compared. Reads only.
  /// - Returns: the difference (empty when the schema is as dolphin made it); nil when the
  ///   database records a schema step this build does not know or has a newer
  ///   `PRAGMA user_version` (a newer dolphin's schema, which this build cannot judge).
  /// - Throws: storage errors.
  /// - Complexity: one read of `sqlite_master` and of `schema_migration`, and `PRAGMA
  ///   table_info` of each expected table and of each table dolphin did not create.
  public func schemaDifference() throws(WorkspaceError) -> SchemaDifference? {
    requireValid()
    if try db.integer("PRAGMA user_version") > Int64(SchemaVersion.current) { return nil }
    let hasMigrationTable =
      try db.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migration'") > 0
    let applied = hasMigrationTable ? Set(try db.all("SELECT name FROM schema_migration") { $0.text(0) }) : []
    let known = Set(WorkspaceSchema.steps.map(\.name))
    if !applied.isSubset(of: known) { return nil }
    let expected = WorkspaceSchema.expectedObjects(applied: applied)
    let actual = try db.all(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE \(WorkspaceSchema.sqliteOwnedObjects) ORDER BY name, type"
    ) { (object: SchemaObject(type: $0.text(0), name: $0.text(1)), table: $0.text(2), sql: $0.text(3)) }
    // SQLite compares names without regard to ASCII case, and so does this comparison.
    func key(_ object: SchemaObject) -> SchemaObject { SchemaObject(type: object.type, name: object.name.lowercased()) }
    let expectedKeys = Set(expected.map { key($0.object) })
    let actualByKey = Dictionary(actual.map { (key($0.object), $0) }, uniquingKeysWith: { a, _ in a })
    let quote = ShellWord.sqlIdentifier
    // Dolphin's index by name, on another table (`ALTER TABLE task RENAME TO task_old` takes a
    // table's indexes along) or defined otherwise, is not the index the step creates: it is
    // missing, its name held (review 26-b, 6).
    var misplaced: [SchemaObject: SchemaDifference.NameHolder] = [:]
    let expectedTables = Dictionary(
      expected.filter { $0.object.type == "table" }.map { ($0.object.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
    var namesTaken = Set(actual.map { $0.object.name.lowercased() }).union(expected.map { $0.object.name.lowercased() })
    for e in expected where e.object.type == "index" {
      guard let a = actualByKey[key(e.object)] else { continue }
      if a.table.lowercased() != e.table.lowercased()
        || WorkspaceSchema.definitionTokens(a.sql) != WorkspaceSchema.definitionTokens(e.sql)
      {
        // On a table dolphin did not create that has not the columns of the index's table (no
        // renamed copy of it): the user's own index, which only reindex's DROP would lose
        // (review 27-b, 4). It is made again under a free name, which keeps it.
        let onOwnTable = expectedTables[a.table.lowercased()] == nil
        let copy = try expectedTables[e.table.lowercased()].map { t throws(WorkspaceError) in
          SchemaDifference.Changed.compare(
            table: t.object.name, step: t.step, sql: t.sql, expected: t.columns,
            actual: try SchemaColumn.columns(ofTable: a.table, in: db)) == nil
        } ?? false
        if onOwnTable && !copy {
          var aside = a.object.name + "_renamed"
          var n = 2
          while namesTaken.contains(aside.lowercased()) {
            aside = a.object.name + "_renamed_\(n)"
            n += 1
          }
          namesTaken.insert(aside.lowercased())
          let remade = WorkspaceSchema.renamingIndex(a.sql, to: quote(aside))
          misplaced[key(e.object)] = SchemaDifference.NameHolder(
            object: a.object, table: a.table,
            freeingStatement: "DROP INDEX " + quote(a.object.name) + (remade.map { "; " + $0 } ?? ""),
            isForeignIndex: true)
          continue
        }
        misplaced[key(e.object)] = SchemaDifference.NameHolder(
          object: a.object, table: a.table, freeingStatement: "DROP INDEX " + quote(a.object.name))
      }
    }
    let present = Set(actual.map { key($0.object) }).subtracting(misplaced.keys)
    let dolphinTables = Set(expected.filter { $0.object.type == "table" }.map { $0.object.name.lowercased() })
    let foreign = actual.filter { !expectedKeys.contains(key($0.object)) }
    // Each expected table there, column by column; a column a pending step adds is not foreign.
    let latest = Dictionary(
      WorkspaceSchema.expectedObjects(applied: known).filter { $0.object.type == "table" }.map { ($0.object.name, $0.columns) },
      uniquingKeysWith: { a, _ in a })
    // The tables dolphin did not create, and their columns: one with exactly those of a
    // missing or replaced table of records is most likely it, renamed (review 26-b, 7).
    let foreignTables = try foreign.filter { $0.object.type == "table" }.map { t throws(WorkspaceError) in
      (name: t.object.name, columns: try SchemaColumn.columns(ofTable: t.object.name, in: db))
    }
    // Every one, best first: the one holding dolphin's indexes of it (they went along with it),
    // then the one holding the most rows. Taking the first by name could name an empty copy while
    // the records sit in another (review 27-b, 1).
    func renamedCandidates(_ e: WorkspaceSchema.ExpectedObject) throws(WorkspaceError) -> [SchemaDifference.RenameCandidate] {
      let names = foreignTables.filter { t in
        SchemaDifference.Changed.compare(
          table: e.object.name, step: e.step, sql: e.sql, expected: e.columns, actual: t.columns,
          pending: latest[e.object.name] ?? []) == nil
      }.map(\.name)
      var candidates: [SchemaDifference.RenameCandidate] = []
      for name in names {
        let indexes = expected.filter { $0.object.type == "index" && $0.table.lowercased() == e.object.name.lowercased() }
          .filter { misplaced[key($0.object)]?.table.lowercased() == name.lowercased() }.map(\.object.name)
        let rows = try db.integer("SELECT count(*) FROM main." + quote(name))
        candidates.append(.init(table: name, rows: Int(rows), dolphinIndexes: indexes))
      }
      return SchemaDifference.RenameCandidate.ranked(candidates)
    }
    var changed: [SchemaDifference.Changed] = []
    for e in expected where e.object.type == "table" && present.contains(key(e.object)) {
      let columns = try SchemaColumn.columns(ofTable: e.object.name, in: db)
      if var difference = SchemaDifference.Changed.compare(
        table: e.object.name, step: e.step, sql: e.sql, expected: e.columns, actual: columns,
        pending: latest[e.object.name] ?? [])
      {
        if !difference.recreatedByReindex && (!difference.missingColumns.isEmpty || !difference.alteredColumns.isEmpty) {
          difference.renamedCandidates = try renamedCandidates(e)
          difference.renamedAs = difference.renamedCandidates.first?.table
        }
        if !difference.recreatedByReindex && !difference.missingColumns.isEmpty && difference.alteredColumns.isEmpty {
          let clauses = difference.missingColumns.map {
            $0.addColumnClause(unique: e.uniqueColumns.contains($0.name.lowercased()))
          }
          if clauses.allSatisfy({ $0 != nil }) {
            difference.addColumnStatements = clauses.compactMap { $0 }.map {
              "ALTER TABLE \(quote(e.object.name)) ADD COLUMN " + $0
            }
          }
        }
        if !difference.unexpectedColumns.isEmpty {
          let added = Set(difference.unexpectedColumns.map { $0.name.lowercased() })
          difference.indexesOnUnexpectedColumns = foreign.filter { a in
            guard a.object.type == "index", a.table.lowercased() == e.object.name.lowercased() else { return false }
            // The tokens after the table's name: its columns, expressions and WHERE clause.
            let tokens = WorkspaceSchema.definitionTokens(a.sql)
            let body = tokens.firstIndex(of: "(").map { tokens[$0...] } ?? []
            return body.contains { added.contains($0) }
          }.map(\.object.name)
        }
        changed.append(difference)
      }
    }
    // A missing index is recreated by `reindex` when its table is there with the columns its
    // step gives it, or is recreated too.
    let recreatedTables = Set(
      expected.filter { $0.object.type == "table" && WorkspaceSchema.isDerivedTable($0.object.name) }
        .map { $0.object.name.lowercased() })
    let tablesLacking = Set(changed.filter { !$0.missingColumns.isEmpty }.map { $0.table.lowercased() })
    // An object dolphin did not create holding the name of a missing one (a view `memory` where
    // dolphin's table was, review 26-b, 9): tables, views and indexes share one name space,
    // triggers have their own. What frees the name loses nothing stored: a table is renamed.
    let taken = Set(actual.map { $0.object.name.lowercased() }).union(expected.map { $0.object.name.lowercased() })
    func freeing(_ a: (object: SchemaObject, table: String, sql: String)) -> SchemaDifference.NameHolder {
      guard a.object.type == "table" else {
        return .init(object: a.object, table: a.table, freeingStatement: "DROP \(a.object.type.uppercased()) " + quote(a.object.name))
      }
      var aside = a.object.name + "_renamed"
      var n = 2
      while taken.contains(aside.lowercased()) {
        aside = a.object.name + "_renamed_\(n)"
        n += 1
      }
      return .init(
        object: a.object, table: a.table, freeingStatement: "ALTER TABLE \(quote(a.object.name)) RENAME TO \(quote(aside))")
    }
    let foreignByName = Dictionary(
      foreign.filter { $0.object.type != "trigger" }.map { ($0.object.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
    let missing = try expected.filter { !present.contains(key($0.object)) }.map { e throws(WorkspaceError) in
      let table = e.table.lowercased()
      return SchemaDifference.Missing(
        object: e.object, step: e.step,
        recreatedByReindex: e.object.type == "table"
          ? WorkspaceSchema.isDerivedTable(e.object.name)
          : e.object.type == "index"
            && (recreatedTables.contains(table)
              || present.contains(SchemaObject(type: "table", name: table)) && !tablesLacking.contains(table)),
        sql: e.sql.split(whereSeparator: \.isWhitespace).joined(separator: " "),
        table: e.table,
        nameHeldBy: misplaced[key(e.object)]
          ?? (e.object.type == "trigger" ? nil : foreignByName[e.object.name.lowercased()].map(freeing)),
        renamedCandidates: e.object.type == "table" && !WorkspaceSchema.isDerivedTable(e.object.name)
          ? try renamedCandidates(e) : [])
    }
    // A table taken for one of dolphin's, renamed, is named there, not also as a note that it is
    // not a problem (review 27-b, 10).
    let renamedTables = Set((missing.compactMap(\.renamedAs) + changed.compactMap(\.renamedAs)).map { $0.lowercased() })
    let missingByName = Dictionary(
      missing.filter { $0.object.type != "trigger" }.map { ($0.object.name.lowercased(), $0.object) },
      uniquingKeysWith: { a, _ in a })
    let unexpected = foreign.filter { !($0.object.type == "table" && renamedTables.contains($0.object.name.lowercased())) }
      .map { a in
      SchemaDifference.Unexpected(
        object: a.object, table: a.table, onTableOfDolphin: dolphinTables.contains(a.table.lowercased()),
        holdsNameOf: a.object.type == "trigger" ? nil : missingByName[a.object.name.lowercased()])
    }
    return SchemaDifference(missing: missing, changed: changed, unexpected: unexpected)
  }

  /// Recreates the missing objects ``SchemaDifference/Missing/recreatedByReindex`` marks —
  /// tables of derived rows (``WorkspaceSchema/isDerivedTable(_:)``) and indexes — with the SQL
  /// of the schema step that creates each, in this write transaction; dolphin's own index of
  /// such a name on another table, or defined otherwise, is dropped first. A derived table whose
  /// columns differ (``SchemaDifference/Changed/recreatedByReindex``) is dropped first, with
  /// its indexes, and recreated so. `digest_evidence` is
  /// filled here from the stored digests; the search index and tag filter tables are left empty
  /// for the caller to fill from the stored records (`dolphin reindex` rebuilds them in the same
  /// transaction). Nothing else is touched.
  /// - Returns: the objects recreated, in creation order (empty when none was missing or
  ///   changed).
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)`` in a read transaction; storage errors,
  ///   among them SQLite's refusal when an object dolphin did not create holds the name of one
  ///   to recreate (``SchemaDifference/Missing/nameHeldBy``).
  @discardableResult
  package func recreateDerivedSchemaObjects() throws(WorkspaceError) -> [SchemaObject] {
    try requireWritable()
    guard var difference = try schemaDifference() else { return [] }
    // A derived table with other columns than its step gives it is dropped (its indexes with
    // it), then recreated below with them, as if it had been missing.
    let changed = difference.changed.filter(\.recreatedByReindex).map(\.table)
    for table in changed {
      try db.execute("DROP TABLE " + ShellWord.sqlIdentifier(table))
    }
    if !changed.isEmpty, let after = try schemaDifference() { difference = after }
    let wanted = Dictionary(
      difference.missing.filter(\.recreatedByReindex).map { ($0.object, $0) }, uniquingKeysWith: { a, _ in a })
    guard !wanted.isEmpty else { return [] }
    let applied = Set(try db.all("SELECT name FROM schema_migration") { $0.text(0) })
    var recreated: [SchemaObject] = []
    // Creation order: a table before its indexes.
    for e in WorkspaceSchema.expectedObjects(applied: applied) {
      guard let missing = wanted[e.object] else { continue }
      // Dolphin's own index of the name, on another table or defined otherwise (review 26-b, 6):
      // an index holds nothing stored. An object dolphin did not create holding the name is
      // left alone: the CREATE below fails on it, naming it (`dolphin doctor` says what frees it).
      if missing.isMisplacedIndex, let holder = missing.nameHeldBy { try db.execute(holder.freeingStatement) }
      try db.execute(e.sql)
      if e.object == SchemaObject(type: "table", name: "lexical_stats") {
        // The one row every reader of the statistics expects (step 0002 inserts it).
        try db.execute(
          "INSERT OR IGNORE INTO lexical_stats(id, document_count, title_length, tags_length, content_length) "
            + "VALUES (1, 0, 0, 0, 0)")
      } else if e.object == SchemaObject(type: "table", name: "digest_evidence") {
        // What ``insertDigest(_:)`` writes: every id a line of the digest cites. A digest whose
        // sections are not JSON cites nothing here (doctor names it as malformed).
        try db.execute(
          """
          INSERT OR IGNORE INTO digest_evidence(evidence_id, digest_id)
          SELECT j.value, d.id FROM digest d,
            json_tree(CASE WHEN json_valid(d.sections) THEN d.sections ELSE '{}' END) j
          WHERE j.type = 'text' AND j.path GLOB '*.evidenceIDs'
          """)
      }
      recreated.append(e.object)
    }
    return recreated
  }
}
