import Foundation

extension WorkspaceTransaction {
  /// One page of knowledge items in id order, starting after `id` (keyset pagination).
  ///
  /// Unlike an offset, the position `id` names survives items being added or removed between
  /// pages: no item present on both reads is skipped or repeated. Ids compare as their
  /// upper-case UUID text.
  ///
  /// - Parameters:
  ///   - id: the last id of the previous page, or nil for the first page.
  ///   - limit: at most this many items (at least 1).
  /// - Returns: items whose id sorts after `id`, ascending.
  /// - Throws: storage errors.
  /// - Complexity: one range scan of the unique index on `knowledge.id`, O(log n + limit).
  public func listKnowledge(afterID id: UUID?, limit: Int) throws(WorkspaceError) -> [KnowledgeItem]
  {
    requireValid()
    let bound: SQLValue = id.map { .text($0.uuidString) } ?? .text("")
    return try db.all(
      "SELECT \(Self.knowledgeColumns) FROM knowledge WHERE id > ? ORDER BY id ASC LIMIT ?",
      [bound, .integer(Int64(max(1, limit)))]
    ) { (row) throws(WorkspaceError) in try knowledgeRow(row) }
  }
}
