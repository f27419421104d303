import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-c, finding 3: a task completed or reopened, or an item superseded, rewrote the
/// rule-built summary of a handoff that carries it, and nothing said which handoff changed.
@Suite("Handoff summaries a change rewrites are reported")
struct SummaryRewriteReportTests {
  static func engine() -> KnowledgeEngine {
    KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
  }

  static func summary(_ engine: KnowledgeEngine, _ id: UUID) throws -> String { try engine.handoff(id: id).summary }

  @Test("completing and reopening a task name the handoffs whose rule-built summary they rewrote, foreseen before the write")
  func taskStatusChange() throws {
    let engine = Self.engine()
    let task = try engine.addTask(title: "Write the migration")
    let built = try engine.createHandoff(HandoffRequest(focus: "Migration", taskIDs: [task.id])).handoff
    let written = try engine.createHandoff(HandoffRequest(focus: "By hand", summary: "Mine.", taskIDs: [task.id])).handoff
    let elsewhere = try engine.createHandoff(HandoffRequest(focus: "Other")).handoff
    #expect(try Self.summary(engine, built.id).contains(#"Open tasks: "Write the migration"."#))

    // Foreseen from the stored records, writing nothing.
    let foreseen = try engine.handoffSummariesRewritten(bySettingTask: task.id, to: .completed)
    #expect(foreseen.map(\.id) == [built.id])
    #expect(try engine.handoffSummariesRewritten(bySettingTask: task.id, to: .open).isEmpty, "already open: no write")

    let completed = try engine.completeTaskReportingOutcome(id: task.id)
    #expect(completed.rebuiltHandoffIDs == [built.id])
    #expect(try Self.summary(engine, built.id).contains(#"Tasks marked completed: "Write the migration"."#))
    #expect(try Self.summary(engine, written.id) == "Mine.", "a written summary is kept and not reported")
    #expect(try engine.handoff(id: elsewhere.id) == elsewhere)

    let again = try engine.completeTaskReportingOutcome(id: task.id)
    #expect(again.wasAlreadyInStatus && again.rebuiltHandoffIDs.isEmpty)

    #expect(try engine.handoffSummariesRewritten(bySettingTask: task.id, to: .open).map(\.id) == [built.id])
    let reopened = try engine.reopenTaskReportingOutcome(id: task.id)
    #expect(reopened.rebuiltHandoffIDs == [built.id])
    #expect(try Self.summary(engine, built.id).contains(#"Open tasks: "Write the migration"."#))
    #expect(try engine.handoffSummariesRewritten(bySettingTask: UUID(), to: .completed).isEmpty, "an unknown task")
  }

  @Test("a capture that supersedes a carried item names the handoff it rewrote; one already marked is not rewritten")
  func captureSupersedes() throws {
    let engine = Self.engine()
    let old = try engine.capture(CaptureRequest(kind: .goal, title: "Ship beta by January 15")).item
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Beta release prep", knowledgeIDs: [old.id])).handoff
    let request = CaptureRequest(
      kind: .goal, title: "Ship beta by February 1", relationships: [KnowledgeRelationship(kind: .supersedes, targetID: old.id)])
    #expect(try engine.handoffSummariesRewritten(byCapturing: request).map(\.id) == [handoff.id])
    #expect(try engine.handoffSummariesRewritten(byCapturing: CaptureRequest(kind: .fact, title: "Unrelated")).isEmpty)

    let result = try engine.capture(request)
    #expect(result.rebuiltHandoffIDs == [handoff.id])
    #expect(try Self.summary(engine, handoff.id).contains(#"goal "Ship beta by January 15" (superseded)"#))

    // Marked already: a second successor changes nothing in the summary.
    let third = CaptureRequest(
      kind: .goal, title: "Ship beta by March 1", relationships: [KnowledgeRelationship(kind: .supersedes, targetID: old.id)])
    #expect(try engine.handoffSummariesRewritten(byCapturing: third).isEmpty)
    #expect(try engine.capture(third).rebuiltHandoffIDs.isEmpty)
  }

  @Test("an edit of a carried item's title names the handoff whose rule-built summary it rewrote")
  func editTitle() throws {
    let engine = Self.engine()
    let item = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite")).item
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Storage", knowledgeIDs: [item.id])).handoff
    #expect(try engine.editKnowledge(id: item.id, KnowledgeEdit(title: "Use SQLite 3")).rebuiltHandoffIDs == [handoff.id])
    #expect(try engine.editKnowledge(id: item.id, KnowledgeEdit(priority: .high)).rebuiltHandoffIDs.isEmpty)
  }
}
