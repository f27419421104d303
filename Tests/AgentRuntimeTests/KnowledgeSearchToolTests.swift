import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// `knowledge_search` follows the engine's rule: memories have no kind, so `includeMemories`
/// with `kinds` is a failed call with invalid arguments naming the argument, not a list of
/// memories no kind asked for.
@Suite("knowledge_search arguments")
struct KnowledgeSearchToolTests {
  @Test("kinds with includeMemories fails naming includeMemories; each alone succeeds")
  func kindsWithMemories() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use tabs for indentation"))
    _ = try engine.saveMemory(text: "Prefers tabs over spaces")
    let executor = ToolExecutor(engine: engine)
    let both = await executor.execute(
      ToolCall(id: "c1", name: "knowledge_search", arguments: ["query": "tabs", "kinds": ["decision"], "includeMemories": true]),
      approver: StaticApprovalPolicy.allow)
    #expect(both.receipt.outcome == .failed)
    #expect(both.receipt.message.contains("includeMemories cannot be combined with kinds"), "\(both.receipt.message)")
    guard case .invalidArguments(let argumentError) = both.error else {
      Issue.record("expected invalidArguments, got \(String(describing: both.error)) \(both.failureMessage ?? "")")
      return
    }
    #expect(argumentError.field == "arguments.includeMemories")
    // Refused before it runs, as a schema error is, so a host can refuse it without side effects.
    let refusal = executor.refusal(
      of: ToolCall(id: "c0", name: "knowledge_search", arguments: ["query": "tabs", "kinds": ["decision"], "includeMemories": true]))
    #expect(refusal == .invalidArguments(argumentError))
    let kinds = await executor.execute(
      ToolCall(id: "c2", name: "knowledge_search", arguments: ["query": "tabs", "kinds": ["decision"]]),
      approver: StaticApprovalPolicy.allow)
    #expect(kinds.receipt.outcome == .succeeded)
    let memories = await executor.execute(
      ToolCall(id: "c3", name: "knowledge_search", arguments: ["query": "tabs", "includeMemories": true]),
      approver: StaticApprovalPolicy.allow)
    #expect(memories.receipt.outcome == .succeeded)
  }

  // Review 26-a, #3: the schema and the refusal said memories have no tags; they have, and
  // memory_search ranks on them.
  @Test("knowledge_search's schema and its tag refusal say the filters are for knowledge items, not that memories lack tags")
  func tagWordingIsTruthful() async throws {
    let tool = try ToolRegistry.standard.tool(named: "knowledge_search")
    let properties = tool.inputSchema["properties"]
    for name in ["includeMemories", "tag"] {
      let description = properties?[name]?["description"]?.string ?? ""
      #expect(description.contains("knowledge items only"), "\(name): \(description)")
      #expect(!description.contains("no tags") && !description.contains("have neither"), "\(name): \(description)")
    }
    let engine = makeEngine()
    _ = try engine.saveMemory(text: "Prefers tabs over spaces", tags: ["style"])
    let executor = ToolExecutor(engine: engine)
    let both = await executor.execute(
      ToolCall(id: "t1", name: "knowledge_search", arguments: ["query": "tabs", "tag": "style", "includeMemories": true]),
      approver: StaticApprovalPolicy.allow)
    #expect(both.receipt.outcome == .failed)
    #expect(both.receipt.message.contains("the tag filter applies to knowledge items only"), "\(both.receipt.message)")
    #expect(!both.receipt.message.contains("no tags"), "\(both.receipt.message)")
  }

  // Review 26-a, #7.
  @Test("handoff_create and task_add with an id of the other collection name its owner, under the argument")
  func wrongCollectionID() async throws {
    let engine = makeEngine()
    let task = try engine.addTask(title: "Benchmark WAL")
    let executor = ToolExecutor(engine: engine)
    let handoff = await executor.execute(
      ToolCall(id: "h1", name: "handoff_create", arguments: ["focus": "f", "knowledgeIDs": [.string(task.id.uuidString)]]),
      approver: StaticApprovalPolicy.allow)
    #expect(handoff.receipt.outcome == .failed)
    #expect(handoff.failedOnMissingRecord)
    #expect(handoff.failureField == "arguments.knowledgeIDs[0]")
    #expect(
      handoff.failureMessage
        == "arguments.knowledgeIDs[0]: no knowledge item has the id \(task.id.uuidString) (it is a task's id; give it as taskIDs)",
      "\(handoff.failureMessage ?? "")")
    let add = await executor.execute(
      ToolCall(id: "t1", name: "task_add", arguments: ["title": "t", "knowledgeIDs": [.string(task.id.uuidString)]]),
      approver: StaticApprovalPolicy.allow)
    #expect(add.receipt.outcome == .failed)
    #expect(add.receipt.message.contains("(it is a task's id, not a knowledge item's)"), "\(add.receipt.message)")
  }

  @Test("a search and a task search that find nothing say why, naming common words not searched and words found nowhere")
  func emptyReasonNamesWords() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "The build cache stays on disk"))
    _ = try engine.addTask(title: "Clear the build cache")
    let executor = ToolExecutor(engine: engine)
    let search = await executor.execute(
      ToolCall(id: "s", name: "knowledge_search", arguments: ["query": "the foo"]), approver: StaticApprovalPolicy.allow)
    #expect(
      search.output?.text.contains(
        "No results: the common word 'the' was not searched (common words are searched only when a query has no "
          + "other word), and 'foo' (or a close spelling of it) occurs in no knowledge item.") == true,
      "\(search.output?.text ?? "")")
    #expect(search.output?.structured.object?["emptyReason"] == "noOtherWordMatched")
    #expect(search.output?.structured.object?["unsearchedCommonWords"] == ["the"])
    let tasks = await executor.execute(
      ToolCall(id: "t", name: "task_search", arguments: ["query": "of and", "status": "open"]),
      approver: StaticApprovalPolicy.allow)
    #expect(
      tasks.output?.text.contains(
        "No results: the query has only common words such as the, and, of (searched only when a query has no other "
          + "word), and none of them occurs in any open task; add a word that names what you are looking for.") == true,
      "\(tasks.output?.text ?? "")")
    #expect(tasks.output?.structured.object?["emptyReason"] == "noCommonWordMatched")
  }

  @Test("a tag no item carries is said, naming the tag, with its own emptyReason (review 23-a, 6)")
  func tagNoItemCarries() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Deploy to staging every Friday", tags: ["deploy", "staging"]))
    let executor = ToolExecutor(engine: engine)
    let search = await executor.execute(
      ToolCall(id: "s", name: "knowledge_search", arguments: ["query": "staging", "tag": "stagign"]),
      approver: StaticApprovalPolicy.allow)
    #expect(
      search.output?.text.contains("No results: no knowledge item carries the tag 'stagign'.") == true,
      "\(search.output?.text ?? "")")
    #expect(search.output?.structured.object?["emptyReason"] == "noItemWithTag")
    #expect(search.output?.structured.object?["tag"] == "stagign")
    let schema = try ToolRegistry.standard.tool(named: "knowledge_search").outputSchema
    #expect(schema["properties"]?["emptyReason"]?["enum"]?.array?.contains("noItemWithTag") == true)
    #expect(schema["properties"]?["tag"]?["type"] == "string")
  }

  @Test("an argument the engine refuses while the tool runs is invalidArguments naming it, not a bare failure")
  func engineArgumentError() async throws {
    let engine = makeEngine()
    let executor = ToolExecutor(engine: engine)
    // The schema accepts a line break in `tag`; the engine's tag filter does not.
    let r = await executor.execute(
      ToolCall(id: "t", name: "knowledge_search", arguments: ["query": "tabs", "tag": "a\nb"]),
      approver: StaticApprovalPolicy.allow)
    #expect(r.receipt.outcome == .failed)
    guard case .invalidArguments(let argumentError) = r.error else {
      Issue.record("expected invalidArguments, got \(String(describing: r.error)) \(r.failureMessage ?? "")")
      return
    }
    #expect(argumentError.field == "arguments.tag")
    #expect(r.receipt.message == argumentError.message)
  }

  /// How errors thrown by the engine map to argument errors.
  struct MappingCase: Sendable, CustomTestStringConvertible {
    var name: String
    var error: any Error & Sendable
    var field: String?
    var testDescription: String { name }
  }

  static let mappingCases = [
    MappingCase(name: "an argument", error: ValidationError(field: "tag", message: "m"), field: "arguments.tag"),
    MappingCase(name: "an element of an argument", error: ValidationError(field: "kinds[1]", message: "m"), field: "arguments.kinds[1]"),
    MappingCase(
      name: "wrapped in WorkspaceError", error: WorkspaceError.validation(ValidationError(field: "query", message: "m")),
      field: "arguments.query"),
    MappingCase(name: "not an argument", error: ValidationError(field: "knowledge", message: "m"), field: nil),
    MappingCase(
      name: "a missing record", error: ValidationError(field: "query", message: "m", missingRecord: .init(recordType: "task", id: "x")),
      field: nil),
    MappingCase(name: "not a validation error", error: WorkspaceError.notFound(recordType: "task", id: "x"), field: nil),
  ]

  @Test("ToolDefinition.argumentError(from:) maps only validation errors about its own arguments", arguments: mappingCases)
  func mapping(_ c: MappingCase) throws {
    let tool = try ToolRegistry.standard.tool(named: "knowledge_search")
    #expect(tool.argumentError(from: c.error)?.field == c.field)
  }
}
