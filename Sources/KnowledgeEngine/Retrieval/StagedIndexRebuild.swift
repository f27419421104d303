import ContinuityKit
import Dispatch
import Foundation
import Synchronization

/// A rebuild of the persisted lexical index from the stored records that holds the write lock
/// only while it installs the result.
///
/// A rebuild used to run in one write transaction, so for its whole length (about 6 s for
/// 10,000 items in a release build) every other process's write waited, and one waiting longer
/// than the busy timeout failed. Now:
///
/// 1. ``stage(in:)`` runs in a **read** transaction, which takes no lock that blocks writers
///    (WAL mode). It reads every record from that one snapshot, tokenizes them (across the
///    processor's cores), numbers the terms from a dictionary held in memory, and writes the
///    postings and document rows to temporary tables of its own connection, postings sorted by
///    (term, document). The temporary tables hold numbers and encoded positions only — the
///    terms, which are text, stay in memory — as ``LexicalIndexStore/BatchWriter``'s staging
///    table does.
/// 2. ``install(in:)`` runs in a **write** transaction: it deletes the old index rows and copies
///    the staged ones in, in key order, which is a fraction of the staging time.
///
/// Records written by other connections between the two phases are caught up in phase 2, so
/// the installed index is exactly what a rebuild inside that write transaction would have
/// made: when the connection's change stamp moved since the snapshot, each record's
/// fingerprint (of the fields the index reads: kind, title, tags, content) is compared with the
/// one staged; staged documents whose record changed or disappeared are left out, and changed or
/// new records are indexed the ordinary way (``LexicalIndexStore/index(_:key:in:)``).
///
/// Run both phases on one connection, not shared with another rebuild at the same time (the
/// temporary tables have fixed names); ``KnowledgeEngine`` gives each rebuild a connection of
/// its own where the database is a file.
struct StagedIndexRebuild: Sendable {
  /// The staged rows; term ids from 1, in order of first appearance.
  private var rows = StagedIndexRows(firstTermID: 1)
  /// The terms by id − 1.
  private var terms: [String] { rows.terms }
  /// Documents holding each term, by id − 1.
  private var documentFrequencies: [Int64] { rows.documentFrequencies }
  /// (trigram, term id) of every staged term, sorted.
  private var trigrams: [(trigram: String, termID: Int64)] = []
  /// Fingerprint of each staged document's indexed fields, by document key.
  private var fingerprints: [Int64: UInt64] = [:]
  /// Staged documents and the sum of their field lengths.
  private var documentCount: Int64 { Int64(rows.documentCount) }
  private var lengths: FieldValues<Int64> { rows.lengths }
  /// The connection's change stamp at the end of staging, inside the snapshot it read.
  private var stamp = ChangeStamp(localChanges: 0, dataVersion: 0)

  /// The temporary tables: postings as staged, postings sorted, documents, and the documents
  /// to leave out when records changed between the phases.
  private static let loadTable = "temp.lexical_rebuild_load"
  private static let postingTable = "temp.lexical_rebuild_posting"
  private static let documentTable = "temp.lexical_rebuild_document"
  private static let excludedTable = "temp.lexical_rebuild_excluded"
  // Built once: the connection finds its prepared statement by the text, for every row.
  private static let insertPosting = """
    INSERT INTO \(loadTable)(term_id, doc, kind, title_length, tags_length, content_length,
      title_frequency, tags_frequency, content_frequency, positions) VALUES (?,?,?,?,?,?,?,?,?,?)
    """
  private static let insertDocument = """
    INSERT INTO \(documentTable)(doc, kind, title_length, tags_length, content_length, terms)
      VALUES (?,?,?,?,?,?)
    """

  /// Phase 1: reads and tokenizes every record and stages the index rows. Records whose id is
  /// not a UUID are left out (``WorkspaceTransaction/malformedIDs(limit:)`` names them), here
  /// and when ``install(in:)`` catches up.
  /// - Parameter tx: a read (or write) transaction of the connection that will install them.
  /// - Throws: storage errors; ``WorkspaceError/damaged(file:message:)`` for a record with a
  ///   well-formed id that cannot be read (a malformed kind, date or tag list).
  /// - Complexity: O(*n*) in the total text of the workspace, plus a sort of the postings.
  static func stage(in tx: WorkspaceTransaction) throws -> StagedIndexRebuild {
    let db = tx.db
    try dropTables(db)
    try db.execute(
      """
      CREATE TEMP TABLE lexical_rebuild_load (term_id INTEGER NOT NULL, doc INTEGER NOT NULL,
        kind INTEGER NOT NULL, title_length INTEGER NOT NULL, tags_length INTEGER NOT NULL,
        content_length INTEGER NOT NULL, title_frequency INTEGER NOT NULL,
        tags_frequency INTEGER NOT NULL, content_frequency INTEGER NOT NULL,
        positions BLOB NOT NULL);
      CREATE TEMP TABLE lexical_rebuild_document (doc INTEGER PRIMARY KEY, kind INTEGER NOT NULL,
        title_length INTEGER NOT NULL, tags_length INTEGER NOT NULL,
        content_length INTEGER NOT NULL, terms BLOB NOT NULL);
      """)
    var staged = StagedIndexRebuild()
    // A record whose id is not a UUID (written by another program) is left out, not a reason to
    // leave every other record unindexed: `WorkspaceTransaction.malformedIDs` names it.
    try LexicalIndexStore.forEachDocumentChunk(in: tx, skippingMalformedIDs: true) { chunk in
      try staged.add(chunk, db: db)
    }
    // One external sort here, outside the write lock, so that installing is an ordered copy.
    try db.execute(
      """
      CREATE TEMP TABLE lexical_rebuild_posting AS
        SELECT * FROM \(loadTable) ORDER BY term_id, doc;
      DROP TABLE \(loadTable);
      """)
    var pairs: [(trigram: String, termID: Int64)] = []
    for (index, term) in staged.terms.enumerated() {
      for g in Trigrams.trigrams(of: term) { pairs.append((g, Int64(index + 1))) }
    }
    staged.trigrams = pairs.sorted { ($0.trigram, $0.termID) < ($1.trigram, $1.termID) }
    staged.stamp = try tx.changeStamp()
    return staged
  }

  /// Tokenizes one chunk and stages its rows.
  private mutating func add(
    _ chunk: ArraySlice<(document: IndexedDocument, key: Int64)>, db: SQLiteConnection
  ) throws {
    try rows.add(
      chunk, db: db, insertPosting: Self.insertPosting, insertDocument: Self.insertDocument)
    for entry in chunk { fingerprints[entry.key] = Self.fingerprint(entry.document) }
  }

  /// Phase 2: replaces every index row with the staged ones, catching up with records changed
  /// since ``stage(in:)``'s snapshot, and records this build's ``Tokenizer/version``. Only
  /// `lexical_*` rows and the version are written; no record is touched.
  /// - Parameter tx: a write transaction of the connection that staged the rows.
  /// - Returns: the number of documents the index now holds, and how many of them were caught
  ///   up (added, changed or removed since the snapshot; 0 when nothing was committed since).
  /// - Throws: storage errors.
  func install(in tx: WorkspaceTransaction) throws -> (documents: Int, caughtUp: Int) {
    let db = tx.db
    var documentFrequencies = self.documentFrequencies
    var documentCount = self.documentCount
    var lengths = self.lengths
    var excluded: [Int64] = []
    var additions: [(document: IndexedDocument, key: Int64)] = []
    if try tx.changeStamp() != stamp {
      // Another connection (or this one) committed since the snapshot: compare every record
      // with what was staged for it.
      var seen = Set<Int64>()
      try LexicalIndexStore.forEachDocumentChunk(in: tx, skippingMalformedIDs: true) { chunk in
        for entry in chunk {
          seen.insert(entry.key)
          guard let staged = fingerprints[entry.key] else {
            additions.append(entry)
            continue
          }
          if staged != Self.fingerprint(entry.document) {
            excluded.append(entry.key)
            additions.append(entry)
          }
        }
      }
      excluded += fingerprints.keys.filter { !seen.contains($0) }
    }
    let leavingOut = excluded.isEmpty ? "" : " WHERE doc NOT IN (SELECT doc FROM \(Self.excludedTable))"
    if !excluded.isEmpty {
      try db.execute("CREATE TEMP TABLE lexical_rebuild_excluded (doc INTEGER PRIMARY KEY)")
      for key in excluded {
        try db.run("INSERT INTO \(Self.excludedTable)(doc) VALUES (?)", [.integer(key)])
        guard
          let row = try db.first(
            """
            SELECT title_length, tags_length, content_length, terms FROM \(Self.documentTable)
              WHERE doc = ?
            """,
            [.integer(key)], { (r: SQLRow) in (r.int64(0), r.int64(1), r.int64(2), r.blob(3)) })
        else { continue }
        for id in LexicalIndexStore.unpack(row.3) { documentFrequencies[Int(id - 1)] -= 1 }
        lengths.title -= row.0
        lengths.tags -= row.1
        lengths.content -= row.2
        documentCount -= 1
      }
    }

    try db.execute(
      """
      DELETE FROM lexical_posting; DELETE FROM lexical_trigram; DELETE FROM lexical_term;
      DELETE FROM lexical_document;
      """)
    // Every record is indexed as it is now, so documents a schema migration listed as stale
    // (see `LexicalIndexStore.reindexStale(in:)`) are current too.
    if try LexicalIndexStore.staleCount(tx) > 0 { try db.execute("DELETE FROM lexical_stale") }
    for (index, term) in terms.enumerated() where documentFrequencies[index] > 0 {
      try db.run(
        "INSERT INTO lexical_term(term_id, term, document_frequency) VALUES (?, ?, ?)",
        [.integer(Int64(index + 1)), .text(term), .integer(documentFrequencies[index])])
    }
    for pair in trigrams where documentFrequencies[Int(pair.termID - 1)] > 0 {
      try db.run(
        "INSERT INTO lexical_trigram(trigram, term_id) VALUES (?, ?)",
        [.text(pair.trigram), .integer(pair.termID)])
    }
    try db.execute(
      """
      INSERT INTO lexical_posting(term_id, doc, kind, title_length, tags_length, content_length,
        title_frequency, tags_frequency, content_frequency, positions)
      SELECT term_id, doc, kind, title_length, tags_length, content_length, title_frequency,
        tags_frequency, content_frequency, positions
      FROM \(Self.postingTable)\(leavingOut) ORDER BY rowid;
      INSERT INTO lexical_document(doc, kind, title_length, tags_length, content_length, terms)
      SELECT doc, kind, title_length, tags_length, content_length, terms
      FROM \(Self.documentTable)\(leavingOut) ORDER BY doc;
      """)
    try db.run(
      """
      INSERT OR REPLACE INTO lexical_stats(id, document_count, title_length, tags_length,
        content_length) VALUES (1, ?, ?, ?, ?)
      """,
      [
        .integer(documentCount), .integer(lengths.title), .integer(lengths.tags),
        .integer(lengths.content),
      ])
    try LexicalIndexStore.recordTokenizerVersion(tx)
    for entry in additions {
      try LexicalIndexStore.index(entry.document, key: entry.key, in: tx)
    }
    return (Int(documentCount) + additions.count, Set(excluded + additions.map(\.key)).count)
  }

  /// Drops the temporary tables, if any (after installing, or after a failure).
  static func dropTables(_ db: SQLiteConnection) throws {
    try db.execute(
      [loadTable, postingTable, documentTable, excludedTable]
        .map { "DROP TABLE IF EXISTS \($0);" }.joined(separator: " "))
  }

  /// A 64-bit FNV-1a hash of what the index reads of `document` — kind, title, each tag,
  /// content — with separators no UTF-8 text contains, so different fields never hash alike
  /// by running together.
  static func fingerprint(_ document: IndexedDocument) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ byte: UInt8) {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    func mix(_ text: String) { for byte in text.utf8 { mix(byte) } }
    mix(UInt8(truncatingIfNeeded: document.kind.orderIndex))
    mix(document.title)
    mix(0xFF)
    for tag in document.tags {
      mix(tag)
      mix(0xFE)
    }
    mix(0xFF)
    mix(document.content)
    return hash
  }
}

extension LexicalIndexer {
  /// The postings of each document of `chunk`, in order, tokenized on as many threads as the
  /// processor has cores (tokenizing is most of an index build's time, and documents are
  /// independent).
  static func postings(forEach chunk: ArraySlice<(document: IndexedDocument, key: Int64)>)
    -> [DocumentPostings]
  {
    analysed(chunk) { postings(for: $0) }
  }

  /// ``termSummary(for:)`` of each document of `chunk`, in order, on as many threads as the
  /// processor has cores (as ``postings(forEach:)``).
  static func termSummaries(forEach chunk: ArraySlice<(document: IndexedDocument, key: Int64)>)
    -> [DocumentTermSummary]
  {
    analysed(chunk) { termSummary(for: $0) }
  }

  /// `analysis` of each document of `chunk`, in order, the documents split evenly among as many
  /// threads as the processor has cores (one thread below 128 documents).
  private static func analysed<Result: Sendable>(
    _ chunk: ArraySlice<(document: IndexedDocument, key: Int64)>,
    _ analysis: @escaping @Sendable (IndexedDocument) -> Result
  ) -> [Result] {
    let documents = chunk.map(\.document)
    let workers = min(ProcessInfo.processInfo.activeProcessorCount, documents.count / 64)
    guard workers > 1 else { return documents.map(analysis) }
    let slices = Mutex<[[Result]]>(Array(repeating: [], count: workers))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let range =
        (documents.count * worker / workers)..<(documents.count * (worker + 1) / workers)
      let analysed = documents[range].map(analysis)
      slices.withLock { $0[worker] = analysed }
    }
    return slices.withLock { $0 }.flatMap { $0 }
  }
}
