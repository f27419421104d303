import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review 28-d, 4: `knowledge_get` given a task's id, `task_complete` given a knowledge item's
/// id (and the other tools taking one record's id) said only "no knowledge item has the id …",
/// while the CLI named the record that has it and the command for it, and `knowledge_search`
/// named the tool. Every such tool now says whose id it is and which tool call takes or shows
/// it; the advice, followed, works.
@Suite("MCP tools given another record type's id name its owner and the tool for it")
struct WrongRecordIDToolTests {
  let fixture = WorkspaceFixture()

  func call(_ name: String, _ arguments: JSONObject) async -> MCPToolResult {
    await RegistryToolProvider(workspace: fixture.workspace, writes: .allow).callTool(
      name: name, arguments: arguments, context: FakeElicitation { MCPElicitationResult(action: .accept) }.context())
  }

  /// The arguments of a tool call as a note names it: `task_list {"status": "all", …}`.
  static func arguments(after tool: String, in text: String) throws -> JSONObject {
    let start = try #require(text.range(of: tool + " {")).upperBound
    let end = try #require(text[start...].firstIndex(of: "}"))
    let json = "{" + text[start..<end] + "}"
    return try #require(try JSONValue(parsing: json).object, "\(json)")
  }

  @Test("knowledge_get, task_complete, task_reopen, handoff_get and handoff_restore: whose id, and the call that takes it")
  func namesTheOwner() async throws {
    let item = try fixture.capture(.decision, "Use WAL mode")
    let engine = fixture.engine
    _ = try engine.addTask(title: "Write the release notes")
    let task = try engine.addTask(title: "Benchmark WAL")
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Storage work")).handoff
    let (k, t, h) = (item.id.uuidString, task.id.uuidString, handoff.id.uuidString)
    let offset = try #require(try engine.recordLocation(of: task.id)?.listPosition) - 1
    let taskPage = "task_list {\"status\": \"all\", \"offset\": \(offset), \"limit\": 1} shows it"

    let getTask = await call("knowledge_get", ["id": .string(t)])
    #expect(getTask.isError)
    #expect(getTask.text == "knowledge_get failed: no knowledge item has the id \(t) (it is a task's id; \(taskPage))", "\(getTask.text)")
    // Followed, the advice shows that task.
    let page = await call("task_list", try Self.arguments(after: "task_list", in: getTask.text))
    #expect(page.structuredContent?["tasks"]?.array?.map { $0["id"] } == [.string(t)], "\(page.text)")

    let completeItem = await call("task_complete", ["id": .string(k)])
    #expect(
      completeItem.text == "task_complete failed: no task has the id \(k) (it is a knowledge item's id; knowledge_get {\"id\": \"\(k)\"} shows it)",
      "\(completeItem.text)")
    let shown = await call("knowledge_get", try Self.arguments(after: "knowledge_get", in: completeItem.text))
    #expect(!shown.isError && shown.structuredContent?["item"]?["id"] == .string(k), "\(shown.text)")

    // The same verb for the owner's type: knowledge_get ↔ handoff_get.
    let getHandoff = await call("knowledge_get", ["id": .string(h)])
    #expect(getHandoff.text.hasSuffix("(it is a handoff's id; give it to handoff_get {\"id\": \"\(h)\"})"), "\(getHandoff.text)")
    let handoffShown = await call("handoff_get", try Self.arguments(after: "handoff_get", in: getHandoff.text))
    #expect(!handoffShown.isError && handoffShown.structuredContent?["handoff"]?["id"] == .string(h), "\(handoffShown.text)")
    let handoffGetItem = await call("handoff_get", ["id": .string(k)])
    #expect(handoffGetItem.text.hasSuffix("(it is a knowledge item's id; give it to knowledge_get {\"id\": \"\(k)\"})"), "\(handoffGetItem.text)")

    let restoreTask = await call("handoff_restore", ["id": .string(t)])
    #expect(restoreTask.text.hasSuffix("no handoff has the id \(t) (it is a task's id; \(taskPage))"), "\(restoreTask.text)")
    let reopenHandoff = await call("task_reopen", ["id": .string(h)])
    #expect(reopenHandoff.text.hasSuffix("no task has the id \(h) (it is a handoff's id; handoff_get {\"id\": \"\(h)\"} shows it)"), "\(reopenHandoff.text)")

    // A record no tool shows by its id: said so. An id no record has: no note, as before.
    let receipt = try #require(try fixture.receipts.first).id.uuidString
    let getReceipt = await call("knowledge_get", ["id": .string(receipt)])
    #expect(
      getReceipt.text.hasSuffix("(it is an activity receipt's id; no tool shows an activity receipt by its id)"), "\(getReceipt.text)")
    let none = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    #expect(await call("task_complete", ["id": .string(none)]).text == "task_complete failed: no task has the id \(none)")
    // Still a not-found failure, recorded as such, and nothing changed.
    #expect(getTask.structuredContent?["error"]?["kind"] == "failed")
    #expect(try engine.task(id: task.id).status == .open)
  }
}
