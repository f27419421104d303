import ContinuityKit
import Foundation

/// The search-index rows of documents about to be stored, tokenized and staged before the write
/// transaction that stores them, so that under the write lock they are only copied in.
///
/// ``LexicalIndexStore/index(batch:in:)`` tokenizes and writes in the caller's write
/// transaction: for an import of 20,000 knowledge items that was about 12 of the 20 seconds the
/// import held the write lock (release build). Here the work is split like
/// ``StagedIndexRebuild``'s:
///
/// 1. ``stage(_:in:)`` runs in any transaction — a **read** transaction takes no lock that blocks
///    writers (WAL mode). It tokenizes the documents (across the processor's cores), numbers
///    their terms from a dictionary held in memory, and writes postings and document rows to
///    temporary tables of its connection under provisional numbers: document *i* of the list,
///    term *j* of the dictionary. The temporary tables hold numbers and encoded positions only;
///    the terms, which are text, stay in memory. It looks up which terms the index holds in
///    that snapshot, only to sort the postings in the order ``install(keys:in:)`` will number
///    them: terms already indexed by their id, then new terms in the order they will be added,
///    so that the copy mostly appends to the (term, document)-keyed postings table.
/// 2. ``install(keys:in:)`` runs in a **write** transaction on the same connection, once the
///    records are stored and their document keys known: it raises each term's document frequency
///    or adds the term with its trigrams, then copies postings and document rows in under the real
///    term ids and keys, and adds the documents to the collection statistics.
///
/// Nothing staged depends on what the index held when it was staged: a term another connection
/// added or removed meanwhile is resolved when installing (the snapshot only chose the copy
/// order). The rows installed are the rows ``LexicalIndexStore/index(batch:in:)`` writes for the
/// same documents and keys (term ids aside, which number new terms in another order).
///
/// Run both phases on one connection, not shared with another staging at the same time (the
/// temporary tables have fixed names); drop the tables with ``dropTables(_:)`` afterwards.
struct StagedIndexAddition: Sendable {
  /// The staged rows; provisional term numbers from 0, in order of first appearance.
  private var rows = StagedIndexRows(firstTermID: 0)
  /// The staged terms by provisional number.
  private var terms: [String] { rows.terms }
  /// Staged documents holding each term, by provisional number.
  private var documentFrequencies: [Int64] { rows.documentFrequencies }
  /// Provisional term numbers in install order: terms the snapshot's index held, by id, then
  /// the others in order of first appearance.
  private var installOrder: [Int] = []
  /// Whether the snapshot's index lacked the term, by provisional number.
  private var isNewInSnapshot: [Bool] = []
  /// (trigram, provisional term number) of each term the snapshot's index lacked, sorted by
  /// trigram, then install order.
  private var trigrams: [(trigram: String, term: Int)] = []
  /// How many documents were staged, and the sum of their field lengths.
  var documentCount: Int { rows.documentCount }
  private var lengths: FieldValues<Int64> { rows.lengths }

  private static let loadTable = "temp.import_index_load"
  private static let rankTable = "temp.import_index_rank"
  private static let postingTable = "temp.import_index_posting"
  private static let documentTable = "temp.import_index_document"
  private static let termMapTable = "temp.import_index_term"
  private static let keyMapTable = "temp.import_index_key"
  // Built once: the connection finds its prepared statement by the text, for every row.
  private static let insertLoad = """
    INSERT INTO \(loadTable)(term, doc, kind, title_length, tags_length, content_length,
      title_frequency, tags_frequency, content_frequency, positions) VALUES (?,?,?,?,?,?,?,?,?,?)
    """
  private static let insertDocument = """
    INSERT INTO \(documentTable)(doc, kind, title_length, tags_length, content_length, terms)
      VALUES (?,?,?,?,?,?)
    """

  /// Phase 1: tokenizes `documents` and stages their index rows.
  /// - Parameters:
  ///   - documents: the documents, none of them indexed yet; ``install(keys:in:)`` takes their
  ///     keys in this order.
  ///   - tx: a read (or write) transaction of the connection that will install them.
  /// - Throws: storage errors.
  /// - Complexity: O(*n*) in the documents' text, plus a sort of their postings.
  static func stage(_ documents: [IndexedDocument], in tx: WorkspaceTransaction) throws
    -> StagedIndexAddition
  {
    let db = tx.db
    try dropTables(db)
    try db.execute(
      """
      CREATE TEMP TABLE import_index_load (term INTEGER NOT NULL, doc INTEGER NOT NULL,
        kind INTEGER NOT NULL, title_length INTEGER NOT NULL, tags_length INTEGER NOT NULL,
        content_length INTEGER NOT NULL, title_frequency INTEGER NOT NULL,
        tags_frequency INTEGER NOT NULL, content_frequency INTEGER NOT NULL,
        positions BLOB NOT NULL);
      CREATE TEMP TABLE import_index_document (doc INTEGER PRIMARY KEY, kind INTEGER NOT NULL,
        title_length INTEGER NOT NULL, tags_length INTEGER NOT NULL,
        content_length INTEGER NOT NULL, terms BLOB NOT NULL);
      CREATE TEMP TABLE import_index_rank (term INTEGER PRIMARY KEY, rank INTEGER NOT NULL);
      """)
    var staged = StagedIndexAddition()
    var start = 0
    while start < documents.count {
      let end = min(start + LexicalIndexStore.batchSize, documents.count)
      try staged.add((start..<end).map { (document: documents[$0], key: Int64($0)) }[...], db: db)
      start = end
    }

    var indexed: [(id: Int64, term: Int)] = []
    var new: [Int] = []
    staged.isNewInSnapshot = Array(repeating: false, count: staged.terms.count)
    for (number, term) in staged.terms.enumerated() {
      if let id = try db.first(
        "SELECT term_id FROM lexical_term WHERE term = ?", [.text(term)], { $0.int64(0) })
      {
        indexed.append((id, number))
      } else {
        new.append(number)
        staged.isNewInSnapshot[number] = true
      }
    }
    staged.installOrder = indexed.sorted { $0.id < $1.id }.map(\.term) + new
    var rank = Array(repeating: 0, count: staged.terms.count)
    for (position, number) in staged.installOrder.enumerated() {
      rank[number] = position
      try db.run(
        "INSERT INTO \(rankTable)(term, rank) VALUES (?, ?)",
        [.integer(Int64(number)), .integer(Int64(position))])
    }
    // One external sort here, outside the write lock, so that installing is an ordered copy.
    try db.execute(
      """
      CREATE TEMP TABLE import_index_posting AS
        SELECT l.* FROM \(loadTable) l JOIN \(rankTable) r ON r.term = l.term ORDER BY r.rank, l.doc;
      DROP TABLE \(loadTable);
      DROP TABLE \(rankTable);
      """)
    var pairs: [(trigram: String, term: Int)] = []
    for number in new {
      for g in Trigrams.trigrams(of: staged.terms[number]) { pairs.append((g, number)) }
    }
    staged.trigrams = pairs.sorted { ($0.trigram, rank[$0.term]) < ($1.trigram, rank[$1.term]) }
    return staged
  }

  /// Tokenizes one chunk (keys are document numbers) and stages its rows.
  private mutating func add(
    _ chunk: ArraySlice<(document: IndexedDocument, key: Int64)>, db: SQLiteConnection
  ) throws {
    try rows.add(chunk, db: db, insertPosting: Self.insertLoad, insertDocument: Self.insertDocument)
  }

  /// Phase 2: writes the staged rows into the index under the documents' keys, as
  /// ``LexicalIndexStore/index(batch:in:)`` would, and records this build's
  /// ``Tokenizer/version`` when the index held no document before; like it, lists the keys in
  /// `lexical_stale` instead when the index holds a newer tokenizer's terms
  /// (``LexicalIndexStore/acceptsThisBuildsTerms(_:)``). Writes only `lexical_*` rows and that
  /// version.
  /// - Parameters:
  ///   - keys: the key of each staged document (a knowledge row id, or a negated memory row
  ///     id), in the order they were staged; none of them indexed yet.
  ///   - tx: a write transaction of the connection that staged the rows.
  /// - Throws: storage errors; ``WorkspaceError/damaged(file:message:)`` when `keys` does not
  ///   match the staged documents (a programming error; nothing is installed).
  func install(keys: [Int64], in tx: WorkspaceTransaction) throws {
    guard keys.count == documentCount else {
      throw WorkspaceError.damaged(
        file: "search index", message: "\(keys.count) document keys for \(documentCount) staged documents")
    }
    guard documentCount > 0 else { return }
    // As every write path: an index of a newer tokenizer gets the documents listed, no terms.
    guard try LexicalIndexStore.acceptsThisBuildsTerms(tx) else {
      try LexicalIndexStore.listStale(keys, in: tx)
      return
    }
    // Postings whose document entry another program deleted are removed if they are in the way.
    try LexicalIndexStore.writingOverLeftPostings(under: keys, in: tx) {
      try installRows(keys: keys, in: tx)
    }
  }

  /// The rows ``install(keys:in:)`` writes once it knows the index takes this build's terms.
  private func installRows(keys: [Int64], in tx: WorkspaceTransaction) throws {
    let db = tx.db
    try LexicalIndexStore.removeEntriesLeft(under: keys, in: tx)
    var termIDs = Array(repeating: Int64(0), count: terms.count)
    var added = Array(repeating: false, count: terms.count)
    for number in installOrder {
      if let id = try db.first(
        """
          UPDATE lexical_term SET document_frequency = document_frequency + ? WHERE term = ?
          RETURNING term_id
        """,
        [.integer(documentFrequencies[number]), .text(terms[number])], { $0.int64(0) })
      {
        termIDs[number] = id
      } else {
        try db.run(
          "INSERT INTO lexical_term(term, document_frequency) VALUES (?, ?)",
          [.text(terms[number]), .integer(documentFrequencies[number])])
        termIDs[number] = db.lastInsertRowID
        added[number] = true
      }
    }
    let insertTrigram = "INSERT OR IGNORE INTO lexical_trigram(trigram, term_id) VALUES (?, ?)"
    for pair in trigrams where added[pair.term] {
      try db.run(insertTrigram, [.text(pair.trigram), .integer(termIDs[pair.term])])
    }
    // A term the snapshot's index held that another connection's write removed meanwhile.
    for number in installOrder where added[number] && !isNewInSnapshot[number] {
      for g in Trigrams.trigrams(of: terms[number]) {
        try db.run(insertTrigram, [.text(g), .integer(termIDs[number])])
      }
    }

    try db.execute(
      """
      CREATE TEMP TABLE import_index_term (term INTEGER PRIMARY KEY, term_id INTEGER NOT NULL);
      CREATE TEMP TABLE import_index_key (doc INTEGER PRIMARY KEY, key INTEGER NOT NULL);
      """)
    for (number, id) in termIDs.enumerated() {
      try db.run(
        "INSERT INTO \(Self.termMapTable)(term, term_id) VALUES (?, ?)",
        [.integer(Int64(number)), .integer(id)])
    }
    for (number, key) in keys.enumerated() {
      try db.run(
        "INSERT INTO \(Self.keyMapTable)(doc, key) VALUES (?, ?)",
        [.integer(Int64(number)), .integer(key)])
    }
    try db.execute(
      """
      INSERT INTO lexical_posting(term_id, doc, kind, title_length, tags_length, content_length,
        title_frequency, tags_frequency, content_frequency, positions)
      SELECT t.term_id, k.key, p.kind, p.title_length, p.tags_length, p.content_length,
        p.title_frequency, p.tags_frequency, p.content_frequency, p.positions
      FROM \(Self.postingTable) p JOIN \(Self.termMapTable) t ON t.term = p.term
        JOIN \(Self.keyMapTable) k ON k.doc = p.doc
      ORDER BY p.rowid;
      """)
    // In pages, so that memory stays bounded whatever the number of documents.
    var first = 0
    while first < documentCount {
      let page = try db.all(
        """
        SELECT doc, kind, title_length, tags_length, content_length, terms FROM \(Self.documentTable)
          WHERE doc >= ? AND doc < ? ORDER BY doc
        """,
        [.integer(Int64(first)), .integer(Int64(first + LexicalIndexStore.batchSize))]
      ) { (r: SQLRow) in (r.int64(0), r.int64(1), r.int64(2), r.int64(3), r.int64(4), r.blob(5)) }
      for (number, kind, title, tags, content, numbers) in page {
        let ids = LexicalIndexStore.unpack(numbers).map { termIDs[Int($0)] }
        try db.run(
          """
            INSERT INTO lexical_document(doc, kind, title_length, tags_length, content_length,
            terms) VALUES (?,?,?,?,?,?)
          """,
          [
            .integer(keys[Int(number)]), .integer(kind), .integer(title), .integer(tags),
            .integer(content), .blob(LexicalIndexStore.pack(ids)),
          ])
      }
      first += LexicalIndexStore.batchSize
    }
    let count = try db.first(
      """
        UPDATE lexical_stats SET document_count = document_count + ?, title_length = title_length
        + ?, tags_length = tags_length + ?, content_length = content_length + ? WHERE id = 1
        RETURNING document_count
      """,
      [
        .integer(Int64(documentCount)), .integer(lengths.title), .integer(lengths.tags),
        .integer(lengths.content),
      ], { $0.int64(0) })
    if count == Int64(documentCount) { try LexicalIndexStore.recordTokenizerVersion(tx) }
  }

  /// Drops the temporary tables, if any (after installing, or after a failure).
  static func dropTables(_ db: SQLiteConnection) throws {
    try db.execute(
      [loadTable, rankTable, postingTable, documentTable, termMapTable, keyMapTable]
        .map { "DROP TABLE IF EXISTS \($0);" }.joined(separator: " "))
  }
}
