import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 31-a, 1, on the `dolphin ask` path: the terminal prompt names the handoff `latest`
/// names when it asks; a handoff created before the answer is typed must not be restored in its
/// place.
@Suite("ask approvals are bound to what the prompt showed")
struct ApprovalBindingRunTests {
  static func handoff(_ n: Int, _ focus: String, secondsAfter start: Double) -> Handoff {
    Handoff(
      id: sequentialID(1_000 + n), focus: focus, summary: "", nextSteps: [], knowledgeIDs: [], taskIDs: [],
      recentExcerpts: [], createdAt: Date(timeIntervalSince1970: 1_790_000_000 + start))
  }

  @Test("/restore latest: a newer handoff created while the prompt waited refuses the call; nothing is restored")
  func restoreLatestChangedWhilePrompting() async throws {
    let engine = makeEngine()
    let named = Self.handoff(1, "F", secondsAfter: 10)
    let newer = Self.handoff(2, "Newer one", secondsAfter: 20)
    try engine.store.write { tx in try tx.insertHandoff(named) }
    let approver = ClosureApprovalProvider { request in
      #expect(request.alsoChanges == ["mark handoff \(named.id.uuidString) \"F\" active, the one \"latest\" names now"])
      _ = try? engine.store.write { tx in try tx.insertHandoff(newer) }
      return .approved(by: "user")
    }
    let reply = try await AssistantSession(engine: engine).ask("/restore latest", approver: approver)
    let call = try #require(reply.run.calls.first)
    guard case .changedWhilePending(let tool, let change)? = call.error else {
      Issue.record("expected changedWhilePending, got \(String(describing: call.error))")
      return
    }
    #expect(tool == "handoff_restore")
    #expect(change.contains("it would now mark handoff \(newer.id.uuidString) \"Newer one\" active"), "\(change)")
    #expect(call.receipt.outcome == .failed && call.receipt.approval == "user" && call.receipt.changedIDs.isEmpty)
    #expect(reply.run.answer.contains("the workspace changed while the approval was pending"), "\(reply.run.answer)")
    #expect(try engine.activeHandoffID() == nil)
  }

  @Test("an approved call whose workspace did not change runs on the resolved id, and the receipt names it")
  func restoreLatestUnchanged() async throws {
    let engine = makeEngine()
    let named = Self.handoff(1, "F", secondsAfter: 10)
    try engine.store.write { tx in try tx.insertHandoff(named) }
    let reply = try await AssistantSession(engine: engine).ask("/restore latest", approver: StaticApprovalPolicy(.approved(by: "user")))
    let call = try #require(reply.run.calls.first)
    #expect(call.error == nil && call.receipt.outcome == .succeeded && call.receipt.changedIDs == [named.id])
    #expect(call.receipt.arguments == #"{"id":"latest"}"#, "the receipt records the call as given")
    #expect(try engine.activeHandoffID() == named.id)
  }
}
