import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

@Suite("Task status changes")
struct TaskStatusChangeTests {
  static func engine() -> KnowledgeEngine {
    KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: DeletionCascadeTests.ticking(from: Date(timeIntervalSince1970: 1_790_000_000)))
  }

  @Test("reopening reports whether the task was open already; an open task is left as it was")
  func reopenReportsOutcome() throws {
    let engine = Self.engine()
    let task = try engine.addTask(title: "Write the README")
    let before = try engine.store.read { try $0.snapshot() }
    #expect(try engine.reopenTaskReportingOutcome(id: task.id) == TaskStatusChange(task: task, wasAlreadyInStatus: true))
    #expect(try engine.store.read { try $0.snapshot() } == before)

    let completed = try engine.completeTaskReportingOutcome(id: task.id)
    #expect(!completed.wasAlreadyInStatus && completed.task.status == .completed)
    let reopened = try engine.reopenTaskReportingOutcome(id: task.id)
    // As added, but for the date of its last change: the reopening's.
    var expected = task
    expected.updatedAt = reopened.task.updatedAt
    #expect(reopened.task.updatedAt > completed.task.updatedAt)
    #expect(reopened == TaskStatusChange(task: expected, wasAlreadyInStatus: false))
    #expect(try engine.store.read { try $0.task(id: task.id) } == expected)
  }

  @Test("completing reports whether the task was completed already, keeping the first completion time")
  func completeReportsOutcome() throws {
    let engine = Self.engine()
    let task = try engine.addTask(title: "Write the README")
    let first = try engine.completeTaskReportingOutcome(id: task.id)
    #expect(!first.wasAlreadyInStatus)
    #expect(try engine.completeTaskReportingOutcome(id: task.id) == TaskStatusChange(task: first.task, wasAlreadyInStatus: true))
  }

  @Test("an unknown task is not found, whichever the change")
  func unknownTask() {
    let engine = Self.engine()
    let id = UUID()
    #expect(throws: WorkspaceError.notFound(recordType: "task", id: id.uuidString)) { try engine.reopenTaskReportingOutcome(id: id) }
    #expect(throws: WorkspaceError.notFound(recordType: "task", id: id.uuidString)) { try engine.completeTaskReportingOutcome(id: id) }
  }
}
