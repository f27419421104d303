import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-a (7): `project_context`, `project_review`, `continuity_insights`, `code_analyze`
/// and `task_search` published `{"type": "object"}` as their output schema, and the result lists
/// of the others had no `items`; the input schemas did not say that `kinds: []` searches every
/// kind. Every tool now describes what it returns, and what it returns validates.
@Suite("Tool output schemas describe what the tools return")
struct OutputSchemaTests {
  /// The keywords this validator knows (the ones our schemas use), checked as JSON Schema
  /// draft 2020-12 defines them: `type`, `properties`, `required`, `items`, `enum`,
  /// `additionalProperties` (a schema), `format: uuid`; every problem found, with its path.
  static func problems(_ value: JSONValue, _ schema: JSONValue, at path: String = "$") -> [String] {
    var found: [String] = []
    if let type = schema["type"] {
      let types = type.array?.compactMap(\.string) ?? [type.string].compactMap { $0 }
      let matches = types.contains { t in
        switch (t, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null): true
        case ("number", .number): true
        case ("integer", .number(let n)): n.isInteger
        default: false
        }
      }
      if !matches { return ["\(path): \(value.kindName) is not \(types)"] }
    }
    if let allowed = schema["enum"]?.array, !allowed.contains(value) { found.append("\(path): \(value) not in \(allowed)") }
    if schema["format"] == "uuid", let text = value.string, UUID(uuidString: text)?.uuidString != text {
      found.append("\(path): \(text) is not an upper-case UUID")
    }
    if case .object(let members) = value {
      let properties = schema["properties"]?.object ?? [:]
      for key in schema["required"]?.array?.compactMap(\.string) ?? [] where members[key] == nil {
        found.append("\(path): required \(key) is missing")
      }
      for (key, member) in members {
        if let declared = properties[key] {
          found += problems(member, declared, at: "\(path).\(key)")
        } else if let extra = schema["additionalProperties"], extra.object != nil {
          found += problems(member, extra, at: "\(path).\(key)")
        }
      }
    }
    if case .array(let elements) = value, let items = schema["items"] {
      for (i, element) in elements.enumerated() { found += problems(element, items, at: "\(path)[\(i)]") }
    }
    return found
  }

  /// A workspace with something in every section: decisions (one superseded), a goal that reads
  /// as a question, tasks (one completed, one high), a handoff.
  static func populated() async throws -> KnowledgeEngine {
    let engine = makeEngine()
    let old = try engine.capture(CaptureRequest(kind: .decision, title: "Use MySQL", priority: .high)).item
    let new = try engine.capture(
      CaptureRequest(
        kind: .decision, title: "Use SQLite", content: "One file.",
        relationships: [KnowledgeRelationship(kind: .supersedes, targetID: old.id)])
    ).item
    _ = try engine.capture(CaptureRequest(kind: .goal, title: "Ship the beta?", tags: ["question"]))
    let task = try engine.addTask(title: "Deploy the service", priority: .high, knowledgeIDs: [new.id])
    let done = try engine.addTask(title: "Deploy the docs")
    _ = try engine.completeTaskReportingOutcome(id: done.id)
    _ = try engine.createHandoff(HandoffRequest(focus: "Deploy", nextSteps: ["Check logs"], knowledgeIDs: [new.id], taskIDs: [task.id]))
    return engine
  }

  static let calls: [(String, JSONValue)] = [
    ("project_context", [:]), ("project_review", [:]), ("continuity_insights", [:]),
    ("code_analyze", ["code": "let x = y!\n// TODO: fix\nlet z = try! f()\n"]),
    ("task_search", ["query": "deploy"]), ("task_search", ["query": "deploy", "status": "open"]),
    ("task_search", ["query": "zzzz"]), ("knowledge_search", ["query": "sqlite mysql"]),
    ("knowledge_search", ["query": "zzzz"]), ("memory_search", ["query": "sqlite"]),
    ("task_list", [:]), ("handoff_list", [:]),
  ]

  @Test("every call's structured output validates against the tool's output schema")
  func structuredOutputsValidate() async throws {
    // The validator finds what it is meant to find.
    let projectContext = try ToolRegistry.standard.tool(named: "project_context").outputSchema
    #expect(Self.problems(["method": 1, "algorithm": "a", "algorithmVersion": "1"], projectContext).count == 2)
    #expect(!Self.problems(["tasks": [["id": "nope"]], "count": 1, "total": 1, "truncated": false], try ToolRegistry.standard.tool(named: "task_list").outputSchema).isEmpty)
    let engine = try await Self.populated()
    for (tool, arguments) in Self.calls {
      let output = try await BoundedListingToolsTests.run(engine, tool, arguments)
      let schema = try ToolRegistry.standard.tool(named: tool).outputSchema
      #expect(Self.problems(output.structured, schema) == [], "\(tool) \(arguments)")
    }
    let handoff = try #require(try engine.listHandoffs(limit: 1).handoffs.first)
    for tool in ["handoff_get", "handoff_restore"] {
      let output = try await BoundedListingToolsTests.run(engine, tool, ["id": .string(handoff.id.uuidString)])
      #expect(Self.problems(output.structured, try ToolRegistry.standard.tool(named: tool).outputSchema) == [], "\(tool)")
    }
  }

  @Test("handoff_create with activate and a stale handoff_restore with things since validate against their schemas")
  func handoffParityOutputsValidate() async throws {
    let engine = try await Self.populated()
    let before = try #require(try engine.listHandoffs(limit: 1).handoffs.first)
    // Captured before the newer handoff is made, so that one is not stale itself and is the one
    // to restore (review 31-a, 6).
    _ = try engine.capture(CaptureRequest(kind: .context, title: "Clients read structuredContent first"))
    _ = try engine.addTask(title: "Document the since section")
    let created = try await BoundedListingToolsTests.run(engine, "handoff_create", ["focus": "Evening", "activate": true, "autoSelect": true])
    #expect(created.structured["activated"] == true)
    #expect(Self.problems(created.structured, try ToolRegistry.standard.tool(named: "handoff_create").outputSchema) == [])
    // The older handoff: stale, with a newer one to restore, and a capture and a task since.
    let restored = try await BoundedListingToolsTests.run(engine, "handoff_restore", ["id": .string(before.id.uuidString)])
    #expect(restored.structured["stale"]?["remedy"] == "restoreNewer", "\(restored.structured)")
    #expect(restored.structured["previouslyActiveID"] != nil)
    #expect((restored.structured["capturedSince"]?.array?.count ?? 0) >= 1 && (restored.structured["tasksSince"]?.array?.count ?? 0) >= 1)
    #expect(Self.problems(restored.structured, try ToolRegistry.standard.tool(named: "handoff_restore").outputSchema) == [])
    // Every member is declared, not only allowed.
    try BoundedListingToolsTests.expectConforms(restored.structured, to: "handoff_restore")
    try BoundedListingToolsTests.expectConforms(created.structured, to: "handoff_create")
    // The validator sees a wrong remedy.
    var broken = try #require(restored.structured.object)
    broken["stale"] = ["remedy": "wait"]
    #expect(!Self.problems(.object(broken), try ToolRegistry.standard.tool(named: "handoff_restore").outputSchema).isEmpty)
  }

  @Test("no tool publishes a bare object, and every list of records says what its items are")
  func noBareSchemas() throws {
    for tool in ToolRegistry.standard.tools {
      let schema = tool.outputSchema
      #expect(schema["properties"]?.object?.isEmpty == false, "\(tool.name): \(schema)")
    }
    for (tool, list) in [
      ("knowledge_search", "results"), ("task_search", "results"), ("task_list", "tasks"), ("knowledge_list", "items"), ("handoff_list", "handoffs"),
      ("continuity_insights", "insights"), ("code_analyze", "findings"),
    ] {
      let items = try ToolRegistry.standard.tool(named: tool).outputSchema["properties"]?[list]?["items"]
      #expect(items?["properties"]?.object?.isEmpty == false, "\(tool).\(list)")
    }
  }

  /// The server accepts more than the published schema, never less: enum values in another case
  /// and repeated list entries are normalized (a client that validates against the schema never
  /// sends them), and `kinds: []`, which the schema allows, searches every kind, as its
  /// description says.
  @Test("kinds: [] is allowed by the schema and documented; lenient inputs are normalized")
  func inputLeniency() throws {
    let search = try ToolRegistry.standard.tool(named: "knowledge_search")
    let kinds = try #require(search.inputSchema["properties"]?["kinds"])
    #expect(kinds["minItems"] == nil)
    #expect(kinds["description"]?.string?.contains("an empty list, like none, searches every kind") == true)
    #expect(try search.normalize(["query": "x", "kinds": []])["kinds"] == [])
    #expect(try search.normalize(["query": "x", "kinds": ["Fact", "fact"]])["kinds"] == ["fact"])
    let capture = try ToolRegistry.standard.tool(named: "knowledge_capture")
    #expect(try capture.normalize(["kind": "DECISION", "title": "t", "tags": ["a", "A"]])["kind"] == "decision")
  }
}
