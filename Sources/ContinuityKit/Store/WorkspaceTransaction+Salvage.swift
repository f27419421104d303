import Foundation

extension WorkspaceTransaction {
  /// Everything an export carries, reading past records that cannot be decoded: every record
  /// that can be is in `workspace` (and `quarantine`) as ``snapshot()`` and ``listQuarantine()``
  /// give it; each one that cannot — a ``WorkspaceError/damaged(file:message:)`` from its
  /// decoding: malformed JSON, an unknown name, an id or date that does not parse — is left out
  /// of them and returned as stored in `unreadable` (review 29-a, 8: one such row made every
  /// export fail, so none of the data could be taken out). Unreadable settings give the
  /// defaults in `workspace`, and an unreadable record in `unreadable`.
  /// - Returns: the readable records, the readable quarantine entries, and the others, table by
  ///   table (knowledge, memory, task, handoff, digest, conversation, message, receipt,
  ///   checkpoint, quarantine, settings).
  /// - Throws: storage errors, and a damaged database file (an SQLite error while reading rows
  ///   stops the read, as for ``snapshot()``).
  /// - Complexity: as ``snapshot()``, plus one indexed read per unreadable record.
  public func salvagedSnapshot() throws(WorkspaceError) -> (
    workspace: AssistantWorkspace, quarantine: [QuarantineEntry], unreadable: [WorkspaceExport.UnreadableRecord]
  ) {
    requireValid()
    var unreadable: [WorkspaceExport.UnreadableRecord] = []
    /// The rows of `sql` decoded; `rowID` is the column holding each row's `rowid`.
    func salvage<T>(
      _ table: String, _ collection: String, _ sql: String, rowID: Int32,
      _ decode: (SQLRow) throws(WorkspaceError) -> T
    ) throws(WorkspaceError) -> [T] {
      var failed: [(rowID: Int64, reason: String)] = []
      let rows = try db.all(sql) { (row) throws(WorkspaceError) -> T? in
        do throws(WorkspaceError) {
          return try decode(row)
        } catch {
          guard case .damaged(_, let message) = error else { throw error }
          failed.append((row.int64(rowID), message))
          return nil
        }
      }
      // Read after the scan: its statement is done, and the raw read cannot disturb it.
      for f in failed {
        unreadable.append(try unreadableRow(table, collection, rowID: f.rowID, reason: f.reason))
      }
      return rows.compactMap { $0 }
    }
    let knowledge = try salvage("knowledge", "knowledge", "SELECT \(Self.knowledgeColumns) FROM knowledge ORDER BY id", rowID: 0) {
      (row) throws(WorkspaceError) in try knowledgeRow(row)
    }
    let memories = try salvage("memory", "memories", "SELECT \(Self.memoryColumns) FROM memory ORDER BY id", rowID: 0) {
      (row) throws(WorkspaceError) in try memoryRow(row)
    }
    let tasks = try salvage("task", "tasks", "SELECT \(try taskColumns()) FROM task ORDER BY id", rowID: 0) {
      (row) throws(WorkspaceError) in try taskRow(row)
    }
    let handoffs = try salvage("handoff", "handoffs", "SELECT \(Self.handoffColumns) FROM handoff ORDER BY id", rowID: 0) {
      (row) throws(WorkspaceError) in try handoffRow(row)
    }
    let digests = try salvage("digest", "digests", "SELECT \(Self.digestColumns) FROM digest ORDER BY id", rowID: 0) {
      (row) throws(WorkspaceError) in try digestRow(row)
    }
    // These read `rowid` after their own columns, whose places their decoders fix.
    let conversations = try salvage(
      "conversation", "conversations", "SELECT \(Self.conversationColumns), rowid FROM conversation ORDER BY created_at, id",
      rowID: 4
    ) { (row) throws(WorkspaceError) in try conversationRow(row) }
    let messages = try salvage("message", "messages", "SELECT \(Self.messageColumns), rowid FROM message ORDER BY rowid", rowID: 5) {
      (row) throws(WorkspaceError) in try messageRow(row)
    }
    let receipts = try salvage(
      "receipt", "receipts", "SELECT \(Self.receiptColumns), rowid FROM receipt ORDER BY started_at, rowid", rowID: 11
    ) { (row) throws(WorkspaceError) in try receiptRow(row) }
    let checkpoints = try salvage(
      "checkpoint", "checkpoints", "SELECT \(Self.checkpointColumns), rowid FROM checkpoint ORDER BY rowid", rowID: 6
    ) { (row) throws(WorkspaceError) in try checkpointRow(row) }
    let quarantine = try salvage(
      "quarantine", "quarantine", "SELECT \(Self.quarantineColumns), rowid FROM quarantine ORDER BY rowid", rowID: 6
    ) { (row) throws(WorkspaceError) in try quarantineRow(row) }
    var settings = Settings.default
    do throws(WorkspaceError) {
      settings = try self.settings()
    } catch {
      guard case .damaged(_, let message) = error else { throw error }
      unreadable.append(
        .init(table: "meta", collection: "settings", id: "settings", reason: message, columns: ["value": try meta("settings")]))
    }
    let workspace = AssistantWorkspace(
      knowledge: knowledge, memories: memories, tasks: tasks, handoffs: handoffs, digests: digests,
      conversations: conversations, messages: messages, settings: settings, receipts: receipts,
      checkpoints: checkpoints, activeHandoffID: try activeHandoffID())
    return (workspace, quarantine, unreadable)
  }

  /// The row `rowID` of `table` as stored, every column as text (NULL as nil); a knowledge item
  /// with its relationship rows as a JSON list (`relationships`).
  private func unreadableRow(_ table: String, _ collection: String, rowID: Int64, reason: String)
    throws(WorkspaceError) -> WorkspaceExport.UnreadableRecord
  {
    var columns: [String: String?] = [:]
    // `table` is one of the names above, never input.
    try db.query("SELECT * FROM \(table) WHERE rowid = ?", [.integer(rowID)]) { (row) throws(WorkspaceError) in
      for i in 0..<row.columnCount { columns[row.columnName(i)] = row.optionalText(i) }
    }
    let storedID = columns["id"].flatMap { $0 }
    let id = table == "quarantine" ? String(rowID) : storedID ?? ""
    if table == "knowledge", let storedID {
      columns["relationships"] = try db.first(
        """
        SELECT json_group_array(json_object('kind', CAST(kind AS TEXT), 'targetID', CAST(target_id AS TEXT), 'ordinal', ordinal))
        FROM (SELECT kind, target_id, ordinal FROM knowledge_relationship WHERE source_id = ? ORDER BY ordinal)
        """, [.text(storedID)]
      ) { $0.text(0) }
    }
    return .init(table: table, collection: collection, id: id, reason: reason, columns: columns)
  }
}
