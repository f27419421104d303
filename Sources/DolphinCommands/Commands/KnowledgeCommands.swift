import ContinuityKit
import Foundation
import KnowledgeEngine

/// Shared flow of `… delete <id> [--yes]`: plan, show, confirm, apply.
/// - Parameter resolve: turns the id argument into an id once the workspace is open (handoffs
///   take `latest` and id prefixes: ``KnowledgeEngine/resolveHandoffReference(_:field:)``);
///   nil for a full UUID only, checked before the workspace is opened.
func runDeletion(
  _ ctx: CommandContext, _ request: (UUID) -> DeletionRequest, field: String,
  resolve: ((KnowledgeEngine, String) throws -> UUID)? = nil
) throws {
  let argument = ctx.arguments.positionals[0]
  let id: UUID
  let engine: KnowledgeEngine
  if let resolve {
    engine = try ctx.engineForPlannedChange(.update)
    id = try resolve(engine, argument)
  } else {
    id = try ctx.uuid(argument, field: field)
    engine = try ctx.engineForPlannedChange(.update)
  }
  let plan = try engine.planDeletion(of: request(id))
  var shown = Render.plan(plan)
  // Review 21-a, 14: the first decision is cited by every digest, so deleting it deletes the
  // whole digest history; the plan says so in one line, not only digest by digest.
  let digests = plan.deletedDigestCount
  if digests > 1 {
    shown += "\n  That is \(digests) of the \(plan.storedDigestCount) stored digest(s)"
      + (digests == plan.storedDigestCount ? ": the whole digest history." : ".")
  }
  if !ctx.json { ctx.console.print(shown) } else { ctx.console.printError(shown) }
  try ctx.confirm("Apply this deletion?", action: "the deletion", plan: plan)
  let report = try engine.apply(plan)
  if ctx.json {
    try ctx.console.printJSON(report)
  } else {
    ctx.console.print("Deleted \(plan.target.rawValue) \(plan.targetID.uuidString) (\(report.removedIDs.count) record(s) removed, \(plan.recordChangeCount) change(s) applied).")
  }
}

enum KnowledgeCommands {
  static let all = [list, get, edit, delete]

  static let list = Command(
    spec: CommandSpec(
      path: ["knowledge", "list"], summary: "List knowledge items, most recently changed first.",
      options: [
        OptionSpec(name: "kind", value: "K", repeatable: true, help: "Only these kinds (\(Commands.kindList))."),
        OptionSpec(name: "tag", value: "T", help: "Only items with this tag (case and accents ignored)."),
        OptionSpec(name: "limit", value: "N", help: "At most N items (1…\(Limits.knowledgeItemsMaximum), default \(Limits.listedRecordsDefault))."),
      ]),
    run: { ctx in
      let kinds = try ctx.arguments.all("kind").map { try ctx.parseEnum(KnowledgeKind.self, $0, name: "--kind") }
      let limit = try ctx.integer("limit", default: Limits.listedRecordsDefault, range: 1...Limits.knowledgeItemsMaximum)
      let tag = try ctx.tagFilter()
      let engine = try ctx.engine(.read)
      let listing = try engine.knowledgeListing(kinds: kinds, tag: tag, limit: limit)
      // Marked as `search` and `knowledge get` mark them (review 18-d, M10).
      let successors = try engine.successors(of: listing.items.map(\.id))
      if ctx.json {
        // `emptyReason` is present only when nothing matches, as in `search --json`;
        // `supersededBy` (item id → the ids of the items that supersede it) only when some
        // listed item is superseded.
        struct Out: Encodable {
          var items: [KnowledgeItem]; var count: Int; var total: Int
          /// Whether the limit left some out, as `task list` says it (review 21-a, 6).
          var truncated: Bool
          var emptyReason: KnowledgeListing.EmptyReason?
          var supersededBy: [String: [UUID]]?
        }
        let marks = Dictionary(uniqueKeysWithValues: successors.map { ($0.key.uuidString, $0.value) })
        try ctx.console.printJSON(
          Out(
            items: listing.items, count: listing.items.count, total: listing.total,
            truncated: listing.isTruncated, emptyReason: listing.emptyReason,
            supersededBy: marks.isEmpty ? nil : marks))
      } else {
        let filtered = !kinds.isEmpty || tag != nil
        ctx.console.print(
          "\(listing.items.count) item(s) shown of \(listing.total) " + (filtered ? "matching" : "in the workspace")
            + Render.leftOutHint(shown: listing.items.count, total: listing.total, maximum: Limits.knowledgeItemsMaximum))
        if let why = listing.emptyExplanation {
          let advice = switch listing.emptyReason {
          case .noKnowledge: "; `\(command: "dolphin capture KIND TITLE")` adds one"
          case .noItemWithTag, .noItemWithTagInKinds: Render.oneTagHint(tag).map { " " + $0 } ?? ""
          case .noItemInKinds, nil: ""
          }
          ctx.console.print("No items: \(inert(why))\(advice).")
        }
        for k in listing.items {
          let note = KnowledgeEngine.supersededNote(successors[k.id] ?? [])
          ctx.console.print(Render.knowledgeLine(k) + (note.isEmpty ? "" : "  [\(note)]"))
        }
      }
    })

  static let get = Command(
    spec: CommandSpec(path: ["knowledge", "get"], summary: "Show one knowledge item by id (exact lookup).", positionals: [("id", "The item's UUID.")]),
    run: { ctx in
      let id = try ctx.uuid(ctx.arguments.positionals[0], field: "id")
      let (item, successors) = try ctx.engine(.read).knowledgeWithSuccessors(id: id)
      if ctx.json {
        // The record under its type's key, as `capture` and the MCP tool `knowledge_get` give it,
        // and `supersededBy` beside it only when another item supersedes it.
        struct Out: Encodable { var item: KnowledgeItem; var supersededBy: [UUID]? }
        try ctx.console.printJSON(Out(item: item, supersededBy: successors.isEmpty ? nil : successors.map(\.id)))
      } else {
        ctx.console.print(Render.knowledgeDetail(item, supersededBy: successors))
      }
    })

  static let edit = Command(
    spec: CommandSpec(
      path: ["knowledge", "edit"], summary: "Change a knowledge item in place (title, content, kind, tags, relationships, priority).",
      positionals: [("id", "The item's UUID.")],
      options: [
        OptionSpec(name: "title", value: "T", help: "A new title (≤ \(Limits.title) characters)."),
        OptionSpec(
          name: "content", value: "TEXT", help: "New body text (≤ \(Limits.content) characters); '-' reads stdin; '' removes it.",
          readsStandardInput: true),
        OptionSpec(name: "content-file", value: "PATH", help: "Read the new body from a UTF-8 text file."),
        OptionSpec(name: "kind", value: "K", help: "A new kind (\(Commands.kindList))."),
        OptionSpec(name: "priority", value: "P", help: "low, normal, high or critical."),
        OptionSpec(
          name: "tags", value: "a,b", repeatable: true,
          help: "Replace every tag with these ('' removes them all); the item holds ≤ \(Limits.tagsPerItem) tags, each ≤ \(Limits.tagLength) characters, stored trimmed and lowercased."),
        OptionSpec(
          name: "add-tags", value: "a,b", repeatable: true,
          help: "Add these tags (each ≤ \(Limits.tagLength) characters, stored trimmed and lowercased; the item holds ≤ \(Limits.tagsPerItem) in all)."),
        OptionSpec(name: "remove-tags", value: "a,b", repeatable: true, help: "Remove these tags (each must be held)."),
        OptionSpec(
          name: "relates", value: "KIND:UUID", repeatable: true,
          help: "Add one relationship to an existing item (repeat for each; the item holds ≤ \(Limits.relationshipsPerItem) in all); KIND as for capture."),
        OptionSpec(name: "unrelate", value: "UUID", repeatable: true, help: "Remove every relationship to this item (repeat for each)."),
        Commands.allowCredentials,
      ],
      discussion: """
        Examples:
          dolphin knowledge edit 3F2504E0-4F89-11D3-9A0C-0305E82C3301 --title "Use SQLite (WAL) for the workspace"
          dolphin knowledge edit 3F2504E0-4F89-11D3-9A0C-0305E82C3301 --add-tags storage --priority high
        Text is checked as at capture. The revision goes up by one and updatedAt becomes now, in one
        transaction with the search index; an edit that changes nothing stores nothing (exit 0, said so).
        The id, source and creation date never change. An item mirroring a legacy memory is not edited
        (search shows the memory through it; memories are kept as saved). Stored digests are snapshots
        and keep the text they were built from (the edit says when one quotes the item); a handoff summary
        built by rules follows a new title (the edit names each handoff whose summary it rewrote; --json
        lists them as rebuiltHandoffIDs), one written by hand is kept. The old text is
        not kept: to keep it, capture a new item with --relates supersedes:ID instead. Only the text an
        edit sets is checked for credentials.
        """,
      fieldFlags: [
        FieldFlag("title", "--title"), FieldFlag("content", "--content"), FieldFlag("tags", "--tags"),
        FieldFlag("addTags", "--add-tags"), FieldFlag("removeTags", "--remove-tags"),
        FieldFlag("relationships", "--relates"), FieldFlag("addRelationships", "--relates"),
        FieldFlag("removeRelationshipsTo", "--unrelate"),
      ]),
    run: { ctx in
      let a = ctx.arguments
      let id = try ctx.uuid(a.positionals[0], field: "id")
      let kind = try a.value("kind").map { try ctx.parseEnum(KnowledgeKind.self, $0, name: "--kind") }
      let priority = try a.value("priority").map { try ctx.parseEnum(Priority.self, $0, name: "--priority") }
      let relationships = try a.all("relates").enumerated().map { i, spec in try Commands.parseRelationship(spec, index: i, ctx: ctx) }
      let unrelate = try a.all("unrelate").map { try ctx.uuid($0, field: "--unrelate") }
      let content = try Commands.contentOption(ctx)
      // Empty input read from stdin or a file is more likely a mistake (a pipe from a command
      // that failed) than a wish to remove the body, which the old text would not survive
      // (review, s17); `--content ''` says that plainly.
      if content == "", a.value("content") != "" {
        let source = a.value("content-file").map { "--content-file \(quotedValue($0, cutAt: 60)) is an empty file" }
          ?? "--content -: standard input was empty"
        throw ValidationError(
          field: "content", message: "\(source); to remove the content, give --content ''; nothing was changed")
      }
      let edit = KnowledgeEdit(
        title: a.value("title"), content: content, kind: kind, priority: priority,
        tags: a.all("tags").isEmpty ? nil : Commands.splitTags(a.all("tags")),
        addTags: Commands.splitTags(a.all("add-tags")), removeTags: Commands.splitTags(a.all("remove-tags")),
        addRelationships: relationships, removeRelationshipsTo: unrelate, allowCredentials: a.has("allow-credentials"))
      guard !edit.isEmpty else {
        throw CLIError.usage(
          "knowledge edit: nothing to change; give at least one of --title, --content, --content-file, --kind, --priority, "
            + "--tags, --add-tags, --remove-tags, --relates, --unrelate")
      }
      let engine = try ctx.engine(.update)
      let result = try engine.editKnowledge(id: id, edit)
      if result.digestsQuotingEarlierText > 0 {
        ctx.console.printDiagnostic(
          "dolphin: notice: \(result.digestsQuotingEarlierText) stored digest(s) cite this item and still quote its earlier "
            + "text (digests are snapshots); `\(command: "dolphin context --save")` stores one with the new text, and "
            + "`\(command: "dolphin erase --kind digests")` removes every stored digest")
      }
      if ctx.json {
        // `rebuiltHandoffIDs` only when the edit rewrote a handoff's rule-built summary, as the
        // MCP tools give it.
        struct Out: Encodable {
          var item: KnowledgeItem; var changed: [String]; var digestsQuotingEarlierText: Int; var rebuiltHandoffIDs: [UUID]?
        }
        try ctx.console.printJSON(
          Out(
            item: result.item, changed: result.changed, digestsQuotingEarlierText: result.digestsQuotingEarlierText,
            rebuiltHandoffIDs: result.rebuiltHandoffIDs.isEmpty ? nil : result.rebuiltHandoffIDs))
      } else if result.changed.isEmpty {
        ctx.console.print(
          "No change: \(result.item.kind.rawValue) \(inertQuoted(result.item.title)) already holds what was given "
            + "(still revision \(result.item.revision)).")
      } else {
        ctx.console.print(
          "Edited \(result.item.kind.rawValue) \(inertQuoted(result.item.title)): \(result.changed.joined(separator: ", ")) "
            + "changed (revision \(result.item.revision)).")
        ctx.console.print("id: \(result.item.id.uuidString)")
        ctx.printRewrittenSummaries(result.rebuiltHandoffIDs, engine: engine)
      }
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
      options: [
        OptionSpec(
          name: "tags", value: "a,b", repeatable: true,
          help: "Comma-separated tags (≤ \(Limits.tagsPerItem), each ≤ \(Limits.tagLength) characters), stored trimmed and lowercased; a repeat is kept once."),
        Commands.allowCredentials,
      ],
      discussion: """
        The mirror counts toward knowledgeItemLimit (default \(Limits.knowledgeItemsDefault), at most \(Limits.knowledgeItemsMaximum)); past it
        the save is refused (exit 4) with the count held and the limit, and memories are at most \(Limits.memories) (fixed).
        `dolphin settings set knowledgeItemLimit N` raises the limit.
        """,
      fieldFlags: [FieldFlag("tags", "--tags")]),
    run: { ctx in
      var text = ctx.arguments.positionals[0]
      if text == "-" {
        ctx.standardInputHolds = "the memory's text"
        text = try TextInput.read(.standardInput, field: "text", limit: Limits.memoryText, console: ctx.console)
      }
      let r = try ctx.engine(.create).saveMemory(
        text: text, tags: Commands.splitTags(ctx.arguments.all("tags")),
        allowCredentials: ctx.arguments.has("allow-credentials"))
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
      options: [OptionSpec(name: "limit", value: "N", help: "At most N (1…\(Limits.memories), default \(Limits.listedRecordsDefault)).")]),
    run: { ctx in
      let limit = try ctx.integer("limit", default: Limits.listedRecordsDefault, range: 1...Limits.memories)
      let listing = try ctx.engine(.read).memoryListing(limit: limit)
      if ctx.json {
        // `supersededBy` (memory id → the ids of the items that supersede its mirror) only when
        // some listed memory's mirror is superseded, as `knowledge list --json` gives it.
        struct Out: Encodable {
          var memories: [MemoryItem]; var count: Int; var total: Int; var truncated: Bool
          var supersededBy: [String: [UUID]]?
        }
        let marks = Dictionary(uniqueKeysWithValues: listing.supersededBy.map { ($0.key.uuidString, $0.value) })
        try ctx.console.printJSON(
          Out(
            memories: listing.memories, count: listing.memories.count, total: listing.total,
            truncated: listing.isTruncated, supersededBy: marks.isEmpty ? nil : marks))
      } else {
        ctx.console.print(
          "\(listing.memories.count) memory(ies) shown of \(listing.total) in the workspace"
            + Render.leftOutHint(shown: listing.memories.count, total: listing.total, maximum: Limits.memories))
        for m in listing.memories {
          ctx.console.print(
            Render.memoryLine(m)
              + (listing.supersededBy[m.id].map { "  [\(KnowledgeEngine.supersededNote($0))]" } ?? ""))
        }
      }
    })

  static let search = Command(
    spec: CommandSpec(
      path: ["memory", "search"], summary: "Search legacy memories (mode hybrid-lexical).",
      positionals: [("query", "Words to find. The first \(Limits.query) characters are searched, cut between words; at most \(Limits.queryInput) Unicode code points are accepted.")],
      options: [
        OptionSpec(name: "limit", value: "N", help: "At most N results (1…\(Limits.searchResultsMaximum), default \(Limits.searchResultsDefault))."),
        OptionSpec(name: "explain", value: nil, help: "Show each result's score parts and how each query word matched."),
      ]),
    run: { ctx in try SearchCommands.runMemorySearch(ctx) })

  static let delete = Command(
    spec: CommandSpec(
      path: ["memory", "delete"], summary: "Delete a legacy memory and its knowledge mirror after showing the plan.",
      positionals: [("id", "The memory's UUID.")], confirms: true),
    run: { ctx in try runDeletion(ctx, { .memory($0) }, field: "id") })
}

enum TaskCommands {
  static let all = [add, list, get, edit, search, complete, reopen, delete]

  static let get = Command(
    spec: CommandSpec(
      path: ["task", "get"], summary: "Show one task: title, status, priority, dates, notes and knowledge ids.",
      positionals: [("id", "The task's UUID.")]),
    run: { ctx in
      let id = try ctx.uuid(ctx.arguments.positionals[0], field: "id")
      let t = try ctx.engine(.read).task(id: id)
      if ctx.json { try ctx.console.printJSON(TaskOutput(task: t)) } else { ctx.console.print(Render.taskDetail(t)) }
    })

  static let edit = Command(
    spec: CommandSpec(
      path: ["task", "edit"], summary: "Change a task in place (title, notes, priority, knowledge).",
      positionals: [("id", "The task's UUID.")],
      options: [
        OptionSpec(name: "title", value: "T", help: "A new title (≤ \(Limits.taskTitle) characters)."),
        OptionSpec(
          name: "notes", value: "TEXT", help: "New notes (≤ \(Limits.taskNotes) characters); '-' reads stdin; '' removes them.",
          readsStandardInput: true),
        OptionSpec(name: "priority", value: "P", help: "low, normal, high or critical."),
        OptionSpec(
          name: "knowledge", value: "ID", repeatable: true,
          help: "A supporting knowledge item; the ones given replace the stored list (≤ \(Limits.idsPerList) distinct ids; a repeat is kept once)."),
        OptionSpec(name: "clear-knowledge", value: nil, help: "Remove every supporting knowledge item."),
        Commands.allowCredentials,
      ],
      discussion: """
        Examples:
          dolphin task edit 3F2504E0-4F89-11D3-9A0C-0305E82C3301 --priority critical
          dolphin task edit 3F2504E0-4F89-11D3-9A0C-0305E82C3301 --notes "Seen in Instruments"
        Text is checked as by `task add`; an edit that changes nothing stores nothing (exit 0, said so). The id,
        status and dates never change (`task complete` and `task reopen` change the status). A handoff summary
        built by rules follows a new title; one written by hand is kept. Only the text an edit sets is checked
        for credentials.
        """,
      fieldFlags: [FieldFlag("title", "--title"), FieldFlag("notes", "--notes"), FieldFlag("knowledgeIDs", "--knowledge")]),
    run: { ctx in
      let a = ctx.arguments
      let id = try ctx.uuid(a.positionals[0], field: "id")
      let priority = try a.value("priority").map { try ctx.parseEnum(Priority.self, $0, name: "--priority") }
      let given = try a.all("knowledge").map { try ctx.uuid($0, field: "--knowledge") }
      if a.has("clear-knowledge"), !given.isEmpty {
        throw CLIError.usage("task edit: give --knowledge ID or --clear-knowledge, not both")
      }
      let knowledge: [UUID]? = a.has("clear-knowledge") ? [] : given.isEmpty ? nil : given
      let notes = try ctx.textOption("notes", field: "notes", limit: Limits.taskNotes)
      let edit = TaskEdit(
        title: a.value("title"), notes: notes, priority: priority, knowledgeIDs: knowledge,
        allowCredentials: a.has("allow-credentials"))
      guard !edit.isEmpty else {
        throw CLIError.usage(
          "task edit: nothing to change; give at least one of --title, --notes, --priority, --knowledge, --clear-knowledge")
      }
      let engine = try ctx.engine(.update)
      let result = try engine.editTask(id: id, edit)
      if ctx.json {
        try ctx.console.printJSON(result)
      } else if result.changed.isEmpty {
        ctx.console.print("No change: task \(inertQuoted(result.task.title)) already holds what was given.")
      } else {
        // Named as the flags name them (`--knowledge`), not as the library's fields.
        let changed = result.changed.map { $0 == "knowledgeIDs" ? "knowledge" : $0 }
        ctx.console.print("Edited task \(inertQuoted(result.task.title)): \(changed.joined(separator: ", ")) changed.")
        ctx.console.print("id: \(result.task.id.uuidString)")
        // Worded as every other write words it, focus included (review 21-a, 15).
        ctx.printRewrittenSummaries(result.rebuiltHandoffIDs, engine: engine)
      }
    })

  static let add = Command(
    spec: CommandSpec(
      path: ["task", "add"], summary: "Add an open task.",
      positionals: [("title", "At most \(Limits.taskTitle) characters.")],
      options: [
        OptionSpec(
          name: "notes", value: "TEXT", help: "Notes, at most \(Limits.taskNotes) characters; '-' reads stdin.",
          readsStandardInput: true),
        OptionSpec(name: "priority", value: "P", help: "low, normal (default), high or critical."),
        OptionSpec(
          name: "knowledge", value: "ID", repeatable: true,
          help: "A supporting knowledge item (≤ \(Limits.idsPerList) distinct ids; a repeat is kept once)."),
        Commands.allowCredentials,
      ],
      fieldFlags: [FieldFlag("notes", "--notes"), FieldFlag("knowledgeIDs", "--knowledge")]),
    run: { ctx in
      let a = ctx.arguments
      let priority = try a.value("priority").map { try ctx.parseEnum(Priority.self, $0, name: "--priority") } ?? .normal
      let ids = try a.all("knowledge").map { try ctx.uuid($0, field: "--knowledge") }
      let notes = try ctx.textOption("notes", field: "notes", limit: Limits.taskNotes) ?? ""
      let t = try ctx.engine(.create).addTask(
        title: a.positionals[0], notes: notes, priority: priority, knowledgeIDs: ids,
        allowCredentials: a.has("allow-credentials"))
      if ctx.json { try ctx.console.printJSON(TaskOutput(task: t)) } else { ctx.console.print("Added task \(t.id.uuidString): \(inertQuoted(t.title))") }
    })

  static let list = Command(
    spec: CommandSpec(
      path: ["task", "list"], summary: "List tasks: open first, then by priority and age.",
      options: [
        OptionSpec(name: "status", value: "S", help: "open, completed or all (default all)."),
        OptionSpec(
          name: "limit", value: "N", help: "At most N tasks, the first in that order (1…\(Limits.tasks), default \(Limits.listedRecordsDefault))."),
      ]),
    run: { ctx in
      let s = try ctx.choice("status", among: ["open", "completed", "all"], default: "all")
      let status: TaskStatus? = s == "all" ? nil : TaskStatus(rawValue: s)
      // Bounded as every other list is (review 19-b, F10: 5,000 tasks printed 5,000 lines).
      let limit = try ctx.integer("limit", default: Limits.listedRecordsDefault, range: 1...Limits.tasks)
      let listing = try ctx.engine(.read).taskListing(status: status, limit: limit)
      if ctx.json {
        // `count` (listed) beside `total` (with the status), as the other lists give them, and
        // `truncated` as the MCP `task_list` tool gives it.
        struct Out: Encodable { var tasks: [TaskItem]; var count: Int; var total: Int; var truncated: Bool }
        try ctx.console.printJSON(
          Out(tasks: listing.tasks, count: listing.tasks.count, total: listing.total, truncated: listing.isTruncated))
      } else {
        let which = status.map { " \($0.rawValue)" } ?? ""
        ctx.console.print(
          "\(listing.tasks.count) task(s) shown of \(listing.total)\(which)"
            + Render.leftOutHint(shown: listing.tasks.count, total: listing.total, maximum: Limits.tasks))
        for t in listing.tasks { ctx.console.print(Render.taskLine(t)) }
      }
    })

  static let complete = Command(
    spec: CommandSpec(
      path: ["task", "complete"], summary: "Mark a task completed.", positionals: [("id", "The task's UUID.")],
      discussion: """
        Completing a completed task changes nothing (its completion time is kept) and says so; it still exits 0.
        A handoff summary built by rules that carries the task is rewritten (it lists open and completed
        tasks apart): each such handoff is named (--json: rebuiltHandoffIDs).
        """),
    run: { ctx in
      try changeStatus(ctx, flag: "alreadyCompleted", change: { try $0.completeTaskReportingOutcome(id: $1) }) { task in
        "Task already completed\(task.completedAt.map { " at " + Render.date($0) } ?? ""); nothing changed."
      }
    })

  /// Runs `task complete` or `task reopen`: prints the task (or, with `--json`, `{task, <flag>}`:
  /// ``TaskStatusOutput``) and, when it already had the status, `unchanged(task)`.
  static func changeStatus(
    _ ctx: CommandContext, flag: String, change: (KnowledgeEngine, UUID) throws -> TaskStatusChange,
    unchanged: (TaskItem) -> String
  ) throws {
    let id = try ctx.uuid(ctx.arguments.positionals[0], field: "id")
    let engine = try ctx.engine(.update)
    let outcome = try change(engine, id)
    if ctx.json {
      try ctx.console.printJSON(TaskStatusOutput(outcome, flag: flag))
      return
    }
    ctx.console.print(Render.taskLine(outcome.task))
    if outcome.wasAlreadyInStatus { ctx.console.print(unchanged(outcome.task)) }
    ctx.printRewrittenSummaries(outcome.rebuiltHandoffIDs, engine: engine)
  }

  /// `task add --json` and `task get --json`: `{task}`, as the MCP tool `task_add` gives it.
  struct TaskOutput: Encodable {
    var task: TaskItem
  }

  /// `task complete --json` and `task reopen --json`: `{task, alreadyCompleted}` or `{task,
  /// alreadyOpen}` — the flag says the task already had that status — and `rebuiltHandoffIDs`
  /// beside them only when the change rewrote a handoff's rule-built summary (it lists open and
  /// completed tasks apart), as the MCP tools `task_complete` and `task_reopen` give them.
  struct TaskStatusOutput: Encodable {
    var task: TaskItem
    var flag: String
    var wasAlreadyInStatus: Bool
    var rebuiltHandoffIDs: [UUID]

    init(_ outcome: TaskStatusChange, flag: String) {
      task = outcome.task
      self.flag = flag
      wasAlreadyInStatus = outcome.wasAlreadyInStatus
      rebuiltHandoffIDs = outcome.rebuiltHandoffIDs
    }

    private struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(task, forKey: Key(stringValue: "task"))
      try container.encode(wasAlreadyInStatus, forKey: Key(stringValue: flag))
      if !rebuiltHandoffIDs.isEmpty { try container.encode(rebuiltHandoffIDs, forKey: Key(stringValue: "rebuiltHandoffIDs")) }
    }
  }

  static let reopen = Command(
    spec: CommandSpec(
      path: ["task", "reopen"], summary: "Reopen a completed task.", positionals: [("id", "The task's UUID.")],
      discussion: """
        Reopening an open task changes nothing and says so; it still exits 0. As for `task complete`, each
        handoff whose rule-built summary the change rewrote is named (--json: rebuiltHandoffIDs).
        """),
    run: { ctx in
      try changeStatus(ctx, flag: "alreadyOpen", change: { try $0.reopenTaskReportingOutcome(id: $1) }) { _ in
        "Task already open; nothing changed."
      }
    })

  static let delete = Command(
    spec: CommandSpec(path: ["task", "delete"], summary: "Delete a task after showing the plan.", positionals: [("id", "The task's UUID.")], confirms: true),
    run: { ctx in try runDeletion(ctx, { .task($0) }, field: "id") })
}

enum SearchCommands {}

enum MigrateCommands {
  static let all = [migrate, quarantine]

  static let collectionOrder = ["conversations", "messages", "memories", "tasks", "receipts", "checkpoints"]

  /// What a first import that left the workspace's settings says of them
  /// (``LegacyMigrationReport/settingsKept``).
  static let settingsKeptClause =
    "the workspace's own settings were kept; the file's (assistant name, response style, calendar access) were not "
    + "imported"

  static func summary(_ r: LegacyMigrationReport) -> String {
    collectionOrder.map { "\(r.imported[$0] ?? 0) \($0)" }.joined(separator: ", ") + ", \(r.quarantined.count) quarantined"
  }

  /// `counts` in ``collectionOrder``, only collections it has.
  static func order(_ counts: [String: Int]) -> [(key: String, value: Int)] {
    collectionOrder.compactMap { name in counts[name].map { (name, $0) } }
  }

  /// What keeping the newest records did (``Render/keptNewest(_:olderThanKept:pruned:)``), one
  /// clause per kept collection that left something out, in ``KeptCollection`` order.
  static func keptClauses(_ r: LegacyMigrationReport) -> [String] {
    KeptCollection.allCases.compactMap {
      Render.keptNewest($0.rawValue, olderThanKept: r.olderThanKept[$0.rawValue] ?? 0, pruned: r.pruned[$0.rawValue] ?? 0)
    }
  }

  static let migrate = Command(
    spec: CommandSpec(
      path: ["migrate"], summary: "Import a legacy v1–v4 JSON workspace file into the workspace (one transaction).",
      positionals: [("file", "The legacy workspace JSON file (never modified).")],
      options: [
        OptionSpec(
          name: "again", value: nil,
          help: "Import only the file's records this workspace does not hold (by id): for a file imported before, or whose records came in another way.")
      ],
      discussion: """
        Everything is imported in one transaction or nothing is. Records that fail validation are kept
        verbatim in the quarantine table (see `dolphin quarantine`). Of messages, receipts, checkpoints
        and digests the workspace keeps the newest (by date, across its records and the file's, as
        `import` does): the report says how many of the file's, older, were not imported and how many
        of this workspace's were pruned (--json: olderThanKept, pruned). A 0600 backup of the file is kept in
        <workspace>/legacy-backups/, and its sha256 is recorded so the same file is never imported twice.
        A `workspace.json` found in the workspace directory is imported the same way on first use.

        A file imported before is skipped, so records erased or deleted since stay gone. With
        --again its records this workspace no longer holds (by id) are imported, and every record
        it still holds is left as it is, edited or not; the settings, the quarantine and the
        import record are not touched (--json: importedAgain, alreadyHeld). A file never imported
        whose records the workspace holds already (an earlier save of the same app workspace, or
        an export of a workspace that migrated it) is refused without --again; with it, only its
        records the workspace lacks are imported.

        The file's settings (assistant name, response style, calendar access) are imported on a first
        import only when the workspace's own are still the defaults and it holds none of the file's
        records; otherwise the workspace's are kept, and the report says which (--json:
        imported.settings, settingsKept). The knowledge item limit is never imported.

        A workspace.json found in the workspace directory is imported as with --again, and one that
        cannot be imported (damaged, empty) is named in a notice while the command goes on.
        """),
    run: { ctx in
      // Every error names the file as given, as `import`'s do.
      let path = ctx.arguments.positionals[0]
      guard !path.isEmpty else {
        throw CLIError.usage("migrate: the file path is empty; name the workspace JSON file")
      }
      let file = URL(fileURLWithPath: path)
      try Commands.requireExistingPath(path, consequence: "Nothing was imported")
      // The workspace's own workspace.json, migrated by hand: imported (or refused) by this
      // command alone, with one message (review 27-a, 5).
      let own =
        Commands.resolvedPath(file)
        == Commands.resolvedPath(ctx.workspaceDirectory.appendingPathComponent(KnowledgeEngine.legacyFileName))
      let engine = try ctx.engine(.create, legacyFile: own ? .importedByCommand : .none)
      // Beside the database as checked, links resolved (review, s15: a --workspace that is the
      // user's own link was taken for a directory others may change).
      let report = try engine.importLegacyWorkspace(
        file: file, named: path,
        backupDirectory: engine.legacyBackupDirectory ?? ctx.workspaceDirectory.appendingPathComponent("legacy-backups"),
        again: ctx.arguments.has("again"))
      if ctx.json {
        try ctx.console.printJSON(report)
        return
      }
      let first = report.firstImportedAt.map { " on \(Render.date($0))" } ?? ""
      if report.alreadyImported {
        // Review 20-a, 9: after an erase, "nothing changed" left no way to get the records back.
        ctx.console.print(
          "\(file.path) (sha256 \(report.sha256.prefix(16))…) was imported before\(first); nothing changed. "
            + "Records of it erased or deleted since stay gone; `\(command: "dolphin migrate \(path) --again")` "
            + "imports those this workspace no longer holds.")
        return
      }
      if report.importedAgain {
        let held = order(report.alreadyHeld).map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        ctx.console.print(
          "Imported again (first imported\(first)) from \(file.path): \(summary(report))"
            + (held.isEmpty ? "." : "; still held, left as they are: \(held)."))
        return
      }
      ctx.console.print("Imported legacy schema v\(report.sourceVersion ?? 0) from \(file.path): \(summary(report)).")
      if !report.alreadyHeld.isEmpty {
        // --again on a file never imported whose records the workspace holds (review 26-a, 2).
        ctx.console.print(
          "Held already, left as they are: " + order(report.alreadyHeld).map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            + ".")
      }
      // What became of the settings, said either way (review 27-a, 4).
      ctx.console.print(
        report.settingsKept
          ? settingsKeptClause.prefix(1).uppercased() + settingsKeptClause.dropFirst() + "."
          : "Settings: the file's assistant name, response style and calendar access were imported.")
      // As `import` says it (review 19-c): which records keeping the newest left out or pruned.
      for clause in keptClauses(report) { ctx.console.print(clause + ".") }
      ctx.console.print("Original unchanged; backup: \(report.backupPath ?? "?")")
      for q in report.quarantined.prefix(20) {
        // A record without a place in a list (the settings) is named alone, as `quarantine` names it.
        ctx.console.print(
          "  quarantined \(q.collection)\(q.index.map { "[\($0)]" } ?? ""): \(inert(Truncation.truncate(q.reason, to: 300)))")
      }
    })

  /// The most entries `dolphin quarantine --limit` lists at once.
  static let quarantineListMaximum = 100_000

  static let quarantine = Command(
    spec: CommandSpec(
      path: ["quarantine"], summary: "List records that imports kept aside verbatim because they failed validation.",
      options: [
        OptionSpec(
          name: "limit", value: "N",
          help: "At most N, the latest kept (1…\(quarantineListMaximum), default \(Limits.listedRecordsDefault)).")
      ]),
    run: { ctx in
      // Bounded as every other list (review 28-c, 13: every entry was printed, each raw record
      // whole in --json, up to 16 MiB apiece).
      let limit = try ctx.integer("limit", default: Limits.listedRecordsDefault, range: 1...quarantineListMaximum)
      // By import, then in each file's order within a collection (review 21-a, 19: listed as
      // found, `memories[1]`, `[3]`, `[2]`); --json keeps the stored order.
      let (entries, total) = try ctx.engine(.read).store.read { tx in
        try tx.listQuarantine(limit: limit, byImport: !ctx.json)
      }
      if ctx.json {
        // `{quarantined, count, total, truncated}`, as the other lists.
        struct Out: Encodable { var quarantined: [WorkspaceTransaction.QuarantineEntry]; var count: Int; var total: Int; var truncated: Bool }
        try ctx.console.printJSON(Out(quarantined: entries, count: entries.count, total: total, truncated: entries.count < total))
        return
      }
      ctx.console.print(
        entries.count == total
          ? "\(total) quarantined record(s)"
          : "\(entries.count) of \(total) quarantined record(s) shown (the latest \(entries.count); \(total - entries.count) "
            + "earlier left out, --limit N lists up to \(quarantineListMaximum))")
      for e in entries {
        // The settings have no index (stored as -1): `settings`, as `migrate` names them.
        // Cut, as `raw` is (review 18-c, C7: a 100,000-character reason was printed whole), but long enough for
        // any reason an import writes (review 21-a, 19); --json has it all.
        ctx.console.print(
          "\(e.sourceFile) \(e.collection)\(e.recordIndex >= 0 ? "[\(e.recordIndex)]" : ""): "
            + inert(Truncation.truncate(e.reason, to: 2000)))
        ctx.console.print("  \(inert(Truncation.truncate(e.raw, to: 300)))")
      }
    })
}
