import Foundation

/// The `hybrid-lexical-v1` ranker: field-weighted BM25 with phrase, coverage and typo
/// matching over any ``LexicalIndexReader``.
///
/// It is *lexical*: documents match on the words they share with the query, after
/// normalization (see ``Tokenizer``). It is not semantic, embedding, vector or neural search;
/// "hybrid" names the mix of lexical signals below.
///
/// ## Scoring
///
/// The query is tokenized like the documents. English stop words
/// (``EnglishStopWords/snowball``) and contraction or possessive endings after an apostrophe
/// (the `s` of *deploy's*) are dropped unless nothing else is left; so are the words of the
/// larger SMART stop list (``EnglishStopWords/smart``: `associated`, `can`, `causes`,
/// `within`) when at least ``Parameters/smartStopWordsMinimumLeft`` (4) other words are left,
/// so a claim or pasted sentence is searched by its content words while a short query keeps
/// every word (`new laptop`); documents keep them all, so positions still line up. A number typed with a decimal point or digit-group separator
/// (`0.7`, `3.14`, `250,000`, `Kir7.1`, `v2.3`) is one term, as Unicode word segmentation has it
/// (UAX #29, *Unicode Text Segmentation*, rules WB11 and WB12: a digit, `.` or `,`, a digit): it
/// matches only where a note holds that number whole (the index holds it as one term besides its
/// parts, ``WholeNumbers``, tokenizer version 9), with *v* = 1 and no other spelling, word form or
/// typo, so `0.7` does not rank every note holding a `0` and a `7` apart
/// (``Parameters/searchesWholeNumbers``); a version is also searched with its `v` added or dropped,
/// as a compound form; and a longer number that starts with it and a separator (`v2.3.9` for
/// `v2.3`, `1.2.3` for `1.2`) is found by a prefix look-up of the vocabulary, as another number, at
/// *v* = ``Parameters/prefixWeight`` bounded as another spelling is (below), listed in
/// ``QueryTermMatch/longerNumbers``; `2.3` never matches inside `1.2.3`. Each distinct remaining
/// term *t* (at most ``Parameters/maximumQueryTerms``) is looked up:
///
/// - in the vocabulary: matched exactly, weight *v* = 1, and, when it is at least 3
///   characters with no digit, also through up to ``Parameters/maximumWordFormVariants``
///   *word-form variants*: vocabulary terms sharing its first five characters with trigram
///   Jaccard ≥ ½, as for typos (`diagnos` → `diagnost`, the stems of *diagnosed* and
///   *diagnostic*), each with *v* = ``Parameters/fuzzyWeight`` × Jaccard < 1, multiplied by
///   min(1, ρ · idf(*t*) / idf(form)) with ρ = ``Parameters/wordFormIDFRatioBound`` = 2: a
///   rarer word form is evidence of its own — a claim's `partner` against an abstract's
///   *partnership*; bounding it at ρ = 1 cost 0.0024 nDCG@10 on SciFact's even train ids, at
///   ρ = 2 0.0001 — but with ρ · ``Parameters/fuzzyWeight`` = 1 it never scores above the word
///   typed in the same field (a note titled *Zookeper upgrade* ranked above *Zookeeper notes*
///   for `zookeeper`, the typed word being in three notes of four);
/// - in the vocabulary or not: also through its other British or American spellings that are
///   in the vocabulary (``EnglishSpelling``: `tumour` and `tumor`, `haemoglobin` and
///   `hemoglobin`, `randomised` and `randomized`), each analysed (stemmed) like a word and
///   matched with *v* = ``Parameters/spellingWeight`` (0.9: nearly in full, since it is the
///   same word, while the spelling typed wins a tie), at most
///   ``Parameters/maximumSpellingVariants``; a term found only that way is matched as
///   ``QueryTermMatch/Match/spelling`` and not also by typo. Two query words that are
///   spellings of each other (`colour color`) are one query term, and both count in full.
///   The other number of an irregular noun (``EnglishPlurals``: `mouse` and `mice`,
///   `analysis` and `analyses`, `bacterium` and `bacteria`) is searched the same way, and
///   listed in ``QueryTermMatch/numberForms`` too, and so is the other number of a name of
///   letters and digits (``EnglishPlurals/identifierAlternatives(of:)``: `E2Fs` and `E2F`);
/// - in the vocabulary or not: also through its other written forms as a compound
///   (``CompoundWords``), at most ``Parameters/maximumCompoundVariants``: the catenation of
///   query words joined by a hyphen or slash (`e-mail` → `email`, a variant of both `e` and
///   `mail`), or typed apart when the closed word would split into them (`health care` →
///   `healthcare`), when the vocabulary holds it; and the words its word splits into where
///   letters meet digits, after a prefix written closed or hyphenated, or into two words of
///   four or more letters (`covid19` → `covid` `19`, `email` → `e` `mail`, `healthcare` →
///   `health` `care`), when some document holds them next to each other in one field (a
///   posting list built from their positions, ``adjacentPostings(of:in:)``); and, for a term
///   not in the vocabulary, the words its word splits into before a dotted-name ending such
///   as `js` or `net`, as dotted names are written (`nodejs` → `node` `js`: *Node.js*), found the same
///   way (``CompoundWords/tailSplits(of:)``). Each is matched with
///   *v* = ``Parameters/compoundWeight`` (0.9); a term found only that way is matched as
///   ``QueryTermMatch/Match/compound``;
/// - another spelling or number not typed in the query, and a compound form, have their *v*
///   multiplied by min(1, idf(*t*) / idf(form)) when *t* itself is in the vocabulary: a rarer
///   form would otherwise outweigh the word typed through its IDF alone (a note saying `colour`
///   once ranked above notes titled *Color* for `color`); with it, such a form never scores
///   more than *v* times what the same note would score with the word as typed;
/// - absent, at least 3 characters, no digit, no other spelling found: matched by up to
///   ``Parameters/maximumFuzzyVariants`` vocabulary terms passing the trigram rule of
///   ``Trigrams`` (Jaccard ≥ ½ with a ceiling-arithmetic shared-trigram floor), each with
///   *v* = ``Parameters/fuzzyWeight`` × Jaccard < 1, so a typo match always scores below the
///   same match spelled right; and, at Jaccard ½ (*v* = ¼), by terms one insertion, deletion,
///   substitution or adjacent swap away (Damerau–Levenshtein distance 1; Damerau 1964) —
///   compared as stems (``Trigrams/oneEditSimilarity(of:to:)``) and, since the stemmer can move
///   a typo further from its word (`stgaing` stems to `stga`, *staging* to `stage`), also as the
///   word typed: the stems of the at most 54*n* + 25 words one edit from a typed word of 5 to
///   ``maximumEditedWordLength`` ASCII letters (Norvig's `edits1`, 2007) are looked up in one
///   batch, a cost bounded by the word, not by the vocabulary (``oneEditStems(of:excluding:)``);
/// - absent and shorter: matched by up to ``Parameters/maximumPrefixVariants`` vocabulary terms
///   starting with it (most frequent first), *v* = ``Parameters/prefixWeight`` — a single
///   character only when it is the whole query (`東` finds `東京`; the `s` of *deploy's* beside
///   other words matches nothing), a stop word only when it is the whole query (`out of`, a
///   query of stop words only, does not find *office*).
///
/// A typo or word-form variant is never more than twice as long as the query term, nor less
/// than half as long (``Trigrams/haveComparableLengths(_:_:)``), and a word-form variant is
/// never another term of the same query.
///
/// **BM25F** (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond",
/// *Foundations and Trends in Information Retrieval* 3(4), 2009, §3.2 and §3.3), per matched
/// term variant *t* and document *d*:
///
///     tf̃(t,d)    = Σ_f w_f · tf(t,d,f) / ((1 − b_f) + b_f · len(d,f) / avglen_f)
///     bm25f(t,d) = v · idf(t) · tf̃ / (k1 + tf̃)
///     idf(t)     = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
///
/// The IDF is Lucene's `BM25Similarity` form (always positive, so a term in most of a small
/// corpus still counts; *N* documents, *df* containing the term), and, as in Lucene since 8.0,
/// the constant (k1 + 1) numerator factor is left out — it does not change the order. Lengths
/// are in terms. When several variants of one query term occur in a document, only the best
/// one counts. Two bounds keep the fields in order for one occurrence of a term at any length
/// (``Parameters/titleNormalizationCeiling`` 1.4, ``Parameters/contentNormalizationFloor`` 0.6:
/// the title's denominator stops growing at 1.8 times the average title length, the content's
/// stops shrinking at 0.47 times the average content length), so title (≥ 3 / 1.4) > tag (2) >
/// content (≤ 1 / 0.6) — a 22-word meeting-note title ranked below a two-word content, a 41-word
/// one below a tag (review 30a); neither changed a ranking on SciFact's even train ids. And in a
/// query of at most ``Parameters/otherFormBoundMaximumTerms`` (4) terms, a word-form, typo or
/// longer-number variant of a word the workspace holds scores at most
/// ``Parameters/otherFormExactShare`` (0.9) of the lowest score the word typed gets in any
/// document holding it, so it ranks below every one of them, whatever the field (`zookeeper`: a
/// title *Zookeper upgrade* had ranked above a long content holding `zookeeper`).
///
/// **Phrase boost.** For each pair of consecutive query words (in query order; stop words
/// skipped, but their positions kept), the pair is *contiguous* in a document when its two
/// terms occur in one field at the same distance as in the query. Stored positions leave one
/// free at a sentence or clause end (``Tokenizer`` rule 6), so a pair is never contiguous across
/// one; the query's words are counted without such gaps (`release, plan` asks for *release
/// plan*). When a term matched a document through another form (a compound, a spelling), its
/// own positions there count too:
///
///     phrase = δ · Σ_{contiguous pairs} min(v·idf of the two terms) / (number of pairs)
///
/// **Coverage boost.** With *c* the share of distinct query terms the document matched:
///
///     score = (Σ_t bm25f(t,d) + phrase) · (1 + γ · c)
///
/// **Coordination level first in short queries.** In a query of two to
/// ``Parameters/coverageOrderMaximumTerms`` (3) distinct terms — what people type — results are
/// ordered by how many of those terms they match before their score (coordination level
/// matching, Salton & McGill 1983, §6; Lucene's classic `coord` factor served the same end), so
/// a content holding `kiwi` and `mango` ranks above a title holding only `kiwi` (review 30a: the
/// factor above could not lift it over the title's field weight). A longer query (a pasted claim
/// or sentence) is ordered by score alone: there a document missing one of ten words may be the
/// best one. The response says which order it used (``SearchResponse/orderedByTermsMatched``).
///
/// **Parameters** (``Parameters/v1``): k1 = 1.2 and content b = 0.75, the usual values
/// (Robertson & Zaragoza 2009, §3.3 reports k1 in 1.2–2.0 and b ≈ 0.75 as typical); title
/// b = 0.5 (a short field, little length variation); tags b = 0, no length normalization, as
/// for keyword fields in Elasticsearch (`norms: false` by default): tags are labels, not prose,
/// and most items carry none, so normalizing by the average would make a tag's weight depend
/// on how many *other* items are tagged (with one tagged item in eight, a tag match fell below
/// a content match); field weights title 3 > tags 2 >
/// content 1; δ = 0.25; γ = 0.25; fuzzy and word-form variants 0.5 × Jaccard; prefix 0.5;
/// two word-form variants per term, five shared leading characters, Jaccard ≥ 0.5; the SMART
/// stop list for queries that keep four other words or more. The title
/// weight, k1, stop lists, δ, γ and the word-form rule were chosen on the even-numbered BEIR
/// SciFact training queries only (odd-numbered ones are held out for reporting); the tags
/// weight is set between title and content, as SciFact has no tags. Of four rounds of
/// alternatives on the even ids (sweeps of k1, b per field, field weights, δ and γ; RM3
/// pseudo-relevance feedback, proximity and passage evidence, BM25+, DFR and language models,
/// other IDF forms, Porter2, abbreviation expansion, predicted term necessity, character
/// n-gram fusion, word-form variants) only the word-form variants were adopted, and of round
/// 21's (an exact-form bonus, DisMax, field-level and burstiness term weights, verbosity and
/// scope length normalisation, BM25L, information-based models, query stop lists) only the
/// SMART list for long queries (+0.0050 nDCG@10 on the even ids, on both halves of them);
/// `Benchmarks/Results/retrieval-tuning.md` records the figures.
///
/// ## Order and determinism
///
/// Results are ordered by the number of query terms matched when the query is short (above),
/// then by score descending, then kind order (``DocumentKind``: knowledge
/// kinds in declaration order, memories last), then `updatedAt` descending, then title
/// ascending, then the UUID string ascending. Every sum is taken in query-term order, never in
/// hash order, so the same index and query give the same scores and order in every process.
///
/// ## Cost
///
/// One posting list per query term (and per variant) is read — as a `PostingList`, one array
/// per column, straight from the index (`PostingListReader`) — and each posting is scored
/// once (a few multiplications); the lists are merged document-at-a-time into a bounded top-*k*
/// selection. `KnowledgeEngine` keeps recently read lists in a `PostingCache` that is dropped
/// whenever the database changes, so a warm process skips the SQLite reads of frequent terms.
/// Phrase positions — the expensive part — are decoded only for documents whose upper bound
/// (their BM25F plus every phrase pair they could complete, times their coverage factor) can
/// still reach the current *k*-th score, the MaxScore idea of Turtle & Flood (1995) applied to
/// the phrase part. `total` stays exact: every matching document is counted.
public struct HybridLexicalRanker: Sendable {
  /// The mode every response names.
  public static let mode = RetrievalMode.hybridLexical
  /// The algorithm version every response names.
  public static let algorithmVersion = "hybrid-lexical-v1"
  /// The longest snippet, in `Character`s (ellipses included).
  public static let snippetLength = 200

  /// The tunable constants; frozen per algorithm version (``Parameters/v1``).
  public var parameters: Parameters
  /// Must be the tokenizer the index was built with.
  package var tokenizer: Tokenizer

  /// A ranker with the given parameters (``Parameters/v1`` by default) and
  /// ``Tokenizer/standard``.
  public init(parameters: Parameters = .v1) {
    self.parameters = parameters
    self.tokenizer = .standard
  }

  package init(parameters: Parameters, tokenizer: Tokenizer) {
    self.parameters = parameters
    self.tokenizer = tokenizer
  }

  /// The constants of the ranking formulas above.
  public struct Parameters: Sendable, Equatable {
    /// BM25 term-frequency saturation *k1* (≥ 0).
    public var k1: Double
    /// BM25 length normalization *b* per field (0…1).
    public var b: FieldValues<Double>
    /// BM25F field weights *w_f*.
    public var fieldWeights: FieldValues<Double>
    /// δ: the phrase boost is δ × the mean over adjacent query pairs of the pair's weaker
    /// term weight, counting only the pairs found contiguous.
    public var phraseWeight: Double
    /// γ: the coverage factor is 1 + γ × (share of distinct query terms matched).
    public var coverageWeight: Double
    /// Weight of a fuzzy variant, multiplied by its trigram Jaccard similarity (0…1).
    public var fuzzyWeight: Double
    /// Weight of a prefix variant of a short query term.
    public var prefixWeight: Double
    /// The most fuzzy variants searched per absent query term.
    public var maximumFuzzyVariants: Int
    /// The most prefix variants searched per short absent query term.
    public var maximumPrefixVariants: Int
    /// The most word-form variants searched per query term found in the vocabulary (0 turns
    /// them off).
    public var maximumWordFormVariants: Int
    /// How many leading characters a word-form variant shares with the query term (all of
    /// them when the term is shorter).
    public var wordFormPrefixLength: Int
    /// The least trigram Jaccard similarity of a word-form variant (0…1).
    public var wordFormMinimumSimilarity: Double
    /// How much more than the word typed a word-form variant's IDF may count: its *v* is
    /// multiplied by min(1, ρ · idf(typed) / idf(form)), ρ this value (`.infinity`: unbounded).
    /// With ρ · ``fuzzyWeight`` ≤ 1 a word form never scores above the word typed in the same place.
    public var wordFormIDFRatioBound: Double
    /// The most other British or American spellings searched per query term
    /// (``EnglishSpelling``; 0 turns them off).
    public var maximumSpellingVariants: Int
    /// *v* of another spelling of a query word (0…1).
    public var spellingWeight: Double
    /// The most other written forms of a compound searched per query term (``CompoundWords``;
    /// 0 turns them off).
    public var maximumCompoundVariants: Int
    /// *v* of another written form of a compound (0…1), applied to the smaller of its own IDF
    /// and the IDF of the word typed, so a rarer form never outweighs the one typed.
    public var compoundWeight: Double
    /// Whether compounds written open are searched too (`health care` and `healthcare`): words
    /// typed apart as their catenation, and a word as two adjacent words of four or more letters
    /// (``CompoundWords/openSplits(of:)``), and a word no note holds as a dotted name's two
    /// parts (``CompoundWords/tailSplits(of:)``). Off, only hyphens, slashes, digits and
    /// prefixes make compound forms.
    public var searchesOpenCompounds: Bool
    /// Whether the other number of an irregular noun is searched like another spelling
    /// (``EnglishPlurals``: `mouse` and `mice`, `analysis` and `analyses`), with
    /// ``spellingWeight`` and within ``maximumSpellingVariants``.
    public var searchesIrregularPlurals: Bool
    /// Whether the other number of a name of letters and digits is searched the same way
    /// (``EnglishPlurals/identifierAlternatives(of:)``: `E2Fs` and `E2F`, `CD4s` and `CD4`).
    public var searchesIdentifierPlurals: Bool
    /// Whether a short word no note holds is also searched as its letters written as an
    /// initialism (``CompoundWords/initialismSplit(of:)``: `eg` finds *e.g.*, `usa` *U.S.A.*),
    /// like a compound's other form, with ``compoundWeight``.
    public var searchesInitialisms: Bool
    /// Whether the adverb particles of phrasal compounds (``CompoundWords/particles``) make
    /// compound forms: a particle joined by a hyphen or slash is searched as part of its word
    /// (`hand-off` → `hand`, `off` and `handoff`), a word and a particle typed apart are also
    /// searched closed (`set up` → `setup`), and a closed word is also searched as its word and
    /// particle next to each other (``CompoundWords/particleSplits(of:)``: `handoff` → *hand off*).
    public var searchesParticleCompounds: Bool
    /// Whether a typo candidate one edit away matches when its trigrams do not pass the rule
    /// (``Trigrams/oneEditSimilarity(of:to:)``: `hnadoff` finds `handoff`).
    public var matchesOneEditTypos: Bool
    /// Whether a number typed with a decimal point or digit-group separator (`0.7`, `3.14`,
    /// `250,000`, `Kir7.1`) is one query term, found only where its parts stand next to each
    /// other, instead of each part searched on its own (`0.7` matching every note with a `0`
    /// and a `7`).
    public var searchesWholeNumbers: Bool
    /// The most distinct query terms searched (at most 64); the words of later ones are not
    /// searched, and the response names them (``SearchResponse/wordsPastTermLimit``).
    public var maximumQueryTerms: Int
    /// Folded, unstemmed words dropped from queries that have other words.
    package var stopWords: Set<String>
    /// The words of the larger SMART stop list (``EnglishStopWords/smart``: `associated`,
    /// `can`, `within`, `new`) are dropped from a query too when at least this many of its other
    /// words are left (0: never); a shorter query searches them. Only the dropping of query
    /// words changes: ``stopWords`` alone still decides compound parts and variants.
    public var smartStopWordsMinimumLeft: Int
    /// The largest title length-normalization denominator (1 − b + b · len / avglen; ≥ 1 for
    /// a title longer than average; `.infinity`: none). With the title weight 3 and a ceiling
    /// below 1.5, one occurrence in a title of any length counts more than one in a tag (2).
    public var titleNormalizationCeiling: Double
    /// The least content length-normalization denominator (0: none). Above 0.5, one occurrence
    /// in the shortest content counts less than one in a tag (weight 2, no normalization).
    public var contentNormalizationFloor: Double
    /// A word-form or typo variant of a word the workspace holds (and a longer number) scores at
    /// most this share of the lowest score the word typed gets in a note holding it (0: no
    /// bound), so it ranks below every note holding the word typed, whatever the field.
    public var otherFormExactShare: Double
    /// When above 0, the bound of ``otherFormExactShare`` is never lower than that share of
    /// what one occurrence of the word typed scores in a content this many times the average
    /// content length: only notes holding the word in a shorter content or a stronger field are
    /// sure to rank above its other forms (0: every note holding it).
    public var otherFormReferenceLength: Double
    /// The bound of ``otherFormExactShare`` applies to queries of at most this many distinct
    /// terms (what people type: `zookeeper`, `release plan`); in a longer query (a pasted claim
    /// or sentence) forms keep their own weight, since a rarer form there is evidence of its own
    /// (on SciFact's even train ids the bound costs nothing up to 4 terms, 0.0012 nDCG@10 up to 5
    /// and 0.0031 on every query).
    public var otherFormBoundMaximumTerms: Int
    /// In a query of at least two and at most this many distinct terms, results are ordered
    /// first by how many of those terms they match (coordination level matching, Salton & McGill,
    /// *Introduction to Modern Information Retrieval*, 1983, §6), then by score, so a note holding
    /// `kiwi` and `mango` ranks above one holding only `kiwi`, in whatever field (0: never; a
    /// longer query — a pasted claim or sentence — is ordered by score alone, where the coverage
    /// factor rewards matching more of it). On SciFact's even train ids (claims, round 26 of
    /// `Benchmarks/Results/retrieval-tuning.md`) 3 changes no query; 4 costs 0.0009 nDCG@10
    /// (4 queries), 5 costs 0.0094 and ordering every query so 0.0792.
    public var coverageOrderMaximumTerms: Int
    /// Whether a one-character part of a word joined by a hyphen or slash (the `1` of `PD-1`,
    /// the `e` of `e-mail`) is searched only beside the query's other words: it adds to a note's
    /// score, but a note that matches no other query term is no match (review 30a: `PD-1` listed
    /// *Kir7.1 channel* through its `1`, `e-mail` *e.g. examples* through its `e`), as an adverb
    /// particle is (``QueryAnalysis/dependent``). A query of nothing else keeps them.
    public var joinedSinglePartsDependent: Bool

    /// The constants of `hybrid-lexical-v1`. Until the first release they are tuned in place,
    /// each change recorded in Benchmarks/Results/retrieval-tuning.md with its even-id figures
    /// (round 25 added the field-order and word-form bounds, review 30a); once a release has
    /// shipped, a change is a new algorithm version.
    public static let v1 = Parameters(
      k1: 1.2,
      b: FieldValues(title: 0.5, tags: 0, content: 0.75),
      fieldWeights: FieldValues(title: 3, tags: 2, content: 1),
      phraseWeight: 0.25,
      coverageWeight: 0.25,
      fuzzyWeight: 0.5,
      prefixWeight: 0.5,
      maximumFuzzyVariants: 3,
      maximumPrefixVariants: 8,
      maximumWordFormVariants: 2,
      wordFormPrefixLength: 5,
      wordFormMinimumSimilarity: 0.5,
      wordFormIDFRatioBound: 2,
      maximumSpellingVariants: 4,
      spellingWeight: 0.9,
      maximumCompoundVariants: 4,
      compoundWeight: 0.9,
      searchesOpenCompounds: true,
      searchesIrregularPlurals: true,
      searchesIdentifierPlurals: true,
      searchesInitialisms: true,
      searchesParticleCompounds: true,
      matchesOneEditTypos: true,
      searchesWholeNumbers: true,
      maximumQueryTerms: 64,
      stopWords: EnglishStopWords.snowball,
      smartStopWordsMinimumLeft: 4,
      titleNormalizationCeiling: 1.4,
      contentNormalizationFloor: 0.6,
      otherFormExactShare: 0.9,
      otherFormReferenceLength: 0,
      otherFormBoundMaximumTerms: 4,
      coverageOrderMaximumTerms: 3,
      joinedSinglePartsDependent: true)
  }

  /// Ranks the documents of `index` for `query`.
  ///
  /// Query text is data: no character or word is syntax. Quotes, `-`, `*`, `(`, `NOT`, `OR`,
  /// emoji or right-to-left text are tokenized like any text; a query with nothing searchable
  /// gives an empty response with ``EmptyReason/noQueryTerms``.
  ///
  /// - Parameters:
  ///   - query: not empty nor only whitespace, at most ``Limits/queryInput`` (5,000) Unicode
  ///     code points; only its first ``Limits/query`` (500) characters are searched, cut at a
  ///     word boundary (``SearchResponse/queryCutAt``).
  ///   - index: the index to search (built with the same ``Tokenizer``).
  ///   - kinds: the document kinds to return; nil for all kinds, memories included.
  ///   - documents: when given, only these document keys may be returned (a tag filter: the
  ///     row ids of the knowledge items carrying the tag); matching stops nowhere else, so a
  ///     document in the set is found however many others rank above it.
  ///   - excluding: document keys never returned (the knowledge mirrors of memories that are
  ///     searched themselves).
  ///   - limit: the most results to return, 1…``Limits/searchResultsMaximum`` (50).
  /// - Returns: the ranked results, `total`, `truncated` and, when empty, the reason
  ///   (``EmptyReason/noMatchWithTag`` when words matched only documents outside
  ///   `documents`).
  /// - Throws: ``ValidationError`` for `query` (empty or whitespace only, or only control or
  ///   invisible characters (``Limits/nothingPrintable(_:_:consequence:)``), judged after
  ///   ``Sanitizer/sanitize(_:)`` and trimming; or over 5,000 Unicode code points as given, less
  ///   surrounding white space) or `limit` (outside 1…50); any error `index` throws.
  /// - Complexity: O(*P* · *q*) for *P* postings of the *q* query terms (and their variants),
  ///   plus phrase decoding for competitive documents, plus O(*k*) document reads.
  public func search(
    _ query: String, in index: some LexicalIndexReader, kinds: Set<DocumentKind>? = nil,
    documents: Set<Int64>? = nil, excluding: Set<Int64> = [],
    limit: Int = Limits.searchResultsDefault
  ) throws -> SearchResponse {
    let (query, given) = try Self.validatedQuery(query, limit: limit)
    var response = try rank(
      query, in: index, kinds: kinds, documents: documents, excluding: excluding, limit: limit)
    response.recordCut(givenCharacters: given)
    return response
  }

  /// The query as it is ranked, after the checks of ``search(_:in:kinds:documents:excluding:limit:)``:
  /// sanitized (controls, invisible characters and whole terminal escape sequences dropped, so
  /// a pasted `ESC[31mhandoff` is the word `handoff`), then trimmed, so that neither counts
  /// toward the bound, then cut to its first ``Limits/query`` (500) characters at a word
  /// boundary when it is longer (``searchedPart(of:)``).
  ///
  /// - Throws: ``ValidationError`` naming `query` (empty, only whitespace or invisible
  ///   characters, over ``Limits/queryInput`` Unicode code points) or `limit` (outside 1…50).
  public static func validated(_ query: String, limit: Int) throws -> String {
    try validatedQuery(query, limit: limit).text
  }

  /// ``validated(_:limit:)``, with the length of the query before the cut, in characters
  /// (after sanitizing and trimming): more than ``Limits/query`` when `text` is only its
  /// first part.
  package static func validatedQuery(_ query: String, limit: Int) throws -> (text: String, givenCharacters: Int) {
    guard (1...Limits.searchResultsMaximum).contains(limit) else {
      throw ValidationError(
        field: "limit", limit: Limits.searchResultsMaximum, actual: limit,
        message: "limit is \(limit); it must be between 1 and \(Limits.searchResultsMaximum)")
    }
    let raw = query
    // The bound holds for the text as given, less surrounding white space (Unicode's
    // White_Space: not a zero-width space, which is invisible, not blank): sanitizing composes
    // `a` + U+0301 into `á`, one scalar fewer, and drops invisible characters.
    var given = Substring(raw).unicodeScalars
    while let first = given.first, first.properties.isWhitespace { given.removeFirst() }
    while let last = given.last, last.properties.isWhitespace { given.removeLast() }
    try Limits.checkCodePoints("query", String(given), limit: Limits.queryInput)
    let query = Sanitizer.sanitize(raw).trimmingCharacters(in: .whitespacesAndNewlines)
    // Control or invisible characters only: said as a capture says it, not "empty".
    if Limits.lostToSanitizer(raw, sanitized: query) {
      throw Limits.nothingPrintable("query", raw, consequence: "nothing was searched")
    }
    if query.isEmpty && !raw.isEmpty {
      throw Limits.requiredButBlank("query", raw, consequence: "nothing was searched")
    }
    try Limits.checkNotEmpty("query", query)
    return (searchedPart(of: query), query.count)
  }

  /// The first ``Limits/query`` (500) characters of `query`, or all of it when it is no longer:
  /// a pasted stack trace or compiler error is searched by its start, where the message is.
  /// The cut is at the last white space within the bound, so that no word is searched by a
  /// part of it (`ViewContr` for `ViewController`), then trailing white space is dropped; a
  /// query with no white space in its first 500 characters is cut at the 500th.
  /// - Complexity: O(*n*) in the first 501 characters of `query`.
  package static func searchedPart(of query: String) -> String {
    guard let end = query.index(query.startIndex, offsetBy: Limits.query, limitedBy: query.endIndex),
      end < query.endIndex
    else { return query }
    var cut = end
    // The character after the bound starting a word means the bound splits none.
    if !query[end].isWhitespace, let space = query[..<end].lastIndex(where: \.isWhitespace) {
      cut = space
    }
    var part = query[..<cut]
    while let last = part.last, last.isWhitespace { part.removeLast() }
    return String(part)
  }

  /// The ids of the best `depth` documents for `query`, without the bounds of
  /// ``search(_:in:kinds:limit:)`` (evaluation needs depth 100 for Recall@100).
  package func rankedIDs(_ query: String, in index: some LexicalIndexReader, depth: Int) throws
    -> [UUID]
  {
    try rank(query, in: index, kinds: nil, limit: max(1, depth), snippets: false).results.map(\.id)
  }

  /// ``search(_:in:kinds:limit:)`` after validation.
  package func rank(
    _ query: String, in index: some LexicalIndexReader, kinds: Set<DocumentKind>?,
    documents: Set<Int64>? = nil, excluding: Set<Int64> = [], limit: Int, snippets: Bool = true
  ) throws -> SearchResponse {
    let analysis = analyze(query)
    let symbols = unsearchedSymbols(in: query)
    guard !analysis.terms.isEmpty else {
      var answer = response(query, terms: [], results: [], total: 0, reason: .noQueryTerms)
      answer.unsearchedSymbols = symbols.isEmpty ? nil : symbols
      answer.unappliedOperators = Self.nonEmpty(Self.unappliedOperators(in: query))
      return answer
    }
    let statistics = try index.statistics()
    var groups: [Group] = []
    var sawNearMiss = false
    for (t, term) in analysis.terms.enumerated() {
      let (group, nearMiss) = try resolve(
        term, spellings: analysis.spellings[t], compounds: analysis.compounds[t],
        tailSplits: analysis.tailSplits[t], numberParts: analysis.numberParts[t],
        versionForm: analysis.versionForms[t], words: analysis.surfaces[t], in: index,
        statistics: statistics, queryTerms: analysis.terms)
      var resolved = group
      resolved.isDependent = analysis.dependent[t]
      groups.append(resolved)
      sawNearMiss = sawNearMiss || nearMiss
    }
    let termMatches = groups.indices.map { i in
      QueryTermMatch(
        term: groups[i].term, match: groups[i].match, variants: groups[i].variants.map(\.term),
        spellings: groups[i].variants.filter(\.isSpelling).map(\.term),
        numberForms: groups[i].variants.filter {
          $0.isSpelling && analysis.numberForms[i].contains($0.term)
        }.map(\.term),
        compounds: groups[i].variants.filter(\.isCompound).map(\.term),
        longerNumbers: groups[i].variants.filter(\.isLongerNumber).map(\.term), words: analysis.surfaces[i],
        typedWords: analysis.typedWords[i])
    }

    let filter = PostingFilter(
      kindMask: kinds.map { $0.reduce(0 as UInt8) { $0 | 1 << UInt8($1.orderIndex) } },
      documents: documents, excluded: excluding)
    var normalization = Normalization(parameters: parameters, statistics: statistics)
    if groups.count > parameters.otherFormBoundMaximumTerms { normalization.otherFormShare = 0 }
    var matchedOutsideKinds = false
    var matchedOutsideDocuments = false
    for g in groups.indices {
      let skipped = groups[g].buildScoredList(filter: filter, normalization: normalization)
      matchedOutsideKinds = matchedOutsideKinds || skipped.kind
      matchedOutsideDocuments = matchedOutsideDocuments || skipped.document
    }
    let pairs = analysis.pairs.map { pair in
      Pair(
        first: pair.first, second: pair.second, gap: pair.gap,
        weight: parameters.phraseWeight
          * min(groups[pair.first].upperBound, groups[pair.second].upperBound)
          / Double(analysis.pairs.count))
    }

    let ordersByCoverage = groups.count >= 2 && groups.count <= parameters.coverageOrderMaximumTerms
    let (selection, counted) = select(
      groups: groups, pairs: pairs, limit: limit, ordersByCoverage: ordersByCoverage)
    let (results, unstored) = try assemble(
      selection, groups: groups, normalization: normalization, index: index, limit: limit,
      snippets: snippets)
    // An index entry whose record is gone (deleted outside dolphin, before `dolphin reindex`)
    // is no match: it is not counted, so no "0 shown of 1" appears.
    let total = max(0, counted - unstored)

    var reason: EmptyReason?
    let unsearched =
      analysis.onlyCommonWords ? [] : unsearchedCommonWords(in: query, searched: analysis.surfaces)
    if results.isEmpty {
      if matchedOutsideDocuments && total == 0 {
        reason = .noMatchWithTag
      } else if matchedOutsideKinds && total == 0 {
        reason = .noMatchInKinds
      } else if sawNearMiss {
        reason = .allBelowThreshold
      } else if total == 0 {
        // Stop words are searched when the query has nothing else; saying only "no query word
        // occurs" would leave the user thinking they were dropped, and beside other words (not
        // searched) it would be untrue of a stop word that occurs.
        reason =
          analysis.onlyCommonWords
          ? .noCommonWordMatched : unsearched.isEmpty ? .noTermMatched : .noOtherWordMatched
      }
    }
    var answer = response(query, terms: termMatches, results: results, total: total, reason: reason)
    answer.unsearchedCommonWords = unsearched.isEmpty ? nil : unsearched
    answer.wordsPastTermLimit = analysis.leftOut.isEmpty ? nil : analysis.leftOut
    answer.unsearchedSymbols = symbols.isEmpty ? nil : symbols
    answer.unappliedOperators = Self.nonEmpty(
      Self.withoutPrefixesSearched(Self.unappliedOperators(in: query), terms: termMatches))
    answer.unmatchedWords = Self.nonEmpty(termMatches.unmatchedWords)
    answer.orderedByTermsMatched = ordersByCoverage && !results.isEmpty ? true : nil
    return answer
  }

  private static func nonEmpty(_ list: [String]) -> [String]? { list.isEmpty ? nil : list }

  private func response(
    _ query: String, terms: [QueryTermMatch], results: [SearchResult], total: Int,
    reason: EmptyReason?
  ) -> SearchResponse {
    SearchResponse(
      mode: Self.mode, algorithmVersion: Self.algorithmVersion, query: query, terms: terms,
      results: results, total: total, truncated: total > results.count, emptyReason: reason)
  }

  /// The query as the ranker resolves it, for offline analysis: each distinct term's
  /// vocabulary variants with their weights *v*, and the phrase pairs. Benchmarks only.
  package func resolvedQuery(_ query: String, in index: some LexicalIndexReader) throws
    -> (terms: [(term: String, variants: [(term: String, weight: Double)])],
      pairs: [(first: Int, second: Int, gap: Int)])
  {
    let analysis = analyze(query)
    let statistics = try index.statistics()
    var terms: [(term: String, variants: [(term: String, weight: Double)])] = []
    for (t, term) in analysis.terms.enumerated() {
      let (group, _) = try resolve(
        term, spellings: analysis.spellings[t], compounds: analysis.compounds[t],
        tailSplits: analysis.tailSplits[t], numberParts: analysis.numberParts[t],
        versionForm: analysis.versionForms[t], words: analysis.surfaces[t], in: index,
        statistics: statistics, queryTerms: analysis.terms)
      terms.append((term, group.variants.map { ($0.term, $0.weight) }))
    }
    return (terms, analysis.pairs)
  }

  // MARK: - Query analysis

  struct QueryAnalysis {
    /// Distinct terms in first-occurrence order.
    var terms: [String]
    /// The distinct folded, unstemmed words behind each term (`surfaces[i]` for `terms[i]`), in
    /// first-occurrence order: the words whose other English spellings are searched.
    var surfaces: [[String]]
    /// How each of `surfaces` was first typed (`typedWords[i][k]` for `surfaces[i][k]`): the
    /// query text of the run its term came from (`COLOURS`, `α`).
    var typedWords: [[String]]
    /// Per term, the terms to search as its other spellings, in order: first the terms of other
    /// words typed that are spellings of it (`typed`, `color` in `colour color`), then the terms
    /// the other English spellings of its words analyse to; without the term itself or repeats.
    /// Empty when spellings are off.
    var spellings: [[(term: String, typed: Bool)]]
    /// Per term, those of its `spellings` that are the other number of an irregular noun
    /// (``EnglishPlurals``: `mice` for `mous`), not another spelling.
    var numberForms: [Set<String>] = []
    /// Adjacent query-word pairs by term index, with their distance in the query.
    var pairs: [(first: Int, second: Int, gap: Int)]
    /// Per term, its other written forms as a compound (``CompoundWords``), each a list of
    /// terms: one term for the catenation of hyphen- or slash-joined query words the term is
    /// part of (`e-mail` → `email`, listed for both `e` and `mail`), two or more for a split of
    /// its words, searched as adjacent terms (`email` → `e`, `mail`). Catenations come first,
    /// then splits, without repeats. Empty when compounds are off.
    var compounds: [[[String]]] = []
    /// Per term, the splits of its words before a short last part, as dotted names are written
    /// (``CompoundWords/tailSplits(of:)``: `nodejs` → `node`, `js`), searched as adjacent terms
    /// only when the term is not in the vocabulary; none of ``compounds``. Empty when compounds
    /// or open compounds are off.
    var tailSplits: [[[String]]] = []
    /// Per term, the terms of the number it stands for when the query typed a number with a
    /// decimal point or digit-group separator (`0.7` → `0`, `7`): Unicode word segmentation
    /// keeps such a number one word (UAX #29, rules WB11 and WB12), while the index holds its
    /// parts as adjacent terms. Empty for every other term.
    var numberParts: [[String]] = []
    /// Per term, the terms of the same number written as a version the other way, when the
    /// number's parts are separated by full stops only (``versionForm(of:)``: `2.1.8` → `v2`,
    /// `1`, `8`; `v2.1.8` → `2`, `1`, `8`). Empty for every other term.
    var versionForms: [[String]] = []
    /// The words of terms past ``Parameters/maximumQueryTerms`` distinct ones, as first typed,
    /// once each, in query order: not searched.
    var leftOut: [String] = []
    /// Whether every query word is a stop word or an ending after an apostrophe, so that they
    /// were searched because nothing else was left (a query that has other words drops them).
    var onlyCommonWords = false
    /// Per term, whether it is an adverb particle searched only as part of a compound
    /// (``CompoundWords/particles``: the `off` of `hand-off`, the `up` of `set up`), or a
    /// one-character part of a joined word (`PD-1`, `e-mail`:
    /// ``Parameters/joinedSinglePartsDependent``): it adds to a note's score, but a note that
    /// matches no other term is no match (`clean up` does not list every note with *up*).
    var dependent: [Bool] = []
  }

  func analyze(_ query: String) -> QueryAnalysis {
    // `position` counts the query's terms. A query is not read as sentences: the free positions
    // the tokenizer leaves at breaks are for stored text, and a comma typed between two words
    // (`release, plan`) must not ask for a note that has a sentence end between them.
    var all: [(term: String, surface: String, typed: String, position: Int, clitic: Bool)] = []
    var ranges: [Range<Int>] = []
    let bytes = Array(query.utf8)
    tokenizer.forEachTerm(in: query) { analyzed in
      let clitic =
        Self.englishClitics.contains(analyzed.surface)
        && Self.followsApostrophe(analyzed.utf8Range.lowerBound, in: bytes)
      // Runs start and end on scalar boundaries, so the slice decodes whole.
      let typed = String(decoding: bytes[analyzed.utf8Range], as: UTF8.self)
      all.append((analyzed.term, analyzed.surface, typed, all.count, clitic))
      ranges.append(analyzed.utf8Range)
      return true
    }
    // A letter of an initialism typed with full stops (`u.s.a`, `i.e.`) is no stop word.
    func isDottedLetter(_ k: Int) -> Bool {
      func dotted(_ a: Int, _ b: Int) -> Bool {
        all[a].surface.utf8.count == 1 && all[b].surface.utf8.count == 1
          && ranges[a].upperBound + 1 == ranges[b].lowerBound && bytes[ranges[a].upperBound] == UInt8(ascii: ".")
      }
      return (k > 0 && dotted(k - 1, k)) || (k + 1 < all.count && dotted(k, k + 1))
    }
    // A particle joined to a word by a hyphen or slash is part of that word (`hand-off`,
    // `set-up`, `up-regulation`), not a stop word; so is one typed after or before a word with
    // which it makes a compound written closed too (`hand off`, `set up`, `up regulation`).
    func isJoinedParticle(_ k: Int) -> Bool {
      guard parameters.searchesParticleCompounds, CompoundWords.particles.contains(all[k].surface) else {
        return false
      }
      func word(_ j: Int) -> Bool { !parameters.stopWords.contains(all[j].surface) && !all[j].clitic }
      // Typed apart, only where the two would make a closed compound (`hand off`, `set up`).
      func phrasal(_ a: Int, _ b: Int) -> Bool {
        Self.spaced(ranges[a], ranges[b], in: bytes)
          && CompoundWords.particleSplits(of: all[a].surface + all[b].surface).contains([all[a].surface, all[b].surface])
      }
      return (k > 0 && word(k - 1) && (Self.joined(ranges[k - 1], ranges[k], in: bytes) || phrasal(k - 1, k)))
        || (k + 1 < all.count && word(k + 1) && (Self.joined(ranges[k], ranges[k + 1], in: bytes) || phrasal(k, k + 1)))
    }
    let content = all.filter {
      (!parameters.stopWords.contains($0.surface) || isDottedLetter($0.position) || isJoinedParticle($0.position))
        && !$0.clitic
    }
    var used = content.isEmpty ? all : content
    // A long query (a claim, a pasted sentence) also drops the SMART list's words, which say
    // how its content words relate (`associated with`, `can cause`, `within`) more than what
    // it is about; a short one keeps them (`new laptop`, `zero downtime`).
    if parameters.smartStopWordsMinimumLeft > 0, !content.isEmpty {
      let pruned = content.filter {
        !EnglishStopWords.smart.contains($0.surface) || isDottedLetter($0.position) || isJoinedParticle($0.position)
      }
      if pruned.count >= parameters.smartStopWordsMinimumLeft { used = pruned }
    }
    // Numbers written with a decimal point or digit-group separator are one word (UAX #29
    // WB11/WB12: a digit, then `.` or `,`, then a digit): `0.7` is not `0` and `7` apart.
    var partsOfNumber: [String: [String]] = [:]
    var versionOfNumber: [String: [String]] = [:]
    if parameters.searchesWholeNumbers {
      var merged: [(term: String, surface: String, typed: String, position: Int, clitic: Bool)] = []
      var lastPosition = -2
      var parts: [String] = []
      var onlyFullStops = true
      func flush() {
        if parts.count > 1, let last = merged.last {
          partsOfNumber[last.term] = parts
          if onlyFullStops, let version = Self.versionForm(of: parts) {
            versionOfNumber[last.term] = version
          }
        }
        parts = []
        onlyFullStops = true
      }
      for token in used {
        if let last = merged.last, token.position == lastPosition + 1,
          let separator = Self.decimalSeparator(
            between: ranges[lastPosition], and: ranges[token.position], in: bytes)
        {
          // The term as NFKC writes it (`０．７` is `0.7`), the typed word as typed.
          let folded = String(separator)
          let typed = String(
            decoding: bytes[ranges[lastPosition].upperBound..<ranges[token.position].lowerBound],
            as: UTF8.self)
          merged[merged.count - 1] = (
            last.term + folded + token.term, last.surface + folded + token.surface,
            last.typed + typed + token.typed, last.position, false
          )
          if parts.isEmpty { parts = [last.term] }
          parts.append(token.term)
          if separator != "." { onlyFullStops = false }
        } else {
          flush()
          merged.append(token)
        }
        lastPosition = token.position
      }
      flush()
      used = merged
    }

    var terms: [String] = []
    var surfaces: [[String]] = []
    var typedWords: [[String]] = []
    var spellings: [[(term: String, typed: Bool)]] = []
    var indexOfTerm: [String: Int] = [:]
    let cap = min(max(1, parameters.maximumQueryTerms), 64)
    var leftOut: [String] = []
    var leftOutTerms = Set<String>()
    let spellingsOn = parameters.maximumSpellingVariants > 0
    // Adds `candidate` to term `i`'s spellings unless it is the term or already there (a typed
    // spelling replaces a generated one).
    var numberForms: [Set<String>] = []
    func addGenerated(_ others: [(term: String, isNumber: Bool)], to i: Int) {
      for other in others {
        add(other.term, typed: false, to: i)
        if other.isNumber && other.term != terms[i] { numberForms[i].insert(other.term) }
      }
    }
    func add(_ candidate: String, typed: Bool, to i: Int) {
      guard candidate != terms[i] else { return }
      if let j = spellings[i].firstIndex(where: { $0.term == candidate }) {
        guard typed && !spellings[i][j].typed else { return }
        spellings[i].remove(at: j)
      }
      if typed {
        let afterTyped = spellings[i].lastIndex(where: \.typed).map { $0 + 1 } ?? 0
        spellings[i].insert((candidate, true), at: afterTyped)
      } else {
        spellings[i].append((candidate, false))
      }
    }
    for token in used {
      if let i = indexOfTerm[token.term] {
        if !surfaces[i].contains(token.surface) {
          surfaces[i].append(token.surface)
          typedWords[i].append(token.typed)
          if spellingsOn { addGenerated(spellingTerms(of: token.surface, typed: token.typed), to: i) }
        }
        continue
      }
      let others =
        spellingsOn && partsOfNumber[token.term] == nil
        ? spellingTerms(of: token.surface, typed: token.typed) : []
      // Another spelling of an earlier query word (`colour color`): the same term.
      if spellingsOn, let i = terms.indices.first(where: { i in
        spellings[i].contains(where: { $0.term == token.term })
          || others.contains(where: { $0.term == terms[i] })
      }) {
        indexOfTerm[token.term] = i
        surfaces[i].append(token.surface)
        typedWords[i].append(token.typed)
        add(token.term, typed: true, to: i)
        addGenerated(others, to: i)
      } else if terms.count < cap {
        indexOfTerm[token.term] = terms.count
        terms.append(token.term)
        surfaces.append([token.surface])
        typedWords.append([token.typed])
        spellings.append([])
        numberForms.append([])
        addGenerated(others, to: terms.count - 1)
      } else if leftOutTerms.insert(token.term).inserted {
        leftOut.append(token.typed)
      }
    }
    var pairs: [(first: Int, second: Int, gap: Int)] = []
    for (a, b) in zip(used, used.dropFirst()) {
      guard let first = indexOfTerm[a.term], let second = indexOfTerm[b.term] else { continue }
      let gap = b.position - a.position
      if !pairs.contains(where: { $0.first == first && $0.second == second && $0.gap == gap }) {
        pairs.append((first, second, gap))
      }
    }
    var compounds = [[[String]]](repeating: [], count: terms.count)
    var tailSplits = [[[String]]](repeating: [], count: terms.count)
    if parameters.maximumCompoundVariants > 0 {
      func add(_ form: [String], to i: Int) {
        if form != [terms[i]] && !compounds[i].contains(form) { compounds[i].append(form) }
      }
      // A camelCase or PascalCase word is also its parts next to each other (``CamelCaseWords``:
      // `maxRetryCount` finds `max_retry_count` and *max retry count*).
      if tokenizer.indexesCamelCaseParts {
        for token in used {
          guard let i = indexOfTerm[token.term],
            let parts = CamelCaseWords.partTerms(of: token.typed.utf8, tokenizer: tokenizer)
          else { continue }
          add(parts, to: i)
        }
      }
      // Joined to closed: runs of words with one joiner between each two (`e-mail`, `PD-1`).
      let kept = Set(used.map(\.position))
      var run: [Int] = []
      func closeRun() {
        defer { run.removeAll() }
        // Numbers joined are ranges, fractions or dates (`3-5`, `1/2`, `10/12`), not words.
        let digitsOnly = run.map { all[$0].surface.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard run.allSatisfy(kept.contains),
          !zip(digitsOnly, digitsOnly.dropFirst()).contains(where: { $0 && $1 }),
          let closed = CompoundWords.catenation(of: run.map { all[$0].surface }),
          let term = singleTerm(of: closed)
        else { return }
        for position in run {
          if let i = indexOfTerm[all[position].term] { add([term], to: i) }
        }
      }
      for position in all.indices {
        if let last = run.last, Self.joined(ranges[last], ranges[position], in: bytes) {
          run.append(position)
        } else {
          closeRun()
          run = [position]
        }
      }
      closeRun()
      // Open to closed: two words typed apart that the closed word would split into
      // (`health care` → `healthcare`, `covid 19` → `covid19`).
      if parameters.searchesOpenCompounds {
        for (a, b) in zip(all.indices, all.indices.dropFirst())
        where kept.contains(a) && kept.contains(b)
          && Self.spaced(ranges[a], ranges[b], in: bytes)
          && CompoundWords.isOpenCompound(all[a].surface, all[b].surface)
        {
          guard let term = singleTerm(of: all[a].surface + all[b].surface) else { continue }
          for position in [a, b] {
            if let i = indexOfTerm[all[position].term] { add([term], to: i) }
          }
        }
      }
      // A word and a particle typed apart, as the closed word (`set up` → `setup`, `hand off`
      // → `handoff`, `up regulation` → `upregulation`): a form of both terms.
      if parameters.searchesOpenCompounds && parameters.searchesParticleCompounds {
        for (a, b) in zip(all.indices, all.indices.dropFirst())
        where Self.spaced(ranges[a], ranges[b], in: bytes) {
          let closed = all[a].surface + all[b].surface
          guard CompoundWords.particleSplits(of: closed).contains([all[a].surface, all[b].surface]),
            let term = singleTerm(of: closed)
          else { continue }
          for position in [a, b] where kept.contains(position) {
            if let i = indexOfTerm[all[position].term] { add([term], to: i) }
          }
        }
      }
      // Closed to joined: splits of each word (`email` → `e mail`, `pd1` → `pd 1`,
      // `healthcare` → `health care`), and of the other number of a name of letters and
      // digits (`IL6s` → `il6` → `il 6`, the *IL-6* of a note; `PD1` → `pd1s` → `pd 1s`).
      for i in terms.indices {
        let otherNumbers =
          parameters.searchesIdentifierPlurals
          ? typedWords[i].flatMap(EnglishPlurals.identifierAlternatives(of:)) : []
        for word in surfaces[i] + otherNumbers {
          let open = parameters.searchesOpenCompounds ? CompoundWords.openSplits(of: word) : []
          for parts in CompoundWords.splits(of: word) + open
          where !parts.contains(where: parameters.stopWords.contains) {
            let split = parts.compactMap(singleTerm(of:))
            if split.count == parts.count { add(split, to: i) }
          }
          // `handoff` → `hand off`: the particle is a stop word, the other part may not be one.
          let particleSplits = parameters.searchesParticleCompounds ? CompoundWords.particleSplits(of: word) : []
          for parts in particleSplits
          where parts.filter({ !CompoundWords.particles.contains($0) }).allSatisfy({ !parameters.stopWords.contains($0) }) {
            let split = parts.compactMap(singleTerm(of:))
            if split.count == parts.count { add(split, to: i) }
          }
        }
      }
      // Dotted names: `nodejs` → `node js` (`Node.js`), for a term no note holds (`resolve`).
      if parameters.searchesOpenCompounds {
        for i in terms.indices {
          for word in surfaces[i] {
            for parts in CompoundWords.tailSplits(of: word)
            where !parts.contains(where: parameters.stopWords.contains) {
              let split = parts.compactMap(singleTerm(of:))
              if split.count == parts.count && !compounds[i].contains(split)
                && !tailSplits[i].contains(split)
              {
                tailSplits[i].append(split)
              }
            }
          }
        }
      }
      // Initialisms: `eg` → `e g` (*e.g.*), `usa` → `u s a` (*U.S.A.*), for a term no note
      // holds. Single letters are no stop words here: `a` is the last letter of *U.S.A.*
      if parameters.searchesInitialisms {
        for i in terms.indices {
          for word in surfaces[i] {
            guard let letters = CompoundWords.initialismSplit(of: word) else { continue }
            let split = letters.compactMap(singleTerm(of:))
            if split.count == letters.count && !compounds[i].contains(split)
              && !tailSplits[i].contains(split)
            {
              tailSplits[i].append(split)
            }
          }
        }
      }
    }
    let onlyCommonWords = content.isEmpty && !all.isEmpty
    // One-character parts of joined words (`PD-1`, `e-mail`) and the words typed otherwise.
    var joinedSingles = Set<String>()
    var freeWords = Set<String>()
    for token in used {
      let k = token.position
      let single =
        token.surface.unicodeScalars.count == 1 && all[k].surface == token.surface
        && ((k > 0 && Self.joined(ranges[k - 1], ranges[k], in: bytes))
          || (k + 1 < all.count && Self.joined(ranges[k], ranges[k + 1], in: bytes)))
      if single { joinedSingles.insert(token.surface) } else { freeWords.insert(token.surface) }
    }
    var dependent = surfaces.map { words in
      !onlyCommonWords && words.allSatisfy { CompoundWords.particles.contains($0) && parameters.stopWords.contains($0) }
    }
    if parameters.joinedSinglePartsDependent {
      let parts = surfaces.map { words in words.allSatisfy { joinedSingles.contains($0) && !freeWords.contains($0) } }
      // Some term must stay free to match on its own; a query of only such parts keeps them.
      if zip(dependent, parts).contains(where: { !$0 && !$1 }) {
        dependent = zip(dependent, parts).map { $0 || $1 }
      }
    }
    return QueryAnalysis(
      terms: terms, surfaces: surfaces, typedWords: typedWords, spellings: spellings,
      numberForms: numberForms, pairs: pairs, compounds: compounds, tailSplits: tailSplits,
      numberParts: terms.map { partsOfNumber[$0] ?? [] },
      versionForms: terms.map { versionOfNumber[$0] ?? [] },
      leftOut: leftOut, onlyCommonWords: onlyCommonWords, dependent: dependent)
  }

  /// Whether only white space (space, tab, line breaks) and sentence or clause punctuation
  /// (`.`, `,`, `;`, `:`, `!`, `?`) stand between the query words at UTF-8 ranges `first` and
  /// `second` — a query is not read as sentences, so `health, care` is `health care` — and no
  /// dash or other joiner (`e - mail` is prose, not a compound).
  static func spaced(_ first: Range<Int>, _ second: Range<Int>, in bytes: [UInt8]) -> Bool {
    first.upperBound < second.lowerBound
      && bytes[first.upperBound..<second.lowerBound].allSatisfy {
        [0x20, 0x09, 0x0A, 0x0D, 0x2E, 0x2C, 0x3B, 0x3A, 0x21, 0x3F].contains($0)
      }
  }

  /// The decimal point or digit-group separator between the query words at UTF-8 ranges
  /// `first` and `second` when they are parts of one number, as NFKC writes it (`.` or `,`):
  /// a single `.` or `,` of any width stands between them (``Tokenizer/decimalSeparatorAsNFKC(_:)``:
  /// also `．`, `，`), with a digit of any width on either side (`0.7`, `250,000`, `Kir7.1`,
  /// `０．７`, `２５０，０００`; not `Fig.1` or `1, 2`); nil otherwise. A number is one term
  /// whatever its width, as the index reads it (``Tokenizer/version`` 6).
  static func decimalSeparator(
    between first: Range<Int>, and second: Range<Int>, in bytes: [UInt8]
  ) -> Unicode.Scalar? {
    bytes.withUnsafeBufferPointer { Tokenizer.numberSeparator(between: first, and: second, in: $0) }
  }

  /// The parts of a number typed with full stops (``QueryAnalysis/numberParts``) written as a
  /// version the other way: with a `v` before the first part when it is digits only (`2.1.8` →
  /// `v2`, `1`, `8`), without it when it is a `v` and digits (`v2.1.8` → `2`, `1`, `8`); nil
  /// for any other first part (`kir7`, `x2`).
  ///
  /// A version number is written with or without a `v` before it, which says only that it is a
  /// version (Semantic Versioning 2.0.0, FAQ: “Is "v1.2.3" a semantic version?”), so a user
  /// who types `2.1.8` expects the note that says *v2.1.8*. The index cannot give it otherwise:
  /// it keeps `v2` as one term (letters and digits make one word: `p53`, `covid19`), and a
  /// number's first part is not looked up as the digit tail of every such word, which would
  /// need the whole vocabulary read (``LexicalIndexReader`` has prefix look-ups only) and would
  /// make `7.1` find *Kir7.1* and `2.5` *PM2.5*, other names. Only the letter `v` is taken,
  /// as the one prefix a version is written with whatever the project.
  static func versionForm(of parts: [String]) -> [String]? {
    guard let first = parts.first, !first.isEmpty else { return nil }
    func isDigits(_ text: Substring.UTF8View) -> Bool {
      !text.isEmpty && text.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
    let utf8 = Substring(first).utf8
    if isDigits(utf8) { return ["v" + first] + parts.dropFirst() }
    if utf8.first == UInt8(ascii: "v"), isDigits(utf8.dropFirst()) {
      return [String(first.dropFirst())] + parts.dropFirst()
    }
    return nil
  }

  /// Whether the query words at UTF-8 ranges `first` and `second` are joined into a compound:
  /// exactly one of ``CompoundWords/joiners`` stands between them.
  static func joined(_ first: Range<Int>, _ second: Range<Int>, in bytes: [UInt8]) -> Bool {
    guard first.upperBound < second.lowerBound, second.lowerBound - first.upperBound <= 3 else {
      return false
    }
    let between = String(decoding: bytes[first.upperBound..<second.lowerBound], as: UTF8.self)
    return between.count == 1 && CompoundWords.joiners.contains(between.first!)
  }

  /// English contraction and possessive endings (`'s`, `n't`, `'d`, `'m`, `'ll`, `'re`,
  /// `'ve`): dropped from queries like stop words when they follow an apostrophe, so
  /// *deploy's* searches `deploy` and not also the word `s`.
  static let englishClitics: Set<String> = ["s", "t", "d", "m", "ll", "re", "ve"]

  /// Whether the UTF-8 offset `start` of `bytes` directly follows an apostrophe as the
  /// tokenizer reads one (rule 7): `'` (U+0027), a backtick, `’` (U+2019), `‘` (U+2018) or `＇`
  /// (U+FF07).
  static func followsApostrophe(_ start: Int, in bytes: [UInt8]) -> Bool {
    if start >= 1 && (bytes[start - 1] == 0x27 || bytes[start - 1] == 0x60) { return true }
    guard start >= 3 else { return false }
    let (a, b, c) = (bytes[start - 3], bytes[start - 2], bytes[start - 1])
    return (a == 0xE2 && b == 0x80 && (c == 0x99 || c == 0x98)) || (a == 0xEF && b == 0xBC && c == 0x87)
  }

  // MARK: - Term resolution

  /// One vocabulary term searched for a query term.
  struct Variant {
    var term: String
    /// *v*: 1 for the exact term, ``Parameters/spellingWeight`` for its other spellings, less
    /// for fuzzy and prefix variants.
    var weight: Double
    /// The term itself or another English spelling of it: its score counts toward the field
    /// parts, not the fuzzy part.
    var isExact: Bool
    /// Another English spelling of the query term (``EnglishSpelling``).
    var isSpelling = false
    /// Another written form of the query word as a compound (``CompoundWords``).
    var isCompound = false
    /// A longer number starting with the number typed and a separator (`v2.3.9` for `v2.3`),
    /// found as a prefix match.
    var isLongerNumber = false
    var idf: Double
    var postings: PostingList
  }

  /// One distinct query term: its variants and, once built, its scored posting list.
  struct Group {
    var term: String
    var match: QueryTermMatch.Match
    var variants: [Variant]
    /// max over variants of *v* · idf: bounds this term's BM25F contribution.
    var upperBound: Double
    /// A particle searched only as part of a compound (``QueryAnalysis/dependent``): a document
    /// that matches only such terms is no match.
    var isDependent = false
    var documents: [Int64] = []
    var scores: [Double] = []
    var variantIndex: [UInt8] = []
    var postingIndex: [Int32] = []
    /// ``DocumentKind/orderIndex`` of each listed document.
    var kindOrder: [UInt8] = []

    /// Scores every posting of every variant (best variant per document) in document order.
    ///
    /// - Returns: whether some posting was skipped because of its kind, and whether one was
    ///   skipped because its document is outside the filter's set.
    mutating func buildScoredList(filter: PostingFilter, normalization: Normalization)
      -> (kind: Bool, document: Bool)
    {
      var skippedKind = false
      var skippedDocument = false
      if variants.count == 1 {
        let variant = variants[0]
        let list = variant.postings
        documents.reserveCapacity(list.count)
        scores.reserveCapacity(list.count)
        postingIndex.reserveCapacity(list.count)
        kindOrder.reserveCapacity(list.count)
        for i in 0..<list.count {
          let kind = list.kinds[i]
          if let kindMask = filter.kindMask, kindMask & (1 << kind) == 0 {
            skippedKind = true
            continue
          }
          if let allowed = filter.documents, !allowed.contains(list.documents[i]) {
            skippedDocument = true
            continue
          }
          if !filter.excluded.isEmpty && filter.excluded.contains(list.documents[i]) {
            continue
          }
          documents.append(list.documents[i])
          scores.append(
            normalization.score(
              termFrequencies: list.termFrequencies[i], fieldLengths: list.fieldLengths[i],
              variant: variant))
          postingIndex.append(Int32(i))
          kindOrder.append(kind)
        }
        variantIndex = [UInt8](repeating: 0, count: documents.count)
        return (skippedKind, skippedDocument)
      }
      var entries:
        [(document: Int64, score: Double, variant: UInt8, posting: Int32, kind: UInt8)] = []
      // A word form or typo of the word typed (or a longer number) never reaches the lowest
      // score of the word typed itself (`zookeeper`: a title *Zookeper upgrade* below a content
      // holding `zookeeper`).
      let cap =
        variants.count > 1 && match == .exact && variants[0].isExact
          && variants.contains(where: { !$0.isExact })
        ? normalization.otherFormCap(exact: variants[0]) : .infinity
      for (v, variant) in variants.enumerated() {
        let list = variant.postings
        let variantCap = variant.isExact ? Double.infinity : cap
        for i in 0..<list.count {
          let kind = list.kinds[i]
          if let kindMask = filter.kindMask, kindMask & (1 << kind) == 0 {
            skippedKind = true
            continue
          }
          if let allowed = filter.documents, !allowed.contains(list.documents[i]) {
            skippedDocument = true
            continue
          }
          if !filter.excluded.isEmpty && filter.excluded.contains(list.documents[i]) {
            continue
          }
          entries.append(
            (
              list.documents[i],
              min(
                variantCap,
                normalization.score(
                  termFrequencies: list.termFrequencies[i], fieldLengths: list.fieldLengths[i],
                  variant: variant)),
              UInt8(v), Int32(i), kind
            ))
        }
      }
      entries.sort {
        $0.document != $1.document
          ? $0.document < $1.document
          : $0.score != $1.score ? $0.score > $1.score : $0.variant < $1.variant
      }
      for entry in entries where documents.last != entry.document {
        documents.append(entry.document)
        scores.append(entry.score)
        variantIndex.append(entry.variant)
        postingIndex.append(entry.posting)
        kindOrder.append(entry.kind)
      }
      return (skippedKind, skippedDocument)
    }

    /// The index in the scored list of `document`, by binary search.
    func entry(of document: Int64) -> Int? {
      HybridLexicalRanker.index(of: document, in: documents)
    }

    /// Where the scored entry `entry` comes from: its variant and its index in that variant's
    /// posting list.
    func location(at entry: Int) -> (variant: Int, posting: Int) {
      (Int(variantIndex[entry]), Int(postingIndex[entry]))
    }
  }

  /// Finds the variants of one query term.
  ///
  /// - Returns: the group, and whether a near miss (a candidate sharing enough trigrams but
  ///   failing the similarity threshold) was seen.
  ///
  /// - Parameters:
  ///   - spellings: the terms to search as `term`'s other spellings
  ///     (``QueryAnalysis/spellings``); those typed in the query count in full.
  ///   - compounds: `term`'s other written forms as a compound (``QueryAnalysis/compounds``).
  ///   - tailSplits: `term`'s splits as a dotted name (``QueryAnalysis/tailSplits``), searched
  ///     after `compounds` and only when `term` is not in the vocabulary.
  ///   - numberParts: the parts of a number typed whole (``QueryAnalysis/numberParts``),
  ///     searched adjacent and as nothing else.
  ///   - versionForm: that number written as a version the other way
  ///     (``QueryAnalysis/versionForms``), searched whole as a compound form.
  ///   - words: the folded, unstemmed query words behind `term` (``QueryAnalysis/surfaces``):
  ///     a typo is also looked for one edit from them (``oneEditStems(of:excluding:)``).
  ///   - queryTerms: every distinct term of the query; none of them is taken as a spelling or
  ///     word-form variant of another (it is searched in its own right).
  private func resolve(
    _ term: String, spellings candidates: [(term: String, typed: Bool)],
    compounds forms: [[String]], tailSplits: [[String]], numberParts: [String] = [],
    versionForm: [String] = [], words: [String] = [], in index: some LexicalIndexReader,
    statistics: IndexStatistics, queryTerms: [String]
  ) throws -> (Group, Bool) {
    let n = Double(statistics.documentCount)
    func variant(_ term: String, weight: Double, isExact: Bool, postings: PostingList) -> Variant {
      let df = Double(postings.count)
      return Variant(
        term: term, weight: weight, isExact: isExact,
        idf: log(1 + (n - df + 0.5) / (df + 0.5)),
        postings: postings)
    }
    func group(_ match: QueryTermMatch.Match, _ variants: [Variant]) -> Group {
      Group(
        term: term, match: variants.isEmpty ? .none : match, variants: variants,
        upperBound: variants.map { $0.weight * $0.idf }.max() ?? 0)
    }

    // A number typed whole (`v2.3`) is one term of the index (``WholeNumbers``, tokenizer
    // version 9), found exactly where a note holds it as typed, and nowhere else: it has no
    // other spelling, word form or typo. A version number is also found written the other way,
    // with or without its `v`, as a compound form is. A longer number that starts with it and
    // a separator (`v2.3.9`, `1.2.3` for `1.2`) is another number: found by a prefix look-up of
    // the vocabulary, as a short word's prefix variants are, at ``Parameters/prefixWeight``,
    // and never called the number typed.
    if !numberParts.isEmpty {
      guard WholeNumbers.isHeldWhole(term) else {
        // Too long for the index to hold whole: its parts next to each other, as before.
        let postings = try Self.adjacentPostings(of: numberParts, in: index)
        let found = postings.isEmpty ? [] : [variant(term, weight: 1, isExact: true, postings: postings)]
        return (group(.exact, found), false)
      }
      let whole = try index.anyPostingList(for: term)
      let exact = whole.isEmpty ? nil : variant(term, weight: 1, isExact: true, postings: whole)
      // Never more than the number typed would score in the same place (see `boundedByTyped`).
      func bounded(_ form: Variant) -> Variant {
        guard let exact, form.idf > exact.idf, form.idf > 0 else { return form }
        var bounded = form
        bounded.weight *= exact.idf / form.idf
        return bounded
      }
      let versionTerm =
        versionForm.isEmpty || parameters.maximumCompoundVariants <= 0
        ? nil : versionForm.joined(separator: ".")
      var version: Variant?
      if let versionTerm, WholeNumbers.isHeldWhole(versionTerm) {
        let postings = try index.anyPostingList(for: versionTerm)
        if !postings.isEmpty {
          var found = bounded(
            variant(versionTerm, weight: parameters.compoundWeight, isExact: true, postings: postings))
          found.isCompound = true
          version = found
        }
      }
      // Longer numbers: those of the number typed first, then those of its version form (at
      // the compound form's share of the weight); most frequent first within each.
      var longer: [Variant] = []
      let limit = max(0, parameters.maximumPrefixVariants)
      let bases =
        [(term, parameters.prefixWeight)]
        + (versionTerm.map { [($0, parameters.prefixWeight * parameters.compoundWeight)] } ?? [])
      for (base, weight) in bases {
        for separator in [".", ","] where longer.count < limit {
          for candidate in try index.vocabularyTerms(withPrefix: base + separator, limit: limit)
          where longer.count < limit && !longer.contains(where: { $0.term == candidate }) {
            var found = bounded(
              variant(
                candidate, weight: weight, isExact: false,
                postings: try index.anyPostingList(for: candidate)))
            found.isLongerNumber = true
            longer.append(found)
          }
        }
      }
      let variants = (exact.map { [$0] } ?? []) + (version.map { [$0] } ?? []) + longer
      let match: QueryTermMatch.Match = exact != nil ? .exact : version != nil ? .compound : .prefix
      return (group(match, variants), false)
    }
    let exact = try index.anyPostingList(for: term)
    let exactVariant = exact.isEmpty ? nil : variant(term, weight: 1, isExact: true, postings: exact)
    // A stop word typed (a query of stop words only, `NOT`) is meant as itself: it has no typo
    // or word form (`not` is no typo of *notes*), as a stop word is never another word's.
    let typedStopWord =
      words.isEmpty ? parameters.stopWords.contains(term) : words.allSatisfy { parameters.stopWords.contains($0) }
    // Nor is a word written closed after a stop word a typo or form of the rest
    // (`atypical` is no *a typical*).
    let closedParts: Set<String> = typedStopWord ? [] : stopWordClosedParts(of: words.isEmpty ? [term] : words)
    // Another spelling, number or compound form of the word typed is searched at a reduced
    // weight *v* of the word's own evidence: when the form is rarer than the word typed (a
    // higher IDF), *v* is scaled by idf(typed) / idf(form), so that it never scores above *v*
    // times what the same note would score with the word as typed (a note saying `colour` once
    // never outranks one titled `Color` for the query `color`). A form typed in the query too
    // counts in full. (Word forms have a looser bound, ρ = 2: see the type's documentation.)
    func boundedByTyped(_ form: Variant) -> Variant {
      guard let typed = exactVariant, form.idf > typed.idf, form.idf > 0 else { return form }
      var bounded = form
      bounded.weight *= typed.idf / form.idf
      return bounded
    }

    // Other spellings in the vocabulary, at most the parameter's number: typed ones in full.
    var spellings: [Variant] = []
    for candidate in candidates
    where spellings.count < parameters.maximumSpellingVariants
      && !queryTerms.contains(candidate.term)
    {
      let postings = try index.anyPostingList(for: candidate.term)
      guard !postings.isEmpty else { continue }
      let spelling = variant(
        candidate.term, weight: candidate.typed ? 1 : parameters.spellingWeight, isExact: true,
        postings: postings)
      var found = candidate.typed ? spelling : boundedByTyped(spelling)
      found.isSpelling = true
      spellings.append(found)
    }

    // Other written forms as a compound, found in the vocabulary (a catenation) or found
    // adjacent in some document (a split), at most the parameter's number; never weighing more
    // than the word typed. A word no note holds may also be a dotted name's two parts.
    var compounds: [Variant] = []
    for form in forms + (exact.isEmpty ? tailSplits : [])
    where compounds.count < parameters.maximumCompoundVariants {
      let name = form.joined(separator: " ")
      guard !queryTerms.contains(name), !spellings.contains(where: { $0.term == name }) else {
        continue
      }
      let postings =
        form.count == 1
        ? try index.anyPostingList(for: form[0]) : try Self.adjacentPostings(of: form, in: index)
      guard !postings.isEmpty else { continue }
      var found = boundedByTyped(
        variant(name, weight: parameters.compoundWeight, isExact: true, postings: postings))
      found.isCompound = true
      compounds.append(found)
    }

    if let exactVariant {
      var variants = [exactVariant] + spellings + compounds
      for candidate in try typedStopWord ? [] : wordForms(of: term, in: index)
      where !queryTerms.contains(candidate.term) && !variants.contains(where: { $0.term == candidate.term })
        && !closedParts.contains(candidate.term)
      {
        var form = variant(
          candidate.term, weight: parameters.fuzzyWeight * candidate.similarity,
          isExact: false, postings: try index.anyPostingList(for: candidate.term))
        let allowed = parameters.wordFormIDFRatioBound * exactVariant.idf
        if form.idf > allowed, form.idf > 0 { form.weight *= allowed / form.idf }
        variants.append(form)
      }
      return (group(.exact, variants), false)
    }
    if !spellings.isEmpty {
      return (group(.spelling, spellings + compounds), false)
    }
    if !compounds.isEmpty {
      return (group(.compound, compounds), false)
    }
    if Trigrams.isFuzzyEligible(term), !typedStopWord {
      let trigrams = Trigrams.comparisonList(of: term)
      let candidates = try index.vocabularyTerms(
        sharingTrigrams: trigrams.strings,
        minimumShared: Trigrams.minimumShared(queryTrigramCount: trigrams.count), limit: 64)
      var passing: [(term: String, similarity: Double, df: Int)] = []
      var nearMiss = false
      // A stop word is never searched for another word (`thesis` is no typo of `these`).
      for candidate in candidates where !parameters.stopWords.contains(candidate) {
        let candidateTrigrams = Trigrams.comparisonList(of: candidate)
        let shared = Trigrams.sharedCount(trigrams, candidateTrigrams)
        if Trigrams.isMatch(
          shared: shared, queryCount: trigrams.count, candidateCount: candidateTrigrams.count),
          Trigrams.haveComparableLengths(term, candidate)
        {
          let similarity = Trigrams.jaccard(
            shared: shared, queryCount: trigrams.count, candidateCount: candidateTrigrams.count)
          passing.append((candidate, similarity, try index.documentFrequency(of: candidate)))
        } else if parameters.matchesOneEditTypos,
          let similarity = Trigrams.oneEditSimilarity(of: term, to: candidate)
        {
          passing.append((candidate, similarity, try index.documentFrequency(of: candidate)))
        } else {
          nearMiss = true
        }
      }
      // Two letters swapped near the start of a short word, or one dropped, change up to four
      // of its trigrams, so the index's trigram look-up above may not return the word at all
      // (`abckup` shares 3 of 7 with `backup`): those edits are also looked up exactly, at most
      // 2n − 1 indexed look-ups for a term of n letters.
      if parameters.matchesOneEditTypos, term.count >= Trigrams.minimumOneEditLength {
        for candidate in Trigrams.swapsAndDeletions(of: term)
        where !candidates.contains(candidate) && !parameters.stopWords.contains(candidate)
          && !passing.contains(where: { $0.term == candidate })
        {
          guard let similarity = Trigrams.oneEditSimilarity(of: term, to: candidate) else { continue }
          let df = try index.documentFrequency(of: candidate)
          if df > 0 { passing.append((candidate, similarity, df)) }
        }
      }
      // The stemmer can move a typo further from its word than one edit (`stgaing` stems to
      // `stga`, *staging* to `stage`; `prodction` stays, *production* is `product`), so the
      // words typed are compared too: every word one edit from them, stemmed as the index stems
      // it, is looked up in one batch (``oneEditStems(of:excluding:)``).
      // (Not when enough candidates rank above a one-edit match already: none could be kept.)
      let above = passing.count { $0.similarity > Trigrams.oneEditMatchSimilarity }
      if parameters.matchesOneEditTypos, above < parameters.maximumFuzzyVariants {
        let stems = oneEditStems(
          of: words, excluding: Set(queryTerms + passing.map(\.term)).union([term]))
        let frequencies = try index.documentFrequencies(of: stems)
        for stem in stems where !parameters.stopWords.contains(stem) {
          guard let df = frequencies[stem], df > 0 else { continue }
          passing.append((stem, Trigrams.oneEditMatchSimilarity, df))
        }
      }
      passing.removeAll { closedParts.contains($0.term) }
      passing.sort {
        $0.similarity != $1.similarity
          ? $0.similarity > $1.similarity
          : $0.df != $1.df ? $0.df > $1.df : $0.term < $1.term
      }
      var variants: [Variant] = []
      for candidate in passing.prefix(max(0, parameters.maximumFuzzyVariants)) {
        variants.append(
          variant(
            candidate.term, weight: parameters.fuzzyWeight * candidate.similarity, isExact: false,
            postings: try index.anyPostingList(for: candidate.term)))
      }
      return (group(.fuzzy, variants), variants.isEmpty && nearMiss)
    }
    // A stop word searched beside other words (a query of only stop words, `out of`) is meant
    // as itself: absent, it matches nothing rather than the words it begins (`of` → `office`).
    if term.count < Trigrams.minimumTermLength
      && (term.count >= Self.minimumPrefixLength || queryTerms.count == 1)
      && (queryTerms.count == 1 || !parameters.stopWords.contains(term))
    {
      var variants: [Variant] = []
      for candidate in try index.vocabularyTerms(
        withPrefix: term, limit: max(0, parameters.maximumPrefixVariants))
      {
        variants.append(
          variant(
            candidate, weight: parameters.prefixWeight, isExact: false,
            postings: try index.anyPostingList(for: candidate)))
      }
      return (group(.prefix, variants), false)
    }
    return (group(.none, []), false)
  }

  /// The terms the other English spellings of `word` and, when
  /// ``Parameters/searchesIrregularPlurals``, its other irregular number (``EnglishPlurals``)
  /// and, when ``Parameters/searchesIdentifierPlurals``, the other number of a name of letters
  /// and digits as `typed` (`E2Fs` and `E2F`), analyse to (stemmed like any word), spellings
  /// first, in the order generated, without repeats, and never a stop word (`theses` stems to
  /// `these`); `word`'s own term may be among them. `isNumber` marks the terms only the other
  /// number gave.
  func spellingTerms(of word: String, typed: String = "") -> [(term: String, isNumber: Bool)] {
    var found: [(term: String, isNumber: Bool)] = []
    let spellings = EnglishSpelling.alternatives(of: word)
    let numbers =
      (parameters.searchesIrregularPlurals ? EnglishPlurals.alternatives(of: word) : [])
      + (parameters.searchesIdentifierPlurals ? EnglishPlurals.identifierAlternatives(of: typed) : [])
    for (k, alternative) in (spellings + numbers).enumerated() {
      if let term = analysedTerm(of: alternative), !parameters.stopWords.contains(term),
        !found.contains(where: { $0.term == term })
      {
        found.append((term, k >= spellings.count))
      }
    }
    return found
  }

  /// The longest query word, in letters, whose words one edit away are looked up
  /// (``oneEditStems(of:excluding:)``): at most 54 · 24 + 25 = 1,321 of them. A longer word
  /// keeps the trigram rule, which one edit barely moves in a word that long (it changes at
  /// most three of its 25 or more trigrams).
  static let maximumEditedWordLength = 24

  /// The vocabulary terms to look up for typos of `words` that the stemmer moves away from the
  /// word meant: each word of ``Trigrams/minimumOneEditLength`` to ``maximumEditedWordLength``
  /// ASCII letters gives the words one insertion, deletion, substitution or adjacent swap away
  /// (``Trigrams/oneEditWords(of:)``, Norvig's `edits1`: Damerau–Levenshtein distance 1), each
  /// of at least ``Trigrams/minimumOneEditLength`` letters, stemmed as the tokenizer stems an
  /// indexed word (`stgaing` → `staging` → `stage`).
  ///
  /// Looking up this bounded neighbourhood, rather than comparing the word with every
  /// vocabulary term, keeps the cost independent of the workspace's size: at most 1,321 terms
  /// per word, one batched look-up (``LexicalIndexReader/documentFrequencies(of:)``), and only
  /// for a term no note holds. Words of other letters keep the rules on terms (their stems are
  /// the words themselves).
  ///
  /// - Parameters:
  ///   - words: folded, unstemmed query words.
  ///   - excluding: terms not to return (the query's own, those found already).
  /// - Returns: distinct stems of three letters or more, in the order of the words and of their
  ///   edits.
  /// - Complexity: O(*n*²) per word of *n* letters (the edits, each stemmed in O(*n*)).
  func oneEditStems(of words: [String], excluding: Set<String>) -> [String] {
    var seen = excluding
    var stems: [String] = []
    for word in words {
      let letters = Array(word.utf8)
      guard letters.count >= Trigrams.minimumOneEditLength,
        letters.count <= Self.maximumEditedWordLength,
        letters.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
      else { continue }
      Trigrams.forEachOneEditWord(of: letters) { edit in
        guard edit.count >= Trigrams.minimumOneEditLength else { return }
        let stem = String(decoding: tokenizer.stemming ? PorterStemmer.stem(edit) : edit, as: UTF8.self)
        if stem.utf8.count >= Trigrams.minimumTermLength, seen.insert(stem).inserted {
          stems.append(stem)
        }
      }
    }
    return stems
  }

  /// The postings of `terms` found next to each other, in that order, in one field (`e` then
  /// `mail`: the *e-mail*s of the index), as a posting list of their own: per document, the
  /// term frequency is the number of such runs in each field, the field lengths are the
  /// document's, and the positions are those of each run's first term.
  ///
  /// - Parameter terms: two or more terms.
  /// - Returns: the documents holding the run, ascending; empty when a term is not in the
  ///   vocabulary or the terms are never adjacent.
  /// - Complexity: O(*P*) for the *P* postings of the terms, plus position decoding for the
  ///   documents that hold every term.
  static func adjacentPostings(of terms: [String], in index: some LexicalIndexReader) throws
    -> PostingList
  {
    // Most candidate splits have a part no note holds: ask for each part's document frequency
    // (one indexed look-up) before reading any posting list.
    for term in terms where try index.documentFrequency(of: term) == 0 { return PostingList() }
    var lists: [PostingList] = []
    for term in terms {
      let list = try index.anyPostingList(for: term)
      if list.isEmpty { return PostingList() }
      lists.append(list)
    }
    var result = PostingList()
    var cursors = [Int](repeating: 0, count: lists.count)
    let shortest = lists.indices.min { lists[$0].count < lists[$1].count }!
    for entry in 0..<lists[shortest].count {
      let document = lists[shortest].documents[entry]
      var found = true
      for l in lists.indices {
        let documents = lists[l].documents
        while cursors[l] < documents.count && documents[cursors[l]] < document { cursors[l] += 1 }
        if cursors[l] == documents.count { return result }
        if documents[cursors[l]] != document { found = false }
      }
      guard found else { continue }
      var starts = FieldValues<[Int]>(title: [], tags: [], content: [])
      for field in IndexField.allCases {
        var run = Set(lists[0].positions(at: cursors[0], in: field))
        for l in lists.indices.dropFirst() where !run.isEmpty {
          run.formIntersection(lists[l].positions(at: cursors[l], in: field).map { $0 - l })
        }
        starts[field] = run.sorted()
      }
      guard !(starts.title.isEmpty && starts.tags.isEmpty && starts.content.isEmpty) else {
        continue
      }
      let counts = FieldCounts(
        title: Int32(starts.title.count), tags: Int32(starts.tags.count),
        content: Int32(starts.content.count))
      PositionList(starts).bytes.withUnsafeBytes { positions in
        result.append(
          document: document, kind: lists[0].kinds[cursors[0]], termFrequencies: counts,
          fieldLengths: lists[0].fieldLengths[cursors[0]], positions: positions)
      }
    }
    return result
  }

  /// The one term the tokenizer makes of `word`, or nil when it makes none or several.
  private func singleTerm(of word: String) -> String? {
    var found: [String] = []
    tokenizer.forEachTerm(in: word) { t in
      found.append(t.term)
      return found.count < 2
    }
    return found.count == 1 ? found[0] : nil
  }

  /// The terms of the rest of each of `words` after a stop word it starts with (`atypical` =
  /// *a* + *typical* → `typic`, `inactive` → `activ`; the rest at least 3
  /// characters and no stop word), which are never a typo or word form of it: `atypical` is no
  /// *a typical*. Only a stop word in front: one at the end is mostly a suffix (`migraton` is a
  /// typo of *migration*, not *migrat on*; `infection` and *infecti*), so `lesson` may still
  /// find *less* as a typo.
  /// - Complexity: O(*n*) set look-ups for *n* characters, one tokenization per part found.
  func stopWordClosedParts(of words: [String]) -> Set<String> {
    var parts: Set<String> = []
    for word in words {
      let characters = Array(word)
      guard characters.count >= 4 else { continue }
      for cut in 1..<(characters.count - 2) {
        let head = String(characters[..<cut])
        let tail = String(characters[cut...])
        if parameters.stopWords.contains(head), !parameters.stopWords.contains(tail),
          let term = analysedTerm(of: tail)
        {
          parts.insert(term)
        }
      }
    }
    return parts
  }

  /// The term the tokenizer makes of one plain word (its stem), or nil for none.
  private func analysedTerm(of word: String) -> String? {
    var analysed: String?
    tokenizer.forEachTerm(in: word) { t in
      analysed = t.term
      return false
    }
    return analysed
  }

  /// The word-form variants of a query term found in the vocabulary: other vocabulary terms
  /// that start with its first ``Parameters/wordFormPrefixLength`` characters and whose
  /// trigram Jaccard similarity to it is at least ``Parameters/wordFormMinimumSimilarity``,
  /// most similar first (then most frequent, then by term), at most
  /// ``Parameters/maximumWordFormVariants``. Only terms eligible for fuzzy matching (three or
  /// more characters, no digit) have them.
  ///
  /// They catch word forms the Porter stemmer leaves apart — `diagnos`/`diagnost`,
  /// `metastasi`/`metastat`, `infect`/`infecti`, `dimension`/`dimens` — conflating words by
  /// shared character n-grams (the digram association measure of Adamson & Boreham,
  /// *Information Storage and Retrieval* 10, 1974, here with trigrams) within a shared prefix
  /// (truncation, as a light stemmer does). It compares spellings only, never meanings. The
  /// candidates are read with one range scan of the vocabulary, at most
  /// ``wordFormCandidateLimit`` terms.
  private func wordForms(of term: String, in index: some LexicalIndexReader) throws
    -> [(term: String, similarity: Double)]
  {
    guard parameters.maximumWordFormVariants > 0, Trigrams.isFuzzyEligible(term) else {
      return []
    }
    let prefix = String(term.prefix(max(1, parameters.wordFormPrefixLength)))
    var candidates = try index.vocabularyTerms(
      withPrefix: prefix, limit: Self.wordFormCandidateLimit)
    // The reader never returns the prefix itself; as a word it is a candidate too
    // (`optimis` → `optim`, the stems of *optimise* and *optimize*).
    if prefix != term, try index.documentFrequency(of: prefix) > 0 {
      candidates.insert(prefix, at: 0)
    }
    let trigrams = Trigrams.comparisonList(of: term)
    var passing: [(term: String, similarity: Double, rank: Int)] = []
    for (rank, candidate) in candidates.enumerated()
    where candidate != term && Trigrams.haveComparableLengths(term, candidate)
      && !parameters.stopWords.contains(candidate)
    {
      let candidateTrigrams = Trigrams.comparisonList(of: candidate)
      let similarity = Trigrams.jaccard(
        shared: Trigrams.sharedCount(trigrams, candidateTrigrams), queryCount: trigrams.count,
        candidateCount: candidateTrigrams.count)
      if similarity >= parameters.wordFormMinimumSimilarity {
        passing.append((candidate, similarity, rank))
      }
    }
    // `rank` is the reader's order (document frequency descending, then term), after the
    // prefix itself.
    passing.sort {
      $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.rank < $1.rank
    }
    return passing.prefix(parameters.maximumWordFormVariants).map { ($0.term, $0.similarity) }
  }

  /// The most vocabulary terms read per query term when looking for word-form variants (the
  /// most frequent ones sharing the prefix).
  static let wordFormCandidateLimit = 256

  /// The shortest absent query term, in `Character`s, matched by prefix when the query has
  /// other terms: a single letter beside other words would pull in most of the vocabulary.
  /// Alone (`東`, `a`) it is still matched by prefix.
  static let minimumPrefixLength = 2

  // MARK: - Scoring

  /// Which postings a search may return.
  struct PostingFilter {
    /// Bit *i* set admits ``DocumentKind`` with `orderIndex` *i*; nil admits every kind.
    var kindMask: UInt8?
    /// The admitted document keys; nil admits every document.
    var documents: Set<Int64>?
    /// Document keys never admitted (not reported as a filtered match).
    var excluded: Set<Int64> = []
  }

  /// BM25F length normalization, precomputed per field.
  struct Normalization {
    var k1: Double
    var weight: FieldValues<Double>
    /// 1 − b_f.
    var constant: FieldValues<Double>
    /// b_f / avglen_f (0 when the field is empty everywhere).
    var perTerm: FieldValues<Double>
    /// ``Parameters/titleNormalizationCeiling``.
    var titleCeiling: Double
    /// ``Parameters/contentNormalizationFloor``.
    var contentFloor: Double
    /// ``Parameters/otherFormExactShare``.
    var otherFormShare: Double
    /// The content length (in terms) of ``Parameters/otherFormReferenceLength``; 0 for none.
    var otherFormReferenceLength: Double

    init(parameters: Parameters, statistics: IndexStatistics) {
      k1 = parameters.k1
      weight = parameters.fieldWeights
      constant = .zero
      perTerm = .zero
      titleCeiling = parameters.titleNormalizationCeiling
      contentFloor = parameters.contentNormalizationFloor
      otherFormShare = parameters.otherFormExactShare
      otherFormReferenceLength =
        parameters.otherFormReferenceLength > 0
        ? parameters.otherFormReferenceLength * max(1, statistics.averageLength(of: .content)) : 0
      for field in IndexField.allCases {
        let average = statistics.averageLength(of: field)
        constant[field] = average > 0 ? 1 - parameters.b[field] : 1
        perTerm[field] = average > 0 ? parameters.b[field] / average : 0
      }
    }

    /// *w_f* · tf / B_f per field: the parts of the pseudo term frequency tf̃.
    @inline(__always)
    func pseudoFrequencies(termFrequencies tf: FieldCounts, fieldLengths length: FieldCounts)
      -> FieldValues<Double>
    {
      var result = FieldValues<Double>.zero
      if tf.title > 0 {
        result.title =
          weight.title * Double(tf.title)
          / min(titleCeiling, constant.title + perTerm.title * Double(length.title))
      }
      if tf.tags > 0 {
        result.tags =
          weight.tags * Double(tf.tags) / (constant.tags + perTerm.tags * Double(length.tags))
      }
      if tf.content > 0 {
        result.content =
          weight.content * Double(tf.content)
          / max(contentFloor, constant.content + perTerm.content * Double(length.content))
      }
      return result
    }

    @inline(__always)
    func score(termFrequencies: FieldCounts, fieldLengths: FieldCounts, variant: Variant)
      -> Double
    {
      let pseudo = pseudoFrequencies(termFrequencies: termFrequencies, fieldLengths: fieldLengths)
        .sum
      return variant.weight * variant.idf * pseudo / (k1 + pseudo)
    }

    /// The most a word-form, typo or longer-number variant may score in a note, for a group
    /// whose first variant is the word typed (``Parameters/otherFormExactShare``): that share
    /// of the lowest score the word typed gets in any note holding it (filters aside), or of
    /// the reference content's score when that is higher. `.infinity` when unbounded.
    func otherFormCap(exact: Variant) -> Double {
      guard otherFormShare > 0, exact.postings.count > 0 else { return .infinity }
      let list = exact.postings
      var lowest = Double.infinity
      for i in 0..<list.count {
        lowest = min(
          lowest,
          score(termFrequencies: list.termFrequencies[i], fieldLengths: list.fieldLengths[i], variant: exact))
      }
      if otherFormReferenceLength > 0 {
        let pseudo =
          weight.content / max(contentFloor, constant.content + perTerm.content * otherFormReferenceLength)
        lowest = max(lowest, exact.weight * exact.idf * pseudo / (k1 + pseudo))
      }
      return otherFormShare * lowest
    }
  }

  /// The index of `document` in the ascending `documents`, or nil (binary search).
  static func index(of document: Int64, in documents: [Int64]) -> Int? {
    var low = 0
    var high = documents.count
    while low < high {
      let middle = (low + high) / 2
      if documents[middle] < document { low = middle + 1 } else { high = middle }
    }
    return low < documents.count && documents[low] == document ? low : nil
  }

  /// A phrase pair with its boost.
  struct Pair {
    var first: Int
    var second: Int
    var gap: Int
    var weight: Double
  }

  /// Merges the scored lists document-at-a-time into a bounded top-k selection.
  /// With `ordersByCoverage`, a candidate's tier is the number of query terms it matched, so
  /// more terms matched rank first whatever the scores (``Parameters/coverageOrderMaximumTerms``).
  private func select(groups: [Group], pairs: [Pair], limit: Int, ordersByCoverage: Bool)
    -> (TopKSelection, Int)
  {
    var selection = TopKSelection(capacity: limit)
    var cursors = [Int](repeating: 0, count: groups.count)
    var matched: [Int] = []
    var isMatched = [Bool](repeating: false, count: groups.count)
    let termShare = 1 / Double(groups.count)
    var total = 0
    var positions = PositionCache(groupCount: groups.count)

    while true {
      var document = Int64.max
      for g in groups.indices where cursors[g] < groups[g].documents.count {
        document = min(document, groups[g].documents[cursors[g]])
      }
      if document == Int64.max { break }

      matched.removeAll(keepingCapacity: true)
      var base = 0.0
      var mask: UInt64 = 0
      for g in groups.indices
      where cursors[g] < groups[g].documents.count && groups[g].documents[cursors[g]] == document {
        base += groups[g].scores[cursors[g]]
        matched.append(g)
        isMatched[g] = true
        mask |= 1 << UInt64(g)
      }
      // A particle alone (`up` of `clean up`) makes no match.
      if matched.allSatisfy({ groups[$0].isDependent }) {
        for g in matched {
          cursors[g] += 1
          isMatched[g] = false
        }
        continue
      }
      total += 1
      let factor = 1 + parameters.coverageWeight * (Double(matched.count) * termShare)
      var phraseBound = 0.0
      for pair in pairs where isMatched[pair.first] && isMatched[pair.second] {
        phraseBound += pair.weight
      }
      let tier = ordersByCoverage ? matched.count : 0
      let competitive = selection.admits(tier: tier, bound: (base + phraseBound) * factor)
      if competitive {
        var phrase = 0.0
        if phraseBound > 0 {
          positions.reset()
          for pair in pairs where isMatched[pair.first] && isMatched[pair.second] {
            if positions.adjacent(pair, groups: groups, entries: cursors) {
              phrase += pair.weight
            }
          }
        }
        // Every posting of a document carries the same kind; read it from the first match.
        let kindOrder = Int(groups[matched[0]].kindOrder[cursors[matched[0]]])
        selection.insert(
          TopKSelection.Candidate(
            document: document, tier: tier, score: (base + phrase) * factor, kindOrder: kindOrder,
            base: base, phrase: phrase, matchedGroups: mask))
      }
      for g in matched {
        cursors[g] += 1
        isMatched[g] = false
      }
    }
    return (selection, total)
  }

  /// Decoded positions of the current document, per query term and field, decoded on demand.
  struct PositionCache {
    private var cache: [FieldValues<[Int]>?]

    init(groupCount: Int) {
      cache = Array(repeating: nil, count: groupCount)
    }

    mutating func reset() {
      for i in cache.indices { cache[i] = nil }
    }

    /// The positions of term `g` in the document at `entry` of its scored list: those of the
    /// variant that scored it and, when that is not the term itself or another spelling, also
    /// those of the term and its spellings in that document — so a note whose title holds
    /// `Healthcare` keeps the phrase its content writes `health care`.
    mutating func positions(of g: Int, groups: [Group], entry: Int) -> FieldValues<[Int]> {
      if let cached = cache[g] { return cached }
      let group = groups[g]
      let (v, i) = group.location(at: entry)
      let list = group.variants[v].postings
      var decoded = FieldValues(
        title: list.positions(at: i, in: .title), tags: list.positions(at: i, in: .tags),
        content: list.positions(at: i, in: .content))
      let chosen = group.variants[v]
      if !chosen.isExact || chosen.isCompound {
        let document = group.documents[entry]
        for other in group.variants where other.isExact && !other.isCompound {
          let postings = other.postings
          guard let j = HybridLexicalRanker.index(of: document, in: postings.documents) else {
            continue
          }
          for field in IndexField.allCases {
            decoded[field] = (decoded[field] + postings.positions(at: j, in: field)).sorted()
          }
        }
      }
      cache[g] = decoded
      return decoded
    }

    /// True when the pair's terms occur `gap` positions apart in some field.
    mutating func adjacent(_ pair: Pair, groups: [Group], entries: [Int]) -> Bool {
      let first = positions(of: pair.first, groups: groups, entry: entries[pair.first])
      let second = positions(of: pair.second, groups: groups, entry: entries[pair.second])
      for field in IndexField.allCases {
        let a = first[field]
        let b = second[field]
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
          let wanted = a[i] + pair.gap
          if b[j] == wanted { return true }
          if b[j] < wanted { j += 1 } else { i += 1 }
        }
      }
      return false
    }
  }

  // MARK: - Results

  /// The results of `selection`'s candidates, best first, at most `limit`, and how many
  /// candidates had no stored record (index entries left by records deleted outside dolphin).
  private func assemble(
    _ selection: TopKSelection, groups: [Group], normalization: Normalization,
    index: some LexicalIndexReader, limit: Int, snippets: Bool
  ) throws -> (results: [SearchResult], unstored: Int) {
    let candidates = selection.candidates
    guard !candidates.isEmpty else { return ([], 0) }
    let documents = try index.documents(candidates.map(\.document).sorted())
    let unstored = candidates.count { documents[$0.document] == nil }
    let ranked =
      candidates
      .compactMap { candidate in documents[candidate.document].map { (candidate, $0) } }
      .sorted { a, b in
        if a.0.tier != b.0.tier { return a.0.tier > b.0.tier }
        if a.0.score != b.0.score { return a.0.score > b.0.score }
        if a.0.kindOrder != b.0.kindOrder { return a.0.kindOrder < b.0.kindOrder }
        if a.1.updatedAt != b.1.updatedAt { return a.1.updatedAt > b.1.updatedAt }
        if a.1.title != b.1.title { return a.1.title < b.1.title }
        return a.1.id.uuidString < b.1.id.uuidString
      }
      .prefix(limit)

    let results = ranked.map { candidate, document in
      result(
        for: candidate, document: document, groups: groups, normalization: normalization,
        snippet: snippets)
    }
    return (results, unstored)
  }

  private func result(
    for candidate: TopKSelection.Candidate, document: IndexedDocument, groups: [Group],
    normalization: Normalization, snippet makesSnippet: Bool
  ) -> SearchResult {
    var fields = FieldValues<Double>.zero
    var fuzzy = 0.0
    var matchedTerms: [String] = []
    var firstContentPosition: Int?
    for g in groups.indices where candidate.matchedGroups & (1 << UInt64(g)) != 0 {
      guard let entry = groups[g].entry(of: candidate.document) else { continue }
      let (v, i) = groups[g].location(at: entry)
      let variant = groups[g].variants[v]
      let list = variant.postings
      let score = groups[g].scores[entry]
      // A closed word matched for two query words (`email` for `e-mail`) is listed once.
      if !matchedTerms.contains(variant.term) { matchedTerms.append(variant.term) }
      if variant.isExact {
        let pseudo = normalization.pseudoFrequencies(
          termFrequencies: list.termFrequencies[i], fieldLengths: list.fieldLengths[i])
        let sum = pseudo.sum
        if sum > 0 {
          for field in IndexField.allCases { fields[field] += score * pseudo[field] / sum }
        }
      } else {
        fuzzy += score
      }
      if let first = list.positions(at: i, in: .content).first {
        firstContentPosition = min(firstContentPosition ?? first, first)
      }
    }
    let coverage = candidate.score - (candidate.base + candidate.phrase)
    // A memory has no title of its own (none is indexed); it shows its knowledge mirror's.
    let title = document.kind == .memory ? KnowledgeEngine.mirrorTitle(for: document.content) : document.title
    return SearchResult(
      id: document.id, kind: document.kind, title: title,
      snippet: makesSnippet ? snippet(of: document.content, firstMatch: firstContentPosition) : "",
      score: candidate.score,
      scoreParts: ScoreParts(
        title: fields.title, tags: fields.tags, content: fields.content, fuzzy: fuzzy,
        phrase: candidate.phrase, coverage: coverage),
      matchedTerms: matchedTerms, source: document.source, termsMatched: candidate.tier > 0 ? candidate.tier : nil)
  }

  private func snippet(of content: String, firstMatch position: Int?) -> String {
    let offset = position.flatMap { tokenizer.utf8Offset(ofTermAt: $0, in: content) }
    return Snippet.make(from: content, around: offset, maximumLength: Self.snippetLength)
  }
}
