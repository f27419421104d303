import Foundation

extension WorkspaceTransaction {
  static let knowledgeColumns =
    "rowid, id, kind, title, content, source, tags, priority, created_at, updated_at, revision, memory_id"

  func knowledgeRow(_ row: SQLRow) throws(WorkspaceError) -> KnowledgeItem {
    let id = try uuid(row, 1, "knowledge")
    return KnowledgeItem(
      id: id,
      kind: try enumValue(KnowledgeKind.self, row, 2, "knowledge.kind", idColumn: 1),
      title: row.text(3),
      content: row.text(4),
      source: try enumValue(KnowledgeSource.self, row, 5, "knowledge.source", idColumn: 1),
      tags: try decodeJSON([String].self, row, 6, "knowledge.tags"),
      relationships: try relationships(of: id),
      priority: try enumValue(Priority.self, row, 7, "knowledge.priority", idColumn: 1),
      createdAt: try date(row, 8, "knowledge.created_at"),
      updatedAt: try date(row, 9, "knowledge.updated_at"),
      revision: row.int(10),
      memoryID: optionalUUID(row, 11))
  }

  /// The relationships owned by the item `id`, in stored order.
  public func relationships(of id: UUID) throws(WorkspaceError) -> [KnowledgeRelationship] {
    requireValid()
    return try db.all(
      "SELECT kind, target_id, source_id FROM knowledge_relationship WHERE source_id = ? ORDER BY ordinal",
      [Self.text(id)]
    ) { (row) throws(WorkspaceError) in
      KnowledgeRelationship(
        kind: try enumValue(RelationshipKind.self, row, 0, "knowledge_relationship.kind", idColumn: 2),
        targetID: try uuid(row, 1, "knowledge_relationship"))
    }
  }

  /// Relationships of other items that point at `id`: (owner id, kind), by owner then kind.
  public func relationships(targeting id: UUID) throws(WorkspaceError) -> [(
    sourceID: UUID, kind: RelationshipKind
  )] {
    requireValid()
    return try db.all(
      "SELECT source_id, kind FROM knowledge_relationship WHERE target_id = ? ORDER BY source_id, ordinal",
      [Self.text(id)]
    ) { (row) throws(WorkspaceError) in
      (try uuid(row, 0, "knowledge_relationship"),
       try enumValue(RelationshipKind.self, row, 1, "knowledge_relationship.kind", idColumn: 0))
    }
  }

  /// The row id of the knowledge item `id`, or nil.
  package func knowledgeRowID(_ id: UUID) throws(WorkspaceError) -> Int64? {
    try db.first("SELECT rowid FROM knowledge WHERE id = ?", [Self.text(id)]) { $0.int64(0) }
  }

  /// Whether `table` (one of the record tables: `knowledge`, `memory`, `task`, `handoff`,
  /// `digest`, `conversation`, `message`, `receipt`, `checkpoint`) holds a record with `id`; false
  /// for any other name.
  package func holdsID(_ id: UUID, inTable table: String) throws(WorkspaceError) -> Bool {
    requireValid()
    let tables: Set<String> = ["knowledge", "memory", "task", "handoff", "digest", "conversation", "message", "receipt", "checkpoint"]
    guard tables.contains(table) else { return false }
    return try db.first("SELECT 1 FROM \(table) WHERE id = ?", [Self.text(id)]) { _ in true } ?? false
  }

  /// The knowledge item with `id`, or nil.
  public func knowledge(id: UUID) throws(WorkspaceError) -> KnowledgeItem? {
    requireValid()
    return try db.first(
      "SELECT \(Self.knowledgeColumns) FROM knowledge WHERE id = ?", [Self.text(id)]
    ) { (row) throws(WorkspaceError) in try knowledgeRow(row) }
  }

  /// Knowledge items by row id (for search results), in the order given; missing rows skipped.
  package func knowledge(rowIDs: [Int64]) throws(WorkspaceError) -> [Int64: KnowledgeItem] {
    var out: [Int64: KnowledgeItem] = [:]
    for r in rowIDs {
      if let item = try db.first(
        "SELECT \(Self.knowledgeColumns) FROM knowledge WHERE rowid = ?", [.integer(r)],
        { (row) throws(WorkspaceError) in try knowledgeRow(row) })
      {
        out[r] = item
      }
    }
    return out
  }

  /// Knowledge items, newest first (by `updatedAt`, then id), optionally filtered.
  /// - Parameters:
  ///   - kinds: keep only these kinds (empty: all).
  ///   - tag: keep only items with this (normalized) tag.
  ///   - limit: at most this many; nil for all.
  public func listKnowledge(
    kinds: [KnowledgeKind] = [], tag: String? = nil, limit: Int? = nil, offset: Int = 0
  ) throws(WorkspaceError) -> [KnowledgeItem] {
    try listKnowledge(
      kinds: kinds, taggedWithAny: tag.map { [$0.trimmingCharacters(in: .whitespaces).lowercased()] },
      limit: limit, offset: offset)
  }

  /// Knowledge items, newest first (by `updatedAt`, then id), optionally filtered.
  /// - Parameters:
  ///   - kinds: keep only these kinds (empty: all).
  ///   - tags: keep only items carrying at least one of these stored tags (each item once);
  ///     nil for no tag filter, `[]` for none at all.
  ///   - limit: at most this many; nil for all.
  package func listKnowledge(
    kinds: [KnowledgeKind] = [], taggedWithAny tags: [String]?, limit: Int? = nil, offset: Int = 0
  ) throws(WorkspaceError) -> [KnowledgeItem] {
    requireValid()
    if let tags, tags.isEmpty { return [] }
    var sql = "SELECT \(Self.knowledgeColumns.split(separator: ",").map { "k." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")) FROM knowledge k"
    var args: [SQLValue] = []
    var clauses: [String] = []
    if let tags {
      sql += " JOIN (SELECT DISTINCT knowledge_rowid FROM knowledge_tag WHERE tag IN ("
        + tags.map { _ in "?" }.joined(separator: ", ") + ")) t ON t.knowledge_rowid = k.rowid"
      args += tags.map { .text($0) }
    }
    if !kinds.isEmpty {
      clauses.append("k.kind IN (" + kinds.map { _ in "?" }.joined(separator: ", ") + ")")
      args += kinds.map { .text($0.rawValue) }
    }
    if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
    sql += " ORDER BY k.updated_at DESC, k.id ASC"
    if let limit {
      sql += " LIMIT ? OFFSET ?"
      args += [.integer(Int64(limit)), .integer(Int64(offset))]
    }
    return try db.all(sql, args) { (row) throws(WorkspaceError) in try knowledgeRow(row) }
  }

  /// Number of knowledge items (of `kind` when given).
  public func knowledgeCount(kind: KnowledgeKind? = nil) throws(WorkspaceError) -> Int {
    requireValid()
    if let kind {
      return Int(try db.integer("SELECT count(*) FROM knowledge WHERE kind = ?", [.text(kind.rawValue)]))
    }
    return Int(try db.integer("SELECT count(*) FROM knowledge"))
  }

  /// Which of `ids` exist as knowledge items.
  public func existingKnowledgeIDs(_ ids: [UUID]) throws(WorkspaceError) -> Set<UUID> {
    var out = Set<UUID>()
    for id in ids where try knowledgeRowID(id) != nil { out.insert(id) }
    return out
  }

  private func checkRelationshipTargets(_ item: KnowledgeItem) throws(WorkspaceError) {
    try checkRelationshipTargets(item.relationships)
  }

  /// Checks that every relationship's target is a stored knowledge item, as inserting or
  /// updating an item with them does.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the first unknown one
  ///   (`relationships[i]`), marked ``ValidationError/missingRecord``.
  package func checkRelationshipTargets(_ relationships: [KnowledgeRelationship]) throws(WorkspaceError) {
    for (i, r) in relationships.enumerated() where try knowledgeRowID(r.targetID) == nil {
      var error = ValidationError.unknownID("relationships[\(i)]", recordType: "knowledge item", id: r.targetID)
      // Relationships join knowledge items only (review 26-a, #7: the id's owner saves a look-up).
      if try holdsID(r.targetID, inTable: "task") {
        error.message += RecordType.task.heldIDNote("a relationship joins knowledge items")
      }
      throw .validation(error)
    }
  }

  /// Refuses a `supersedes` relationship of `item` that is not stored yet and would close a
  /// cycle: the item itself, or an item that already supersedes `item` through a chain. A cycle
  /// leaves no item standing as the successor. Relationships already stored are not checked
  /// again, so an item on a cycle from older data can still be edited.
  /// - Throws: `.validation` naming `relationships[i]`, the two ids and the chain.
  func checkSupersedeCycles(_ item: KnowledgeItem, stored: [KnowledgeRelationship]) throws(WorkspaceError) {
    let added = item.relationships.enumerated().filter { $0.element.kind == .supersedes && !stored.contains($0.element) }
    guard !added.isEmpty else { return }
    // The graph as it will be: the item's stored relationships replaced by its new ones.
    let others = try db.all(
      "SELECT source_id, target_id FROM knowledge_relationship WHERE kind = ? AND source_id != ?",
      [.text(RelationshipKind.supersedes.rawValue), Self.text(item.id)]
    ) { (row) throws(WorkspaceError) in
      (source: try uuid(row, 0, "knowledge_relationship"), target: try uuid(row, 1, "knowledge_relationship"))
    }
    let graph = SupersedeGraph(edges: others)
    for (i, r) in added {
      guard let chain = graph.path(from: r.targetID, to: item.id) else { continue }
      throw .validation(Self.supersedeCycleError("relationships[\(i)]", item: item.id, target: r.targetID, chain: chain))
    }
  }

  /// The refusal of a `supersedes` relationship from `item` to `target` that would close a
  /// cycle, where `chain` leads from `target` back to `item` (`[item]` when they are the same).
  package static func supersedeCycleError(_ field: String, item: UUID, target: UUID, chain: [UUID]) -> ValidationError {
    let cycle = ([item] + chain).map(\.uuidString).joined(separator: " supersedes ")
    let reason =
      item == target
      ? "an item cannot supersede itself"
      : "\(target.uuidString) already supersedes \(item.uuidString)\(chain.count > 2 ? " through a chain" : "")"
    return ValidationError(
      field: field,
      message: "\(field): knowledge item \(item.uuidString) cannot supersede \(target.uuidString): \(reason), "
        + "so this would make a supersede cycle (\(cycle)), in which no item stands as the successor; "
        + "leave this relationship out, or remove the other one first")
  }

  /// Inserts a new knowledge item.
  /// - Returns: its row id (the lexical index's document key).
  /// - Throws: `.validation` for any broken bound, a duplicate id or a relationship to a missing
  ///   item (marked ``ValidationError/missingRecord``) or one that would close a `supersedes`
  ///   cycle; `.capacity` when the workspace already holds `Settings.knowledgeItemLimit` items.
  @discardableResult
  public func insertKnowledge(_ item: KnowledgeItem) throws(WorkspaceError) -> Int64 {
    try requireWritable()
    try requireKnowledgeCapacity(adding: 1)
    return try insertKnowledge(item, capacityChecked: true)
  }

  /// Throws `.capacity` unless `count` more items fit under `Settings.knowledgeItemLimit`.
  public func requireKnowledgeCapacity(adding count: Int) throws(WorkspaceError) {
    let limit = try settings().knowledgeItemLimit
    let held = try knowledgeCount()
    if held + count > limit { throw .capacity(what: .knowledge, limit: limit, held: held, adding: count) }
  }

  /// Inserts an item whose capacity the caller already checked (bulk paths check once).
  @discardableResult
  package func insertKnowledge(_ item: KnowledgeItem, capacityChecked: Bool) throws(WorkspaceError) -> Int64 {
    try requireWritable()
    do { try Limits.validate(item) } catch { throw .validation(error) }
    if !capacityChecked { try requireKnowledgeCapacity(adding: 1) }
    if try knowledgeRowID(item.id) != nil {
      throw .validation(ValidationError(field: "id", message: "a knowledge item with id \(item.id.uuidString) already exists"))
    }
    try checkRelationshipTargets(item)
    try checkSupersedeCycles(item, stored: [])
    try db.run(
      "INSERT INTO knowledge(\(Self.knowledgeColumns.dropFirst(7))) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
      [
        Self.text(item.id), .text(item.kind.rawValue), .text(item.title), .text(item.content),
        .text(item.source.rawValue), Self.json(item.tags), .text(item.priority.rawValue),
        Self.text(item.createdAt), Self.text(item.updatedAt), .integer(Int64(item.revision)),
        Self.text(item.memoryID),
      ])
    let rowid = db.lastInsertRowID
    try writeTagsAndRelationships(item, rowid: rowid)
    return rowid
  }

  /// Writes the tag and relationship rows of `item`, replacing any it had.
  ///
  /// The tag rows of the row id are deleted first even for a row just inserted: an item deleted
  /// by another program (`sqlite3 … "DELETE FROM knowledge …"`) leaves its tag rows behind, and
  /// SQLite gives its row id to the next item inserted, which would otherwise inherit its tags.
  /// Since schema step 0003 (`knowledge_tag_rowid`) that delete is an index lookup, not a scan.
  private func writeTagsAndRelationships(_ item: KnowledgeItem, rowid: Int64) throws(WorkspaceError) {
    try db.run("DELETE FROM knowledge_tag WHERE knowledge_rowid = ?", [.integer(rowid)])
    for t in item.tags {
      try db.run("INSERT OR IGNORE INTO knowledge_tag(tag, knowledge_rowid) VALUES (?, ?)", [.text(t), .integer(rowid)])
    }
    try db.run("DELETE FROM knowledge_relationship WHERE source_id = ?", [Self.text(item.id)])
    for (i, r) in item.relationships.enumerated() {
      try db.run(
        "INSERT INTO knowledge_relationship(source_id, ordinal, kind, target_id) VALUES (?,?,?,?)",
        [Self.text(item.id), .integer(Int64(i)), .text(r.kind.rawValue), Self.text(r.targetID)])
    }
  }

  /// Replaces a stored knowledge item (same id) with `item`.
  /// - Returns: its row id.
  /// - Throws: `.notFound`, `.validation` (a broken bound, a relationship to a missing item,
  ///   a new `supersedes` relationship that would close a cycle).
  @discardableResult
  public func updateKnowledge(_ item: KnowledgeItem) throws(WorkspaceError) -> Int64 {
    try updateKnowledge(item, supersedeCyclesChecked: false)
  }

  /// ``updateKnowledge(_:)`` for a caller that checked the whole `supersedes` graph itself
  /// (an import checks it once, instead of once per item).
  @discardableResult
  package func updateKnowledge(_ item: KnowledgeItem, supersedeCyclesChecked: Bool) throws(WorkspaceError) -> Int64 {
    try requireWritable()
    do { try Limits.validate(item) } catch { throw .validation(error) }
    guard let rowid = try knowledgeRowID(item.id) else {
      throw .notFound(recordType: "knowledge item", id: item.id.uuidString)
    }
    try checkRelationshipTargets(item)
    if !supersedeCyclesChecked { try checkSupersedeCycles(item, stored: try relationships(of: item.id)) }
    try db.run(
      """
      UPDATE knowledge SET kind = ?, title = ?, content = ?, source = ?, tags = ?, priority = ?,
        created_at = ?, updated_at = ?, revision = ?, memory_id = ? WHERE rowid = ?
      """,
      [
        .text(item.kind.rawValue), .text(item.title), .text(item.content), .text(item.source.rawValue),
        Self.json(item.tags), .text(item.priority.rawValue), Self.text(item.createdAt),
        Self.text(item.updatedAt), .integer(Int64(item.revision)), Self.text(item.memoryID),
        .integer(rowid),
      ])
    try writeTagsAndRelationships(item, rowid: rowid)
    return rowid
  }

  /// Deletes the knowledge item `id`, its tags and the relationships it owns. Relationships of
  /// other items that target it, and references from tasks, handoffs and digests, are the
  /// caller's to plan (see KnowledgeEngine's deletion plans).
  /// - Returns: the deleted row id.
  /// - Throws: `.notFound`.
  @discardableResult
  public func deleteKnowledge(id: UUID) throws(WorkspaceError) -> Int64 {
    try requireWritable()
    guard let rowid = try knowledgeRowID(id) else {
      throw .notFound(recordType: "knowledge item", id: id.uuidString)
    }
    try db.run("DELETE FROM knowledge_tag WHERE knowledge_rowid = ?", [.integer(rowid)])
    try db.run("DELETE FROM knowledge_relationship WHERE source_id = ?", [Self.text(id)])
    try db.run("DELETE FROM knowledge WHERE rowid = ?", [.integer(rowid)])
    return rowid
  }

  /// Removes every relationship (of any item) whose target is `id`. Each owner that loses one
  /// is a changed record: its revision goes up by one and its `updatedAt` becomes `now`.
  /// - Returns: how many were removed.
  @discardableResult
  public func removeRelationships(targeting id: UUID, at now: Date) throws(WorkspaceError) -> Int {
    try requireWritable()
    let owners = try db.all(
      "SELECT DISTINCT source_id FROM knowledge_relationship WHERE target_id = ?", [Self.text(id)]
    ) { (row) throws(WorkspaceError) in try uuid(row, 0, "knowledge_relationship") }
    var removed = 0
    for owner in owners {
      guard var item = try knowledge(id: owner) else { continue }
      let before = item.relationships.count
      item.relationships.removeAll { $0.targetID == id }
      guard item.relationships.count < before else { continue }
      removed += before - item.relationships.count
      item.revision += 1
      item.updatedAt = max(now, item.updatedAt)  // A clock that went back never dates it earlier.
      try updateKnowledge(item)
    }
    return removed
  }
}
