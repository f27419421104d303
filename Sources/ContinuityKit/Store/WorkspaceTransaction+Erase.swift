import Foundation

// Whole-table operations for erasing a kind of record at once (KnowledgeEngine's erase plans).
// Per-record cascades (relationships, references, digests, index rows) are the caller's to do
// before these run.
extension WorkspaceTransaction {
  /// A record type's table, for erasing and counting.
  package enum EraseTable: String, CaseIterable, Sendable {
    case knowledge, memory, task, handoff, digest, conversation, message, receipt, checkpoint, quarantine
    case legacyImport = "legacy_import"
  }

  /// Ids and row ids of every knowledge item, with the memory each mirrors.
  package func knowledgeIdentities() throws(WorkspaceError) -> [(id: UUID, rowID: Int64, memoryID: UUID?)] {
    requireValid()
    return try db.all("SELECT id, rowid, memory_id FROM knowledge ORDER BY rowid") { (row) throws(WorkspaceError) in
      (try uuid(row, 0, "knowledge"), row.int64(1), optionalUUID(row, 2))
    }
  }

  /// Ids and row ids of every memory, with its knowledge mirror.
  package func memoryIdentities() throws(WorkspaceError) -> [(id: UUID, rowID: Int64, knowledgeID: UUID?)] {
    requireValid()
    return try db.all("SELECT id, rowid, knowledge_id FROM memory ORDER BY rowid") { (row) throws(WorkspaceError) in
      (try uuid(row, 0, "memory"), row.int64(1), optionalUUID(row, 2))
    }
  }

  /// Every id in `table` (not for `quarantine` and `legacy_import`, which have none).
  package func allIDs(_ table: EraseTable) throws(WorkspaceError) -> [UUID] {
    requireValid()
    precondition(table != .quarantine && table != .legacyImport, "\(table) rows have no UUID")
    return try db.all("SELECT id FROM \(table.rawValue) ORDER BY rowid") { (row) throws(WorkspaceError) in
      try uuid(row, 0, table.rawValue)
    }
  }

  /// Number of rows in `table`.
  package func rowCount(_ table: EraseTable) throws(WorkspaceError) -> Int {
    requireValid()
    return Int(try db.integer("SELECT count(*) FROM \(table.rawValue)"))
  }

  /// Ids of the digests citing any of `ids` as evidence.
  package func digestIDs(citingAny ids: some Sequence<UUID>) throws(WorkspaceError) -> Set<UUID> {
    requireValid()
    var out = Set<UUID>()
    for id in ids {
      for d in try digests(citing: id) { out.insert(d) }
    }
    return out
  }

  /// Deletes every row of `table`, with the side tables that belong to it (a knowledge item's
  /// tags and relationships, a digest's evidence index).
  package func deleteAllRows(_ table: EraseTable) throws(WorkspaceError) {
    try requireWritable()
    switch table {
    case .knowledge:
      try db.run("DELETE FROM knowledge_tag")
      try db.run("DELETE FROM knowledge_relationship")
    case .digest:
      try db.run("DELETE FROM digest_evidence")
    case .handoff:
      try setMeta("activeHandoffID", nil)
    default:
      break
    }
    try db.run("DELETE FROM \(table.rawValue)")
  }

  /// Removes the relationships of other items whose target is one of `ids` (without touching
  /// the owners' revisions).
  package func deleteRelationships(targetingAny ids: some Sequence<UUID>) throws(WorkspaceError) {
    try requireWritable()
    for id in ids { try db.run("DELETE FROM knowledge_relationship WHERE target_id = ?", [Self.text(id)]) }
  }

  /// Clears the user's settings (back to the defaults) and the active-handoff marker.
  package func clearSettingsAndMarkers() throws(WorkspaceError) {
    try setMeta("settings", nil)
    try setMeta("activeHandoffID", nil)
  }

  /// Names of the persisted search-index tables the database holds: those of
  /// ``WorkspaceSchema/lexicalTables`` that are there (an older schema lacks the later ones).
  /// Never another table whose name starts with `lexical_`: a user's own `lexical_notes` was
  /// emptied by `dolphin erase --kind all` when this matched the prefix (review 26-b, 9).
  package func lexicalTables() throws(WorkspaceError) -> [String] {
    requireValid()
    let names = WorkspaceSchema.lexicalTables
    let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
    return try db.all(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (\(placeholders)) ORDER BY name",
      names.map { .text($0) }
    ) { $0.text(0) }
  }

  /// Empties every search-index table. Safe whatever the index holds: the index is derived and
  /// is rebuilt from the records as they are written again.
  package func clearLexicalIndex() throws(WorkspaceError) {
    try requireWritable()
    for table in try lexicalTables() where table != "lexical_stats" {
      try db.run("DELETE FROM " + ShellWord.sqlIdentifier(table))
    }
    // The statistics row stays (the index writers update it in place), reset to empty.
    if try lexicalTables().contains("lexical_stats") {
      try db.run("UPDATE lexical_stats SET document_count = 0, title_length = 0, tags_length = 0, content_length = 0")
    }
  }

  /// Removes vocabulary rows no posting uses any more (a term is a copy of stored text), and
  /// their trigrams. A no-op when the index tables are absent.
  ///
  /// - Complexity: one posting-index probe per vocabulary term (postings are keyed by term
  ///   first), then one pass over the trigrams against the remaining vocabulary — never a scan
  ///   of every posting, so a single deletion stays fast in a large workspace.
  package func pruneUnusedLexicalTerms() throws(WorkspaceError) {
    try requireWritable()
    let tables = Set(try lexicalTables())
    guard tables.isSuperset(of: ["lexical_term", "lexical_posting"]) else { return }
    try db.run(
      """
      DELETE FROM lexical_term WHERE NOT EXISTS
        (SELECT 1 FROM lexical_posting p WHERE p.term_id = lexical_term.term_id)
      """)
    if tables.contains("lexical_trigram") {
      try db.run("DELETE FROM lexical_trigram WHERE term_id NOT IN (SELECT term_id FROM lexical_term)")
    }
  }

  /// Every recorded legacy import (file name, sha256, backup path), oldest first.
  public func listLegacyImports() throws(WorkspaceError) -> [LegacyImportRecord] {
    requireValid()
    return try db.all(
      "SELECT sha256, file_name, backup_path, source_version, imported_at FROM legacy_import ORDER BY imported_at, sha256"
    ) { (row) throws(WorkspaceError) in
      LegacyImportRecord(
        sha256: row.text(0), fileName: row.text(1), backupPath: row.text(2), sourceVersion: row.int(3),
        importedAt: try date(row, 4, "legacy_import.imported_at"))
    }
  }
}
