import ContinuityKit
import Foundation

/// Whether the search index still describes each stored record: what ``KnowledgeEngine/searchIndexFreshness(listing:)``
/// found.
///
/// Every write through dolphin updates a record and its index entry in one transaction, so they
/// can only drift apart when the record is changed by another program (`sqlite3 … "UPDATE
/// knowledge SET title = …"`): searches then rank it by its old words until `dolphin reindex`.
public struct SearchIndexFreshness: Sendable, Equatable, Codable {
  /// How many indexed records were compared with their index entries.
  public var checked: Int
  /// How many of them no longer match their index entry.
  public var staleCount: Int
  /// The first of them (at most the `listing` asked for), knowledge items first, then memories,
  /// each in the order they were stored.
  public var stale: [StaleIndexEntry]

  /// Makes a result.
  public init(checked: Int, staleCount: Int, stale: [StaleIndexEntry]) {
    self.checked = checked
    self.staleCount = staleCount
    self.stale = stale
  }
}

/// A record whose search index entry no longer matches its stored text.
public struct StaleIndexEntry: Sendable, Equatable, Codable {
  /// `knowledge` or `memory`.
  public var recordType: String
  /// The record's id.
  public var id: UUID
  /// What differs, from what the index keeps of each document: `kind`, and `title`, `tags` or
  /// `content` for each field whose length in terms or (when the lengths agree) whose set of
  /// words differs; `words` only when the set of words differs and no one field can be named.
  public var differences: [String]

  /// Makes an entry.
  public init(recordType: String, id: UUID, differences: [String]) {
    self.recordType = recordType
    self.id = id
    self.differences = differences
  }

  /// `knowledge <id> (title, content)`.
  public var description: String {
    "\(recordType) \(id.uuidString) (\(differences.joined(separator: ", ")))"
  }
}

extension KnowledgeEngine {
  /// Compares every indexed knowledge item and memory with its search index entry, to find
  /// records changed outside dolphin after they were indexed. Reads only.
  ///
  /// Each record is tokenized again with this build's tokenizer, into its field lengths and
  /// distinct terms only (``LexicalIndexer/termSummary(for:)``: no positions), and its
  /// kind, field lengths and set of distinct terms compared with the index's document row (its
  /// kind, its three field lengths and its term list). A change of kind, or of a field's words,
  /// shows in one of them unless it only reorders words of the same field or swaps one word for
  /// another that is already in it as often: an edit that keeps every word and every length. No
  /// schema change is needed: the index keeps these for removing a document.
  ///
  /// Records that have no index entry, and documents listed for indexing again
  /// (``searchIndexDocumentsPendingReindex()``), are left to ``verifySearchIndex()`` and the
  /// pending-work notes. Records whose id is not a UUID are skipped, not compared: they are
  /// named by ``WorkspaceTransaction/malformedIDs(limit:)`` (doctor's `Record ids:`), and the
  /// rest of the workspace is still checked. An index built by another tokenizer version is not compared at all
  /// (the result is nil), since every document would differ.
  /// - Parameter limit: how many stale records to list (all are counted).
  /// - Returns: what was compared and what differs; nil when the index was built by another
  ///   tokenizer version.
  /// - Throws: ``WorkspaceError/damaged(file:message:)`` for a record with a well-formed id that
  ///   cannot be read (a malformed kind, date or tag list); storage errors.
  /// - Complexity: O(*n*) in the total text of the workspace: every record is read and
  ///   tokenized (across the processor's cores), in chunks, so memory stays bounded; less than
  ///   tokenizing for a rebuild, a fraction of `dolphin reindex`. About half of `dolphin doctor`
  ///   at 10,000 items.
  public func searchIndexFreshness(listing limit: Int = 20) throws -> SearchIndexFreshness? {
    try store.read { tx -> SearchIndexFreshness? in
      guard case .current = try LexicalIndexStore.tokenizerStatus(tx) else { return nil }
      let db = tx.db
      var terms: [Int64: String] = [:]
      try db.query("SELECT term_id, term FROM lexical_term") { row in terms[row.int64(0)] = row.text(1) }
      var pending = Set<Int64>()
      if try LexicalIndexStore.staleCount(tx) > 0 {
        try db.query("SELECT doc FROM lexical_stale") { row in pending.insert(row.int64(0)) }
      }
      var result = SearchIndexFreshness(checked: 0, staleCount: 0, stale: [])
      try LexicalIndexStore.forEachDocumentChunk(in: tx, skippingMalformedIDs: true) { chunk in
        guard let first = chunk.first?.key, let last = chunk.last?.key else { return }
        // Knowledge keys are row ids, memory keys negated row ids: either way one key range.
        var stored: [Int64: (kind: Int64, lengths: FieldValues<Int64>, terms: [UInt8])] = [:]
        try db.query(
          """
          SELECT doc, kind, title_length, tags_length, content_length, terms FROM lexical_document
            WHERE doc BETWEEN ? AND ?
          """, [.integer(min(first, last)), .integer(max(first, last))]
        ) { row in
          stored[row.int64(0)] = (
            row.int64(1), FieldValues(title: row.int64(2), tags: row.int64(3), content: row.int64(4)), row.blob(5)
          )
        }
        let entries = chunk.filter { stored[$0.key] != nil && !pending.contains($0.key) }
        // Lengths and distinct terms only: the positions a rebuild computes are not compared.
        let analysed = LexicalIndexer.termSummaries(forEach: entries[...])
        for (entry, summary) in zip(entries, analysed) {
          guard let row = stored[entry.key] else { continue }
          result.checked += 1
          var differences: [String] = []
          if row.kind != Int64(entry.document.kind.orderIndex) { differences.append("kind") }
          for field in IndexField.allCases where row.lengths[field] != Int64(summary.fieldLengths[field]) {
            differences.append(field.description)
          }
          if differences.isEmpty {
            let termIDs = LexicalIndexStore.unpack(row.terms)
            let storedTerms = termIDs.map { terms[$0] ?? "" }.sorted()
            if storedTerms != summary.terms {
              differences = try Self.fieldsWithOtherWords(
                doc: entry.key, termIDs: termIDs, terms: terms, LexicalIndexer.postings(for: entry.document), db)
            }
          }
          guard !differences.isEmpty else { continue }
          result.staleCount += 1
          if result.stale.count < limit {
            result.stale.append(
              StaleIndexEntry(
                recordType: entry.document.kind == .memory ? "memory" : "knowledge", id: entry.document.id,
                differences: differences))
          }
        }
      }
      return result
    }
  }

  /// The fields whose words differ between a document's stored postings and `postings` (the
  /// record tokenized again), for a document whose field lengths agree: each stored posting
  /// (one primary-key lookup per term the document lists) says in which fields its term
  /// occurs. `words` when no single field can be named (not expected: the term lists differ).
  private static func fieldsWithOtherWords(
    doc: Int64, termIDs: [Int64], terms: [Int64: String], _ postings: DocumentPostings, _ db: SQLiteConnection
  ) throws -> [String] {
    var stored = FieldValues<Set<String>>(title: [], tags: [], content: [])
    for termID in termIDs {
      try db.query(
        "SELECT title_frequency, tags_frequency, content_frequency FROM lexical_posting WHERE term_id = ? AND doc = ?",
        [.integer(termID), .integer(doc)]
      ) { row in
        let term = terms[termID] ?? ""
        if row.int64(0) > 0 { stored.title.insert(term) }
        if row.int64(1) > 0 { stored.tags.insert(term) }
        if row.int64(2) > 0 { stored.content.insert(term) }
      }
    }
    let fields = IndexField.allCases.filter { field in
      stored[field] != Set(postings.terms.filter { $0.termFrequencies[field] > 0 }.map(\.term))
    }
    return fields.isEmpty ? ["words"] : fields.map(\.description)
  }
}
