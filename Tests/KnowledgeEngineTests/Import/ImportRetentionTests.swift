import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-b, F1: a default `import` of older digests, messages, receipts or checkpoints into a
/// workspace near the bound pruned the workspace's own newest records to make room for them, as
/// the store dropped the earliest stored. "The newest N are kept" now holds by date across the
/// workspace's records and the file's, at import and at every later write.
struct ImportRetentionTests {
  static let day: TimeInterval = 86_400
  static let now = Date(timeIntervalSince1970: 1_790_000_000)

  static func checkpoint(_ n: Int, _ date: Date) -> RunCheckpoint {
    RunCheckpoint(id: sequentialID(n), runID: sequentialID(1), step: n, state: "finished", createdAt: date)
  }

  /// A store holding `count` checkpoints numbered from 10,000, dated `date` plus a second each.
  static func store(holding count: Int, from date: Date) throws -> (SQLiteWorkspaceStore, KnowledgeEngine) {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for i in 0..<count { try tx.insertCheckpoint(checkpoint(10_000 + i, date.addingTimeInterval(Double(i)))) }
    }
    return (store, KnowledgeEngine(store: store, environment: fixedEnvironment(start: now)))
  }

  static func document(checkpoints: [RunCheckpoint]) -> WorkspaceExport {
    WorkspaceExport(
      exportedAt: now, generator: "dolphin test", workspace: AssistantWorkspace(checkpoints: checkpoints), quarantine: [])
  }

  @Test("older records of the file are left out, not the workspace's newest; the plan and the report say how many")
  func olderFileRecordsLeftOut() throws {
    let (store, engine) = try Self.store(holding: 2, from: Self.now)
    let file = (0..<Limits.checkpointsKept).map { Self.checkpoint($0 + 1, Self.now.addingTimeInterval(-365 * Self.day + Double($0))) }
    let plan = try engine.planImport(Self.document(checkpoints: file), source: "old.json")
    let c = try #require(plan.collections.first { $0.name == "checkpoints" })
    #expect(c.new == 1_000 && c.pruned == 0 && c.olderThanKept == 2, "\(c)")
    #expect(plan.recordsToWrite == 998)
    let report = try engine.applyImport(Self.document(checkpoints: file), source: "old.json", expecting: plan)
    #expect(report.written["checkpoints"] == 998)
    let kept = try store.read { tx in try tx.listCheckpoints() }.map(\.id)
    #expect(kept.count == 1_000)
    #expect(kept.contains(sequentialID(10_000)) && kept.contains(sequentialID(10_001)), "the workspace's own are kept")
    #expect(!kept.contains(sequentialID(1)) && !kept.contains(sequentialID(2)), "the file's two oldest are left out")
  }

  @Test("newer records of the file replace the workspace's oldest, which the plan counts as pruned")
  func newerFileRecordsPruneOldest() throws {
    let (store, engine) = try Self.store(holding: 1_000, from: Self.now.addingTimeInterval(-Self.day))
    let file = (0..<3).map { Self.checkpoint($0 + 1, Self.now.addingTimeInterval(Double($0))) }
    let plan = try engine.planImport(Self.document(checkpoints: file), source: "new.json")
    let c = try #require(plan.collections.first { $0.name == "checkpoints" })
    #expect(c.pruned == 3 && c.olderThanKept == 0, "\(c)")
    _ = try engine.applyImport(Self.document(checkpoints: file), source: "new.json")
    let kept = Set(try store.read { tx in try tx.listCheckpoints() }.map(\.id))
    #expect(kept.count == 1_000)
    #expect((10_000..<10_003).allSatisfy { !kept.contains(sequentialID($0)) }, "the three oldest went")
    #expect((1...3).allSatisfy { kept.contains(sequentialID($0)) })
  }

  @Test("at equal dates the file's records count as newer (stored after), in the order the import stores them")
  func equalDates() throws {
    let (store, engine) = try Self.store(holding: 0, from: Self.now)
    try store.write { tx in
      for i in 0..<1_000 { try tx.insertCheckpoint(Self.checkpoint(10_000 + i, Self.now)) }
    }
    let file = [Self.checkpoint(1, Self.now), Self.checkpoint(2, Self.now.addingTimeInterval(-1))]
    let plan = try engine.planImport(Self.document(checkpoints: file), source: "tie.json")
    let c = try #require(plan.collections.first { $0.name == "checkpoints" })
    #expect(c.pruned == 1 && c.olderThanKept == 1, "\(c)")
    _ = try engine.applyImport(Self.document(checkpoints: file), source: "tie.json")
    let kept = Set(try store.read { tx in try tx.listCheckpoints() }.map(\.id))
    #expect(kept.contains(sequentialID(1)) && !kept.contains(sequentialID(2)) && !kept.contains(sequentialID(10_000)))
  }

  @Test("a later write keeps the newest by date too: an import's older records go first, never the one just stored")
  func laterWritesPruneByDate() throws {
    let (store, _) = try Self.store(holding: 999, from: Self.now)
    // As an import of older records leaves it: stored last, dated first.
    try store.write { tx in try tx.insertCheckpoint(Self.checkpoint(1, Self.now.addingTimeInterval(-Self.day))) }
    try store.write { tx in try tx.insertCheckpoint(Self.checkpoint(2, Self.now.addingTimeInterval(Self.day))) }
    var kept = Set(try store.read { tx in try tx.listCheckpoints() }.map(\.id))
    #expect(!kept.contains(sequentialID(1)) && kept.contains(sequentialID(10_000)) && kept.contains(sequentialID(2)))
    // A write under a clock set back before everything kept is kept itself; the oldest other goes.
    try store.write { tx in try tx.insertCheckpoint(Self.checkpoint(3, Self.now.addingTimeInterval(-2 * Self.day))) }
    kept = Set(try store.read { tx in try tx.listCheckpoints() }.map(\.id))
    #expect(kept.count == 1_000 && kept.contains(sequentialID(3)) && !kept.contains(sequentialID(10_000)))
  }

  @Test("a record the import replaces keeps its place whatever the file dates it")
  func replacedKeepsItsPlace() throws {
    let (store, engine) = try Self.store(holding: 1_000, from: Self.now)
    var changed = Self.checkpoint(10_500, Self.now.addingTimeInterval(-Self.day))
    changed.note = "edited"
    // Newer than every stored one, within the day ahead of the clock an import accepts (review
    // 19-d, #1: a checkpoint dated further ahead is refused).
    let file = [changed, Self.checkpoint(1, Self.now.addingTimeInterval(Self.day / 2))]
    let plan = try engine.planImport(Self.document(checkpoints: file), policy: .replace, source: "r.json")
    let c = try #require(plan.collections.first { $0.name == "checkpoints" })
    #expect(c.conflicting == 1 && c.pruned == 1 && c.olderThanKept == 0, "\(c)")
    _ = try engine.applyImport(Self.document(checkpoints: file), policy: .replace, source: "r.json")
    let kept = try store.read { tx in try tx.listCheckpoints() }
    #expect(kept.count == 1_000 && kept.contains(changed) && !kept.contains { $0.id == sequentialID(10_000) })
  }
}
