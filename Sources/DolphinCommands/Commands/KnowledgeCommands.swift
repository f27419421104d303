import ContinuityKit
import Foundation
import KnowledgeEngine

/// Shared flow of `… delete <id> [--yes]`: plan, show, confirm, apply.
func runDeletion(_ ctx: CommandContext, _ request: (UUID) -> DeletionRequest, field: String) throws {
  let id = try ctx.uuid(ctx.arguments.positionals[0], field: field)
  let engine = try ctx.engine()
  let plan = try engine.planDeletion(of: request(id))
  if !ctx.json { ctx.console.print(Render.plan(plan)) } else { ctx.console.printError(Render.plan(plan)) }
  try ctx.confirm("Apply this deletion?")
  let report = try engine.apply(plan)
  if ctx.json {
    try ctx.console.printJSON(report)
  } else {
    ctx.console.print("Deleted \(plan.target.rawValue) \(plan.targetID.uuidString) (\(report.removedIDs.count) record(s) removed, \(plan.changes.count) change(s) applied).")
  }
}

enum KnowledgeCommands {
  static let all = [list, get, delete]

  static let list = Command(
    spec: CommandSpec(
      path: ["knowledge", "list"], summary: "List knowledge items, newest first.",
      options: [
        OptionSpec(name: "kind", value: "K", repeatable: true, help: "Only these kinds (\(Commands.kindList))."),
        OptionSpec(name: "tag", value: "T", help: "Only items with this tag."),
        OptionSpec(name: "limit", value: "N", help: "At most N items (1…\(Limits.knowledgeItemsMaximum), default 50)."),
      ]),
    run: { ctx in
      let kinds = try ctx.arguments.all("kind").map { try ctx.parseEnum(KnowledgeKind.self, $0, field: "kind") }
      let limit = try ctx.integer("limit", default: 50, range: 1...Limits.knowledgeItemsMaximum)
      let engine = try ctx.engine()
      let items = try engine.listKnowledge(kinds: kinds, tag: ctx.arguments.value("tag"), limit: limit)
      let total = try engine.store.read { tx in try tx.knowledgeCount() }
      if ctx.json {
        struct Out: Encodable { var items: [KnowledgeItem]; var count: Int; var total: Int }
        try ctx.console.printJSON(Out(items: items, count: items.count, total: total))
      } else {
        ctx.console.print("\(items.count) item(s) shown of \(total) in the workspace")
        for k in items { ctx.console.print(Render.knowledgeLine(k)) }
      }
    })

  static let get = Command(
    spec: CommandSpec(path: ["knowledge", "get"], summary: "Show one knowledge item by id (exact lookup).", positionals: [("id", "The item's UUID.")]),
    run: { ctx in
      let id = try ctx.uuid(ctx.arguments.positionals[0], field: "id")
      let item = try ctx.engine().knowledge(id: id)
      if ctx.json { try ctx.console.printJSON(item) } else { ctx.console.print(Render.knowledgeDetail(item)) }
    })

  static let delete = Command(
    spec: CommandSpec(
      path: ["knowledge", "delete"], summary: "Delete a knowledge item after showing what else changes.",
      positionals: [("id", "The item's UUID.")], confirms: true,
      discussion: "Prints the plan (relationships, task and handoff references, digests, memory links), asks on a terminal, then applies it in one transaction."),
    run: { ctx in try runDeletion(ctx, { .knowledge($0) }, field: "id") })
}

enum MemoryCommands {
  static let all = [save, list, search, delete]

  static let save = Command(
    spec: CommandSpec(
      path: ["memory", "save"], summary: "Save a legacy memory (also mirrored as a knowledge item, source legacyMemory).",
      positionals: [("text", "The memory, at most \(Limits.memoryText) characters; '-' reads stdin.")],
      options: [OptionSpec(name: "tags", value: "a,b", repeatable: true, help: "Comma-separated tags.")]),
    run: { ctx in
      var text = ctx.arguments.positionals[0]
      if text == "-" { text = ctx.console.readAll() }
      let r = try ctx.engine().saveMemory(text: text, tags: Commands.splitTags(ctx.arguments.all("tags")))
      if ctx.json {
        struct Out: Encodable { var memory: MemoryItem; var mirror: KnowledgeItem; var digestID: UUID? }
        try ctx.console.printJSON(Out(memory: r.memory, mirror: r.mirror, digestID: r.digest?.id))
      } else {
        ctx.console.print("Saved memory \(r.memory.id.uuidString)")
        ctx.console.print("Mirrored as knowledge \(r.mirror.id.uuidString) (kind context, source legacyMemory)")
        if let d = r.digest { ctx.console.print("Stored rule-based digest \(d.id.uuidString)") }
      }
    })

  static let list = Command(
    spec: CommandSpec(
      path: ["memory", "list"], summary: "List legacy memories, newest first.",
      options: [OptionSpec(name: "limit", value: "N", help: "At most N (1…\(Limits.memories), default 50).")]),
    run: { ctx in
      let limit = try ctx.integer("limit", default: 50, range: 1...Limits.memories)
      let items = try ctx.engine().listMemories(limit: limit)
      if ctx.json {
        struct Out: Encodable { var memories: [MemoryItem] }
        try ctx.console.printJSON(Out(memories: items))
      } else {
        ctx.console.print("\(items.count) memory(ies)")
        for m in items { ctx.console.print(Render.memoryLine(m)) }
      }
    })

  static let search = Command(
    spec: CommandSpec(
      path: ["memory", "search"], summary: "Search legacy memories (mode hybrid-lexical).",
      positionals: [("query", "Words to find, at most \(Limits.query) characters.")],
      options: [OptionSpec(name: "limit", value: "N", help: "At most N results (1…\(Limits.searchResultsMaximum), default \(Limits.searchResultsDefault)).")]),
    run: { ctx in try SearchCommands.runMemorySearch(ctx) })

  static let delete = Command(
    spec: CommandSpec(
      path: ["memory", "delete"], summary: "Delete a legacy memory and its knowledge mirror after showing the plan.",
      positionals: [("id", "The memory's UUID.")], confirms: true),
    run: { ctx in try runDeletion(ctx, { .memory($0) }, field: "id") })
}

enum TaskCommands {
  static let all = [add, list, search, complete, reopen, delete]

  static let add = Command(
    spec: CommandSpec(
      path: ["task", "add"], summary: "Add an open task.",
      positionals: [("title", "At most \(Limits.taskTitle) characters.")],
      options: [
        OptionSpec(name: "notes", value: "TEXT", help: "Notes, at most \(Limits.taskNotes) characters."),
        OptionSpec(name: "priority", value: "P", help: "low, normal (default), high or critical."),
        OptionSpec(name: "knowledge", value: "ID", repeatable: true, help: "A supporting knowledge item (≤ \(Limits.idsPerList))."),
      ]),
    run: { ctx in
      let a = ctx.arguments
      let priority = try a.value("priority").map { try ctx.parseEnum(Priority.self, $0, field: "priority") } ?? .normal
      let ids = try a.all("knowledge").enumerated().map { i, s in try ctx.uuid(s, field: "knowledge[\(i)]") }
      let t = try ctx.engine().addTask(title: a.positionals[0], notes: a.value("notes") ?? "", priority: priority, knowledgeIDs: ids)
      if ctx.json { try ctx.console.printJSON(t) } else { ctx.console.print("Added task \(t.id.uuidString): \(inert(t.title))") }
    })

  static let list = Command(
    spec: CommandSpec(
      path: ["task", "list"], summary: "List tasks: open first, then by priority and age.",
      options: [OptionSpec(name: "status", value: "S", help: "open, completed or all (default all).")]),
    run: { ctx in
      let s = ctx.arguments.value("status") ?? "all"
      let status: TaskStatus? = s == "all" ? nil : try ctx.parseEnum(TaskStatus.self, s, field: "status")
      let tasks = try ctx.engine().listTasks(status: status)
      if ctx.json {
        struct Out: Encodable { var tasks: [TaskItem] }
        try ctx.console.printJSON(Out(tasks: tasks))
      } else {
        ctx.console.print("\(tasks.count) task(s)")
        for t in tasks { ctx.console.print(Render.taskLine(t)) }
      }
    })

  static func statusChange(_ path: String, _ summary: String, _ op: @escaping @Sendable (KnowledgeEngine, UUID) throws -> TaskItem) -> Command {
    Command(
      spec: CommandSpec(path: ["task", path], summary: summary, positionals: [("id", "The task's UUID.")]),
      run: { ctx in
        let id = try ctx.uuid(ctx.arguments.positionals[0], field: "id")
        let t = try op(try ctx.engine(), id)
        if ctx.json { try ctx.console.printJSON(t) } else { ctx.console.print(Render.taskLine(t)) }
      })
  }

  static let complete = statusChange("complete", "Mark a task completed.") { try $0.completeTask(id: $1) }
  static let reopen = statusChange("reopen", "Reopen a completed task.") { try $0.reopenTask(id: $1) }

  static let delete = Command(
    spec: CommandSpec(path: ["task", "delete"], summary: "Delete a task after showing the plan.", positionals: [("id", "The task's UUID.")], confirms: true),
    run: { ctx in try runDeletion(ctx, { .task($0) }, field: "id") })
}

enum SearchCommands {
  /// Temporary until the lexical index lands: substring match over memories.
  static func runMemorySearch(_ ctx: CommandContext) throws {
    let q = ctx.arguments.positionals[0]
    try Limits.check("query", q, limit: Limits.query)
    try Limits.checkNotEmpty("query", q)
    let items = try ctx.engine().listMemories().filter { $0.text.localizedCaseInsensitiveContains(q) }
    for m in items { ctx.console.print(Render.memoryLine(m)) }
  }
}

enum MigrateCommands {
  static let all: [Command] = []
}
