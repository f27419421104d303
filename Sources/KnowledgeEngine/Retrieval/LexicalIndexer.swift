/// Turns a document into the postings an inverted index stores for it.
///
/// The persisted store calls this inside the transaction that saves the item, then writes one
/// posting row per term and adds the field lengths to its statistics.
///
/// Fields are tokenized separately, each from position 0, with the tokenizer's breaks (a free
/// position after a sentence or clause, ``Tokenizer`` rule 6). Tags are tokenized one by one
/// with a gap of one position between tags, so a phrase never spans two tags. Besides the
/// tokenizer's terms, a field holds the parts of camelCase identifiers (``CamelCaseWords``,
/// tokenizer version 8) and each number written with a decimal point or digit-group separator
/// whole (``WholeNumbers``, version 9), at the position of the identifier or of the number's
/// first part, as extra postings that add nothing to the field's length.
public enum LexicalIndexer {
  /// The postings of `document`, tokenized with ``Tokenizer/standard``.
  ///
  /// - Parameter document: the document; any sizes (the store validates bounds before).
  /// - Returns: the field lengths and one entry per distinct term, sorted by term.
  /// - Complexity: O(*n* log *n*) in the document's number of terms.
  public static func postings(for document: IndexedDocument) -> DocumentPostings {
    postings(for: document, tokenizer: .standard)
  }

  package static func postings(for document: IndexedDocument, tokenizer: Tokenizer)
    -> DocumentPostings
  {
    var occurrences: [String: FieldValues<[Int]>] = [:]
    var lengths = FieldCounts.zero

    // Adds the terms of `text` from position `start`; returns the position after the last.
    func add(_ text: String, field: IndexField, from start: Int) -> Int {
      var end = start
      var terms = 0
      let utf8 = text.utf8
      var numbers = WholeNumbers()
      // A number whole is held at its first part's position, as an extra posting.
      func hold(_ number: (term: String, position: Int)?) {
        guard let number else { return }
        occurrences[number.term, default: FieldValues(title: [], tags: [], content: [])][field]
          .append(start + number.position)
      }
      LexicalIndexer.withUTF8(of: text) { bytes in
        tokenizer.forEachTerm(in: text) { analyzed in
          let position = start + analyzed.position
          occurrences[analyzed.term, default: FieldValues(title: [], tags: [], content: [])][field]
            .append(position)
          hold(numbers.add(analyzed, in: bytes))
          // The parts of a camelCase identifier are held at its position too, as extra postings
          // that add nothing to the field's length, so BM25 of whole words is as before.
          if tokenizer.indexesCamelCaseParts, !analyzed.isCut, analyzed.term.utf8.count >= 4,
            let parts = CamelCaseWords.partTerms(
              of: utf8[utf8.index(utf8.startIndex, offsetBy: analyzed.utf8Range.lowerBound)..<utf8.index(
                utf8.startIndex, offsetBy: analyzed.utf8Range.upperBound)], tokenizer: tokenizer)
          {
            for part in parts where part != analyzed.term {
              var list = occurrences[part, default: FieldValues(title: [], tags: [], content: [])]
              if list[field].last != position { list[field].append(position) }
              occurrences[part] = list
            }
          }
          end = position + 1
          terms += 1
          return true
        }
        hold(numbers.finish())
      }
      lengths[field] += Int32(clamping: terms)
      return end
    }

    _ = add(document.title, field: .title, from: 0)
    var tagPosition = 0
    for tag in document.tags {
      let end = add(tag, field: .tags, from: tagPosition)
      tagPosition = end + 1
    }
    _ = add(document.content, field: .content, from: 0)

    let terms = occurrences.keys.sorted().map { term in
      let positions = occurrences[term] ?? FieldValues(title: [], tags: [], content: [])
      return TermOccurrences(
        term: term,
        termFrequencies: FieldCounts(
          title: Int32(clamping: positions.title.count),
          tags: Int32(clamping: positions.tags.count),
          content: Int32(clamping: positions.content.count)),
        positions: PositionList(positions))
    }
    return DocumentPostings(fieldLengths: lengths, terms: terms)
  }
}

extension LexicalIndexer {
  /// Calls `body` with the UTF-8 of `text`, without copying it when the string stores it
  /// contiguously (native Swift strings do).
  static func withUTF8<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(body)
  }

  /// What an index keeps of `document` to describe it — its field lengths and its distinct
  /// terms —, tokenized with ``Tokenizer/standard``: equal to ``postings(for:)``'s
  /// `fieldLengths` and the terms of its `terms`, without the positions and frequencies, which
  /// are most of the work after tokenizing. For comparing records with their index entries
  /// (``KnowledgeEngine/searchIndexFreshness(listing:)``).
  /// - Parameter document: the document; any sizes.
  /// - Returns: the field lengths and the distinct terms, sorted.
  /// - Complexity: O(*n* log *n*) in the document's number of terms.
  package static func termSummary(for document: IndexedDocument) -> DocumentTermSummary {
    let tokenizer = Tokenizer.standard
    var terms = Set<String>()
    var lengths = FieldCounts.zero
    func add(_ text: String, field: IndexField) {
      var count = 0
      let utf8 = text.utf8
      var numbers = WholeNumbers()
      LexicalIndexer.withUTF8(of: text) { bytes in
        tokenizer.forEachTerm(in: text) { analyzed in
          terms.insert(analyzed.term)
          // Numbers whole, as ``postings(for:tokenizer:)`` holds them.
          if let number = numbers.add(analyzed, in: bytes) { terms.insert(number.term) }
          // The parts of a camelCase identifier, as ``postings(for:tokenizer:)`` holds them.
          if tokenizer.indexesCamelCaseParts, !analyzed.isCut, analyzed.term.utf8.count >= 4,
            let parts = CamelCaseWords.partTerms(
              of: utf8[utf8.index(utf8.startIndex, offsetBy: analyzed.utf8Range.lowerBound)..<utf8.index(
                utf8.startIndex, offsetBy: analyzed.utf8Range.upperBound)], tokenizer: tokenizer)
          {
            terms.formUnion(parts)
          }
          count += 1
          return true
        }
        if let number = numbers.finish() { terms.insert(number.term) }
      }
      lengths[field] += Int32(clamping: count)
    }
    add(document.title, field: .title)
    for tag in document.tags { add(tag, field: .tags) }
    add(document.content, field: .content)
    return DocumentTermSummary(fieldLengths: lengths, terms: terms.sorted())
  }
}

/// A document's field lengths and distinct terms (``LexicalIndexer/termSummary(for:)``).
package struct DocumentTermSummary: Sendable, Equatable {
  /// The document's length per field, in terms, as ``DocumentPostings/fieldLengths``.
  package var fieldLengths: FieldCounts
  /// Each distinct term once, sorted ascending, as the terms of ``DocumentPostings/terms``.
  package var terms: [String]
}

/// Everything an index stores for one document.
public struct DocumentPostings: Sendable, Equatable {
  /// The document's length per field, in terms (the free positions of breaks and tag gaps not
  /// counted).
  public var fieldLengths: FieldCounts
  /// One entry per distinct term, sorted by term ascending.
  public var terms: [TermOccurrences]

  /// Makes document postings.
  public init(fieldLengths: FieldCounts, terms: [TermOccurrences]) {
    self.fieldLengths = fieldLengths
    self.terms = terms
  }
}

/// One term's occurrences in one document.
public struct TermOccurrences: Sendable, Equatable {
  /// The normalized term.
  public var term: String
  /// Occurrences per field (≥ 1 in at least one field).
  public var termFrequencies: FieldCounts
  /// The positions, encoded.
  public var positions: PositionList

  /// Makes term occurrences.
  public init(term: String, termFrequencies: FieldCounts, positions: PositionList) {
    self.term = term
    self.termFrequencies = termFrequencies
    self.positions = positions
  }

  /// The posting of this term for the document stored under `key`.
  public func posting(document key: Int64, kind: DocumentKind, fieldLengths: FieldCounts)
    -> Posting
  {
    Posting(
      document: key, kind: kind, termFrequencies: termFrequencies, fieldLengths: fieldLengths,
      positions: positions)
  }
}
