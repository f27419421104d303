import Foundation

// Lookups by id and in-place replacement for the record types that had only insert and list:
// what an import needs to tell "same", "new" and "conflicting" apart and to apply `replace`.
extension WorkspaceTransaction {
  /// The conversation with `id`, or nil.
  public func conversation(id: UUID) throws(WorkspaceError) -> Conversation? {
    requireValid()
    return try db.first(
      "SELECT id, title, created_at, updated_at FROM conversation WHERE id = ?", [Self.text(id)]
    ) { (row) throws(WorkspaceError) in
      Conversation(
        id: try uuid(row, 0, "conversation"), title: row.text(1),
        createdAt: try date(row, 2, "conversation.created_at"), updatedAt: try date(row, 3, "conversation.updated_at"))
    }
  }

  /// Replaces a stored conversation (same id). - Throws: `.notFound`, `.validation`.
  public func updateConversation(_ c: Conversation) throws(WorkspaceError) {
    try requireWritable()
    do { try Limits.check("conversation title", c.title, limit: Limits.title) } catch { throw .validation(error) }
    let n = try db.run(
      "UPDATE conversation SET title = ?, created_at = ?, updated_at = ? WHERE id = ?",
      [.text(c.title), Self.text(c.createdAt), Self.text(c.updatedAt), Self.text(c.id)])
    if n == 0 { throw .notFound(recordType: "conversation", id: c.id.uuidString) }
  }

  /// The chat message with `id`, or nil.
  public func message(id: UUID) throws(WorkspaceError) -> ChatMessage? {
    requireValid()
    return try db.first(
      "SELECT id, conversation_id, role, text, created_at FROM message WHERE id = ?", [Self.text(id)]
    ) { (row) throws(WorkspaceError) in
      ChatMessage(
        id: try uuid(row, 0, "message"), conversationID: try uuid(row, 1, "message.conversation_id"),
        role: try enumValue(ChatRole.self, row, 2, "message.role", idColumn: 0), text: row.text(3),
        createdAt: try date(row, 4, "message.created_at"))
    }
  }

  /// Replaces a stored message in place (it keeps its position). - Throws: `.notFound`,
  /// `.validation`.
  public func updateMessage(_ m: ChatMessage) throws(WorkspaceError) {
    try requireWritable()
    do { try Limits.check("message text", m.text, limit: Limits.content) } catch { throw .validation(error) }
    let n = try db.run(
      "UPDATE message SET conversation_id = ?, role = ?, text = ?, created_at = ? WHERE id = ?",
      [Self.text(m.conversationID), .text(m.role.rawValue), .text(m.text), Self.text(m.createdAt), Self.text(m.id)])
    if n == 0 { throw .notFound(recordType: "message", id: m.id.uuidString) }
  }

  /// The receipt with `id`, or nil.
  public func receipt(id: UUID) throws(WorkspaceError) -> ActivityReceipt? {
    requireValid()
    return try listReceipts(where: "id = ?", [Self.text(id)]).first
  }

  func listReceipts(where clause: String, _ args: [SQLValue]) throws(WorkspaceError) -> [ActivityReceipt] {
    try db.all("SELECT \(Self.receiptColumns) FROM receipt WHERE \(clause) ORDER BY rowid", args) {
      (row) throws(WorkspaceError) in try receiptRow(row)
    }
  }

  /// Replaces a stored receipt in place. - Throws: `.notFound`.
  public func updateReceipt(_ r: ActivityReceipt) throws(WorkspaceError) {
    try requireWritable()
    let n = try db.run(
      "UPDATE receipt SET call_id = ?, tool = ?, risk = ?, arguments = ?, outcome = ?, changed_ids = ?, started_at = ?, finished_at = ?, approval = ?, message = ? WHERE id = ?",
      [.text(r.callID), .text(r.tool), .text(r.risk), .text(r.arguments), .text(r.outcome.rawValue),
       Self.json(r.changedIDs), Self.text(r.startedAt), Self.text(r.finishedAt), r.approval.map { .text($0) } ?? .null,
       .text(r.message), Self.text(r.id)])
    if n == 0 { throw .notFound(recordType: "receipt", id: r.id.uuidString) }
  }

  /// The run checkpoint with `id`, or nil.
  public func checkpoint(id: UUID) throws(WorkspaceError) -> RunCheckpoint? {
    requireValid()
    return try db.first(
      "SELECT id, run_id, step, state, note, created_at FROM checkpoint WHERE id = ?", [Self.text(id)]
    ) { (row) throws(WorkspaceError) in
      RunCheckpoint(
        id: try uuid(row, 0, "checkpoint"), runID: try uuid(row, 1, "checkpoint.run_id"), step: row.int(2),
        state: row.text(3), note: row.text(4), createdAt: try date(row, 5, "checkpoint.created_at"))
    }
  }

  /// Replaces a stored checkpoint in place. - Throws: `.notFound`.
  public func updateCheckpoint(_ c: RunCheckpoint) throws(WorkspaceError) {
    try requireWritable()
    let n = try db.run(
      "UPDATE checkpoint SET run_id = ?, step = ?, state = ?, note = ?, created_at = ? WHERE id = ?",
      [Self.text(c.runID), .integer(Int64(c.step)), .text(c.state), .text(c.note), Self.text(c.createdAt), Self.text(c.id)])
    if n == 0 { throw .notFound(recordType: "checkpoint", id: c.id.uuidString) }
  }

  /// Replaces a stored digest (same id) and its evidence index. - Throws: `.notFound`.
  public func updateDigest(_ digest: Digest) throws(WorkspaceError) {
    try requireWritable()
    let n = try db.run(
      "UPDATE digest SET created_at = ?, trigger = ?, sections = ?, algorithm = ?, algorithm_version = ? WHERE id = ?",
      [Self.text(digest.createdAt), Self.json(digest.trigger), Self.json(digest.sections), .text(digest.algorithm),
       .text(digest.algorithmVersion), Self.text(digest.id)])
    if n == 0 { throw .notFound(recordType: "digest", id: digest.id.uuidString) }
    try db.run("DELETE FROM digest_evidence WHERE digest_id = ?", [Self.text(digest.id)])
    for e in digest.evidenceIDs {
      try db.run("INSERT OR IGNORE INTO digest_evidence(evidence_id, digest_id) VALUES (?, ?)", [Self.text(e), Self.text(digest.id)])
    }
  }

  /// Replaces a stored memory (same id).
  /// - Returns: its row id (the lexical index's document key, negated).
  /// - Throws: `.notFound`, `.validation`.
  @discardableResult
  public func updateMemory(_ memory: MemoryItem) throws(WorkspaceError) -> Int64 {
    try requireWritable()
    do { try Limits.validate(memory) } catch { throw .validation(error) }
    guard let rowid = try memoryRowID(memory.id) else { throw .notFound(recordType: "memory", id: memory.id.uuidString) }
    try db.run(
      "UPDATE memory SET text = ?, tags = ?, created_at = ?, knowledge_id = ? WHERE rowid = ?",
      [.text(memory.text), Self.json(memory.tags), Self.text(memory.createdAt), Self.text(memory.knowledgeID),
       .integer(rowid)])
    return rowid
  }

  /// Whether the settings were ever stored (otherwise ``settings()`` returns the defaults).
  public func hasStoredSettings() throws(WorkspaceError) -> Bool {
    try meta("settings") != nil
  }

  /// True when the workspace holds no record of any type (settings aside).
  public func holdsNoRecords() throws(WorkspaceError) -> Bool {
    requireValid()
    for table in Self.recordTables where try db.integer("SELECT EXISTS (SELECT 1 FROM \(table))") != 0 {
      return false
    }
    return true
  }

  /// Every table that holds user records (derived and bookkeeping tables aside).
  static let recordTables = [
    "knowledge", "memory", "task", "handoff", "digest", "conversation", "message", "receipt", "checkpoint",
  ]
}
