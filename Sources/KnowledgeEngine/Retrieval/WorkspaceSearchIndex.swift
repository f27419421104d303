import ContinuityKit

/// The index a search of the workspace ranks against: the persisted index when its terms were
/// made by this build's ``Tokenizer/version``, otherwise an index of every record built in
/// memory — never a stale one, whose terms queries would no longer match.
enum WorkspaceSearchIndex<Persisted: PostingListReader>: PostingListReader {
  /// The index persisted in the workspace database.
  case persisted(Persisted)
  /// Every record indexed in memory with this build's tokenizer, under the persisted keys
  /// (``LexicalIndexStore/inMemoryIndex(_:)``).
  case inMemory(InMemoryLexicalIndex)

  /// What a read transaction does when the persisted index is stale.
  enum StaleRead {
    /// Index every record in memory (slower: O(workspace) per search, but correct).
    case indexInMemory
    /// Give no index, so the caller can rebuild the persisted one first.
    case rebuildFirst
  }

  /// The index to rank against inside `tx`.
  ///
  /// When the persisted index is stale (``LexicalIndexStore/staleTokenizerVersion(_:)``): in a
  /// write transaction it is rebuilt there first (``LexicalIndexStore/rebuild(in:)``); in a
  /// read transaction `staleRead` decides.
  /// - Parameters:
  ///   - persisted: makes the persisted reader; its argument says whether the index was just
  ///     rebuilt in `tx`.
  /// - Returns: nil only for a stale index in a read transaction with
  ///   ``StaleRead/rebuildFirst``.
  /// - Throws: storage errors.
  static func resolve(
    _ tx: WorkspaceTransaction, staleRead: StaleRead,
    persisted: (_ rebuilt: Bool) throws -> Persisted
  ) throws -> Self? {
    guard try LexicalIndexStore.staleTokenizerVersion(tx) != nil else {
      return .persisted(try persisted(false))
    }
    if tx.isWritable {
      try LexicalIndexStore.rebuild(in: tx)
      return .persisted(try persisted(true))
    }
    switch staleRead {
    case .indexInMemory: return .inMemory(try LexicalIndexStore.inMemoryIndex(tx))
    case .rebuildFirst: return nil
    }
  }

  /// ``resolve(_:staleRead:persisted:)`` indexing in memory when a read finds the persisted
  /// index stale, so there is always an index.
  static func resolve(
    _ tx: WorkspaceTransaction, persisted: (_ rebuilt: Bool) throws -> Persisted
  ) throws -> Self {
    try resolve(tx, staleRead: .indexInMemory, persisted: persisted)
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
