import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A light projection of a knowledge row for derived views (digests, insights, fallback
/// ranking): no relationships are read, and the wide columns (dates, tags, content) only when
/// and for the kinds a caller asks, so a scan of a large workspace allocates little.
package struct KnowledgeHeader: Sendable, Equatable {
  package var rowID: Int64
  package var id: UUID
  package var kind: KnowledgeKind
  package var title: String
  package var priority: Priority
  /// As stored (fixed-width UTC ISO-8601, so text order is time order), or empty when not
  /// requested.
  package var updatedAt: String
  /// As stored when the item was created after the scan's `createdAfter` date, else empty.
  package var createdAt: String
  /// True when the item has no tags.
  package var isUntagged: Bool
  /// The tags as stored (a JSON array), or empty when not requested for this kind.
  package var tagsJSON: String
  /// The first Unicode scalars of the content (SQLite `substr`), or empty when not requested
  /// for this kind.
  package var contentPrefix: String

  package init(
    rowID: Int64, id: UUID, kind: KnowledgeKind, title: String, priority: Priority, updatedAt: String = "",
    createdAt: String = "", isUntagged: Bool = false, tagsJSON: String = "", contentPrefix: String = ""
  ) {
    self.rowID = rowID
    self.id = id
    self.kind = kind
    self.title = title
    self.priority = priority
    self.updatedAt = updatedAt
    self.createdAt = createdAt
    self.isUntagged = isUntagged
    self.tagsJSON = tagsJSON
    self.contentPrefix = contentPrefix
  }

  /// The header of a knowledge item value, with every field filled, as a full scan would
  /// return it.
  package init(_ item: KnowledgeItem, rowID: Int64, contentPrefix: Int) {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: item.content.unicodeScalars.prefix(max(0, contentPrefix)))
    self.init(
      rowID: rowID, id: item.id, kind: item.kind, title: item.title, priority: item.priority,
      updatedAt: ISO8601.string(from: item.updatedAt), createdAt: ISO8601.string(from: item.createdAt),
      isUntagged: item.tags.isEmpty, tagsJSON: (try? StableJSON.string(item.tags)) ?? "[]", contentPrefix: String(view))
  }

  /// Whether `a` sorts before `b` in ``UUID/uuidString`` order (byte order), without building
  /// strings.
  package static func precedes(_ a: UUID, _ b: UUID) -> Bool {
    withUnsafeBytes(of: a.uuid) { x in
      withUnsafeBytes(of: b.uuid) { y in x.lexicographicallyPrecedes(y) }
    }
  }
}

extension SQLRow {
  /// The case of `E` whose raw value equals the column's text, compared byte by byte without
  /// building a string; nil when none does.
  func enumCase<E: RawRepresentable & CaseIterable>(_ i: Int32, _ table: [(bytes: [UInt8], value: E)]) -> E? {
    let n = Int(sqlite3_column_bytes(stmt, i))
    guard let p = sqlite3_column_text(stmt, i) else { return nil }
    for entry in table where entry.bytes.count == n {
      var equal = true
      for k in 0..<n where entry.bytes[k] != p[k] {
        equal = false
        break
      }
      if equal { return entry.value }
    }
    return nil
  }

  /// Parses a stored upper- or lower-case UUID string without allocating; nil when malformed.
  func uuidValue(_ i: Int32) -> UUID? {
    guard sqlite3_column_bytes(stmt, i) == 36, let p = sqlite3_column_text(stmt, i) else { return nil }
    func nibble(_ c: UInt8) -> UInt8? {
      switch c {
      case 48...57: return c - 48
      case 65...70: return c - 55
      case 97...102: return c - 87
      default: return nil
      }
    }
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let ok = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
      var k = 0
      for j in 0..<16 {
        if k == 8 || k == 13 || k == 18 || k == 23 {
          guard p[k] == 45 else { return false }
          k += 1
        }
        guard let hi = nibble(p[k]), let lo = nibble(p[k + 1]) else { return false }
        out[j] = hi << 4 | lo
        k += 2
      }
      return true
    }
    return ok ? UUID(uuid: bytes) : nil
  }
}

// Targeted, bounded queries for derived views. Each one reads only the columns it needs.
extension WorkspaceTransaction {
  static let kindBytes: [(bytes: [UInt8], value: KnowledgeKind)] = KnowledgeKind.allCases.map { (Array($0.rawValue.utf8), $0) }
  static let priorityBytes: [(bytes: [UInt8], value: Priority)] = Priority.allCases.map { (Array($0.rawValue.utf8), $0) }

  /// Hands every knowledge item's header (its `contentPrefix` empty) to `body` in one scan, in
  /// no order callers may rely on: SQLite reads the covering index `knowledge_header` (schema
  /// step 0004) instead of the table, skipping the content. Read content openings afterwards,
  /// for the items that need them, with ``contentPrefixes(rowIDs:length:)``.
  /// - Parameters:
  ///   - updatedAt: read `updatedAt`.
  ///   - createdAfter: fill `createdAt` for the items created strictly after this date.
  ///   - detailKinds: read tags only for these kinds (nil: every kind).
  /// - Throws: ``WorkspaceError/damaged(file:message:)`` for a malformed id, kind or priority.
  package func forEachKnowledgeHeader(
    updatedAt: Bool = false, createdAfter: Date? = nil, detailKinds: [KnowledgeKind]? = nil,
    _ body: (KnowledgeHeader) -> Void
  ) throws(WorkspaceError) {
    requireValid()
    var args: [SQLValue] = []
    var columns = ["rowid", "id", "kind", "title", "priority", updatedAt ? "updated_at" : "''"]
    if let createdAfter {
      columns.append("CASE WHEN created_at > ? THEN created_at ELSE '' END")
      args.append(Self.text(createdAfter))
    } else {
      columns.append("''")
    }
    columns.append("tags = '[]'")
    var kindTest = ""
    if let detailKinds {
      kindTest = detailKinds.isEmpty ? "0" : "kind IN (" + detailKinds.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
    }
    columns.append(kindTest.isEmpty ? "tags" : "CASE WHEN \(kindTest) THEN tags ELSE '' END")
    let sql = "SELECT " + columns.joined(separator: ", ") + " FROM knowledge"
    try db.query(sql, args) { (row) throws(WorkspaceError) in
      guard let id = row.uuidValue(1) else {
        throw .damaged(file: db.displayName, message: "knowledge holds a malformed id '\(row.text(1))'")
      }
      guard let kind = row.enumCase(2, Self.kindBytes) else {
        throw .damaged(
          file: db.displayName, message: Self.unknownValueMessage("knowledge.kind", id: row.text(1), stored: row.text(2)))
      }
      guard let priority = row.enumCase(4, Self.priorityBytes) else {
        throw .damaged(
          file: db.displayName,
          message: Self.unknownValueMessage("knowledge.priority", id: row.text(1), stored: row.text(4)))
      }
      body(
        KnowledgeHeader(
          rowID: row.int64(0), id: id, kind: kind, title: row.text(3), priority: priority,
          updatedAt: updatedAt ? row.text(5) : "", createdAt: createdAfter == nil ? "" : row.text(6),
          isUntagged: row.int(7) != 0, tagsJSON: row.text(8)))
    }
  }

  /// Every distinct tag that knowledge items carry, in no particular order.
  package func knowledgeTagNames() throws(WorkspaceError) -> [String] {
    requireValid()
    return try db.all("SELECT DISTINCT tag FROM knowledge_tag", []) { $0.text(0) }
  }

  /// Row ids of the knowledge items carrying any of `tags` (normalized tags), via the tag index.
  package func knowledgeRowIDs(taggedWithAny tags: [String]) throws(WorkspaceError) -> Set<Int64> {
    requireValid()
    guard !tags.isEmpty else { return [] }
    let sql = "SELECT knowledge_rowid FROM knowledge_tag WHERE tag IN (" + tags.map { _ in "?" }.joined(separator: ", ") + ")"
    return Set(try db.all(sql, tags.map { .text($0) }) { $0.int64(0) })
  }

  /// The first `length` Unicode scalars of the content of each row in `rowIDs`, by row id.
  package func contentPrefixes(rowIDs: [Int64], length: Int) throws(WorkspaceError) -> [Int64: String] {
    requireValid()
    var out: [Int64: String] = [:]
    for r in rowIDs where out[r] == nil {
      if let s = try db.first(
        "SELECT substr(content, 1, ?) FROM knowledge WHERE rowid = ?", [.integer(Int64(length)), .integer(r)],
        { $0.text(0) })
      {
        out[r] = s
      }
    }
    return out
  }

  /// Every `supersedes` relationship as a graph, with its cycles (see ``SupersedeGraph``).
  /// - Complexity: one read of the `supersedes` rows, then O(*V* + *E*) over them.
  public func supersedeGraph() throws(WorkspaceError) -> SupersedeGraph {
    SupersedeGraph(edges: try supersedeEdges())
  }

  /// Every stored `supersedes` relationship as (successor, superseded item), by successor then
  /// ordinal.
  package func supersedeEdges() throws(WorkspaceError) -> [(source: UUID, target: UUID)] {
    try relationshipEdges(of: .supersedes)
  }

  /// Every stored relationship of `kind` as (source, target), by source then ordinal.
  package func relationshipEdges(of kind: RelationshipKind) throws(WorkspaceError) -> [(source: UUID, target: UUID)] {
    requireValid()
    return try db.all(
      "SELECT source_id, target_id FROM knowledge_relationship WHERE kind = ? ORDER BY source_id, ordinal",
      [.text(kind.rawValue)]
    ) { (row) throws(WorkspaceError) in
      (source: try uuid(row, 0, "knowledge_relationship"), target: try uuid(row, 1, "knowledge_relationship"))
    }
  }

  /// Every relationship as stored text: (owner id, kind, target id), by owner then ordinal.
  package func relationshipEdges() throws(WorkspaceError) -> [(source: String, kind: String, target: String)] {
    requireValid()
    return try db.all("SELECT source_id, kind, target_id FROM knowledge_relationship ORDER BY source_id, ordinal") {
      ($0.text(0), $0.text(1), $0.text(2))
    }
  }

  /// Sorts `critical` first, `low` last.
  static let priorityRankSQL =
    "CASE priority WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END"

  /// Tasks with `status`, optionally at or above `minimumPriority` and only those with no
  /// knowledge ids, ordered by priority (highest first), then age (oldest first), then id.
  package func tasks(
    status: TaskStatus, minimumPriority: Priority? = nil, unsupportedOnly: Bool = false, limit: Int?
  ) throws(WorkspaceError) -> [TaskItem] {
    requireValid()
    let (sql, args) = Self.taskFilter(status: status, minimumPriority: minimumPriority, unsupportedOnly: unsupportedOnly)
    var query = "SELECT \(try taskColumns()) FROM task\(sql) ORDER BY \(Self.priorityRankSQL), created_at, id"
    var all = args
    if let limit {
      query += " LIMIT ?"
      all.append(.integer(Int64(max(0, limit))))
    }
    return try db.all(query, all) { (row) throws(WorkspaceError) in try taskRow(row) }
  }

  /// How many tasks match the filter of ``tasks(status:minimumPriority:unsupportedOnly:limit:)``.
  package func taskCount(status: TaskStatus, minimumPriority: Priority?, unsupportedOnly: Bool) throws(WorkspaceError) -> Int {
    requireValid()
    let (sql, args) = Self.taskFilter(status: status, minimumPriority: minimumPriority, unsupportedOnly: unsupportedOnly)
    return Int(try db.integer("SELECT count(*) FROM task\(sql)", args))
  }

  private static func taskFilter(status: TaskStatus, minimumPriority: Priority?, unsupportedOnly: Bool)
    -> (String, [SQLValue])
  {
    var clauses = ["status = ?"]
    var args: [SQLValue] = [.text(status.rawValue)]
    if let minimumPriority {
      let names = Priority.allCases.filter { $0 >= minimumPriority }
      clauses.append("priority IN (" + names.map { _ in "?" }.joined(separator: ", ") + ")")
      args += names.map { .text($0.rawValue) }
    }
    if unsupportedOnly { clauses.append("knowledge_ids = '[]'") }
    return (" WHERE " + clauses.joined(separator: " AND "), args)
  }

  /// The oldest open task (by creation time, then id), if any.
  package func oldestOpenTask() throws(WorkspaceError) -> TaskItem? {
    requireValid()
    return try db.first(
      "SELECT \(try taskColumns()) FROM task WHERE status = 'open' ORDER BY created_at, id LIMIT 1"
    ) { (row) throws(WorkspaceError) in try taskRow(row) }
  }

  /// Every task (with `status` when given), by id.
  package func tasksByID(status: TaskStatus?) throws(WorkspaceError) -> [TaskItem] {
    requireValid()
    if let status {
      return try db.all("SELECT \(try taskColumns()) FROM task WHERE status = ? ORDER BY id", [.text(status.rawValue)]) {
        (row) throws(WorkspaceError) in try taskRow(row)
      }
    }
    return try db.all("SELECT \(try taskColumns()) FROM task ORDER BY id") { (row) throws(WorkspaceError) in try taskRow(row) }
  }

  /// The tasks added, completed or otherwise changed strictly after `date` — by their
  /// `createdAt`, `completedAt` or `updatedAt` (``TaskItem/updatedAt``: an edit, a reopening, a
  /// cited knowledge item deleted) — the `limit` changed latest, ordered by the latest of those
  /// dates (then by id), oldest first, and how many there are in all.
  ///
  /// In a workspace read before schema step 0009 (``TaskUpdatedAtStep``), a task edited or
  /// reopened is found only by its creation or completion, as tasks then recorded no other date.
  /// - Complexity: one scan of the tasks (at most ``Limits/tasks``).
  package func tasksChanged(after date: Date, limit: Int) throws(WorkspaceError) -> (tasks: [TaskItem], total: Int) {
    requireValid()
    // Stored dates are fixed-width UTC ISO-8601 strings, so text order is time order.
    let after = Self.text(date)
    let updated = try taskUpdatedAtSQL()
    // All three dates: an import may store a task whose updatedAt is before its completedAt.
    let latest = "max(created_at, coalesce(completed_at, created_at), \(updated))"
    let changed = "\(latest) > ?1"
    // The latest `limit` changes, then shown oldest first (review 28-b, 6: the first `limit`
    // were kept, hiding the newest).
    let tasks = try db.all(
      "SELECT \(try taskColumns()) FROM task WHERE \(changed) ORDER BY \(latest) DESC, id DESC LIMIT ?2",
      [after, .integer(Int64(max(0, limit)))]
    ) { (row) throws(WorkspaceError) in try taskRow(row) }
    let total = Int(try db.integer("SELECT count(*) FROM task WHERE \(changed)", [after]))
    return (tasks.reversed(), total)
  }

  /// Where the tasks that ``tasksChanged(after:limit:)`` leaves out with `limit` `shown` (those
  /// changed after `date` but the `shown` changed latest) stand in ``listTasks(status:limit:offset:)``
  /// order of every task: `offset`, how many tasks come before the first of them, and `limit`,
  /// how many from there up to and with the last of them — the page (`task list --status all
  /// --limit offset+limit`, MCP `task_list`) that holds every one, with the tasks between them
  /// (review 28-d, 6: the brief pointed to `task list`, whose first 50 need not hold them). Nil
  /// when none is left out.
  /// - Complexity: two scans of the tasks (at most ``Limits/tasks``).
  package func tasksChangedListSpan(after date: Date, skippingLatest shown: Int) throws(WorkspaceError) -> (offset: Int, limit: Int)? {
    requireValid()
    let after = Self.text(date)
    let updated = try taskUpdatedAtSQL()
    // As ``tasksChanged(after:limit:)`` selects and orders them.
    let latest = "max(created_at, coalesce(completed_at, created_at), \(updated))"
    let sortKey = Self.taskListKey("")
    let key = Self.taskListKey("t.")
    // The key's four columns of the first and of the last task left out, compared as a row
    // value with every task's: those before the first, and those up to the last.
    let sql = """
      WITH omitted AS (
        SELECT status, priority, created_at, id FROM task WHERE \(latest) > ?1
        ORDER BY \(latest) DESC, id DESC LIMIT -1 OFFSET ?2),
      f AS (SELECT * FROM omitted ORDER BY \(sortKey) LIMIT 1),
      l AS (SELECT * FROM omitted ORDER BY \(Self.taskListKey("", descending: true)) LIMIT 1)
      SELECT
        (SELECT count(*) FROM omitted),
        (SELECT count(*) FROM task t, f WHERE (\(key)) < (\(Self.taskListKey("f.")))),
        (SELECT count(*) FROM task t, l WHERE (\(key)) <= (\(Self.taskListKey("l."))))
      """
    let counts = try db.first(sql, [after, .integer(Int64(max(0, shown)))]) { (r) throws(WorkspaceError) in
      (omitted: Int(r.int64(0)), before: Int(r.int64(1)), upToLast: Int(r.int64(2)))
    }
    guard let counts, counts.omitted > 0 else { return nil }
    return (counts.before, counts.upToLast - counts.before)
  }

  /// Where the knowledge items that ``knowledgeCreated(after:limit:)`` leaves out with `limit`
  /// `shown` (those created after `date` but the newest `shown`) stand in ``listKnowledge(kinds:tag:limit:offset:)``
  /// order of every item (most recently changed first, then id): `offset`, how many items come
  /// before the first of them, and `limit`, how many from there up to and with the last of them
  /// — the page (`knowledge list --limit offset+limit`, MCP `knowledge_list`) that holds every
  /// one, with the items changed in between (review 28-d, 6). Nil when none is left out.
  /// - Complexity: two scans of the knowledge items.
  package func knowledgeCreatedListSpan(after date: Date, skippingNewest shown: Int) throws(WorkspaceError) -> (offset: Int, limit: Int)? {
    requireValid()
    let sql = """
      WITH omitted AS (
        SELECT updated_at AS u, id FROM knowledge WHERE created_at > ?1
        ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?2),
      f AS (SELECT * FROM omitted ORDER BY u DESC, id ASC LIMIT 1),
      l AS (SELECT * FROM omitted ORDER BY u ASC, id DESC LIMIT 1)
      SELECT
        (SELECT count(*) FROM omitted),
        (SELECT count(*) FROM knowledge k, f WHERE k.updated_at > f.u OR (k.updated_at = f.u AND k.id < f.id)),
        (SELECT count(*) FROM knowledge k, l WHERE k.updated_at > l.u OR (k.updated_at = l.u AND k.id <= l.id))
      """
    let counts = try db.first(sql, [Self.text(date), .integer(Int64(max(0, shown)))]) { (r) throws(WorkspaceError) in
      (omitted: Int(r.int64(0)), before: Int(r.int64(1)), upToLast: Int(r.int64(2)))
    }
    guard let counts, counts.omitted > 0 else { return nil }
    return (counts.before, counts.upToLast - counts.before)
  }

  /// Id, kind and title of the newest `limit` knowledge items created strictly after `date`,
  /// shown oldest first (then by id), and how many there are in all.
  package func knowledgeCreated(after date: Date, limit: Int) throws(WorkspaceError)
    -> (items: [(id: UUID, kind: KnowledgeKind, title: String)], total: Int)
  {
    requireValid()
    // Stored dates are fixed-width UTC ISO-8601 strings, so text order is time order.
    let after = Self.text(date)
    // The newest `limit`, then shown oldest first (review 28-b, 6).
    let items = try db.all(
      "SELECT id, kind, title FROM knowledge WHERE created_at > ? ORDER BY created_at DESC, id DESC LIMIT ?",
      [after, .integer(Int64(max(0, limit)))]
    ) { (row) throws(WorkspaceError) in
      (try uuid(row, 0, "knowledge"), try enumValue(KnowledgeKind.self, row, 1, "knowledge.kind", idColumn: 0), row.text(2))
    }
    let total = Int(try db.integer("SELECT count(*) FROM knowledge WHERE created_at > ?", [after]))
    return (items.reversed(), total)
  }

  /// The revision of each of the knowledge items `ids` that was edited after `date`: one that
  /// exists, was created at or before `date` (one created after it was captured since, not
  /// edited) and whose `updatedAt` is later than `date`, keyed by id. Items not edited since,
  /// and ids no item has, are absent.
  /// - Complexity: one indexed lookup per distinct id.
  package func knowledgeRevisions(editedAfter date: Date, among ids: [UUID]) throws(WorkspaceError) -> [UUID: Int] {
    requireValid()
    // Stored dates are fixed-width UTC ISO-8601 strings, so text order is time order.
    let after = Self.text(date)
    var out: [UUID: Int] = [:]
    for id in Set(ids) {
      if let revision = try db.first(
        "SELECT revision FROM knowledge WHERE id = ? AND updated_at > ? AND created_at <= ?", [Self.text(id), after, after],
        { (row) throws(WorkspaceError) in Int(row.int64(0)) })
      {
        out[id] = revision
      }
    }
    return out
  }

  /// Kind and title of the knowledge items `ids` that exist, keyed by id.
  package func knowledgeTitles(_ ids: [UUID]) throws(WorkspaceError) -> [UUID: (kind: KnowledgeKind, title: String)] {
    requireValid()
    var out: [UUID: (kind: KnowledgeKind, title: String)] = [:]
    for id in ids where out[id] == nil {
      if let row = try db.first(
        "SELECT kind, title, id FROM knowledge WHERE id = ?", [Self.text(id)],
        { (row) throws(WorkspaceError) in
          (try enumValue(KnowledgeKind.self, row, 0, "knowledge.kind", idColumn: 2), row.text(1))
        })
      {
        out[id] = row
      }
    }
    return out
  }
}
