import Foundation

/// How a search found its results. Shown with every response so nothing claims to be more
/// than it is: neither mode is semantic, embedding, vector or neural search.
public enum RetrievalMode: String, Sendable, Codable, CaseIterable {
  /// Exact look-up: by UUID, kind and tag filters; no ranking.
  case exact
  /// Ranked lexical search: BM25F over title, tags and content with phrase, coverage and
  /// trigram typo matching (``HybridLexicalRanker``).
  case hybridLexical = "hybrid-lexical"
}

/// The answer to one search: ranked results plus what is needed to explain them.
public struct SearchResponse: Sendable, Equatable, Codable {
  /// The mode that produced the results.
  public var mode: RetrievalMode
  /// The ranking algorithm's version, e.g. `hybrid-lexical-v1`; nil for ``RetrievalMode/exact``.
  public var algorithmVersion: String?
  /// The query as searched: as given, sanitized and trimmed, and cut to its first
  /// ``Limits/query`` (500) characters at a word boundary when it was longer (``queryCutAt``).
  public var query: String
  /// When the query was longer than ``Limits/query`` (500) characters: how many of its
  /// characters were searched (those of ``query``, cut at the last white space within the
  /// bound, so at most 500); nil when the whole query was searched.
  public var queryCutAt: Int?
  /// When the query was cut (``queryCutAt``): its length as given, in characters after
  /// sanitizing and trimming; nil when the whole query was searched.
  public var queryCharacters: Int?
  /// How each distinct query term was matched, in query order (stop words removed when other
  /// terms remain).
  public var terms: [QueryTermMatch]
  /// At most `limit` results, best first.
  public var results: [SearchResult]
  /// The number of documents (of the requested kinds) that matched at least one query term.
  public var total: Int
  /// True when `total` exceeds the number of results returned (the limit cut them).
  public var truncated: Bool
  /// Why there are no results; nil when there are.
  public var emptyReason: EmptyReason?
  /// The query's common words (stop words such as *the*, *of*) that were not searched because
  /// the query has other words, as first typed, once each, in query order; nil when none was
  /// left out (a query of only common words searches them).
  public var unsearchedCommonWords: [String]?
  /// The query's words that were not searched because the query has more distinct terms than
  /// ``HybridLexicalRanker/Parameters/maximumQueryTerms`` (64): the words of the terms past
  /// the 64th, as first typed, once each, in query order; nil when every word was searched.
  public var wordsPastTermLimit: [String]?
  /// The symbols of the query that no index holds — emoji and other symbols beyond ASCII
  /// (Unicode general categories Sm, Sc, Sk and So: `🚀`, `→`, `€`, `★`, `©`) that no query
  /// term came from — once each, in query order, at most 10; nil when the query has none. The
  /// tokenizer keeps runs of letters and digits only, so these are never searched, and the
  /// response says so rather than leaving them out silently.
  public var unsearchedSymbols: [String]?
  /// The query's words whose terms matched nothing — not as typed, nor through a close
  /// spelling, another form or a prefix (``QueryTermMatch/Match/none``) — as typed, once each,
  /// in query order; nil when every searched word matched something. An empty answer's
  /// ``emptyExplanation`` names them.
  public var unmatchedWords: [String]?
  /// Search syntax of other engines that the query holds and that is read here as text
  /// (``HybridLexicalRanker/unappliedOperators(in:)``): `"` when it has double quotes, whose
  /// words were searched one by one (they rank higher where they stand together), and each
  /// `-word`, whose word was searched like the others, not excluded; nil when it has none.
  public var unappliedOperators: [String]?
  /// What was searched: knowledge items, knowledge items and legacy memories, or memories only;
  /// nil in a response from the ranker alone (the words of ``emptyExplanation`` then name both).
  public var scope: Scope?
  /// The tag the search kept items of, as ``Limits/tagFilter(_:label:)`` normalizes it (trimmed,
  /// lowercased); nil when the search had no tag filter. ``emptyExplanation`` names it for
  /// ``EmptyReason/noItemWithTag``.
  public var tag: String?
  /// When the query is one whole record id and nothing matched (``queryID``): which record has
  /// the id and what shows it, or that no record has it (review 28-a, 2). Set by the face that
  /// answers (the CLI names its commands, MCP its tools); nil otherwise, and in a response from
  /// the ranker or the engine alone.
  public var idLookup: IDLookup?
  /// True when the results are ordered first by how many of the query's distinct terms each
  /// matched (``SearchResult/termsMatched``), then by score: a query of two or three terms
  /// (``HybridLexicalRanker/Parameters/coverageOrderMaximumTerms``), so a record holding every
  /// word typed ranks above one holding fewer of them in a stronger field; nil (absent from
  /// JSON) when they are ordered by score alone.
  public var orderedByTermsMatched: Bool?

  /// The sentence (no final period) that says a response is ordered by query terms matched
  /// first (``orderedByTermsMatched``), so that a score further down the list can be higher:
  /// `Order: results matching more of the query's 2 terms come first, then higher scores`.
  /// Shared by `search`, `task search` and the MCP search tools.
  /// - Parameters:
  ///   - ordered: ``orderedByTermsMatched`` (or the task response's).
  ///   - termsMatched: each result's ``SearchResult/termsMatched``.
  ///   - termCount: the query's distinct terms (``terms``'s count).
  ///   - records: what the results are, plural (`results`, `tasks`).
  ///   - always: say it whenever the order applies (`--explain`), not only when the results
  ///     matched different numbers of terms (when they all matched as many, the order is the
  ///     scores' and nothing needs saying).
  /// - Returns: the sentence, or nil when there is nothing to say.
  public static func termsMatchedOrderNote(
    ordered: Bool?, termsMatched: [Int?], termCount: Int, records: String = "results", always: Bool = false
  ) -> String? {
    guard ordered == true, always || Set(termsMatched.compactMap { $0 }).count > 1 else { return nil }
    return "Order: \(records) matching more of the query's \(termCount) terms come first, then higher scores"
  }

  /// What a search covers, for the words of its empty-result reason.
  public enum Scope: String, Sendable, Codable, CaseIterable {
    /// Knowledge items only (the default).
    case knowledge
    /// Knowledge items and legacy memories (`--include-memories`).
    case knowledgeAndMemories
    /// Legacy memories only (`memory search`).
    case memories

    /// One of the records searched, singular, for ``EmptyReason/explanation(searching:)``.
    public var records: String {
      switch self {
      case .knowledge: "knowledge item"
      case .knowledgeAndMemories: EmptyReason.knowledgeRecords
      case .memories: "memory"
      }
    }
  }

  /// Makes a response.
  public init(
    mode: RetrievalMode, algorithmVersion: String?, query: String, terms: [QueryTermMatch],
    results: [SearchResult], total: Int, truncated: Bool, emptyReason: EmptyReason?,
    unsearchedCommonWords: [String]? = nil
  ) {
    self.mode = mode
    self.algorithmVersion = algorithmVersion
    self.query = query
    self.terms = terms
    self.results = results
    self.total = total
    self.truncated = truncated
    self.emptyReason = emptyReason
    self.unsearchedCommonWords = unsearchedCommonWords
  }
}

/// Why a search returned nothing.
public enum EmptyReason: String, Sendable, Codable, CaseIterable {
  /// The query has no searchable term (only punctuation, symbols or emoji).
  case noQueryTerms
  /// No query term, nor any typo or prefix variant of one, occurs in the index.
  case noTermMatched
  /// The workspace holds none of the records searched (no knowledge item, or no memory), so
  /// no query could match.
  case noRecords
  /// The query has only common words — English stop words such as *the*, *and*, *of*, and
  /// endings after an apostrophe — which are searched only when a query has no other word,
  /// and none of them (nor a close spelling of one) occurs in the index.
  case noCommonWordMatched
  /// The query has common words and other words: the common words were not searched (they are
  /// searched only when a query has no other word), and none of the other words (nor a close
  /// spelling of one) occurs in the index. Whether the common words occur is not known, and
  /// not said.
  case noOtherWordMatched
  /// Vocabulary terms resembling a query term exist, but none is similar enough to pass the
  /// trigram threshold nor one edit away (see ``Trigrams``), and no term matched exactly.
  case allBelowThreshold
  /// Terms matched, but only in documents of kinds outside the requested ones.
  case noMatchInKinds
  /// Terms matched, but only in items without the tag the caller filtered on.
  case noMatchWithTag
  /// No knowledge item carries the tag the caller filtered on (a misspelt tag, often), whatever
  /// the words: said before any reason about the words, as `knowledge list --tag` says it.
  case noItemWithTag
  /// Terms matched, but only in legacy memories, which the search left out: no knowledge item
  /// of any kind matched (also when the search asked for some kinds only, or for a tag).
  case onlyMemoriesMatch
  /// A search of legacy memories only: terms matched, but only in knowledge items.
  case onlyKnowledgeMatches

  /// The reason in words, for a "No results:" line of a knowledge search (lower case, no final
  /// period); ``SearchResponse/emptyExplanation`` also names the query's words.
  public var explanation: String { explanation(searching: Self.knowledgeRecords) }

  /// What a knowledge search covers, as ``explanation(searching:)`` names it.
  static let knowledgeRecords = "knowledge item or memory"

  /// The reason in words, naming what was searched, for a "No results:" line (lower case, no
  /// final period).
  ///
  /// - Parameter records: one of the records searched, singular: `knowledge item or memory`,
  ///   `task`, `open task`.
  public func explanation(searching records: String) -> String {
    switch self {
    case .noQueryTerms: "the query has no searchable word"
    // Not "yet": the last one may just have been deleted (review 28-a, 8).
    case .noRecords: "the workspace holds no \(records) to search"
    case .noTermMatched: "no query word (or a close spelling of one) occurs in any \(records)"
    case .noCommonWordMatched:
      "the query has only common words such as the, and, of (searched only when a query has no other word), "
        + "and none of them occurs in any \(records); add a word that names what you are looking for"
    case .noOtherWordMatched:
      "the query's common words were not searched (common words are searched only when a query has no other "
        + "word), and none of its other words (or a close spelling of one) occurs in any \(records)"
    case .allBelowThreshold: "similar words exist, but none is close enough to count as a typo"
    case .noMatchInKinds: "the words match only items of other kinds"
    case .noMatchWithTag: "the words match only items without this tag"
    case .noItemWithTag: "no knowledge item carries this tag"
    case .onlyMemoriesMatch: "the words match only legacy memories, which this search leaves out"
    case .onlyKnowledgeMatches: "the words match only knowledge items, not legacy memories"
    }
  }
}

/// How one distinct query term was matched.
public struct QueryTermMatch: Sendable, Equatable, Codable {
  /// How a query term met the vocabulary.
  public enum Match: String, Sendable, Codable {
    /// The term itself is in the vocabulary (its word-form variants, if any, are searched
    /// too, at reduced weight).
    case exact
    /// Absent, but another English spelling of the word (`tumour` → `tumor`,
    /// ``EnglishSpelling``) or its other number (`mouse` → `mice`, ``EnglishPlurals``) is in the
    /// vocabulary; that was searched instead, at nearly full weight.
    case spelling
    /// Absent, but the word written as a compound another way is in some document (`covid19`
    /// → `covid 19`, `e-mail` → `email`, ``CompoundWords``); that was searched instead, at nearly
    /// full weight.
    case compound
    /// Absent; similar terms (trigram Jaccard ≥ 0.5) were searched instead, at reduced weight.
    case fuzzy
    /// Absent and shorter than three characters; terms starting with it were searched. Or a
    /// number typed whole (`v2.3`) that no document holds as typed, found only through longer
    /// numbers starting with it (``QueryTermMatch/longerNumbers``: `v2.3.9`), at reduced weight.
    case prefix
    /// Absent, and nothing similar was found.
    case none
  }

  /// The normalized query term.
  public var term: String
  /// How it was matched.
  public var match: Match
  /// The vocabulary terms searched for it: the term itself (first), its other English
  /// spellings, its other forms as a compound and its word-form variants; or its other
  /// spellings and compound forms, fuzzy or prefix variants. A compound form of several terms
  /// is written with spaces (`e mail`: the terms `e` then `mail`, next to each other).
  public var variants: [String]
  /// Those of `variants` that are other English spellings of the query word, or its other
  /// number when it is an irregular noun (``EnglishPlurals``: `mice` for `mouse`), searched at
  /// nearly full weight; empty for most terms.
  public var spellings: [String]
  /// Those of ``spellings`` that are the other number of an irregular noun, not another
  /// spelling (`mice` for `mouse`, `analys` for `analysis`); empty for most terms.
  public var numberForms: [String]
  /// Those of `variants` that are other written forms of the query word as a compound
  /// (``CompoundWords``: `email` for `e-mail`, `e mail` for `email`); searched at nearly full
  /// weight, never more than the word typed. Empty for most terms.
  public var compounds: [String]
  /// For a number typed whole (`v2.3`, `1.2`): those of `variants` that are longer numbers
  /// starting with it and a separator (`v2.3.9`, `1.2.3`), found as prefix matches at reduced
  /// weight (``HybridLexicalRanker/Parameters/prefixWeight``, never above the number typed):
  /// other numbers, never the one typed. Empty for other terms.
  public var longerNumbers: [String]
  /// The query words behind the term, folded but not stemmed, in query order (`randomised`
  /// for the term `randomis`; `colour`, `color` when both spellings were typed): the forms
  /// that are matched. Empty when not recorded.
  public var words: [String]
  /// The same words as they were typed in the query, one for each of ``words`` and in the
  /// same order (`Randomised` for `randomised`; `TNF-α` gives the term `alpha` with the typed
  /// word `α`): for showing, never for matching. A word typed several ways (`Colour colour`)
  /// appears as it was typed first. A typed word is the run of letters, digits and marks the
  /// term came from, so the terms of one run share it (the bigrams of `東京会議`, `1` and `2`
  /// of `½`). Empty when not recorded.
  public var typedWords: [String]

  /// Makes a term match.
  public init(
    term: String, match: Match, variants: [String], spellings: [String] = [],
    numberForms: [String] = [], compounds: [String] = [], longerNumbers: [String] = [],
    words: [String] = [], typedWords: [String] = []
  ) {
    self.term = term
    self.match = match
    self.variants = variants
    self.spellings = spellings
    self.numberForms = numberForms
    self.compounds = compounds
    self.longerNumbers = longerNumbers
    self.words = words
    self.typedWords = typedWords
  }
}

/// One ranked document.
public struct SearchResult: Sendable, Equatable, Codable {
  /// The item's (or memory's) id: the evidence id.
  public var id: UUID
  /// Its kind, or `memory` for a legacy memory.
  public var kind: DocumentKind
  /// Its title. A legacy memory has none, so it shows the title its knowledge mirror gets:
  /// the first line of its text, on one line, cut to 80 characters
  /// (``KnowledgeEngine/mirrorTitle(for:)``).
  public var title: String
  /// Up to 200 characters of the content around the first match, on one line (see
  /// ``HybridLexicalRanker/snippetLength``).
  public var snippet: String
  /// The score; higher is better. Equal to the sum of ``scoreParts`` up to rounding.
  public var score: Double
  /// Where the score comes from.
  public var scoreParts: ScoreParts
  /// The vocabulary terms that matched in this document, in query order.
  public var matchedTerms: [String]
  /// A knowledge item's provenance (`user`, `agentApproved`, `agentAllowed`, `legacyMemory` for a
  /// memory's mirror, `appIntent`, `import`); absent for a legacy memory, whose kind is `memory`.
  public var source: KnowledgeSource?
  /// For a knowledge item another item supersedes (as the digest reads the `supersedes`
  /// relationships): the items that supersede it, sorted by `uuidString`; nil (absent from
  /// JSON) when none does. Set by ``KnowledgeEngine/search(_:kinds:includeMemories:memoriesOnly:tag:limit:)``
  /// after ranking; it does not change the rank or the score.
  public var supersededBy: [UUID]?
  /// How many of the query's distinct terms this result matched (in any form), when the
  /// response is ordered by that first (``SearchResponse/orderedByTermsMatched``); nil (absent
  /// from JSON) otherwise.
  public var termsMatched: Int?

  /// Makes a result.
  public init(
    id: UUID, kind: DocumentKind, title: String, snippet: String, score: Double,
    scoreParts: ScoreParts, matchedTerms: [String], source: KnowledgeSource? = nil,
    termsMatched: Int? = nil
  ) {
    self.id = id
    self.kind = kind
    self.title = title
    self.snippet = snippet
    self.score = score
    self.scoreParts = scoreParts
    self.matchedTerms = matchedTerms
    self.source = source
    self.termsMatched = termsMatched
  }

  /// How a result names what it is: its kind, and the provenance of a memory's mirror
  /// (`memory (legacy)`, `context (memory mirror)`, `decision`).
  public var label: String {
    if kind == .memory { return "memory (legacy)" }
    return source == .legacyMemory ? "\(kind.name) (memory mirror)" : kind.name
  }
}

/// The additive parts of a score (see ``HybridLexicalRanker`` for the formulas).
public struct ScoreParts: Sendable, Equatable, Codable {
  /// BM25F of exactly matched terms, attributed to the title by its share of the pseudo term
  /// frequency.
  public var title: Double
  /// BM25F of exactly matched terms attributed to the tags.
  public var tags: Double
  /// BM25F of exactly matched terms attributed to the content.
  public var content: Double
  /// BM25F of typo (trigram), word-form and prefix variants, already down-weighted.
  public var fuzzy: Double
  /// The phrase boost: query words found next to each other.
  public var phrase: Double
  /// The coverage boost: the share of distinct query terms matched.
  public var coverage: Double

  /// Makes score parts.
  public init(
    title: Double, tags: Double, content: Double, fuzzy: Double, phrase: Double, coverage: Double
  ) {
    self.title = title
    self.tags = tags
    self.content = content
    self.fuzzy = fuzzy
    self.phrase = phrase
    self.coverage = coverage
  }

  /// The sum of all parts.
  public var total: Double { title + tags + content + fuzzy + phrase + coverage }
}
