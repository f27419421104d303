/// One term's postings as parallel arrays: what the ranker scores.
///
/// Where ``Posting`` is one value per (term, document) with its own position bytes, a posting
/// list keeps each column in one array and every document's positions in one shared byte
/// buffer, so reading *n* postings costs a handful of allocations instead of *n*, and scoring
/// walks plain arrays (no reference counting per posting).
package struct PostingList: Sendable, Equatable {
  /// Document keys, ascending.
  package private(set) var documents: [Int64] = []
  /// Each document's ``DocumentKind/orderIndex``.
  package private(set) var kinds: [UInt8] = []
  /// Occurrences of the term per field.
  package private(set) var termFrequencies: [FieldCounts] = []
  /// The document's length per field, in terms.
  package private(set) var fieldLengths: [FieldCounts] = []
  /// Posting *i*'s positions are `positionBytes[positionStarts[i]..<positionStarts[i + 1]]`
  /// (``PositionList`` encoding).
  private var positionStarts: [Int32] = [0]
  private var positionBytes: [UInt8] = []

  /// An empty list.
  package init() {}

  /// The list of `postings` (in their order).
  package init(_ postings: [Posting]) {
    reserveCapacity(postings.count)
    for posting in postings {
      posting.positions.bytes.withUnsafeBufferPointer { bytes in
        append(
          document: posting.document, kind: UInt8(posting.kind.orderIndex),
          termFrequencies: posting.termFrequencies, fieldLengths: posting.fieldLengths,
          positions: UnsafeRawBufferPointer(bytes))
      }
    }
  }

  /// The number of postings.
  package var count: Int { documents.count }

  /// Whether the list has no posting.
  package var isEmpty: Bool { documents.isEmpty }

  /// Reserves room for `count` postings.
  package mutating func reserveCapacity(_ count: Int) {
    documents.reserveCapacity(count)
    kinds.reserveCapacity(count)
    termFrequencies.reserveCapacity(count)
    fieldLengths.reserveCapacity(count)
    positionStarts.reserveCapacity(count + 1)
    positionBytes.reserveCapacity(count * 3)
  }

  /// Appends one posting; `document` must be greater than the last one.
  ///
  /// - Parameter positions: the posting's encoded positions (copied).
  package mutating func append(
    document: Int64, kind: UInt8, termFrequencies: FieldCounts, fieldLengths: FieldCounts,
    positions: UnsafeRawBufferPointer
  ) {
    documents.append(document)
    kinds.append(kind)
    self.termFrequencies.append(termFrequencies)
    self.fieldLengths.append(fieldLengths)
    positionBytes.append(contentsOf: positions)
    positionStarts.append(Int32(clamping: positionBytes.count))
  }

  /// The positions of posting `index` in `field`, ascending.
  ///
  /// - Complexity: O(*n*) in the posting's occurrences.
  package func positions(at index: Int, in field: IndexField) -> [Int] {
    let start = Int(positionStarts[index])
    let end = Int(positionStarts[index + 1])
    return positionBytes.withUnsafeBufferPointer { bytes in
      PositionList.positions(
        in: field, counts: termFrequencies[index],
        bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }
  }

  /// Posting `index` as a ``Posting``.
  package func posting(at index: Int) -> Posting {
    Posting(
      document: documents[index], kind: DocumentKind(orderIndex: Int(kinds[index])) ?? .memory,
      termFrequencies: termFrequencies[index], fieldLengths: fieldLengths[index],
      positions: PositionList(
        bytes: Array(positionBytes[Int(positionStarts[index])..<Int(positionStarts[index + 1])])))
  }

  /// Roughly how many bytes the list holds, for bounding a cache.
  package var byteCount: Int { count * 37 + positionBytes.count }
}

/// A ``LexicalIndexReader`` that reads a term's postings straight into a ``PostingList``.
package protocol PostingListReader: LexicalIndexReader {
  /// Every posting of `term` in ascending document order; empty when the term is not in the
  /// vocabulary.
  func postingList(for term: String) throws -> PostingList
}

extension LexicalIndexReader {
  /// `term`'s postings as a ``PostingList``, read directly when the reader can.
  package func anyPostingList(for term: String) throws -> PostingList {
    if let reader = self as? any PostingListReader { return try reader.postingList(for: term) }
    return PostingList(try postings(for: term))
  }
}
