import Foundation

/// Stored text that is not UTF-8, for `dolphin doctor` (review 29-a): bytes another program wrote
/// (`sqlite3 … "UPDATE knowledge SET title = CAST(x'ff41' AS TEXT)"`, or text saved in Latin-1).
///
/// No dolphin command stores such bytes. Every command reads them as U+FFFD (the replacement
/// character, one for each ill-formed sequence, as Swift's `String(decoding:as:)` does), so
/// search, get and export show `�` where they stand, and an export's text is not what is stored.
/// Each entry carries an `UPDATE` that writes the text as dolphin reads it.
public struct InvalidUTF8Report: Sendable, Equatable, Codable {
  /// One stored value that is not UTF-8.
  public struct Entry: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The table (`knowledge`, `memory`, `task`, `handoff`, `digest`, `conversation`,
    /// `message`, `receipt`, `checkpoint`, `quarantine`); `settings` for the settings.
    public var table: String
    /// The record's id as stored; a quarantined record's row id; empty for the settings.
    public var id: String
    /// The field as an export names it: `title`, `content`, `tags`, `nextSteps`, …
    public var field: String
    /// The 0-based byte offset of the first byte that is not part of well-formed UTF-8.
    public var byteOffset: Int
    /// How many ill-formed byte sequences the value holds (each reads as one U+FFFD).
    public var invalidSequences: Int
    /// One SQL statement that stores the text as dolphin reads it: each ill-formed sequence
    /// replaced by U+FFFD (bytes `EF BF BD`), everything else kept byte for byte; it changes
    /// the value only while it has the length it has now. nil for a value with more than
    /// ``WorkspaceTransaction/invalidUTF8FixSequences`` such sequences (text saved in another
    /// encoding): rewrite it instead.
    public var fixStatement: String?

    /// An entry; see each property.
    public init(table: String, id: String, field: String, byteOffset: Int, invalidSequences: Int, fixStatement: String?) {
      self.table = table
      self.id = id
      self.field = field
      self.byteOffset = byteOffset
      self.invalidSequences = invalidSequences
      self.fixStatement = fixStatement
    }

    /// `knowledge 5D…: title is not UTF-8: 1 byte sequence that is not (the first at byte 0) reads as U+FFFD (�)`.
    public var description: String {
      let record =
        table == "settings" ? "settings" : "\(table) \(table == "quarantine" ? "row \(id)" : WorkspaceTransaction.shownID(id))"
      return "\(record): \(field) is not UTF-8: \(invalidSequences) ill-formed byte sequence(s) (the first at byte "
        + "\(byteOffset)), each read as U+FFFD (�)"
    }
  }

  /// How many stored values are not UTF-8, in all.
  public var count: Int
  /// The first of them, at most the `limit` asked for: table by table (as ``Entry/table`` lists
  /// them), each by id, its fields in order; then the settings.
  public var records: [Entry]
  /// True when the limit cut ``records``.
  public var truncated: Bool

  /// A report; the defaults make the empty one.
  public init(count: Int = 0, records: [Entry] = []) {
    self.count = count
    self.records = records
    self.truncated = count > records.count
  }
}

extension WorkspaceTransaction {
  /// How many ill-formed sequences a value may hold for ``InvalidUTF8Report/Entry/fixStatement``
  /// to be given (each adds a term to the statement).
  public static let invalidUTF8FixSequences = 32

  /// The stored text values that are not UTF-8 (``InvalidUTF8Report``), in the text columns an
  /// export carries (those ``refusedText(limit:)`` checks: titles, content, tags, next steps,
  /// digests' sections, messages, receipts, …) and the settings.
  ///
  /// Each value is read as the bytes stored (never converted) and validated (RFC 3629 §4).
  /// - Parameter limit: at most this many entries are listed (the count covers all of them).
  /// - Returns: an empty report when every stored text is UTF-8.
  /// - Throws: storage errors.
  /// - Complexity: one pass over every text column an export carries, O(bytes stored).
  public func invalidUTF8Text(limit: Int = 20) throws(WorkspaceError) -> InvalidUTF8Report {
    requireValid()
    var count = 0
    var records: [InvalidUTF8Report.Entry] = []
    for table in Self.textColumns {
      let sql =
        "SELECT \(table.idColumn), " + table.columns.map(\.column).joined(separator: ", ")
        + " FROM \(table.table) ORDER BY +\(table.idColumn)"
      try db.query(sql) { (row) throws(WorkspaceError) in
        for (i, c) in table.columns.enumerated() {
          let found = row.withBlob(Int32(i + 1)) { bytes -> (ranges: [Range<Int>], total: Int)? in
            guard UTF8Validation.firstInvalidByteOffset(in: bytes) != nil else { return nil }
            return (Self.illFormedRanges(bytes), bytes.count)
          }
          guard let found, let first = found.ranges.first else { continue }
          count += 1
          guard records.count < limit else { continue }
          let id = row.text(0)
          let condition = "\(table.idColumn) = " + (table.idColumn == "rowid" ? id : Self.sqlLiteral(id))
          records.append(
            .init(
              table: table.table, id: id, field: c.field, byteOffset: first.lowerBound,
              invalidSequences: found.ranges.count,
              fixStatement: Self.utf8FixStatement(
                table: table.table, column: c.column, condition: condition, ranges: found.ranges, total: found.total)))
        }
      }
    }
    let settings = try db.first("SELECT value FROM meta WHERE key = 'settings'") {
      (row) -> (ranges: [Range<Int>], total: Int)? in
      row.withBlob(0) { bytes in
        UTF8Validation.firstInvalidByteOffset(in: bytes) == nil ? nil : (Self.illFormedRanges(bytes), bytes.count)
      }
    }
    if let found = settings ?? nil, let first = found.ranges.first {
      count += 1
      if records.count < limit {
        records.append(
          .init(
            table: "settings", id: "", field: "settings", byteOffset: first.lowerBound,
            invalidSequences: found.ranges.count,
            fixStatement: Self.utf8FixStatement(
              table: "meta", column: "value", condition: "key = 'settings'", ranges: found.ranges, total: found.total)))
      }
    }
    return InvalidUTF8Report(count: count, records: records)
  }

  /// The byte ranges of `bytes` that are ill-formed UTF-8, one per sequence that reads as one
  /// U+FFFD — the maximal subparts Swift's `String(decoding:as:)` replaces (Unicode §3.9, U+FFFD
  /// substitution of maximal subparts).
  static func illFormedRanges(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    var ranges: [Range<Int>] = []
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .error(let length):
        ranges.append(offset..<(offset + length))
        offset += length
      case .emptyInput: return ranges
      }
    }
  }

  /// `UPDATE table SET column = <the stored bytes, each range in `ranges` replaced by EF BF BD>
  /// WHERE condition AND the value still has `total` bytes`, built from `substr` of the stored
  /// blob (byte offsets), so the statement stays short whatever the text; nil for more than
  /// ``invalidUTF8FixSequences`` ranges.
  static func utf8FixStatement(table: String, column: String, condition: String, ranges: [Range<Int>], total: Int)
    -> String?
  {
    guard ranges.count <= invalidUTF8FixSequences else { return nil }
    let blob = "CAST(\(column) AS BLOB)"
    var parts: [String] = []
    var position = 0
    for r in ranges {
      if r.lowerBound > position { parts.append("substr(\(blob), \(position + 1), \(r.lowerBound - position))") }
      parts.append("x'EFBFBD'")
      position = r.upperBound
    }
    if position < total { parts.append("substr(\(blob), \(position + 1))") }
    return "UPDATE \(table) SET \(column) = CAST(" + parts.joined(separator: " || ") + " AS TEXT) WHERE \(condition) "
      + "AND length(\(blob)) = \(total)"
  }
}
