import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Open point (s22): `dolphin knowledge delete` read the stored digest count from the store
/// itself to word its plan (`That is 3 of the 3 stored digest(s)`). The plan the library makes
/// now carries it (``DeletionPlan/storedDigestCount``), so every face words it from the plan.
@Suite("Deletion plans carry the stored digest count")
struct DeletionDigestCountTests {
  /// A workspace holding one decision, cited by `citing` saved digests, and a goal saved after
  /// them that no digest cites.
  static func workspace(citing: Int) throws -> (KnowledgeEngine, decision: KnowledgeItem, goal: KnowledgeItem) {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    let decision = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite WAL mode")).item
    for _ in 0..<citing { _ = try engine.saveDigest() }
    let goal = try engine.capture(CaptureRequest(kind: .goal, title: "Ship 1.0")).item
    return (engine, decision, goal)
  }

  @Test("planDeletion: the digests it deletes and how many are stored, for each kind of record")
  func planCarriesTheCount() throws {
    let (engine, decision, goal) = try Self.workspace(citing: 3)
    let plan = try engine.planDeletion(of: .knowledge(decision.id))
    #expect(plan.deletedDigestCount == 3)
    #expect(plan.storedDigestCount == 3)
    // One more digest, citing both: 4 stored, the goal in 1 of them.
    _ = try engine.saveDigest()
    #expect(try engine.planDeletion(of: .knowledge(decision.id)).storedDigestCount == 4)
    let goalPlan = try engine.planDeletion(of: .knowledge(goal.id))
    #expect(goalPlan.deletedDigestCount == 1 && goalPlan.storedDigestCount == 4)
    let task = try engine.addTask(title: "Write the soak test")
    #expect(try engine.planDeletion(of: .task(task.id)).storedDigestCount == 4)
    let memory = try engine.saveMemory(text: "The build machine has 2 cores").memory
    #expect(try engine.planDeletion(of: .memory(memory.id)).storedDigestCount == 4)
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Storage layer")).handoff
    #expect(try engine.planDeletion(of: .handoff(handoff.id)).storedDigestCount == 4)
    // In the plan's JSON, as `dolphin … delete --json` shows a plan it was not allowed to apply.
    let json = try StableJSON.string(goalPlan, pretty: false)
    #expect(json.contains(#""storedDigestCount":4"#), "\(json)")
  }

  @Test("a workspace without digests: 0 stored, none deleted")
  func none() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "SQLite 3.40 is installed")).item
    let plan = try engine.planDeletion(of: .knowledge(item.id))
    #expect(plan.storedDigestCount == 0 && plan.deletedDigestCount == 0)
  }

  @Test("the count is informational: a digest stored after the plan was shown, citing nothing it deletes, does not refuse it")
  func informational() throws {
    let (engine, _, _) = try Self.workspace(citing: 2)
    // An inactive handoff: no digest cites it.
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Storage layer")).handoff
    let plan = try engine.planDeletion(of: .handoff(handoff.id))
    #expect(plan.storedDigestCount == 2 && plan.deletedDigestCount == 0)
    _ = try engine.saveDigest()
    let again = try engine.planDeletion(of: .handoff(handoff.id))
    #expect(again.storedDigestCount == 3 && again.deletedDigestCount == 0, "the new digest cites nothing deleted")
    let report = try engine.apply(plan)
    #expect(report.removedIDs == [handoff.id])
  }

  @Test("planHandoffPruning: each plan carries the count; applying them is not refused for it")
  func pruning() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite WAL mode"))
    for focus in ["One", "Two", "Three"] { _ = try engine.createHandoff(HandoffRequest(focus: focus)) }
    _ = try engine.saveDigest()
    _ = try engine.saveDigest()
    let plans = try engine.planHandoffPruning(.keepNewest(1))
    #expect(plans.count == 2)
    #expect(plans.allSatisfy { $0.storedDigestCount == 2 })
    let reports = try engine.applyHandoffPruning(plans)
    #expect(reports.count == 2)
  }
}
