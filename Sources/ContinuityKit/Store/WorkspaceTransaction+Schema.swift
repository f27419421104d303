import Foundation

/// How a workspace database's schema objects (`sqlite_master`) differ from those its applied
/// schema steps create (``WorkspaceSchema/expectedObjects(applied:)``), by name, and how the
/// columns of each table it holds differ from those the steps give it.
///
/// SQLite's integrity check passes on a database whose table was dropped or replaced by one
/// with other columns (it is not damage to SQLite), yet every dolphin command that needs the
/// table, or the column, fails; a trigger another program added runs inside dolphin's writes and
/// may refuse them. Tables and views another program added are noted, not problems: dolphin
/// neither reads nor writes them.
public struct SchemaDifference: Sendable, Equatable, Codable {
  /// A table or index (or any object) the applied steps create that the database lacks, with
  /// the step that creates it.
  public struct Missing: Sendable, Equatable, Codable, CustomStringConvertible {
    public var object: SchemaObject
    /// The schema step that creates it (`schema_migration` itself has none: empty).
    public var step: String
    /// Whether `dolphin reindex` recreates it: a table whose rows it rebuilds from the stored
    /// records (the search index, the tag filter, the digests' evidence index:
    /// ``WorkspaceSchema/isDerivedTable(_:)``), or an index, on a table that exists or that it
    /// recreates. Nothing stored is lost with it.
    public var recreatedByReindex: Bool
    /// The statement that creates it, as the step does, on one line (white space runs
    /// collapsed): what recreates it empty.
    public var sql: String

    /// E.g. `table lexical_trigram is missing (schema step 0002-lexical-index creates it; …)`.
    public var description: String {
      "\(object) is missing (" + (step.isEmpty ? "dolphin creates it first" : "schema step \(step) creates it")
        + "; "
        + (recreatedByReindex
          ? (object.type == "index"
            ? "nothing stored is lost; `\(command: "dolphin reindex")` recreates it"
            : "its rows are derived from the stored records; `\(command: "dolphin reindex")` recreates it")
          : "the records it held went with it")
        + ")"
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

    /// A changed table, as ``WorkspaceTransaction/schemaDifference()`` finds it.
    public init(
      table: String, step: String, missingColumns: [SchemaColumn], unexpectedColumns: [SchemaColumn],
      alteredColumns: [Altered], recreatedByReindex: Bool, sql: String
    ) {
      self.table = table
      self.step = step
      self.missingColumns = missingColumns
      self.unexpectedColumns = unexpectedColumns
      self.alteredColumns = alteredColumns
      self.recreatedByReindex = recreatedByReindex
      self.sql = sql
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
        parts.append("it lacks " + missingColumns.map(\.description).joined(separator: ", "))
      }
      if !unexpectedColumns.isEmpty {
        parts.append(
          "it has " + unexpectedColumns.map(\.description).joined(separator: ", ") + ", which dolphin did not create")
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
    /// refuse them) or an index (it slows dolphin's writes, and a UNIQUE one refuses some). A
    /// table or a view is a note, not a problem: dolphin neither reads nor writes it.
    public var isProblem: Bool

    /// An object of `sqlite_master` on `table`; ``isProblem`` follows from its type.
    public init(object: SchemaObject, table: String) {
      self.object = object
      self.table = table
      self.isProblem = object.type != "table" && object.type != "view"
    }

    /// E.g. `trigger block on table knowledge was not created by dolphin; it runs inside …`.
    public var description: String {
      switch object.type {
      case "trigger":
        return "trigger \(object.name) on \(table) was not created by dolphin; it runs inside dolphin's writes to "
          + "\(table) and may change or refuse them"
      case "index":
        return "index \(object.name) on \(table) was not created by dolphin; it slows dolphin's writes to \(table), "
          + "and a UNIQUE one refuses some of them"
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
  /// What the database holds beyond the schema, sorted by name: problems (triggers, indexes)
  /// and notes (tables, views), as ``Unexpected/isProblem`` says.
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
  /// dolphin did not create. Tables and views added are notes only (``notes``).
  public var hasProblems: Bool { !missing.isEmpty || !changed.isEmpty || unexpected.contains(where: \.isProblem) }

  /// Whether `dolphin reindex` recreates everything missing (and something is missing).
  public var missingRecreatedByReindex: Bool { !missing.isEmpty && missing.allSatisfy(\.recreatedByReindex) }

  /// One line per problem: the missing objects, the changed tables, then the unexpected
  /// triggers and indexes.
  public var problems: [String] {
    missing.map(\.description) + changed.map(\.description) + unexpected.filter(\.isProblem).map(\.description)
  }

  /// One line per table or view dolphin did not create: not a problem.
  public var notes: [String] { unexpected.filter { !$0.isProblem }.map(\.description) }
}

extension WorkspaceTransaction {
  /// Compares `sqlite_master` with the objects the applied schema steps create
  /// (``WorkspaceSchema/expectedObjects(applied:)``): tables, indexes, triggers and views, by
  /// type and name, and the columns of each expected table the database holds (`PRAGMA
  /// table_info`) with those the steps give it (``SchemaDifference/Changed``). SQLite's own
  /// objects (`sqlite_autoindex_…`, `sqlite_stat1`) are not compared. Reads only.
  /// - Returns: the difference (empty when the schema is as dolphin made it); nil when the
  ///   database records a schema step this build does not know or has a newer
  ///   `PRAGMA user_version` (a newer dolphin's schema, which this build cannot judge).
  /// - Throws: storage errors.
  /// - Complexity: one read of `sqlite_master` and of `schema_migration`, and `PRAGMA
  ///   table_info` of each expected table.
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
      "SELECT type, name, tbl_name FROM sqlite_master WHERE \(WorkspaceSchema.sqliteOwnedObjects) ORDER BY name, type"
    ) { (object: SchemaObject(type: $0.text(0), name: $0.text(1)), table: $0.text(2)) }
    let actualObjects = Set(actual.map(\.object))
    let expectedObjects = Set(expected.map(\.object))
    // A missing index is recreated by `reindex` when its table is there or is recreated too.
    let recreatedTables = Set(
      expected.filter { $0.object.type == "table" && WorkspaceSchema.isDerivedTable($0.object.name) }.map(\.object.name))
    let missing = expected.filter { !actualObjects.contains($0.object) }.map { e in
      SchemaDifference.Missing(
        object: e.object, step: e.step,
        recreatedByReindex: e.object.type == "table"
          ? WorkspaceSchema.isDerivedTable(e.object.name)
          : e.object.type == "index"
            && (actualObjects.contains(SchemaObject(type: "table", name: e.table)) || recreatedTables.contains(e.table)),
        sql: e.sql.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }
    let unexpected = actual.filter { !expectedObjects.contains($0.object) }.map {
      SchemaDifference.Unexpected(object: $0.object, table: $0.table)
    }
    // Each expected table there, column by column; a column a pending step adds is not foreign.
    let latest = Dictionary(
      WorkspaceSchema.expectedObjects(applied: known).filter { $0.object.type == "table" }.map { ($0.object.name, $0.columns) },
      uniquingKeysWith: { a, _ in a })
    var changed: [SchemaDifference.Changed] = []
    for e in expected where e.object.type == "table" && actualObjects.contains(e.object) {
      let columns = try SchemaColumn.columns(ofTable: e.object.name, in: db)
      if let difference = SchemaDifference.Changed.compare(
        table: e.object.name, step: e.step, sql: e.sql, expected: e.columns, actual: columns,
        pending: latest[e.object.name] ?? [])
      {
        changed.append(difference)
      }
    }
    return SchemaDifference(missing: missing, changed: changed, unexpected: unexpected)
  }

  /// Recreates the missing objects ``SchemaDifference/Missing/recreatedByReindex`` marks —
  /// tables of derived rows (``WorkspaceSchema/isDerivedTable(_:)``) and indexes — with the SQL
  /// of the schema step that creates each, in this write transaction. A derived table whose
  /// columns differ (``SchemaDifference/Changed/recreatedByReindex``) is dropped first, with
  /// its indexes, and recreated so. `digest_evidence` is
  /// filled here from the stored digests; the search index and tag filter tables are left empty
  /// for the caller to fill from the stored records (`dolphin reindex` rebuilds them in the same
  /// transaction). Nothing else is touched.
  /// - Returns: the objects recreated, in creation order (empty when none was missing or
  ///   changed).
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)`` in a read transaction; storage errors.
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
    let wanted = Set(difference.missing.filter(\.recreatedByReindex).map(\.object))
    guard !wanted.isEmpty else { return [] }
    let applied = Set(try db.all("SELECT name FROM schema_migration") { $0.text(0) })
    var recreated: [SchemaObject] = []
    // Creation order: a table before its indexes.
    for e in WorkspaceSchema.expectedObjects(applied: applied) where wanted.contains(e.object) {
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
