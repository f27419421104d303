/// The index rows of a batch of documents, tokenized outside the write lock and written into
/// temporary tables: what ``StagedIndexRebuild`` and ``StagedIndexAddition`` both stage before
/// their short install.
///
/// Terms are numbered in order of first appearance, from `firstTermID`; each (term, document)
/// posting row and each document row goes through the caller's `INSERT` statements, whose
/// parameters are, in order, `(term id, doc, kind, title length, tags length, content length,
/// title tf, tags tf, content tf, positions)` and `(doc, kind, title length, tags length,
/// content length, packed term ids)` — the columns of `lexical_posting` and `lexical_document`.
struct StagedIndexRows: Sendable {
  /// The id given to the first new term (1 where the ids are final, 0 for provisional numbers).
  let firstTermID: Int
  /// The staged terms, by id − `firstTermID`.
  private(set) var terms: [String] = []
  private var numbers: [String: Int] = [:]
  /// Staged documents holding each term, by id − `firstTermID`.
  private(set) var documentFrequencies: [Int64] = []
  /// How many documents were staged, and the sum of their field lengths.
  private(set) var documentCount = 0
  private(set) var lengths = FieldValues<Int64>.zero

  init(firstTermID: Int) {
    self.firstTermID = firstTermID
  }

  /// Tokenizes `chunk` (``LexicalIndexer/postings(forEach:)``) and writes its rows with
  /// `insertPosting` and `insertDocument` on `db`.
  /// - Throws: any SQLite error of the inserts.
  mutating func add(
    _ chunk: ArraySlice<(document: IndexedDocument, key: Int64)>, db: SQLiteConnection,
    insertPosting: String, insertDocument: String
  ) throws {
    let analysed = LexicalIndexer.postings(forEach: chunk)
    for (entry, postings) in zip(chunk, analysed) {
      let fieldLengths = postings.fieldLengths
      let kind = Int64(entry.document.kind.orderIndex)
      var ids: [Int64] = []
      ids.reserveCapacity(postings.terms.count)
      for occurrence in postings.terms {
        let number: Int
        if let known = numbers[occurrence.term] {
          number = known
          documentFrequencies[number] += 1
        } else {
          number = terms.count
          terms.append(occurrence.term)
          documentFrequencies.append(1)
          numbers[occurrence.term] = number
        }
        let id = Int64(number + firstTermID)
        ids.append(id)
        let tf = occurrence.termFrequencies
        try db.run(
          insertPosting,
          [
            .integer(id), .integer(entry.key), .integer(kind),
            .integer(Int64(fieldLengths.title)), .integer(Int64(fieldLengths.tags)),
            .integer(Int64(fieldLengths.content)),
            .integer(Int64(tf.title)), .integer(Int64(tf.tags)), .integer(Int64(tf.content)),
            .blob(occurrence.positions.bytes),
          ])
      }
      try db.run(
        insertDocument,
        [
          .integer(entry.key), .integer(kind), .integer(Int64(fieldLengths.title)),
          .integer(Int64(fieldLengths.tags)), .integer(Int64(fieldLengths.content)),
          .blob(LexicalIndexStore.pack(ids)),
        ])
      for field in IndexField.allCases { lengths[field] += Int64(fieldLengths[field]) }
      documentCount += 1
    }
  }
}
