/// One document's occurrences of one term: what the ranker reads per (term, document).
///
/// A posting carries everything scoring needs — the document's kind (for the kind filter and
/// the tie-break) and its field lengths (for BM25 length normalization) — so that a query
/// reads only the posting lists of its terms. A persisted index may store these columns with
/// each posting or join them from its document table; either way a posting list is one read.
public struct Posting: Sendable, Equatable {
  /// The index's key of the document (a SQLite row id; ascending within a posting list).
  public var document: Int64
  /// The document's kind.
  public var kind: DocumentKind
  /// Occurrences of the term per field.
  public var termFrequencies: FieldCounts
  /// The document's length per field, in terms.
  public var fieldLengths: FieldCounts
  /// Where the term occurs, for phrase matching and snippets.
  public var positions: PositionList

  /// Makes a posting.
  public init(
    document: Int64, kind: DocumentKind, termFrequencies: FieldCounts,
    fieldLengths: FieldCounts, positions: PositionList
  ) {
    self.document = document
    self.kind = kind
    self.termFrequencies = termFrequencies
    self.fieldLengths = fieldLengths
    self.positions = positions
  }

  /// The term's positions in `field`, ascending.
  ///
  /// - Complexity: O(*n*) in the term's occurrences in the document.
  public func positions(in field: IndexField) -> [Int] {
    positions.positions(in: field, counts: termFrequencies)
  }
}
