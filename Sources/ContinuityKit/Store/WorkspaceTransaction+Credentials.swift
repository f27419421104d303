import Foundation

/// A stored record whose text looks like it holds a credential.
public struct CredentialFlag: Sendable, Equatable, Codable {
  /// `knowledge`, `memory`, `task`, `handoff`, `message`, `receipt` or `digest`.
  public var recordType: String
  public var id: UUID
  /// The field, e.g. `content`, `tags[1]`, `nextSteps[0]`, a receipt's `arguments` or
  /// `message`, a digest's `sections`.
  public var field: String
  /// The first finding in that field.
  public var finding: CredentialFinding

  public init(recordType: String, id: UUID, field: String, finding: CredentialFinding) {
    self.recordType = recordType
    self.id = id
    self.field = field
    self.finding = finding
  }
}

/// Stored records that look like they hold credentials, for `dolphin status` and `doctor`.
///
/// New text is refused at capture; such records come from legacy migration and export imports
/// (which never drop data), or were stored deliberately with `--allow-credentials`.
public struct CredentialFlagReport: Sendable, Equatable, Codable {
  /// How many records were flagged (each counted once, however many findings it has).
  public var count: Int
  /// The first flagged records, at most the `limit` asked for: table by table (knowledge,
  /// memories, tasks, handoffs, messages, receipts, digests), newest written first.
  public var flags: [CredentialFlag]
  /// False when the scan stopped at its byte bound before reading every record.
  public var complete: Bool
  /// How many records of each type were flagged (`message: 2`), for all of ``count``, not only
  /// the ``flags`` listed: which records hold one says where they came from and which command
  /// removes them (review 28-c, 1: a chat message was said to come from a migration and to be
  /// removed by `knowledge delete`).
  public var countByType: [String: Int]

  public init(count: Int = 0, flags: [CredentialFlag] = [], complete: Bool = true, countByType: [String: Int] = [:]) {
    self.count = count
    self.flags = flags
    self.complete = complete
    self.countByType = countByType
  }

  /// Counts a flagged record of `type`, listing `flag` while fewer than `limit` are listed.
  public mutating func add(_ flag: CredentialFlag, limit: Int) {
    count += 1
    countByType[flag.recordType, default: 0] += 1
    if flags.count < limit { flags.append(flag) }
  }

  enum CodingKeys: String, CodingKey { case count, flags, complete, countByType }

  /// Decodes a report; one written before ``countByType`` existed counts its listed flags.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    count = try c.decode(Int.self, forKey: .count)
    flags = try c.decode([CredentialFlag].self, forKey: .flags)
    complete = try c.decode(Bool.self, forKey: .complete)
    countByType =
      try c.decodeIfPresent([String: Int].self, forKey: .countByType)
      ?? flags.reduce(into: [:]) { $0[$1.recordType, default: 0] += 1 }
  }
}

extension WorkspaceTransaction {
  /// Scans stored text with ``CredentialDetector``: knowledge (title, content, tags), memories
  /// (text, tags), tasks (title, notes), handoffs (focus, summary, next steps, excerpts), chat
  /// messages, activity receipts (arguments and message) and stored digests (their sections,
  /// which quote the records they cite as they read when the digest was built). JSON text — a
  /// receipt's arguments, a digest's sections — is read decoded, its string values and keys as
  /// ``CredentialDetector/firstFinding(inJSONText:)`` reads them (review 24-a, 2: read as
  /// escaped text, `api_key = \"sk…\"` held no value and was missed).
  ///
  /// Bounded: each table is read newest-written first (by row id, so migrated and imported
  /// records, whatever their dates, come first) until `bytesPerTable` UTF-8 bytes of text have
  /// been scanned; the report is marked incomplete when a table held more. `dolphin status`
  /// uses a small budget, `dolphin doctor` a large one. A record whose id is not a UUID is not
  /// scanned (it cannot be named by id); ``malformedIDs(limit:)`` reports it.
  /// - Parameters:
  ///   - limit: the most flags to return (the count covers every flagged record scanned).
  ///   - bytesPerTable: the most text scanned per table, in UTF-8 bytes.
  /// - Complexity: O(scanned bytes).
  public func credentialFlags(limit: Int = 20, bytesPerTable: Int = 1 << 20) throws(WorkspaceError)
    -> CredentialFlagReport
  {
    requireValid()
    var report = CredentialFlagReport()
    /// Fields of JSON text, read decoded.
    let jsonFields: Set<String> = ["arguments", "sections"]
    func consider(_ type: String, _ id: UUID, _ fields: [(String, String)]) {
      for (field, text) in fields {
        let finding =
          jsonFields.contains(field)
          ? CredentialDetector.firstFinding(inJSONText: text) : CredentialDetector.firstFinding(in: text)
        guard let f = finding else { continue }
        report.add(CredentialFlag(recordType: type, id: id, field: field, finding: f), limit: limit)
        return
      }
    }
    func list(_ field: String, _ json: String) -> [(String, String)] {
      let values = (try? StableJSON.decoder().decode([String].self, from: Data(json.utf8))) ?? [json]
      return values.enumerated().map { ("\(field)[\($0.offset)]", $0.element) }
    }
    let tables: [(type: String, table: String, columns: [String])] = [
      ("knowledge", "knowledge", ["title", "content", "tags"]),
      ("memory", "memory", ["text", "tags"]),
      ("task", "task", ["title", "notes"]),
      ("handoff", "handoff", ["focus", "summary", "next_steps", "recent_excerpts"]),
      ("message", "message", ["text"]),
      // Receipts record a tool call's arguments; since s16 a secret in them is withheld, but a
      // receipt written before may hold one (a refused capture's password, a search's query),
      // quoted in its message too (a refused value); an imported one may hold anything.
      ("receipt", "receipt", ["arguments", "message"]),
      // A digest quotes what it cites as it was: a credential edited or deleted out of a record
      // may live on in one (review, s17: status then said "none found").
      ("digest", "digest", ["sections"]),
    ]
    let pageSize = 256
    for t in tables {
      var scanned = 0
      var before = Int64.max
      page: while true {
        let sql =
          "SELECT rowid, id, \(t.columns.joined(separator: ", ")) FROM \(t.table) WHERE rowid < ? ORDER BY rowid DESC LIMIT ?"
        // A record whose id is not a UUID is skipped rather than stopping the scan (and with it
        // `doctor`'s later checks): ``malformedIDs(limit:)`` names it.
        let rows = try db.all(sql, [.integer(before), .integer(Int64(pageSize))]) { row in
          (row.int64(0), UUID(uuidString: row.text(1)), (0..<t.columns.count).map { row.text(Int32($0 + 2)) })
        }
        for (rowid, storedID, values) in rows {
          if scanned >= bytesPerTable {
            report.complete = false
            break page
          }
          guard let id = storedID else {
            before = rowid
            continue
          }
          var fields: [(String, String)] = []
          for (column, value) in zip(t.columns, values) {
            scanned += value.utf8.count
            switch column {
            case "tags": fields += list("tags", value)
            case "next_steps": fields += list("nextSteps", value)
            case "recent_excerpts": fields += list("recentExcerpts", value)
            default: fields.append((column, value))
            }
          }
          consider(t.type, id, fields)
          before = rowid
        }
        if rows.count < pageSize { break }
      }
    }
    return report
  }
}
