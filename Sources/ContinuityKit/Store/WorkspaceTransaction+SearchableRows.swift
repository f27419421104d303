import Foundation

/// The fields the search index is built from, of one knowledge item or one legacy memory, read
/// straight from its row (no relationships, no revision): what a full index rebuild needs of
/// every record.
package struct SearchableRow: Sendable, Equatable {
  /// The row id in `knowledge` or `memory` (the search index keys documents by it).
  package var rowID: Int64
  /// The record's id.
  package var id: UUID
  /// The knowledge kind; nil for a memory.
  package var kind: KnowledgeKind?
  /// The title; empty for a memory.
  package var title: String
  /// The stored tags.
  package var tags: [String]
  /// The content; a memory's text.
  package var content: String
  /// `updatedAt`; a memory's `createdAt`.
  package var updatedAt: Date
  /// The knowledge source; nil for a memory.
  package var source: KnowledgeSource?
}

extension WorkspaceTransaction {
  /// One page of knowledge items' searchable fields in row id order, after `rowID` (keyset
  /// pagination, one query).
  /// - Parameters:
  ///   - rowID: the last row id of the previous page, or 0 for the first.
  ///   - limit: at most this many rows (at least 1).
  ///   - skippingMalformedIDs: leave out the rows whose id is not a UUID (a check that reads
  ///     around them: ``malformedIDs(limit:)`` names them) instead of throwing for them.
  /// - Throws: ``WorkspaceError/damaged(file:message:)`` for a malformed id (unless skipped),
  ///   kind, source, date or tag list, as the full record readers do; storage errors.
  package func searchableKnowledge(afterRowID rowID: Int64, limit: Int, skippingMalformedIDs: Bool = false)
    throws(WorkspaceError) -> [SearchableRow]
  {
    requireValid()
    let decoder = StableJSON.decoder()
    return try db.all(
      """
      SELECT rowid, id, kind, title, content, source, tags, updated_at FROM knowledge
        WHERE rowid > ?\(Self.wellFormedIDFilter(skippingMalformedIDs)) ORDER BY rowid LIMIT ?
      """,
      [.integer(rowID), .integer(Int64(max(1, limit)))]
    ) { (row) throws(WorkspaceError) in
      SearchableRow(
        rowID: row.int64(0), id: try uuid(row, 1, "knowledge"),
        kind: try enumValue(KnowledgeKind.self, row, 2, "knowledge.kind", idColumn: 1), title: row.text(3),
        tags: try tagList(row, 6, "knowledge.tags", decoder, idColumn: 1), content: row.text(4),
        updatedAt: try date(row, 7, "knowledge.updated_at"),
        source: try enumValue(KnowledgeSource.self, row, 5, "knowledge.source", idColumn: 1))
    }
  }

  /// One page of memories' searchable fields in row id order, after `rowID`; see
  /// ``searchableKnowledge(afterRowID:limit:skippingMalformedIDs:)``.
  package func searchableMemories(afterRowID rowID: Int64, limit: Int, skippingMalformedIDs: Bool = false)
    throws(WorkspaceError) -> [SearchableRow]
  {
    requireValid()
    let decoder = StableJSON.decoder()
    return try db.all(
      "SELECT rowid, id, text, tags, created_at FROM memory WHERE rowid > ?\(Self.wellFormedIDFilter(skippingMalformedIDs)) "
        + "ORDER BY rowid LIMIT ?",
      [.integer(rowID), .integer(Int64(max(1, limit)))]
    ) { (row) throws(WorkspaceError) in
      SearchableRow(
        rowID: row.int64(0), id: try uuid(row, 1, "memory"), kind: nil, title: "",
        tags: try tagList(row, 3, "memory.tags", decoder, idColumn: 1), content: row.text(2),
        updatedAt: try date(row, 4, "memory.created_at"), source: nil)
    }
  }

  /// The SQL condition (`AND …`) that keeps only rows whose `id` is a UUID, as
  /// ``malformedIDs(limit:)`` tells them apart; empty when `skipping` is false. Filtering in the
  /// query keeps keyset pagination exact: a page's last row is always one that was read.
  private static func wellFormedIDFilter(_ skipping: Bool) -> String {
    skipping ? " AND typeof(id) = 'text' AND id GLOB '\(uuidGlob)'" : ""
  }

  /// A stored tag list (a JSON array of strings), decoded with one reused decoder; an error
  /// names the record by its id at `idColumn`.
  private func tagList(_ row: SQLRow, _ i: Int32, _ column: String, _ decoder: JSONDecoder, idColumn: Int32)
    throws(WorkspaceError) -> [String]
  {
    let text = row.text(i)
    if text == "[]" { return [] }
    do {
      return try decoder.decode([String].self, from: Data(text.utf8))
    } catch {
      throw .damaged(
        file: db.displayName, message: Self.malformedRecordMessage(column, id: row.text(idColumn), stored: text))
    }
  }
}
