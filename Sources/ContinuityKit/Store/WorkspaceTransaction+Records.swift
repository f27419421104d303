import Foundation

// Memories, tasks and handoffs.
extension WorkspaceTransaction {
  // MARK: Memories

  static let memoryColumns = "rowid, id, text, tags, created_at, knowledge_id"

  func memoryRow(_ row: SQLRow) throws(WorkspaceError) -> MemoryItem {
    MemoryItem(
      id: try uuid(row, 1, "memory"), text: row.text(2),
      tags: try decodeJSON([String].self, row, 3, "memory.tags"),
      createdAt: try date(row, 4, "memory.created_at"), knowledgeID: optionalUUID(row, 5))
  }

  package func memoryRowID(_ id: UUID) throws(WorkspaceError) -> Int64? {
    try db.first("SELECT rowid FROM memory WHERE id = ?", [Self.text(id)]) { $0.int64(0) }
  }

  /// The memory with `id`, or nil.
  public func memory(id: UUID) throws(WorkspaceError) -> MemoryItem? {
    requireValid()
    return try db.first("SELECT \(Self.memoryColumns) FROM memory WHERE id = ?", [Self.text(id)]) {
      (row) throws(WorkspaceError) in try memoryRow(row)
    }
  }

  /// Memories by row id.
  package func memories(rowIDs: [Int64]) throws(WorkspaceError) -> [Int64: MemoryItem] {
    var out: [Int64: MemoryItem] = [:]
    for r in rowIDs {
      if let m = try db.first(
        "SELECT \(Self.memoryColumns) FROM memory WHERE rowid = ?", [.integer(r)],
        { (row) throws(WorkspaceError) in try memoryRow(row) })
      {
        out[r] = m
      }
    }
    return out
  }

  /// Memories, newest first (then by id).
  public func listMemories(limit: Int? = nil) throws(WorkspaceError) -> [MemoryItem] {
    requireValid()
    var sql = "SELECT \(Self.memoryColumns) FROM memory ORDER BY created_at DESC, id ASC"
    var args: [SQLValue] = []
    if let limit {
      sql += " LIMIT ?"
      args.append(.integer(Int64(limit)))
    }
    return try db.all(sql, args) { (row) throws(WorkspaceError) in try memoryRow(row) }
  }

  /// Number of memories.
  public func memoryCount() throws(WorkspaceError) -> Int {
    requireValid()
    return Int(try db.integer("SELECT count(*) FROM memory"))
  }

  /// Inserts a memory.
  /// - Returns: its row id.
  /// - Throws: `.validation`, `.capacity` at ``Limits/memories``.
  @discardableResult
  public func insertMemory(_ memory: MemoryItem) throws(WorkspaceError) -> Int64 {
    try requireWritable()
    do { try Limits.validate(memory) } catch { throw .validation(error) }
    let memories = try memoryCount()
    if memories >= Limits.memories { throw .capacity(what: .memories, limit: Limits.memories, held: memories, adding: 1) }
    if try memoryRowID(memory.id) != nil {
      throw .validation(ValidationError(field: "id", message: "a memory with id \(memory.id.uuidString) already exists"))
    }
    try db.run(
      "INSERT INTO memory(id, text, tags, created_at, knowledge_id) VALUES (?,?,?,?,?)",
      [Self.text(memory.id), .text(memory.text), Self.json(memory.tags), Self.text(memory.createdAt),
       Self.text(memory.knowledgeID)])
    return db.lastInsertRowID
  }

  /// Sets or clears a memory's forward reference to its knowledge mirror.
  public func setMemoryKnowledgeID(_ memoryID: UUID, _ knowledgeID: UUID?) throws(WorkspaceError) {
    try requireWritable()
    let n = try db.run("UPDATE memory SET knowledge_id = ? WHERE id = ?", [Self.text(knowledgeID), Self.text(memoryID)])
    if n == 0 { throw .notFound(recordType: "memory", id: memoryID.uuidString) }
  }

  /// The memories whose `knowledgeID` names `knowledgeID`, in id order (normally none or one:
  /// the memory a `legacyMemory` item mirrors).
  package func memories(linkingTo knowledgeID: UUID) throws(WorkspaceError) -> [UUID] {
    requireValid()
    return try db.all("SELECT id FROM memory WHERE knowledge_id = ? ORDER BY id", [Self.text(knowledgeID)]) {
      (row) throws(WorkspaceError) in try uuid(row, 0, "memory")
    }
  }

  /// The knowledge items of source `legacyMemory` whose `memoryID` names `memoryID` — the
  /// memory's mirrors (normally one) — in id order. Reads the partial index
  /// `knowledge_memory_mirror`.
  package func mirrors(ofMemory memoryID: UUID) throws(WorkspaceError) -> [UUID] {
    requireValid()
    return try db.all(
      "SELECT id FROM knowledge WHERE memory_id = ? AND source = 'legacyMemory' ORDER BY id", [Self.text(memoryID)]
    ) { (row) throws(WorkspaceError) in try uuid(row, 0, "knowledge") }
  }

  /// Every knowledge item that names a memory in its `memoryID`: its id, source (raw value) and
  /// that memory. Reads the partial index `knowledge_memory_mirror`.
  package func knowledgeMemoryLinks() throws(WorkspaceError) -> [(id: UUID, source: String, memoryID: UUID)] {
    requireValid()
    return try db.all("SELECT id, source, memory_id FROM knowledge WHERE memory_id IS NOT NULL") {
      (row) throws(WorkspaceError) in
      (try uuid(row, 0, "knowledge"), row.text(1), try uuid(row, 2, "knowledge.memory_id"))
    }
  }

  /// Deletes a memory.
  /// - Returns: its row id. - Throws: `.notFound`.
  @discardableResult
  public func deleteMemory(id: UUID) throws(WorkspaceError) -> Int64 {
    try requireWritable()
    guard let rowid = try memoryRowID(id) else { throw .notFound(recordType: "memory", id: id.uuidString) }
    try db.run("DELETE FROM memory WHERE rowid = ?", [.integer(rowid)])
    return rowid
  }

  // MARK: Tasks

  /// The columns ``taskRow(_:)`` reads, in its order; the last is ``taskUpdatedAtSQL()``.
  func taskColumns() throws(WorkspaceError) -> String {
    "rowid, id, title, notes, status, priority, created_at, completed_at, knowledge_ids, " + (try taskUpdatedAtSQL())
  }

  func taskRow(_ row: SQLRow) throws(WorkspaceError) -> TaskItem {
    TaskItem(
      id: try uuid(row, 1, "task"), title: row.text(2), notes: row.text(3),
      status: try enumValue(TaskStatus.self, row, 4, "task.status", idColumn: 1),
      priority: try enumValue(Priority.self, row, 5, "task.priority", idColumn: 1),
      createdAt: try date(row, 6, "task.created_at"), completedAt: optionalDate(row, 7),
      updatedAt: try date(row, 9, "task.updated_at"),
      knowledgeIDs: try decodeJSON([UUID].self, row, 8, "task.knowledge_ids"))
  }

  /// The task with `id`, or nil.
  public func task(id: UUID) throws(WorkspaceError) -> TaskItem? {
    requireValid()
    return try db.first("SELECT \(try taskColumns()) FROM task WHERE id = ?", [Self.text(id)]) {
      (row) throws(WorkspaceError) in try taskRow(row)
    }
  }

  /// Appends `LIMIT ? OFFSET ?` for a page of at most `limit` rows (nil: no bound, which SQLite
  /// spells `LIMIT -1`) after the first `offset` (a negative one counts as 0); nothing when
  /// neither bounds the rows.
  static func appendPage(limit: Int?, offset: Int, to sql: inout String, _ args: inout [SQLValue]) {
    guard limit != nil || offset > 0 else { return }
    sql += " LIMIT ?"
    args.append(.integer(Int64(limit ?? -1)))
    if offset > 0 {
      sql += " OFFSET ?"
      args.append(.integer(Int64(offset)))
    }
  }

  /// Tasks: open before completed, then priority (highest first), then oldest first, then id.
  /// - Parameters:
  ///   - status: only tasks with this status; nil lists both.
  ///   - limit: at most this many (the first in that order); nil lists all.
  ///   - offset: how many to skip first, in that order (0, the default, skips none): a page
  ///     that starts where an earlier one stopped.
  public func listTasks(status: TaskStatus? = nil, limit: Int? = nil, offset: Int = 0) throws(WorkspaceError) -> [TaskItem] {
    requireValid()
    var sql = "SELECT \(try taskColumns()) FROM task"
    var args: [SQLValue] = []
    if let status {
      sql += " WHERE status = ?"
      args.append(.text(status.rawValue))
    }
    sql += " ORDER BY " + Self.taskListKey("")
    Self.appendPage(limit: limit, offset: offset, to: &sql, &args)
    return try db.all(sql, args) { (row) throws(WorkspaceError) in try taskRow(row) }
  }

  /// The order of ``listTasks(status:limit:offset:)``, as SQL: open before completed, then
  /// priority (highest first), then oldest first, then id, each ascending, of the columns of the
  /// table named `qualifier` (`"t."`; `""` for none). One expression for the listing and for
  /// the positions found in it (``tasksChangedListSpan(after:skippingLatest:)``), so they cannot
  /// disagree.
  /// With `descending`, each term is `DESC`: the order reversed.
  static func taskListKey(_ qualifier: String, descending: Bool = false) -> String {
    let order = descending ? " DESC" : ""
    return [
      "CASE \(qualifier)status WHEN 'open' THEN 0 ELSE 1 END",
      "CASE \(qualifier)priority WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END",
      "\(qualifier)created_at", "\(qualifier)id",
    ].map { $0 + order }.joined(separator: ", ")
  }

  /// Number of tasks (with `status` when given).
  public func taskCount(status: TaskStatus? = nil) throws(WorkspaceError) -> Int {
    requireValid()
    if let status {
      return Int(try db.integer("SELECT count(*) FROM task WHERE status = ?", [.text(status.rawValue)]))
    }
    return Int(try db.integer("SELECT count(*) FROM task"))
  }

  /// Inserts a task.
  /// - Throws: `.validation` (bounds, duplicate id; an unknown knowledge id, marked
  ///   ``ValidationError/missingRecord``), `.capacity`.
  public func insertTask(_ task: TaskItem) throws(WorkspaceError) {
    try requireWritable()
    do { try Limits.validate(task) } catch { throw .validation(error) }
    let tasks = try taskCount()
    if tasks >= Limits.tasks { throw .capacity(what: .tasks, limit: Limits.tasks, held: tasks, adding: 1) }
    if try self.task(id: task.id) != nil {
      throw .validation(ValidationError(field: "id", message: "a task with id \(task.id.uuidString) already exists"))
    }
    try checkKnowledgeIDs(task.knowledgeIDs, field: "knowledgeIDs")
    try db.run(
      "INSERT INTO task(id, title, notes, status, priority, created_at, completed_at, updated_at, knowledge_ids) VALUES (?,?,?,?,?,?,?,?,?)",
      [Self.text(task.id), .text(task.title), .text(task.notes), .text(task.status.rawValue),
       .text(task.priority.rawValue), Self.text(task.createdAt), Self.text(task.completedAt), Self.text(task.updatedAt),
       Self.json(task.knowledgeIDs)])
  }

  /// Replaces a stored task (same id).
  /// - Throws: `.notFound`, `.validation`.
  public func updateTask(_ task: TaskItem) throws(WorkspaceError) {
    try requireWritable()
    do { try Limits.validate(task) } catch { throw .validation(error) }
    try checkKnowledgeIDs(task.knowledgeIDs, field: "knowledgeIDs")
    let n = try db.run(
      "UPDATE task SET title = ?, notes = ?, status = ?, priority = ?, created_at = ?, completed_at = ?, updated_at = ?, knowledge_ids = ? WHERE id = ?",
      [.text(task.title), .text(task.notes), .text(task.status.rawValue), .text(task.priority.rawValue),
       Self.text(task.createdAt), Self.text(task.completedAt), Self.text(task.updatedAt), Self.json(task.knowledgeIDs),
       Self.text(task.id)])
    if n == 0 { throw .notFound(recordType: "task", id: task.id.uuidString) }
  }

  /// Deletes a task. - Throws: `.notFound`.
  public func deleteTask(id: UUID) throws(WorkspaceError) {
    try requireWritable()
    let n = try db.run("DELETE FROM task WHERE id = ?", [Self.text(id)])
    if n == 0 { throw .notFound(recordType: "task", id: id.uuidString) }
  }

  /// Tasks whose knowledge ids include `knowledgeID`.
  public func tasks(referencing knowledgeID: UUID) throws(WorkspaceError) -> [TaskItem] {
    try listTasks().filter { $0.knowledgeIDs.contains(knowledgeID) }
  }

  /// Checks that every id of `ids` is a stored knowledge item.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the first unknown one (`field[i]`),
  ///   marked ``ValidationError/missingRecord``.
  ///   When the id is a task's, the message says so (review 26-a, #7), and names `taskField`
  ///   when the call has a list for tasks: `knowledgeIDs[0]: no knowledge item has the id …
  ///   (it is a task's id; give it as taskIDs)`.
  package func checkKnowledgeIDs(_ ids: [UUID], field: String, taskField: String? = nil) throws(WorkspaceError) {
    for (i, id) in ids.enumerated() where try knowledgeRowID(id) == nil {
      var error = ValidationError.unknownID("\(field)[\(i)]", recordType: "knowledge item", id: id)
      if try holdsID(id, inTable: "task") {
        error.message += RecordType.task.heldIDNote(taskField.map { "give it as \($0)" }, expected: .knowledge)
      }
      throw .validation(error)
    }
  }

  // MARK: Handoffs

  /// Checks that a handoff's references exist: every id of `knowledgeIDs` a knowledge item, every
  /// id of `taskIDs` a task.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the first unknown one
  ///   (`knowledgeIDs[i]`, `taskIDs[i]`).
  ///   An id that belongs to the other list is said to (review 26-a, #7): `knowledgeIDs[0]: no
  ///   knowledge item has the id … (it is a task's id; give it as taskIDs)`, and the reverse.
  public func checkHandoffReferences(knowledgeIDs: [UUID], taskIDs: [UUID]) throws(WorkspaceError) {
    try checkKnowledgeIDs(knowledgeIDs, field: "knowledgeIDs", taskField: "taskIDs")
    for (i, id) in taskIDs.enumerated() where try task(id: id) == nil {
      var error = ValidationError.unknownID("taskIDs[\(i)]", recordType: "task", id: id)
      if try knowledgeRowID(id) != nil { error.message += RecordType.knowledge.heldIDNote("give it as knowledgeIDs") }
      throw .validation(error)
    }
  }

  static let handoffColumns =
    "rowid, id, focus, summary, next_steps, knowledge_ids, task_ids, recent_excerpts, created_at, restored_at"

  func handoffRow(_ row: SQLRow) throws(WorkspaceError) -> Handoff {
    Handoff(
      id: try uuid(row, 1, "handoff"), focus: row.text(2), summary: row.text(3),
      nextSteps: try decodeJSON([String].self, row, 4, "handoff.next_steps"),
      knowledgeIDs: try decodeJSON([UUID].self, row, 5, "handoff.knowledge_ids"),
      taskIDs: try decodeJSON([UUID].self, row, 6, "handoff.task_ids"),
      recentExcerpts: try decodeJSON([String].self, row, 7, "handoff.recent_excerpts"),
      createdAt: try date(row, 8, "handoff.created_at"), restoredAt: optionalDate(row, 9))
  }

  package func handoffRowID(_ id: UUID) throws(WorkspaceError) -> Int64? {
    try db.first("SELECT rowid FROM handoff WHERE id = ?", [Self.text(id)]) { $0.int64(0) }
  }

  /// The handoff with `id`, or nil.
  public func handoff(id: UUID) throws(WorkspaceError) -> Handoff? {
    requireValid()
    return try db.first("SELECT \(Self.handoffColumns) FROM handoff WHERE id = ?", [Self.text(id)]) {
      (row) throws(WorkspaceError) in try handoffRow(row)
    }
  }

  /// Handoffs, newest first (then id); at most `limit` of them when it is given, after the
  /// first `offset` in that order (0, the default, skips none).
  public func listHandoffs(limit: Int? = nil, offset: Int = 0) throws(WorkspaceError) -> [Handoff] {
    requireValid()
    var sql = "SELECT \(Self.handoffColumns) FROM handoff ORDER BY created_at DESC, id ASC"
    var args: [SQLValue] = []
    Self.appendPage(limit: limit, offset: offset, to: &sql, &args)
    return try db.all(sql, args) { (row) throws(WorkspaceError) in try handoffRow(row) }
  }

  /// Inserts a handoff.
  /// - Throws: `.validation` (bounds, duplicate id; unknown knowledge or task ids, marked
  ///   ``ValidationError/missingRecord``), `.capacity`.
  public func insertHandoff(_ handoff: Handoff) throws(WorkspaceError) {
    try requireWritable()
    do { try Limits.validate(handoff) } catch { throw .validation(error) }
    let count = Int(try db.integer("SELECT count(*) FROM handoff"))
    if count >= Limits.handoffs { throw .capacity(what: .handoffs, limit: Limits.handoffs, held: count, adding: 1) }
    if try handoffRowID(handoff.id) != nil {
      throw .validation(ValidationError(field: "id", message: "a handoff with id \(handoff.id.uuidString) already exists"))
    }
    try checkHandoffReferences(knowledgeIDs: handoff.knowledgeIDs, taskIDs: handoff.taskIDs)
    try db.run(
      "INSERT INTO handoff(id, focus, summary, next_steps, knowledge_ids, task_ids, recent_excerpts, created_at, restored_at) VALUES (?,?,?,?,?,?,?,?,?)",
      [Self.text(handoff.id), .text(handoff.focus), .text(handoff.summary), Self.json(handoff.nextSteps),
       Self.json(handoff.knowledgeIDs), Self.json(handoff.taskIDs), Self.json(handoff.recentExcerpts),
       Self.text(handoff.createdAt), Self.text(handoff.restoredAt)])
  }

  /// Replaces a stored handoff (same id). - Throws: `.notFound`, `.validation`.
  public func updateHandoff(_ handoff: Handoff) throws(WorkspaceError) {
    try requireWritable()
    do { try Limits.validate(handoff) } catch { throw .validation(error) }
    let n = try db.run(
      "UPDATE handoff SET focus = ?, summary = ?, next_steps = ?, knowledge_ids = ?, task_ids = ?, recent_excerpts = ?, created_at = ?, restored_at = ? WHERE id = ?",
      [.text(handoff.focus), .text(handoff.summary), Self.json(handoff.nextSteps), Self.json(handoff.knowledgeIDs),
       Self.json(handoff.taskIDs), Self.json(handoff.recentExcerpts), Self.text(handoff.createdAt),
       Self.text(handoff.restoredAt), Self.text(handoff.id)])
    if n == 0 { throw .notFound(recordType: "handoff", id: handoff.id.uuidString) }
  }

  /// Deletes a handoff and clears the active marker when it pointed at it.
  /// - Throws: `.notFound`.
  public func deleteHandoff(id: UUID) throws(WorkspaceError) {
    try requireWritable()
    let n = try db.run("DELETE FROM handoff WHERE id = ?", [Self.text(id)])
    if n == 0 { throw .notFound(recordType: "handoff", id: id.uuidString) }
    if try activeHandoffID() == id { try setMeta("activeHandoffID", nil) }
  }

  /// Number of handoffs.
  public func handoffCount() throws(WorkspaceError) -> Int {
    requireValid()
    return Int(try db.integer("SELECT count(*) FROM handoff"))
  }
}
