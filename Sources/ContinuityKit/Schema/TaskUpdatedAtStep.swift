/// Schema step 0009: tasks record when they last changed (``TaskItem/updatedAt``).
///
/// Until this step a task held only its creation and completion dates, so an edit, a reopening
/// or a knowledge item it cited being deleted left no date: the restore brief could not list a
/// task edited since a handoff. The step adds the `task.updated_at` column and dates every
/// stored task's last change at its completion, or at its creation when it has none — the
/// latest change dolphin can know of — which is also what ``TaskItem`` gives a task read
/// without the date (an older export, a legacy file). No other column changes.
///
/// Not needed for reading: a workspace that cannot be written is read as it is, each task's
/// `updatedAt` taken as `completedAt ?? createdAt` (``WorkspaceTransaction/taskUpdatedAtSQL()``),
/// until a writable open applies the step.
package enum TaskUpdatedAtStep {
  /// The step's name in `schema_migration`.
  package static let name = "0009-task-updated-at"

  /// No SQL of its own: ``apply(_:)`` adds the column only where it is missing, as step 0008
  /// creates its indexes `IF NOT EXISTS`, so that a file whose step rows were removed (an
  /// interrupted first run as tests rebuild it) still upgrades.
  package static let sql = ""

  /// Adds `task.updated_at` when missing and dates each task that has no value in it at
  /// `coalesce(completed_at, created_at)`, inside the step's transaction. The column is
  /// nullable (SQLite adds no `NOT NULL` column without a default); every read takes a missing
  /// value as `completedAt ?? createdAt`, and every write of this build sets it.
  /// - Returns: how many tasks were dated.
  /// - Throws: storage errors (the step's transaction is then rolled back, the column with it).
  @discardableResult
  package static func apply(_ conn: SQLiteConnection) throws(WorkspaceError) -> Int {
    let hasColumn = try conn.integer("SELECT count(*) FROM pragma_table_info('task') WHERE name = 'updated_at'") > 0
    if !hasColumn { try conn.execute("ALTER TABLE task ADD COLUMN updated_at TEXT") }
    return try conn.run("UPDATE task SET updated_at = coalesce(completed_at, created_at) WHERE updated_at IS NULL")
  }
}
