import Foundation

/// Schema step 0006: the tags of knowledge items and memories brought to the form every write
/// path stores today.
///
/// Before the import normalized tags (it only sanitized them), an import, or a legacy
/// migration whose tags differed only by invisible characters, could store tags such as
/// `" Storage "`, `"SQLITE"` beside `"sqlite"`, or one holding a line break. A `--tag` filter —
/// which is normalized — never matched them, and an item holding a line break or tab in a tag
/// could not be revised (its tags fail validation). Each tag list becomes
/// ``normalized(_:)``: tags are only ever rewritten, and two tags merge only when they were the
/// same tag in today's form; no item is removed and no other field changes (not `updatedAt`,
/// not `revision`: this is a change of form, not an edit).
///
/// The search index is derived from the tags, and the tokenizer lives above this module: every
/// document whose tags changed is listed in `lexical_stale`, and KnowledgeEngine indexes those
/// documents again (`KnowledgeEngine.reindexStaleDocuments()`; `reindex` rebuilds everything).
package enum TagNormalizationStep {
  /// The step's name in `schema_migration`.
  package static let name = "0006-normalize-stored-tags"

  /// The table of documents (a knowledge row id, or a negated memory row id — the lexical
  /// index's document keys) whose index entries no longer match their record.
  package static let sql = "CREATE TABLE lexical_stale (doc INTEGER PRIMARY KEY);"

  /// `tags` in the stored form: each tag sanitized (``Sanitizer/sanitize(_:)``: NFC, invisible
  /// and control characters dropped), each run of line breaks and tabs inside it folded into
  /// one space (capture refuses such tags; stored ones are kept readable instead), then
  /// trimmed, lowercased and deduplicated in first-seen order (``Limits/normalizeTags(_:)``),
  /// blank tags dropped. Tags longer than ``Limits/tagLength`` are kept whole: nothing is cut.
  package static func normalized(_ tags: [String]) -> [String] {
    Limits.normalizeTags(tags.map { foldingLineBreaks(Sanitizer.sanitize($0)) })
  }

  /// `text` with each run of line breaks and tabs replaced by one space.
  static func foldingLineBreaks(_ text: String) -> String {
    guard text.contains(where: { $0.isNewline || $0 == "\t" }) else { return text }
    var out = ""
    var inRun = false
    for ch in text {
      if ch.isNewline || ch == "\t" {
        if !inRun { out.append(" ") }
        inRun = true
      } else {
        out.append(ch)
        inRun = false
      }
    }
    return out
  }

  /// Rewrites every tag list that ``normalized(_:)`` changes, inside the step's transaction: the
  /// `tags` column and `knowledge_tag` rows of knowledge items, the `tags` column of memories,
  /// and a `lexical_stale` row for each. A tag list that is not valid JSON is left as it is
  /// (reading that record reports it as damaged, as before; nothing is dropped).
  /// - Returns: how many knowledge items and memories were rewritten.
  @discardableResult
  package static func apply(_ conn: SQLiteConnection) throws(WorkspaceError) -> (knowledge: Int, memories: Int) {
    func rewrites(_ table: String) throws(WorkspaceError) -> [(rowID: Int64, tags: [String])] {
      let rows = try conn.all("SELECT rowid, tags FROM \(table) ORDER BY rowid") { ($0.int64(0), $0.text(1)) }
      return rows.compactMap { rowID, json in
        guard let stored = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { return nil }
        let normal = normalized(stored)
        return normal == stored ? nil : (rowID, normal)
      }
    }
    func encoded(_ tags: [String]) throws(WorkspaceError) -> SQLValue {
      do { return .text(try StableJSON.string(tags)) } catch {
        throw .storage(file: conn.displayName, code: 0, message: "cannot encode tags: \(error)")
      }
    }
    let knowledge = try rewrites("knowledge")
    for (rowID, tags) in knowledge {
      try conn.run("UPDATE knowledge SET tags = ? WHERE rowid = ?", [try encoded(tags), .integer(rowID)])
      try conn.run("DELETE FROM knowledge_tag WHERE knowledge_rowid = ?", [.integer(rowID)])
      for tag in tags {
        try conn.run("INSERT OR IGNORE INTO knowledge_tag(tag, knowledge_rowid) VALUES (?, ?)", [.text(tag), .integer(rowID)])
      }
      try conn.run("INSERT OR IGNORE INTO lexical_stale(doc) VALUES (?)", [.integer(rowID)])
    }
    let memories = try rewrites("memory")
    for (rowID, tags) in memories {
      try conn.run("UPDATE memory SET tags = ? WHERE rowid = ?", [try encoded(tags), .integer(rowID)])
      try conn.run("INSERT OR IGNORE INTO lexical_stale(doc) VALUES (?)", [.integer(-rowID)])
    }
    return (knowledge.count, memories.count)
  }
}
