import ContinuityKit
import Foundation

/// Writes and removes the persisted lexical index rows of one document inside the caller's
/// transaction, so records and their index always commit together.
///
/// Per document: its postings (one row per term, with field frequencies, field lengths, kind
/// and positions), its term list, the term vocabulary with document frequencies (a term whose
/// frequency drops to zero is removed with its trigrams), and the collection statistics. An
/// index holding a newer tokenizer's terms gets no terms of this build: its documents are listed
/// for the newer build to index instead (``acceptsThisBuildsTerms(_:)``).
/// - Complexity: O(*t*) statements for a document of *t* distinct terms.
enum LexicalIndexStore {
  /// The document key of a knowledge row.
  static func key(knowledgeRowID: Int64) -> Int64 { knowledgeRowID }
  /// The document key of a memory row (negated so it never collides with knowledge).
  static func key(memoryRowID: Int64) -> Int64 { -memoryRowID }

  /// Indexes a newly stored knowledge item. An index entry already under its row id — left by
  /// an item deleted outside dolphin, whose row id SQLite gave out again — is removed first, so
  /// the capture neither fails on it nor inherits its words (one indexed look-up when there is
  /// none); so are postings whose document entry another program deleted
  /// (``writingOverLeftPostings(under:in:_:)``).
  static func index(knowledge item: KnowledgeItem, rowID: Int64, in tx: WorkspaceTransaction) throws
  {
    let key = key(knowledgeRowID: rowID)
    try writingOverLeftPostings(under: [key], in: tx) {
      try remove(key: key, in: tx)
      try index(IndexedDocument(item), key: key, in: tx)
    }
  }

  /// Indexes a newly stored memory, as ``index(knowledge:rowID:in:)`` does a knowledge item.
  static func index(memory: MemoryItem, rowID: Int64, in tx: WorkspaceTransaction) throws {
    let key = key(memoryRowID: rowID)
    try writingOverLeftPostings(under: [key], in: tx) {
      try remove(key: key, in: tx)
      try index(IndexedDocument(memory), key: key, in: tx)
    }
  }

  static func remove(knowledgeRowID: Int64, in tx: WorkspaceTransaction) throws {
    try remove(key: key(knowledgeRowID: knowledgeRowID), in: tx)
  }

  static func remove(memoryRowID: Int64, in tx: WorkspaceTransaction) throws {
    try remove(key: key(memoryRowID: memoryRowID), in: tx)
  }

  /// Re-indexes a knowledge item whose text changed (remove, then index).
  static func reindex(knowledge item: KnowledgeItem, rowID: Int64, in tx: WorkspaceTransaction)
    throws
  {
    try index(knowledge: item, rowID: rowID, in: tx)
  }

  /// Writes the index rows of `document` under `key` — or, when the index belongs to a newer
  /// tokenizer (see ``acceptsThisBuildsTerms(_:)``), lists `key` in `lexical_stale` instead,
  /// for the newer dolphin to index.
  static func index(_ document: IndexedDocument, key: Int64, in tx: WorkspaceTransaction) throws {
    guard try acceptsThisBuildsTerms(tx) else {
      try listStale([key], in: tx)
      return
    }
    let db = tx.db
    let postings = LexicalIndexer.postings(for: document)
    let lengths = postings.fieldLengths
    var termIDs: [Int64] = []
    termIDs.reserveCapacity(postings.terms.count)
    for occurrence in postings.terms {
      let termID: Int64
      if let existing = try db.first(
        """
          UPDATE lexical_term SET document_frequency = document_frequency + 1 WHERE term = ?
          RETURNING term_id
        """,
        [.text(occurrence.term)], { $0.int64(0) })
      {
        termID = existing
      } else {
        try db.run(
          "INSERT INTO lexical_term(term, document_frequency) VALUES (?, 1)",
          [.text(occurrence.term)])
        termID = db.lastInsertRowID
        for g in Set(Trigrams.trigrams(of: occurrence.term)) {
          try db.run(
            "INSERT OR IGNORE INTO lexical_trigram(trigram, term_id) VALUES (?, ?)",
            [.text(g), .integer(termID)])
        }
      }
      termIDs.append(termID)
      let tf = occurrence.termFrequencies
      try db.run(
        """
        INSERT INTO lexical_posting(term_id, doc, kind, title_length, tags_length, content_length,
          title_frequency, tags_frequency, content_frequency, positions)
          VALUES (?,?,?,?,?,?,?,?,?,?)
        """,
        [
          .integer(termID), .integer(key), .integer(Int64(document.kind.orderIndex)),
          .integer(Int64(lengths.title)), .integer(Int64(lengths.tags)),
          .integer(Int64(lengths.content)),
          .integer(Int64(tf.title)), .integer(Int64(tf.tags)), .integer(Int64(tf.content)),
          .blob(occurrence.positions.bytes),
        ])
    }
    try db.run(
      """
        INSERT INTO lexical_document(doc, kind, title_length, tags_length, content_length, terms)
        VALUES (?,?,?,?,?,?)
      """,
      [
        .integer(key), .integer(Int64(document.kind.orderIndex)), .integer(Int64(lengths.title)),
        .integer(Int64(lengths.tags)), .integer(Int64(lengths.content)), .blob(pack(termIDs)),
      ])
    let count = try db.first(
      """
        UPDATE lexical_stats SET document_count = document_count + 1, title_length = title_length +
        ?, tags_length = tags_length + ?, content_length = content_length + ? WHERE id = 1
        RETURNING document_count
      """,
      [
        .integer(Int64(lengths.title)), .integer(Int64(lengths.tags)),
        .integer(Int64(lengths.content)),
      ], { $0.int64(0) })
    if count == 1 { try recordTokenizerVersion(tx) }
  }

  /// The most documents tokenized and held in memory at once by ``BatchWriter``.
  static let batchSize = 4_096

  /// Indexes many documents (bulk capture, import): the same rows as calling
  /// ``index(_:key:in:)`` for each document (see ``BatchWriter``), and likewise lists them all
  /// in `lexical_stale` instead when the index holds a newer tokenizer's terms.
  ///
  /// - Parameters:
  ///   - batch: documents and their keys (a knowledge row id, or a negated memory row id) of
  ///     records just stored; an entry an outside delete left under one of the keys is removed
  ///     first (``removeEntriesLeft(under:in:)``), and so are postings whose document entry
  ///     another program deleted (``writingOverLeftPostings(under:in:_:)``).
  ///   - tx: the caller's write transaction.
  static func index(batch: [(document: IndexedDocument, key: Int64)], in tx: WorkspaceTransaction)
    throws
  {
    guard try acceptsThisBuildsTerms(tx) else {
      try listStale(batch.map(\.key), in: tx)
      return
    }
    let keys = batch.map(\.key)
    try writingOverLeftPostings(under: keys, in: tx) {
      try removeEntriesLeft(under: keys, in: tx)
      var writer = try BatchWriter(tx: tx, expectedDocuments: batch.count)
      var start = 0
      while start < batch.count {
        try writer.add(batch[start..<min(start + batchSize, batch.count)])
        start += batchSize
      }
      try writer.finish()
    }
  }

  /// Writes the index rows of many documents term by term instead of document by document.
  ///
  /// The postings table is keyed by (term, document), so inserting one document's postings
  /// touches as many places of it as the document has terms; a bulk load that does so for
  /// every document rewrites every page of a large index many times. Instead, per chunk of
  /// ``batchSize`` documents, every document is tokenized first, each distinct term is looked
  /// up and its document frequency raised once, and the postings are written in (term,
  /// document) order. When there is more than one chunk, postings are first appended to a
  /// temporary staging table and moved into the index at the end with one
  /// `INSERT … SELECT … ORDER BY term_id, doc` — a single ordered pass over the index, with
  /// SQLite's external sorter (bounded memory) doing the ordering. The staging table holds
  /// only numbers and encoded positions, never text, and is dropped before the transaction
  /// ends.
  struct BatchWriter {
    let tx: WorkspaceTransaction
    let db: SQLiteConnection
    let staged: Bool
    var documentCount: Int64 = 0
    var lengths = FieldValues<Int64>.zero
    var postingTable: String { staged ? "temp.lexical_posting_load" : "lexical_posting" }

    /// - Parameter expectedDocuments: how many documents will be added (decides staging).
    init(tx: WorkspaceTransaction, expectedDocuments: Int) throws {
      self.tx = tx
      db = tx.db
      staged = expectedDocuments > LexicalIndexStore.batchSize
      if staged {
        try db.execute(
          """
          CREATE TEMP TABLE lexical_posting_load (term_id INTEGER NOT NULL, doc INTEGER NOT NULL,
            kind INTEGER NOT NULL, title_length INTEGER NOT NULL, tags_length INTEGER NOT NULL,
            content_length INTEGER NOT NULL, title_frequency INTEGER NOT NULL,
            tags_frequency INTEGER NOT NULL, content_frequency INTEGER NOT NULL,
            positions BLOB NOT NULL)
          """)
      }
    }

    /// Tokenizes and writes one chunk (at most ``batchSize`` documents).
    mutating func add(_ chunk: ArraySlice<(document: IndexedDocument, key: Int64)>) throws {
      let chunk = Array(chunk)
      let analysed = LexicalIndexer.postings(forEach: chunk[...])

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
      let insertPosting = """
        INSERT INTO \(postingTable)(term_id, doc, kind, title_length, tags_length, content_length,
          title_frequency, tags_frequency, content_frequency, positions)
          VALUES (?,?,?,?,?,?,?,?,?,?)
        """
      for term in occurrencesByTerm.keys.sorted() {
        let occurrences = (occurrencesByTerm[term] ?? []).sorted {
          chunk[$0.document].key < chunk[$1.document].key
        }
        let termID: Int64
        if let existing = try db.first(
          """
            UPDATE lexical_term SET document_frequency = document_frequency + ? WHERE term = ?
            RETURNING term_id
          """,
          [.integer(Int64(occurrences.count)), .text(term)], { $0.int64(0) })
        {
          termID = existing
        } else {
          try db.run(
            "INSERT INTO lexical_term(term, document_frequency) VALUES (?, ?)",
            [.text(term), .integer(Int64(occurrences.count))])
          termID = db.lastInsertRowID
          for g in Set(Trigrams.trigrams(of: term)) {
            try db.run(
              "INSERT OR IGNORE INTO lexical_trigram(trigram, term_id) VALUES (?, ?)",
              [.text(g), .integer(termID)])
          }
        }
        for (d, o) in occurrences {
          let lengths = analysed[d].fieldLengths
          let occurrence = analysed[d].terms[o]
          let tf = occurrence.termFrequencies
          try db.run(
            insertPosting,
            [
              .integer(termID), .integer(chunk[d].key),
              .integer(Int64(chunk[d].document.kind.orderIndex)),
              .integer(Int64(lengths.title)), .integer(Int64(lengths.tags)),
              .integer(Int64(lengths.content)),
              .integer(Int64(tf.title)), .integer(Int64(tf.tags)), .integer(Int64(tf.content)),
              .blob(occurrence.positions.bytes),
            ])
          termIDsByDocument[d].append(termID)
        }
      }
      for (d, entry) in chunk.enumerated() {
        let fieldLengths = analysed[d].fieldLengths
        try db.run(
          """
            INSERT INTO lexical_document(doc, kind, title_length, tags_length, content_length,
            terms) VALUES (?,?,?,?,?,?)
          """,
          [
            .integer(entry.key), .integer(Int64(entry.document.kind.orderIndex)),
            .integer(Int64(fieldLengths.title)),
            .integer(Int64(fieldLengths.tags)), .integer(Int64(fieldLengths.content)),
            .blob(pack(termIDsByDocument[d])),
          ])
        for field in IndexField.allCases { lengths[field] += Int64(fieldLengths[field]) }
      }
      documentCount += Int64(chunk.count)
    }

    /// Moves staged postings into the index and adds the documents to the statistics; records
    /// this build's tokenizer version when the index was empty before.
    func finish() throws {
      if staged {
        try db.execute(
          """
          INSERT INTO lexical_posting(term_id, doc, kind, title_length, tags_length, content_length,
            title_frequency, tags_frequency, content_frequency, positions)
          SELECT term_id, doc, kind, title_length, tags_length, content_length, title_frequency,
            tags_frequency, content_frequency, positions
          FROM temp.lexical_posting_load ORDER BY term_id, doc;
          DROP TABLE temp.lexical_posting_load;
          """)
      }
      guard documentCount > 0 else { return }
      let count = try db.first(
        """
          UPDATE lexical_stats SET document_count = document_count + ?, title_length = title_length
          + ?, tags_length = tags_length + ?, content_length = content_length + ? WHERE id = 1
          RETURNING document_count
        """,
        [
          .integer(documentCount), .integer(lengths.title), .integer(lengths.tags),
          .integer(lengths.content),
        ], { $0.int64(0) })
      if count == documentCount { try LexicalIndexStore.recordTokenizerVersion(tx) }
    }
  }

  /// Removes the index entries already under any of `keys`, which are about to be given to new
  /// records: entries left by records deleted outside dolphin, whose row ids SQLite gave out
  /// again (it reuses the largest row id when that row is gone). Without this, a bulk capture or
  /// an import after such a delete failed on `lexical_document.doc`'s UNIQUE constraint.
  ///
  /// New row ids lie above every stored one, so one range scan of `lexical_document`'s unique
  /// index per sign of key (knowledge keys are positive, memory keys negative) usually finds
  /// nothing and costs O(log *n*).
  /// - Parameters:
  ///   - keys: document keys of records just stored (``key(knowledgeRowID:)``,
  ///     ``key(memoryRowID:)``).
  ///   - tx: the caller's write transaction.
  static func removeEntriesLeft(under keys: [Int64], in tx: WorkspaceTransaction) throws {
    let wanted = Set(keys)
    for side in [keys.filter { $0 > 0 }, keys.filter { $0 < 0 }] {
      guard let low = side.min(), let high = side.max() else { continue }
      let found = try tx.db.all(
        "SELECT doc FROM lexical_document WHERE doc BETWEEN ? AND ?",
        [.integer(low), .integer(high)], { $0.int64(0) })
      for key in found where wanted.contains(key) { try remove(key: key, in: tx) }
    }
  }

  static func remove(key: Int64, in tx: WorkspaceTransaction) throws {
    let db = tx.db
    guard
      let row = try db.first(
        """
          SELECT title_length, tags_length, content_length, terms FROM lexical_document WHERE doc =
          ?
        """,
        [.integer(key)],
        { (r: SQLRow) in (r.int64(0), r.int64(1), r.int64(2), r.blob(3)) })
    else { return }
    for termID in unpack(row.3) {
      try db.run(
        "DELETE FROM lexical_posting WHERE term_id = ? AND doc = ?",
        [.integer(termID), .integer(key)])
      try lowerDocumentFrequency(of: termID, by: 1, in: tx)
    }
    try db.run("DELETE FROM lexical_document WHERE doc = ?", [.integer(key)])
    try db.run(
      """
        UPDATE lexical_stats SET document_count = document_count - 1, title_length = title_length -
        ?, tags_length = tags_length - ?, content_length = content_length - ? WHERE id = 1
      """,
      [.integer(row.0), .integer(row.1), .integer(row.2)])
  }

  /// The `meta` key holding the ``Tokenizer/version`` the persisted index was built with. When
  /// it is absent the index is version 1's: every index written before the key existed was.
  /// It is written by a rebuild, by emptying the index (erase), and by the first document
  /// indexed into an empty index, so a new workspace records the version it was built with.
  static let tokenizerVersionKey = "lexicalTokenizerVersion"

  /// The tokenizer version the stored index records (see ``StoredTokenizerVersion/init(stored:)``).
  static func storedTokenizerVersion(_ tx: WorkspaceTransaction) throws -> StoredTokenizerVersion {
    StoredTokenizerVersion(stored: try tx.meta(tokenizerVersionKey))
  }

  /// How the stored index's tokenizer version compares with this build's; an index holding no
  /// document is always ``SearchIndexTokenizerStatus/current``.
  /// - Complexity: two single-row reads.
  static func tokenizerStatus(_ tx: WorkspaceTransaction) throws -> SearchIndexTokenizerStatus {
    let built = try storedTokenizerVersion(tx)
    if built == .version(Tokenizer.version) { return .current }
    let documents = try tx.db.integer("SELECT document_count FROM lexical_stats WHERE id = 1")
    guard documents > 0 else { return .current }
    if case .version(let n) = built, n > Tokenizer.version { return .newer(n) }
    return .stale(built)
  }

  /// Records that the index now holds terms of this build's ``Tokenizer/version`` (after a full
  /// rebuild, after emptying it, or when its first document is indexed).
  static func recordTokenizerVersion(_ tx: WorkspaceTransaction) throws {
    try tx.setMeta(tokenizerVersionKey, String(Tokenizer.version))
  }

  /// Whether this build may write its own terms into the index inside `tx`: not when the index
  /// records a newer ``Tokenizer/version`` than this build's and holds documents. That happens
  /// when a dolphin still running from before an upgrade (an unrestarted `dolphin mcp`) writes
  /// after the upgraded one rebuilt the index: its terms would not be the ones the newer build's
  /// queries produce, so its document could not be found there. The write paths then list the
  /// document in `lexical_stale` instead (``listStale(_:in:)``); the records are written as
  /// always, and the newer dolphin indexes the listed documents at its next command that ranks
  /// (``reindexStale(in:)`` through `KnowledgeEngine.prepareSearchIndex()`). An empty index is
  /// anyone's, as ``tokenizerStatus(_:)`` says: the first document indexed into it records this
  /// build's version. Removing a document needs no check: it goes by the term ids its index
  /// document lists, whichever tokenizer made them.
  /// - Complexity: one `meta` read per transaction (``WorkspaceTransaction/cachedMeta(_:)``),
  ///   and one more single-row read per call only while the recorded version is newer.
  static func acceptsThisBuildsTerms(_ tx: WorkspaceTransaction) throws -> Bool {
    guard case .version(let recorded) = StoredTokenizerVersion(stored: try tx.cachedMeta(tokenizerVersionKey)),
      recorded > Tokenizer.version
    else { return true }
    return try tx.db.integer("SELECT document_count FROM lexical_stats WHERE id = 1") == 0
  }

  /// Lists `keys` in `lexical_stale`, to be indexed again from their records by a build whose
  /// terms the index holds (``reindexStale(in:)``). Keys listed already stay listed once.
  static func listStale(_ keys: [Int64], in tx: WorkspaceTransaction) throws {
    for key in keys {
      try tx.db.run("INSERT OR IGNORE INTO lexical_stale(doc) VALUES (?)", [.integer(key)])
    }
  }

  /// Indexes again every document listed in `lexical_stale` (records whose index entries no
  /// longer match them: tags rewritten by schema step 0006 or 0007, or records an older dolphin wrote
  /// into an index of a newer tokenizer) from its record as stored now, and empties the list.
  /// A listed record that no longer exists loses its entries. Does nothing, and leaves the list
  /// as it is, when the index belongs to a newer tokenizer (``acceptsThisBuildsTerms(_:)``).
  /// - Returns: how many documents were indexed again.
  @discardableResult
  static func reindexStale(in tx: WorkspaceTransaction) throws -> Int {
    let db = tx.db
    guard try acceptsThisBuildsTerms(tx) else { return 0 }
    let docs = try db.all("SELECT doc FROM lexical_stale ORDER BY doc") { $0.int64(0) }
    guard !docs.isEmpty else { return 0 }
    let knowledge = try tx.knowledge(rowIDs: docs.filter { $0 > 0 })
    let memories = try tx.memories(rowIDs: docs.filter { $0 < 0 }.map { -$0 })
    for doc in docs {
      try remove(key: doc, in: tx)
      if doc > 0, let item = knowledge[doc] {
        try index(knowledge: item, rowID: doc, in: tx)
      } else if doc < 0, let memory = memories[-doc] {
        try index(memory: memory, rowID: -doc, in: tx)
      }
    }
    try db.run("DELETE FROM lexical_stale")
    return docs.count
  }

  /// How many documents `lexical_stale` lists (see ``reindexStale(in:)``).
  /// None when the table does not exist yet: a workspace from an earlier build, read where
  /// it cannot be written, before schema step 0006 could add it.
  static func staleCount(_ tx: WorkspaceTransaction) throws -> Int {
    let exists = try tx.db.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'lexical_stale'")
    guard exists > 0 else { return 0 }
    return Int(try tx.db.integer("SELECT count(*) FROM lexical_stale"))
  }

  /// The searchable view of a row read by ``forEachDocumentChunk(in:_:)``.
  static func document(_ row: SearchableRow) -> (document: IndexedDocument, key: Int64) {
    guard let kind = row.kind else {
      return (
        IndexedDocument(
          id: row.id, kind: .memory, title: "", tags: row.tags, content: row.content,
          updatedAt: row.updatedAt),
        key(memoryRowID: row.rowID)
      )
    }
    return (
      IndexedDocument(
        id: row.id, kind: .knowledge(kind), title: row.title, tags: row.tags, content: row.content,
        updatedAt: row.updatedAt, source: row.source),
      key(knowledgeRowID: row.rowID)
    )
  }

  /// Calls `body` with every knowledge item and then every memory as an indexed document with
  /// its key, in chunks of at most ``batchSize`` in ascending row id order, so memory stays
  /// bounded whatever the workspace size. One query per chunk reads only the indexed fields.
  /// - Parameter skippingMalformedIDs: leave out records whose id is not a UUID instead of
  ///   throwing ``WorkspaceError/damaged(file:message:)`` for them (a check that reads around
  ///   them; `dolphin doctor` names them under its record id check).
  static func forEachDocumentChunk(
    in tx: WorkspaceTransaction, skippingMalformedIDs: Bool = false,
    _ body: (ArraySlice<(document: IndexedDocument, key: Int64)>) throws -> Void
  ) throws {
    for memories in [false, true] {
      var after: Int64 = 0
      while true {
        let rows =
          memories
          ? try tx.searchableMemories(afterRowID: after, limit: batchSize, skippingMalformedIDs: skippingMalformedIDs)
          : try tx.searchableKnowledge(afterRowID: after, limit: batchSize, skippingMalformedIDs: skippingMalformedIDs)
        guard let last = rows.last else { break }
        after = last.rowID
        try body(ArraySlice(rows.map(document)))
        if rows.count < batchSize { break }
      }
    }
  }

  /// An index of every record built in memory with this build's tokenizer, under the same
  /// document keys as the persisted index: what a search ranks against when the persisted
  /// index is stale and cannot be rebuilt (a read-only workspace). Writes nothing.
  /// - Complexity: O(*n*) in the total text of the workspace; every record is read and
  ///   tokenized.
  static func inMemoryIndex(_ tx: WorkspaceTransaction) throws -> InMemoryLexicalIndex {
    var documents: [(key: Int64, document: IndexedDocument)] = []
    try forEachDocumentChunk(in: tx) { chunk in
      documents += chunk.map { (key: $0.key, document: $0.document) }
    }
    return InMemoryLexicalIndex(keyedDocuments: documents)
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
