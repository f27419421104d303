import Foundation

/// An inverted index held in memory: the reference ``LexicalIndexReader`` for tests,
/// previews and evaluation runs.
///
/// A value type: copies are independent (copy-on-write). Documents get keys 1, 2, 3, … in the
/// order they are added; replacing a document gives it a new key, so every posting list stays
/// in ascending key order by appending.
public struct InMemoryLexicalIndex: LexicalIndexReader, Sendable {
  private var tokenizer: Tokenizer
  private var storedDocuments: [Int64: IndexedDocument] = [:]
  private var keysByID: [UUID: Int64] = [:]
  private var termsByDocument: [Int64: [String]] = [:]
  private var fieldLengthsByDocument: [Int64: FieldCounts] = [:]
  private var postingsByTerm: [String: [Posting]] = [:]
  /// Every term ever indexed, by trigram (terms whose postings are gone are filtered on read).
  private var termsByTrigram: [String: [String]] = [:]
  private var termsWithTrigrams: Set<String> = []
  private var totalFieldLengths = FieldValues<Int64>.zero
  private var nextKey: Int64 = 1

  /// An empty index using ``Tokenizer/standard``.
  public init() {
    self.tokenizer = .standard
  }

  /// An index of `documents`, added in order (a later document with the same id replaces an
  /// earlier one).
  ///
  /// - Complexity: O(*n*) in the total number of terms of the documents.
  public init(_ documents: some Sequence<IndexedDocument>) {
    self.init()
    for document in documents { add(document) }
  }

  package init(tokenizer: Tokenizer) {
    self.tokenizer = tokenizer
  }

  /// An index of `keyedDocuments` under the given keys instead of 1, 2, 3, … — the keys of
  /// the persisted index (a knowledge row id, or a negated memory row id), so callers can
  /// filter and exclude documents by key as they do there. Later ``add(_:)`` calls use keys
  /// above the largest one.
  ///
  /// - Parameter keyedDocuments: documents with distinct keys and distinct ids, in any order.
  /// - Complexity: O(*n* log *n*) for sorting by key, plus indexing every term.
  package init(keyedDocuments: [(key: Int64, document: IndexedDocument)]) {
    self.init()
    // Ascending keys keep every posting list in ascending document order by appending.
    for (key, document) in keyedDocuments.sorted(by: { $0.key < $1.key }) {
      insert(document, key: key)
    }
    nextKey = max(nextKey, (keyedDocuments.map(\.key).max() ?? 0) + 1)
  }

  /// The number of documents.
  public var count: Int { storedDocuments.count }

  /// Adds `document`, replacing any document with the same id.
  ///
  /// - Complexity: O(*t* log *t*) for the document's *t* terms, plus, on replacement, the
  ///   length of each posting list the old version appeared in.
  public mutating func add(_ document: IndexedDocument) {
    remove(id: document.id)
    let key = nextKey
    nextKey += 1
    insert(document, key: key)
  }

  /// Indexes `document` under `key`, which must be above every key indexed so far.
  private mutating func insert(_ document: IndexedDocument, key: Int64) {
    let indexed = LexicalIndexer.postings(for: document, tokenizer: tokenizer)
    for occurrence in indexed.terms {
      postingsByTerm[occurrence.term, default: []].append(
        occurrence.posting(document: key, kind: document.kind, fieldLengths: indexed.fieldLengths))
      if termsWithTrigrams.insert(occurrence.term).inserted {
        for trigram in Trigrams.trigrams(of: occurrence.term) {
          termsByTrigram[trigram, default: []].append(occurrence.term)
        }
      }
    }
    for field in IndexField.allCases {
      totalFieldLengths[field] += Int64(indexed.fieldLengths[field])
    }
    storedDocuments[key] = document
    keysByID[document.id] = key
    termsByDocument[key] = indexed.terms.map(\.term)
    fieldLengthsByDocument[key] = indexed.fieldLengths
  }

  /// Removes the document with `id`.
  ///
  /// - Returns: whether such a document was indexed.
  /// - Complexity: O(*d*) summed over the posting lists the document appears in.
  @discardableResult
  public mutating func remove(id: UUID) -> Bool {
    guard let key = keysByID.removeValue(forKey: id) else { return false }
    for term in termsByDocument.removeValue(forKey: key) ?? [] {
      guard var list = postingsByTerm[term] else { continue }
      if let index = Self.index(of: key, in: list) { list.remove(at: index) }
      postingsByTerm[term] = list.isEmpty ? nil : list
    }
    if let lengths = fieldLengthsByDocument.removeValue(forKey: key) {
      for field in IndexField.allCases {
        totalFieldLengths[field] -= Int64(lengths[field])
      }
    }
    storedDocuments[key] = nil
    return true
  }

  // MARK: LexicalIndexReader

  /// - Complexity: O(1).
  public func statistics() -> IndexStatistics {
    IndexStatistics(documentCount: storedDocuments.count, totalFieldLengths: totalFieldLengths)
  }

  /// - Complexity: O(1) (the stored array is shared, not copied).
  public func postings(for term: String) -> [Posting] {
    postingsByTerm[term] ?? []
  }

  /// - Complexity: O(1).
  public func documentFrequency(of term: String) -> Int {
    postingsByTerm[term]?.count ?? 0
  }

  /// - Complexity: O(*m* log *m*) in the vocabulary entries of the given trigrams.
  public func vocabularyTerms(sharingTrigrams trigrams: [String], minimumShared: Int, limit: Int)
    -> [String]
  {
    var shared: [String: Int] = [:]
    for trigram in Set(trigrams) {
      for term in termsByTrigram[trigram] ?? [] { shared[term, default: 0] += 1 }
    }
    let floor = max(1, minimumShared)
    var qualifying: [(term: String, shared: Int)] = []
    for (term, count) in shared where count >= floor && postingsByTerm[term] != nil {
      qualifying.append((term, count))
    }
    qualifying.sort { $0.shared != $1.shared ? $0.shared > $1.shared : $0.term < $1.term }
    return qualifying.prefix(max(0, limit)).map(\.term)
  }

  /// - Complexity: O(*m* log *m*) in the vocabulary terms starting with the prefix's first
  ///   character(s).
  public func vocabularyTerms(withPrefix prefix: String, limit: Int) -> [String] {
    let characters = Array(prefix)
    guard let first = characters.first else { return [] }
    // With padding "  ab…", the trigram " ab" (or "  a") occurs only at the start of a term.
    let key = characters.count >= 2 ? " " + String(characters[0...1]) : "  " + String(first)
    var matching: [(term: String, frequency: Int)] = []
    for term in termsByTrigram[key] ?? [] where term != prefix && term.hasPrefix(prefix) {
      if let postings = postingsByTerm[term] { matching.append((term, postings.count)) }
    }
    matching.sort {
      $0.frequency != $1.frequency ? $0.frequency > $1.frequency : $0.term < $1.term
    }
    return matching.prefix(max(0, limit)).map(\.term)
  }

  /// - Complexity: O(*k*) in the number of keys.
  public func documents(_ keys: [Int64]) -> [Int64: IndexedDocument] {
    var result: [Int64: IndexedDocument] = [:]
    for key in keys {
      if let document = storedDocuments[key] { result[key] = document }
    }
    return result
  }

  /// The key of the document with `id`, if indexed.
  public func key(of id: UUID) -> Int64? { keysByID[id] }

  private static func index(of key: Int64, in list: [Posting]) -> Int? {
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) / 2
      if list[middle].document < key { low = middle + 1 } else { high = middle }
    }
    return low < list.count && list[low].document == key ? low : nil
  }
}
