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
}
