import Foundation

/// One task found by ``KnowledgeEngine/searchTasks(_:status:limit:)``.
public struct TaskSearchResult: Sendable, Equatable, Codable {
  /// The task, as stored.
  public var task: TaskItem
  /// The ranker's score (higher is better; comparable only within one response).
  public var score: Double
  /// The query words the task matched.
  public var matchedTerms: [String]
  /// Where ``score`` comes from (`task search --explain` prints them); nil only from a ranker
  /// that does not report them (``KnowledgeEngine/continuityRankingMode`` `hybrid-lexical`
  /// always does).
  public var scoreParts: TaskScoreParts?
  /// How many distinct query terms the task matched, when the response is ordered by that first
  /// (``TaskSearchResponse/orderedByTermsMatched``); nil (absent from JSON) otherwise.
  public var termsMatched: Int?

  /// A task found, with its score and where the score comes from.
  public init(
    task: TaskItem, score: Double, matchedTerms: [String], scoreParts: TaskScoreParts? = nil, termsMatched: Int? = nil
  ) {
    self.task = task
    self.score = score
    self.matchedTerms = matchedTerms
    self.scoreParts = scoreParts
    self.termsMatched = termsMatched
  }
}

/// The additive parts of a task's score: the parts of ``ScoreParts`` a task can have, named
/// for a task's fields. A task has a title and notes and no tags, so the ranker's tags part is
/// always 0 and left out, and its content part is the notes'.
public struct TaskScoreParts: Sendable, Equatable, Codable {
  /// BM25F of exactly matched terms attributed to the title.
  public var title: Double
  /// BM25F of exactly matched terms attributed to the notes.
  public var notes: Double
  /// BM25F of typo (trigram), word-form and prefix variants, already down-weighted.
  public var fuzzy: Double
  /// The phrase boost: query words found next to each other.
  public var phrase: Double
  /// The coverage boost: the share of distinct query terms matched.
  public var coverage: Double

  /// Makes task score parts; see each property.
  public init(title: Double, notes: Double, fuzzy: Double, phrase: Double, coverage: Double) {
    self.title = title
    self.notes = notes
    self.fuzzy = fuzzy
    self.phrase = phrase
    self.coverage = coverage
  }

  /// A task's share of the ranker's ``ScoreParts``: its content part is the notes'; its tags
  /// part, always 0 for a task, is added to the title's so that the parts still sum to the score.
  init(_ parts: ScoreParts) {
    self.init(
      title: parts.title + parts.tags, notes: parts.content, fuzzy: parts.fuzzy, phrase: parts.phrase,
      coverage: parts.coverage)
  }

  /// The sum of all parts: the score, up to rounding.
  public var total: Double { title + notes + fuzzy + phrase + coverage }
}

/// The answer to a task search: the ranked tasks and the retrieval mode that ranked them.
public struct TaskSearchResponse: Sendable, Equatable, Codable {
  /// The retrieval mode, `hybrid-lexical` (see ``KnowledgeEngine/continuityRankingMode``).
  public var mode: String
  /// The ranking algorithm's version, `hybrid-lexical-v1`, as ``SearchResponse/algorithmVersion``.
  public var algorithmVersion: String?
  /// The query as searched, as in ``SearchResponse/query``: cut to its first ``Limits/query``
  /// (500) characters when it was longer (``queryCutAt``).
  public var query: String
  /// How many characters of a query longer than ``Limits/query`` were searched, as in
  /// ``SearchResponse/queryCutAt``; nil when the whole query was searched.
  public var queryCutAt: Int?
  /// The length of a query that was cut, in characters, as in
  /// ``SearchResponse/queryCharacters``; nil when the whole query was searched.
  public var queryCharacters: Int?
  /// Best first, at most the requested limit.
  public var results: [TaskSearchResult]
  /// How many tasks matched, listed or not.
  public var total: Int
  /// Whether the limit left matches out (`total` > `results.count`).
  public var truncated: Bool
  /// The status searched (only tasks with it were ranked); nil for all tasks.
  public var status: TaskStatus?
  /// How each distinct query term was matched, as in ``SearchResponse/terms``.
  public var terms: [QueryTermMatch]
  /// The query's common words that were not searched because it has other words, as in
  /// ``SearchResponse/unsearchedCommonWords``; nil when none was left out.
  public var unsearchedCommonWords: [String]?
  /// The query's words that were not searched because it has more than 64 distinct terms, as
  /// in ``SearchResponse/wordsPastTermLimit``; nil when every word was searched.
  public var wordsPastTermLimit: [String]?
  /// The query's symbols and emoji that no index holds, as in
  /// ``SearchResponse/unsearchedSymbols``; nil when it has none.
  public var unsearchedSymbols: [String]?
  /// Why no task was found, with the codes of ``SearchResponse/emptyReason``; nil when one was.
  public var emptyReason: EmptyReason?
  /// The search syntax the query holds that was read as text, as in
  /// ``SearchResponse/unappliedOperators``; nil when it has none.
  public var unappliedOperators: [String]?
  /// The query's words that matched nothing, as in ``SearchResponse/unmatchedWords``; nil when
  /// every searched word matched something.
  public var unmatchedWords: [String]? = nil
  /// When the query is one whole record id and no task matched: which record has the id and
  /// what shows it, as in ``SearchResponse/idLookup`` (set by the face that answers); nil
  /// otherwise.
  public var idLookup: IDLookup? = nil
  /// True when the tasks are ordered by how many of the query's distinct terms each matched
  /// first, then by score, as ``SearchResponse/orderedByTermsMatched``; nil otherwise.
  public var orderedByTermsMatched: Bool? = nil

  /// The id the query is, when it is one whole UUID and no task matched, as
  /// ``SearchResponse/queryID``; nil otherwise.
  public var queryID: UUID? {
    results.isEmpty ? UUID(uuidString: query.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
  }

  /// The query terms made from a word longer than ``Tokenizer/maximumTermLength`` (64) Unicode
  /// scalars, indexed and compared by their first 64 only, as ``SearchResponse`` finds them for
  /// `search --explain`.
  /// - Complexity: O(*n*) in the UTF-8 length of ``query``.
  package var termsCutFromLongerWords: Set<String> { Tokenizer.standard.termsCut(in: query) }

  /// Why no task was found, in words that name the tasks searched (`open task`) and, where the
  /// reason is about them, the query's words, as ``SearchResponse/emptyExplanation`` does for
  /// knowledge; for a "No results:" line (lower case, no final period). Nil when a task was
  /// found.
  public var emptyExplanation: String? {
    guard results.isEmpty, let emptyReason else { return nil }
    var why = emptyReason.worded(unappliedOperators: unappliedOperators, unmatchedWords: terms.unmatchedWords).explanation(
      searching: status.map { "\($0.rawValue) task" } ?? "task", commonWords: unsearchedCommonWords ?? [],
      otherWords: terms.typedWords, unmatchedWords: terms.unmatchedWords)
    if let note = SearchResponse.unsearchedSymbolsNote(unsearchedSymbols) { why += "; " + note }
    if let note = SearchResponse.unappliedOperatorsNote(unappliedOperators) { why += "; " + note }
    if let note = SearchResponse.wordsPastTermLimitNote(wordsPastTermLimit) { why += "; " + note }
    guard let note = SearchResponse.queryCutNote(query, cutAt: queryCutAt, of: queryCharacters) else { return why }
    return why + "; " + note
  }
}

extension KnowledgeEngine {
  /// Finds tasks by their title and notes with the continuity ranker.
  /// - Parameters:
  ///   - query: not only whitespace, at most ``Limits/queryInput`` (5,000) Unicode code points;
  ///     its first ``Limits/query`` (500) characters are searched (``TaskSearchResponse/queryCutAt``).
  ///   - status: only tasks with this status; nil for all.
  ///   - limit: 1…``Limits/searchResultsMaximum`` (50) results.
  /// - Returns: the ranked tasks, best first, the mode that ranked them and, when none matched,
  ///   why (``TaskSearchResponse/emptyReason``).
  /// - Throws: ``ValidationError`` for `query` or `limit`; ``WorkspaceError`` from the store.
  public func searchTasks(_ query: String, status: TaskStatus? = nil, limit: Int = Limits.searchResultsDefault)
    throws -> TaskSearchResponse
  {
    let (query, givenCharacters) = try Self.validateSearch(query, limit: limit)
    let ranker = continuityRanker
    let named = HybridLexicalRanker.unappliedOperators(in: query)
    return try store.read { tx in
      let ranked = try ranker.rankTasks(query, status, limit, tx)
      var results: [TaskSearchResult] = []
      for m in ranked.matches {
        if let t = try tx.task(id: m.id) {
          results.append(
            TaskSearchResult(
              task: t, score: m.score, matchedTerms: m.matchedTerms, scoreParts: m.scoreParts.map(TaskScoreParts.init),
              termsMatched: m.termsMatched))
        }
      }
      let operators = HybridLexicalRanker.withoutPrefixesSearched(named, terms: ranked.terms)
      var response = TaskSearchResponse(
        mode: ranker.mode, algorithmVersion: ranked.algorithmVersion, query: query, results: results, total: ranked.total,
        truncated: ranked.total > results.count, status: status, terms: ranked.terms,
        unsearchedCommonWords: ranked.unsearchedCommonWords, wordsPastTermLimit: ranked.wordsPastTermLimit,
        unsearchedSymbols: ranked.unsearchedSymbols, emptyReason: ranked.emptyReason,
        unappliedOperators: operators.isEmpty ? nil : operators)
      let unmatched = ranked.terms.unmatchedWords
      response.unmatchedWords = unmatched.isEmpty ? nil : unmatched
      response.orderedByTermsMatched = results.isEmpty ? nil : ranked.orderedByTermsMatched
      if givenCharacters > query.count {
        response.queryCutAt = query.count
        response.queryCharacters = givenCharacters
      }
      return response
    }
  }
}
