import Foundation

/// Stored records holding text over a bound of this build (``Limits/check(_:_:limit:)``: a
/// field's `Character` limit, or its Unicode scalar bound), for `dolphin doctor`.
///
/// Every writer refuses such text, so it was stored before the bound existed (the Unicode
/// scalar bound, ``Limits/unicodeScalarsPerCharacter``, came after the character limits) or by
/// another program. The report is advisory: such records are read, searched and exported as
/// stored, and nothing changes them; rewriting one, or importing an export that holds one, is
/// refused until its text is within the bound.
public struct TextOverBoundReport: Sendable, Equatable, Codable {
  /// One record's first field over a bound.
  public struct Entry: Sendable, Equatable, Codable {
    /// `knowledge`, `memory`, `task` or `handoff`.
    public var recordType: String
    /// The record's id as stored.
    public var id: String
    /// The field, as validation names it: `title`, `content`, `tags[1]`, `nextSteps[0]`, …
    public var field: String
    /// The bound broken, in ``unit``.
    public var limit: Int
    /// The text's size, in ``unit``.
    public var actual: Int
    /// `characters`, or `Unicode scalars` for text within its character limit but over its
    /// Unicode scalar bound.
    public var unit: String
    /// What a writer would say refusing it, e.g. `title is 1 character but 4001 Unicode scalars
    /// …; the limit is 300 characters and at most 3000 Unicode scalars in all (10 per character)`.
    public var message: String

    /// An entry; see each property.
    public init(recordType: String, id: String, field: String, limit: Int, actual: Int, unit: String, message: String) {
      self.recordType = recordType
      self.id = id
      self.field = field
      self.limit = limit
      self.actual = actual
      self.unit = unit
      self.message = message
    }
  }

  /// How many records hold text over a bound, each counted once however many fields it has over.
  public var count: Int
  /// ``count`` by record type (`knowledge`, `memory`, `task`, `handoff`); types with none are
  /// left out.
  public var countsByRecordType: [String: Int]
  /// The first records over a bound, at most the `limit` asked for: knowledge, then memories,
  /// tasks and handoffs, each by id.
  public var records: [Entry]
  /// True when the limit cut ``records``: ``count`` exceeds the records listed.
  public var truncated: Bool

  /// A report; the defaults make the empty one (all stored text is within its bounds).
  /// ``truncated`` is set when `records` lists fewer than `count`.
  public init(count: Int = 0, countsByRecordType: [String: Int] = [:], records: [Entry] = []) {
    self.count = count
    self.countsByRecordType = countsByRecordType
    self.records = records
    self.truncated = count > records.count
  }
}

extension WorkspaceTransaction {
  /// A bounded text column: its field name and bound in `Character`s, and whether it holds a
  /// JSON list of texts (each bounded alone, named `field[i]`).
  private struct BoundedColumn {
    var column: String
    var field: String
    var limit: Int
    var isList = false
  }

  /// The bounded text columns of each table, in the order validation checks them.
  private static let boundedColumns: [(recordType: String, table: String, columns: [BoundedColumn])] = [
    ("knowledge", "knowledge", [
      BoundedColumn(column: "title", field: "title", limit: Limits.title),
      BoundedColumn(column: "content", field: "content", limit: Limits.content),
      BoundedColumn(column: "tags", field: "tags", limit: Limits.tagLength, isList: true),
    ]),
    ("memory", "memory", [
      BoundedColumn(column: "text", field: "text", limit: Limits.memoryText),
      BoundedColumn(column: "tags", field: "tags", limit: Limits.tagLength, isList: true),
    ]),
    ("task", "task", [
      BoundedColumn(column: "title", field: "title", limit: Limits.taskTitle),
      BoundedColumn(column: "notes", field: "notes", limit: Limits.taskNotes),
    ]),
    ("handoff", "handoff", [
      BoundedColumn(column: "focus", field: "focus", limit: Limits.handoffFocus),
      BoundedColumn(column: "summary", field: "summary", limit: Limits.handoffSummary),
      BoundedColumn(column: "next_steps", field: "nextSteps", limit: Limits.handoffNextStepLength, isList: true),
      BoundedColumn(column: "recent_excerpts", field: "recentExcerpts", limit: Limits.handoffExcerptLength, isList: true),
    ]),
  ]

  /// The stored records holding text over a bound of this build: each bounded text field of
  /// knowledge items (title, content, tags), memories (text, tags), tasks (title, notes) and
  /// handoffs (focus, summary, next steps, excerpts), checked as every writer checks it
  /// (``Limits/check(_:_:limit:)``: its `Character` limit, then its Unicode scalar bound).
  ///
  /// Only rows with a column of more UTF-8 bytes than its field's limit in characters are read
  /// into Swift (text of no more bytes is within both bounds), so a workspace within its bounds
  /// costs one pass of SQLite over the tables. A JSON list that cannot be decoded is skipped:
  /// ``malformedJSON(limit:)`` names it.
  /// - Parameter limit: at most this many records are listed (the counts cover all of them).
  /// - Returns: an empty report when all stored text is within its bounds.
  /// - Throws: storage errors.
  /// - Complexity: one pass over the knowledge, memory, task and handoff tables, plus O(n) in
  ///   the length of each text longer in bytes than its limit in characters.
  public func textOverBounds(limit: Int = 10) throws(WorkspaceError) -> TextOverBoundReport {
    requireValid()
    var count = 0
    var counts: [String: Int] = [:]
    var records: [TextOverBoundReport.Entry] = []
    let decoder = StableJSON.decoder()
    for table in Self.boundedColumns {
      let columns = table.columns.map(\.column)
      let over = table.columns.map { "length(CAST(\($0.column) AS BLOB)) > \($0.limit)" }
      let sql =
        "SELECT id, \(columns.joined(separator: ", ")) FROM \(table.table) WHERE "
        + over.joined(separator: " OR ") + " ORDER BY +id"
      try db.query(sql) { (row) throws(WorkspaceError) in
        var texts: [(field: String, text: String, limit: Int)] = []
        for (i, column) in table.columns.enumerated() {
          let value = row.text(Int32(i + 1))
          guard value.utf8.count > column.limit else { continue }
          if column.isList {
            guard let items = try? decoder.decode([String].self, from: Data(value.utf8)) else { continue }
            texts += items.enumerated().map { ("\(column.field)[\($0.offset)]", $0.element, column.limit) }
          } else {
            texts.append((column.field, value, column.limit))
          }
        }
        for t in texts {
          do throws(ValidationError) { try Limits.check(t.field, t.text, limit: t.limit) } catch {
            count += 1
            counts[table.recordType, default: 0] += 1
            if records.count < limit {
              // The character limit is reported in characters, the scalar bound in scalars.
              let bound = error.limit ?? t.limit
              records.append(
                TextOverBoundReport.Entry(
                  recordType: table.recordType, id: row.text(0), field: t.field, limit: bound,
                  actual: error.actual ?? 0, unit: bound == t.limit ? "characters" : "Unicode scalars",
                  message: error.message))
            }
            break
          }
        }
      }
    }
    return TextOverBoundReport(count: count, countsByRecordType: counts, records: records)
  }
}
