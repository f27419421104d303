import Foundation

/// A collection of which a workspace keeps only the newest records: digests, chat messages,
/// activity receipts and run checkpoints (``Limits/digestsKept``, ``Limits/messagesKept``,
/// ``Limits/receiptsKept``, ``Limits/checkpointsKept``).
///
/// *Newest* is by date — a digest's, message's or checkpoint's `createdAt`, a receipt's
/// `startedAt` — then, at equal dates, by the order the records were stored. Storing one past
/// the bound drops the oldest others; an import keeps the newest across the workspace's records
/// and the file's (review 19-b, F1: it dropped the workspace's newest records to make room for a
/// file's older ones, since the store dropped the earliest stored).
public enum KeptCollection: String, Sendable, Equatable, CaseIterable {
  case digests
  case messages
  case receipts
  case checkpoints

  /// How many records the workspace keeps.
  public var limit: Int {
    switch self {
    case .digests: Limits.digestsKept
    case .messages: Limits.messagesKept
    case .receipts: Limits.receiptsKept
    case .checkpoints: Limits.checkpointsKept
    }
  }

  /// The table of its records.
  var table: String {
    switch self {
    case .digests: "digest"
    case .messages: "message"
    case .receipts: "receipt"
    case .checkpoints: "checkpoint"
    }
  }

  /// The column that dates a record: fixed-width UTC ISO 8601 text (``ISO8601/string(from:)``),
  /// whose text order is its time order.
  var dateColumn: String { self == .receipts ? "started_at" : "created_at" }
}

extension WorkspaceTransaction {
  /// The records of `collection`, oldest first, in the order retention drops them: by date, then
  /// by the order they were stored.
  /// - Returns: each record's id and date (a receipt's `startedAt`).
  public func retentionOrder(_ collection: KeptCollection) throws(WorkspaceError) -> [(id: UUID, date: Date)] {
    requireValid()
    return try db.all(
      "SELECT id, \(collection.dateColumn) FROM \(collection.table) ORDER BY \(collection.dateColumn), rowid"
    ) { (row) throws(WorkspaceError) in
      (id: try uuid(row, 0, collection.table), date: try date(row, 1, "\(collection.table).\(collection.dateColumn)"))
    }
  }

  /// Removes the records of `collection` with these ids (a digest with its evidence rows); ids
  /// not stored are passed over.
  public func removeKept(_ collection: KeptCollection, ids: [UUID]) throws(WorkspaceError) {
    try requireWritable()
    for id in ids {
      if collection == .digests {
        if try digest(id: id) != nil { try deleteDigest(id: id) }
      } else {
        try db.run("DELETE FROM \(collection.table) WHERE id = ?", [Self.text(id)])
      }
    }
  }

  /// The query ``pruneOldest(_:sparing:)`` reads the ids to drop with: the oldest rows but the one
  /// of rowid `?1`, at most `?2` of them, oldest first.
  package static func pruneSQL(_ collection: KeptCollection) -> String {
    "SELECT id FROM \(collection.table) WHERE rowid <> ? ORDER BY \(collection.dateColumn), rowid LIMIT ?"
  }

  /// Drops the oldest records of `collection` beyond its ``KeptCollection/limit`` (oldest as in
  /// ``retentionOrder(_:)``), never the row `stored` — the one just stored, which a clock set back
  /// would otherwise date before all the others.
  /// - Returns: the ids dropped.
  @discardableResult
  func pruneOldest(_ collection: KeptCollection, sparing stored: Int64) throws(WorkspaceError) -> [UUID] {
    // Counted first: most writes leave the bound unreached.
    let count = try db.integer("SELECT count(*) FROM \(collection.table)")
    guard count > Int64(collection.limit) else { return [] }
    // The `count − limit` oldest rows other than `stored` (the rest are its `limit − 1` newest
    // others and `stored` itself), read from the front of the date index (schema step 0008)
    // instead of sorting the table.
    let excess = try db.all(
      Self.pruneSQL(collection), [.integer(stored), .integer(count - Int64(collection.limit))]
    ) { (row) throws(WorkspaceError) in try uuid(row, 0, collection.table) }
    try removeKept(collection, ids: excess)
    return excess
  }
}
