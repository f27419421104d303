import Foundation

/// A summary of the workspace for `dolphin status` and `dolphin doctor`.
public struct WorkspaceStatus: Sendable, Equatable, Codable {
  public var databasePath: String
  public var schemaVersion: Int
  public var readOnly: Bool
  public var readOnlyReason: String?
  /// Record counts by table name (`knowledge`, `memory`, `task`, …).
  public var counts: [String: Int]
  public var knowledgeItemLimit: Int
  public var activeHandoffID: UUID?
  /// Schema objects the database lacks, tables whose columns differ, and triggers and indexes
  /// dolphin did not create (``SchemaDifference/problems``; tables and views added are notes,
  /// not listed), then records the store cannot decode (malformed JSON, an
  /// id that is not a UUID), then referential problems found (dangling ids, a broken active
  /// marker), each naming the ids.
  public var integrityProblems: [String]
  /// Records kept aside by imports.
  public var quarantined: Int
  /// Stored records whose text looks like a credential (from migrations, imports, or stored
  /// deliberately with `--allow-credentials`): a count and the first ids.
  public var credentials: CredentialFlagReport
}

extension KnowledgeEngine {
  /// Counts, the schema's objects (``schemaDifference()``), referential integrity (dangling
  /// relationship, task, handoff, digest and memory links; the active-handoff marker) and
  /// credential-looking stored text
  /// (``WorkspaceTransaction/credentialFlags(limit:bytesPerTable:)``). Does not run `PRAGMA integrity_check`; see
  /// ``SQLiteWorkspaceStore/integrityCheck()``.
  /// - Parameter credentialScanBytes: how much stored text to scan for credentials, per table,
  ///   in UTF-8 bytes (newest written first). `status` keeps it small to stay fast; `doctor`
  ///   scans everything up to a large bound.
  public func status(credentialScanBytes: Int = 256 << 10) throws -> WorkspaceStatus {
    let schema = (store as? SQLiteWorkspaceStore).flatMap { try? $0.schemaVersion() } ?? SchemaVersion.current
    let readOnlyReason = (store as? SQLiteWorkspaceStore)?.readOnlyReason
    return try store.read { tx in
      // The schema first (review 25-a, 1): a table dropped outside dolphin fails the writes
      // that need it. One missing that the reads below need fails them with SQLite's "no such
      // table", whose message points to `dolphin doctor`.
      let schemaProblems = try tx.schemaDifference()?.problems ?? []
      let counts = try tx.counts()
      // Records the store cannot decode next: they make other commands refuse the workspace.
      let problems =
        schemaProblems + (try tx.malformedJSON().map(\.description)) + (try tx.malformedIDs().map(\.description))
        + (try tx.referenceProblems())
      return WorkspaceStatus(
        databasePath: store.databasePath, schemaVersion: schema, readOnly: store.isReadOnly,
        readOnlyReason: readOnlyReason, counts: counts, knowledgeItemLimit: try tx.settings().knowledgeItemLimit,
        activeHandoffID: try tx.activeHandoffID(), integrityProblems: problems, quarantined: counts["quarantine"] ?? 0,
        credentials: try tx.credentialFlags(bytesPerTable: credentialScanBytes))
    }
  }
}
