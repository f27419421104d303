import ContinuityKit

/// The index a search of the workspace ranks against: the persisted index when its terms were
/// made by this build's ``Tokenizer/version``, otherwise an index of every record built in
/// memory — never a stale one, whose terms queries would no longer match, nor a newer build's.
enum WorkspaceSearchIndex<Persisted: PostingListReader>: PostingListReader {
  /// The index persisted in the workspace database.
  case persisted(Persisted)
  /// Every record indexed in memory with this build's tokenizer, under the persisted keys
  /// (``LexicalIndexStore/inMemoryIndex(_:)``).
  case inMemory(InMemoryLexicalIndex)

  /// What to do when the persisted index cannot be used (``SearchIndexTokenizerStatus/isUsable``):
  /// it is stale, or was built by a newer dolphin.
  enum Unusable {
    /// Index every record in memory (slower: O(workspace) per search, but correct).
    case indexInMemory
    /// Give no index, so the caller can prepare the persisted one first
    /// (``KnowledgeEngine/prepareSearchIndex()``) outside this transaction.
    case prepareFirst
  }

  /// The index to rank against inside `tx`. Never writes: a stale index is rebuilt only by
  /// ``KnowledgeEngine/prepareSearchIndex()``, in transactions of its own.
  /// - Parameters:
  ///   - whenUnusable: what to do when the persisted index cannot be used.
  ///   - persisted: makes the persisted reader.
  /// - Returns: nil only for an unusable index with ``Unusable/prepareFirst``.
  /// - Throws: storage errors.
  static func resolve(
    _ tx: WorkspaceTransaction, whenUnusable: Unusable, persisted: () throws -> Persisted
  ) throws -> Self? {
    // Usable: built with this tokenizer (or empty), and no document listed as stale by a schema
    // migration (`LexicalIndexStore.reindexStale(in:)`).
    if try LexicalIndexStore.tokenizerStatus(tx).isUsable, try LexicalIndexStore.staleCount(tx) == 0 {
      return .persisted(try persisted())
    }
    switch whenUnusable {
    case .indexInMemory: return .inMemory(try LexicalIndexStore.inMemoryIndex(tx))
    case .prepareFirst: return nil
    }
  }

  /// ``resolve(_:whenUnusable:persisted:)`` indexing in memory when the persisted index cannot
  /// be used, so there is always an index.
  static func resolve(_ tx: WorkspaceTransaction, persisted: () throws -> Persisted) throws -> Self {
    try resolve(tx, whenUnusable: .indexInMemory, persisted: persisted)
      ?? .inMemory(try LexicalIndexStore.inMemoryIndex(tx))
  }

  // MARK: PostingListReader

  func postingList(for term: String) throws -> PostingList {
    switch self {
    case .persisted(let index): try index.postingList(for: term)
    case .inMemory(let index): PostingList(index.postings(for: term))
    }
  }

  func statistics() throws -> IndexStatistics {
    switch self {
    case .persisted(let index): try index.statistics()
    case .inMemory(let index): index.statistics()
    }
  }

  func postings(for term: String) throws -> [Posting] {
    switch self {
    case .persisted(let index): try index.postings(for: term)
    case .inMemory(let index): index.postings(for: term)
    }
  }

  func documentFrequency(of term: String) throws -> Int {
    switch self {
    case .persisted(let index): try index.documentFrequency(of: term)
    case .inMemory(let index): index.documentFrequency(of: term)
    }
  }

  func documentFrequencies(of terms: [String]) throws -> [String: Int] {
    switch self {
    case .persisted(let index): try index.documentFrequencies(of: terms)
    case .inMemory(let index): try index.documentFrequencies(of: terms)
    }
  }

  func vocabularyTerms(sharingTrigrams trigrams: [String], minimumShared: Int, limit: Int) throws
    -> [String]
  {
    switch self {
    case .persisted(let index):
      try index.vocabularyTerms(
        sharingTrigrams: trigrams, minimumShared: minimumShared, limit: limit)
    case .inMemory(let index):
      index.vocabularyTerms(sharingTrigrams: trigrams, minimumShared: minimumShared, limit: limit)
    }
  }

  func vocabularyTerms(withPrefix prefix: String, limit: Int) throws -> [String] {
    switch self {
    case .persisted(let index): try index.vocabularyTerms(withPrefix: prefix, limit: limit)
    case .inMemory(let index): index.vocabularyTerms(withPrefix: prefix, limit: limit)
    }
  }

  func documents(_ keys: [Int64]) throws -> [Int64: IndexedDocument] {
    switch self {
    case .persisted(let index): try index.documents(keys)
    case .inMemory(let index): index.documents(keys)
    }
  }
}
