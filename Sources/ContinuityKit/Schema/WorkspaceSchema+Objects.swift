import Foundation

/// A named object of a workspace database's schema: a table, an index, a trigger or a view.
public struct SchemaObject: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// `table`, `index`, `trigger` or `view`, as `sqlite_master.type` names it.
  public var type: String
  /// The object's name.
  public var name: String

  /// An object of `type` named `name`.
  public init(type: String, name: String) {
    self.type = type
    self.name = name
  }

  /// E.g. `table lexical_trigram`.
  public var description: String { "\(type) \(name)" }

  /// By name, then type.
  public static func < (a: SchemaObject, b: SchemaObject) -> Bool { (a.name, a.type) < (b.name, b.type) }
}

/// A column of a table as `PRAGMA table_info` describes it: what `dolphin doctor` compares of a
/// table the database holds with the same table as dolphin's schema steps create it.
public struct SchemaColumn: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The column's name (SQLite compares column names without regard to ASCII case).
  public var name: String
  /// The declared type as written (`TEXT`, `INTEGER`; empty when the column declares none).
  public var type: String
  /// Whether the column is declared `NOT NULL`.
  public var notNull: Bool
  /// The column's position in the table's primary key, from 1; 0 when it is not part of it.
  public var primaryKey: Int

  /// A column named `name` of declared `type`.
  public init(name: String, type: String, notNull: Bool, primaryKey: Int) {
    self.name = name
    self.type = type
    self.notNull = notNull
    self.primaryKey = primaryKey
  }

  /// E.g. `id TEXT NOT NULL PRIMARY KEY`, `doc INTEGER NOT NULL PRIMARY KEY (its column 2)`,
  /// `note (no type)`.
  public var description: String {
    name + " " + (type.isEmpty ? "(no type)" : type) + (notNull ? " NOT NULL" : "")
      + (primaryKey == 0 ? "" : primaryKey == 1 ? " PRIMARY KEY" : " PRIMARY KEY (its column \(primaryKey))")
  }

  /// The clause of `ALTER TABLE … ADD COLUMN` that adds this column back as declared, with the
  /// default every existing row takes (`''` for a `NOT NULL` text column, `0` for a `NOT NULL`
  /// numeric one, none for a nullable one, whose rows take NULL); nil when SQLite refuses to add
  /// it so (a column of the primary key; `unique` for one a UNIQUE constraint covers) (review
  /// 27-b, 5). The name is quoted (``ShellWord/sqlIdentifier(_:)``).
  package func addColumnClause(unique: Bool) -> String? {
    guard primaryKey == 0, !unique else { return nil }
    var clause = ShellWord.sqlIdentifier(name) + (type.isEmpty ? "" : " " + type)
    if notNull {
      // SQLite's type affinity rules: INT, REAL, FLOA, DOUB, NUMERIC, DECIMAL, BOOL… are numeric.
      let t = type.uppercased()
      let numeric = !(t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") || t.contains("BLOB") || t.isEmpty)
      clause += " NOT NULL DEFAULT " + (numeric ? "0" : "''")
    }
    return clause
  }

  /// `columns` for a list: each as ``description`` says, except that two or more columns of one
  /// primary key are one key over them (`evidence_id TEXT NOT NULL, digest_id TEXT NOT NULL,
  /// with one PRIMARY KEY over (evidence_id, digest_id)`), not a primary key each (review 27-b, 10).
  public static func listed(_ columns: [SchemaColumn]) -> String {
    let key = columns.filter { $0.primaryKey > 0 }.sorted { $0.primaryKey < $1.primaryKey }
    guard key.count > 1 else { return columns.map(\.description).joined(separator: ", ") }
    return columns.map { c in
      var plain = c
      plain.primaryKey = 0
      return plain.description
    }.joined(separator: ", ") + ", with one PRIMARY KEY over (" + key.map(\.name).joined(separator: ", ") + ")"
  }

  /// Whether `other` declares the same column: the name and type without regard to ASCII case
  /// (as SQLite takes them), `NOT NULL` and the position in the primary key.
  package func isDeclared(like other: SchemaColumn) -> Bool {
    name.lowercased() == other.name.lowercased() && notNull == other.notNull && primaryKey == other.primaryKey
      && Self.normalizedType(type) == Self.normalizedType(other.type)
  }

  /// A declared type upper-cased with its white space runs collapsed: `varchar( 10 )` and
  /// `VARCHAR( 10 )` are one type.
  static func normalizedType(_ type: String) -> String {
    type.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The columns of table `name` in `conn`'s main database, in their order (`PRAGMA
  /// table_info`); empty when there is no such table.
  package static func columns(ofTable name: String, in conn: SQLiteConnection) throws(WorkspaceError) -> [SchemaColumn] {
    try conn.all("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?, 'main') ORDER BY cid", [.text(name)]) {
      SchemaColumn(name: $0.text(0), type: $0.text(1), notNull: $0.int(2) != 0, primaryKey: $0.int(3))
    }
  }
}

extension WorkspaceSchema {
  /// An object a migration step creates: the SQL that creates it (as `sqlite_master.sql`
  /// holds it), the table it belongs to (`sqlite_master.tbl_name`) and the step (empty for
  /// `schema_migration`, made before the first step).
  package struct ExpectedObject: Sendable {
    package var object: SchemaObject
    package var sql: String
    package var table: String
    package var step: String
    /// For a table, its columns as the step leaves them (``SchemaColumn/columns(ofTable:in:)``
    /// on the database the steps ran on); empty for other objects.
    package var columns: [SchemaColumn] = []
    /// For a table, its columns (lower-cased) that a UNIQUE constraint or index covers: SQLite
    /// refuses `ALTER TABLE … ADD COLUMN` for such a column (review 27-b, 5).
    package var uniqueColumns: Set<String> = []
  }

  /// What one migration step does to the schema: the objects it creates (or changes: an `ALTER
  /// TABLE`), and those it drops.
  package struct StepObjects: Sendable {
    package var step: String
    package var created: [ExpectedObject]
    package var dropped: [SchemaObject]
  }

  /// The `schema_migration` table, which dolphin creates before its first step and where each
  /// step records itself.
  package static let migrationTableSQL =
    "CREATE TABLE IF NOT EXISTS schema_migration (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)"

  /// The objects of `sqlite_master` that belong to SQLite itself (`sqlite_autoindex_…` of a
  /// UNIQUE or PRIMARY KEY constraint, `sqlite_stat1`, `sqlite_sequence`): not compared.
  package static let sqliteOwnedObjects = "name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"

  /// Each step's objects, found by applying ``steps`` in order to an empty in-memory database
  /// and comparing `sqlite_master` before and after each: derived from the steps themselves, so
  /// it cannot drift from what the migrations create. Computed once per process (a few
  /// milliseconds). A table's columns are read there too (`PRAGMA table_info` of the table the
  /// step made), so the columns expected of each table are SQLite's own reading of its SQL.
  package static let objectsByStep: [StepObjects] = {
    do {
      let conn = try SQLiteConnection(path: ":memory:", readOnly: false, create: true)
      // In creation order (rowid), so tables come before their indexes.
      func objects(step: String) throws(WorkspaceError) -> [ExpectedObject] {
        var objects = try conn.all(
          "SELECT type, name, sql, tbl_name FROM sqlite_master WHERE \(sqliteOwnedObjects) ORDER BY rowid"
        ) {
          ExpectedObject(
            object: SchemaObject(type: $0.text(0), name: $0.text(1)), sql: $0.text(2), table: $0.text(3), step: step)
        }
        for i in objects.indices where objects[i].object.type == "table" {
          objects[i].columns = try SchemaColumn.columns(ofTable: objects[i].object.name, in: conn)
          objects[i].uniqueColumns = Set(
            try conn.all(
              "SELECT ii.name FROM pragma_index_list(?) il, pragma_index_info(il.name) ii WHERE il.\"unique\" = 1",
              [.text(objects[i].object.name)]
            ) { $0.text(0).lowercased() })
        }
        return objects
      }
      try conn.execute(migrationTableSQL)
      var before = try objects(step: "")
      var out = [StepObjects(step: "", created: before, dropped: [])]
      for step in steps {
        try conn.execute(step.sql)
        try step.apply?(conn)
        let after = try objects(step: step.name)
        let sqlBefore = Dictionary(before.map { ($0.object, $0.sql) }, uniquingKeysWith: { a, _ in a })
        let namesAfter = Set(after.map(\.object))
        out.append(
          StepObjects(
            step: step.name,
            created: after.filter { sqlBefore[$0.object] != $0.sql },
            dropped: before.map(\.object).filter { !namesAfter.contains($0) }))
        before = after
      }
      return out
    } catch {
      // The steps run on an empty in-memory database; only a step's own bug (caught by the
      // schema tests) or running out of memory fails here.
      fatalError("cannot derive the schema objects of the migration steps: \(error)")
    }
  }()

  /// The objects a database holds once the steps named in `applied` have run, in creation
  /// order: `schema_migration` and every object an applied step created and no later applied
  /// step dropped. Steps are taken in their order in ``steps``; an object a later step changed
  /// (`ALTER TABLE`) carries its latest SQL.
  /// - Parameter applied: step names as `schema_migration` records them; names this build does
  ///   not know are ignored.
  package static func expectedObjects(applied: Set<String>) -> [ExpectedObject] {
    var out: [ExpectedObject] = []
    for entry in objectsByStep where entry.step.isEmpty || applied.contains(entry.step) {
      out.removeAll { object in entry.dropped.contains(object.object) }
      for created in entry.created {
        if let at = out.firstIndex(where: { $0.object == created.object }) {
          out[at].sql = created.sql
          out[at].columns = created.columns
          out[at].uniqueColumns = created.uniqueColumns
        } else {
          out.append(created)
        }
      }
    }
    return out
  }

  /// The tables of the persisted search index, by name: an explicit list, not every table whose
  /// name starts with `lexical_`, since a table of the user's own may (`lexical_notes`), and
  /// erasing or repairing the index must never touch it (review 26-b, 9). A test checks the list
  /// against the tables the schema steps create.
  package static let lexicalTables: [String] = [
    "lexical_stats", "lexical_document", "lexical_term", "lexical_posting", "lexical_trigram", "lexical_stale",
  ]

  /// The tables whose rows are derived from the stored records, which `dolphin reindex`
  /// recreates and fills when one is missing: the search index (``lexicalTables``), the tag
  /// filter's rows (`knowledge_tag`, from each item's tags) and the digests' evidence index
  /// (`digest_evidence`, from the ids each stored digest cites). A missing one loses nothing
  /// stored. Names are compared as SQLite does, without regard to ASCII case.
  package static func isDerivedTable(_ name: String) -> Bool {
    let name = name.lowercased()
    return lexicalTables.contains(name) || name == "knowledge_tag" || name == "digest_evidence"
  }

  /// `sql`, a `CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON …` statement as
  /// `sqlite_master.sql` holds it, with `name` replaced by `newName` (already quoted): what
  /// makes an index again under another name, since SQLite cannot rename one. Nil when `sql`
  /// does not read so (review 27-b, 4).
  package static func renamingIndex(_ sql: String, to newName: String) -> String? {
    let pattern = #"^(\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?)(.+?)(\s+ON[\s"`\[])"#
    guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive, .dotMatchesLineSeparators]),
      let match = regex.firstMatch(in: sql, range: NSRange(sql.startIndex..., in: sql)),
      let head = Range(match.range(at: 1), in: sql), let name = Range(match.range(at: 2), in: sql)
    else { return nil }
    let remade = String(sql[head]) + newName + String(sql[name.upperBound...])
    return remade.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The tokens of a `CREATE INDEX` (or any) statement as `sqlite_master.sql` holds it, for
  /// comparing two definitions: white space and comments dropped, identifiers and keywords
  /// lower-cased and unquoted (`"task"`, `[task]`, `` `task` `` and `TASK` are one token: SQLite
  /// quotes a table's new name in its indexes' SQL when `ALTER TABLE … RENAME` moves them),
  /// string literals kept as written. Two statements with the same tokens define the same
  /// object (review 26-b, 6).
  package static func definitionTokens(_ sql: String) -> [String] {
    var tokens: [String] = []
    let chars = Array(sql.unicodeScalars)
    var i = 0
    func quoted(until close: Unicode.Scalar) -> String {
      // From after the opening quote to the closing one; a doubled closing quote is one.
      var out = String.UnicodeScalarView()
      i += 1
      while i < chars.count {
        if chars[i] == close {
          if close != "]", i + 1 < chars.count, chars[i + 1] == close {
            out.append(close)
            i += 2
            continue
          }
          i += 1
          break
        }
        out.append(chars[i])
        i += 1
      }
      return String(out)
    }
    while i < chars.count {
      let c = chars[i]
      if c.properties.isWhitespace {
        i += 1
      } else if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
        while i < chars.count, chars[i] != "\n" { i += 1 }
      } else if c == "/", i + 1 < chars.count, chars[i + 1] == "*" {
        i += 2
        while i < chars.count, !(chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/") { i += 1 }
        i += 2
      } else if c == "'" {
        tokens.append("'" + quoted(until: "'"))
      } else if c == "\"" || c == "`" || c == "[" {
        tokens.append(quoted(until: c == "[" ? "]" : c).lowercased())
      } else if c == "_" || c == "$" || c.properties.isAlphabetic || c.properties.numericType != nil {
        var word = String.UnicodeScalarView()
        while i < chars.count,
          chars[i] == "_" || chars[i] == "$" || chars[i].properties.isAlphabetic || chars[i].properties.numericType != nil
        {
          word.append(chars[i])
          i += 1
        }
        tokens.append(String(word).lowercased())
      } else {
        tokens.append(String(c))
        i += 1
      }
    }
    return tokens
  }
}
