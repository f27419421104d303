/// The read side of an inverted index, as the ranker uses it.
///
/// ``InMemoryLexicalIndex`` implements it for tests and previews; the workspace database
/// implements it over its persisted postings. Every call is a bounded read: a query asks for
/// the statistics once, one posting list per query term (and per fuzzy or prefix variant),
/// one prefix look-up of the vocabulary per query term present in it (word-form variants), at
/// most four prefix look-ups per number typed whole (longer numbers), at most two vocabulary
/// look-ups and one batch of document frequencies (the words one edit from a typo) per query
/// term absent from it, and the stored documents of at most a few dozen results. Nothing
/// requires reading the whole corpus.
///
/// Terms are always normalized terms from ``Tokenizer`` (the same ``Tokenizer/version`` must
/// have built the index).
///
/// Methods may throw the implementation's storage errors; the ranker passes them on.
public protocol LexicalIndexReader {
  /// The number of indexed documents and the total length of each field.
  ///
  /// - Complexity: O(1) expected (kept up to date on every change).
  func statistics() throws -> IndexStatistics

  /// Every posting of `term`, in ascending ``Posting/document`` order; empty when the term is
  /// not in the vocabulary.
  func postings(for term: String) throws -> [Posting]

  /// The number of documents that contain `term` (the length of its posting list).
  func documentFrequency(of term: String) throws -> Int

  /// The document frequencies of those of `terms` that are in the vocabulary, asked at once:
  /// the ranker looks up the hundreds of words one edit from a typo this way
  /// (``HybridLexicalRanker``). A default implementation asks ``documentFrequency(of:)`` for
  /// each term.
  ///
  /// - Parameter terms: normalized terms, in any number.
  /// - Returns: each term with at least one posting and its document frequency; terms not in
  ///   the vocabulary are absent.
  func documentFrequencies(of terms: [String]) throws -> [String: Int]

  /// Vocabulary terms that share at least `minimumShared` of `trigrams`, for fuzzy matching.
  ///
  /// - Parameters:
  ///   - trigrams: the query term's trigrams (``Trigrams/trigrams(of:)``), distinct.
  ///   - minimumShared: the fewest of them a returned term must have (≥ 1).
  ///   - limit: the most terms to return; when more qualify, those sharing the most trigrams
  ///     are kept, ties broken by term, ascending.
  /// - Returns: distinct terms with at least one posting, in no particular order.
  func vocabularyTerms(sharingTrigrams trigrams: [String], minimumShared: Int, limit: Int) throws
    -> [String]

  /// Vocabulary terms that start with `prefix` (compared as `Character`s), for query terms too
  /// short to fuzzy-match and for the word-form variants of terms in the vocabulary.
  ///
  /// - Returns: at most `limit` terms with at least one posting, most frequent first
  ///   (document frequency descending, then term ascending); never `prefix` itself.
  func vocabularyTerms(withPrefix prefix: String, limit: Int) throws -> [String]

  /// The stored documents for `keys`; keys not in the index are absent from the result.
  func documents(_ keys: [Int64]) throws -> [Int64: IndexedDocument]
}

/// Corpus-wide counts that BM25 normalizes with.
public struct IndexStatistics: Sendable, Equatable {
  /// *N*: the number of indexed documents (every kind).
  public var documentCount: Int
  /// The sum over all documents of each field's length, in terms.
  public var totalFieldLengths: FieldValues<Int64>

  /// Makes statistics.
  public init(documentCount: Int, totalFieldLengths: FieldValues<Int64>) {
    self.documentCount = documentCount
    self.totalFieldLengths = totalFieldLengths
  }

  /// The mean length of `field` in terms over all documents; 0 for an empty index.
  public func averageLength(of field: IndexField) -> Double {
    documentCount > 0 ? Double(totalFieldLengths[field]) / Double(documentCount) : 0
  }
}

extension LexicalIndexReader {
  /// One ``documentFrequency(of:)`` per term.
  /// - Complexity: O(*t*) look-ups for *t* terms.
  public func documentFrequencies(of terms: [String]) throws -> [String: Int] {
    var found: [String: Int] = [:]
    for term in terms where found[term] == nil {
      let frequency = try documentFrequency(of: term)
      if frequency > 0 { found[term] = frequency }
    }
    return found
  }
}
