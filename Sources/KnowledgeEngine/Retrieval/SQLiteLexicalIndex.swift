import ContinuityKit
import Foundation

/// The ``LexicalIndexReader`` over the index persisted in the workspace database, read inside
/// one transaction: a query reads only the postings of its own terms (and their fuzzy or
/// prefix variants), never the whole corpus.
struct SQLiteLexicalIndex: PostingListReader {
  let tx: WorkspaceTransaction

  func statistics() throws -> IndexStatistics {
    let row = try tx.db.first(
      """
        SELECT document_count, title_length, tags_length, content_length FROM lexical_stats WHERE id
        = 1
      """,
      [],
      { (r: SQLRow) in (r.int(0), r.int64(1), r.int64(2), r.int64(3)) })
    if let (count, t, g, c) = row, count > 0, t >= 0, g >= 0, c >= 0 {
      return IndexStatistics(
        documentCount: count, totalFieldLengths: FieldValues(title: t, tags: g, content: c))
    }
    // A statistics row deleted or edited outside dolphin (no documents, negative lengths) would
    // give negative or NaN scores: counted from the documents instead, until `dolphin reindex`
    // (which doctor advises) writes the row again. O(n) in the indexed documents, only then.
    let counted = try tx.db.first(
      """
      SELECT count(*), coalesce(sum(title_length), 0), coalesce(sum(tags_length), 0),
        coalesce(sum(content_length), 0) FROM lexical_document
      """,
      [],
      { (r: SQLRow) in (r.int(0), r.int64(1), r.int64(2), r.int64(3)) })
    let (count, t, g, c) = counted ?? (0, 0, 0, 0)
    return IndexStatistics(
      documentCount: count, totalFieldLengths: FieldValues(title: t, tags: g, content: c))
  }

  func postings(for term: String) throws -> [Posting] {
    try tx.db.all(
      """
      SELECT p.doc, p.kind, p.title_length, p.tags_length, p.content_length, p.title_frequency,
        p.tags_frequency, p.content_frequency, p.positions
      FROM lexical_term t JOIN lexical_posting p ON p.term_id = t.term_id WHERE t.term = ?
      """, [.text(term)]
    ) { (r: SQLRow) in
      Posting(
        document: r.int64(0), kind: DocumentKind(orderIndex: r.int(1)) ?? .memory,
        termFrequencies: FieldValues(
          title: Int32(clamping: r.int64(5)), tags: Int32(clamping: r.int64(6)),
          content: Int32(clamping: r.int64(7))),
        fieldLengths: FieldValues(
          title: Int32(clamping: r.int64(2)), tags: Int32(clamping: r.int64(3)),
          content: Int32(clamping: r.int64(4))),
        positions: PositionList(bytes: r.blob(8)))
    }
  }

  /// Reads the postings column by column into one ``PostingList`` (no allocation per row).
  func postingList(for term: String) throws -> PostingList {
    var list = PostingList()
    let db = tx.db
    let termID = try db.first(
      "SELECT term_id, document_frequency FROM lexical_term WHERE term = ?", [.text(term)]
    ) {
      (r: SQLRow) in (r.int64(0), r.int(1))
    }
    guard let (id, frequency) = termID else { return list }
    list.reserveCapacity(frequency)
    try db.query(
      """
      SELECT doc, kind, title_length, tags_length, content_length, title_frequency,
        tags_frequency, content_frequency, positions
      FROM lexical_posting WHERE term_id = ?
      """, [.integer(id)]
    ) { (r: SQLRow) in
      r.withBlob(8) { positions in
        list.append(
          document: r.int64(0), kind: UInt8(clamping: min(max(r.int64(1), 0), 7)),
          termFrequencies: FieldCounts(
            title: Int32(truncatingIfNeeded: r.int64(5)),
            tags: Int32(truncatingIfNeeded: r.int64(6)),
            content: Int32(truncatingIfNeeded: r.int64(7))),
          fieldLengths: FieldCounts(
            title: Int32(truncatingIfNeeded: r.int64(2)),
            tags: Int32(truncatingIfNeeded: r.int64(3)),
            content: Int32(truncatingIfNeeded: r.int64(4))),
          positions: positions)
      }
    }
    return list
  }

  func documentFrequency(of term: String) throws -> Int {
    Int(
      try tx.db.integer("SELECT document_frequency FROM lexical_term WHERE term = ?", [.text(term)])
    )
  }

  /// One statement for every term: the terms go in as one JSON array (`json_each`), so the
  /// statement is prepared once whatever their number, and each is one probe of the term's
  /// unique index.
  func documentFrequencies(of terms: [String]) throws -> [String: Int] {
    guard !terms.isEmpty else { return [:] }
    var found: [String: Int] = [:]
    try tx.db.query(
      """
      SELECT term, document_frequency FROM lexical_term
      WHERE term IN (SELECT value FROM json_each(?)) AND document_frequency > 0
      """, [.text(Self.jsonArray(of: terms))]
    ) { (r: SQLRow) in found[r.text(0)] = r.int(1) }
    return found
  }

  /// `strings` as a JSON array (RFC 8259 §7: `"` and `\` escaped, control characters as
  /// `\uXXXX`), written directly: Foundation's encoder costs more than the look-up it feeds.
  static func jsonArray(of strings: [String]) -> String {
    var out = "["
    out.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
    for (i, string) in strings.enumerated() {
      if i > 0 { out += "," }
      out += "\""
      // Most terms need no escape: appended whole.
      if string.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
        out += string
        out += "\""
        continue
      }
      for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20:
          out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
      }
      out += "\""
    }
    return out + "]"
  }

  func vocabularyTerms(sharingTrigrams trigrams: [String], minimumShared: Int, limit: Int) throws
    -> [String]
  {
    let unique = Array(Set(trigrams)).sorted()
    guard !unique.isEmpty else { return [] }
    let placeholders = unique.map { _ in "?" }.joined(separator: ",")
    return try tx.db.all(
      """
      SELECT t.term FROM lexical_trigram g JOIN lexical_term t ON t.term_id = g.term_id
      WHERE g.trigram IN (\(placeholders)) GROUP BY g.term_id HAVING count(*) >= ?
      ORDER BY count(*) DESC, t.term LIMIT ?
      """, unique.map { .text($0) } + [.integer(Int64(minimumShared)), .integer(Int64(limit))]
    ) { $0.text(0) }
  }

  /// Terms whose UTF-8 bytes start with `prefix`, most frequent first, kept when they also
  /// start with it as `Character`s (as ``InMemoryLexicalIndex`` compares), so both readers
  /// return the same variants.
  func vocabularyTerms(withPrefix prefix: String, limit: Int) throws -> [String] {
    guard !prefix.isEmpty, limit > 0 else { return [] }
    let candidates = try tx.db.all(
      """
      SELECT term FROM lexical_term WHERE term > ? AND term < ?
      ORDER BY document_frequency DESC, term
      """,
      [.text(prefix), .text(prefix + "\u{10FFFF}")]
    ) { $0.text(0) }
    return Array(candidates.lazy.filter { $0 != prefix && $0.hasPrefix(prefix) }.prefix(limit))
  }

  func documents(_ keys: [Int64]) throws -> [Int64: IndexedDocument] {
    var out: [Int64: IndexedDocument] = [:]
    let knowledge = try tx.knowledge(rowIDs: keys.filter { $0 > 0 })
    for (k, item) in knowledge { out[k] = IndexedDocument(item) }
    let memories = try tx.memories(rowIDs: keys.filter { $0 < 0 }.map { -$0 })
    for (k, m) in memories { out[-k] = IndexedDocument(m) }
    return out
  }
}
