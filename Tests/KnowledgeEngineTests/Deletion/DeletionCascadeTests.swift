import ContinuityKit
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import KnowledgeEngine

@Suite("Deletion cascade")
struct DeletionCascadeTests {
  /// A clock that reads `start`, then `start + 60 s`, `start + 120 s`, … on each call.
  static func ticking(from start: Date) -> Environment {
    let calls = Mutex(0)
    return Environment(
      now: {
        let n = calls.withLock { value in
          value += 1
          return value
        }
        return start.addingTimeInterval(Double(n - 1) * 60)
      },
      makeID: { UUID() })
  }

  @Test("an item that loses a relationship to a deleted item gets a new revision and update time")
  func ownerRevisionBumps() throws {
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: Self.ticking(from: start))
    let target = try engine.capture(CaptureRequest(kind: .fact, title: "SQLite 3.40 is installed")).item
    let owner = try engine.capture(
      CaptureRequest(kind: .decision, title: "Use SQLite", relationships: [.init(kind: .dependsOn, targetID: target.id)])
    ).item
    let bystander = try engine.capture(CaptureRequest(kind: .goal, title: "Ship 1.0")).item
    #expect(owner.revision == 1)

    let plan = try engine.planDeletion(of: .knowledge(target.id))
    #expect(plan.changes.map(\.action).contains("removeRelationship"))
    _ = try engine.apply(plan)

    let after = try engine.knowledge(id: owner.id)
    #expect(after.relationships.isEmpty)
    #expect(after.revision == 2)
    #expect(after.updatedAt > owner.updatedAt)
    #expect(after.createdAt == owner.createdAt)
    // Items the deletion did not touch keep their revision and time.
    #expect(try engine.knowledge(id: bystander.id) == bystander)
    #expect(throws: WorkspaceError.self) { try engine.knowledge(id: target.id) }
  }

  /// A memory whose `knowledgeID` names an unrelated user decision (as an import by an earlier
  /// build let in), beside its real mirror, which still names the memory.
  static func crossedLink() throws -> (engine: KnowledgeEngine, saved: KnowledgeEngine.MemorySaveResult, decision: KnowledgeItem) {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let saved = try engine.saveMemory(text: "Prefers tabs over spaces")
    let decision = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite")).item
    try store.write { tx in try tx.setMemoryKnowledgeID(saved.memory.id, decision.id) }
    return (engine, saved, decision)
  }

  @Test("deleting a memory deletes only the item that mirrors it, and keeps (and shows) an item it is crossed with")
  func memoryDeletionKeepsCrossedItem() throws {
    let (engine, saved, decision) = try Self.crossedLink()
    let plan = try engine.planDeletion(of: .memory(saved.memory.id))
    #expect(plan.changes.filter { $0.action == "deleteMirror" }.map(\.recordID) == [saved.mirror.id])
    let kept = try #require(plan.changes.first { $0.action == "keepMismatchedLink" })
    #expect(kept.recordID == decision.id)
    #expect(kept.detail.contains("does not mirror this memory (source user, no memoryID)"), "\(kept.detail)")
    let report = try engine.apply(plan)
    #expect(!report.removedIDs.contains(decision.id))
    #expect(try engine.knowledge(id: decision.id) == decision)
    #expect(throws: WorkspaceError.self) { try engine.knowledge(id: saved.mirror.id) }
    #expect(try engine.store.read { try $0.referenceProblems() } == [])
  }

  @Test("deleting an item clears the link of the memory that names it, not of a memory that links elsewhere")
  func knowledgeDeletionClearsOnlyLinksToIt() throws {
    let (engine, saved, decision) = try Self.crossedLink()
    // The real mirror names the memory, but the memory links to the decision: its link stays.
    let mirrorPlan = try engine.planDeletion(of: .knowledge(saved.mirror.id))
    #expect(!mirrorPlan.changes.contains { $0.action == "clearMemoryLink" })
    _ = try engine.apply(mirrorPlan)
    #expect(try engine.memory(id: saved.memory.id).knowledgeID == decision.id)
    // The decision is what the memory links to: deleting it clears the link, leaving none dangling.
    let decisionPlan = try engine.planDeletion(of: .knowledge(decision.id))
    #expect(decisionPlan.changes.map(\.action).contains("clearMemoryLink"))
    _ = try engine.apply(decisionPlan)
    #expect(try engine.memory(id: saved.memory.id).knowledgeID == nil)
    #expect(try engine.store.read { try $0.referenceProblems() } == [])
  }

  @Test("a memory deletion with a proper mirror is unchanged: the mirror goes with it")
  func memoryDeletionWithMirror() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let saved = try engine.saveMemory(text: "Prefers tabs over spaces")
    let plan = try engine.planDeletion(of: .memory(saved.memory.id))
    #expect(plan.changes.map(\.action) == ["deleteMirror"])
    let report = try engine.apply(plan)
    #expect(Set(report.removedIDs) == [saved.memory.id, saved.mirror.id])
  }
}
