import Foundation

/// Stored values that make a record's export unimportable elsewhere, for `dolphin doctor`: text
/// holding a NUL (U+0000), and tags holding a line break, a tab, another control character or a
/// comma.
///
/// No dolphin command stores any of these (capture, the MCP tools and imports refuse them), so
/// another program wrote them (`sqlite3 … "UPDATE knowledge SET content = 'a' || char(0) ||
/// 'b'"`), or, for a comma in a tag, an earlier build (whose MCP tools and imports took one). The
/// workspace reads, searches and exports such a record as stored, and imports its own export
/// back, but an import that writes the record — a restore into an empty workspace — refuses it
/// (``WorkspaceExport/refusedTextFields``). Each entry carries an `UPDATE` that removes those
/// characters and keeps the rest of the text.
public struct RefusedTextReport: Sendable, Equatable, Codable {
  /// One stored value an import refuses.
  public struct Entry: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The table: `knowledge`, `memory`, `task`, `handoff`, `digest`, `conversation`, `message`,
    /// `receipt`, `checkpoint` or `quarantine`; `settings` for the settings (the `meta` row
    /// `settings`).
    public var table: String
    /// The record's id as stored; for a quarantined record (which has none), its row id; empty
    /// for the settings.
    public var id: String
    /// The field as the export names it: `content`, `tags[1]`, `nextSteps[0]`, `callID`, …
    public var field: String
    /// What is wrong, e.g. `content contains a NUL character (U+0000) at character 2; NUL is
    /// not text, remove it`.
    public var problem: String
    /// One SQL statement that removes the refused characters from this value and keeps the rest
    /// of the text: a NUL is removed, a line break or tab in a tag becomes a space, another
    /// control character in a tag is removed, and a comma in a tag becomes `-`
    /// (``Limits/tagWithoutCommas(_:)``: `a,b` → `a-b`); the tags are then normalized as capture
    /// stores them.
    public var fixStatement: String

    /// An entry; see each property.
    public init(table: String, id: String, field: String, problem: String, fixStatement: String) {
      self.table = table
      self.id = id
      self.field = field
      self.problem = problem
      self.fixStatement = fixStatement
    }

    /// `knowledge 5D…: content contains a NUL character …`; a quarantined record as `quarantine
    /// row 3: …`; the settings as `settings: …`.
    public var description: String {
      if table == "settings" { return "settings: \(problem)" }
      return "\(table) \(table == "quarantine" ? "row \(id)" : WorkspaceTransaction.shownID(id)): \(problem)"
    }
  }

  /// How many values are refused, in all.
  public var count: Int
  /// The first of them, at most the `limit` asked for: table by table (knowledge, memory, task,
  /// handoff, digest, conversation, message, receipt, checkpoint, quarantine), each by id; then
  /// the settings.
  public var records: [Entry]
  /// True when the limit cut ``records``: ``count`` exceeds the entries listed.
  public var truncated: Bool

  /// A report; the defaults make the empty one.
  public init(count: Int = 0, records: [Entry] = []) {
    self.count = count
    self.records = records
    self.truncated = count > records.count
  }
}

extension WorkspaceTransaction {
  /// A column holding text, with the field name an export gives it.
  struct TextColumn {
    var column: String
    var field: String
    /// A JSON list of texts (`next_steps`), or a JSON object (`sections`), rather than text.
    var isJSON = false
    /// A JSON list of tags: also checked for control characters and commas.
    var isTags = false
  }

  /// The text columns of each table an export carries, and the column that names a row.
  static let textColumns: [(table: String, idColumn: String, columns: [TextColumn])] = [
    ("knowledge", "id", [.init(column: "title", field: "title"), .init(column: "content", field: "content"),
                         .init(column: "tags", field: "tags", isJSON: true, isTags: true)]),
    ("memory", "id", [.init(column: "text", field: "text"), .init(column: "tags", field: "tags", isJSON: true, isTags: true)]),
    ("task", "id", [.init(column: "title", field: "title"), .init(column: "notes", field: "notes")]),
    ("handoff", "id", [.init(column: "focus", field: "focus"), .init(column: "summary", field: "summary"),
                       .init(column: "next_steps", field: "nextSteps", isJSON: true),
                       .init(column: "recent_excerpts", field: "recentExcerpts", isJSON: true)]),
    ("digest", "id", [.init(column: "algorithm", field: "algorithm"), .init(column: "algorithm_version", field: "algorithmVersion"),
                      .init(column: "sections", field: "sections", isJSON: true)]),
    ("conversation", "id", [.init(column: "title", field: "title")]),
    ("message", "id", [.init(column: "text", field: "text")]),
    ("receipt", "id", [.init(column: "call_id", field: "callID"), .init(column: "tool", field: "tool"),
                       .init(column: "risk", field: "risk"), .init(column: "arguments", field: "arguments"),
                       .init(column: "approval", field: "approval"), .init(column: "message", field: "message")]),
    ("checkpoint", "id", [.init(column: "state", field: "state"), .init(column: "note", field: "note")]),
    ("quarantine", "rowid", [.init(column: "source_file", field: "sourceFile"), .init(column: "collection", field: "collection"),
                             .init(column: "reason", field: "reason"), .init(column: "raw", field: "raw")]),
  ]

  /// The stored values that an import refuses on a record it writes (``RefusedTextReport``):
  /// a NUL in any text an export carries (the settings' too), and a line break, tab, other
  /// control character or comma in a tag (``Limits/checkNewTag(_:_:)``).
  ///
  /// SQLite finds the candidate rows (a NUL byte in a text column; an escape, DEL or a byte that
  /// may start a C1 control in a JSON column; in a list of tags, a comma that does not separate
  /// two of its texts), and only those are read into Swift. A JSON column
  /// that is not valid JSON is skipped: ``malformedJSON(limit:)`` names it, with its repair
  /// (``readableListRepair(table:column:id:)``).
  /// - Parameter limit: at most this many entries are listed (the count covers all of them).
  /// - Returns: an empty report when no stored value is refused.
  /// - Throws: storage errors.
  /// - Complexity: one pass of SQLite over each table an export carries.
  public func refusedText(limit: Int = 20) throws(WorkspaceError) -> RefusedTextReport {
    requireValid()
    var count = 0
    var records: [RefusedTextReport.Entry] = []
    func add(_ entry: @autoclosure () -> RefusedTextReport.Entry) {
      count += 1
      if records.count < limit { records.append(entry()) }
    }
    for table in Self.textColumns {
      let candidates = table.columns.map { c in
        c.isJSON
          ? "(json_valid(\(c.column)) AND (instr(\(c.column), '\\u0000') > 0"
            + (c.isTags
              ? " OR instr(\(c.column), '\\') > 0 OR instr(CAST(\(c.column) AS BLOB), x'7F') > 0 OR instr(CAST(\(c.column) AS BLOB), x'C2') > 0"
                // A comma inside a tag: in the store's compact JSON (`["a,b","c"]`) every comma
                // between two texts reads `","`, and a quote inside a text is escaped.
                + " OR instr(replace(\(c.column), '\",\"', ''), ',') > 0"
              : "")
            + "))"
          : "instr(CAST(\(c.column) AS BLOB), x'00') > 0"
      }
      let sql =
        "SELECT \(table.idColumn), " + table.columns.map { "coalesce(\($0.column), '')" }.joined(separator: ", ")
        + " FROM \(table.table) WHERE " + candidates.joined(separator: " OR ") + " ORDER BY +\(table.idColumn)"
      try db.query(sql) { (row) throws(WorkspaceError) in
        let id = row.text(0)
        let condition = " WHERE \(table.idColumn) = " + (table.idColumn == "rowid" ? id : Self.sqlLiteral(id))
        for (i, c) in table.columns.enumerated() {
          let value = row.text(Int32(i + 1))
          if c.isTags {
            guard let tags = try? StableJSON.decoder().decode([String].self, from: Data(value.utf8)) else { continue }
            for (j, tag) in tags.enumerated() {
              do throws(ValidationError) { try Limits.checkNewTag("tags[\(j)]", tag) } catch {
                add(
                  .init(
                    table: table.table, id: id, field: "tags[\(j)]", problem: error.message,
                    fixStatement: "UPDATE \(table.table) SET tags = \(Self.sqlLiteral(Self.readableTagsJSON(tags)))" + condition))
                break
              }
            }
          } else if c.isJSON {
            guard value.contains("\\u0000"), let nul = Self.firstNUL(inJSON: value, field: c.field) else { continue }
            add(
              .init(
                table: table.table, id: id, field: nul.field, problem: nul.problem,
                // A `\\` escape is rewritten as `\u005c` first, so that every `\u0000` left is a NUL's.
                fixStatement: "UPDATE \(table.table) SET \(c.column) = replace(replace(\(c.column), '\\\\', '\\u005c'), '\\u0000', '')"
                  + condition))
          } else if value.utf8.contains(0) {
            do throws(ValidationError) { try Limits.refuseNUL(c.field, value) } catch {
              add(
                .init(
                  table: table.table, id: id, field: c.field, problem: error.message,
                  // SQLite's replace() cannot match a NUL; JSON can: the text quoted as JSON, its
                  // NUL escapes removed (a `\\` escape rewritten first), and read back.
                  fixStatement: "UPDATE \(table.table) SET \(c.column) = json_extract(replace(replace(json_quote(\(c.column)), "
                    + "'\\\\', '\\u005c'), '\\u0000', ''), '$')" + condition))
            }
          }
        }
      }
    }
    // The settings: one JSON object in `meta`, whose text (the assistant's name) an import
    // refuses with a NUL when it adopts them (an empty workspace does).
    if let stored = try meta("settings"), stored.contains("\\u0000"),
      let settings = try? StableJSON.decoder().decode(Settings.self, from: Data(stored.utf8))
    {
      do throws(ValidationError) { try Limits.refuseNUL("assistantName", settings.assistantName) } catch {
        add(
          .init(
            table: "settings", id: "", field: "assistantName", problem: error.message,
            // As for a JSON column: a `\\` escape rewritten first, so every `\u0000` left is a NUL's.
            fixStatement: "UPDATE meta SET value = replace(replace(value, '\\\\', '\\u005c'), '\\u0000', '') "
              + "WHERE key = 'settings'"))
      }
    }
    return RefusedTextReport(count: count, records: records)
  }

  /// An `UPDATE` that gives a list column the store cannot read (``malformedJSON(limit:)``:
  /// `["one","t<U+0001>wo"]`, a raw control character inside a JSON string) its readable
  /// entries back: the raw control characters removed (a line break or tab becoming a space), and
  /// for tags, the control characters of the decoded tags too, normalized as capture stores them.
  /// - Parameters:
  ///   - table: `knowledge`, `memory` or `handoff`.
  ///   - column: a list-of-texts column (`tags`, `next_steps`, `recent_excerpts`).
  ///   - id: the record's id as stored.
  /// - Returns: the statement, or nil when the column is not such a list, or its text is not a
  ///   JSON list of texts even without those characters (then only emptying it reads again).
  /// - Throws: storage errors.
  package func readableListRepair(table: String, column: String, id: String) throws(WorkspaceError) -> String? {
    requireValid()
    guard Self.jsonColumns.contains(where: { $0.table == table && $0.column == column && $0.shape == .strings }) else {
      return nil
    }
    guard let stored = try db.first("SELECT \(column) FROM \(table) WHERE id = ?", [.text(id)], { $0.text(0) }) else {
      return nil
    }
    var cleaned = String.UnicodeScalarView()
    for scalar in stored.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: cleaned.append(" ")
      case 0x00...0x1F: break
      default: cleaned.append(scalar)
      }
    }
    guard let items = try? StableJSON.decoder().decode([String].self, from: Data(String(cleaned).utf8)) else { return nil }
    let json = column == "tags" ? Self.readableTagsJSON(items) : JSONValue.array(items.map { .string($0) }).jsonString()
    return "UPDATE \(table) SET \(column) = \(Self.sqlLiteral(json)) WHERE id = \(Self.sqlLiteral(id))"
  }

  /// `tags` as a JSON list capture would store: in each tag a line break or tab becomes a space
  /// and every other control character is removed, and commas are replaced as
  /// ``Limits/tagWithoutCommas(_:)`` replaces them; then trimmed, lowercased and deduplicated
  /// (``Limits/normalizeTags(_:)``), so `["one", "t\u{1}wo", "a,b"]` gives `["one","two","a-b"]`.
  static func readableTagsJSON(_ tags: [String]) -> String {
    let readable = tags.map { tag in
      var out = String.UnicodeScalarView()
      for scalar in tag.unicodeScalars {
        if Character(scalar).isNewline || scalar == "\t" {
          out.append(" ")
        } else if scalar.properties.generalCategory != .control {
          out.append(scalar)
        }
      }
      return Limits.tagWithoutCommas(String(out))
    }
    return JSONValue.array(Limits.normalizeTags(readable).map { .string($0) }).jsonString()
  }

  /// The first text holding a NUL in a JSON column (a list of texts, or a digest's sections), by
  /// its path under `field` (`nextSteps[2]`, `sections.goals[0].text`), with the refusal; nil
  /// when the `\u0000` found was not a NUL's escape (`\\u0000`, a backslash and `u0000`).
  private static func firstNUL(inJSON text: String, field: String) -> (field: String, problem: String)? {
    guard let root = try? JSONParser().parse(text) else { return nil }
    func find(_ value: JSONValue, _ path: String) -> (field: String, problem: String)? {
      switch value {
      case .string(let s):
        do throws(ValidationError) { try Limits.refuseNUL(path, s) } catch { return (path, error.message) }
        return nil
      case .array(let items):
        for (i, item) in items.enumerated() {
          if let found = find(item, "\(path)[\(i)]") { return found }
        }
        return nil
      case .object(let members):
        for key in members.keys {
          if let member = members[key], let found = find(member, "\(path).\(key)") { return found }
        }
        return nil
      default:
        return nil
      }
    }
    return find(root, field)
  }

  /// `value` as an SQL string literal: in single quotes, each `'` in it doubled.
  static func sqlLiteral(_ value: String) -> String {
    "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
  }
}
