import Foundation

extension WorkspaceTransaction {
  /// SQL for `column` when it holds a JSON list, and an empty list otherwise (so `json_each`
  /// never meets text that is not JSON).
  static func jsonArray(_ column: String) -> String {
    "CASE WHEN json_valid(\(column)) AND json_type(\(column)) = 'array' THEN \(column) ELSE '[]' END"
  }

  /// Mirrors (source `legacyMemory`) whose memory is gone, at most `?` of them. It reads the
  /// partial index `knowledge_memory_mirror` (schema step 0005), not every item: `+k.id` keeps
  /// SQLite from scanning the id index just to return rows in id order.
  package static let orphanMirrorsSQL = """
    SELECT k.id, k.memory_id FROM knowledge k LEFT JOIN memory m ON m.id = k.memory_id
    WHERE k.memory_id IS NOT NULL AND k.source = 'legacyMemory' AND m.id IS NULL ORDER BY +k.id LIMIT ?
    """

  /// How a stored `supersedes` cycle is reported (by `status` and `doctor`).
  package static func supersedeCycleProblem(_ cycle: [UUID]) -> String {
    let ids = cycle.map(\.uuidString)
    let what =
      ids.count == 1
      ? "knowledge \(ids[0]) supersedes itself"
      : "knowledge \(ids.joined(separator: ", ")) supersede each other in a cycle"
    return what
      + "; none of them stands as the successor, so the digest shows them all and asks which one stands "
      + "(delete one, or export, remove one supersedes relationship and import with --on-conflict replace)"
  }

  /// A stored record whose JSON column the store cannot decode, so that every command reading
  /// it refuses the workspace as damaged.
  public struct MalformedJSON: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The table (`knowledge`, `task`, …) and column (`tags`, `knowledge_ids`, …).
    public var table: String
    public var column: String
    /// The record's id as stored.
    public var id: String
    /// `malformed JSON` (not JSON at all), or what the JSON should have been.
    public var problem: String
    /// The start of the stored text, at most 40 characters.
    public var stored: String

    /// E.g. `task 5D…: task.knowledge_ids holds malformed JSON ('oops')`.
    public var description: String {
      "\(table) \(id): \(table).\(column) holds \(problem) ('\(stored)')"
    }
  }

  /// What a JSON column must hold for the store to decode it.
  package enum JSONShape: Sendable {
    /// A list of strings (tags, next steps, excerpts).
    case strings
    /// A list of record ids (UUIDs).
    case ids
    /// An object (a digest's trigger and sections).
    case object
  }

  /// Every JSON column the store decodes, by table.
  package static let jsonColumns: [(table: String, column: String, shape: JSONShape)] = [
    ("knowledge", "tags", .strings), ("memory", "tags", .strings), ("task", "knowledge_ids", .ids),
    ("handoff", "next_steps", .strings), ("handoff", "knowledge_ids", .ids), ("handoff", "task_ids", .ids),
    ("handoff", "recent_excerpts", .strings), ("digest", "trigger", .object), ("digest", "sections", .object),
    ("receipt", "changed_ids", .ids),
  ]

  /// A column holding one of a fixed set of names (a kind, a priority, a status), decoded
  /// into a Swift enumeration: any other text makes reading the record fail.
  package struct EnumColumn: Sendable {
    /// The table and column.
    package var table: String
    package var column: String
    /// The column that names a record in reports and fixes (`id`; `source_id` for a
    /// relationship, which has no id of its own).
    package var idColumn: String
    /// The names the store decodes.
    package var allowed: [String]
    /// What doctor's fix writes instead of an unknown name: the value a new record gets.
    package var fallback: String

    /// The SQL that sets ``fallback`` in the record named by `idLiteral` (an SQL literal),
    /// only where its value is still no name the store reads (``unknownName(_:)``).
    package func fixStatement(idLiteral: String) -> String {
      "UPDATE \(table) SET \(column) = '\(fallback)' WHERE \(idColumn) = \(idLiteral) AND "
        + WorkspaceTransaction.unknownName(self)
    }
  }

  /// Every column the store decodes as an enumeration.
  package static let enumColumns: [EnumColumn] = [
    EnumColumn(table: "knowledge", column: "kind", idColumn: "id", allowed: KnowledgeKind.allCases.map(\.rawValue), fallback: KnowledgeKind.context.rawValue),
    EnumColumn(table: "knowledge", column: "source", idColumn: "id", allowed: KnowledgeSource.allCases.map(\.rawValue), fallback: KnowledgeSource.user.rawValue),
    EnumColumn(table: "knowledge", column: "priority", idColumn: "id", allowed: Priority.allCases.map(\.rawValue), fallback: Priority.normal.rawValue),
    EnumColumn(table: "knowledge_relationship", column: "kind", idColumn: "source_id", allowed: RelationshipKind.allCases.map(\.rawValue), fallback: RelationshipKind.relatesTo.rawValue),
    EnumColumn(table: "task", column: "status", idColumn: "id", allowed: TaskStatus.allCases.map(\.rawValue), fallback: TaskStatus.open.rawValue),
    EnumColumn(table: "task", column: "priority", idColumn: "id", allowed: Priority.allCases.map(\.rawValue), fallback: Priority.normal.rawValue),
    EnumColumn(table: "message", column: "role", idColumn: "id", allowed: ChatRole.allCases.map(\.rawValue), fallback: ChatRole.user.rawValue),
    EnumColumn(table: "receipt", column: "outcome", idColumn: "id", allowed: ReceiptOutcome.allCases.map(\.rawValue), fallback: ReceiptOutcome.failed.rawValue),
  ]

  /// SQL that is true where `e`'s column holds no name the store reads: NULL, or text (a blob or
  /// number read as text, as the store reads it) outside ``EnumColumn/allowed``.
  package static func unknownName(_ e: EnumColumn) -> String {
    let names = e.allowed.map { "'\($0)'" }.joined(separator: ", ")
    return "(\(e.column) IS NULL OR CAST(\(e.column) AS TEXT) NOT IN (\(names)))"
  }

  /// The ``EnumColumn`` of `table.column`, or nil when it holds no enumeration.
  package static func enumColumn(_ table: String, _ column: String) -> EnumColumn? {
    enumColumns.first { $0.table == table && $0.column == column }
  }

  /// Records whose JSON columns the store cannot decode: text that is not JSON
  /// (SQLite's `json_valid`), or JSON of the wrong shape (not a list, a list holding something
  /// other than strings or record ids, not an object). Also the stored settings, and records
  /// whose enumeration column (``enumColumns``: a kind, a priority, a status) holds a name the
  /// store does not know, written by another program (`problem`: `an unknown value (one of …
  /// is expected)`): reading those fails the same way.
  ///
  /// Reading such a record fails with ``WorkspaceError/damaged(file:message:)``; this names
  /// each one (table, column, record id) without decoding anything.
  /// - Parameter limit: at most this many records per column.
  /// - Complexity: one pass over each table with a JSON or enumeration column.
  public func malformedJSON(limit: Int = 100) throws(WorkspaceError) -> [MalformedJSON] {
    requireValid()
    let hex = "[0-9A-Fa-f]"
    let uuid = [8, 4, 4, 4, 12].map { String(repeating: hex, count: $0) }.joined(separator: "-")
    var out: [MalformedJSON] = []
    for (table, column, shape) in Self.jsonColumns {
      // CASE evaluates its branches in order, so json_type and json_each only see valid JSON.
      let wrongShape: String
      switch shape {
      case .strings:
        wrongShape = """
          WHEN json_type(\(column)) <> 'array' THEN 'JSON that is not a list'
          WHEN EXISTS (SELECT 1 FROM json_each(\(column)) j WHERE j.type <> 'text')
            THEN 'a list with an entry that is not text'
          """
      case .ids:
        wrongShape = """
          WHEN json_type(\(column)) <> 'array' THEN 'JSON that is not a list of record ids'
          WHEN EXISTS (SELECT 1 FROM json_each(\(column)) j WHERE j.type <> 'text' OR j.value NOT GLOB '\(uuid)')
            THEN 'a list with an entry that is not a record id'
          """
      case .object:
        wrongShape = "WHEN json_type(\(column)) <> 'object' THEN 'JSON that is not an object'"
      }
      // `ORDER BY +id`: the few rows found are sorted, but found by a scan (of a covering index
      // where one holds the columns) rather than by walking the id index and looking up every
      // row, which read the table once per row: with the unknown-name checks below, `status`
      // read 41,000 pages at 10,000 items.
      out += try db.all(
        """
        SELECT id, problem, substr(\(column), 1, 40) FROM (
          SELECT id, \(column), CASE WHEN NOT json_valid(\(column)) THEN 'malformed JSON' \(wrongShape) END AS problem
          FROM \(table)
        ) WHERE problem IS NOT NULL ORDER BY +id LIMIT ?
        """, [.integer(Int64(limit))]
      ) { row in
        MalformedJSON(table: table, column: column, id: row.text(0), problem: row.text(1), stored: row.text(2))
      }
    }
    for e in Self.enumColumns {
      out += try db.all(
        """
        SELECT \(e.idColumn), CASE WHEN \(e.column) IS NULL THEN 'NULL' ELSE substr(\(e.column), 1, 40) END
        FROM \(e.table) WHERE \(Self.unknownName(e)) ORDER BY +\(e.idColumn) LIMIT ?
        """, [.integer(Int64(limit))]
      ) { row in
        MalformedJSON(
          table: e.table, column: e.column, id: row.text(0),
          problem: "an unknown value (one of \(e.allowed.joined(separator: ", ")) is expected)", stored: row.text(1))
      }
    }
    if let settings = try meta("settings"), try db.integer("SELECT json_valid(?)", [.text(settings)]) == 0 {
      out.append(
        MalformedJSON(
          table: "meta", column: "value", id: "settings", problem: "malformed JSON", stored: String(settings.prefix(40))))
    }
    return out
  }

  /// A stored record whose id is not a UUID (edited outside dolphin), so that every command
  /// reading it refuses the workspace as damaged.
  public struct MalformedID: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The table (`knowledge`, `handoff`, …).
    public var table: String
    /// The record's `rowid`, which names it where its id cannot.
    public var rowID: Int64
    /// The id as stored.
    public var id: String

    /// Makes a report of one record; see each property.
    public init(table: String, rowID: Int64, id: String) {
      self.table = table
      self.rowID = rowID
      self.id = id
    }

    /// E.g. `handoff at row 3: id "HF-7'; DROP" is not a UUID`: the id in double quotes with
    /// quotes, backslashes and line breaks escaped, so that it reads as one value on one line
    /// (``WorkspaceTransaction/quotedStoredText(_:)``).
    public var description: String {
      "\(table) at row \(rowID): id \(WorkspaceTransaction.quotedStoredText(id)) is not a UUID"
    }
  }

  /// A `GLOB` pattern that matches a UUID as `UUID(uuidString:)` reads it
  /// (`XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in hexadecimal digits).
  package static let uuidGlob = [8, 4, 4, 4, 12].map { String(repeating: "[0-9A-Fa-f]", count: $0) }
    .joined(separator: "-")

  /// Records whose `id` is not a UUID (`XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in hexadecimal
  /// digits, as `UUID(uuidString:)` reads it), table by table, by row id.
  ///
  /// Reading such a record fails with ``WorkspaceError/damaged(file:message:)``; this names
  /// each one by table and row id without decoding anything.
  /// - Parameter limit: at most this many records per table.
  /// - Complexity: one pass over each table's ids.
  public func malformedIDs(limit: Int = 100) throws(WorkspaceError) -> [MalformedID] {
    requireValid()
    let uuid = Self.uuidGlob
    var out: [MalformedID] = []
    // Every table of user records has a UUID `id` and a `rowid`.
    for table in Self.recordTables {
      out += try db.all(
        // `+rowid`: the ids are read from their index, not from every row (see malformedJSON).
        "SELECT rowid, id FROM \(table) WHERE typeof(id) <> 'text' OR id NOT GLOB '\(uuid)' ORDER BY +rowid LIMIT ?",
        [.integer(Int64(limit))]
      ) { MalformedID(table: table, rowID: $0.int64(0), id: $0.text(1)) }
    }
    return out
  }

  /// Referential problems, each naming the ids involved, found with indexed SQL joins (no
  /// full decode): relationships to missing items, memory/mirror links that point nowhere or
  /// do not pair up (a memory whose `knowledgeID` names an item that does not mirror it, a
  /// `legacyMemory` item whose memory does not link back), task and handoff references to
  /// missing records, messages of a missing conversation, an active-handoff marker that points
  /// at a missing handoff, digests citing a missing record (``digestsCitingMissingRecords(limit:)``),
  /// and `supersedes` cycles; also receipts whose `arguments` are not
  /// JSON text. Only older data (imports by earlier builds) or a direct edit of the database
  /// can hold these: new ones are refused. Each problem says how to fix it where a command can.
  /// - Parameter limit: at most this many problems per check.
  /// - Complexity: one pass over each referencing table.
  ///
  /// A JSON column that does not hold a list is skipped here (it would stop the whole check
  /// with SQLite's "malformed JSON"); ``malformedJSON(limit:)`` names those records.
  public func referenceProblems(limit: Int = 100) throws(WorkspaceError) -> [String] {
    requireValid()
    let l = SQLValue.integer(Int64(limit))
    var out: [String] = []
    out += try db.all(
      """
      SELECT r.source_id, r.kind, r.target_id FROM knowledge_relationship r
      LEFT JOIN knowledge k ON k.id = r.target_id WHERE k.id IS NULL ORDER BY r.source_id, r.ordinal LIMIT ?
      """, [l]
    ) { "knowledge \($0.text(0)) has a \($0.text(1)) relationship to missing item \($0.text(2))" }
    out += try db.all(Self.orphanMirrorsSQL, [l]) { "knowledge \($0.text(0)) mirrors missing memory \($0.text(1))" }
    out += try db.all(
      """
      SELECT m.id, m.knowledge_id FROM memory m LEFT JOIN knowledge k ON k.id = m.knowledge_id
      WHERE m.knowledge_id IS NOT NULL AND k.id IS NULL ORDER BY m.id LIMIT ?
      """, [l]
    ) { "memory \($0.text(0)) links to missing knowledge mirror \($0.text(1))" }
    // Crossed or one-sided memory ↔ mirror links (older imports let them in): a memory
    // deletion deletes only an item that mirrors the memory, so these are fixed by hand.
    let fixLink =
      "export, set the memory's knowledgeID to the id of the legacyMemory item whose memoryID names it (or remove "
      + "the knowledgeID), and import the file with --on-conflict replace"
    out += try db.all(
      """
      SELECT m.id, k.id, k.source, k.memory_id FROM memory m JOIN knowledge k ON k.id = m.knowledge_id
      WHERE k.source <> 'legacyMemory' OR k.memory_id IS NULL OR k.memory_id <> m.id ORDER BY m.id LIMIT ?
      """, [l]
    ) { row in
      let memoryID = row.isNull(3) ? "no memoryID" : "memoryID \(row.text(3))"
      return "memory \(row.text(0)) links to knowledge \(row.text(1)) as its mirror, but that item does not mirror it "
        + "(source \(row.text(2)), \(memoryID)); `\(command: "dolphin memory delete")` keeps that item. To fix the link, \(fixLink)"
    }
    out += try db.all(
      """
      SELECT k.id, m.id, m.knowledge_id FROM knowledge k JOIN memory m ON m.id = k.memory_id
      WHERE k.memory_id IS NOT NULL AND k.source = 'legacyMemory' AND (m.knowledge_id IS NULL OR m.knowledge_id <> k.id)
      ORDER BY +k.id LIMIT ?
      """, [l]
    ) { row in
      let link = row.isNull(2) ? "no knowledgeID" : "knowledgeID \(row.text(2))"
      return "knowledge \(row.text(0)) mirrors memory \(row.text(1)), but that memory does not link back to it "
        + "(\(link)). To fix the link, \(fixLink)"
    }
    // A pair whose text differs (review 20-a, #4: an import let one in): search shows the memory
    // through its mirror, so it would show text the memory no longer holds.
    out += try db.all(
      """
      SELECT m.id, k.id, CASE WHEN k.content <> m.text THEN 'text' ELSE 'tags' END FROM memory m
      JOIN knowledge k ON k.id = m.knowledge_id AND k.memory_id = m.id AND k.source = 'legacyMemory'
      WHERE k.content <> m.text OR json(\(Self.jsonArray("k.tags"))) <> json(\(Self.jsonArray("m.tags"))) ORDER BY m.id LIMIT ?
      """, [l]
    ) { row in
      "memory \(row.text(0)) and its mirror knowledge \(row.text(1)) disagree on their \(row.text(2)), so a search "
        + "with --include-memories shows text the memory does not hold. To fix it, export, make the mirror's title, "
        + "content and tags the memory's, and import the file with --on-conflict replace"
    }
    out += try db.all(
      """
      SELECT m.id, m.conversation_id FROM message m LEFT JOIN conversation c ON c.id = m.conversation_id
      WHERE c.id IS NULL ORDER BY m.id LIMIT ?
      """, [l]
    ) {
      "message \($0.text(0)) belongs to missing conversation \($0.text(1)); to keep it, export, add that "
        + "conversation to workspace.conversations and import the file; `\(command: "dolphin erase --kind conversations")` removes "
        + "every conversation and message"
    }
    // Imports by earlier builds took any text; every receipt dolphin writes holds JSON.
    out += try db.all(
      "SELECT id, substr(arguments, 1, 40) FROM receipt WHERE NOT json_valid(arguments) ORDER BY +id LIMIT ?", [l]
    ) {
      "receipt \($0.text(0)) has arguments that are not JSON text ('\($0.text(1))'); it is shown as stored. "
        + "`\(command: "dolphin activity clear")` removes receipts, or export, correct its arguments and import with --on-conflict replace"
    }
    out += try db.all(
      """
      SELECT t.id, j.value FROM (SELECT id, \(Self.jsonArray("knowledge_ids")) AS ids FROM task) t, json_each(t.ids) j
      LEFT JOIN knowledge k ON k.id = j.value WHERE k.id IS NULL ORDER BY t.id, j.key LIMIT ?
      """, [l]
    ) { "task \($0.text(0)) references missing knowledge item \($0.text(1))" }
    out += try db.all(
      """
      SELECT h.id, j.value FROM (SELECT id, \(Self.jsonArray("knowledge_ids")) AS ids FROM handoff) h, json_each(h.ids) j
      LEFT JOIN knowledge k ON k.id = j.value WHERE k.id IS NULL ORDER BY h.id, j.key LIMIT ?
      """, [l]
    ) { "handoff \($0.text(0)) references missing knowledge item \($0.text(1))" }
    out += try db.all(
      """
      SELECT h.id, j.value FROM (SELECT id, \(Self.jsonArray("task_ids")) AS ids FROM handoff) h, json_each(h.ids) j
      LEFT JOIN task t ON t.id = j.value WHERE t.id IS NULL ORDER BY h.id, j.key LIMIT ?
      """, [l]
    ) { "handoff \($0.text(0)) references missing task \($0.text(1))" }
    out += try repeatedIDs(limit: l)
    if let active = try meta("activeHandoffID"), try db.integer("SELECT count(*) FROM handoff WHERE id = ?", [.text(active)]) == 0 {
      out.append("the active handoff marker points at missing handoff \(active)")
    }
    out += try digestsCitingMissingRecords(limit: limit)
    for cycle in try supersedeGraph().cycles.prefix(limit) { out.append(Self.supersedeCycleProblem(cycle)) }
    return out
  }

  /// An id listed more than once in a task's `knowledgeIDs` or a handoff's `knowledgeIDs` or
  /// `taskIDs`, one problem per record, list and id, in record order. No dolphin command stores
  /// one (capture keeps each id once), but imports before review 26-a (#4) stored a file's
  /// repeats as given, and the digest, `task get` and `handoff get` then listed the id twice.
  /// An import now keeps each id once, so exporting and importing the file back with
  /// `--on-conflict replace` rewrites the record with each id once.
  func repeatedIDs(limit l: SQLValue) throws(WorkspaceError) -> [String] {
    let lists = [("task", "knowledge_ids", "knowledgeIDs", "knowledge item"),
                 ("handoff", "knowledge_ids", "knowledgeIDs", "knowledge item"), ("handoff", "task_ids", "taskIDs", "task")]
    var out: [String] = []
    for (table, column, field, type) in lists {
      out += try db.all(
        """
        SELECT r.id, upper(j.value), count(*) FROM (SELECT id, \(Self.jsonArray(column)) AS ids FROM \(table)) r,
        json_each(r.ids) j WHERE j.type = 'text' GROUP BY r.id, upper(j.value) HAVING count(*) > 1
        ORDER BY r.id, min(j.key) LIMIT ?
        """, [l]
      ) { row in
        "\(table) \(row.text(0)) lists \(type) \(row.text(1)) \(row.int64(2)) times in its \(field) (an earlier dolphin's "
          + "import stored the repeats; dolphin keeps each id once). To keep it once, export the workspace and import the "
          + "file back with --on-conflict replace (`\(command: "dolphin export --output FILE")`, then "
          + "`\(command: "dolphin import FILE --on-conflict replace --yes")`)"
      }
    }
    return out
  }

  /// Stored digests that cite a record no longer in the workspace, one problem per digest
  /// naming it and the missing ids (in id order).
  ///
  /// Every line of a digest cites the records it quotes (knowledge items, tasks, the active
  /// handoff). Dolphin never leaves such a citation behind: deleting a knowledge item, memory,
  /// task or handoff, and `dolphin erase` of any kind, remove every digest that cites what goes
  /// (a digest holds copies of its text), and receipts, messages and checkpoints — which may
  /// name erased records on purpose — are not digests. So a digest citing a missing record
  /// comes from a record deleted outside dolphin (`sqlite3 … "DELETE FROM knowledge …"`) or
  /// from an imported file that held one, and the digest still holds the deleted record's text.
  /// The citations are read from the digest's own sections (what `dolphin context` shows), not
  /// from the `digest_evidence` index; a digest whose sections are not valid JSON is left to
  /// ``malformedJSON(limit:)``.
  /// - Parameter limit: at most this many digests.
  /// - Complexity: one pass over the stored digests (at most ``Limits/digestsKept``) with one
  ///   indexed look-up per cited id in each record table.
  func digestsCitingMissingRecords(limit: Int) throws(WorkspaceError) -> [String] {
    let pairs = try db.all(
      """
      SELECT d.id, j.value FROM digest d, json_tree(CASE WHEN json_valid(d.sections) THEN d.sections ELSE '{}' END) j
      WHERE j.type = 'text' AND j.path GLOB '*.evidenceIDs'
        AND NOT EXISTS (SELECT 1 FROM knowledge k WHERE k.id = j.value)
        AND NOT EXISTS (SELECT 1 FROM task t WHERE t.id = j.value)
        AND NOT EXISTS (SELECT 1 FROM handoff h WHERE h.id = j.value)
        AND NOT EXISTS (SELECT 1 FROM memory m WHERE m.id = j.value)
      ORDER BY d.id, j.value
      """
    ) { (row: SQLRow) in (digest: row.text(0), cited: row.text(1)) }
    var digests: [(id: String, missing: [String])] = []
    for pair in pairs {
      if digests.last?.id == pair.digest {
        if digests[digests.count - 1].missing.last != pair.cited { digests[digests.count - 1].missing.append(pair.cited) }
      } else {
        digests.append((pair.digest, [pair.cited]))
      }
    }
    return digests.prefix(limit).map { d in
      let shown = d.missing.prefix(10).joined(separator: ", ") + (d.missing.count > 10 ? ", and \(d.missing.count - 10) more" : "")
      return "digest \(d.id) cites \(d.missing.count) missing record(s): \(shown). No knowledge item, memory, task or "
        + "handoff has that id (dolphin removes a digest with any record it cites, so the record was deleted outside "
        + "dolphin, or the digest came in an imported file), and the digest may still quote its text. "
        + "`\(command: "dolphin erase --kind digests")` removes the stored digests (`\(command: "dolphin context --save")` stores a new one)"
    }
  }
}
