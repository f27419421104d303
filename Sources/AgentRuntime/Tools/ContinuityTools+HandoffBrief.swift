import ContinuityKit
import Foundation
import KnowledgeEngine

/// `handoff_get` and `handoff_restore`: one handoff named by its UUID, `latest` or the start of
/// its id (``KnowledgeEngine/resolveHandoffReference(_:field:hints:)``, as `dolphin handoff get`
/// and `restore` take it), and the restore brief with what happened since the handoff was made
/// and whether it is stale (``KnowledgeEngine/staleness(of:)``).
extension ContinuityTools {
  /// The `id` argument of `handoff_get` and `handoff_restore`.
  static let handoffReference = ToolProperty(
    "id", .handoffReference, required: true,
    "The handoff: its UUID, `latest` (the newest by creation), or the start of its id (at least "
      + "\(KnowledgeEngine.handoffIDPrefixMinimum) hexadecimal digits, e.g. 3F2504E0, with the id's hyphens or none, naming exactly one handoff; a "
      + "prefix several handoffs have is refused, listing them). handoff_list lists the ids.")

  /// How the engine's errors for a handoff reference point the caller on: to the tools.
  static let handoffReferenceHints = HandoffReferenceHints.tools

  /// The handoff the `id` argument names (``KnowledgeEngine/resolveHandoffReference(_:field:hints:)``).
  /// - Throws: ``WorkspaceError/validation(_:)`` with field `id`, which the executor reports as
  ///   an invalid `arguments.id` (malformed, or a prefix several handoffs have) or, marked as a
  ///   missing record, a failure (`latest` with no handoff, a prefix no handoff has); storage errors.
  static func handoffID(_ args: JSONObject, _ ctx: ToolContext) throws -> UUID {
    try ctx.engine.resolveHandoffReference(args["id"]?.string ?? "", field: "id", hints: handoffReferenceHints)
  }

  static let handoffGet = ToolDefinition(
    name: "handoff_get", title: "Get a handoff",
    description: "One handoff by its UUID, latest (the newest) or the start of its id (exact; at least \(KnowledgeEngine.handoffIDPrefixMinimum) hexadecimal digits naming exactly one handoff, never a guess): its focus, summary, next steps and the ids of the knowledge items and tasks it carries. Reading never consumes or restores it. Read-only.",
    input: .object([handoffReference]),
    outputSchema: ToolRendering.outputSchema(["handoff": OutputSchemas.handoff], required: ["handoff"]),
    risk: .readOnly, isIdempotent: true,
    handler: { args, ctx in
      let h = try ctx.engine.handoff(id: try handoffID(args, ctx))
      var head = ["Handoff \(h.id.uuidString): \(ToolRendering.quoted(h.focus)) (\(carries(h.knowledgeIDs.count, h.taskIDs.count)))"]
      if !h.summary.isEmpty { head.append("Summary: " + ToolRendering.block(h.summary)) }
      // The ids, so that `handoff_restore` and `restore_session` can send a reader here for the
      // ones their bounded text leaves out; the structured output has every one.
      let held = "not shown; structuredContent.handoff holds every one"
      let text = ToolRendering.bounded(
        head: head,
        sections: [
          BoundedLines.Section(entries: h.nextSteps.map { "next: \(ToolRendering.line($0))" }) {
            more($0, "next step", "next steps", held)
          },
          BoundedLines.Section(entries: h.knowledgeIDs.map { "knowledge: \($0.uuidString)" }, rank: 1) {
            more($0, "knowledge item", "knowledge items", held)
          },
          BoundedLines.Section(entries: h.taskIDs.map { "task: \($0.uuidString)" }, rank: 1) {
            more($0, "task", "tasks", held)
          },
        ])
      return ToolOutput(structured: .object(["handoff": try ToolRendering.json(h)]), text: text)
    })

  static let handoffRestore = ToolDefinition(
    name: "handoff_restore", title: "Restore a handoff",
    description: "Mark a handoff (its UUID, latest, or the start of its id) active and return its continuity brief: what it carries, the knowledge captured and the tasks added, completed or updated since it was made, and, when the stale-handoff rule holds for it, why and what clears it (stale). Selects context only: it re-runs no tool, reuses no approval, completes no task and claims no work was done. Local write (the active marker): needs approval, except for the handoff active already, which changes nothing.",
    input: .object([handoffReference]),
    outputSchema: OutputSchemas.handoffBrief,
    risk: .localWrite, isIdempotent: true,
    preflight: { args, ctx in try ctx.engine.checkRestoreHandoff(id: try handoffID(args, ctx)) },
    alsoChanges: { args, ctx in
      // `latest` or a prefix names a handoff the arguments do not show: the approval does.
      let given = args["id"]?.string ?? ""
      guard UUID(uuidString: given.trimmingCharacters(in: .whitespacesAndNewlines)) == nil else { return [] }
      let h = try ctx.engine.handoff(id: try handoffID(args, ctx))
      return [
        "mark handoff \(h.id.uuidString) \(ToolRendering.quoted(Truncation.truncate(h.focus, to: 80))) active, "
          + "the one \(ToolRendering.quoted(given)) names now"
      ]
    },
    // Restoring the active handoff changes nothing (the marker is where it is, and restoring
    // writes nothing else): its brief is answered without asking (review 23-a, 9).
    unchangedAnswer: { args, ctx in
      try ctx.engine.briefOfActiveHandoff(id: try handoffID(args, ctx)).map { try restoreOutput($0, ctx, alreadyActive: true) }
    },
    // The approval names the handoff `latest` or a prefix names when it is asked; the call runs
    // on that one, and is refused if the reference names another once approved (review 31-a, 1).
    resolvingReferences: { args, ctx in
      var resolved = args
      resolved["id"] = .string(try handoffID(args, ctx).uuidString)
      return resolved
    },
    handler: { args, ctx in try restoreOutput(try ctx.engine.restoreHandoff(id: try handoffID(args, ctx)), ctx, alreadyActive: false) })

  /// `handoff_restore`'s output for the brief `b`: the brief (and `stale` when the stale-handoff
  /// rule holds) and its text; with `alreadyActive`, the handoff was the active one already, so
  /// the text says nothing changed and no id is changed.
  static func restoreOutput(_ b: HandoffBrief, _ ctx: ToolContext, alreadyActive: Bool) throws -> ToolOutput {
    let stale = try ctx.engine.staleness(of: b)
    var structured = try ToolRendering.json(b).object ?? [:]
    if let stale { structured["stale"] = try staleStructure(stale) }
    return ToolOutput(
      structured: .object(structured), text: restoreText(b, stale: stale, alreadyActive: alreadyActive),
      changedIDs: alreadyActive ? [] : [b.handoff.id])
  }

  /// The text of `handoff_restore`, within ``Limits/renderedToolOutput``: what it restored and
  /// carries, its focus and summary (cut at ``restoredSummaryCharacters``), a line counting what
  /// happened since it was made, then its next steps, its knowledge and tasks, the knowledge
  /// captured and the tasks added, completed or updated since (the latest
  /// ``KnowledgeEngine/briefCapturedSinceLimit`` of each, as `dolphin handoff restore` lists them), every list cut between its
  /// lines and saying how many it left out; last, the handoff that was active before (or, with
  /// `alreadyActive`, that it was the active one already) and, when the stale-handoff rule holds
  /// for it, why and what clears it.
  static func restoreText(_ b: HandoffBrief, stale: HandoffStaleness?, alreadyActive: Bool = false) -> String {
    var head = [
      "Restored handoff \(b.handoff.id.uuidString) as context only (nothing was re-run); it carries \(carries(b.knowledge.count, b.tasks.count)).",
      "Focus: \(ToolRendering.line(b.handoff.focus))",
    ]
    let summary = b.handoff.summary
    if !summary.isEmpty {
      // Cut as the restore_session prompt cuts it, so that the lists below keep some room.
      let shown = Truncation.truncate(summary, to: restoredSummaryCharacters)
      head.append(
        "Summary: " + ToolRendering.block(shown)
          + (shown == summary ? "" : " (cut at \(restoredSummaryCharacters) characters; handoff_get has all of it)"))
    }
    head.append(sinceLine(b))
    // Within the output bound, every list is cut between its lines and says how many it left
    // out (review, s17: the text stopped after the next steps, so a handoff of 64 knowledge
    // items and 64 tasks read as one with none). Next steps first, then knowledge and tasks
    // in turn, then what came since; titles are quoted with quotes escaped, as every tool's:
    // none can append an id.
    let note = "not shown; handoff_get lists them"
    let carried = Set(b.handoff.knowledgeIDs)
    var tail: [String] = []
    if let p = b.previouslyActiveID { tail.append("Previously active: handoff \(p.uuidString) (no longer active).") }
    if alreadyActive { tail.append("It was the active handoff already; nothing changed.") }
    if let stale { tail.append(staleLine(stale)) }
    return ToolRendering.bounded(
      head: head,
      sections: [
        BoundedLines.Section(entries: b.handoff.nextSteps.map { "Next: \(ToolRendering.line($0))" }) {
          more($0, "next step", "next steps", note)
        },
        BoundedLines.Section(
          entries: b.knowledge.map {
            "Knowledge: \(ToolRendering.quoted($0.title)) (id \($0.id.uuidString)"
              + ($0.revision.map { "; edited since this handoff, revision \($0)" } ?? "")
              + ($0.supersededBy.map { "; " + KnowledgeEngine.supersededNote($0) } ?? "") + ")"
          }, rank: 1
        ) { more($0, "knowledge item", "knowledge items", note) },
        BoundedLines.Section(entries: b.tasks.map { "Task: \(ToolRendering.quoted($0.title)) (id \($0.id.uuidString))" }, rank: 1) {
          more($0, "task", "tasks", note)
        },
        // Each with the page of a list tool that holds what the brief leaves out (review 28-d, 6:
        // structuredContent held only the latest 10 already shown, and `task_list` lists 50).
        BoundedLines.Section(entries: b.capturedSince.map { capturedSinceLine($0, carried: carried) }, total: b.capturedSinceTotal, rank: 1) {
          more(
            $0, "knowledge item captured since", "knowledge items captured since",
            sinceNote(
              shownInText: $0 - (b.capturedSinceTotal - b.capturedSince.count), field: "capturedSince",
              leftOut: b.capturedSinceTotal - b.capturedSince.count, span: b.capturedSinceLeftOut,
              call: { "knowledge_list {\"offset\": \($0.offset), \"limit\": \($0.limit)}" },
              among: "among other items (most recently changed first)"))
        },
        BoundedLines.Section(entries: tasksSince(b), total: b.tasksSinceTotal, rank: 1) {
          more(
            $0, "task added, completed or updated since", "tasks added, completed or updated since",
            sinceNote(
              shownInText: $0 - (b.tasksSinceTotal - b.tasksSince.count), field: "tasksSince",
              leftOut: b.tasksSinceTotal - b.tasksSince.count, span: b.tasksSinceLeftOut,
              call: { "task_list {\"status\": \"all\", \"offset\": \($0.offset), \"limit\": \($0.limit)}" },
              among: "among other tasks (open first, then by priority and age)"))
        },
      ],
      tail: tail)
  }

  /// What a "… and N more … since" line of ``restoreText(_:stale:alreadyActive:)`` says of the
  /// records it counts: those the text had no room for are in `structuredContent.<field>`; those
  /// the brief left out (beyond its latest ten) are on the list tool's page `span`, named as the
  /// call that lists them (`task_list {"status": "all", "offset": 3, "limit": 55} lists them,
  /// among other tasks (…)` when the page holds other records too). `notInText` of them were cut
  /// from the text only; `leftOut`, by the brief.
  static func sinceNote(
    shownInText notInText: Int, field: String, leftOut: Int, span: ListingSpan?, call: (ListingSpan) -> String, among: String
  ) -> String {
    var parts: [String] = []
    if notInText > 0 { parts.append("\(notInText) as the text is bounded, structuredContent.\(field) holds \(notInText == 1 ? "it" : "them")") }
    if let span {
      parts.append((notInText > 0 ? "the earlier ones: " : "") + "\(call(span)) lists them" + (span.limit > leftOut ? ", \(among)" : ""))
    }
    return "not shown; " + parts.joined(separator: "; ")
  }

  /// `Since it was made (2026-11-20T09:00:00.000Z): 3 knowledge items captured, 1 task added,
  /// completed or updated.`, the heading of what follows, said also when nothing happened; with
  /// `1 knowledge item it carries edited, ` before the tasks when one was (review 31-a, 2).
  static func sinceLine(_ b: HandoffBrief) -> String {
    "Since it was made (\(ISO8601.string(from: b.handoff.createdAt))): "
      + ToolRendering.counted(b.capturedSinceTotal, "knowledge item", "knowledge items") + " captured, "
      + (b.editedSince == 0
        ? "" : ToolRendering.counted(b.editedSince, "knowledge item it carries", "knowledge items it carries") + " edited, ")
      + ToolRendering.counted(b.tasksSinceTotal, "task", "tasks") + " added, completed or updated."
  }

  /// A knowledge item captured since the handoff: `Captured since: decision "New" (id N;
  /// supersedes O (in this handoff))`, marked as the CLI's brief marks it.
  static func capturedSinceLine(_ r: BriefReference, carried: Set<UUID>) -> String {
    var marks: [String] = []
    if let s = r.supersededBy { marks.append(KnowledgeEngine.supersededNote(s)) }
    if let p = r.supersedes {
      marks.append("supersedes " + p.map { $0.uuidString + (carried.contains($0) ? " (in this handoff)" : "") }.joined(separator: ", "))
    }
    return "Captured since: \(r.kind) \(ToolRendering.quoted(r.title)) (id \(r.id.uuidString)"
      + marks.map { "; " + $0 }.joined() + ")"
  }

  /// The tasks added, completed or updated since the handoff (review 20-b, 3), at most
  /// ``KnowledgeEngine/briefCapturedSinceLimit``: `Task since: "Title" (id N; added, now
  /// open)`.
  static func tasksSince(_ b: HandoffBrief) -> [String] {
    b.tasksSince.map { r in
      "Task since: \(ToolRendering.quoted(r.title)) (id \(r.id.uuidString); \(r.change ?? "changed"), now \(r.status ?? "unknown"))"
    }
  }

  /// What clears a stale handoff, in the tools' terms (``HandoffStaleness/remedy``): `restore
  /// the newer handoff "F" (handoff_restore with id N) or deactivate this one
  /// (handoff_deactivate).`, or `create a new handoff marked active (handoff_create with
  /// activate: true) or deactivate this one (handoff_deactivate).`
  static func staleAdvice(_ s: HandoffStaleness) -> String {
    let deactivate = "or deactivate this one (handoff_deactivate)."
    if s.remedy == .restoreNewer, let id = s.newerHandoffID {
      return "restore the newer handoff \(ToolRendering.quoted(Truncation.truncate(s.newerHandoffFocus ?? "", to: 80))) "
        + "(handoff_restore with id \(id.uuidString)) \(deactivate)"
    }
    return "create a new handoff marked active (handoff_create with activate: true) \(deactivate)"
  }

  /// `May be stale (rule stale-handoff, priority normal): 2 knowledge items were captured after
  /// it; to clear it, restore …`: the stale-handoff insight the restored handoff, now the active
  /// one, raises (`continuity_insights` gives it with the CLI's commands).
  static func staleLine(_ s: HandoffStaleness) -> String {
    "May be stale (rule stale-handoff, priority \(s.priority.rawValue)): \(s.reason); to clear it, " + staleAdvice(s)
  }

  /// `stale` in `handoff_restore`'s structured output: the library's ``HandoffStaleness`` and
  /// `advice`, its remedy in the tools' terms (``staleAdvice(_:)``).
  static func staleStructure(_ s: HandoffStaleness) throws -> JSONValue {
    var object = try ToolRendering.json(s).object ?? [:]
    object["advice"] = .string(staleAdvice(s))
    return .object(object)
  }

  /// The most characters of a summary `handoff_restore`'s text shows (the structured output
  /// and `handoff_get` have all of it), as the `restore_session` prompt shows.
  static let restoredSummaryCharacters = 2_000

  /// `64 knowledge items and 1 task`: what a handoff carries.
  static func carries(_ knowledge: Int, _ tasks: Int) -> String {
    ToolRendering.counted(knowledge, "knowledge item", "knowledge items") + " and " + ToolRendering.counted(tasks, "task", "tasks")
  }

  /// `… and 58 more knowledge items (note)`: the line for the entries a list left out.
  @Sendable static func more(_ n: Int, _ one: String, _ many: String, _ note: String) -> String {
    "… and \(ToolRendering.counted(n, "more " + one, "more " + many)) (\(note))"
  }
}

extension HandoffReferenceHints {
  /// The tools' names, for an agent or MCP client: `handoff_list` lists the handoffs,
  /// `handoff_create` creates one. `handoff_get`, `handoff_restore` and the MCP prompt
  /// `restore_session` word their reference errors with them.
  package static let tools = HandoffReferenceHints(listing: "handoff_list", creating: "handoff_create")
}
