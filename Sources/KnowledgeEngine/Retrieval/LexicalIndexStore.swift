import ContinuityKit
import Foundation

/// Writes and removes the persisted lexical index rows of one document inside the caller's
/// transaction, so records and their index always commit together.
///
/// Per document: its postings (one row per term, with field frequencies, field lengths, kind
/// and positions), its term list, the term vocabulary with document frequencies (a term whose
/// frequency drops to zero is removed with its trigrams), and the collection statistics.
/// - Complexity: O(*t*) statements for a document of *t* distinct terms.
enum LexicalIndexStore {
  /// The document key of a knowledge row.
  static func key(knowledgeRowID: Int64) -> Int64 { knowledgeRowID }
  /// The document key of a memory row (negated so it never collides with knowledge).
  static func key(memoryRowID: Int64) -> Int64 { -memoryRowID }

  static func index(knowledge item: KnowledgeItem, rowID: Int64, in tx: WorkspaceTransaction) throws {
    try index(IndexedDocument(item), key: key(knowledgeRowID: rowID), in: tx)
  }

  static func index(memory: MemoryItem, rowID: Int64, in tx: WorkspaceTransaction) throws {
    try index(IndexedDocument(memory), key: key(memoryRowID: rowID), in: tx)
  }

  static func remove(knowledgeRowID: Int64, in tx: WorkspaceTransaction) throws {
    try remove(key: key(knowledgeRowID: knowledgeRowID), in: tx)
  }

  static func remove(memoryRowID: Int64, in tx: WorkspaceTransaction) throws {
    try remove(key: key(memoryRowID: memoryRowID), in: tx)
  }

  /// Re-indexes a knowledge item whose text changed (remove, then index).
  static func reindex(knowledge item: KnowledgeItem, rowID: Int64, in tx: WorkspaceTransaction) throws {
    try remove(key: key(knowledgeRowID: rowID), in: tx)
    try index(knowledge: item, rowID: rowID, in: tx)
  }

  static func index(_ document: IndexedDocument, key: Int64, in tx: WorkspaceTransaction) throws {
    let db = tx.db
    let postings = LexicalIndexer.postings(for: document)
    let lengths = postings.fieldLengths
    var termIDs: [Int64] = []
    termIDs.reserveCapacity(postings.terms.count)
    for occurrence in postings.terms {
      let termID: Int64
      if let existing = try db.first(
        "UPDATE lexical_term SET document_frequency = document_frequency + 1 WHERE term = ? RETURNING term_id",
        [.text(occurrence.term)], { $0.int64(0) })
      {
        termID = existing
      } else {
        try db.run("INSERT INTO lexical_term(term, document_frequency) VALUES (?, 1)", [.text(occurrence.term)])
        termID = db.lastInsertRowID
        for g in Set(Trigrams.trigrams(of: occurrence.term)) {
          try db.run("INSERT OR IGNORE INTO lexical_trigram(trigram, term_id) VALUES (?, ?)", [.text(g), .integer(termID)])
        }
      }
      termIDs.append(termID)
      let tf = occurrence.termFrequencies
      try db.run(
        """
        INSERT INTO lexical_posting(term_id, doc, kind, title_length, tags_length, content_length,
          title_frequency, tags_frequency, content_frequency, positions) VALUES (?,?,?,?,?,?,?,?,?,?)
        """,
        [
          .integer(termID), .integer(key), .integer(Int64(document.kind.orderIndex)),
          .integer(Int64(lengths.title)), .integer(Int64(lengths.tags)), .integer(Int64(lengths.content)),
          .integer(Int64(tf.title)), .integer(Int64(tf.tags)), .integer(Int64(tf.content)),
          .blob(occurrence.positions.bytes),
        ])
    }
    try db.run(
      "INSERT INTO lexical_document(doc, kind, title_length, tags_length, content_length, terms) VALUES (?,?,?,?,?,?)",
      [.integer(key), .integer(Int64(document.kind.orderIndex)), .integer(Int64(lengths.title)),
       .integer(Int64(lengths.tags)), .integer(Int64(lengths.content)), .blob(pack(termIDs))])
    try db.run(
      "UPDATE lexical_stats SET document_count = document_count + 1, title_length = title_length + ?, tags_length = tags_length + ?, content_length = content_length + ? WHERE id = 1",
      [.integer(Int64(lengths.title)), .integer(Int64(lengths.tags)), .integer(Int64(lengths.content))])
  }

  static func remove(key: Int64, in tx: WorkspaceTransaction) throws {
    let db = tx.db
    guard let row = try db.first(
      "SELECT title_length, tags_length, content_length, terms FROM lexical_document WHERE doc = ?", [.integer(key)],
      { (r: SQLRow) in (r.int64(0), r.int64(1), r.int64(2), r.blob(3)) })
    else { return }
    for termID in unpack(row.3) {
      try db.run("DELETE FROM lexical_posting WHERE term_id = ? AND doc = ?", [.integer(termID), .integer(key)])
      let df = try db.first(
        "UPDATE lexical_term SET document_frequency = document_frequency - 1 WHERE term_id = ? RETURNING document_frequency, term",
        [.integer(termID)], { (r: SQLRow) in (r.int64(0), r.text(1)) })
      if let (remaining, term) = df, remaining <= 0 {
        try db.run("DELETE FROM lexical_term WHERE term_id = ?", [.integer(termID)])
        for g in Set(Trigrams.trigrams(of: term)) {
          try db.run("DELETE FROM lexical_trigram WHERE trigram = ? AND term_id = ?", [.text(g), .integer(termID)])
        }
      }
    }
    try db.run("DELETE FROM lexical_document WHERE doc = ?", [.integer(key)])
    try db.run(
      "UPDATE lexical_stats SET document_count = document_count - 1, title_length = title_length - ?, tags_length = tags_length - ?, content_length = content_length - ? WHERE id = 1",
      [.integer(row.0), .integer(row.1), .integer(row.2)])
  }

  /// Deletes every index row and indexes every knowledge item and memory again (repair).
  /// - Returns: the number of documents indexed.
  @discardableResult
  static func rebuild(in tx: WorkspaceTransaction) throws -> Int {
    let db = tx.db
    try db.execute(
      "DELETE FROM lexical_posting; DELETE FROM lexical_trigram; DELETE FROM lexical_term; DELETE FROM lexical_document; UPDATE lexical_stats SET document_count = 0, title_length = 0, tags_length = 0, content_length = 0;")
    var n = 0
    let knowledge = try db.all("SELECT rowid, id FROM knowledge ORDER BY rowid") { (r: SQLRow) in (r.int64(0), r.text(1)) }
    for (rowid, idText) in knowledge {
      guard let id = UUID(uuidString: idText), let item = try tx.knowledge(id: id) else { continue }
      try index(knowledge: item, rowID: rowid, in: tx)
      n += 1
    }
    let memories = try db.all("SELECT rowid, id FROM memory ORDER BY rowid") { (r: SQLRow) in (r.int64(0), r.text(1)) }
    for (rowid, idText) in memories {
      guard let id = UUID(uuidString: idText), let m = try tx.memory(id: id) else { continue }
      try index(memory: m, rowID: rowid, in: tx)
      n += 1
    }
    return n
  }

  static func pack(_ ids: [Int64]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(ids.count * 8)
    for id in ids { withUnsafeBytes(of: id.littleEndian) { out += $0 } }
    return out
  }

  static func unpack(_ bytes: [UInt8]) -> [Int64] {
    stride(from: 0, to: bytes.count - bytes.count % 8, by: 8).map { i in
      var v: Int64 = 0
      for j in 0..<8 { v |= Int64(bytes[i + j]) << (8 * j) }
      return v
    }
  }
}
