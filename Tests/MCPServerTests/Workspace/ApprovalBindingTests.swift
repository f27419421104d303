import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review 31-a, 1: an approval covers the call as its dialog showed it. `handoff_restore
/// {"id":"latest"}` named handoff F in the dialog; a handoff created while it was open became
/// `latest`, and the approved call restored that one. Each case here changes the workspace from
/// inside the client's answer, while the approval is pending, as a second client or the CLI would.
@Suite("MCP approvals are bound to what the dialog showed")
struct ApprovalBindingTests {
  /// A client that runs `meanwhile` while its dialog is open, then approves.
  static func approving(after meanwhile: @escaping @Sendable () throws -> Void) -> FakeElicitation {
    FakeElicitation {
      try meanwhile()
      return MCPElicitationResult(action: .accept, content: ["approve": true])
    }
  }

  static func handoff(_ n: Int, _ focus: String, secondsAfter start: Double) -> Handoff {
    Handoff(
      id: sequentialID(1_000 + n), focus: focus, summary: "", nextSteps: [], knowledgeIDs: [], taskIDs: [],
      recentExcerpts: [], createdAt: Date(timeIntervalSince1970: 1_790_000_000 + start))
  }

  /// The error object of a failed call.
  static func error(_ result: MCPToolResult) throws -> JSONValue {
    try #require(result.structuredContent?["error"])
  }

  @Test("handoff_restore latest: a handoff created while the dialog was open is not restored in place of the one it named")
  func latestChangedWhilePending() async throws {
    let fixture = WorkspaceFixture()
    let named = Self.handoff(1, "F", secondsAfter: 10)
    let newer = Self.handoff(2, "Newer one", secondsAfter: 20)
    try fixture.insert(named)
    let client = Self.approving { try fixture.insert(newer) }
    let result = await RegistryToolProvider(workspace: fixture.workspace)
      .callTool(name: "handoff_restore", arguments: ["id": "latest"], context: client.context())

    #expect(client.requests.count == 1)
    #expect(
      client.requests[0].message.contains(
        "It will also mark handoff \(named.id.uuidString) \"F\" active, the one \"latest\" names now."))
    #expect(result.isError)
    let error = try Self.error(result)
    #expect(error["kind"] == "changedWhilePending", "\(error)")
    #expect(
      result.text.hasPrefix(
        "handoff_restore was not run: the workspace changed while the approval was pending: the approval request said it "
          + "will also mark handoff \(named.id.uuidString) \"F\" active, the one \"latest\" names now; it would now mark "
          + "handoff \(newer.id.uuidString) \"Newer one\" active, the one \"latest\" names now; nothing was written. "
          + "Send the call again to be asked about what it would do now"),
      "\(result.text)")
    #expect(try fixture.engine.activeHandoffID() == nil, "neither handoff was marked active")
    // The receipt says what happened: approved, not run, nothing changed.
    let receipt = try #require(try fixture.receipts.last)
    #expect(receipt.outcome == .failed && receipt.approval == RegistryToolProvider.elicitationApproval)
    #expect(receipt.changedIDs.isEmpty)
    #expect(receipt.arguments == #"{"id":"latest"}"#)
    #expect(receipt.message.hasPrefix("the workspace changed while the approval was pending: "), "\(receipt.message)")
  }

  @Test("handoff_restore by a prefix: the handoff the dialog named, deleted while it was open, is said to be deleted")
  func namedHandoffDeletedWhilePending() async throws {
    let fixture = WorkspaceFixture()
    let named = Self.handoff(1, "F", secondsAfter: 10)
    try fixture.insert(named)
    let engine = fixture.engine
    let client = Self.approving { _ = try engine.apply(try engine.planDeletion(of: .handoff(named.id))) }
    let prefix = String(named.id.uuidString.prefix(8))
    let result = await RegistryToolProvider(workspace: fixture.workspace)
      .callTool(name: "handoff_restore", arguments: ["id": .string(prefix)], context: client.context())
    #expect(result.isError)
    #expect(try Self.error(result)["kind"] == "changedWhilePending")
    #expect(
      result.text.contains(
        "the workspace changed while the approval was pending: a record it names was deleted meanwhile (no handoff has "
          + "the id \(named.id.uuidString)); nothing was written"),
      "\(result.text)")
    #expect(try fixture.engine.activeHandoffID() == nil)
    #expect(try fixture.receipts.last?.outcome == .failed)
  }

  @Test("handoff_restore latest with nothing changed meanwhile runs on the handoff the dialog named")
  func latestUnchangedRuns() async throws {
    let fixture = WorkspaceFixture()
    let named = Self.handoff(1, "F", secondsAfter: 10)
    try fixture.insert(named)
    try fixture.insert(Self.handoff(2, "Older", secondsAfter: 5))
    let client = Self.approving {}
    let result = await RegistryToolProvider(workspace: fixture.workspace)
      .callTool(name: "handoff_restore", arguments: ["id": "latest"], context: client.context())
    #expect(!result.isError, "\(result.text)")
    #expect(try fixture.engine.activeHandoffID() == named.id)
    let receipt = try #require(try fixture.receipts.last)
    #expect(receipt.outcome == .succeeded && receipt.changedIDs == [named.id])
  }

  @Test("handoff_restore: the handoff the dialog named, restored by another client meanwhile, is answered as unchanged")
  func restoredElsewhereWhilePending() async throws {
    let fixture = WorkspaceFixture()
    let named = Self.handoff(1, "F", secondsAfter: 10)
    try fixture.insert(named)
    let engine = fixture.engine
    let client = Self.approving { _ = try engine.restoreHandoff(id: named.id) }
    let result = await RegistryToolProvider(workspace: fixture.workspace)
      .callTool(name: "handoff_restore", arguments: ["id": "latest"], context: client.context())
    #expect(!result.isError, "\(result.text)")
    #expect(result.text.contains("It was the active handoff already; nothing changed."), "\(result.text)")
    let receipt = try #require(try fixture.receipts.last)
    #expect(receipt.outcome == .succeeded && receipt.changedIDs.isEmpty)
    #expect(receipt.approval == RegistryToolProvider.elicitationApproval, "the approval that was given is kept")
  }

  @Test("handoff_create activate: another handoff made active while the dialog was open refuses the call")
  func activeHandoffChangedWhilePending() async throws {
    let fixture = WorkspaceFixture()
    let replaced = Self.handoff(1, "Alpha", secondsAfter: 10)
    let other = Self.handoff(2, "Beta", secondsAfter: 20)
    try fixture.insert(replaced, active: true)
    try fixture.insert(other)
    let engine = fixture.engine
    let client = Self.approving { _ = try engine.restoreHandoff(id: other.id) }
    let result = await RegistryToolProvider(workspace: fixture.workspace)
      .callTool(name: "handoff_create", arguments: ["focus": "Gamma", "activate": true], context: client.context())
    #expect(
      client.requests.first?.message.contains(
        "It will also mark the new handoff active in place of handoff \(replaced.id.uuidString) \"Alpha\".") == true)
    #expect(result.isError)
    #expect(try Self.error(result)["kind"] == "changedWhilePending")
    #expect(
      result.text.contains(
        "the approval request said it will also mark the new handoff active in place of handoff \(replaced.id.uuidString) "
          + "\"Alpha\"; it would now mark the new handoff active in place of handoff \(other.id.uuidString) \"Beta\"; "
          + "nothing was written"),
      "\(result.text)")
    #expect(try fixture.engine.listHandoffs().handoffs.map(\.focus).sorted() == ["Alpha", "Beta"], "no handoff was created")
    #expect(try fixture.engine.activeHandoffID() == other.id)
  }

  @Test("task_complete: a handoff created meanwhile whose summary the call would also rewrite refuses the call")
  func summaryRewriteAddedWhilePending() async throws {
    let fixture = WorkspaceFixture()
    let task = try fixture.engine.addTask(title: "Ship it")
    let engine = fixture.engine
    let client = Self.approving { _ = try engine.createHandoff(HandoffRequest(focus: "Release", taskIDs: [task.id])) }
    let result = await RegistryToolProvider(workspace: fixture.workspace)
      .callTool(name: "task_complete", arguments: ["id": .string(task.id.uuidString)], context: client.context())
    #expect(client.requests.first?.message.contains("It will also") == false, "nothing else was shown")
    #expect(result.isError)
    #expect(
      result.text.contains(
        "the approval request named nothing else it would change; it would now rewrite the rule-built summary of handoff "),
      "\(result.text)")
    #expect(try fixture.engine.task(id: task.id).status == .open, "the task was not completed")
  }

  @Test("task_complete: a task completed elsewhere while the dialog was open is answered as unchanged, not refused")
  func completedElsewhereWhilePending() async throws {
    let fixture = WorkspaceFixture()
    let task = try fixture.engine.addTask(title: "Ship it")
    let engine = fixture.engine
    let client = Self.approving { _ = try engine.completeTaskReportingOutcome(id: task.id) }
    let result = await RegistryToolProvider(workspace: fixture.workspace)
      .callTool(name: "task_complete", arguments: ["id": .string(task.id.uuidString)], context: client.context())
    #expect(!result.isError, "\(result.text)")
    #expect(result.structuredContent?["alreadyCompleted"] == true)
    let receipt = try #require(try fixture.receipts.last)
    #expect(receipt.outcome == .succeeded && receipt.changedIDs.isEmpty && receipt.approval == RegistryToolProvider.elicitationApproval)
  }
}
