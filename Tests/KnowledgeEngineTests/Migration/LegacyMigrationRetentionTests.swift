import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-c (s20): `migrate` into a workspace near its kept bounds pruned receipts,
/// checkpoints and digests one insert at a time — each new record spared, the oldest other
/// dropped — and reported none of it. It now keeps the newest across the workspace's records and
/// the file's, as `import` does, and says how many of each side it left out.
@Suite("Legacy migration keeps the newest activity and says what it left out")
struct LegacyMigrationRetentionTests {
  /// 2025-04-11T00:00:00Z: after the v4 fixture's earliest activity (2025-04-10), before its
  /// latest (2025-04-12).
  static let between = ISO8601.date(from: "2025-04-11T00:00:00Z") ?? Date()

  /// A workspace at `dir/ws` holding `checkpoints` checkpoints and `receipts` receipts dated
  /// from ``between`` a second apart (ids from 100,000 and 200,000), and `digests` digests.
  static func workspace(
    _ dir: TemporaryDirectory, checkpoints: Int, receipts: Int, digests: Int, firstCheckpointID: UUID? = nil
  ) throws -> (SQLiteWorkspaceStore, KnowledgeEngine) {
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    try store.write { tx in
      for i in 0..<checkpoints {
        let id = i == 0 ? firstCheckpointID ?? sequentialID(100_000) : sequentialID(100_000 + i)
        try tx.insertCheckpoint(
          RunCheckpoint(id: id, runID: sequentialID(99), step: i, state: "finished", createdAt: between.addingTimeInterval(Double(i))))
      }
      for i in 0..<receipts {
        let date = between.addingTimeInterval(Double(i))
        try tx.insertReceipt(
          ActivityReceipt(
            id: sequentialID(200_000 + i), callID: "c\(i)", tool: "task_list", risk: "readOnly", arguments: "{}",
            outcome: .succeeded, startedAt: date, finishedAt: date))
      }
    }
    for _ in 0..<digests { _ = try engine.saveDigest() }
    return (store, engine)
  }

  @Test("the file's older records are left out, the workspace's older pruned; the report counts each side")
  func countsBothSides() throws {
    let dir = TemporaryDirectory("migkeep")
    defer { dir.remove() }
    let (store, engine) = try Self.workspace(
      dir, checkpoints: Limits.checkpointsKept, receipts: Limits.receiptsKept, digests: Limits.digestsKept)
    let oldestDigest = try #require(try engine.listDigests().last?.id)
    let file = try copyFixture("workspace-v4.json", to: dir)
    let report = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"))

    // The fixture: checkpoints 4 on 2025-04-10 and 2 on 2025-04-12; receipts 1 and 2.
    #expect(report.olderThanKept == ["checkpoints": 4, "receipts": 1], "\(report.olderThanKept)")
    #expect(report.pruned == ["checkpoints": 2, "receipts": 2, "digests": 1], "\(report.pruned)")
    #expect(report.imported["checkpoints"] == 2 && report.imported["receipts"] == 2, "\(report.imported)")

    let checkpoints = try store.read { try $0.listCheckpoints() }.map(\.id)
    #expect(checkpoints.count == Limits.checkpointsKept)
    #expect(!checkpoints.contains(sequentialID(100_000)) && !checkpoints.contains(sequentialID(100_001)), "the two oldest went")
    #expect(checkpoints.contains(sequentialID(100_002)))
    let fileCheckpoints = ["8581DEBD-B1E9-4292-8A48-573A16432622", "D0D04314-155F-499C-A738-AAD0730AA19E"]
    #expect(fileCheckpoints.allSatisfy { id in checkpoints.contains { $0.uuidString == id } }, "the file's newer are in")
    #expect(!checkpoints.contains { $0.uuidString == "2ED2F1D7-E532-4D95-ABDB-8056295638F3" }, "the file's older are not")
    let receipts = try store.read { try $0.listReceipts() }
    #expect(receipts.count == Limits.receiptsKept)
    #expect(receipts.first?.id == sequentialID(200_002), "\(receipts.first?.id.uuidString ?? "none")")
    #expect(!receipts.contains { $0.tool == "task_add" }, "the file's receipt of 2025-04-10 is older than every kept one")
    let digests = try engine.listDigests()
    #expect(digests.count == Limits.digestsKept)
    #expect(!digests.contains { $0.id == oldestDigest }, "the migration's digest took the oldest one's place")
  }

  @Test("below the bounds nothing is pruned or left out, and the report says none")
  func belowBounds() throws {
    let dir = TemporaryDirectory("migkeep")
    defer { dir.remove() }
    let (_, engine) = try Self.workspace(dir, checkpoints: 10, receipts: 10, digests: 2)
    let report = try engine.importLegacyWorkspace(
      file: try copyFixture("workspace-v4.json", to: dir), backupDirectory: dir.appending("ws/legacy-backups"))
    #expect(report.pruned.isEmpty && report.olderThanKept.isEmpty)
    #expect(report.imported["checkpoints"] == 6 && report.imported["receipts"] == 3)
  }

  @Test("a file's record whose id the workspace holds is still refused when that record would be pruned")
  func clashStillRefused() throws {
    let dir = TemporaryDirectory("migkeep")
    defer { dir.remove() }
    let clash = try #require(UUID(uuidString: "8581DEBD-B1E9-4292-8A48-573A16432622"))
    let (store, engine) = try Self.workspace(
      dir, checkpoints: Limits.checkpointsKept, receipts: 0, digests: 0, firstCheckpointID: clash)
    let file = try copyFixture("workspace-v4.json", to: dir)
    do {
      _ = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"))
      Issue.record("the migration was not refused")
    } catch WorkspaceError.validation(let error) {
      #expect(error.message.contains("checkpoint \(clash.uuidString): a checkpoint with id \(clash.uuidString) already exists"), "\(error)")
    }
    let checkpoints = try store.read { try $0.listCheckpoints() }.map(\.id)
    #expect(checkpoints.count == Limits.checkpointsKept && checkpoints.first == clash, "nothing was pruned or imported")
  }
}
