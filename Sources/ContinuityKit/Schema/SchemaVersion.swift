/// Workspace schema versions.
///
/// v1–v4 are the app's earlier JSON files (see ``LegacyWorkspaceImporter``); v5 is the first
/// schema of the SQLite database and is stored in `PRAGMA user_version`.
public enum SchemaVersion {
  /// The schema this build reads and writes.
  public static let current = 5
  /// The oldest legacy JSON version the importer accepts.
  public static let oldestLegacy = 1
}
