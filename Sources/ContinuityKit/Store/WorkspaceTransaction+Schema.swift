import Foundation

/// How a workspace database's schema objects (`sqlite_master`) differ from those its applied
/// schema steps create (``WorkspaceSchema/expectedObjects(applied:)``), by name.
///
/// SQLite's integrity check passes on a database whose table was dropped (it is not damage to
/// SQLite), yet every dolphin write that needs the table fails; a trigger another program added
/// runs inside dolphin's writes and may refuse them.
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

  /// An object no applied step creates: another program, or someone with `sqlite3`, added it.
  public struct Unexpected: Sendable, Equatable, Codable, CustomStringConvertible {
    public var object: SchemaObject
    /// The table it belongs to (`sqlite_master.tbl_name`): for a trigger or an index, the table
    /// it is on.
    public var table: String

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
        return "\(object) was not created by dolphin; dolphin neither reads it nor exports it"
      }
    }
  }

  /// What the database lacks, in the order the schema steps create it.
  public var missing: [Missing]
  /// What the database holds beyond the schema, sorted by name.
  public var unexpected: [Unexpected]

  /// A difference of `missing` and `unexpected` objects (none by default: the schema as made).
  public init(missing: [Missing] = [], unexpected: [Unexpected] = []) {
    self.missing = missing
    self.unexpected = unexpected
  }

  /// Whether the schema is exactly what the applied steps create.
  public var isEmpty: Bool { missing.isEmpty && unexpected.isEmpty }

  /// Whether `dolphin reindex` recreates everything missing (and something is missing).
  public var missingRecreatedByReindex: Bool { !missing.isEmpty && missing.allSatisfy(\.recreatedByReindex) }

  /// One line per difference: the missing objects, then the unexpected ones.
  public var problems: [String] { missing.map(\.description) + unexpected.map(\.description) }
}

extension WorkspaceTransaction {
  /// Compares `sqlite_master` with the objects the applied schema steps create
  /// (``WorkspaceSchema/expectedObjects(applied:)``): tables, indexes, triggers and views, by
  /// type and name. SQLite's own objects (`sqlite_autoindex_…`, `sqlite_stat1`) are not
  /// compared. Reads only.
  /// - Returns: the difference (empty when the schema is as dolphin made it); nil when the
  ///   database records a schema step this build does not know or has a newer
  ///   `PRAGMA user_version` (a newer dolphin's schema, which this build cannot judge).
  /// - Throws: storage errors.
  /// - Complexity: one read of `sqlite_master` and of `schema_migration`.
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
    return SchemaDifference(missing: missing, unexpected: unexpected)
  }

  /// Recreates the missing objects ``SchemaDifference/Missing/recreatedByReindex`` marks —
  /// tables of derived rows (``WorkspaceSchema/isDerivedTable(_:)``) and indexes — with the SQL
  /// of the schema step that creates each, in this write transaction. `digest_evidence` is
  /// filled here from the stored digests; the search index and tag filter tables are left empty
  /// for the caller to fill from the stored records (`dolphin reindex` rebuilds them in the same
  /// transaction). Nothing else is touched.
  /// - Returns: the objects recreated, in creation order (empty when none was missing).
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)`` in a read transaction; storage errors.
  @discardableResult
  package func recreateDerivedSchemaObjects() throws(WorkspaceError) -> [SchemaObject] {
    try requireWritable()
    guard let difference = try schemaDifference() else { return [] }
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
