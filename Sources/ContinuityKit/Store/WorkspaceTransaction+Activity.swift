import Foundation

// Digests, conversations, messages, receipts, checkpoints; legacy bookkeeping; snapshots.
extension WorkspaceTransaction {
  // MARK: Digests

  static let digestColumns = "rowid, id, created_at, trigger, sections, algorithm, algorithm_version"

  func digestRow(_ row: SQLRow) throws(WorkspaceError) -> Digest {
    Digest(
      id: try uuid(row, 1, "digest"), createdAt: try date(row, 2, "digest.created_at"),
      trigger: try decodeJSON(DigestTrigger.self, row, 3, "digest.trigger"),
      sections: try decodeJSON(DigestSections.self, row, 4, "digest.sections"),
      algorithm: row.text(5), algorithmVersion: row.text(6))
  }

  /// Stored digests, newest first: by `createdAt`, then the last stored first (as retention
  /// orders them, ``retentionOrder(_:)``).
  public func listDigests() throws(WorkspaceError) -> [Digest] {
    requireValid()
    return try db.all("SELECT \(Self.digestColumns) FROM digest ORDER BY created_at DESC, rowid DESC") {
      (row) throws(WorkspaceError) in try digestRow(row)
    }
  }

  /// The digest with `id`, or nil.
  public func digest(id: UUID) throws(WorkspaceError) -> Digest? {
    requireValid()
    return try db.first("SELECT \(Self.digestColumns) FROM digest WHERE id = ?", [Self.text(id)]) {
      (row) throws(WorkspaceError) in try digestRow(row)
    }
  }

  /// Stores a digest and prunes the oldest others beyond ``Limits/digestsKept`` (by
  /// `createdAt`, then storage order: ``KeptCollection``).
  /// - Returns: ids of digests pruned.
  @discardableResult
  public func insertDigest(_ digest: Digest) throws(WorkspaceError) -> [UUID] {
    try requireWritable()
    try db.run(
      "INSERT INTO digest(id, created_at, trigger, sections, algorithm, algorithm_version) VALUES (?,?,?,?,?,?)",
      [Self.text(digest.id), Self.text(digest.createdAt), Self.json(digest.trigger), Self.json(digest.sections),
       .text(digest.algorithm), .text(digest.algorithmVersion)])
    let stored = db.lastInsertRowID
    for e in digest.evidenceIDs {
      try db.run("INSERT OR IGNORE INTO digest_evidence(evidence_id, digest_id) VALUES (?, ?)", [Self.text(e), Self.text(digest.id)])
    }
    return try pruneOldest(.digests, sparing: stored)
  }

  /// Ids of stored digests that cite `evidenceID`.
  public func digests(citing evidenceID: UUID) throws(WorkspaceError) -> [UUID] {
    requireValid()
    return try db.all(
      "SELECT digest_id FROM digest_evidence WHERE evidence_id = ? ORDER BY digest_id", [Self.text(evidenceID)]
    ) { (row) throws(WorkspaceError) in try uuid(row, 0, "digest_evidence") }
  }

  /// Deletes a digest. - Throws: `.notFound`.
  public func deleteDigest(id: UUID) throws(WorkspaceError) {
    try requireWritable()
    try db.run("DELETE FROM digest_evidence WHERE digest_id = ?", [Self.text(id)])
    if try db.run("DELETE FROM digest WHERE id = ?", [Self.text(id)]) == 0 {
      throw .notFound(recordType: "digest", id: id.uuidString)
    }
  }

  /// Number of stored digests.
  public func digestCount() throws(WorkspaceError) -> Int {
    requireValid()
    return Int(try db.integer("SELECT count(*) FROM digest"))
  }

  // MARK: Conversations and messages

  /// The columns ``conversationRow(_:)`` reads, in its order.
  static let conversationColumns = "id, title, created_at, updated_at"

  func conversationRow(_ row: SQLRow) throws(WorkspaceError) -> Conversation {
    Conversation(
      id: try uuid(row, 0, "conversation"), title: row.text(1),
      createdAt: try date(row, 2, "conversation.created_at"), updatedAt: try date(row, 3, "conversation.updated_at"))
  }

  /// All conversations, oldest first.
  public func listConversations() throws(WorkspaceError) -> [Conversation] {
    requireValid()
    return try db.all("SELECT \(Self.conversationColumns) FROM conversation ORDER BY created_at, id") {
      (row) throws(WorkspaceError) in try conversationRow(row)
    }
  }

  /// Inserts a conversation.
  /// - Throws: `.validation` for a title over ``Limits/title``, or an id a stored conversation
  ///   has (named as for memories and tasks, not SQLite's constraint error).
  public func insertConversation(_ c: Conversation) throws(WorkspaceError) {
    try requireWritable()
    do { try Limits.check("conversation title", c.title, limit: Limits.title) } catch { throw .validation(error) }
    try requireNewID(c.id, table: "conversation", noun: "a conversation")
    try db.run(
      "INSERT INTO conversation(id, title, created_at, updated_at) VALUES (?,?,?,?)",
      [Self.text(c.id), .text(c.title), Self.text(c.createdAt), Self.text(c.updatedAt)])
  }

  /// The columns ``messageRow(_:)`` reads, in its order.
  static let messageColumns = "id, conversation_id, role, text, created_at"

  func messageRow(_ row: SQLRow) throws(WorkspaceError) -> ChatMessage {
    ChatMessage(
      id: try uuid(row, 0, "message"), conversationID: try uuid(row, 1, "message.conversation_id"),
      role: try enumValue(ChatRole.self, row, 2, "message.role", idColumn: 0), text: row.text(3),
      createdAt: try date(row, 4, "message.created_at"))
  }

  /// Messages in insertion order (all conversations, or one).
  public func listMessages(conversationID: UUID? = nil) throws(WorkspaceError) -> [ChatMessage] {
    requireValid()
    var sql = "SELECT \(Self.messageColumns) FROM message"
    var args: [SQLValue] = []
    if let conversationID {
      sql += " WHERE conversation_id = ?"
      args.append(Self.text(conversationID))
    }
    sql += " ORDER BY rowid"
    return try db.all(sql, args) { (row) throws(WorkspaceError) in try messageRow(row) }
  }

  /// Adds a new message to its conversation: inserts it (as ``insertMessage(_:)`` does, pruning
  /// the oldest beyond ``Limits/messagesKept``) and moves the conversation's `updatedAt` to the
  /// message's `createdAt` when that is later, in this transaction, so the conversation says
  /// when it last changed. A clock that went back never moves `updatedAt` back.
  ///
  /// For messages being written now (a chat session). Imports and migrations, which carry
  /// conversations with the `updatedAt` they had, use ``insertMessage(_:)``.
  /// - Throws: `.validation` for a text over ``Limits/content`` characters; `.notFound` when no
  ///   conversation has the message's `conversationID` (nothing is written: the caller's
  ///   transaction rolls back).
  public func appendMessage(_ m: ChatMessage) throws(WorkspaceError) {
    try insertMessage(m)
    let touched = try db.run(
      "UPDATE conversation SET updated_at = max(updated_at, ?) WHERE id = ?",
      [Self.text(m.createdAt), Self.text(m.conversationID)])
    if touched == 0 { throw .notFound(recordType: "conversation", id: m.conversationID.uuidString) }
  }

  /// Inserts a message as given and prunes the oldest others beyond ``Limits/messagesKept`` (by
  /// `createdAt`, then storage order: ``KeptCollection``); the conversation is left as it is (see
  /// ``appendMessage(_:)`` for a new message).
  public func insertMessage(_ m: ChatMessage) throws(WorkspaceError) {
    try requireWritable()
    do { try Limits.check("message text", m.text, limit: Limits.content) } catch { throw .validation(error) }
    try requireNewID(m.id, table: "message", noun: "a message")
    try db.run(
      "INSERT INTO message(id, conversation_id, role, text, created_at) VALUES (?,?,?,?,?)",
      [Self.text(m.id), Self.text(m.conversationID), .text(m.role.rawValue), .text(m.text), Self.text(m.createdAt)])
    try pruneOldest(.messages, sparing: db.lastInsertRowID)
  }

  // MARK: Receipts and checkpoints

  /// Receipts, oldest first: by the time each call started, then in the order they were stored.
  ///
  /// Concurrent calls (two MCP clients, or one client's calls that overlap) store their receipts
  /// when each finishes, so storage order alone can put a later call first.
  public func listReceipts() throws(WorkspaceError) -> [ActivityReceipt] {
    requireValid()
    // `started_at` is always written as fixed-width UTC ISO 8601 (`ISO8601.string(from:)`), so
    // its text order is its time order.
    return try db.all("SELECT \(Self.receiptColumns) FROM receipt ORDER BY started_at, rowid") {
      (row) throws(WorkspaceError) in try receiptRow(row)
    }
  }

  /// The columns ``receiptRow(_:)`` reads, in its order.
  static let receiptColumns =
    "id, call_id, tool, risk, arguments, outcome, changed_ids, started_at, finished_at, approval, message"

  func receiptRow(_ row: SQLRow) throws(WorkspaceError) -> ActivityReceipt {
    ActivityReceipt(
      id: try uuid(row, 0, "receipt"), callID: row.text(1), tool: row.text(2), risk: row.text(3),
      arguments: row.text(4), outcome: try enumValue(ReceiptOutcome.self, row, 5, "receipt.outcome", idColumn: 0),
      changedIDs: try decodeJSON([UUID].self, row, 6, "receipt.changed_ids", idColumn: 0),
      startedAt: try date(row, 7, "receipt.started_at"), finishedAt: try date(row, 8, "receipt.finished_at"),
      approval: row.optionalText(9), message: row.text(10))
  }

  /// Appends a receipt and prunes the oldest others beyond ``Limits/receiptsKept`` (by
  /// `startedAt`, then storage order: ``KeptCollection``).
  /// - Throws: `.validation` for an id a stored receipt has.
  public func insertReceipt(_ r: ActivityReceipt) throws(WorkspaceError) {
    try requireWritable()
    try requireNewID(r.id, table: "receipt", noun: "a receipt")
    try db.run(
      "INSERT INTO receipt(id, call_id, tool, risk, arguments, outcome, changed_ids, started_at, finished_at, approval, message) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
      [Self.text(r.id), .text(r.callID), .text(r.tool), .text(r.risk), .text(r.arguments), .text(r.outcome.rawValue),
       Self.json(r.changedIDs), Self.text(r.startedAt), Self.text(r.finishedAt), r.approval.map { .text($0) } ?? .null,
       .text(r.message)])
    try pruneOldest(.receipts, sparing: db.lastInsertRowID)
  }

  /// The columns ``checkpointRow(_:)`` reads, in its order.
  static let checkpointColumns = "id, run_id, step, state, note, created_at"

  func checkpointRow(_ row: SQLRow) throws(WorkspaceError) -> RunCheckpoint {
    RunCheckpoint(
      id: try uuid(row, 0, "checkpoint"), runID: try uuid(row, 1, "checkpoint.run_id"), step: row.int(2),
      state: row.text(3), note: row.text(4), createdAt: try date(row, 5, "checkpoint.created_at"))
  }

  /// Checkpoints, oldest first.
  public func listCheckpoints() throws(WorkspaceError) -> [RunCheckpoint] {
    requireValid()
    return try db.all("SELECT \(Self.checkpointColumns) FROM checkpoint ORDER BY rowid") {
      (row) throws(WorkspaceError) in try checkpointRow(row)
    }
  }

  /// Appends a checkpoint and prunes the oldest others beyond ``Limits/checkpointsKept`` (by
  /// `createdAt`, then storage order: ``KeptCollection``).
  /// - Throws: `.validation` for an id a stored checkpoint has.
  public func insertCheckpoint(_ c: RunCheckpoint) throws(WorkspaceError) {
    try requireWritable()
    try requireNewID(c.id, table: "checkpoint", noun: "a checkpoint")
    try db.run(
      "INSERT INTO checkpoint(id, run_id, step, state, note, created_at) VALUES (?,?,?,?,?,?)",
      [Self.text(c.id), Self.text(c.runID), .integer(Int64(c.step)), .text(c.state), .text(c.note), Self.text(c.createdAt)])
    try pruneOldest(.checkpoints, sparing: db.lastInsertRowID)
  }

  /// Refuses `id` when a row of `table` (one of the activity tables, named by this file's
  /// callers, never by input) has it: `a receipt with id … already exists`, as for memories and
  /// tasks (review 18-c, C3: migrating a legacy file whose conversations were stored already
  /// failed with SQLite's "UNIQUE constraint failed: conversation.id").
  private func requireNewID(_ id: UUID, table: String, noun: String) throws(WorkspaceError) {
    if try db.first("SELECT 1 FROM \(table) WHERE id = ?", [Self.text(id)], { $0.int64(0) }) != nil {
      throw .validation(ValidationError(field: "id", message: "\(noun) with id \(id.uuidString) already exists"))
    }
  }

  // MARK: Legacy bookkeeping

  /// A record kept aside verbatim because it failed validation during an import.
  public struct QuarantineEntry: Sendable, Equatable, Codable {
    public var sourceFile: String
    public var collection: String
    public var recordIndex: Int
    public var reason: String
    public var raw: String
    public var quarantinedAt: Date

    public init(sourceFile: String, collection: String, recordIndex: Int, reason: String, raw: String, quarantinedAt: Date) {
      self.sourceFile = sourceFile
      self.collection = collection
      self.recordIndex = recordIndex
      self.reason = reason
      self.raw = raw
      self.quarantinedAt = quarantinedAt
    }
  }

  /// Keeps a record aside verbatim.
  public func insertQuarantine(_ q: QuarantineEntry) throws(WorkspaceError) {
    try requireWritable()
    try db.run(
      "INSERT INTO quarantine(source_file, collection, record_index, reason, raw, quarantined_at) VALUES (?,?,?,?,?,?)",
      [.text(q.sourceFile), .text(q.collection), .integer(Int64(q.recordIndex)), .text(q.reason), .text(q.raw),
       Self.text(q.quarantinedAt)])
  }

  /// The latest `limit` records kept aside, and how many there are: shown in insertion order,
  /// or with `byImport`, by import (time, then file), then collection, then place in the file —
  /// the order `dolphin quarantine` shows (review 28-c, 13: it printed every entry, raw text
  /// whole; review 28-d, 2: the latest are kept, so what the last import set aside is shown).
  public func listQuarantine(limit: Int, byImport: Bool) throws(WorkspaceError) -> (entries: [QuarantineEntry], total: Int) {
    requireValid()
    let order = byImport ? "quarantined_at, source_file, collection, record_index, rowid" : "rowid"
    let descending = order.split(separator: ",").map { "\($0) DESC" }.joined(separator: ",")
    let entries = try db.all(
      "SELECT source_file, collection, record_index, reason, raw, quarantined_at FROM quarantine ORDER BY \(descending) LIMIT ?",
      [.integer(Int64(max(0, limit)))]
    ) { (row) throws(WorkspaceError) in
      QuarantineEntry(
        sourceFile: row.text(0), collection: row.text(1), recordIndex: row.int(2), reason: row.text(3),
        raw: row.text(4), quarantinedAt: try date(row, 5, "quarantine.quarantined_at"))
    }
    return (entries.reversed(), Int(try db.integer("SELECT count(*) FROM quarantine")))
  }

  /// The columns ``quarantineRow(_:)`` reads, in its order.
  static let quarantineColumns = "source_file, collection, record_index, reason, raw, quarantined_at"

  func quarantineRow(_ row: SQLRow) throws(WorkspaceError) -> QuarantineEntry {
    QuarantineEntry(
      sourceFile: row.text(0), collection: row.text(1), recordIndex: row.int(2), reason: row.text(3),
      raw: row.text(4), quarantinedAt: try date(row, 5, "quarantine.quarantined_at"))
  }

  /// Records kept aside, in insertion order.
  public func listQuarantine() throws(WorkspaceError) -> [QuarantineEntry] {
    requireValid()
    return try db.all("SELECT \(Self.quarantineColumns) FROM quarantine ORDER BY rowid") {
      (row) throws(WorkspaceError) in try quarantineRow(row)
    }
  }

  /// A legacy file already imported, identified by its sha256.
  public struct LegacyImportRecord: Sendable, Equatable, Codable {
    public var sha256: String
    public var fileName: String
    public var backupPath: String
    public var sourceVersion: Int
    public var importedAt: Date

    public init(sha256: String, fileName: String, backupPath: String, sourceVersion: Int, importedAt: Date) {
      self.sha256 = sha256
      self.fileName = fileName
      self.backupPath = backupPath
      self.sourceVersion = sourceVersion
      self.importedAt = importedAt
    }
  }

  /// The import of the file with this sha256, if it happened.
  public func legacyImport(sha256: String) throws(WorkspaceError) -> LegacyImportRecord? {
    requireValid()
    return try db.first(
      "SELECT sha256, file_name, backup_path, source_version, imported_at FROM legacy_import WHERE sha256 = ?",
      [.text(sha256)]
    ) { (row) throws(WorkspaceError) in
      LegacyImportRecord(
        sha256: row.text(0), fileName: row.text(1), backupPath: row.text(2), sourceVersion: row.int(3),
        importedAt: try date(row, 4, "legacy_import.imported_at"))
    }
  }

  /// The legacy import recorded last, if any.
  public func latestLegacyImport() throws(WorkspaceError) -> LegacyImportRecord? {
    try latestLegacyImport(named: nil)
  }

  /// The most recent legacy import of a file named `fileName` (its last path component, as
  /// recorded), or of any file when nil.
  public func latestLegacyImport(named fileName: String?) throws(WorkspaceError) -> LegacyImportRecord? {
    requireValid()
    return try db.first(
      "SELECT sha256, file_name, backup_path, source_version, imported_at FROM legacy_import "
        + (fileName == nil ? "" : "WHERE file_name = ? ") + "ORDER BY rowid DESC LIMIT 1",
      fileName.map { [.text($0)] } ?? []
    ) { (row) throws(WorkspaceError) in
      LegacyImportRecord(
        sha256: row.text(0), fileName: row.text(1), backupPath: row.text(2), sourceVersion: row.int(3),
        importedAt: try date(row, 4, "legacy_import.imported_at"))
    }
  }

  /// Records that the file with this sha256 was imported.
  public func recordLegacyImport(_ r: LegacyImportRecord) throws(WorkspaceError) {
    try requireWritable()
    try db.run(
      "INSERT INTO legacy_import(sha256, file_name, backup_path, source_version, imported_at) VALUES (?,?,?,?,?)",
      [.text(r.sha256), .text(r.fileName), .text(r.backupPath), .integer(Int64(r.sourceVersion)), Self.text(r.importedAt)])
  }

  // MARK: Whole workspace

  /// Record counts by type, for `status`.
  public func counts() throws(WorkspaceError) -> [String: Int] {
    requireValid()
    var out: [String: Int] = [:]
    for table in ["knowledge", "memory", "task", "handoff", "digest", "conversation", "message", "receipt",
                  "checkpoint", "quarantine"] {
      out[table] = Int(try db.integer("SELECT count(*) FROM \(table)"))
    }
    return out
  }

  /// The whole workspace as one value (for export and tests). Lists are in stable orders:
  /// knowledge, memories, tasks, handoffs and digests by id; activity in insertion order.
  public func snapshot() throws(WorkspaceError) -> AssistantWorkspace {
    requireValid()
    return AssistantWorkspace(
      knowledge: try db.all("SELECT \(Self.knowledgeColumns) FROM knowledge ORDER BY id") {
        (row) throws(WorkspaceError) in try knowledgeRow(row)
      },
      memories: try db.all("SELECT \(Self.memoryColumns) FROM memory ORDER BY id") {
        (row) throws(WorkspaceError) in try memoryRow(row)
      },
      tasks: try db.all("SELECT \(try taskColumns()) FROM task ORDER BY id") {
        (row) throws(WorkspaceError) in try taskRow(row)
      },
      handoffs: try db.all("SELECT \(Self.handoffColumns) FROM handoff ORDER BY id") {
        (row) throws(WorkspaceError) in try handoffRow(row)
      },
      digests: try db.all("SELECT \(Self.digestColumns) FROM digest ORDER BY id") {
        (row) throws(WorkspaceError) in try digestRow(row)
      },
      conversations: try listConversations(),
      messages: try listMessages(),
      settings: try settings(),
      receipts: try listReceipts(),
      checkpoints: try listCheckpoints(),
      activeHandoffID: try activeHandoffID())
  }
}
