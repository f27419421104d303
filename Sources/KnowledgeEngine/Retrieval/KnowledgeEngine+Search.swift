import ContinuityKit
import Foundation
import Synchronization

extension KnowledgeEngine {
  /// Why ``search(_:kinds:includeMemories:memoriesOnly:tag:limit:)`` refuses this combination of
  /// filters, or nil when it accepts it. Hosts check it before opening a workspace (the MCP
  /// server refuses such a call without creating one); `search` checks it too.
  /// - Parameters:
  ///   - kinds: the knowledge kinds asked for (empty: all).
  ///   - includeMemories: whether legacy memories are asked for beside knowledge.
  ///   - memoriesOnly: whether only legacy memories are asked for.
  ///   - tag: the tag filter asked for, if any.
  /// - Returns: a ``ValidationError`` with field `includeMemories` when `includeMemories` comes
  ///   with non-empty `kinds` or with a `tag`: those filters apply to knowledge items only
  ///   (memories have no kind, and their tags are read by `memory search`, not filtered here), so
  ///   the search would leave the memories out while saying it included them.
  public static func searchFilterConflict(
    kinds: [KnowledgeKind], includeMemories: Bool, memoriesOnly: Bool = false, tag: String? = nil
  ) -> ValidationError? {
    guard includeMemories, !memoriesOnly else { return nil }
    if !kinds.isEmpty {
      return ValidationError(
        field: "includeMemories",
        message: "includeMemories cannot be combined with kinds: memories have no kind, so a kind filter cannot "
          + "select them; search by kinds, or include memories without kinds")
    }
    if tag != nil {
      return ValidationError(
        field: "includeMemories",
        message: "includeMemories cannot be combined with tag: the tag filter applies to knowledge items only, so "
          + "it cannot select memories (a memory's own tags are ranked by memory search, `dolphin memory search`); "
          + "search by tag, or include memories without a tag")
    }
    return nil
  }

  /// Ranked lexical search (mode `hybrid-lexical`, algorithm `hybrid-lexical-v1`) over the
  /// index persisted in the workspace database. See ``HybridLexicalRanker`` for the scoring.
  ///
  /// Never over a stale index: one built with an older ``Tokenizer/version`` is rebuilt first
  /// (``prepareSearchIndex()``, which tells ``searchIndexObserver``); on a read-only store, when
  /// that rebuild cannot be done, or when a newer dolphin built the index, this search indexes
  /// the records in memory instead — the same results, in time proportional to the workspace.
  ///
  /// A result that another item supersedes names its successors (``SearchResult/supersededBy``);
  /// that marks it and leaves its rank and score as the ranker gave them.
  ///
  /// - Parameters:
  ///   - query: 1…500 characters, not only whitespace. Text is data: no character is syntax.
  ///   - kinds: knowledge kinds to return (empty: all kinds).
  ///   - includeMemories: also return legacy memories, labeled `memory`, each listed once, with
  ///     its provenance. A memory with a knowledge mirror (kind `context`, written by
  ///     `saveMemory`: its first line as title, its text as content) is ranked *as its mirror*
  ///     and returned as the memory (its id, kind `memory`), so it scores as the mirror does
  ///     without the flag; a memory without a mirror is ranked on its text and tags. Not with `tag`,
  ///     which filters knowledge items only (a memory's tags are ranked, not filtered, by
  ///     `memoriesOnly`), nor with `kinds`: memories have no kind.
  ///   - memoriesOnly: return only legacy memories.
  ///   - tag: when given, only knowledge items carrying this tag (normalized by
  ///     ``Limits/tagFilter(_:label:)``; memories are left out), compared as words are: case,
  ///     width and diacritics folded, Greek letters in notation spelled out (`tnf-alpha` selects
  ///     `tnf-α` and back; see `storedTags(matching:_:)`). The filter applies before
  ///     ranking, so every tagged match counts in `total`; when no knowledge item carries the
  ///     tag the response says ``EmptyReason/noItemWithTag`` (unless the query has no searchable
  ///     word, or the workspace nothing to search), and when words matched only untagged items,
  ///     ``EmptyReason/noMatchWithTag``. ``SearchResponse/tag`` holds the normalized tag.
  ///   - limit: 1…50 results (default 10).
  /// - Throws: ``ValidationError`` for the query, the tag or the limit, and (field
  ///   `includeMemories`) for `includeMemories` with non-empty `kinds` or a `tag`; storage errors.
  public func search(
    _ query: String, kinds: [KnowledgeKind] = [], includeMemories: Bool = false,
    memoriesOnly: Bool = false, tag: String? = nil,
    limit: Int = Limits.searchResultsDefault
  ) throws -> SearchResponse {
    if let conflict = Self.searchFilterConflict(
      kinds: kinds, includeMemories: includeMemories, memoriesOnly: memoriesOnly, tag: tag)
    {
      throw conflict
    }
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
    // Refused before the index is touched: a refused search never rebuilds a stale index.
    let (query, givenCharacters) = try HybridLexicalRanker.validatedQuery(query, limit: limit)
    return try readWithSearchIndex { tx, index in
      var documents: Set<Int64>?
      if let tag {
        // Folded as query words are, so `--tag cafe` selects items tagged `café`.
        documents = try tx.knowledgeRowIDs(taggedWithAny: try Self.storedTags(matching: tag, tx))
      }
      // A memory with a mirror is ranked as its mirror, which indexes its first line as a title
      // (the memory's own document has none), then shown as the memory; so including memories
      // does not demote them. With a tag filter memories are left out, so their mirrors (which
      // carry the tags) stay as they are.
      var mirroredMemories: Set<Int64> = []
      var memoryOfMirror: [UUID: UUID] = [:]
      if includeMemories && !memoriesOnly && tag == nil {
        let pairs = try tx.db.all(
          "SELECT k.id, m.id, m.rowid FROM knowledge k JOIN memory m ON m.id = k.memory_id", []
        ) { (r: SQLRow) in (r.text(0), r.text(1), r.int64(2)) }
        for (mirror, memory, memoryRowID) in pairs {
          guard let mirror = UUID(uuidString: mirror), let memory = UUID(uuidString: memory) else {
            continue
          }
          memoryOfMirror[mirror] = memory
          mirroredMemories.insert(LexicalIndexStore.key(memoryRowID: memoryRowID))
        }
      }
      // Validated above, so ranked directly (sanitizing the query once).
      var response = try HybridLexicalRanker().rank(
        query, in: index, kinds: filter, documents: documents, excluding: mirroredMemories,
        limit: limit)
      response.recordCut(givenCharacters: givenCharacters)
      // Marked, not demoted: the rank is the ranker's; the row says what stands instead.
      let graph = try tx.supersedeGraph()
      let successors = Self.successors(of: response.results.lazy.filter { $0.kind != .memory }.map(\.id), in: graph)
      // A memory ranked on its own text (`memoriesOnly`, or one without a mirror) is marked as
      // its mirror would be.
      var memories: [MemoryItem] = []
      for r in response.results where r.kind == .memory {
        if let m = try tx.memory(id: r.id) { memories.append(m) }
      }
      let memorySuccessors = Self.memorySuccessors(of: memories, in: graph)
      for i in response.results.indices {
        response.results[i].supersededBy = successors[response.results[i].id] ?? memorySuccessors[response.results[i].id]
        guard let memory = memoryOfMirror[response.results[i].id] else { continue }
        response.results[i].id = memory
        response.results[i].kind = .memory
        response.results[i].source = nil
      }
      // "Other kinds" is made specific when the only other kind is memories or knowledge: for a
      // search of every knowledge kind, the other kind can only be memories; for some kinds,
      // when a search of every knowledge kind (ranked again, only in this empty case) finds
      // nothing either. (A tag filter keeps knowledge items only, so memories are still all
      // that matched.)
      if response.emptyReason == .noMatchInKinds {
        if memoriesOnly {
          response.emptyReason = .onlyKnowledgeMatches
        } else if !includeMemories {
          let everyKnowledgeKind = Set(KnowledgeKind.allCases.map { DocumentKind.knowledge($0) })
          let onlyMemories =
            try kinds.isEmpty
            || HybridLexicalRanker().rank(
              query, in: index, kinds: everyKnowledgeKind, documents: documents, limit: 1, snippets: false
            ).emptyReason == .noMatchInKinds
          if onlyMemories { response.emptyReason = .onlyMemoriesMatch }
        }
      }
      response.scope = memoriesOnly ? .memories : includeMemories ? .knowledgeAndMemories : .knowledge
      // A workspace without anything to search says so, as `knowledge list` does, rather than
      // that the words occur nowhere (review 18-a, A7).
      let wordsNowhere: Set<EmptyReason> = [.noTermMatched, .noCommonWordMatched, .noOtherWordMatched, .allBelowThreshold]
      if response.results.isEmpty, let reason = response.emptyReason, wordsNowhere.contains(reason) {
        let knowledge = memoriesOnly ? 0 : try tx.db.first("SELECT COUNT(*) FROM knowledge", []) { (r: SQLRow) in r.int64(0) } ?? 0
        let memories = memoriesOnly || includeMemories
          ? try tx.db.first("SELECT COUNT(*) FROM memory", []) { (r: SQLRow) in r.int64(0) } ?? 0 : 0
        if knowledge == 0 && memories == 0 { response.emptyReason = .noRecords }
      }
      // No item carries the tag at all (a typo in it is the likely cause): said so, as
      // `knowledge list --tag` says it, not "the words match only items without this tag", which
      // suggests that some items have it (review 23-a, 6).
      response.tag = tag
      let unsearchable: Set<EmptyReason> = [.noQueryTerms, .noRecords]
      if documents?.isEmpty == true, response.results.isEmpty, let reason = response.emptyReason,
        !unsearchable.contains(reason)
      {
        response.emptyReason = .noItemWithTag
      }
      return response
    }
  }

  /// The index to rank against inside `tx`, read through ``postingCache`` and validated against
  /// `tx`'s change stamp (read before anything else in the transaction); see
  /// ``WorkspaceSearchIndex/resolve(_:whenUnusable:persisted:)`` for an unusable index.
  func searchIndex(
    _ tx: WorkspaceTransaction, whenUnusable: PersistedSearchIndex.Unusable
  ) throws -> PersistedSearchIndex? {
    postingCache.validate(try tx.changeStamp())
    return try .resolve(tx, whenUnusable: whenUnusable) {
      CachedLexicalIndex(base: SQLiteLexicalIndex(tx: tx), cache: postingCache)
    }
  }

  /// Runs `body` in a read transaction with the index to rank against, never a stale one.
  ///
  /// When the persisted index cannot be used, ``prepareSearchIndex()`` runs first, outside the
  /// read transaction: it rebuilds a stale index where the store can be written, and tells
  /// ``searchIndexObserver`` what it did or why it could not. When the index is still unusable
  /// after that, the search indexes the records in memory.
  func readWithSearchIndex<T: Sendable>(
    _ body: (WorkspaceTransaction, PersistedSearchIndex) throws -> T
  ) throws -> T {
    var whenUnusable = PersistedSearchIndex.Unusable.prepareFirst
    while true {
      let attempt: SearchAttempt<T> = try store.read { tx in
        guard let index = try searchIndex(tx, whenUnusable: whenUnusable) else { return .unusableIndex }
        return .done(try body(tx, index))
      }
      if case .done(let value) = attempt { return value }
      try prepareSearchIndex()
      // Whatever that did, the next attempt gets an index (in memory if still unusable).
      whenUnusable = .indexInMemory
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

  /// Rebuilds the persisted search index when its terms were made by an older
  /// ``Tokenizer/version`` than this build's, or its recorded version is unreadable, so that
  /// searches match stored words again; does nothing when it is current or holds no document,
  /// and leaves an index built by a newer dolphin as it is (rebuilding it here would only have
  /// the newer build rebuild it back). When it is current, documents a schema migration listed
  /// as stale are indexed again (``reindexStaleDocuments()``).
  ///
  /// The operations that rank call it when they find the index unusable (``search(_:kinds:includeMemories:memoriesOnly:tag:limit:)``,
  /// auto-selected handoffs), so a host need not; other operations never write the index. The
  /// result, unless ``SearchIndexPreparation/current``, goes to ``searchIndexObserver``.
  ///
  /// The rebuild holds the write lock only while it installs the new index: the records are
  /// read and tokenized in a read transaction first (see ``StagedIndexRebuild``), on a
  /// connection of its own where the database is a file, so other processes — and other calls
  /// in this one — keep writing meanwhile, and what they write is caught up when it installs.
  /// The install re-checks the version first, so when two processes rebuild at once the second
  /// finds the index current and installs nothing. One process rebuilds at a time.
  /// - Returns: ``SearchIndexPreparation/current``,
  ///   ``SearchIndexPreparation/rebuilt(from:documents:)``,
  ///   ``SearchIndexPreparation/reindexed(documents:)`` (listed documents indexed again),
  ///   ``SearchIndexPreparation/newer(builtWith:)``,
  ///   or ``SearchIndexPreparation/stale(builtWith:obstacle:)`` when it could not be rebuilt (a
  ///   read-only store; another process's write lasting past the busy timeout; a failed write).
  /// - Throws: storage errors from reading the version only; a failed rebuild is returned as
  ///   `stale`, so that a command that only reads still works.
  /// - Complexity: two single-row reads when the index is current; otherwise O(*n*) in the
  ///   total text of the workspace.
  @discardableResult
  public func prepareSearchIndex() throws -> SearchIndexPreparation {
    let outcome = try searchIndexPreparation()
    if outcome != .current { searchIndexObserver?(outcome) }
    return outcome
  }

  /// ``prepareSearchIndex()`` without telling the observer.
  private func searchIndexPreparation() throws -> SearchIndexPreparation {
    let built: StoredTokenizerVersion
    switch try store.read({ tx in try LexicalIndexStore.tokenizerStatus(tx) }) {
    case .current:
      // Documents a schema migration listed (their tags were rewritten) are indexed again. A
      // failed write leaves them listed for the next call, and `doctor` reports them; a
      // command that only reads still works.
      let reindexed = (try? reindexStaleDocuments()) ?? 0
      return reindexed > 0 ? .reindexed(documents: reindexed) : .current
    case .newer(let version): return .newer(builtWith: version)
    case .stale(let version): built = version
    }
    if store.isReadOnly {
      let reason = (store as? SQLiteWorkspaceStore)?.readOnlyReason ?? "the workspace is read-only"
      return .stale(builtWith: built, obstacle: .readOnly(reason: reason))
    }
    searchIndexRebuildStarting?(built)
    do {
      return try rebuildSearchIndex(onlyIfStale: true)
    } catch let WorkspaceError.readOnly(_, reason) {
      return .stale(builtWith: built, obstacle: .readOnly(reason: reason))
    } catch let WorkspaceError.busy(_, waited) {
      return .stale(builtWith: built, obstacle: .busy(waitedMilliseconds: waited))
    } catch {
      return .stale(builtWith: built, obstacle: .failed(reason: "\(error)"))
    }
  }

  /// Deletes and rebuilds the whole lexical index from the stored records (repair), and the tag
  /// filter's rows from the stored tags (``verifyTagFilterRows()``), and records this build's
  /// ``Tokenizer/version``, holding the write lock only to install it
  /// (see ``prepareSearchIndex()``). In the same transaction it first recreates, empty, the
  /// tables of the search index and the tag filter and the indexes that the schema steps
  /// create and the database lacks (dropped outside dolphin; see ``schemaDifference()``).
  ///
  /// A knowledge item or memory whose id is not a UUID (written by another program) is left out
  /// of the index and every other record is indexed; ``recordsLeftOutOfSearchIndex(limit:)``
  /// names those left out.
  /// - Returns: the number of documents indexed.
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)``, ``WorkspaceError/busy(file:waitedMilliseconds:)``
  ///   when another process's write outlasts the busy timeout; storage errors.
  @discardableResult
  public func rebuildSearchIndex() throws -> Int {
    if store.isReadOnly {
      throw WorkspaceError.readOnly(
        file: store.databasePath,
        reason: (store as? SQLiteWorkspaceStore)?.readOnlyReason ?? "the workspace is read-only")
    }
    guard case .rebuilt(_, let documents) = try rebuildSearchIndex(onlyIfStale: false) else {
      return 0  // Not reached: a forced rebuild always installs.
    }
    return documents
  }

  /// The records a rebuild of the search index leaves out (``rebuildSearchIndex()``): knowledge
  /// items and memories whose id is not a UUID, which no search result could name. Reads only.
  /// - Parameter limit: at most this many per table.
  /// - Returns: the records, knowledge items first, each in row id order; empty when every id
  ///   is a UUID.
  /// - Throws: storage errors.
  public func recordsLeftOutOfSearchIndex(limit: Int = 100) throws -> [WorkspaceTransaction.MalformedID] {
    try store.read { tx in try tx.malformedIDs(limit: limit) }.filter { $0.table == "knowledge" || $0.table == "memory" }
  }

  /// Serializes this process's rebuilds: a second one waits, then finds the index current.
  private static let rebuilding = Mutex(())

  /// Stages a new index in a read transaction, then installs it in a write transaction (see
  /// ``StagedIndexRebuild``), on a connection of its own when the store is a file.
  /// - Parameter onlyIfStale: do nothing (and say what the index is) unless it is stale, both
  ///   before staging and, in case another process rebuilt it meanwhile, before installing.
  private func rebuildSearchIndex(onlyIfStale: Bool) throws -> SearchIndexPreparation {
    try Self.rebuilding.withLock { _ throws -> SearchIndexPreparation in
      // A separate connection keeps this store's free for other calls meanwhile, and its
      // temporary tables apart from theirs.
      let rebuildStore = try (store as? SQLiteWorkspaceStore)?.reopened() ?? store
      func current(_ tx: WorkspaceTransaction) throws -> SearchIndexPreparation? {
        // A forced rebuild reads nothing of the old index (whose tables may be missing).
        guard onlyIfStale else { return nil }
        switch try LexicalIndexStore.tokenizerStatus(tx) {
        case .current: return onlyIfStale ? .current : nil
        case .newer(let version): return onlyIfStale ? .newer(builtWith: version) : nil
        case .stale: return nil
        }
      }
      enum Staging: Sendable {
        case done(SearchIndexPreparation)
        case staged(StagedIndexRebuild)
      }
      let staging: Staging = try rebuildStore.read { tx in
        if let outcome = try current(tx) { return .done(outcome) }
        return .staged(try StagedIndexRebuild.stage(in: tx))
      }
      guard case .staged(let staged) = staging else {
        if case .done(let outcome) = staging { return outcome }
        return .current
      }
      defer { _ = try? rebuildStore.read { tx in try StagedIndexRebuild.dropTables(tx.db) } }
      return try rebuildStore.write { tx in
        if let outcome = try current(tx) { return outcome }
        // A table of the search index or the tag filter dropped outside dolphin (or an index) is
        // recreated empty here, then filled below with everything else (review 25-a, 1).
        try tx.recreateDerivedSchemaObjects()
        let built = try LexicalIndexStore.storedTokenizerVersion(tx)
        let documents = try staged.install(in: tx).documents
        try StagedIndexRebuild.dropTables(tx.db)
        // The tag filter's rows are derived from the records too, and go stale the same way
        // (an edit or delete outside dolphin): rebuilt in the same transaction.
        try tx.rebuildTagRows()
        return .rebuilt(from: built, documents: documents)
      }
    }
  }

  /// How the persisted search index's tokenizer version compares with this build's. Reads
  /// only. `dolphin doctor` reports it.
  /// - Throws: storage errors.
  public func searchIndexTokenizerStatus() throws -> SearchIndexTokenizerStatus {
    try store.read { tx in try LexicalIndexStore.tokenizerStatus(tx) }
  }

  /// How many search index documents (knowledge items and memories) are listed for indexing
  /// again: a schema upgrade rewrote their record's tags, or an older dolphin (one still running
  /// from before an upgrade) wrote their record while the index held a newer tokenizer's terms,
  /// and left their terms to the newer build (see ``reindexStaleDocuments()``).
  /// Reads only. Until they are indexed again searches read every record instead of the
  /// persisted index, so results stay right; the next operation that ranks where the workspace
  /// can be written indexes them (``prepareSearchIndex()``). `dolphin doctor` reports them as
  /// pending work.
  /// - Returns: 0 when none are listed, or the workspace predates the list.
  /// - Throws: storage errors.
  public func searchIndexDocumentsPendingReindex() throws -> Int {
    try store.read { tx in try LexicalIndexStore.staleCount(tx) }
  }

  /// Indexes again the documents whose records changed behind the index's back (listed by a
  /// schema migration that rewrote stored tags, see `TagNormalizationStep` and
  /// `StoredTextCleanupStep`, or by an older dolphin that wrote records into a newer
  /// tokenizer's index without their terms). Does nothing where the index holds a newer
  /// tokenizer's terms: the newer dolphin indexes them. ``prepareSearchIndex()`` calls it, and
  /// searches call that when documents are listed, so no search ranks them by their old
  /// entries; it reads first and writes only when something is listed, so it costs one query
  /// otherwise.
  /// - Returns: how many documents were indexed again.
  /// - Throws: storage errors; ``WorkspaceError/readOnly(file:reason:)`` is never thrown (a
  ///   read-only store is left as it is).
  @discardableResult
  public func reindexStaleDocuments() throws -> Int {
    guard !store.isReadOnly, try store.read({ tx in try LexicalIndexStore.staleCount(tx) }) > 0 else { return 0 }
    return try store.write { tx in try LexicalIndexStore.reindexStale(in: tx) }
  }

  /// Checks that the tag filter's rows (what `knowledge list --tag` and `search --tag` match)
  /// agree with every knowledge item's stored tags: none left by an item deleted outside
  /// dolphin, none that differ from tags edited outside dolphin. Reads only.
  /// ``rebuildSearchIndex()`` (`dolphin reindex`) rebuilds them; `dolphin doctor` reports these
  /// with the search index problems.
  /// - Returns: problems found, naming the first 20 items (empty when consistent).
  /// - Throws: storage errors.
  public func verifyTagFilterRows() throws -> [String] {
    try store.read { tx in try tx.tagRowProblems(limit: 20) }
  }

  /// Checks that the index agrees with the records: every knowledge item and memory has an
  /// index document and no index document lacks its record, and postings and frequencies add
  /// up. Reads only. The tokenizer version the index was built with is not checked here (see
  /// ``searchIndexTokenizerStatus()``), nor the documents listed for indexing again — by a
  /// schema upgrade, or by an older dolphin that wrote records into a newer tokenizer's index
  /// without their terms (see ``searchIndexDocumentsPendingReindex()``): both are pending work
  /// that the next operation that ranks does, not a disagreement with the records. Nor are
  /// records whose id is not a UUID, which the index leaves out
  /// (``recordsLeftOutOfSearchIndex(limit:)``).
  /// - Returns: problems found (empty when consistent).
  public func verifySearchIndex() throws -> [String] {
    try store.read { tx in
      var problems: [String] = []
      // A record listed in `lexical_stale` may lack its index document: an older dolphin wrote
      // it into a newer tokenizer's index (see `LexicalIndexStore.acceptsThisBuildsTerms(_:)`).
      let anyListed = try LexicalIndexStore.staleCount(tx) > 0
      let unlisted = { (key: String) in
        anyListed ? " AND NOT EXISTS (SELECT 1 FROM lexical_stale s WHERE s.doc = \(key))" : ""
      }
      // A record whose id is not a UUID is left out of the index by design (see
      // `rebuildSearchIndex()`): named by `recordsLeftOutOfSearchIndex`, not as missing here,
      // since a reindex would not add it.
      let wellFormed = " AND typeof(k.id) = 'text' AND k.id GLOB '\(WorkspaceTransaction.uuidGlob)'"
      // Named (the first 20 of each table), so that the report says which records searches miss.
      for (table, key, noun) in [("knowledge", "k.rowid", "knowledge item(s)"), ("memory", "-k.rowid", "memory(ies)")] {
        let missing = try tx.db.integer(
          "SELECT count(*) FROM \(table) k LEFT JOIN lexical_document d ON d.doc = \(key) WHERE d.doc IS NULL"
            + wellFormed + unlisted(key))
        guard missing > 0 else { continue }
        let ids = try tx.db.all(
          """
          SELECT k.id FROM \(table) k LEFT JOIN lexical_document d ON d.doc = \(key) WHERE d.doc IS NULL\(wellFormed)\(unlisted(key))
            ORDER BY k.rowid LIMIT 20
          """
        ) { row in WorkspaceTransaction.shownID(row.text(0)) }
        let more = missing > Int64(ids.count) ? ", and \(missing - Int64(ids.count)) more" : ""
        problems.append(
          "\(missing) \(noun) are missing from the search index: \(ids.joined(separator: ", "))\(more) (run `\(command: "dolphin reindex")`)")
      }
      let orphans = try tx.db.integer(
        """
          SELECT count(*) FROM lexical_document d WHERE (d.doc > 0 AND NOT EXISTS (SELECT 1 FROM
          knowledge k WHERE k.rowid = d.doc)) OR (d.doc < 0 AND NOT EXISTS (SELECT 1 FROM memory m
          WHERE m.rowid = -d.doc))
        """
      )
      if orphans > 0 { problems.append("\(orphans) search index document(s) have no record") }
      // Postings: each indexed document lists its term ids (8 bytes each), each with one
      // posting row, and each term counts the documents it has postings in. A posting lost or
      // added behind the index's back breaks one of these sums.
      let listed = try tx.db.integer("SELECT coalesce(sum(length(terms)), 0) / 8 FROM lexical_document")
      let postings = try tx.db.integer("SELECT count(*) FROM lexical_posting")
      let frequencies = try tx.db.integer("SELECT coalesce(sum(document_frequency), 0) FROM lexical_term")
      if postings != listed {
        problems.append(
          "the search index holds \(postings) posting(s) but its documents list \(listed) term(s); "
            + "words may not be found (run `\(command: "dolphin reindex")`)")
      } else if frequencies != postings {
        problems.append(
          "the search index's term frequencies add up to \(frequencies), not to its \(postings) posting(s) "
            + "(run `\(command: "dolphin reindex")`)")
      }
      let count = try tx.db.integer("SELECT document_count FROM lexical_stats WHERE id = 1")
      let docs = try tx.db.integer("SELECT count(*) FROM lexical_document")
      if count != docs {
        problems.append("index statistics count \(count) documents but \(docs) are indexed")
      }
      // The field lengths BM25 normalizes with: edited, they skew every score (review, s13).
      let stored = try tx.db.first(
        "SELECT title_length, tags_length, content_length FROM lexical_stats WHERE id = 1", []
      ) { (r: SQLRow) in [r.int64(0), r.int64(1), r.int64(2)] }
      let summed = try tx.db.first(
        """
        SELECT coalesce(sum(title_length), 0), coalesce(sum(tags_length), 0), coalesce(sum(content_length), 0)
        FROM lexical_document
        """, []
      ) { (r: SQLRow) in [r.int64(0), r.int64(1), r.int64(2)] }
      // (A wrong count says it already: its lengths cannot agree either.)
      if count == docs, let stored, let summed, stored != summed {
        problems.append(
          "index statistics give field lengths (title, tags, content) of \(stored.map(String.init).joined(separator: ", ")) "
            + "but the indexed documents add up to \(summed.map(String.init).joined(separator: ", ")) (run `\(command: "dolphin reindex")`)")
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
  /// The persisted index cannot be used: prepare it, then try again.
  case unusableIndex
}
