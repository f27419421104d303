import Foundation

/// Every failure of the ContinuityKit layer.
///
/// Each case carries what went wrong and with which value; ``description`` adds how to fix it.
public enum WorkspaceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// User input broke a bound or format rule. Nothing was written.
  case validation(ValidationError)
  /// No record of `recordType` (e.g. `knowledge item`) has the id `id`.
  case notFound(recordType: String, id: String)
  /// SQLite reported an error for `file` (`:memory:` for the in-memory store).
  case storage(file: String, code: Int32, message: String)
  /// Another connection held the write lock of `file` for longer than this one waited
  /// (`waitedMilliseconds`, the busy timeout): another process was in the middle of a long
  /// write, such as a search-index rebuild or a large import. The operation was rolled back, so
  /// nothing was written; trying again later succeeds.
  case busy(file: String, waitedMilliseconds: Int)
  /// Another connection changed the workspace between planning `operation` (`import`,
  /// `erase`, `deletion`) and applying it, so the plan that was shown no longer says what would
  /// happen. Nothing was written; planning again shows the current plan. A concurrency
  /// failure, like ``busy(file:waitedMilliseconds:)``, not a problem with the input.
  case concurrentChange(operation: String)
  /// The database at `file` has schema `found`, newer than this build's `supported`; it was
  /// opened read-only and will not be written.
  case newerSchema(file: String, found: Int, supported: Int)
  /// A write was attempted on a store opened read-only (for `reason`).
  case readOnly(file: String, reason: String)
  /// The file is not a usable workspace database (damaged, or not SQLite at all).
  case damaged(file: String, message: String)
  /// A filesystem operation on `path` failed.
  case fileSystem(path: String, message: String)
  /// A collection is full: `what` holds `held` records and the `adding` records being added
  /// would take it past `limit` (for knowledge, the workspace's `knowledgeItemLimit` setting).
  /// Nothing was written.
  case capacity(what: CappedCollection, limit: Int, held: Int, adding: Int)
  /// No workspace exists in `directory` (no directory, or no database in it, or a database
  /// file holding nothing at all, as a first run interrupted before its first schema step
  /// leaves it), and the command only reads, so none was created or completed.
  case noWorkspace(directory: String)
  /// `file` is an SQLite database that some other program made: it records no dolphin schema
  /// step (no `schema_migration` table with dolphin's `name` and `applied_at` columns, the first
  /// thing dolphin creates, or an empty one, while each step commits with its row, or one whose
  /// rows name none of dolphin's steps, while a newer build still records this one's first) but holds
  /// other schema objects, named in `found` (`table foo`, sorted by name; at most
  /// ``notAWorkspaceNamesShown``, then `N more`; a `schema_migration` table of another layout is
  /// named too), or holds none but has a `PRAGMA application_id`, which dolphin never sets
  /// (`found` is then ``applicationIDOnly(_:)``), or a `PRAGMA user_version`, which dolphin sets
  /// only with its tables (``userVersionOnly(_:)``). It was neither read nor written.
  case notAWorkspace(file: String, found: [String])
  /// `file` holds dolphin's tables but no `schema_migration` table, where dolphin records its
  /// schema steps; table `renamedAs`, which dolphin did not create, has exactly that table's
  /// columns and records dolphin's steps: most likely it is that table, renamed outside dolphin.
  /// Every command refuses the workspace until it is renamed back (applying the steps again
  /// would fail or repeat them); nothing was read or written (review 27-b, 2).
  case migrationTableRenamed(file: String, renamedAs: String)

  /// The database file a store opened is no longer the file at `file`: it was deleted or moved
  /// away, alone or with its directory (`removed`), or another file took its place (another
  /// workspace created at the path, a copy put there) after the store opened it
  /// (``SQLiteWorkspaceStore/changeAtPath()``). Nothing was written: the write would have gone
  /// to a file that is gone once this process closes it, or that nothing reads any more. Opening
  /// the workspace again reaches what is at the path now.
  case notAtPath(file: String, removed: Bool)

  /// How many schema object names ``notAWorkspace(file:found:)`` carries at most.
  public static let notAWorkspaceNamesShown = 5

  /// What ``notAWorkspace(file:found:)`` says a database holds when it has no schema object (or
  /// only an empty `schema_migration` table) but a `PRAGMA user_version` other than 0: dolphin
  /// sets that version only together with its tables, so another program set it.
  /// - Parameter version: the database's `PRAGMA user_version`.
  public static func userVersionOnly(_ version: Int64) -> String {
    "no tables of its own, yet its PRAGMA user_version is \(version), which dolphin sets only together with its tables"
  }

  /// What ``notAWorkspace(file:found:)`` says a database holds when it has no schema object (or
  /// only an empty `schema_migration` table) but a `PRAGMA application_id` other than 0: SQLite
  /// reserves that header field for the program whose file format the database is, and dolphin
  /// never sets it, so another program did.
  /// - Parameter applicationID: the database's `PRAGMA application_id` (a signed 32-bit value).
  public static func applicationIDOnly(_ applicationID: Int64) -> String {
    "no tables of its own, yet its PRAGMA application_id is \(applicationID), which marks another program's file "
      + "(dolphin never sets one)"
  }

  public var description: String {
    switch self {
    case .validation(let e):
      return e.message
    case .notFound(let type, let id):
      return "no \(type) has the id \(id)"
    case .storage(let file, let code, let message):
      return "storage error in \(file): SQLite error \(code): \(message)"
    case .busy(let file, let waited):
      let seconds = waited % 1000 == 0 ? "\(waited / 1000) s" : "\(waited) ms"
      return
        "\(file) is busy: another process (another dolphin, e.g. rebuilding the search index or "
        + "importing) held a long write for more than \(seconds), so this command gave up waiting; "
        + "nothing was written. Try again in a moment"
    case .concurrentChange(let operation):
      return
        "the workspace changed since this \(operation) was planned (another process wrote to it meanwhile); "
        + "nothing was written. Run the command again to see the new plan"
    case .newerSchema(let file, let found, let supported):
      return
        "\(file) has workspace schema \(found), newer than this build supports (\(supported)); "
        + "it was opened read-only and will not be written. Upgrade dolphin to change it."
    case .readOnly(let file, let reason):
      return "\(file) is open read-only (\(reason)); nothing was written"
    case .damaged(let file, let message):
      return
        "\(file) is damaged or not a workspace database: \(message). Nothing was changed; "
        + "run `\(command: "dolphin doctor")` for recovery steps"
    case .fileSystem(let path, let message):
      return "\(Limits.shownPath(path)): \(message)"
    case .noWorkspace(let directory):
      return "no workspace at \(Limits.shownPath(directory)) (nothing has been captured there; `\(command: "dolphin capture KIND TITLE")` creates it)"
    case .notAWorkspace(let file, let found):
      return
        "\(file) is an SQLite database but not a dolphin workspace: it records no dolphin schema step and holds "
        + "\(found.isEmpty ? "other objects" : found.joined(separator: ", ")); nothing was read from it or written "
        + "to it. Pass --workspace (or set DOLPHIN_HOME) with a dolphin workspace directory, or move that file "
        + "away to start a new workspace there"
    case .migrationTableRenamed(let file, let renamedAs):
      return
        "\(file) is a dolphin workspace without its schema_migration table, where dolphin records its schema steps: "
        + "table \(renamedAs), which dolphin did not create, has exactly that table's columns and records dolphin's "
        + "steps, so most likely it is that table renamed (`ALTER TABLE … RENAME TO`); the workspace was neither read "
        + "nor written. Renaming it back (ALTER TABLE \(ShellWord.sqlIdentifier(renamedAs)) RENAME TO "
        + "\"schema_migration\") restores it; `\(command: "dolphin doctor")` gives the command to run"
    case .notAtPath(let file, let removed):
      return
        "\(Limits.shownPath(file)) "
        + (removed
          ? "was deleted or moved away (or its directory was) after this process opened it"
          : "is another file than the one this process opened (the workspace was replaced at that path)")
        + "; nothing was written, since the write would have gone to a file that "
        + (removed ? "is gone" : "nothing reads any more")
        + ". Open the workspace again (run the command or the tool call again) to use what is at that path now"
    case .capacity(let what, let limit, let held, let adding):
      return what.fullMessage(limit: limit, held: held, adding: adding)
    }
  }
}
