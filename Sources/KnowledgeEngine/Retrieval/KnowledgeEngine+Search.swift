import ContinuityKit
import Foundation

extension KnowledgeEngine {
  /// Ranked lexical search (mode `hybrid-lexical`, algorithm `hybrid-lexical-v1`) over the
  /// index persisted in the workspace database. See ``HybridLexicalRanker`` for the scoring.
  ///
  /// Never over a stale index: one built with another ``Tokenizer/version`` is rebuilt first
  /// (``prepareSearchIndex()``); on a read-only store, or when that rebuild fails, this search
  /// indexes the records in memory instead — the same results, in time proportional to the
  /// workspace.
  ///
  /// - Parameters:
  ///   - query: 1…500 characters, not only whitespace. Text is data: no character is syntax.
  ///   - kinds: knowledge kinds to return (empty: all kinds).
  ///   - includeMemories: also return legacy memories, labeled `memory`; a memory's knowledge
  ///     mirror (kind `context`, written by `saveMemory`) is then left out, so the memory is
  ///     listed once, with its provenance — unless `tag` is given: memories are left out then,
  ///     and the mirrors, which carry the memories' tags, are searched.
  ///   - memoriesOnly: return only legacy memories.
  ///   - tag: when given, only knowledge items carrying this tag (normalized by
  ///     ``Limits/tagFilter(_:label:)``; memories are left out). The filter applies before
  ///     ranking, so every tagged match counts in `total`; when words matched only untagged
  ///     items the response says ``EmptyReason/noMatchWithTag``.
  ///   - limit: 1…50 results (default 10).
  /// - Throws: ``ValidationError`` for the query, the tag or the limit; storage errors.
  public func search(
    _ query: String, kinds: [KnowledgeKind] = [], includeMemories: Bool = false,
    memoriesOnly: Bool = false, tag: String? = nil,
    limit: Int = Limits.searchResultsDefault
  ) throws -> SearchResponse {
    var allowed: Set<DocumentKind>
    if memoriesOnly {
      allowed = [.memory]
    } else {
      allowed = Set(
        (kinds.isEmpty ? KnowledgeKind.allCases : kinds).map { DocumentKind.knowledge($0) })
      if includeMemories { allowed.insert(.memory) }
    }
    let filter: Set<DocumentKind>? = allowed.count == DocumentKind.allCases.count ? nil : allowed
    let tag = try tag.map { raw throws(ValidationError) in try Limits.tagFilter(raw) }
    return try readWithSearchIndex { tx, index in
      var documents: Set<Int64>?
      if let tag {
        // Folded as query words are, so `--tag cafe` selects items tagged `café`.
        documents = try tx.knowledgeRowIDs(taggedWithAny: try Self.storedTags(matching: tag, tx))
      }
      var mirrors: Set<Int64> = []
      // With a tag filter memories are left out, so their mirrors (which carry the tags) stay.
      if includeMemories && !memoriesOnly && tag == nil {
        mirrors = Set(
          try tx.db.all(
            "SELECT k.rowid FROM knowledge k JOIN memory m ON m.id = k.memory_id", []
          ) { (r: SQLRow) in r.int64(0) })
      }
      var response = try HybridLexicalRanker().search(
        query, in: index, kinds: filter, documents: documents, excluding: mirrors,
        limit: limit)
      // "Other kinds" is made specific when the only other kind is memories or knowledge.
      if response.emptyReason == .noMatchInKinds {
        if memoriesOnly {
          response.emptyReason = .onlyKnowledgeMatches
        } else if kinds.isEmpty && !includeMemories && tag == nil {
          response.emptyReason = .onlyMemoriesMatch
        }
      }
      return response
    }
  }

  /// The index to rank against inside `tx`, read through ``postingCache`` and validated against
  /// `tx`'s change stamp (read before anything else in the transaction); see
  /// ``WorkspaceSearchIndex/resolve(_:staleRead:persisted:)`` for a stale index.
  func searchIndex(
    _ tx: WorkspaceTransaction, staleRead: PersistedSearchIndex.StaleRead
  ) throws -> PersistedSearchIndex? {
    postingCache.validate(try tx.changeStamp())
    return try .resolve(tx, staleRead: staleRead) { rebuilt in
      // A rebuild in this transaction moved the stamp on.
      if rebuilt { postingCache.validate(try tx.changeStamp()) }
      return CachedLexicalIndex(base: SQLiteLexicalIndex(tx: tx), cache: postingCache)
    }
  }

  /// Runs `body` in a read transaction with the index to rank against, never a stale one.
  ///
  /// When the persisted index was built with another tokenizer version and the store can be
  /// written, it is rebuilt first (``prepareSearchIndex()``), once, rather than indexed in
  /// memory for every search; on a read-only store, or when that rebuild failed, the search
  /// indexes the records in memory.
  func readWithSearchIndex<T: Sendable>(
    _ body: (WorkspaceTransaction, PersistedSearchIndex) throws -> T
  ) throws -> T {
    var staleRead: PersistedSearchIndex.StaleRead =
      store.isReadOnly ? .indexInMemory : .rebuildFirst
    while true {
      let attempt: SearchAttempt<T> = try store.read { tx in
        guard let index = try searchIndex(tx, staleRead: staleRead) else { return .staleIndex }
        return .done(try body(tx, index))
      }
      if case .done(let value) = attempt { return value }
      try prepareSearchIndex()
      // Whatever the rebuild did, the next attempt gets an index (in memory if still stale).
      staleRead = .indexInMemory
    }
  }

  /// The ids of the best `depth` documents for `query` (every kind, memories included), past
  /// the 1…50 bound of ``search(_:kinds:includeMemories:memoriesOnly:limit:)``: relevance
  /// evaluation needs depth 100 for Recall@100. For benchmarks only; the product never calls it.
  ///
  /// - Parameters:
  ///   - query: any text; a query with no searchable word gives no ids.
  ///   - depth: the most ids to return (at least 1 is asked for).
  ///   - parameters: the ranking constants (``HybridLexicalRanker/Parameters/v1`` unless a
  ///     benchmark is tuning them).
  /// - Returns: ids, best first, in the order `search` would list them.
  /// - Throws: storage errors.
  @_spi(Benchmarking)
  public func rankedIDs(
    _ query: String, depth: Int, parameters: HybridLexicalRanker.Parameters = .v1
  ) throws -> [UUID] {
    try readWithSearchIndex { _, index in
      try HybridLexicalRanker(parameters: parameters).rankedIDs(query, in: index, depth: depth)
    }
  }

  /// How `hybrid-lexical-v1` resolves `query` against this workspace's index, as one line of
  /// JSON, for offline analysis (`dolphin-bench quality --dump-queries`). For benchmarks only.
  ///
  /// Shape: `{"pairs": [[first, second, gap], …], "terms": [{"term": T, "variants":
  /// [{"term": V, "weight": v}, …]}, …]}` — distinct query terms in query order (stop words
  /// dropped as the ranker drops them), each with the vocabulary terms searched for it and
  /// their weights *v* (1 exact, less for fuzzy and prefix variants; none when nothing
  /// matched); `pairs` are the phrase pairs by term index with their distance in the query.
  /// - Throws: storage errors.
  @_spi(Benchmarking)
  public func resolvedQueryJSON(_ query: String) throws -> String {
    try readWithSearchIndex { _, index in
      let resolved = try HybridLexicalRanker().resolvedQuery(query, in: index)
      let terms = resolved.terms.map { t in
        ["term": t.term, "variants": t.variants.map { ["term": $0.term, "weight": $0.weight] }]
          as [String: Any]
      }
      let pairs = resolved.pairs.map { [$0.first, $0.second, $0.gap] }
      let data = try JSONSerialization.data(
        withJSONObject: ["terms": terms, "pairs": pairs], options: [.sortedKeys])
      return String(decoding: data, as: UTF8.self)
    }
  }

  /// Rebuilds the persisted search index when its terms were made by another
  /// ``Tokenizer/version`` than this build's (an upgrade changed the rules), so that searches
  /// match stored words again; does nothing when it is current or holds no document. When it is
  /// current, documents a schema migration listed as stale are indexed again
  /// (``reindexStaleDocuments()``).
  ///
  /// Hosts call it once after opening a workspace (the `dolphin` CLI and `dolphin mcp` do, and
  /// report the result on standard error); searches call it themselves when they find the index
  /// stale, so a host that never calls it still never searches a stale index. The rebuild runs
  /// in one write transaction (`BEGIN IMMEDIATE`) that checks the version again first: when two
  /// processes open the same workspace at once, the second waits for the first (up to the
  /// store's busy timeout), finds the index current and does nothing. Only index rows and the
  /// version are written; no record changes.
  /// - Returns: ``SearchIndexPreparation/current``,
  ///   ``SearchIndexPreparation/rebuilt(from:documents:)``, or
  ///   ``SearchIndexPreparation/stale(builtWith:reason:)`` when it could not be rebuilt (a
  ///   read-only store, or a failed write: a lock held past the busy timeout, a full disk).
  /// - Throws: storage errors from reading the version only; a failed rebuild is returned as
  ///   `stale`, so that a command that only reads still works.
  /// - Complexity: two single-row reads when the index is current; otherwise O(*n*) in the
  ///   total text of the workspace.
  @discardableResult
  public func prepareSearchIndex() throws -> SearchIndexPreparation {
    guard let built = try store.read({ tx in try LexicalIndexStore.staleTokenizerVersion(tx) })
    else {
      // Documents a schema migration listed (their tags were rewritten) are indexed again. A
      // failed write leaves them listed for the next call, and `doctor` reports them; a
      // command that only reads still works.
      _ = try? reindexStaleDocuments()
      return .current
    }
    if store.isReadOnly {
      let reason = (store as? SQLiteWorkspaceStore)?.readOnlyReason ?? "the workspace is read-only"
      return .stale(builtWith: built, reason: reason)
    }
    do {
      return try store.write { tx in
        // Another process may have rebuilt it while this one waited for the write lock.
        guard let built = try LexicalIndexStore.staleTokenizerVersion(tx) else { return .current }
        return .rebuilt(from: built, documents: try LexicalIndexStore.rebuild(in: tx))
      }
    } catch let WorkspaceError.readOnly(_, reason) {
      return .stale(builtWith: built, reason: reason)
    } catch {
      return .stale(builtWith: built, reason: "\(error)")
    }
  }

  /// Deletes and rebuilds the whole lexical index from the stored records (repair), and
  /// records this build's ``Tokenizer/version``.
  /// - Returns: the number of documents indexed.
  @discardableResult
  public func rebuildSearchIndex() throws -> Int {
    try store.write { tx in try LexicalIndexStore.rebuild(in: tx) }
  }

  /// Indexes again the documents whose records changed behind the index's back (listed by a
  /// schema migration that rewrote stored tags, see `TagNormalizationStep`).
  /// ``prepareSearchIndex()`` calls it, so hosts that call that after opening a workspace (the
  /// CLI and `dolphin mcp` do) and searches get it too; it reads first and writes only when
  /// something is listed, so it costs one query otherwise.
  /// - Returns: how many documents were indexed again.
  /// - Throws: storage errors; ``WorkspaceError/readOnly(file:reason:)`` is never thrown (a
  ///   read-only store is left as it is).
  @discardableResult
  public func reindexStaleDocuments() throws -> Int {
    guard !store.isReadOnly, try store.read({ tx in try LexicalIndexStore.staleCount(tx) }) > 0 else { return 0 }
    return try store.write { tx in try LexicalIndexStore.reindexStale(in: tx) }
  }

  /// Checks that the index agrees with the records: every knowledge item and memory has an
  /// index document and no index document lacks its record, postings and frequencies add up,
  /// and an index holding documents was built with this build's ``Tokenizer/version``. Reads
  /// only: a stale index is reported, not rebuilt (see ``prepareSearchIndex()``).
  /// - Returns: problems found (empty when consistent).
  public func verifySearchIndex() throws -> [String] {
    try store.read { tx in
      var problems: [String] = []
      let missing = try tx.db.integer(
        """
          SELECT count(*) FROM knowledge k LEFT JOIN lexical_document d ON d.doc = k.rowid WHERE
          d.doc IS NULL
        """
      )
      if missing > 0 {
        problems.append("\(missing) knowledge item(s) are missing from the search index")
      }
      let missingMemories = try tx.db.integer(
        """
          SELECT count(*) FROM memory m LEFT JOIN lexical_document d ON d.doc = -m.rowid WHERE d.doc
          IS NULL
        """
      )
      if missingMemories > 0 {
        problems.append("\(missingMemories) memory(ies) are missing from the search index")
      }
      let orphans = try tx.db.integer(
        """
          SELECT count(*) FROM lexical_document d WHERE (d.doc > 0 AND NOT EXISTS (SELECT 1 FROM
          knowledge k WHERE k.rowid = d.doc)) OR (d.doc < 0 AND NOT EXISTS (SELECT 1 FROM memory m
          WHERE m.rowid = -d.doc))
        """
      )
      if orphans > 0 { problems.append("\(orphans) search index document(s) have no record") }
      let stale = try LexicalIndexStore.staleCount(tx)
      if stale > 0 {
        problems.append(
          "\(stale) search index document(s) predate a change to their record's tags (schema step "
            + "\(TagNormalizationStep.name)); the next dolphin command that can write the workspace indexes them again, "
            + "or run `dolphin reindex`")
      }
      if let built = try LexicalIndexStore.staleTokenizerVersion(tx) {
        problems.append(
          "the search index was built with tokenizer version \(built); this build tokenizes with version "
            + "\(Tokenizer.version), so queries and stored terms may not match (run `dolphin reindex`)")
      }
      // Postings: each indexed document lists its term ids (8 bytes each), each with one
      // posting row, and each term counts the documents it has postings in. A posting lost or
      // added behind the index's back breaks one of these sums.
      let listed = try tx.db.integer("SELECT coalesce(sum(length(terms)), 0) / 8 FROM lexical_document")
      let postings = try tx.db.integer("SELECT count(*) FROM lexical_posting")
      let frequencies = try tx.db.integer("SELECT coalesce(sum(document_frequency), 0) FROM lexical_term")
      if postings != listed {
        problems.append(
          "the search index holds \(postings) posting(s) but its documents list \(listed) term(s); "
            + "words may not be found (run `dolphin reindex`)")
      } else if frequencies != postings {
        problems.append(
          "the search index's term frequencies add up to \(frequencies), not to its \(postings) posting(s) "
            + "(run `dolphin reindex`)")
      }
      let count = try tx.db.integer("SELECT document_count FROM lexical_stats WHERE id = 1")
      let docs = try tx.db.integer("SELECT count(*) FROM lexical_document")
      if count != docs {
        problems.append("index statistics count \(count) documents but \(docs) are indexed")
      }
      return problems
    }
  }
}

/// The index a search of the workspace ranks against: the persisted one, read through the
/// engine's posting cache, or, when it is stale and cannot be rebuilt, one built in memory.
typealias PersistedSearchIndex = WorkspaceSearchIndex<CachedLexicalIndex<SQLiteLexicalIndex>>

/// One try of ``KnowledgeEngine/readWithSearchIndex(_:)``.
private enum SearchAttempt<Value: Sendable>: Sendable {
  case done(Value)
  /// The persisted index is stale and the store can be written: rebuild, then try again.
  case staleIndex
}
