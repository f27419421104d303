import Foundation

/// Typed access to the workspace records inside one transaction.
///
/// Handed to the closures of ``WorkspaceStore/read(_:)`` and ``WorkspaceStore/write(_:)``;
/// using it after its closure returns traps. Writes validate every bound of ``Limits`` and
/// throw ``WorkspaceError/validation(_:)`` before anything is written.
public final class WorkspaceTransaction {
  package let db: SQLiteConnection
  /// Whether mutations are allowed.
  public let isWritable: Bool
  /// True while a workspace that does not exist on disk yet tries a write on an empty
  /// in-memory copy, which is then rolled back (see ``SQLiteWorkspaceStore/Creation/atFirstWrite``).
  /// A write body that acts outside the database (writes a file) skips that when this is set:
  /// the same body runs again for real once the rehearsal succeeded.
  public let isRehearsal: Bool
  private var isValid = true
  /// Meta values read by ``cachedMeta(_:)`` in this transaction (an inner nil: no value
  /// stored), kept current by ``setMeta(_:_:)``.
  private var metaCache: [String: String?] = [:]
  /// Whether the `task` table has the `updated_at` column (schema step 0009), once
  /// ``taskUpdatedAtSQL()`` has looked.
  private var tasksHaveUpdatedAt: Bool?

  package init(db: SQLiteConnection, isWritable: Bool, isRehearsal: Bool = false) {
    self.db = db
    self.isWritable = isWritable
    self.isRehearsal = isRehearsal
  }

  func invalidate() { isValid = false }

  /// The SQL expression of a task row's ``TaskItem/updatedAt``: the `updated_at` column, or
  /// `completedAt ?? createdAt` where it holds no value (a row another program inserted) or
  /// does not exist — a workspace read before schema step 0009 (``TaskUpdatedAtStep``) was
  /// applied, which is not needed for reading. Looked up once per transaction (one `PRAGMA`
  /// read), as no schema changes while a transaction lasts.
  package func taskUpdatedAtSQL() throws(WorkspaceError) -> String {
    requireValid()
    let has: Bool
    if let known = tasksHaveUpdatedAt {
      has = known
    } else {
      has = try db.integer("SELECT count(*) FROM pragma_table_info('task') WHERE name = 'updated_at'") > 0
      tasksHaveUpdatedAt = has
    }
    return has ? "coalesce(updated_at, completed_at, created_at)" : "coalesce(completed_at, created_at)"
  }

  package func requireWritable() throws(WorkspaceError) {
    precondition(isValid, "WorkspaceTransaction used outside its closure")
    if !isWritable { throw .readOnly(file: db.displayName, reason: "inside a read transaction") }
  }

  package func requireValid() {
    precondition(isValid, "WorkspaceTransaction used outside its closure")
  }

  /// A value that changes whenever the database may have changed: the rows this connection
  /// has changed since it opened (`sqlite3_total_changes64`), and `PRAGMA data_version`, which
  /// changes when another connection commits.
  ///
  /// Read it before anything else in a read transaction: data read afterwards is then never
  /// older than the stamp, so anything derived from it and kept under this stamp is current
  /// until the stamp changes.
  package func changeStamp() throws(WorkspaceError) -> ChangeStamp {
    requireValid()
    return ChangeStamp(
      localChanges: db.totalChanges, dataVersion: try db.integer("PRAGMA data_version"), connection: db.serial)
  }

  // MARK: - Encoding helpers

  static func text(_ id: UUID) -> SQLValue { .text(id.uuidString) }
  static func text(_ date: Date) -> SQLValue { .text(ISO8601.string(from: date)) }
  static func text(_ date: Date?) -> SQLValue { date.map { .text(ISO8601.string(from: $0)) } ?? .null }
  static func text(_ id: UUID?) -> SQLValue { id.map { .text($0.uuidString) } ?? .null }
  static func json<T: Encodable>(_ value: T) -> SQLValue {
    // Encoding arrays of strings/UUIDs and our Codable values cannot fail.
    .text((try? StableJSON.string(value)) ?? "[]")
  }

  func uuid(_ row: SQLRow, _ i: Int32, _ table: String) throws(WorkspaceError) -> UUID {
    let s = row.text(i)
    guard let id = UUID(uuidString: s) else {
      throw .damaged(file: db.displayName, message: "\(table) holds a malformed id \(Self.quotedStoredText(s))")
    }
    return id
  }

  /// Stored text quoted into a message, as stored titles are shown: its first 80 characters in
  /// double quotes with `\`, `"`, line breaks and tabs escaped (``TerminalText/quoted(_:)``) and
  /// `…` after a cut, so that a quote in it cannot end the quotation early and a line break
  /// cannot start what reads as another line of the message, and bidi controls escaped
  /// (``TerminalText/escapingBidiControls(_:)``: `\u{202E}`), so that none reorders the line on
  /// screen. Other controls are left to ``TerminalText/inert(_:)`` where the message is printed.
  /// - Parameter text: text read from the database, such as a malformed id.
  /// - Returns: e.g. `"HF-7'; DROP\nDoctor: healthy."`.
  package static func quotedStoredText(_ text: String) -> String {
    let cut = text.count > 80
    return TerminalText.escapingBidiControls(TerminalText.quoted(cut ? String(text.prefix(80)) + "…" : text))
  }
  /// A stored record id as a message shows it: as it is when it is a UUID, else quoted like
  /// other stored text (``quotedStoredText(_:)``), so an id edited outside dolphin reads as one
  /// value on one line.
  package static func shownID(_ id: String) -> String {
    UUID(uuidString: id) != nil ? id : quotedStoredText(id)
  }


  func optionalUUID(_ row: SQLRow, _ i: Int32) -> UUID? {
    row.optionalText(i).flatMap(UUID.init(uuidString:))
  }

  func date(_ row: SQLRow, _ i: Int32, _ table: String) throws(WorkspaceError) -> Date {
    let s = row.text(i)
    guard let d = ISO8601.date(from: s) else {
      throw .damaged(file: db.displayName, message: "\(table) holds a malformed date \(Self.quotedStoredText(s))")
    }
    return d
  }

  func optionalDate(_ row: SQLRow, _ i: Int32) -> Date? {
    row.optionalText(i).flatMap(ISO8601.date(from:))
  }

  /// Decodes the JSON column `i` of `row`.
  /// - Parameters:
  ///   - column: `table.column`, e.g. `task.knowledge_ids`.
  ///   - idColumn: the index of the record's id in `row`, so that the error names the record.
  /// - Throws: ``WorkspaceError/damaged(file:message:)`` naming the record and the column
  ///   (``malformedRecordMessage(_:id:stored:)``).
  func decodeJSON<T: Decodable>(_ type: T.Type, _ row: SQLRow, _ i: Int32, _ column: String, idColumn: Int32 = 1)
    throws(WorkspaceError) -> T
  {
    let s = row.text(i)
    do {
      return try StableJSON.decoder().decode(T.self, from: Data(s.utf8))
    } catch {
      throw .damaged(
        file: db.displayName, message: Self.malformedRecordMessage(column, id: row.text(idColumn), stored: s))
    }
  }

  /// What a record whose JSON column cannot be decoded is called in a
  /// ``WorkspaceError/damaged(file:message:)`` error: the record (its table and id as stored) and
  /// the column, as ``MalformedJSON/description`` (and so `dolphin doctor`) names them, e.g.
  /// `task 5D…: task.knowledge_ids holds malformed JSON: oops`.
  /// - Parameters:
  ///   - column: `table.column`.
  ///   - id: the record's id as stored.
  ///   - stored: the column's text; its first 80 characters are shown.
  static func malformedRecordMessage(_ column: String, id: String, stored: String) -> String {
    let table = column.split(separator: ".", maxSplits: 1).first.map(String.init) ?? column
    return "\(table) \(id.prefix(80)): \(column) holds malformed JSON: \(stored.prefix(80))"
  }

  /// Column `i` of `row` read as `E`.
  /// - Parameters:
  ///   - column: `table.column`, as errors name it.
  ///   - idColumn: the column of `row` holding the record's id (`source_id` for a relationship),
  ///     so that the error names the record as `dolphin doctor` does; nil when the row has none.
  /// - Throws: ``WorkspaceError/damaged(file:message:)`` for a name `E` does not have, e.g.
  ///   `knowledge 5D…: knowledge.kind holds an unknown value "hypothesis"`.
  func enumValue<E: RawRepresentable>(
    _ type: E.Type, _ row: SQLRow, _ i: Int32, _ column: String, idColumn: Int32? = nil
  ) throws(WorkspaceError) -> E where E.RawValue == String {
    let s = row.text(i)
    guard let v = E(rawValue: s) else {
      throw .damaged(
        file: db.displayName,
        message: Self.unknownValueMessage(column, id: idColumn.map { row.text($0) }, stored: s))
    }
    return v
  }

  /// What a record whose enumeration column holds a name the store does not know is called in
  /// a ``WorkspaceError/damaged(file:message:)`` error: the record (table and id as stored, when
  /// known), the column and the value, e.g. `task 5D…: task.status holds an unknown value
  /// "blocked"`.
  static func unknownValueMessage(_ column: String, id: String?, stored: String) -> String {
    let table = column.split(separator: ".", maxSplits: 1).first.map(String.init) ?? column
    let record = id.map { "\(table) \(shownID($0)): " } ?? ""
    return "\(record)\(column) holds an unknown value \(quotedStoredText(stored))"
  }

  // MARK: - Meta

  package func meta(_ key: String) throws(WorkspaceError) -> String? {
    requireValid()
    return try db.first("SELECT value FROM meta WHERE key = ?", [.text(key)]) { $0.text(0) }
  }

  /// ``meta(_:)`` read at most once per transaction: later calls return the value read first,
  /// or the one ``setMeta(_:_:)`` wrote since. For a value that hot write paths check on every
  /// call (the search index's tokenizer version). Every `meta` write goes through
  /// ``setMeta(_:_:)``, so the cached value is never older than the table inside this
  /// transaction, and no other connection can change it while the transaction lasts.
  package func cachedMeta(_ key: String) throws(WorkspaceError) -> String? {
    if let cached = metaCache[key] { return cached }
    let value = try meta(key)
    metaCache[key] = .some(value)
    return value
  }

  package func setMeta(_ key: String, _ value: String?) throws(WorkspaceError) {
    try requireWritable()
    if let value {
      try db.run(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [.text(key), .text(value)])
    } else {
      try db.run("DELETE FROM meta WHERE key = ?", [.text(key)])
    }
    metaCache[key] = .some(value)
  }

  /// The user's settings (defaults when none were stored).
  public func settings() throws(WorkspaceError) -> Settings {
    guard let s = try meta("settings") else { return .default }
    do {
      return try StableJSON.decoder().decode(Settings.self, from: Data(s.utf8))
    } catch {
      throw .damaged(file: db.displayName, message: "settings hold malformed JSON")
    }
  }

  /// Replaces the settings.
  /// - Throws: ``ValidationError`` (as `.validation`) when `knowledgeItemLimit` is outside
  ///   1…``Limits/knowledgeItemsMaximum``.
  public func setSettings(_ settings: Settings) throws(WorkspaceError) {
    try requireWritable()
    guard (1...Limits.knowledgeItemsMaximum).contains(settings.knowledgeItemLimit) else {
      throw .validation(
        ValidationError(
          field: "knowledgeItemLimit", limit: Limits.knowledgeItemsMaximum,
          actual: settings.knowledgeItemLimit,
          message:
            "knowledgeItemLimit is \(settings.knowledgeItemLimit); it must be between 1 and \(Limits.knowledgeItemsMaximum)"
        ))
    }
    do { try Limits.validateSettings(settings) } catch { throw .validation(error) }
    try setMeta("settings", try? StableJSON.string(settings))
  }

  /// The id of the active (restored) handoff, if any.
  public func activeHandoffID() throws(WorkspaceError) -> UUID? {
    try meta("activeHandoffID").flatMap(UUID.init(uuidString:))
  }

  /// Marks `id` as the active handoff, or clears the marker with nil.
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)`` when no handoff has `id`.
  public func setActiveHandoffID(_ id: UUID?) throws(WorkspaceError) {
    try requireWritable()
    if let id, try handoffRowID(id) == nil {
      throw .notFound(recordType: "handoff", id: id.uuidString)
    }
    try setMeta("activeHandoffID", id?.uuidString)
  }
}

/// See ``WorkspaceTransaction/changeStamp()``.
package struct ChangeStamp: Sendable, Equatable {
  /// Rows changed through this connection since it opened.
  package var localChanges: Int64
  /// SQLite's `data_version` for this connection: changes when another connection commits.
  package var dataVersion: Int64
  /// Which connection the two counts belong to (``SQLiteConnection/serial``): a store that
  /// changes its connection (see ``SQLiteWorkspaceStore/Creation/atFirstWrite``) starts both
  /// counts afresh.
  package var connection: UInt64

  package init(localChanges: Int64, dataVersion: Int64, connection: UInt64 = 0) {
    self.localChanges = localChanges
    self.dataVersion = dataVersion
    self.connection = connection
  }
}
