import ContinuityKit
import Foundation
import KnowledgeEngine

/// The 15 continuity tools. Deletion is never an agent tool.
enum ContinuityTools {
  static let all: [ToolDefinition] = [
    knowledgeSearch, knowledgeGet, knowledgeList, knowledgeCapture, projectContext, projectReview, handoffCreate, handoffList,
    handoffGet, handoffRestore, handoffDeactivate, continuityInsights, codeAnalyze, taskSearch, taskReopen,
  ]

  static let kinds = KnowledgeKind.allCases.map(\.rawValue)

  static func requireID(_ args: JSONObject, _ key: String = "id") throws -> UUID {
    guard let id = ToolRendering.uuid(args, key) else {
      throw AgentError.invalidArguments(ToolArgumentError(field: "arguments.\(key)", message: "arguments.\(key) is required"))
    }
    return id
  }

  static let knowledgeSearch = ToolDefinition(
    name: "knowledge_search", title: "Search knowledge",
    description: "Ranked lexical search over typed knowledge (mode hybrid-lexical, algorithm hybrid-lexical-v1: BM25F over title, tags and content with phrase, coverage, trigram typo and word-form matching, British/American spellings, irregular plurals such as mouse/mice and compound forms such as e-mail/email; not semantic search). Read-only.",
    input: .object([
      ToolProperty("query", .query, required: true, "Words to find (text is data; no operators)."),
      ToolProperty(
        "kinds", .array(items: .oneOf(kinds), minItems: 0, maxItems: kinds.count, unique: true),
        "Only these kinds; an empty list, like none, searches every kind."),
      ToolProperty(
        "includeMemories", .boolean, default: false,
        "Also search legacy memories (labeled memory). Not with kinds or tag: those filters apply to knowledge items only (memories have no kind; memory_search ranks memories on their own tags)."),
      ToolProperty(
        "tag", .text(min: 1, max: Limits.tagLength),
        "Only knowledge items carrying this one tag (case and accents ignored). Not with includeMemories: the tag filter applies to knowledge items only; memory_search ranks memories on their own tags."),
      ToolProperty("limit", .integer(minimum: 1, maximum: Limits.searchResultsMaximum), default: .integer(Limits.searchResultsDefault), "Most results."),
    ]),
    outputSchema: SearchTools.searchOutputSchema, risk: .readOnly, isIdempotent: true,
    usesSearchIndex: SearchTools.ranks,
    argumentConflict: { args in
      // The engine's own rule, checked before the call runs (and before a workspace is opened).
      KnowledgeEngine.searchFilterConflict(
        kinds: ToolRendering.strings(args, "kinds").compactMap(KnowledgeKind.init(rawValue:)),
        includeMemories: args["includeMemories"]?.bool ?? false, tag: args["tag"]?.string
      ).map(ToolArgumentError.init(arguments:))
    },
    handler: { args, ctx in
      let kinds = ToolRendering.strings(args, "kinds").compactMap(KnowledgeKind.init(rawValue:))
      let r = try ctx.engine.search(
        args["query"]?.string ?? "", kinds: kinds, includeMemories: args["includeMemories"]?.bool ?? false,
        tag: args["tag"]?.string, limit: args["limit"]?.int ?? Limits.searchResultsDefault)
      return try SearchTools.render(
        try SearchTools.pointingToRecord(r, engine: ctx.engine), narrower: "a narrower query, kinds or tag")
    })

  static let knowledgeGet = ToolDefinition(
    name: "knowledge_get", title: "Get a knowledge item",
    description: "Exact lookup of one knowledge item by UUID (mode exact); supersededBy lists the items that supersede it, when any do. Read-only.",
    input: .object([ToolProperty("id", .uuid, required: true, "The item's UUID.")]),
    outputSchema: ToolRendering.outputSchema(
      ["mode": ToolRendering.string, "item": ToolRendering.anyObject, "supersededBy": ToolRendering.anyArray], required: ["mode", "item"]),
    risk: .readOnly, isIdempotent: true,
    handler: { args, ctx in
      let (item, successors) = try ctx.engine.knowledgeWithSuccessors(id: try requireID(args))
      var structured: JSONObject = ["mode": "exact", "item": try ToolRendering.json(item)]
      if !successors.isEmpty { structured["supersededBy"] = try ToolRendering.json(successors.map(\.id)) }
      return ToolOutput(structured: .object(structured), text: ToolRendering.knowledgeDetail(item, supersededBy: successors))
    })

  /// Knowledge items most recently changed first, a page at a time, as `dolphin knowledge list`
  /// lists them (review 28-d, 6: `handoff_restore` had no tool to point to for the items
  /// captured since that it leaves out; it names the page of this one that holds them).
  static let knowledgeList = ToolDefinition(
    name: "knowledge_list", title: "List knowledge items",
    description: "List knowledge items, most recently changed first (then by id), as `dolphin knowledge list` does: at most limit of them (default \(Limits.listedRecordsDefault)) after the first offset, with how many there are in all (total) and whether more come after this page (truncated; nextOffset is where the next page starts); supersededBy maps each listed item that other items supersede to their ids. A response too large for the server's byte bound keeps the first items, each whole, and counts the rest in omittedForSize: ask for them with nextOffset. Read-only.",
    input: .object([
      ToolProperty(
        "limit", .integer(minimum: 1, maximum: Limits.knowledgeItemsMaximum), default: .integer(Limits.listedRecordsDefault),
        "Most items listed (the first in the order above, after offset)."),
      ToolProperty(
        "offset", .integer(minimum: 0, maximum: Limits.knowledgeItemsMaximum), default: .integer(0),
        "Items skipped first, in the order above: the count of items an earlier call listed, for the ones after them."),
    ]),
    outputSchema: ToolRendering.outputSchema(
      [
        "items": OutputSchemas.array(of: OutputSchemas.knowledgeItem), "count": ToolRendering.integer, "total": ToolRendering.integer,
        "truncated": OutputSchemas.pageTruncated("items"), "offset": OutputSchemas.offset,
        "nextOffset": OutputSchemas.nextOffset, "omittedForSize": OutputSchemas.omittedForSize,
        "supersededBy": .object([
          "type": "object", "additionalProperties": OutputSchemas.uuids,
          "description": "For each listed item other items supersede (by id): their ids. Absent when no listed item is superseded.",
        ]),
      ],
      required: ["items", "count", "total", "truncated", "offset"]),
    risk: .readOnly, isIdempotent: true,
    handler: { args, ctx in
      let limit = args["limit"]?.int ?? Limits.listedRecordsDefault
      let offset = args["offset"]?.int ?? 0
      let l = try ctx.engine.knowledgeListing(limit: limit, offset: offset)
      let successors = try ctx.engine.successors(of: l.items.map(\.id))
      let rows = l.items.map { k in
        ToolRendering.knowledgeLine(k) + (successors[k.id].map { " [\(KnowledgeEngine.supersededNote($0))]" } ?? "")
      }
      @Sendable func text(_ cut: ToolOutput.SizeCut?) -> String {
        guard l.total > 0 else { return "No knowledge items." }
        let shown = cut?.kept ?? l.items.count
        let header = "\(shown) of \(l.total) knowledge item(s), most recently changed first"
          + ToolRendering.pageClauses(offset: offset, listed: l.items.count, total: l.total)
          + (offset + l.items.count < l.total ? ", cut by the limit of \(limit) (limit takes up to \(Limits.knowledgeItemsMaximum))" : "")
          + (cut == nil ? "" : ToolRendering.sizeCutClause)
        return ToolRendering.listing(
          header: header, rows: Array(rows.prefix(shown)), field: "items",
          tail: cut.map {
            [ToolRendering.sizeCutLine($0, "knowledge item(s)", then: "call knowledge_list again with offset \(offset + $0.kept) for the next ones")]
          } ?? [])
      }
      var structured: JSONObject = [
        "items": try ToolRendering.json(l.items), "count": .integer(l.items.count), "total": .integer(l.total),
        "truncated": .bool(l.isTruncated), "offset": .integer(offset),
      ]
      if let next = l.nextOffset { structured["nextOffset"] = .integer(next) }
      if !successors.isEmpty {
        // In the listing's order, so the same page reads the same.
        structured["supersededBy"] = .object(
          JSONObject(try l.items.compactMap { k in try successors[k.id].map { (k.id.uuidString, try ToolRendering.json($0)) } }))
      }
      return ToolOutput(structured: .object(structured), text: text(nil), listing: ToolOutput.Listing(field: "items") { text($0) })
    })

  static let knowledgeCapture = ToolDefinition(
    name: "knowledge_capture", title: "Capture knowledge",
    description: "Store a typed knowledge item (source agentApproved; agentAllowed when a --writes allow server ran it without asking). Local write: needs the user's approval of this exact call.",
    input: .object([
      ToolProperty("kind", .oneOf(kinds), required: true, "The kind."),
      ToolProperty("title", .text(min: 1, max: Limits.title), required: true, "Title."),
      ToolProperty("content", .body(max: Limits.content), "Body."),
      ToolProperty("tags", .tags, "Tags (lowercased, deduplicated; a tag holds no comma)."),
      ToolProperty("priority", .oneOf(Priority.allCases.map(\.rawValue)), default: "normal", "Priority."),
      ToolProperty("relationships", .array(
        items: .object([
          ToolProperty("kind", .oneOf(RelationshipKind.allCases.map(\.rawValue)), required: true, "Relationship kind."),
          ToolProperty("targetID", .uuid, required: true, "An existing knowledge item."),
        ]), minItems: 0, maxItems: Limits.relationshipsPerItem, unique: true), "Relationships to existing items."),
    ]),
    outputSchema: ToolRendering.outputSchema(
      [
        "item": ToolRendering.anyObject, "digestID": ToolRendering.string,
        "rebuiltHandoffIDs": .object([
          "type": "array", "items": ["type": "string", "format": "uuid"],
          "description": "Handoffs whose rule-built summary the capture rewrote (it marks an item this one supersedes); absent when none.",
        ]),
        "sameTitle": .object([
          "type": "array", "items": ["type": "string", "format": "uuid"], "maxItems": .number(JSONNumber(KnowledgeEngine.sameTitleListed)),
          "description": "Live items of the same kind that already had this title (case, diacritics and white space folded), newest change first; empty when none. The capture is stored either way.",
        ]),
        "sameTitleTotal": .object([
          "type": "integer", "minimum": 0, "description": "How many items sameTitle would list without its bound.",
        ]),
      ], required: ["item", "sameTitle", "sameTitleTotal"]),
    risk: .localWrite, isIdempotent: false,
    preflight: { args, ctx in try ctx.engine.checkCapture(captureRequest(args)) },
    alsoChanges: { args, ctx in
      ToolRendering.summaryRewrites(try ctx.engine.handoffSummariesRewritten(byCapturing: captureRequest(args)))
    },
    handler: { args, ctx in
      let result = try ctx.engine.capture(captureRequest(args, approvedByPolicy: ctx.isApprovedByPolicy))
      var structured: JSONObject = [
        "item": try ToolRendering.json(result.item), "sameTitle": try ToolRendering.json(result.sameTitle.ids),
        "sameTitleTotal": .number(JSONNumber(result.sameTitle.total)),
      ]
      var changed = [result.item.id]
      if let d = result.digest {
        structured["digestID"] = .string(d.id.uuidString)
        changed.append(d.id)
      }
      // A handoff whose summary the capture rewrote is a record it changed (review 19-c, finding 3).
      if !result.rebuiltHandoffIDs.isEmpty {
        structured["rebuiltHandoffIDs"] = try ToolRendering.json(result.rebuiltHandoffIDs)
        changed += result.rebuiltHandoffIDs
      }
      return ToolOutput(
        structured: .object(structured),
        text: ToolRendering.withRebuiltSummaries(
          "Captured \(result.item.kind.rawValue) \(ToolRendering.quoted(result.item.title)) (id \(result.item.id.uuidString))."
            + sameTitleSentence(result.sameTitle, kind: result.item.kind),
          result.rebuiltHandoffIDs),
        changedIDs: changed)
    })

  /// ` 2 other fact item(s) already had this title: <id>, <id> (knowledge_get shows them).`,
  /// with `and N more` past the ids listed; empty when there are none.
  static func sameTitleSentence(_ same: SameTitleItems, kind: KnowledgeKind) -> String {
    guard !same.ids.isEmpty else { return "" }
    let more = same.total - same.ids.count
    return " \(same.total) other \(kind.rawValue) item(s) already had this title: "
      + same.ids.map(\.uuidString).joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
      + " (knowledge_get shows them)."
  }

  /// The capture `knowledge_capture`'s normalized arguments ask for: source `agentApproved`, or
  /// `agentAllowed` when no person approved the call (`approvedByPolicy`: `--writes allow`).
  static func captureRequest(_ args: JSONObject, approvedByPolicy: Bool = false) -> CaptureRequest {
    let rels: [KnowledgeRelationship] = (args["relationships"]?.array ?? []).compactMap { r in
      guard let k = r["kind"]?.string.flatMap(RelationshipKind.init(rawValue:)), let t = r["targetID"]?.string.flatMap(UUID.init(uuidString:)) else { return nil }
      return KnowledgeRelationship(kind: k, targetID: t)
    }
    return CaptureRequest(
      kind: KnowledgeKind(rawValue: args["kind"]?.string ?? "") ?? .fact, title: args["title"]?.string ?? "",
      content: args["content"]?.string ?? "", tags: ToolRendering.strings(args, "tags"), relationships: rels,
      priority: Priority(rawValue: args["priority"]?.string ?? "normal") ?? .normal,
      source: approvedByPolicy ? .agentAllowed : .agentApproved)
  }

  static let projectContext = ToolDefinition(
    name: "project_context", title: "Project context",
    description: "The rule-based project digest (decisions, preferences, goals, open tasks, recent context, the active handoff, priorities, questions), each line with evidence ids. Computes only; never stores. Read-only.",
    input: .object([]),
    outputSchema: OutputSchemas.projectContext, risk: .readOnly, isIdempotent: true,
    handler: { _, ctx in
      let c = try ctx.engine.projectContext()
      let digest = Digest(id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), createdAt: Date(timeIntervalSince1970: 0), trigger: .manual, sections: c.sections, algorithm: c.algorithm, algorithmVersion: c.algorithmVersion)
      return ToolOutput(structured: try ToolRendering.json(c), text: ToolRendering.digestText(digest))
    })

  static let projectReview = ToolDefinition(
    name: "project_review", title: "Project review",
    description: "One bounded, rule-based report: the digest's key sections, the top insights and task status, with evidence ids. Read-only.",
    input: .object([]),
    outputSchema: OutputSchemas.projectReview, risk: .readOnly, isIdempotent: true,
    handler: { _, ctx in
      let r = try ctx.engine.review()
      let head = [
        "Project review (rule-based): \(r.tasks.open) open task(s), \(r.tasks.completed) completed; \(r.insightTotal) insight(s); "
          + "each line starts with its evidence ids in brackets"
      ]
      // Each section cut between its lines, within the output bound, and counting what it left
      // out (review 19-a: the text stopped inside an open task's line, later sections silently
      // absent).
      let sections = [("decisions", r.decisions), ("goals", r.goals), ("openTasks", r.openTasks), ("priorities", r.priorities), ("questions", r.questions)]
        .map { name, lines in ToolRendering.digestSection(name, lines, omitted: r.omitted, field: "structuredContent.\(name)") }
      let insights = ToolRendering.listedRows(r.insights.map(ToolRendering.insightLine), field: "insights", heading: "Insights:")
      return ToolOutput(structured: try ToolRendering.json(r), text: ToolRendering.bounded(head: head, sections: sections + [insights]))
    })

  static let handoffCreate = ToolDefinition(
    name: "handoff_create", title: "Create a handoff",
    description: "Save a session handoff (focus, summary, next steps, knowledge and task ids). Recent chat lines are copied into it as excerpts only in a `dolphin ask` session, from that session's stored conversation; over MCP no chat is stored, so the handoff has none. autoSelect picks relevant knowledge and open tasks by the focus and next steps with the lexical ranker, leaving out superseded items (autoSelection.supersededLeftOut names them); when those words match no open task or current item, it picks the open tasks (highest priority first) and the newest current items instead, and autoSelection.fallback says so. activate also marks the new handoff active in the same write (as handoff_restore would, without its brief); without it the active handoff stays as it was. Local write: needs approval.",
    input: .object([
      ToolProperty("focus", .text(min: 1, max: Limits.handoffFocus), required: true, "What the session was about."),
      ToolProperty("summary", .text(max: Limits.handoffSummary), "Summary; without one a rule-based summary is built."),
      ToolProperty("nextSteps", .array(items: .text(min: 1, max: Limits.handoffNextStepLength), minItems: 0, maxItems: Limits.handoffNextSteps, unique: false), "Next steps."),
      ToolProperty("knowledgeIDs", .uuids(), "Knowledge to carry."),
      ToolProperty("taskIDs", .uuids(), "Tasks to carry."),
      ToolProperty(
        "autoSelect", .boolean, default: false,
        "Select knowledge and tasks by the focus and next steps (lexical ranker); when they match nothing, the open tasks and newest current items (autoSelection.fallback says so)."),
      ToolProperty(
        "activate", .boolean, default: false,
        "Also mark the new handoff active, in the same write (activated and previouslyActiveID report it); without it the active handoff stays as it was."),
    ]),
    outputSchema: OutputSchemas.handoffCreation,
    risk: .localWrite, isIdempotent: false,
    // Not prepared by the executor: the engine's createHandoff rebuilds a stale index itself,
    // after every check of the request (focus, credentials, unknown ids), so a refused call
    // rebuilds nothing.
    usesSearchIndex: { _ in false },
    preflight: { args, ctx in try ctx.engine.checkCreateHandoff(handoffRequest(args, ctx)) },
    alsoChanges: { args, ctx in
      // The active marker moves: the approval names the handoff that stops being active.
      guard args["activate"]?.bool == true else { return [] }
      return [
        "mark the new handoff active"
          + (try ctx.engine.activeHandoff().map { " in place of handoff \($0.id.uuidString) \(ToolRendering.quoted(Truncation.truncate($0.focus, to: 80)))" }
            ?? " (no handoff is active now)")
      ]
    },
    handler: { args, ctx in
      let created = try ctx.engine.createHandoff(handoffRequest(args, ctx))
      let h = created.handoff
      return ToolOutput(
        structured: try ToolRendering.json(created),
        text: "Created handoff \(h.id.uuidString): \(ToolRendering.quoted(h.focus)) (\(h.knowledgeIDs.count) knowledge, \(h.taskIDs.count) task(s), \(h.recentExcerpts.count) excerpt(s))."
          + (created.autoSelection.map { a in
            (a.supersededLeftOut.isEmpty
              ? "" : " Left out \(a.supersededLeftOut.count) superseded knowledge item(s) that matched: "
                + a.supersededLeftOut.map(\.uuidString).joined(separator: ", ") + ".")
              + (a.fallback.map { " Auto-selection: \($0)." } ?? "")
          } ?? "")
          + activationSentence(created),
        changedIDs: [h.id])
    })

  /// What `handoff_create`'s text adds for `activate`, as `dolphin handoff create --activate`
  /// says it: ` Marked it active (handoff <id> was active before).`, or nothing when the call
  /// did not ask.
  static func activationSentence(_ created: HandoffCreation) -> String {
    guard created.activated == true else { return "" }
    return " Marked it active"
      + (created.previouslyActiveID.map { " (handoff \($0.uuidString) was active before)" } ?? " (no handoff was active before)") + "."
      + (created.activationWarning.map { " Warning: \($0); handoff_restore makes it active again." } ?? "")
  }

  /// The handoff `handoff_create`'s normalized arguments ask for, with the session's recent
  /// chat lines as excerpts.
  static func handoffRequest(_ args: JSONObject, _ ctx: ToolContext) -> HandoffRequest {
    HandoffRequest(
      focus: args["focus"]?.string ?? "", summary: args["summary"]?.string, nextSteps: ToolRendering.strings(args, "nextSteps"),
      knowledgeIDs: ToolRendering.uuids(args, "knowledgeIDs"), taskIDs: ToolRendering.uuids(args, "taskIDs"),
      recentExcerpts: Array(ctx.recentExcerpts.suffix(Limits.handoffExcerpts)), autoSelect: args["autoSelect"]?.bool ?? false,
      activate: args["activate"]?.bool ?? false)
  }

  static let handoffList = ToolDefinition(
    name: "handoff_list", title: "List handoffs",
    description: "Saved handoffs, newest first, and which one is active: at most limit of them (default \(Limits.listedRecordsDefault)) after the first offset, with how many there are in all (total) and whether more come after this page (truncated; nextOffset is where the next page starts). A response too large for the server's byte bound keeps the first handoffs, each whole, and counts the rest in omittedForSize: ask for them with nextOffset. Read-only.",
    input: .object([
      // Up to every handoff the workspace may hold, as `dolphin handoff list --limit` takes.
      ToolProperty(
        "limit", .integer(minimum: 1, maximum: Limits.handoffs), default: .integer(Limits.listedRecordsDefault),
        "Most handoffs listed (the newest, after offset)."),
      ToolProperty(
        "offset", .integer(minimum: 0, maximum: Limits.handoffs), default: .integer(0),
        "Handoffs skipped first, newest first: the count of handoffs an earlier call listed, for the ones after them."),
    ]),
    outputSchema: ToolRendering.outputSchema(
      [
        "handoffs": OutputSchemas.array(of: OutputSchemas.handoff), "count": ToolRendering.integer, "total": ToolRendering.integer,
        "truncated": OutputSchemas.pageTruncated("handoffs"), "offset": OutputSchemas.offset,
        "nextOffset": OutputSchemas.nextOffset, "omittedForSize": OutputSchemas.omittedForSize,
        "activeHandoffID": .object([
          "type": "string", "format": "uuid",
          "description": "The active handoff's id, also when its row is left out; absent when none is active.",
        ]),
      ],
      required: ["handoffs", "count", "total", "truncated", "offset"]),
    risk: .readOnly, isIdempotent: true,
    handler: { args, ctx in
      let limit = args["limit"]?.int ?? Limits.listedRecordsDefault
      let offset = args["offset"]?.int ?? 0
      let l = try ctx.engine.listHandoffs(limit: limit, offset: offset)
      let rows = l.handoffs.map { h in "- \(h.id.uuidString)\(h.id == l.activeHandoffID ? " (active)" : "") \(ToolRendering.quoted(h.focus))" }
      var structured = try ToolRendering.json(l).object ?? [:]
      structured["count"] = .integer(l.handoffs.count)
      structured["truncated"] = .bool(l.isTruncated)
      structured["offset"] = .integer(offset)
      if let next = l.nextOffset { structured["nextOffset"] = .integer(next) }
      // The active handoff is named even when its row is left out, as the CLI does.
      @Sendable func text(_ cut: ToolOutput.SizeCut?) -> String {
        guard l.total > 0 else { return "No handoffs." }
        let shown = cut?.kept ?? l.handoffs.count
        let header =
          "\(shown) of \(l.total) handoff(s), newest first"
          + ToolRendering.pageClauses(offset: offset, listed: l.handoffs.count, total: l.total)
          + (offset + l.handoffs.count < l.total ? ", cut by the limit of \(limit) (limit takes up to \(Limits.handoffs))" : "")
          + (cut == nil ? "" : ToolRendering.sizeCutClause)
          + "; active: \(l.activeHandoffID?.uuidString ?? "none")"
        return ToolRendering.listing(
          header: header, rows: Array(rows.prefix(shown)), field: "handoffs",
          tail: cut.map {
            [ToolRendering.sizeCutLine($0, "handoff(s)", then: "call handoff_list again with offset \(offset + $0.kept) for the next ones")]
          } ?? [])
      }
      return ToolOutput(structured: .object(structured), text: text(nil), listing: ToolOutput.Listing(field: "handoffs") { text($0) })
    })

  static let handoffDeactivate = ToolDefinition(
    name: "handoff_deactivate", title: "Deactivate the handoff",
    description: "Clear the active-handoff marker (the handoff itself is kept). Local write: needs approval, except when none is active, which changes nothing.",
    input: .object([]),
    // The id that was active, or null when none was (review, s17: declared an object, which
    // neither is, so a client validating structured results refused every call).
    outputSchema: ToolRendering.outputSchema(
      [
        "deactivated": .object([
          "type": .array(["string", "null"]),
          "description": "The id of the handoff that was active (now cleared), or null when none was.",
        ])
      ], required: ["deactivated"]),
    risk: .localWrite, isIdempotent: true,
    // With none active there is nothing to clear: answered without asking (review 23-a, 9).
    unchangedAnswer: { _, ctx in try ctx.engine.activeHandoffID() == nil ? noneActive : nil },
    handler: { _, ctx in
      guard let id = try ctx.engine.deactivateHandoff() else { return noneActive }
      return ToolOutput(structured: .object(["deactivated": .string(id.uuidString)]), text: "Deactivated handoff \(id.uuidString).", changedIDs: [id])
    })

  static let continuityInsights = ToolDefinition(
    name: "continuity_insights", title: "Continuity insights",
    description: "Rule-based follow-ups (conflicts, unsupported tasks, tasks resting on superseded knowledge, stale handoffs, missing relationships or tags, near-duplicate knowledge, duplicate open tasks), each with a rule id, priority and evidence ids (at most \(Limits.idsPerList); evidenceTotal counts them all). Read-only.",
    input: .object([ToolProperty("minPriority", .oneOf(Priority.allCases.map(\.rawValue)), default: "low", "Lowest priority to include.")]),
    outputSchema: OutputSchemas.insightReport, risk: .readOnly, isIdempotent: true,
    handler: { args, ctx in
      let r = try ctx.engine.insights(minimumPriority: Priority(rawValue: args["minPriority"]?.string ?? "low") ?? .low)
      @Sendable func text(_ cut: ToolOutput.SizeCut?) -> String {
        let lines = r.insights.prefix(cut?.kept ?? r.insights.count).map(ToolRendering.insightLine)
        let header = "Rule-based insights: \(lines.count) of \(r.total)" + (lines.isEmpty ? "" : "; each line starts with its evidence ids in brackets")
          + (cut == nil ? "" : ToolRendering.sizeCutClause)
        return ToolRendering.listing(
          header: header, rows: lines, field: "insights",
          tail: cut.map { [ToolRendering.sizeCutLine($0, "insights", then: "a higher minPriority lists fewer")] } ?? [])
      }
      return ToolOutput(structured: try ToolRendering.json(r), text: text(nil), listing: ToolOutput.Listing(field: "insights") { text($0) })
    })

  static let codeAnalyze = ToolDefinition(
    name: "code_analyze", title: "Analyze Swift code",
    description: "Heuristic, read-only lexical checks of one Swift source string (\(CodeRule.allCases.map(\.rawValue).joined(separator: ", "))); at most \(Limits.codeAnalysisBytes) UTF-8 bytes. Not checked: \(CodeRule.notChecked). Never executes, compiles or uploads the code.",
    input: .object([
      ToolProperty(
        "code",
        .string(
          .init(minLength: 1, maxLength: Limits.codeAnalysisBytes, normalization: .verbatim, maxUTF8Bytes: Limits.codeAnalysisBytes)),
        required: true, "Swift source text, at most \(Limits.codeAnalysisBytes) UTF-8 bytes."),
      ToolProperty("fileName", .text(max: 200), default: "input.swift", "A name for the report."),
    ]),
    outputSchema: OutputSchemas.codeAnalysis, risk: .readOnly, isIdempotent: true,
    handler: { args, _ in
      let report = try CodeAnalyzer.analyze(source: args["code"]?.string ?? "", fileName: args["fileName"]?.string ?? "input.swift")
      return ToolOutput(
        structured: try ToolRendering.json(report), text: codeAnalysisText(report),
        listing: ToolOutput.Listing(field: "findings") { codeAnalysisText(report, cut: $0) })
    })

  /// The text of `code_analyze`: a header counting every finding, then as many finding lines as
  /// ``Limits/renderedToolOutput`` holds, then how many it left out and where they are: every
  /// one in `structuredContent.findings`, or — past the report's cap of
  /// ``Limits/codeAnalysisFindings`` — the first ones there and every rule's count in
  /// `structuredContent.counts` (review 19-a: the text stopped after 50 findings without a word).
  /// With `cut`, structuredContent.findings holds only the first findings a byte bound kept: the
  /// text shows only those, and its last line counts the rest (``ToolRendering/sizeCutLine(_:_:then:)``).
  static func codeAnalysisText(_ report: CodeAnalysisReport, cut: ToolOutput.SizeCut? = nil) -> String {
    let header = "Heuristic code analysis (not a compiler): \(report.totalFindings) finding(s)"
      + (cut == nil ? "" : ToolRendering.sizeCutClause) + ". " + CodeRule.checkedLine(report.options.rules) + ". "
      + CodeRule.notCheckedLine
    let sent = cut?.kept ?? report.findings.count
    let rows = report.findings.prefix(sent).map { "\($0.line):\($0.column) \($0.rule.rawValue): \(ToolRendering.line($0.message))" }
    let tail = cut.map {
      [ToolRendering.sizeCutLine($0, "findings", then: "structuredContent.counts counts each rule's findings; analyze a smaller part of the code for the rest")]
    } ?? []
    // Each line counts what it leaves out for its own reason: the text's bound, the report's cap
    // (here), the response's byte bound (the tail).
    let listed = report.findings.count
    let total = report.totalFindings
    let beyondReport = total - listed
    guard beyondReport > 0 else {
      return ToolRendering.listing(header: header, rows: rows, field: "findings", tail: tail)
    }
    return ToolRendering.bounded(
      head: [header],
      sections: [
        BoundedLines.Section(entries: rows, total: sent + beyondReport) { n in
          let inStructured = n - beyondReport
          return "… and \(n) more finding(s) (not shown: the text is bounded"
            + (inStructured > 0 ? "; structuredContent.findings holds \(inStructured) of them" : "")
            + "; the report lists only the first \(listed) of the \(total), and structuredContent.counts counts each rule's findings)"
        }
      ], tail: tail)
  }

  static let taskSearch = ToolDefinition(
    name: "task_search", title: "Search tasks",
    description: "Ranked lexical search over tasks (hybrid-lexical; not semantic search). Read-only.",
    input: .object([
      ToolProperty("query", .query, required: true, "Words to find."),
      ToolProperty("status", .oneOf(["open", "completed", "all"]), default: "all", "Which tasks."),
      ToolProperty("limit", .integer(minimum: 1, maximum: Limits.searchResultsMaximum), default: .integer(Limits.searchResultsDefault), "Most results."),
    ]),
    outputSchema: OutputSchemas.taskSearch, risk: .readOnly, isIdempotent: true,
    handler: { args, ctx in
      var found = try ctx.engine.searchTasks(args["query"]?.string ?? "", status: TaskStatus(rawValue: args["status"]?.string ?? "all"), limit: args["limit"]?.int ?? Limits.searchResultsDefault)
      // A record's id is pointed to the tool that shows it, as knowledge_search does (review 28-a, 2).
      found.idLookup = try found.queryID.map { try SearchTools.idLookup($0, engine: ctx.engine) }
      let r = found
      return ToolOutput(
        structured: try ToolRendering.json(r), text: taskSearchText(r),
        listing: ToolOutput.Listing(field: "results") { taskSearchText(r, cut: $0) })
    })

  /// The text of `task_search`: a header in `knowledge_search`'s form, its notes, then whole
  /// rows within the output bound and how many it left out; with `cut`, only the results a byte
  /// bound kept, and a last line counting the rest (``ToolRendering/sizeCutLine(_:_:then:)``).
  static func taskSearchText(_ r: TaskSearchResponse, cut: ToolOutput.SizeCut? = nil) -> String {
      let shown = cut?.kept ?? r.results.count
      let rows = r.results.prefix(shown).map { ToolRendering.taskLine($0.task) }
      var notes: [String] = []
      // Notes as `knowledge_search` gives them: words past the term limit, symbols not searched.
      if !r.results.isEmpty {
        notes = SearchResponse.notes(
          wordsPastTermLimit: r.wordsPastTermLimit, unsearchedSymbols: r.unsearchedSymbols, unappliedOperators: r.unappliedOperators,
        queryCut: (r.query, r.queryCutAt, r.queryCharacters)
        ).map { "Note: \(ToolRendering.line($0))." }
        if let order = SearchResponse.termsMatchedOrderNote(
          ordered: r.orderedByTermsMatched, termsMatched: r.results.map(\.termsMatched), termCount: r.terms.count,
          records: "tasks")
        {
          notes.append(order + ".")
        }
      }
      if let lookup = r.idLookup { notes.insert(ToolRendering.line(lookup.message) + ".", at: 0) }
      if let why = r.emptyExplanation { notes.insert("No results: \(ToolRendering.line(why)).", at: 0) }
      // The header in `knowledge_search`'s form: the mode and the algorithm's version first.
      let header = "Search mode \(r.mode) (\(r.algorithmVersion ?? "exact")): \(shown) of \(r.total) matching task(s)"
        + (r.truncated ? ", cut by the limit" : "") + (cut == nil ? "" : ToolRendering.sizeCutClause)
      // Whole rows within the output bound, then how many it left out (review 19-a: the text
      // was cut inside a task's id).
      return ToolRendering.listing(
        head: [header] + notes, rows: rows, field: "results",
        tail: cut.map { [ToolRendering.sizeCutLine($0, "results", then: "they rank below the ones sent; a narrower query or status lists fewer")] } ?? [])
  }

  static let taskReopen = ToolDefinition(
    name: "task_reopen", title: "Reopen a task",
    description: "Reopen a completed task (an open task is left as it was, and alreadyOpen says so). Local write: needs approval, except for an open task, which changes nothing.",
    input: .object([ToolProperty("id", .uuid, required: true, "The task id.")]),
    outputSchema: ToolRendering.outputSchema(
      [
        "task": ToolRendering.anyObject, "alreadyOpen": .object(["type": "boolean"]),
        "rebuiltHandoffIDs": rebuiltHandoffIDsSchema,
      ], required: ["task", "alreadyOpen"]),
    risk: .localWrite, isIdempotent: true,
    preflight: { args, ctx in try ctx.engine.checkTaskStatusChange(id: try requireID(args), to: .open) },
    alsoChanges: { args, ctx in
      ToolRendering.summaryRewrites(try ctx.engine.handoffSummariesRewritten(bySettingTask: try requireID(args), to: .open))
    },
    // Reopening an open task changes nothing: answered without asking (review 23-a, 9).
    unchangedAnswer: { args, ctx in
      let t = try ctx.engine.task(id: try requireID(args))
      return t.status == .open ? try alreadyOpen(t) : nil
    },
    handler: { args, ctx in
      let outcome = try ctx.engine.reopenTaskReportingOutcome(id: try requireID(args))
      let t = outcome.task
      // An open task is left as it was: the receipt records no change.
      if outcome.wasAlreadyInStatus { return try alreadyOpen(t) }
      return ToolOutput(
        structured: .object(try statusChangeStructure(outcome, flag: "alreadyOpen")),
        text: ToolRendering.withRebuiltSummaries(
          "Reopened task \(t.id.uuidString): \(ToolRendering.quoted(t.title))", outcome.rebuiltHandoffIDs),
        changedIDs: [t.id] + outcome.rebuiltHandoffIDs)
    })

  /// `task_reopen`'s answer for a task open already: nothing changed, no changed ids.
  static func alreadyOpen(_ t: TaskItem) throws -> ToolOutput {
    ToolOutput(
      structured: .object(["task": try ToolRendering.json(t), "alreadyOpen": true]),
      text: "Task \(t.id.uuidString) was already open; nothing changed: \(ToolRendering.quoted(t.title))", changedIDs: [])
  }

  /// `handoff_deactivate`'s answer when no handoff is active: nothing changed.
  static let noneActive = ToolOutput(structured: .object(["deactivated": .null]), text: "No handoff was active.", changedIDs: [])

  /// The output schema of `rebuiltHandoffIDs` in `task_complete` and `task_reopen`.
  static let rebuiltHandoffIDsSchema: JSONValue = .object([
    "type": "array", "items": ["type": "string", "format": "uuid"],
    "description": "Handoffs whose rule-built summary the change rewrote (it lists open and completed tasks apart); absent when none.",
  ])

  /// The structured output of a status change that changed the task: the task, `flag` false,
  /// and `rebuiltHandoffIDs` when the change rewrote a handoff's rule-built summary.
  static func statusChangeStructure(_ outcome: TaskStatusChange, flag: String) throws -> JSONObject {
    var structured: JSONObject = ["task": try ToolRendering.json(outcome.task)]
    structured[flag] = false
    if !outcome.rebuiltHandoffIDs.isEmpty { structured["rebuiltHandoffIDs"] = try ToolRendering.json(outcome.rebuiltHandoffIDs) }
    return structured
  }
}
