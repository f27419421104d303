import Foundation

/// One record found by a ``ContinuityRanker``: its id, score (higher is better; comparable only
/// within one response) and the query terms it matched.
public struct RankedMatch: Sendable, Equatable, Codable {
  /// The record's id.
  public var id: UUID
  /// The ranker's score.
  public var score: Double
  /// The query terms the record matched.
  public var matchedTerms: [String]
  /// Where the score comes from, when the ranker reports it (task search's `--explain`).
  public var scoreParts: ScoreParts?
  /// How many distinct query terms the record matched, when the ranker ordered by that first
  /// (``SearchResult/termsMatched``); nil otherwise.
  public var termsMatched: Int?

  /// A match as a ranker reports it.
  public init(
    id: UUID, score: Double, matchedTerms: [String], scoreParts: ScoreParts? = nil, termsMatched: Int? = nil
  ) {
    self.id = id
    self.score = score
    self.matchedTerms = matchedTerms
    self.scoreParts = scoreParts
    self.termsMatched = termsMatched
  }
}

/// The tasks a ``ContinuityRanker`` found for a query, and how it read the query.
package struct RankedTasks: Sendable {
  /// The ranking algorithm's version (``SearchResponse/algorithmVersion``).
  package var algorithmVersion: String?
  /// The best tasks, best first, at most the limit asked for.
  package var matches: [RankedMatch]
  /// How many tasks matched in all.
  package var total: Int
  /// How each distinct query term was matched (``SearchResponse/terms``).
  package var terms: [QueryTermMatch]
  /// The query's common words left out (``SearchResponse/unsearchedCommonWords``).
  package var unsearchedCommonWords: [String]?
  /// The query's words past the term limit (``SearchResponse/wordsPastTermLimit``).
  package var wordsPastTermLimit: [String]?
  /// The query's symbols no index holds (``SearchResponse/unsearchedSymbols``).
  package var unsearchedSymbols: [String]?
  /// Why nothing matched; nil when something did.
  package var emptyReason: EmptyReason?
  /// Whether the tasks are ordered by query terms matched first
  /// (``SearchResponse/orderedByTermsMatched``).
  package var orderedByTermsMatched: Bool? = nil
}

// The seam between continuity features and the lexical ranker: `handoff create --auto`
// (``KnowledgeEngine/createHandoff(_:)`` with `autoSelect`) and `task search`
// (``KnowledgeEngine/searchTasks(_:status:limit:)``) rank records only through
// ``KnowledgeEngine/continuityRanker``, which is ``ContinuityRanker/hybridLexical``.

/// How continuity features rank records for a query: one closure for knowledge items, one for
/// tasks, and the mode label every output reports.
package struct ContinuityRanker: Sendable {
  /// The retrieval mode named in outputs, `hybrid-lexical`.
  package var mode: String
  /// The best knowledge items for `query`, best first, at most `limit`.
  package var rankKnowledge:
    @Sendable (_ query: String, _ limit: Int, _ tx: WorkspaceTransaction) throws -> [RankedMatch]
  /// The best tasks for `query` (with `status` when given), best first, at most `limit`, how
  /// many tasks matched in all and, when none did, why.
  package var rankTasks:
    @Sendable (_ query: String, _ status: TaskStatus?, _ limit: Int, _ tx: WorkspaceTransaction) throws
      -> RankedTasks

  package init(
    mode: String,
    rankKnowledge: @escaping @Sendable (String, Int, WorkspaceTransaction) throws -> [RankedMatch],
    rankTasks: @escaping @Sendable (String, TaskStatus?, Int, WorkspaceTransaction) throws
      -> RankedTasks
  ) {
    self.mode = mode
    self.rankKnowledge = rankKnowledge
    self.rankTasks = rankTasks
  }

  /// `hybrid-lexical-v1`: knowledge through the persisted index; tasks (at most
  /// ``Limits/tasks``, not in the persisted index) through the same ranker over an in-memory
  /// index of their titles and notes built for the query.
  package static let hybridLexical = ContinuityRanker(
    mode: RetrievalMode.hybridLexical.rawValue,
    rankKnowledge: { query, limit, tx in
      let kinds = Set(KnowledgeKind.allCases.map { DocumentKind.knowledge($0) })
      // Never a stale index: the caller prepares it before its transaction
      // (``KnowledgeEngine/createHandoff(_:)``); if it is still unusable, index in memory.
      let index = try WorkspaceSearchIndex.resolve(tx) { SQLiteLexicalIndex(tx: tx) }
      return try HybridLexicalRanker().search(query, in: index, kinds: kinds, limit: limit).results
        .map { RankedMatch(id: $0.id, score: $0.score, matchedTerms: $0.matchedTerms) }
    },
    rankTasks: { query, status, limit, tx in
      let tasks = try tx.listTasks(status: status)
      let index = InMemoryLexicalIndex(tasks.map { t in
        IndexedDocument(id: t.id, kind: .knowledge(.goal), title: t.title, content: t.notes, updatedAt: t.updatedAt)
      })
      let response = try HybridLexicalRanker().search(query, in: index, kinds: nil, limit: limit)
      return RankedTasks(
        algorithmVersion: response.algorithmVersion,
        matches: response.results.map {
          RankedMatch(
            id: $0.id, score: $0.score, matchedTerms: $0.matchedTerms, scoreParts: $0.scoreParts,
            termsMatched: $0.termsMatched)
        },
        total: response.total, terms: response.terms, unsearchedCommonWords: response.unsearchedCommonWords,
        wordsPastTermLimit: response.wordsPastTermLimit, unsearchedSymbols: response.unsearchedSymbols,
        emptyReason: response.emptyReason, orderedByTermsMatched: response.orderedByTermsMatched)
    })
}

extension KnowledgeEngine {
  /// The ranker behind `--auto` handoffs and task search.
  package var continuityRanker: ContinuityRanker { .hybridLexical }

  /// The retrieval mode that ``searchTasks(_:status:limit:)`` and auto-selected handoffs use.
  public var continuityRankingMode: String { continuityRanker.mode }

  /// Checks a query and a result limit the way every search does.
  /// - Throws: ``ValidationError`` naming `query` (empty, only control or invisible characters,
  ///   or over ``Limits/query``) or `limit` (outside 1…``Limits/searchResultsMaximum``).
  /// - Returns: the query as searched (``HybridLexicalRanker/validated(_:limit:)``) and its
  ///   length before the cut to ``Limits/query`` characters.
  @discardableResult
  static func validateSearch(_ query: String, limit: Int) throws -> (text: String, givenCharacters: Int) {
    // One set of checks, in one order, for every search: the same query gets the same verdict
    // from `search`, `memory search` and `task search`.
    try HybridLexicalRanker.validatedQuery(query, limit: limit)
  }
}
