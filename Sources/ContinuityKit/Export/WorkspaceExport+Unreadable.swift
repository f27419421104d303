import Foundation

extension WorkspaceExport {
  /// A stored record that could not be decoded when the workspace was exported — a JSON column
  /// that does not parse, a name the store does not know, an id that is not a UUID, a date that
  /// is not a date (written by another program, e.g. the `sqlite3` shell) — carried out as stored
  /// instead of failing the whole export (review 29-a, 8: one such row made every export fail).
  ///
  /// Each column's value is the stored text (a number as its decimal text, a blob's bytes read as
  /// UTF-8 text, bytes that are not UTF-8 each read as U+FFFD), or null for SQL NULL. `dolphin
  /// doctor` names such records with a repair; `dolphin import` keeps each one aside in the
  /// quarantine (``quarantineEntry(sourceFile:index:exportedAt:generator:)``), never as a record.
  public struct UnreadableRecord: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The table it was read from: `knowledge`, `memory`, `task`, `handoff`, `digest`,
    /// `conversation`, `message`, `receipt`, `checkpoint`, `quarantine`; `meta` for the settings.
    public var table: String
    /// The collection of the export it belongs to: `knowledge`, `memories`, `tasks`, `handoffs`,
    /// `digests`, `conversations`, `messages`, `receipts`, `checkpoints`, `quarantine`, `settings`.
    public var collection: String
    /// The record's id as stored (not necessarily a UUID); a quarantined record's row id;
    /// `settings` for the settings.
    public var id: String
    /// Why it could not be decoded, as the store says it, e.g. `task 5D…: task.knowledge_ids holds
    /// malformed JSON: oops`.
    public var reason: String
    /// Every column of its row by name, as stored (see the type's note); for a knowledge item
    /// also `relationships`: its rows of the relationship table as a JSON list of objects
    /// (`kind`, `targetID`, `ordinal`).
    public var columns: [String: String?]

    /// A record; see each property.
    public init(table: String, collection: String, id: String, reason: String, columns: [String: String?]) {
      self.table = table
      self.collection = collection
      self.id = id
      self.reason = reason
      self.columns = columns
    }

    /// `task 5D…` (an id that is not a UUID is quoted as stored text is), `settings`, or
    /// `quarantine row 3`.
    public var shownName: String {
      switch table {
      case "meta": return "settings"
      case "quarantine": return "quarantine row \(id)"
      default: return "\(table) \(WorkspaceTransaction.shownID(id))"
      }
    }

    /// The record and why it could not be decoded, named as the command that meets it names it:
    /// `task 9A…: task.status holds an unknown value "blocked"`, `memory 5D…: memory.created_at
    /// holds a malformed date "yesterday"`.
    public var description: String {
      // Most reasons name the record already (`task 9A…: …`); a malformed date does not.
      reason.hasPrefix(table + " ") || reason.hasPrefix(shownName) ? reason : shownName + ": " + reason
    }

    /// This record kept aside as an import keeps a record it cannot take: a quarantine entry
    /// whose `raw` is this record as JSON (every field above), so nothing of it is lost.
    /// - Parameters:
    ///   - sourceFile: the imported file, as the import names it.
    ///   - index: its place in the document's `unreadable` list; the settings get -1, as the
    ///     legacy importer gives them.
    ///   - exportedAt: the document's ``WorkspaceExport/exportedAt``, which dates the entry, so
    ///     that importing the file again finds it already kept.
    ///   - generator: the document's ``WorkspaceExport/generator``, named in the reason.
    /// - Returns: the entry; its reason is cut to ``Limits/quarantineReason`` characters.
    public func quarantineEntry(sourceFile: String, index: Int, exportedAt: Date, generator: String)
      -> WorkspaceTransaction.QuarantineEntry
    {
      let why = "could not be decoded when exported by \(generator.prefix(80)) (\(ISO8601.string(from: exportedAt))): \(reason)"
      let reason = why.count > Limits.quarantineReason ? String(why.prefix(Limits.quarantineReason - 1)) + "…" : why
      return WorkspaceTransaction.QuarantineEntry(
        sourceFile: sourceFile, collection: collection, recordIndex: table == "meta" ? -1 : index,
        reason: reason, raw: (try? StableJSON.string(self)) ?? "{}", quarantinedAt: exportedAt)
    }
  }

  /// The records this export could not decode, in table order (as ``UnreadableRecord/table``
  /// lists them), each table's by the order it is read in; empty when every record was read.
  public var unreadableRecords: [UnreadableRecord] { unreadable ?? [] }

  /// One line naming the records an export could not decode, for a warning: how many, then the
  /// first `shown` of them each with why, named as the command that meets it names it, e.g. `2
  /// stored record(s) could not be decoded (knowledge 5D…: knowledge.tags holds malformed JSON:
  /// ["a",; task 9A…: task.status holds an unknown value "blocked")`; nil when there are none.
  public static func unreadableSummary(_ records: [UnreadableRecord], shown: Int = 10) -> String? {
    guard !records.isEmpty else { return nil }
    let named = records.prefix(shown).map(\.description)
    return "\(records.count) stored record(s) could not be decoded (\(named.joined(separator: "; "))"
      + (records.count > shown ? "; and \(records.count - shown) more" : "") + ")"
  }
}
