import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

@Suite("Project review")
struct ProjectReviewTests {
  @Test("the review combines digest sections, top insights and task status, with resolvable evidence")
  func review() throws {
    let store = try DigestFixture.store(order: Array(0..<9))
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment(start: DigestFixture.t0.addingTimeInterval(86_400)))
    let r = try engine.review()
    #expect(r.method == "rule-based")
    #expect(r.digestAlgorithm == "rule-based-digest")
    let context = try engine.projectContext().sections
    #expect(r.decisions == context.decisions)
    #expect(r.goals == context.goals)
    #expect(r.openTasks == context.openTasks)
    #expect(r.priorities == context.priorities)
    #expect(r.questions == context.questions)
    #expect(r.tasks.open == 2)
    #expect(r.tasks.completed == 1)
    #expect(r.tasks.oldestOpen?.id == sequentialID(101))
    let all = try engine.insights()
    #expect(r.insightTotal == all.total)
    #expect(r.insights == Array(all.insights.prefix(KnowledgeEngine.reviewInsightCount)))
    #expect(!r.insights.isEmpty)
    try store.read { tx in
      for id in r.evidenceIDs {
        let found = try tx.knowledge(id: id) != nil || tx.task(id: id) != nil || tx.handoff(id: id) != nil
        #expect(found, "\(id) does not resolve")
      }
    }
  }

  @Test("an empty workspace gives an empty review")
  func empty() throws {
    let r = try KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory()).review()
    #expect(r.decisions.isEmpty && r.openTasks.isEmpty && r.insights.isEmpty)
    #expect(r.tasks == TaskStatusSummary(open: 0, completed: 0, oldestOpen: nil))
  }
}
