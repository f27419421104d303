import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 20-a, 9: a legacy file imported before was skipped for good, so records of it erased
/// since could not be brought back from it. `again` imports what the workspace no longer holds.
@Suite("Legacy migration again: only what the workspace no longer holds")
struct LegacyMigrationAgainTests {
  /// A workspace with the v4 fixture imported once.
  func migrated(_ dir: TemporaryDirectory) throws -> (KnowledgeEngine, SQLiteWorkspaceStore, URL, LegacyMigrationReport) {
    let file = try copyFixture("workspace-v4.json", to: dir)
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let first = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"))
    #expect(!first.alreadyImported && !first.importedAgain)
    return (engine, store, file, first)
  }

  @Test("erased memories come back with again; a task edited since is left as it is")
  func erasedRecordsReturn() throws {
    let dir = TemporaryDirectory("mig-again")
    defer { dir.remove() }
    let (engine, store, file, first) = try migrated(dir)
    let before = try store.read { try $0.snapshot() }
    #expect(before.memories.count == 3 && before.tasks.count == 3)
    // The user erases the memories and renames a task.
    _ = try engine.apply(try engine.planErase(.memories))
    var task = before.tasks[0]
    task.title = "Renamed after the migration"
    try store.write { tx in try tx.updateTask(task) }
    let erased = try store.read { try $0.snapshot() }
    #expect(erased.memories.isEmpty)

    // Without again: skipped, and the report says when it was first imported.
    let skipped = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"))
    #expect(skipped.alreadyImported)
    #expect(skipped.firstImportedAt == fixedEnvironment().now())
    #expect(try store.read { try $0.snapshot() } == erased)

    let again = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"), again: true)
    #expect(!again.alreadyImported && again.importedAgain)
    #expect(again.imported["memories"] == 3)
    #expect(again.imported["tasks"] == 0)
    #expect(again.imported["settings"] == 0)
    #expect(again.alreadyHeld["tasks"] == 3)
    #expect(again.alreadyHeld["receipts"] == first.imported["receipts"])
    #expect(again.quarantined.isEmpty)
    let after = try store.read { try $0.snapshot() }
    #expect(after.memories == before.memories)
    #expect(after.tasks.first { $0.id == task.id }?.title == "Renamed after the migration")
    #expect(after.settings == erased.settings)
    #expect(after.receipts == erased.receipts && after.checkpoints == erased.checkpoints)
    // One import record still, the first one; the backup is the same file.
    #expect(try store.read { try $0.legacyImport(sha256: first.sha256) }?.importedAt == fixedEnvironment().now())
    #expect(again.backupPath == first.backupPath)
    #expect(FileManager.default.fileExists(atPath: try #require(first.backupPath)))
    // The memories are searchable again.
    let hits = try engine.search(try #require(before.memories.first?.text), memoriesOnly: true)
    #expect(hits.results.contains { $0.id == before.memories[0].id }, "\(hits.results.map(\.title))")
  }

  @Test("again with nothing missing changes nothing, not even a digest")
  func nothingMissing() throws {
    let dir = TemporaryDirectory("mig-again-none")
    defer { dir.remove() }
    let (engine, store, file, _) = try migrated(dir)
    let before = try store.read { try $0.snapshot() }
    let again = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"), again: true)
    #expect(again.importedAgain && !again.alreadyImported)
    #expect(again.imported.values.allSatisfy { $0 == 0 }, "\(again.imported)")
    #expect(again.alreadyHeld["memories"] == 3)
    #expect(try store.read { try $0.snapshot() } == before)
  }

  @Test("a file never imported whose records are all held already stores nothing but its import record: no digest, no settings")
  func neverImportedAllHeld() throws {
    let dir = TemporaryDirectory("mig-all-held")
    defer { dir.remove() }
    let (engine, store, file, first) = try migrated(dir)
    // The old app saved the same workspace again: other bytes, the same records.
    let resaved = dir.appending("resaved.json")
    try (try Data(contentsOf: file) + Data("\n".utf8)).write(to: resaved)
    let before = try store.read { try $0.snapshot() }
    let digests = try store.read { try $0.digestCount() }
    let report = try engine.importLegacyWorkspace(file: resaved, backupDirectory: dir.appending("ws/legacy-backups"), again: true)
    #expect(!report.alreadyImported && !report.importedAgain)
    #expect(report.sha256 != first.sha256)
    #expect(report.imported.values.allSatisfy { $0 == 0 }, "\(report.imported)")
    #expect(report.alreadyHeld["memories"] == 3 && report.alreadyHeld["tasks"] == 3)
    #expect(report.quarantined.isEmpty)
    #expect(try store.read { try $0.digestCount() } == digests)
    #expect(try store.read { try $0.snapshot() } == before)
    #expect(try store.read { try $0.legacyImport(sha256: report.sha256) } != nil)
  }

  @Test("again on a file never imported is a plain import")
  func firstTimeAgain() throws {
    let dir = TemporaryDirectory("mig-again-first")
    defer { dir.remove() }
    let file = try copyFixture("workspace-v4.json", to: dir)
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let report = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"), again: true)
    #expect(!report.importedAgain && !report.alreadyImported)
    #expect(report.imported["memories"] == 3 && report.imported["settings"] == 1)
    #expect(report.alreadyHeld.isEmpty)
  }
}
