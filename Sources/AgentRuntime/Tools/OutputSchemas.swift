import ContinuityKit
import Foundation
import KnowledgeEngine

/// The JSON Schemas (draft 2020-12) of what tools return in their structured output, shared by
/// the tools that return the same records.
///
/// Each names the properties a record always has as `required` and types the others it may
/// carry; none sets `additionalProperties: false`, so that a member added later (or the
/// `workspace` member an MCP server adds where no workspace exists yet) never makes a valid
/// result fail a client's validation. Dates are ISO 8601 strings in UTC
/// (`2026-11-29T18:19:32.123Z`); ids are upper-case UUIDs (`format: uuid`).
/// Review 19-a (7): five tools published `{"type": "object"}` and the lists of the others had
/// no `items`, which gave a client that validates structured results nothing to check.
enum OutputSchemas {
  /// An object schema with `properties` (emitted in key order) and `required`.
  static func object(_ properties: [String: JSONValue], required: [String] = [], description: String? = nil) -> JSONValue {
    var schema: JSONObject = [
      "type": "object",
      "properties": .object(JSONObject(properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })),
      "required": .array(required.map { .string($0) }),
    ]
    if let description { schema["description"] = .string(description) }
    return .object(schema)
  }

  /// An array of `items`.
  static func array(of items: JSONValue) -> JSONValue { .object(["type": "array", "items": items]) }

  /// A string that is one of `values`.
  static func oneOf(_ values: [String]) -> JSONValue { .object(["type": "string", "enum": .array(values.map { .string($0) })]) }

  static let string: JSONValue = .object(["type": "string"])
  static let integer: JSONValue = .object(["type": "integer"])
  static let number: JSONValue = .object(["type": "number"])
  static let boolean: JSONValue = .object(["type": "boolean"])
  static let uuid: JSONValue = .object(["type": "string", "format": "uuid"])
  static let uuids = array(of: uuid)
  static let strings = array(of: string)
  static let date: JSONValue = .object(["type": "string", "description": "ISO 8601, UTC, e.g. 2026-11-29T18:19:32.123Z."])
  static let priority = oneOf(Priority.allCases.map(\.rawValue))

  /// `omittedForSize`, which every listing's output may carry (``ToolOutput/fitted(to:finishingText:)``).
  static let omittedForSize: JSONValue = .object([
    "type": "integer", "minimum": 1,
    "description": .string(
      "How many of the records this call listed were left out, whole, to keep the response within the host's byte bound "
        + "(the MCP server's response bound, which `dolphin limits` lists); the list holds the first ones, and truncated is "
        + "true. Absent when none were."),
  ])

  /// `truncated` of a listing: whether the list `listed` holds fewer records than `total`
  /// (named `totalName`), because `cause` left some out or the response's byte bound did.
  static func truncated(_ listed: String, by cause: String = "the limit", total totalName: String = "total") -> JSONValue {
    .object([
      "type": "boolean",
      "description": .string(
        "Whether \(listed) holds fewer records than \(totalName): \(cause) left some out, or the response's byte bound did "
          + "(omittedForSize)."),
    ])
  }

  /// `truncated` of a paged listing (one that takes an `offset`): whether records come after
  /// this page, so that a client pages while it is true (review 23-a, 3).
  static func pageTruncated(_ listed: String) -> JSONValue {
    .object([
      "type": "boolean",
      "description": .string(
        "Whether records come after this page (offset + count < total): the limit, or the response's byte bound "
          + "(omittedForSize), stopped \(listed) before the last record. False on the last page and past the end; "
          + "while it is true, nextOffset is where the next page starts."),
    ])
  }

  /// The `nextOffset` of a paged listing: where its next page starts.
  static let nextOffset: JSONValue = .object([
    "type": "integer", "minimum": 1,
    "description": .string(
      "The offset argument of the next page (offset + count), present while truncated is true; absent on the last page "
        + "(and when the response's byte bound left out even the page's first record)."),
  ])

  /// The `offset` a paged listing echoes.
  static let offset: JSONValue = .object([
    "type": "integer", "minimum": 0,
    "description": "How many records in the listing's order were skipped before the first one listed (the offset argument).",
  ])

  /// A ``TaskItem``.
  static let task = object(
    [
      "id": uuid, "title": string, "notes": string, "status": oneOf(TaskStatus.allCases.map(\.rawValue)),
      "priority": priority, "createdAt": date, "completedAt": date, "updatedAt": date, "knowledgeIDs": uuids,
    ], required: ["id", "title", "status", "priority", "createdAt", "updatedAt", "knowledgeIDs"])

  /// A ``KnowledgeItem`` (`knowledge_list`).
  static let knowledgeItem = object(
    [
      "id": uuid, "kind": oneOf(KnowledgeKind.allCases.map(\.rawValue)), "title": string, "content": string,
      "source": oneOf(KnowledgeSource.allCases.map(\.rawValue)), "tags": strings,
      "relationships": array(
        of: object(["kind": oneOf(RelationshipKind.allCases.map(\.rawValue)), "targetID": uuid], required: ["kind", "targetID"])),
      "priority": priority, "createdAt": date, "updatedAt": date, "revision": integer, "memoryID": uuid,
    ], required: ["id", "kind", "title", "content", "source", "tags", "relationships", "priority", "createdAt", "updatedAt", "revision"])

  /// A ``Handoff``.
  static let handoff = object(
    [
      "id": uuid, "focus": string, "summary": string, "nextSteps": strings, "knowledgeIDs": uuids, "taskIDs": uuids,
      "recentExcerpts": strings, "createdAt": date, "restoredAt": date,
    ], required: ["id", "focus", "createdAt"])

  /// `handoff_create` (``HandoffCreation``).
  static let handoffCreation = object(
    [
      "handoff": handoff, "summaryGenerated": boolean,
      "autoSelection": object(
        [
          "mode": string, "knowledgeIDs": uuids, "taskIDs": uuids, "supersededLeftOut": uuids,
          "fallback": .object([
            "type": "string",
            "description": "Present when the focus and next steps matched no open task or current knowledge item, so the open tasks and newest current items were selected instead (or nothing was left to select): says so.",
          ]),
        ],
        required: ["mode", "knowledgeIDs", "taskIDs", "supersededLeftOut"],
        description: "What autoSelect added; absent when it was not asked for."),
      "activated": .object([
        "type": "boolean",
        "description": "true when activate was asked for and the new handoff was marked active; absent when it was not asked for.",
      ]),
      "previouslyActiveID": .object([
        "type": "string", "format": "uuid",
        "description": "With activated: the handoff that was active before; absent when none was.",
      ]),
      "activationWarning": .object([
        "type": "string",
        "description": "With activated: present when the new handoff carries no knowledge or task and the one it replaced as active carries some; names that handoff.",
      ]),
    ], required: ["handoff", "summaryGenerated"])

  /// A record a restore brief names (``BriefReference``).
  static let briefReference = object(
    [
      "id": uuid, "kind": string, "title": string, "status": oneOf(TaskStatus.allCases.map(\.rawValue)),
      "supersededBy": uuids, "supersedes": uuids,
      "change": .object([
        "type": "string", "enum": ["added", "completed", "added and completed", "updated", .string(KnowledgeEngine.editedChange)],
        "description": .string(
          "For a task in tasksSince: what happened to it after the handoff was made. For a knowledge item in "
            + "knowledge: edited when it was edited after the handoff was made."),
      ]),
      "revision": .object([
        "type": "integer",
        "description": "For a knowledge item in knowledge edited after the handoff was made: its revision now.",
      ]),
    ], required: ["id", "kind", "title"])

  /// Why a restored handoff may be stale (``HandoffStaleness``), and `advice`, what clears it
  /// in the tools' terms.
  static let handoffStaleness = object(
    [
      "handoffID": uuid, "capturedAfter": integer, "editedAfter": integer, "ageSeconds": integer, "staleAfterDays": integer, "isOld": boolean,
      "priority": priority, "reason": string, "remedy": oneOf(["restoreNewer", "createActive"]),
      "newerHandoffID": uuid, "newerHandoffFocus": string, "advice": string,
    ],
    required: ["handoffID", "capturedAfter", "editedAfter", "ageSeconds", "staleAfterDays", "isOld", "priority", "reason", "remedy", "advice"],
    description: "Present when the stale-handoff rule holds for the restored handoff (now the active one): knowledge was "
      + "captured after it, knowledge it carries was edited after it, or it is older than staleAfterDays days. advice says "
      + "what clears it.")

  /// A ``ListingSpan``: the page of the list tool `tool` that holds `what` (review 28-d, 6).
  static func listingSpan(_ what: String, in tool: String) -> JSONValue {
    object(
      ["offset": integer, "limit": integer], required: ["offset", "limit"],
      description: "The offset and limit arguments of \(tool) that list every one of \(what), with the records between them; "
        + "absent when none is left out.")
  }

  /// `handoff_restore` (``HandoffBrief``, with `stale` when the rule holds).
  static let handoffBrief = object(
    [
      "handoff": handoff, "knowledge": array(of: briefReference), "tasks": array(of: briefReference),
      "editedSince": .object([
        "type": "integer", "description": "How many of the knowledge items the handoff carries were edited after it was made.",
      ]),
      "capturedSince": .object([
        "type": "array", "items": briefReference,
        "description": .string(
          "Knowledge captured after the handoff was made: the newest \(KnowledgeEngine.briefCapturedSinceLimit), oldest of them first.")
      ]),
      "capturedSinceTotal": integer,
      "tasksSince": .object([
        "type": "array", "items": briefReference,
        "description": .string(
          "Tasks added, completed or updated after the handoff was made: the \(KnowledgeEngine.briefCapturedSinceLimit) "
            + "changed latest, oldest change first; a task reopened since is listed only when it was also added since.")
      ]),
      "tasksSinceTotal": integer,
      "capturedSinceLeftOut": listingSpan(
        "the knowledge captured since that capturedSince leaves out", in: "knowledge_list (most recently changed first)"),
      "tasksSinceLeftOut": listingSpan(
        "the tasks changed since that tasksSince leaves out", in: "task_list with status all (open first, then by priority and age)"),
      "previouslyActiveID": uuid, "notice": string, "stale": handoffStaleness,
    ],
    required: ["handoff", "knowledge", "editedSince", "tasks", "capturedSince", "capturedSinceTotal", "tasksSince", "tasksSinceTotal", "notice"])

  /// A ``DigestLine``: its text, the ids of the records it quotes, and (digest version 11 on)
  /// how many records it is about in all and whether its ids were cut.
  static let digestLine = object(
    ["text": string, "evidenceIDs": uuids, "evidenceTotal": integer, "evidenceTruncated": boolean],
    required: ["text", "evidenceIDs"])

  /// ``DigestOmissions``: for each section that left candidates out, how many.
  static let digestOmissions: JSONValue = .object([
    "type": "object", "additionalProperties": integer,
    "description": "For each section that left candidates out (by its name), how many; {} when none did.",
  ])

  /// An ``Insight``.
  static let insight = object(
    [
      "rule": oneOf(InsightRule.allCases.map(\.rawValue)), "priority": priority, "message": string, "evidenceIDs": uuids,
      "evidenceTotal": integer, "evidenceTruncated": boolean,
    ], required: ["rule", "priority", "message", "evidenceIDs"])

  /// A result of `knowledge_search` or `memory_search` (``SearchResult``).
  static let searchResult = object(
    [
      "id": uuid, "kind": string, "title": string, "snippet": string, "score": number, "scoreParts": object([:]),
      "matchedTerms": strings, "source": string, "supersededBy": uuids, "termsMatched": integer,
    ], required: ["id", "kind", "title", "score"])

  /// The sections of a digest (``DigestSections``).
  static let digestSections = object(
    DigestOmissions.sectionNames.reduce(into: ["omitted": digestOmissions]) { $0[$1] = array(of: digestLine) },
    required: DigestOmissions.sectionNames + ["omitted"])

  /// `project_context` (``ProjectContext``).
  static let projectContext = object(
    ["method": string, "algorithm": string, "algorithmVersion": string, "sections": digestSections],
    required: ["method", "algorithm", "algorithmVersion", "sections"])

  /// `project_review` (``ProjectReview``).
  static let projectReview = object(
    [
      "method": string, "digestAlgorithm": string, "digestAlgorithmVersion": string,
      "decisions": array(of: digestLine), "goals": array(of: digestLine), "openTasks": array(of: digestLine),
      "priorities": array(of: digestLine), "questions": array(of: digestLine), "omitted": digestOmissions,
      "insights": array(of: insight), "insightTotal": integer,
      "tasks": object(["open": integer, "completed": integer, "oldestOpen": task], required: ["open", "completed"]),
    ],
    required: [
      "method", "digestAlgorithm", "digestAlgorithmVersion", "decisions", "goals", "openTasks", "priorities", "questions",
      "omitted", "insights", "insightTotal", "tasks",
    ])

  /// `continuity_insights` (``InsightReport``).
  static let insightReport = object(
    [
      "method": string, "algorithm": string, "algorithmVersion": string, "thresholds": object([:]),
      "minimumPriority": priority, "insights": array(of: insight), "total": integer, "truncated": truncated("insights", by: "the cap of \(Limits.insights)"),
      "belowMinimumPriority": integer, "omittedForSize": omittedForSize,
    ], required: ["method", "algorithm", "algorithmVersion", "minimumPriority", "insights", "total", "truncated"])

  /// `code_analyze` (``CodeAnalysisReport``).
  static let codeAnalysis = object(
    [
      "fileName": string, "analysis": string, "note": string, "byteCount": integer, "lineCount": integer,
      "options": object([:]),
      "findings": array(
        of: object(
          [
            "line": integer, "column": integer, "utf16Column": integer, "rule": string, "severity": string,
            "message": string, "excerpt": string, "snippet": string,
          ], required: ["line", "column", "rule", "message"])),
      "totalFindings": integer, "truncated": truncated("findings", by: "the report's cap of \(Limits.codeAnalysisFindings)", total: "totalFindings"), "omittedForSize": omittedForSize,
      "counts": array(of: object(["rule": string, "count": integer], required: ["rule", "count"])),
    ], required: ["fileName", "analysis", "findings", "totalFindings", "truncated", "counts"])

  /// `task_search` (``TaskSearchResponse``).
  static let taskSearch = object(
    [
      "mode": string, "algorithmVersion": string, "query": string,
      "results": array(
        of: object(
          ["task": task, "score": number, "matchedTerms": strings, "scoreParts": object([:]), "termsMatched": integer],
          required: ["task", "score"])),
      "total": integer, "truncated": truncated("results"), "omittedForSize": omittedForSize,
      "status": oneOf(TaskStatus.allCases.map(\.rawValue)),
      "terms": array(of: object([:])), "emptyReason": oneOf(EmptyReason.allCases.map(\.rawValue)),
      "unsearchedCommonWords": strings, "wordsPastTermLimit": strings, "unsearchedSymbols": strings,
      "unappliedOperators": strings, "unmatchedWords": strings, "idLookup": idLookup,
      "orderedByTermsMatched": boolean,
    ], required: ["mode", "query", "results", "total", "truncated"])

  /// `idLookup` of the search tools (``IDLookup``): present when the query is one whole record
  /// id and nothing matched (review 28-a, 2).
  static let idLookup = object(
    [
      "id": uuid,
      "recordType": .object([
        "type": "string", "enum": .array(RecordType.allCases.map { .string($0.rawValue) }),
        "description": "The type of the record that has the id; absent when no record of the workspace has it.",
      ]),
      "shownBy": .object([
        "type": "string",
        "description": "The tool call that shows that record, e.g. knowledge_get {\"id\": \"…\"}; absent when no record has the id or no tool shows it.",
      ]),
      "message": .object(["type": "string", "description": "The pointer in words, as the text says it."]),
    ], required: ["id", "message"],
    description: "The query is a record's id, and search matches words, not ids: which record has it and what shows it, or that no record has it. Absent otherwise.")
}
