import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Schema step 0009 on a workspace stopped at step 0008: tasks get `updated_at`, dated
/// `completedAt ?? createdAt`, in the step's one transaction; nothing else changes.
@Suite("Task updatedAt step (0009)", .serialized)
struct TaskUpdatedAtStepTests {
  static let knowledgeID = sequentialID(1)
  static let openID = sequentialID(100)
  static let completedID = sequentialID(101)
  static let linkedID = sequentialID(102)

  /// Three tasks as a project keeps them: one open, one completed an hour after it was added,
  /// one citing a decision.
  static let tasks = [
    TaskItem(id: openID, title: "Write the migration guide", notes: "Cover WAL mode", priority: .high, createdAt: t0),
    TaskItem(
      id: completedID, title: "Ship the 0.9 release notes", status: .completed, createdAt: t0.addingTimeInterval(60),
      completedAt: t0.addingTimeInterval(3_660)),
    TaskItem(
      id: linkedID, title: "Review the backup script", createdAt: t0.addingTimeInterval(120), knowledgeIDs: [knowledgeID]),
  ]

  /// The dates step 0009 gives them: the completion, else the creation, as stored.
  static let backfilled = [
    openID.uuidString: "2026-09-21T14:13:20.123Z",
    completedID.uuidString: "2026-09-21T15:14:20.123Z",
    linkedID.uuidString: "2026-09-21T14:15:20.123Z",
  ]

  /// A workspace as the build before step 0009 left it: tasks without `updated_at`, the step
  /// not recorded.
  static func workspaceStoppedAt0008(in ws: URL) throws {
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    try store.write { tx in
      try tx.insertKnowledge(item(1, kind: .decision, title: "Keep nightly backups for 30 days"))
      for t in tasks { try tx.insertTask(t) }
      try tx.db.execute("ALTER TABLE task DROP COLUMN updated_at")
      try tx.db.run("DELETE FROM schema_migration WHERE name = ?", [.text(TaskUpdatedAtStep.name)])
    }
    try store.checkpoint()
  }

  static func sqlite(_ ws: URL, _ sql: String) throws -> String {
    let r = try runProcess("/usr/bin/sqlite3", [ws.appendingPathComponent("workspace.sqlite").path, sql])
    try #require(r.status == 0, "sqlite3: \(r.stderr)")
    return r.stdout.trimmingCharacters(in: .newlines)
  }

  /// Every task row, each column but `updated_at` as SQL's `quote()` shows it.
  static func rowsWithoutUpdatedAt(_ ws: URL) throws -> String {
    try sqlite(
      ws,
      "SELECT quote(rowid), quote(id), quote(title), quote(notes), quote(status), quote(priority), quote(created_at), "
        + "quote(completed_at), quote(knowledge_ids) FROM task ORDER BY rowid")
  }

  static func hasColumn(_ ws: URL) throws -> Bool {
    try sqlite(ws, "SELECT count(*) FROM pragma_table_info('task') WHERE name = 'updated_at'") == "1"
  }

  @Test("from 0008: read-only it reads each task as dated completedAt ?? createdAt; the upgrade stores just that")
  func upgradeFrom0008() throws {
    let dir = TemporaryDirectory("step0009")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try Self.workspaceStoppedAt0008(in: ws)
    #expect(try !Self.hasColumn(ws))
    let rowsBefore = try Self.rowsWithoutUpdatedAt(ws)

    // Read-only, the step is pending and not needed for reading.
    let inspected = try SQLiteWorkspaceStore.open(directory: ws, readOnly: true)
    #expect(inspected.pendingMigrationSteps == [TaskUpdatedAtStep.name])
    #expect(inspected.pendingMigrationStepsNeededForReading.isEmpty)
    let read = try inspected.read { tx in try tx.listTasks() }
    #expect(read.count == 3)
    for t in Self.tasks {
      let found = try #require(read.first { $0.id == t.id })
      #expect(found == t, "\(found)")
      #expect(found.updatedAt == (t.completedAt ?? t.createdAt))
    }
    #expect(try !Self.hasColumn(ws), "a read-only open writes nothing")

    let store = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(try store.appliedMigrations().contains(TaskUpdatedAtStep.name))
    #expect(store.pendingMigrationSteps.isEmpty)
    #expect(try Self.hasColumn(ws))
    let dated = try Self.sqlite(ws, "SELECT id || '=' || updated_at FROM task ORDER BY id")
    #expect(dated == Self.backfilled.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n"))
    // Every other column as it was, and the records read as before the upgrade.
    #expect(try Self.rowsWithoutUpdatedAt(ws) == rowsBefore)
    #expect(try store.read { tx in try tx.listTasks() } == read)
    #expect(try store.integrityCheck() == ["ok"])
    // Reopening applies nothing twice.
    let again = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(try again.appliedMigrations().filter { $0 == TaskUpdatedAtStep.name }.count == 1)
  }

  @Test("the step is one transaction: when its backfill fails, the column is not added and the step not recorded")
  func oneTransaction() throws {
    let dir = TemporaryDirectory("step0009-tx")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try Self.workspaceStoppedAt0008(in: ws)
    // Another program's trigger refuses every change to a task row: the backfill fails.
    _ = try Self.sqlite(
      ws, "CREATE TRIGGER frozen_tasks BEFORE UPDATE ON task BEGIN SELECT RAISE(ABORT, 'task rows are frozen'); END;")
    let rowsBefore = try Self.rowsWithoutUpdatedAt(ws)

    let error = #expect(throws: WorkspaceError.self) { _ = try SQLiteWorkspaceStore.open(directory: ws) }
    #expect(String(describing: error).contains("task rows are frozen"), "\(String(describing: error))")
    #expect(try !Self.hasColumn(ws), "the ALTER TABLE rolled back with the failed backfill")
    #expect(try Self.sqlite(ws, "SELECT count(*) FROM schema_migration WHERE name = '\(TaskUpdatedAtStep.name)'") == "0")
    #expect(try Self.rowsWithoutUpdatedAt(ws) == rowsBefore)

    // Without the trigger, the next open applies the step whole.
    _ = try Self.sqlite(ws, "DROP TRIGGER frozen_tasks;")
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(try store.appliedMigrations().contains(TaskUpdatedAtStep.name))
    #expect(try Self.sqlite(ws, "SELECT count(*) FROM task WHERE updated_at IS NULL") == "0")
  }

  @Test("a task row another program inserted without updated_at reads as dated completedAt ?? createdAt")
  func rowWithoutValue() throws {
    let dir = TemporaryDirectory("step0009-null")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    try store.write { tx in try tx.insertKnowledge(item(1)) }
    _ = try Self.sqlite(
      ws,
      "INSERT INTO task(id, title, notes, status, priority, created_at, completed_at, knowledge_ids) VALUES "
        + "('\(Self.completedID.uuidString)', 'Rotate the API keys', '', 'completed', 'normal', "
        + "'2026-10-01T09:00:00.000Z', '2026-10-02T17:30:00.000Z', '[]');")
    let t = try #require(try store.read { tx in try tx.task(id: Self.completedID) })
    #expect(ISO8601.string(from: t.updatedAt) == "2026-10-02T17:30:00.000Z")
  }

  @Test("a workspace from a newer build (a step this one does not know) opens read-only: tasks read, nothing written")
  func newerBuildReadOnly() throws {
    let dir = TemporaryDirectory("step0009-newer")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let edited = t0.addingTimeInterval(86_400)
    do {
      let store = try SQLiteWorkspaceStore.open(directory: ws)
      try store.write { tx in
        try tx.insertKnowledge(item(1))
        for t in Self.tasks { try tx.insertTask(t) }
        var t = Self.tasks[0]
        t.notes = "Cover WAL mode and the busy timeout"
        t.updatedAt = edited
        try tx.updateTask(t)
      }
      try store.checkpoint()
    }
    _ = try Self.sqlite(
      ws, "INSERT INTO schema_migration(name, applied_at) VALUES ('0010-task-due-dates', '2027-01-01T00:00:00.000Z');")
    let db = ws.appendingPathComponent("workspace.sqlite").path
    let before = try Data(contentsOf: URL(fileURLWithPath: db))

    let store = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(store.isReadOnly)
    #expect(store.readOnlyReason == "it records migration step '0010-task-due-dates', unknown to this build")
    let read = try store.read { tx in try tx.task(id: Self.openID) }
    #expect(read?.updatedAt == edited)
    #expect(read?.notes == "Cover WAL mode and the busy timeout")
    #expect(throws: WorkspaceError.self) {
      try store.write { tx in try tx.insertTask(TaskItem(id: sequentialID(200), title: "Not stored", createdAt: t0)) }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
  }

  @Test("insert and update store the task's updatedAt as given")
  func roundTrip() throws {
    let dir = TemporaryDirectory("step0009-rt")
    defer { dir.remove() }
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    var t = TaskItem(
      id: Self.openID, title: "Write the migration guide", createdAt: t0, updatedAt: t0.addingTimeInterval(30))
    try store.write { tx in try tx.insertTask(t) }
    #expect(try store.read { tx in try tx.task(id: Self.openID) } == t)
    t.priority = .critical
    t.updatedAt = t0.addingTimeInterval(7_200)
    try store.write { tx in try tx.updateTask(t) }
    #expect(try store.read { tx in try tx.task(id: Self.openID) } == t)
  }
}
