import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-c, finding 3: `task_complete`, `task_reopen` and a `knowledge_capture` that
/// supersedes an item rewrote the rule-built summary of a handoff carrying it, and neither the
/// receipt's `changedIDs` ("the records the call created or changed") nor the approval named it.
@Suite("Receipts and approvals name the handoffs whose summary a call rewrites")
struct RewrittenHandoffReceiptTests {
  @Test("task_complete and task_reopen: the approval says which handoff summary changes; the receipt lists it")
  func taskStatusTools() async throws {
    let engine = makeEngine()
    let task = try engine.addTask(title: "Write the migration")
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Migration", taskIDs: [task.id])).handoff
    let executor = ToolExecutor(engine: engine)
    let approver = RecordingApprover(.approved(by: "test"))

    let done = await executor.execute(ToolCall(id: "c1", name: "task_complete", arguments: ["id": .string(task.id.uuidString)]), approver: approver)
    #expect(done.succeeded)
    #expect(done.receipt.changedIDs == [task.id, handoff.id])
    #expect(
      done.output?.text
        == "Completed task \(task.id.uuidString): \"Write the migration\". Rebuilt the rule-built summary of handoff(s) \(handoff.id.uuidString).")
    #expect(done.output?.structured.object?["rebuiltHandoffIDs"] == .array([.string(handoff.id.uuidString)]))
    let request = try #require(approver.requests.withLock { $0.first })
    #expect(request.alsoChanges == [#"rewrite the rule-built summary of handoff \#(handoff.id.uuidString) "Migration""#])
    #expect(request.alsoChangesSentence == #"It will also rewrite the rule-built summary of handoff \#(handoff.id.uuidString) "Migration"."#)
    let stored = try engine.store.read { try $0.snapshot() }.receipts.first { $0.callID == "c1" }
    #expect(stored?.changedIDs == [task.id, handoff.id])

    // Completed already: nothing is written, nobody is asked (review 23-a, 9), no id is listed.
    let again = await executor.execute(ToolCall(id: "c2", name: "task_complete", arguments: ["id": .string(task.id.uuidString)]), approver: approver)
    #expect(again.receipt.changedIDs.isEmpty)
    #expect(approver.requests.withLock { $0.count } == 1)
    #expect(again.output?.structured.object?["rebuiltHandoffIDs"] == nil)

    let reopened = await executor.execute(ToolCall(id: "c3", name: "task_reopen", arguments: ["id": .string(task.id.uuidString)]), approver: approver)
    #expect(reopened.receipt.changedIDs == [task.id, handoff.id])
    #expect(approver.requests.withLock { $0.count == 2 && $0[1].alsoChanges.count == 1 })
  }

  @Test("knowledge_capture that supersedes a carried goal lists the handoff after the item; one superseding nothing lists the item only")
  func captureSupersedes() async throws {
    let engine = makeEngine()
    let old = try engine.capture(CaptureRequest(kind: .goal, title: "Ship beta by January 15")).item
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Beta release prep", knowledgeIDs: [old.id])).handoff
    let executor = ToolExecutor(engine: engine)
    let approver = RecordingApprover(.approved(by: "test"))
    let call = ToolCall(
      id: "cap", name: "knowledge_capture",
      arguments: [
        "kind": "goal", "title": "Ship beta by February 1",
        "relationships": [["kind": "supersedes", "targetID": .string(old.id.uuidString)]],
      ])
    let r = await executor.execute(call, approver: approver)
    let item = try #require(r.output?.structured.object?["item"]?.object?["id"]?.string.flatMap(UUID.init(uuidString:)))
    #expect(r.receipt.changedIDs == [item, handoff.id])
    #expect(approver.requests.withLock { $0[0].alsoChanges } == [#"rewrite the rule-built summary of handoff \#(handoff.id.uuidString) "Beta release prep""#])
    #expect(try engine.handoff(id: handoff.id).summary.contains("(superseded)"))

    let plain = await executor.execute(
      ToolCall(id: "cap2", name: "knowledge_capture", arguments: ["kind": "fact", "title": "Unrelated"]), approver: approver)
    #expect(plain.receipt.changedIDs.count == 1)
    #expect(approver.requests.withLock { $0[1].alsoChanges }.isEmpty)
  }

  @Test("an approval names at most five handoffs one by one and counts the rest")
  func manyHandoffs() async throws {
    let engine = makeEngine()
    let task = try engine.addTask(title: "Write the migration")
    var handoffs: [UUID] = []
    for i in 1...7 { handoffs.append(try engine.createHandoff(HandoffRequest(focus: "Session \(i)", taskIDs: [task.id])).handoff.id) }
    let approver = RecordingApprover(.approved(by: "test"))
    let r = await ToolExecutor(engine: engine).execute(
      ToolCall(id: "c", name: "task_complete", arguments: ["id": .string(task.id.uuidString)]), approver: approver)
    let also = approver.requests.withLock { $0[0].alsoChanges }
    #expect(also.count == 6)
    #expect(also.last == "rewrite the rule-built summaries of 2 more handoff(s)")
    // Newest first, as handoffs are listed; every one is in the receipt.
    #expect(r.receipt.changedIDs == [task.id] + handoffs.reversed())
  }
}
