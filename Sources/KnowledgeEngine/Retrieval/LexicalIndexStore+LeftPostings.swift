import ContinuityKit
import Foundation

/// Postings left in the index by a document entry that another program deleted
/// (`sqlite3 workspace.sqlite "DELETE FROM lexical_document WHERE …"`): `lexical_document`
/// lists a document's terms, and removing a document goes by that list, so such postings stay
/// behind under the document's key. When that key is given out again (SQLite reuses the largest
/// row id once its row is gone) or its record is indexed again, writing the new postings failed
/// on `lexical_posting`'s primary key (term, document) with SQLite's bare `UNIQUE constraint
/// failed`, and the capture, memory save, bulk capture or import was refused.
///
/// `lexical_posting` is keyed by (term, document) with no index on the document alone, so
/// finding a key's postings without its term list reads the whole table: too slow to do before
/// every write. The write paths therefore write as usual inside a savepoint and, only when a
/// posting of the keys they write is already there, roll back to it, remove every posting left
/// under those keys (one pass over the table) and write again, inside the caller's transaction.
extension LexicalIndexStore {
  /// The savepoint the write paths open around their index rows.
  static let leftPostingsSavepoint = "lexical_index_write"

  /// Runs `write`, which writes index rows under `keys`, so that postings left under those keys
  /// (see above) do not make it fail: when `write` fails on `lexical_posting`'s primary key, its
  /// rows are rolled back, the entries under `keys` are removed
  /// (``removeEverythingLeft(under:in:)``) and `write` runs once more. Any other error rolls
  /// back what `write` did and is thrown as it is.
  /// - Parameters:
  ///   - keys: the document keys `write` indexes (``key(knowledgeRowID:)``,
  ///     ``key(memoryRowID:)``).
  ///   - tx: the caller's write transaction.
  ///   - write: writes the index rows; it must be safe to run again after a rollback.
  /// - Throws: what `write` throws (the second time, when it ran twice); storage errors.
  /// - Complexity: one savepoint when nothing is left under `keys`; otherwise one more pass over
  ///   `lexical_posting`.
  static func writingOverLeftPostings(
    under keys: [Int64], in tx: WorkspaceTransaction, _ write: () throws -> Void
  ) throws {
    let db = tx.db
    let name = leftPostingsSavepoint
    try db.execute("SAVEPOINT \(name)")
    do {
      try write()
      try db.execute("RELEASE \(name)")
      return
    } catch let error as WorkspaceError where isLeftPostingConflict(error) {
      try db.execute("ROLLBACK TO \(name)")
    } catch {
      try? db.execute("ROLLBACK TO \(name); RELEASE \(name)")
      throw error
    }
    do {
      try removeEverythingLeft(under: keys, in: tx)
      try write()
      try db.execute("RELEASE \(name)")
    } catch {
      try? db.execute("ROLLBACK TO \(name); RELEASE \(name)")
      throw error
    }
  }

  /// Whether `error` is SQLite's refusal of a second posting for the same (term, document):
  /// `SQLITE_CONSTRAINT_PRIMARYKEY` (1555) naming `lexical_posting`.
  static func isLeftPostingConflict(_ error: WorkspaceError) -> Bool {
    guard case .storage(_, let code, let message) = error else { return false }
    return code == 1555 && message.contains("lexical_posting.")
  }

  /// Removes every index entry under `keys`: a document entry with its postings as
  /// ``remove(key:in:)`` removes it, then any posting still under one of the keys, with its
  /// term's document frequency (a term no document holds any more goes with its trigrams). A
  /// key whose postings had no document entry left is taken out of the collection statistics
  /// with the field lengths its postings carry, as removing its entry would have.
  /// - Complexity: one pass over `lexical_posting`, plus O(*t*) statements for the *t* postings
  ///   removed.
  static func removeEverythingLeft(under keys: [Int64], in tx: WorkspaceTransaction) throws {
    guard !keys.isEmpty else { return }
    let db = tx.db
    var documented = Set<Int64>()
    for key in keys where try db.first("SELECT 1 FROM lexical_document WHERE doc = ?", [.integer(key)], { $0.int64(0) }) != nil {
      documented.insert(key)
      try remove(key: key, in: tx)
    }
    let list = "[" + keys.map(String.init).joined(separator: ",") + "]"
    let removed = try db.all(
      """
      DELETE FROM lexical_posting WHERE doc IN (SELECT value FROM json_each(?))
        RETURNING term_id, doc, title_length, tags_length, content_length
      """,
      [.text(list)]
    ) { (r: SQLRow) in (term: r.int64(0), doc: r.int64(1), lengths: [r.int64(2), r.int64(3), r.int64(4)]) }
    guard !removed.isEmpty else { return }
    var postingsByTerm: [Int64: Int64] = [:]
    var lengthsByDocument: [Int64: [Int64]] = [:]
    for posting in removed {
      postingsByTerm[posting.term, default: 0] += 1
      if !documented.contains(posting.doc) { lengthsByDocument[posting.doc] = posting.lengths }
    }
    for (termID, count) in postingsByTerm.sorted(by: { $0.key < $1.key }) {
      try lowerDocumentFrequency(of: termID, by: count, in: tx)
    }
    guard !lengthsByDocument.isEmpty else { return }
    let lengths = lengthsByDocument.values.reduce([Int64](repeating: 0, count: 3)) { sum, l in
      zip(sum, l).map { $0 + $1 }
    }
    try db.run(
      """
        UPDATE lexical_stats SET document_count = max(document_count - ?, 0),
        title_length = max(title_length - ?, 0), tags_length = max(tags_length - ?, 0),
        content_length = max(content_length - ?, 0) WHERE id = 1
      """,
      [.integer(Int64(lengthsByDocument.count)), .integer(lengths[0]), .integer(lengths[1]), .integer(lengths[2])])
  }

  /// Lowers the document frequency of term `termID` by `count`; a term left with none is
  /// removed with its trigrams.
  static func lowerDocumentFrequency(of termID: Int64, by count: Int64, in tx: WorkspaceTransaction) throws {
    let db = tx.db
    let df = try db.first(
      """
        UPDATE lexical_term SET document_frequency = document_frequency - ? WHERE term_id = ?
        RETURNING document_frequency, term
      """,
      [.integer(count), .integer(termID)], { (r: SQLRow) in (r.int64(0), r.text(1)) })
    guard let (remaining, term) = df, remaining <= 0 else { return }
    try db.run("DELETE FROM lexical_term WHERE term_id = ?", [.integer(termID)])
    for g in Set(Trigrams.trigrams(of: term)) {
      try db.run(
        "DELETE FROM lexical_trigram WHERE trigram = ? AND term_id = ?",
        [.text(g), .integer(termID)])
    }
  }
}
