import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review 23-a, finding 9: the server asked the user to approve `task_complete` on a completed
/// task and `handoff_deactivate` with none active, then answered "nothing changed". A write that
/// will certainly change nothing is now answered from what is stored, before anyone is asked,
/// as a write that cannot succeed is refused before anyone is asked.
@Suite("MCP writes that change nothing are answered without asking")
struct UnchangedWriteTests {
  /// A workspace with a completed task "Ship it", an open task "Keep going" and, when
  /// `active`, an active handoff "Storage layer"; the arguments a case's call takes there.
  struct NoOp: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var tool: String
    var active: Bool
    var arguments: @Sendable (_ done: TaskItem, _ open: TaskItem, _ handoff: Handoff) -> JSONObject
    var text: @Sendable (_ done: TaskItem, _ open: TaskItem, _ handoff: Handoff) -> String
    var structured: @Sendable (_ done: TaskItem, _ open: TaskItem, _ handoff: Handoff) -> (String, JSONValue)
  }

  static let noOps = [
    NoOp(
      testDescription: "task_complete on a completed task", tool: "task_complete", active: true,
      arguments: { done, _, _ in ["id": .string(done.id.uuidString)] },
      text: { done, _, _ in
        "Task \(done.id.uuidString) was already completed at \(ISO8601.string(from: done.completedAt ?? .distantPast)); "
          + "nothing changed: \"Ship it\""
      },
      structured: { _, _, _ in ("alreadyCompleted", true) }),
    NoOp(
      testDescription: "task_reopen on an open task", tool: "task_reopen", active: true,
      arguments: { _, open, _ in ["id": .string(open.id.uuidString)] },
      text: { _, open, _ in "Task \(open.id.uuidString) was already open; nothing changed: \"Keep going\"" },
      structured: { _, _, _ in ("alreadyOpen", true) }),
    NoOp(
      testDescription: "handoff_deactivate with none active", tool: "handoff_deactivate", active: false,
      arguments: { _, _, _ in [:] }, text: { _, _, _ in "No handoff was active." },
      structured: { _, _, _ in ("deactivated", .null) }),
    NoOp(
      testDescription: "handoff_restore of the active handoff, by latest", tool: "handoff_restore", active: true,
      arguments: { _, _, _ in ["id": "latest"] },
      text: { _, _, h in "Restored handoff \(h.id.uuidString) as context only (nothing was re-run)" },
      structured: { _, _, h in ("previouslyActiveID", .null) }),
  ]

  static func workspace(active: Bool) throws -> (WorkspaceFixture, TaskItem, TaskItem, Handoff) {
    let fixture = WorkspaceFixture()
    let shipped = try fixture.engine.addTask(title: "Ship it")
    let done = try fixture.engine.completeTaskReportingOutcome(id: shipped.id).task
    let open = try fixture.engine.addTask(title: "Keep going")
    let handoff = try fixture.engine.createHandoff(HandoffRequest(focus: "Storage layer", taskIDs: [open.id])).handoff
    if active { _ = try fixture.engine.restoreHandoff(id: handoff.id) }
    return (fixture, done, open, handoff)
  }

  /// The workspace without its receipts: what a call that changes nothing must leave as it was.
  static func records(_ fixture: WorkspaceFixture) throws -> AssistantWorkspace {
    var snapshot = try fixture.engine.store.read { try $0.snapshot() }
    snapshot.receipts = []
    return snapshot
  }

  @Test("answered without an approval request, with the nothing-changed answer and a succeeded receipt", arguments: noOps)
  func answeredWithoutAsking(_ c: NoOp) async throws {
    let (fixture, done, open, handoff) = try Self.workspace(active: c.active)
    let before = try Self.records(fixture)
    let client = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: c.tool, arguments: c.arguments(done, open, handoff), context: client.context())
    #expect(client.requests.isEmpty, "asked: \(client.requests.map(\.message))")
    #expect(!result.isError, "\(result.text)")
    let text = c.text(done, open, handoff)
    #expect(result.text == text || result.text.hasPrefix(text), "\(result.text)")
    let (key, value) = c.structured(done, open, handoff)
    #expect(result.structuredContent?[key] == value || (value == .null && result.structuredContent?[key] == nil), "\(result.structuredContent ?? [:])")
    #expect(try Self.records(fixture) == before, "nothing changed")
    let receipt = try #require(try fixture.receipts.last)
    #expect(try fixture.receipts.count == 1)
    #expect(receipt.tool == c.tool && receipt.risk == "localWrite")
    #expect(receipt.outcome == .succeeded && receipt.approval == "notRequired" && receipt.changedIDs.isEmpty, "\(receipt)")
  }

  @Test("the same answer as the write gives when it is approved and runs, restore adding that nothing changed", arguments: noOps)
  func sameAnswerAsAfterApproval(_ c: NoOp) async throws {
    let unchecked = ToolRegistry(
      ToolRegistry.standard.tools.map { tool in
        var tool = tool
        tool.unchangedAnswer = nil
        return tool
      })
    let approving: @Sendable () -> MCPElicitationResult = { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let (asked, done, open, handoff) = try Self.workspace(active: c.active)
    let askedClient = FakeElicitation(approving)
    let afterApproval = await RegistryToolProvider(registry: unchecked, workspace: asked.workspace).callTool(
      name: c.tool, arguments: c.arguments(done, open, handoff), context: askedClient.context())
    #expect(askedClient.requests.count == 1, "without the check, the call is asked for")

    let (fixture, _, _, _) = try Self.workspace(active: c.active)
    let client = FakeElicitation(approving)
    let answered = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: c.tool, arguments: c.arguments(done, open, handoff), context: client.context())
    #expect(client.requests.isEmpty)
    if c.tool == "handoff_restore" {
      #expect(answered.text == afterApproval.text + "\nIt was the active handoff already; nothing changed.", "\(answered.text)")
    } else {
      #expect(answered.text == afterApproval.text)
    }
    #expect(answered.structuredContent == afterApproval.structuredContent)
    #expect(try fixture.receipts.last?.arguments == asked.receipts.last?.arguments)
  }

  @Test("a write that changes something is still asked for; one that changes nothing is answered under any write policy")
  func changingWritesStillAsk() async throws {
    let (fixture, done, open, _) = try Self.workspace(active: true)
    let client = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let provider = RegistryToolProvider(workspace: fixture.workspace)
    let completed = await provider.callTool(name: "task_complete", arguments: ["id": .string(open.id.uuidString)], context: client.context())
    #expect(!completed.isError && client.requests.count == 1, "\(completed.text)")
    let deactivated = await provider.callTool(name: "handoff_deactivate", arguments: [:], context: client.context())
    #expect(!deactivated.isError && client.requests.count == 2, "\(deactivated.text)")
    #expect(try fixture.receipts.map(\.approval) == ["mcp:elicitation", "mcp:elicitation"])

    // A client that cannot ask, and a server that denies writes: nothing to write, nothing refused.
    for writes in [MCPWritePolicy.ask, .deny] {
      let answer = await RegistryToolProvider(workspace: fixture.workspace, writes: writes).callTool(
        name: "task_complete", arguments: ["id": .string(done.id.uuidString)],
        context: client.context(canElicit: writes == .deny))
      #expect(!answer.isError && answer.text.contains("was already completed"), "\(writes): \(answer.text)")
    }
    let stillOpen = await RegistryToolProvider(workspace: fixture.workspace, writes: .deny).callTool(
      name: "task_reopen", arguments: ["id": .string(done.id.uuidString)], context: client.context())
    #expect(stillOpen.isError, "a write that would change something is still refused under --writes deny")
    #expect(client.requests.count == 2)
  }
}
