/// The documents a synthetic corpus is drawn from, with what `synth.py`'s `Source` derives
/// from them: each document's sentences and the tag vocabulary.
///
/// The spec is the docstring of `shared/bench/synth.py`; this type and ``synthItems(_:count:seed:)``
/// reproduce it bit for bit (checked by the fingerprints in `SynthCorpusTests`).
public struct SynthSource: Sendable {
  /// A source document: a BEIR corpus record.
  public typealias Document = (id: String, title: String, text: String)

  /// The number of tags in the vocabulary (the spec's `vocab[:256]`).
  public static let vocabularyLimit = 256

  /// The documents, in file order.
  public let docs: [Document]

  /// The tag vocabulary: title tokens (see the spec's `words`) ranked by document frequency,
  /// descending, then by token, ascending; at most ``vocabularyLimit`` of them.
  public let vocab: [String]

  /// Each document's sentences, or its title alone when the text has none.
  let sentences: [[Sentence]]

  /// Each vocabulary word's rank (its index in ``vocab``).
  let vocabularyRank: [String: Int]

  /// The UTF-8 length of the longest vocabulary word; longer tokens need no lookup.
  let longestVocabularyWord: Int

  /// Loads a BEIR `corpus.jsonl` and derives sentences and the vocabulary.
  ///
  /// - Parameter corpusPath: One `{"_id", "title", "text"}` object per line; a missing title
  ///   counts as empty, blank lines are skipped.
  /// - Throws: ``SynthCorpusError/unreadableFile(path:reason:)``,
  ///   ``SynthCorpusError/malformedJSONLine(path:line:reason:)``, or
  ///   ``SynthCorpusError/emptyCorpus(path:)``.
  public init(corpusPath: String) throws {
    let records = try JSONLines.decode(BEIRCorpusRecord.self, path: corpusPath)
    guard !records.isEmpty else { throw SynthCorpusError.emptyCorpus(path: corpusPath) }
    self.init(docs: records.map { (id: $0.id, title: $0.title ?? "", text: $0.text) })
  }

  /// Derives sentences and the vocabulary from documents already in memory.
  ///
  /// - Parameter docs: The source documents, in the order draws index them; must not be empty.
  /// - Complexity: O(*n*) in the total length of the documents, plus sorting the distinct
  ///   title tokens.
  public init(docs: [Document]) {
    precondition(!docs.isEmpty, "a synthetic corpus needs at least one source document")
    self.docs = docs
    sentences = docs.map { doc in
      let pieces = Sentences.split(doc.text)
      return (pieces.isEmpty ? [doc.title] : pieces).map(Sentence.init)
    }

    var documentFrequency: [String: Int] = [:]
    for doc in docs {
      for word in Words.distinctTokens(in: doc.title) {
        documentFrequency[word, default: 0] += 1
      }
    }
    // Tokens are ASCII, so comparing UTF-8 bytes is Python's code-point order.
    let ranked = documentFrequency.sorted { lhs, rhs in
      lhs.value != rhs.value
        ? lhs.value > rhs.value : lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
    }
    vocab = ranked.prefix(Self.vocabularyLimit).map(\.key)
    vocabularyRank = Dictionary(uniqueKeysWithValues: vocab.enumerated().map { ($1, $0) })
    longestVocabularyWord = vocab.map(\.utf8.count).max() ?? 0
  }
}

/// A sentence with its length in Unicode scalars (the unit of the spec's `len()`).
struct Sentence: Sendable {
  var text: String
  var scalarCount: Int

  init(_ text: String) {
    self.text = text
    scalarCount = text.unicodeScalarCount
  }
}
