import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 28-a, 2: `knowledge_search` given a record's UUID said only that none of its pieces
/// occurs anywhere; the CLI pointed it to the command that shows the record. The tools now say
/// it too, in the text and as `idLookup` in the structured result, naming the tool to call.
@Suite("The search tools point a record's id to the tool that shows it")
struct SearchIDLookupToolTests {
  static func call(_ executor: ToolExecutor, _ name: String, _ arguments: JSONValue) async throws -> (String, JSONObject) {
    let r = await executor.execute(ToolCall(id: "c", name: name, arguments: arguments), approver: StaticApprovalPolicy.allow)
    let output = try #require(r.output, "\(r.failureMessage ?? "")")
    return (output.text, output.structured.object ?? [:])
  }

  @Test("knowledge_search, memory_search and task_search: the record's type and tool call, or that no record has the id")
  func pointers() async throws {
    let engine = makeEngine()
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "WAL is on")).item
    let tasks = try (1...3).map { try engine.addTask(title: "Task \($0)") }
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Storage")).handoff
    let executor = ToolExecutor(engine: engine)

    let (text, structured) = try await Self.call(executor, "knowledge_search", ["query": .string(item.id.uuidString)])
    let u = item.id.uuidString
    let expected = "\(u) is a knowledge item's id; search matches words, not ids: knowledge_get {\"id\": \"\(u)\"} shows it"
    #expect(text.contains(expected + "."), "\(text)")
    let lookup = try #require(structured["idLookup"]?.object, "\(structured.keys.sorted())")
    #expect(lookup["id"] == .string(u))
    #expect(lookup["recordType"] == "knowledge")
    #expect(lookup["shownBy"] == .string("knowledge_get {\"id\": \"\(u)\"}"))
    #expect(lookup["message"] == .string(expected))

    // A task: the task_list page that holds it alone (the second in list order).
    let (taskText, taskStructured) = try await Self.call(executor, "memory_search", ["query": .string(tasks[1].id.uuidString)])
    let page = "task_list {\"status\": \"all\", \"offset\": 1, \"limit\": 1}"
    #expect(taskStructured["idLookup"]?["shownBy"] == .string(page), "\(taskStructured)")
    #expect(taskText.contains("is a task's id; search matches words, not ids: \(page) shows it."), "\(taskText)")
    // Followed, the advice shows that task.
    let (_, listed) = try await Self.call(executor, "task_list", ["status": "all", "offset": 1, "limit": 1])
    #expect(listed["tasks"]?.array?.first?["id"] == .string(tasks[1].id.uuidString), "\(listed)")

    let (_, byTask) = try await Self.call(executor, "task_search", ["query": .string(handoff.id.uuidString)])
    #expect(byTask["idLookup"]?["recordType"] == "handoff")
    #expect(byTask["idLookup"]?["shownBy"] == .string("handoff_get {\"id\": \"\(handoff.id.uuidString)\"}"))

    let none = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    let (noneText, noneStructured) = try await Self.call(executor, "knowledge_search", ["query": .string(none)])
    #expect(noneText.contains("No record in this workspace has the id \(none); search matches words, not ids."), "\(noneText)")
    #expect(noneStructured["idLookup"]?["recordType"] == nil && noneStructured["idLookup"]?["shownBy"] == nil)
    // A query that is no id has none.
    let (_, words) = try await Self.call(executor, "knowledge_search", ["query": "wal"])
    #expect(words["idLookup"] == nil)
  }

  @Test("the search tools' output schemas declare idLookup")
  func schema() throws {
    for name in ["knowledge_search", "memory_search", "task_search"] {
      let tool = try ToolRegistry.standard.tool(named: name)
      let properties = tool.outputSchema["properties"]?["idLookup"]
      #expect(properties?["properties"]?["recordType"]?["enum"] != nil, "\(name)")
      #expect(properties?["required"] == ["id", "message"], "\(name)")
    }
  }
}
