import ContinuityKit
import Foundation
import KnowledgeEngine

/// The 14 continuity tools. Deletion is never an agent tool.
enum ContinuityTools {
  static let all: [ToolDefinition] = [knowledgeSearch, knowledgeGet, knowledgeCapture, codeAnalyze, taskReopen]

  static let kinds = KnowledgeKind.allCases.map(\.rawValue)

  static func requireID(_ args: JSONObject, _ key: String = "id") throws -> UUID {
    guard let id = ToolRendering.uuid(args, key) else {
      throw AgentError.invalidArguments(ToolArgumentError(field: "arguments.\(key)", message: "arguments.\(key) is required"))
    }
    return id
  }

  static let knowledgeSearch = ToolDefinition(
    name: "knowledge_search", title: "Search knowledge",
    description: "Ranked lexical search over typed knowledge (mode hybrid-lexical, algorithm hybrid-lexical-v1: BM25F over title, tags and content with phrase, coverage and trigram typo matching; not semantic search). Read-only.",
    input: .object([
      ToolProperty("query", .text(min: 1, max: Limits.query), required: true, "Words to find (text is data; no operators)."),
      ToolProperty("kinds", .array(items: .oneOf(kinds), minItems: 0, maxItems: kinds.count, unique: true), "Only these kinds."),
      ToolProperty("includeMemories", .boolean, default: false, "Also search legacy memories (labeled memory)."),
      ToolProperty("limit", .integer(minimum: 1, maximum: Limits.searchResultsMaximum), default: .integer(Limits.searchResultsDefault), "Most results."),
    ]),
    outputSchema: SearchTools.searchOutputSchema, risk: .readOnly, isIdempotent: true,
    handler: { args, ctx in
      let kinds = ToolRendering.strings(args, "kinds").compactMap(KnowledgeKind.init(rawValue:))
      return try SearchTools.render(
        try ctx.engine.search(
          args["query"]?.string ?? "", kinds: kinds, includeMemories: args["includeMemories"]?.bool ?? false,
          limit: args["limit"]?.int ?? Limits.searchResultsDefault))
    })

  static let knowledgeGet = ToolDefinition(
    name: "knowledge_get", title: "Get a knowledge item",
    description: "Exact lookup of one knowledge item by UUID (mode exact). Read-only.",
    input: .object([ToolProperty("id", .uuid, required: true, "The item's UUID.")]),
    outputSchema: ToolRendering.outputSchema(["mode": ToolRendering.string, "item": ToolRendering.anyObject], required: ["mode", "item"]),
    risk: .readOnly, isIdempotent: true,
    handler: { args, ctx in
      let item = try ctx.engine.knowledge(id: try requireID(args))
      return ToolOutput(structured: .object(["mode": "exact", "item": try ToolRendering.json(item)]), text: ToolRendering.knowledgeDetail(item))
    })

  static let knowledgeCapture = ToolDefinition(
    name: "knowledge_capture", title: "Capture knowledge",
    description: "Store a typed knowledge item (source agentApproved). Local write: needs the user's approval of this exact call.",
    input: .object([
      ToolProperty("kind", .oneOf(kinds), required: true, "The kind."),
      ToolProperty("title", .text(min: 1, max: Limits.title), required: true, "Title."),
      ToolProperty("content", .text(max: Limits.content), "Body."),
      ToolProperty("tags", .tags, "Tags (lowercased, deduplicated)."),
      ToolProperty("priority", .oneOf(Priority.allCases.map(\.rawValue)), default: "normal", "Priority."),
      ToolProperty("relationships", .array(
        items: .object([
          ToolProperty("kind", .oneOf(RelationshipKind.allCases.map(\.rawValue)), required: true, "Relationship kind."),
          ToolProperty("targetID", .uuid, required: true, "An existing knowledge item."),
        ]), minItems: 0, maxItems: Limits.relationshipsPerItem, unique: true), "Relationships to existing items."),
    ]),
    outputSchema: ToolRendering.outputSchema(["item": ToolRendering.anyObject, "digestID": ToolRendering.string], required: ["item"]),
    risk: .localWrite, isIdempotent: false,
    handler: { args, ctx in
      let rels: [KnowledgeRelationship] = (args["relationships"]?.array ?? []).compactMap { r in
        guard let k = r["kind"]?.string.flatMap(RelationshipKind.init(rawValue:)), let t = r["targetID"]?.string.flatMap(UUID.init(uuidString:)) else { return nil }
        return KnowledgeRelationship(kind: k, targetID: t)
      }
      let result = try ctx.engine.capture(CaptureRequest(
        kind: KnowledgeKind(rawValue: args["kind"]?.string ?? "") ?? .fact, title: args["title"]?.string ?? "",
        content: args["content"]?.string ?? "", tags: ToolRendering.strings(args, "tags"), relationships: rels,
        priority: Priority(rawValue: args["priority"]?.string ?? "normal") ?? .normal, source: .agentApproved))
      var structured: JSONObject = ["item": try ToolRendering.json(result.item)]
      var changed = [result.item.id]
      if let d = result.digest {
        structured["digestID"] = .string(d.id.uuidString)
        changed.append(d.id)
      }
      return ToolOutput(structured: .object(structured), text: "Captured \(result.item.kind.rawValue) \"\(result.item.title)\" (id \(result.item.id.uuidString)).", changedIDs: changed)
    })









  static let codeAnalyze = ToolDefinition(
    name: "code_analyze", title: "Analyze Swift code",
    description: "Heuristic, read-only lexical checks of one Swift source string (todo, force_try, force_unwrap, force_cast, long_line, deep_nesting, repeated_line); at most \(Limits.codeAnalysisBytes) UTF-8 bytes. Never executes, compiles or uploads the code.",
    input: .object([
      ToolProperty("code", .string(.init(minLength: 1, maxLength: Limits.codeAnalysisBytes, normalization: .verbatim)), required: true, "Swift source text."),
      ToolProperty("fileName", .text(max: 200), default: "input.swift", "A name for the report."),
    ]),
    outputSchema: ToolRendering.anyObject, risk: .readOnly, isIdempotent: true,
    handler: { args, _ in
      let report = try CodeAnalyzer.analyze(source: args["code"]?.string ?? "", fileName: args["fileName"]?.string ?? "input.swift")
      let lines = report.findings.prefix(50).map { "\($0.line):\($0.column) \($0.rule.rawValue): \($0.message)" }
      return ToolOutput(
        structured: try ToolRendering.json(report),
        text: "Heuristic code analysis (not a compiler): \(report.totalFindings) finding(s)" + (lines.isEmpty ? "" : "\n" + lines.joined(separator: "\n")))
    })


  static let taskReopen = ToolDefinition(
    name: "task_reopen", title: "Reopen a task",
    description: "Reopen a completed task. Local write: needs approval.",
    input: .object([ToolProperty("id", .uuid, required: true, "The task id.")]),
    outputSchema: ToolRendering.outputSchema(["task": ToolRendering.anyObject], required: ["task"]),
    risk: .localWrite, isIdempotent: true,
    handler: { args, ctx in
      let t = try ctx.engine.reopenTask(id: try requireID(args))
      return ToolOutput(structured: .object(["task": try ToolRendering.json(t)]), text: "Reopened task \(t.id.uuidString): \(t.title)", changedIDs: [t.id])
    })
}
