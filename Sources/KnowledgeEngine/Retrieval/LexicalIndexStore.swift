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

  /// The most documents tokenized and held in memory at once by ``index(batch:in:)``.
  static let batchSize = 4_096

  /// Indexes many documents (bulk capture, import, rebuild): the same rows as calling
  /// ``index(_:key:in:)`` for each document, written term by term instead of document by
  /// document.
  ///
  /// Per chunk of ``batchSize`` documents: every document is tokenized first, then each
  /// distinct term is looked up once, its document frequency raised once, and its postings
  /// inserted in document-key order, terms in ascending order. The postings table is keyed by
  /// (term, document), so one chunk visits each posting-list range of the database once,
  /// instead of once per document that contains the term.
  ///
  /// - Parameters:
  ///   - batch: documents and their keys (a knowledge row id, or a negated memory row id),
  ///     none of them indexed yet.
  ///   - tx: the caller's write transaction.
  /// - Complexity: O(*n* log *n*) in the documents' terms, plus one statement per posting and
  ///   one per distinct term per chunk.
  static func index(batch: [(document: IndexedDocument, key: Int64)], in tx: WorkspaceTransaction) throws {
    let db = tx.db
    var total = FieldValues<Int64>.zero
    var start = 0
    while start < batch.count {
      let chunk = batch[start..<min(start + batchSize, batch.count)]
      start += batchSize
      let analysed = chunk.map { LexicalIndexer.postings(for: $0.document) }

      // term → (document index in the chunk, occurrence index), in document order.
      var occurrencesByTerm: [String: [(document: Int, occurrence: Int)]] = [:]
      for (d, postings) in analysed.enumerated() {
        for (o, occurrence) in postings.terms.enumerated() {
          occurrencesByTerm[occurrence.term, default: []].append((d, o))
        }
      }
      var termIDsByDocument = analysed.map { postings -> [Int64] in
        var ids: [Int64] = []
        ids.reserveCapacity(postings.terms.count)
        return ids
      }
      for term in occurrencesByTerm.keys.sorted() {
        let occurrences = occurrencesByTerm[term] ?? []
        let termID: Int64
        if let existing = try db.first(
          "UPDATE lexical_term SET document_frequency = document_frequency + ? WHERE term = ? RETURNING term_id",
          [.integer(Int64(occurrences.count)), .text(term)], { $0.int64(0) })
        {
          termID = existing
        } else {
          try db.run(
            "INSERT INTO lexical_term(term, document_frequency) VALUES (?, ?)",
            [.text(term), .integer(Int64(occurrences.count))])
          termID = db.lastInsertRowID
          for g in Set(Trigrams.trigrams(of: term)) {
            try db.run("INSERT OR IGNORE INTO lexical_trigram(trigram, term_id) VALUES (?, ?)", [.text(g), .integer(termID)])
          }
        }
        // Keys ascend within the chunk when the caller's do; sort so inserts append in order.
        let ordered = occurrences.sorted { chunk[chunk.startIndex + $0.document].key < chunk[chunk.startIndex + $1.document].key }
        for (d, o) in ordered {
          let entry = chunk[chunk.startIndex + d]
          let lengths = analysed[d].fieldLengths
          let occurrence = analysed[d].terms[o]
          let tf = occurrence.termFrequencies
          try db.run(
            """
            INSERT INTO lexical_posting(term_id, doc, kind, title_length, tags_length, content_length,
              title_frequency, tags_frequency, content_frequency, positions) VALUES (?,?,?,?,?,?,?,?,?,?)
            """,
            [
              .integer(termID), .integer(entry.key), .integer(Int64(entry.document.kind.orderIndex)),
              .integer(Int64(lengths.title)), .integer(Int64(lengths.tags)), .integer(Int64(lengths.content)),
              .integer(Int64(tf.title)), .integer(Int64(tf.tags)), .integer(Int64(tf.content)),
              .blob(occurrence.positions.bytes),
            ])
          termIDsByDocument[d].append(termID)
        }
      }
      for (d, entry) in chunk.enumerated() {
        let lengths = analysed[d].fieldLengths
        try db.run(
          "INSERT INTO lexical_document(doc, kind, title_length, tags_length, content_length, terms) VALUES (?,?,?,?,?,?)",
          [.integer(entry.key), .integer(Int64(entry.document.kind.orderIndex)), .integer(Int64(lengths.title)),
           .integer(Int64(lengths.tags)), .integer(Int64(lengths.content)), .blob(pack(termIDsByDocument[d]))])
        for field in IndexField.allCases { total[field] += Int64(lengths[field]) }
      }
    }
    guard !batch.isEmpty else { return }
    try db.run(
      "UPDATE lexical_stats SET document_count = document_count + ?, title_length = title_length + ?, tags_length = tags_length + ?, content_length = content_length + ? WHERE id = 1",
      [.integer(Int64(batch.count)), .integer(total.title), .integer(total.tags), .integer(total.content)])
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
    // Records are read a chunk at a time, so memory stays bounded whatever the workspace size.
    let knowledge = try db.all("SELECT rowid FROM knowledge ORDER BY rowid") { $0.int64(0) }
    var start = 0
    while start < knowledge.count {
      let rowIDs = Array(knowledge[start..<min(start + batchSize, knowledge.count)])
      start += batchSize
      let items = try tx.knowledge(rowIDs: rowIDs)
      let batch = rowIDs.compactMap { rowid in
        items[rowid].map { (document: IndexedDocument($0), key: key(knowledgeRowID: rowid)) }
      }
      try index(batch: batch, in: tx)
      n += batch.count
    }
    let memories = try db.all("SELECT rowid FROM memory ORDER BY rowid") { $0.int64(0) }
    start = 0
    while start < memories.count {
      let rowIDs = Array(memories[start..<min(start + batchSize, memories.count)])
      start += batchSize
      let records = try tx.memories(rowIDs: rowIDs)
      let batch = rowIDs.compactMap { rowid in
        records[rowid].map { (document: IndexedDocument($0), key: key(memoryRowID: rowid)) }
      }
      try index(batch: batch, in: tx)
      n += batch.count
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
