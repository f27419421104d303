import Foundation

/// Collects quarantined records and integrity problems while the records of one file are
/// decoded element by element, so that one bad record never fails the file.
struct LegacyDecodingContext {
  private(set) var quarantined: [QuarantinedRecord] = []
  private(set) var integrityProblems: [String] = []

  /// Ids already accepted in one collection, and how many records it holds.
  struct Tally {
    /// What is counted, for messages: `memories`, or `messages` across all conversations.
    let label: String
    /// The bound on accepted records (a ``Limits`` value).
    let limit: Int
    /// Name of the bound, for messages, e.g. `Limits.memories`.
    let limitName: String
    var locations: [UUID: String] = [:]
    var accepted = 0
  }

  /// Decodes every element of a top-level collection; bad ones are quarantined.
  ///
  /// An element is refused when `decode` throws, when its id repeats an earlier accepted
  /// record's id (the first one wins), or when the collection already holds `limit` records
  /// (the first `limit` valid records in file order are imported).
  mutating func decodeRecords<Record>(
    _ collection: String, _ elements: [LegacyJSONValue], limit: Int, limitName: String,
    id: (Record) -> UUID, decode: (LegacyJSONValue) throws(LegacyRecordProblem) -> Record
  ) -> [Record] {
    var tally = Tally(label: collection, limit: limit, limitName: limitName)
    var records: [Record] = []
    for (index, element) in elements.enumerated() {
      if let record = admit(
        element, collection: collection, index: index, tally: &tally, id: id, decode: decode)
      {
        records.append(record)
      }
    }
    return records
  }

  /// Decodes and checks one element; returns nil after quarantining it.
  mutating func admit<Record>(
    _ element: LegacyJSONValue, collection: String, index: Int, tally: inout Tally,
    id: (Record) -> UUID, decode: (LegacyJSONValue) throws(LegacyRecordProblem) -> Record,
    quarantineNote: (LegacyJSONValue) -> String = { _ in "" }
  ) -> Record? {
    let location = "\(collection)[\(index)]"
    let record: Record
    do {
      record = try decode(element)
    } catch {
      quarantine(
        element, collection: collection, index: index, reason: error.reason,
        note: quarantineNote(element))
      return nil
    }
    let recordID = id(record)
    if let first = tally.locations[recordID] {
      quarantine(
        element, collection: collection, index: index,
        reason: "duplicate id \(recordID.uuidString); \(first) has the same id and was imported",
        note: quarantineNote(element))
      return nil
    }
    guard tally.accepted < tally.limit else {
      quarantine(
        element, collection: collection, index: index,
        reason: "\(tally.label) already holds \(tally.limit) records, the most schema v5 keeps "
          + "(\(tally.limitName)); kept here so nothing is lost",
        note: quarantineNote(element))
      return nil
    }
    tally.locations[recordID] = location
    tally.accepted += 1
    return record
  }

  /// Decodes a single-object record such as `settings`; nil after quarantining it.
  mutating func decodeSingle<Record>(
    _ collection: String, _ value: LegacyJSONValue,
    decode: (LegacyJSONValue) throws(LegacyRecordProblem) -> Record, fallback: String
  ) -> Record? {
    do {
      return try decode(value)
    } catch {
      quarantine(value, collection: collection, index: nil, reason: error.reason, note: fallback)
      return nil
    }
  }

  /// Keeps `element` verbatim with `reason`, and reports it as an integrity problem.
  mutating func quarantine(
    _ element: LegacyJSONValue, collection: String, index: Int?, reason: String, note: String = ""
  ) {
    quarantined.append(
      QuarantinedRecord(
        collection: collection, index: index, reason: reason, rawJSON: element.canonicalText))
    var location = index.map { "\(collection)[\($0)]" } ?? collection
    if case .object(let members) = element,
      let id = members.first(where: { $0.name == "id" })?.value
    {
      location += " (id \(id.excerpt()))"
    }
    integrityProblems.append("\(location): \(reason); the record was quarantined\(note)")
  }

  /// Reports a problem that no single quarantined record explains.
  mutating func report(_ problem: String) {
    integrityProblems.append(problem)
  }
}
