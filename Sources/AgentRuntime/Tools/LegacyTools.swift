import ContinuityKit
import Foundation
import KnowledgeEngine

/// The legacy memory and task tools, kept beside the continuity tools.
enum LegacyTools {
  static let all: [ToolDefinition] = [memorySearch, memorySave, taskList, taskAdd, taskComplete]

  static let memorySearch = ToolDefinition(
    name: "memory_search", title: "Search legacy memories",
    description: "Search legacy memories (mode hybrid-lexical: BM25 with phrase, coverage, trigram typo and word-form matching, British/American spellings, irregular plurals such as mouse/mice and compound forms such as e-mail/email; not semantic search). Read-only.",
    input: .object([
      ToolProperty("query", .query, required: true, "Words to find."),
      ToolProperty("limit", .integer(minimum: 1, maximum: Limits.searchResultsMaximum), default: .integer(Limits.searchResultsDefault), "Most results."),
    ]),
    outputSchema: SearchTools.searchOutputSchema, risk: .readOnly, isIdempotent: true,
    usesSearchIndex: SearchTools.ranks,
    handler: { args, ctx in
      let r = try ctx.engine.search(
        args["query"]?.string ?? "", kinds: [], includeMemories: true, memoriesOnly: true,
        limit: args["limit"]?.int ?? Limits.searchResultsDefault)
      return try SearchTools.render(try SearchTools.pointingToRecord(r, engine: ctx.engine))
    })

  static let memorySave = ToolDefinition(
    name: "memory_save", title: "Save a legacy memory",
    description: "Save a legacy memory; it is also mirrored as a knowledge item (kind context, source legacyMemory). Local write: needs approval.",
    input: .object([
      ToolProperty("text", .text(min: 1, max: Limits.memoryText), required: true, "The memory."),
      ToolProperty("tags", .tags, "Tags (lowercased, deduplicated; a tag holds no comma)."),
    ]),
    outputSchema: ToolRendering.outputSchema(["memory": ToolRendering.anyObject, "mirror": ToolRendering.anyObject], required: ["memory", "mirror"]),
    risk: .localWrite, isIdempotent: false,
    preflight: { args, ctx in
      try ctx.engine.checkSaveMemory(text: args["text"]?.string ?? "", tags: ToolRendering.strings(args, "tags"))
    },
    handler: { args, ctx in
      let r = try ctx.engine.saveMemory(text: args["text"]?.string ?? "", tags: ToolRendering.strings(args, "tags"))
      var changed = [r.memory.id, r.mirror.id]
      if let d = r.digest { changed.append(d.id) }
      return ToolOutput(
        structured: .object(["memory": try ToolRendering.json(r.memory), "mirror": try ToolRendering.json(r.mirror)]),
        text: "Saved memory \(r.memory.id.uuidString), mirrored as knowledge \(r.mirror.id.uuidString).", changedIDs: changed)
    })

  static let taskList = ToolDefinition(
    name: "task_list", title: "List tasks",
    description: "List tasks, open first, then by priority and age: at most limit of them (default \(Limits.listedRecordsDefault)) after the first offset, with how many there are in all (total) and whether more come after this page (truncated; nextOffset is where the next page starts). A response too large for the server's byte bound keeps the first tasks, each whole, and counts the rest in omittedForSize: ask for them with nextOffset. Read-only.",
    input: .object([
      ToolProperty("status", .oneOf(["open", "completed", "all"]), default: "all", "Which tasks."),
      // Up to every task the workspace may hold; the default keeps one answer small (review,
      // s17: one unbounded answer at the 5,000-task cap was 20.7 MB).
      ToolProperty(
        "limit", .integer(minimum: 1, maximum: Limits.tasks), default: .integer(Limits.listedRecordsDefault),
        "Most tasks listed (the first in the order above, after offset)."),
      // The next page after a cut answer (review 19-a: 5,000 long tasks made one 36 MB line).
      ToolProperty(
        "offset", .integer(minimum: 0, maximum: Limits.tasks), default: .integer(0),
        "Tasks skipped first, in the order above: the count of tasks an earlier call listed, for the ones after them."),
    ]),
    outputSchema: ToolRendering.outputSchema(
      [
        "tasks": OutputSchemas.array(of: OutputSchemas.task), "count": ToolRendering.integer, "total": ToolRendering.integer,
        "truncated": OutputSchemas.pageTruncated("tasks"), "offset": OutputSchemas.offset,
        "nextOffset": OutputSchemas.nextOffset, "omittedForSize": OutputSchemas.omittedForSize,
      ],
      required: ["tasks", "count", "total", "truncated", "offset"]),
    risk: .readOnly, isIdempotent: true,
    handler: { args, ctx in
      let status = args["status"]?.string ?? "all"
      let limit = args["limit"]?.int ?? Limits.listedRecordsDefault
      let offset = args["offset"]?.int ?? 0
      let l = try ctx.engine.taskListing(status: TaskStatus(rawValue: status), limit: limit, offset: offset)
      let rows = l.tasks.map(ToolRendering.taskLine)
      @Sendable func text(_ cut: ToolOutput.SizeCut?) -> String {
        guard l.total > 0 else { return status == "all" ? "No tasks." : "No \(status) tasks." }
        let noun = status == "all" ? "task(s)" : "\(status) task(s)"
        let shown = cut?.kept ?? l.tasks.count
        let header = "\(shown) of \(l.total) \(noun)" + ToolRendering.pageClauses(offset: offset, listed: l.tasks.count, total: l.total)
          + (offset + l.tasks.count < l.total ? ", cut by the limit of \(limit) (limit takes up to \(Limits.tasks))" : "")
          + (cut == nil ? "" : ToolRendering.sizeCutClause)
        return ToolRendering.listing(
          header: header, rows: Array(rows.prefix(shown)), field: "tasks",
          tail: cut.map { [ToolRendering.sizeCutLine($0, noun, then: "call task_list again with offset \(offset + $0.kept) for the next ones")] } ?? [])
      }
      var structured: JSONObject = [
        "tasks": try ToolRendering.json(l.tasks), "count": .integer(l.tasks.count), "total": .integer(l.total),
        "truncated": .bool(l.isTruncated), "offset": .integer(offset),
      ]
      if let next = l.nextOffset { structured["nextOffset"] = .integer(next) }
      return ToolOutput(structured: .object(structured), text: text(nil), listing: ToolOutput.Listing(field: "tasks") { text($0) })
    })

  static let taskAdd = ToolDefinition(
    name: "task_add", title: "Add a task",
    description: "Add an open task. Local write: needs approval.",
    input: .object([
      ToolProperty("title", .text(min: 1, max: Limits.taskTitle), required: true, "The task."),
      ToolProperty("notes", .body(max: Limits.taskNotes), "Notes."),
      ToolProperty("priority", .oneOf(Priority.allCases.map(\.rawValue)), default: "normal", "Priority."),
      ToolProperty("knowledgeIDs", .uuids(), "Supporting knowledge items."),
    ]),
    outputSchema: ToolRendering.outputSchema(["task": ToolRendering.anyObject], required: ["task"]),
    risk: .localWrite, isIdempotent: false,
    preflight: { args, ctx in
      try ctx.engine.checkAddTask(
        title: args["title"]?.string ?? "", notes: args["notes"]?.string ?? "", knowledgeIDs: ToolRendering.uuids(args, "knowledgeIDs"))
    },
    handler: { args, ctx in
      let t = try ctx.engine.addTask(
        title: args["title"]?.string ?? "", notes: args["notes"]?.string ?? "",
        priority: Priority(rawValue: args["priority"]?.string ?? "normal") ?? .normal, knowledgeIDs: ToolRendering.uuids(args, "knowledgeIDs"))
      return ToolOutput(structured: .object(["task": try ToolRendering.json(t)]), text: "Added task \(t.id.uuidString): \(ToolRendering.quoted(t.title))", changedIDs: [t.id])
    })

  static let taskComplete = ToolDefinition(
    name: "task_complete", title: "Complete a task",
    description: "Mark a task completed (an already completed task is left as it was, and alreadyCompleted says so). Local write: needs approval, except for a completed task, which changes nothing.",
    input: .object([ToolProperty("id", .uuid, required: true, "The task id.")]),
    outputSchema: ToolRendering.outputSchema(
      [
        "task": ToolRendering.anyObject, "alreadyCompleted": .object(["type": "boolean"]),
        "rebuiltHandoffIDs": ContinuityTools.rebuiltHandoffIDsSchema,
      ], required: ["task", "alreadyCompleted"]),
    risk: .localWrite, isIdempotent: true,
    preflight: { args, ctx in try ctx.engine.checkTaskStatusChange(id: try ContinuityTools.requireID(args), to: .completed) },
    alsoChanges: { args, ctx in
      ToolRendering.summaryRewrites(
        try ctx.engine.handoffSummariesRewritten(bySettingTask: try ContinuityTools.requireID(args), to: .completed))
    },
    // Completing a completed task changes nothing: answered without asking (review 23-a, 9).
    unchangedAnswer: { args, ctx in
      let t = try ctx.engine.task(id: try ContinuityTools.requireID(args))
      return t.status == .completed ? try alreadyCompleted(t) : nil
    },
    handler: { args, ctx in
      let outcome = try ctx.engine.completeTaskReportingOutcome(id: try ContinuityTools.requireID(args))
      let t = outcome.task
      // An already completed task is left as it was: the receipt records no change.
      if outcome.wasAlreadyInStatus { return try alreadyCompleted(t) }
      // A handoff whose summary the change rewrote is a record it changed (review 19-c, finding 3).
      return ToolOutput(
        structured: .object(try ContinuityTools.statusChangeStructure(outcome, flag: "alreadyCompleted")),
        text: ToolRendering.withRebuiltSummaries(
          "Completed task \(t.id.uuidString): \(ToolRendering.quoted(t.title))", outcome.rebuiltHandoffIDs),
        changedIDs: [t.id] + outcome.rebuiltHandoffIDs)
    })

  /// `task_complete`'s answer for a task completed already: nothing changed, no changed ids.
  static func alreadyCompleted(_ t: TaskItem) throws -> ToolOutput {
    ToolOutput(
      structured: .object(["task": try ToolRendering.json(t), "alreadyCompleted": true]),
      text: "Task \(t.id.uuidString) was already completed" + (t.completedAt.map { " at \(ISO8601.string(from: $0))" } ?? "")
        + "; nothing changed: \(ToolRendering.quoted(t.title))",
      changedIDs: [])
  }
}
