import ContinuityKit
import Foundation
import KnowledgeEngine

// Renderings of digests, reviews, insights, handoffs and briefs. Stored text goes through
// `inert` (multi-line fields after a label through `hanging`, so their lines stay indented), one-line
// fields (titles, focus, next steps, excerpts) through `inertLine`, or `inertQuoted` where other
// fields follow on the line; ids come before titles. Nothing here reads the clock, the locale or
// the time zone.
extension Render {
  static let sectionTitles: [String: String] = [
    "decisions": "Decisions", "preferences": "Preferences", "goals": "Goals", "openTasks": "Open tasks",
    "recentContext": "Recent context", "priorities": "Priorities", "questions": "Open questions",
  ]

  /// A stored multi-line field after a label (`summary:  `): made inert, with every line after
  /// the first indented to the label's width, so that no line of it starts at column 0 where
  /// the rendering's own headers (`knowledge:`, `Next steps:`) are. A blank line after the
  /// first prints empty, without the indent (no trailing whitespace).
  static func hanging(_ text: String, label: String) -> String {
    let indent = String(repeating: " ", count: max(label.count, 2))
    let lines = inert(text).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    return label + (lines.first.map(String.init) ?? "")
      + lines.dropFirst().map { $0.allSatisfy(\.isWhitespace) ? "\n" : "\n" + indent + $0 }.joined()
  }

  /// A digest line as the MCP tools render it (``EvidenceLine``): its evidence ids first, in
  /// brackets (`[]` when it has none), then its text on one line, made inert; at a fixed place,
  /// so that no stored title can append what reads as more ids.
  static func digestLine(_ line: DigestLine) -> String { inert(line.rendered) }

  /// A section: its title, its lines, then — when it left candidates out — the count as
  /// `  … and N more … (not shown)`, without brackets: it is no line of the section and cites
  /// nothing.
  static func digestLines(_ title: String, _ lines: [DigestLine], marker: String? = nil) -> [String] {
    ["\(title):"] + (lines.isEmpty && marker == nil ? ["  (none)"] : lines.map { "  " + digestLine($0) })
      + (marker.map { ["  " + $0] } ?? [])
  }

  static func context(_ c: ProjectContext) -> String {
    var out = [
      "Project context — rule-based digest (\(c.algorithm) v\(c.algorithmVersion): deterministic templates over the stored records, no model)",
      "Each line starts with its evidence ids in brackets.",
    ]
    for (name, lines, marker) in c.sections.namedWithMarkers {
      out.append("")
      out += digestLines(sectionTitles[name] ?? name, lines, marker: marker)
    }
    return out.joined(separator: "\n")
  }

  /// The insight's line, then its evidence ids; when they were cut, the line ends with how
  /// many more there are (`… and 16 more (80 in all)`).
  static func insight(_ i: Insight) -> [String] {
    let more = i.evidenceTruncated ? ", … and \(i.evidenceTotal - i.evidenceIDs.count) more (\(i.evidenceTotal) in all)" : ""
    return [
      "[\(i.priority.rawValue)] \(i.rule.rawValue): \(inertLine(i.message))",
      "    evidence: " + (i.evidenceIDs.isEmpty ? "none" : i.evidenceIDs.map(\.uuidString).joined(separator: ", ")) + more,
    ]
  }

  static func insights(_ r: InsightReport) -> String {
    var out = [
      "Insights — rule-based (\(r.algorithm) v\(r.algorithmVersion): fixed rules over the stored records, no model, no background work)",
      "\(r.insights.count) shown of \(r.total) at priority \(r.minimumPriority.rawValue) or above"
        + (r.truncated ? " (cut to \(Limits.insights))" : ""),
    ]
    if r.insights.isEmpty {
      out.append(
        r.belowMinimumPriority > 0
          ? "No rule fired at priority \(r.minimumPriority.rawValue) or above (\(r.belowMinimumPriority) lower-priority insight(s) left out)."
          : "No rule fired.")
    }
    for i in r.insights { out += insight(i) }
    let t = r.thresholds
    out.append(
      "Thresholds: near-duplicate titles at trigram similarity ≥ \(t.nearDuplicateSimilarity); "
        + "possible conflicts between two decisions or two preferences that share a tag, "
        + "at title similarity ≥ \(t.conflictTitleSimilarity) (or once a negation is set aside, or word by word when the titles name different choices or say opposite things), "
        + "with different opening content (one adding to the other's under the same title, with no negation or correction "
        + "in what it adds, is a near-duplicate) or titles that say opposite things, state different values "
        + "or name different choices; "
        + "duplicate tasks: open tasks at title similarity ≥ \(t.nearDuplicateSimilarity); "
        + "stale handoff: the active one, once a knowledge item is captured after it or one it carries is edited after it, "
        + "or once it is older than \(t.staleHandoffDays) days (\(t.staleHandoffDays * 24) hours). "
        + "Titles that differ only in a sequence number (step 2 / step 10, phase 1 / phase 2, #3 / #4) "
        + "are neither possible conflicts nor near-duplicates; "
        + "versions (v1 / v2) and other numbers are values and still count.")
    return out.joined(separator: "\n")
  }

  static func review(_ r: ProjectReview) -> String {
    var out = [
      "Project review — rule-based (\(r.digestAlgorithm) v\(r.digestAlgorithmVersion) sections, top rule-based insights, task status; no model)"
    ]
    var status = "Tasks: \(r.tasks.open) open, \(r.tasks.completed) completed"
    if let t = r.tasks.oldestOpen {
      // Id and date first, the title last and quoted with its quotes escaped: no title can
      // append what reads as another id or date.
      status += "; oldest open: \(t.id.uuidString) (created \(date(t.createdAt))) \(inertQuoted(t.title))"
    }
    out.append(status)
    for (name, lines) in [
      ("decisions", r.decisions), ("goals", r.goals), ("openTasks", r.openTasks), ("priorities", r.priorities),
      ("questions", r.questions),
    ] {
      out.append("")
      out += digestLines(sectionTitles[name] ?? name, lines, marker: r.omitted.marker(for: name))
    }
    out.append("")
    out.append("Top insights (\(r.insights.count) of \(r.insightTotal)):")
    if r.insights.isEmpty { out.append("  (none)") }
    for i in r.insights { out += insight(i).map { "  " + $0 } }
    return out.joined(separator: "\n")
  }

  /// How many handoffs a write's report names one by one before it counts the rest (as an
  /// agent's approval names them).
  static let rewrittenSummariesNamed = 5

  /// The lines a write prints for the handoffs whose rule-built summary it rewrote, in the
  /// order given: `Also rewrote the rule-built summary of handoff <id> "Focus".` for the first
  /// ``rewrittenSummariesNamed`` (the focus cut at 80 characters; without it when the handoff
  /// could not be read again), then `Also rewrote the rule-built summaries of N more
  /// handoff(s); --json lists every id.` Empty when there are none.
  static func rewrittenSummaries(_ handoffs: [(id: UUID, focus: String?)]) -> [String] {
    var lines = handoffs.prefix(rewrittenSummariesNamed).map { h in
      "Also rewrote the rule-built summary of handoff \(h.id.uuidString)"
        + (h.focus.map { " " + inertQuoted(Truncation.truncate($0, to: 80)) } ?? "") + "."
    }
    if handoffs.count > rewrittenSummariesNamed {
      lines.append(
        "Also rewrote the rule-built summaries of \(handoffs.count - rewrittenSummariesNamed) more handoff(s); "
          + "--json lists every id.")
    }
    return lines
  }

  static func handoffLine(_ h: Handoff, active: Bool) -> String {
    "\(active ? "*" : " ") \(h.id.uuidString)  \(date(h.createdAt))  \(inertQuoted(Truncation.truncate(h.focus, to: 80)))"
      + "  (\(h.knowledgeIDs.count) knowledge, \(h.taskIDs.count) \(h.taskIDs.count == 1 ? "task" : "tasks"))"
  }

  static func handoffDetail(_ h: Handoff, active: Bool) -> String {
    var out = [
      "Handoff: \(inertLine(h.focus))" + (active ? "  (active)" : ""),
      "id:       \(h.id.uuidString)",
      "created:  \(date(h.createdAt))",
      hanging(h.summary.isEmpty ? "(none)" : h.summary, label: "summary:  "),
    ]
    out.append("next steps:" + (h.nextSteps.isEmpty ? " (none)" : ""))
    for (i, s) in h.nextSteps.enumerated() { out.append("  \(i + 1). \(inertLine(s))") }
    out.append("knowledge: " + (h.knowledgeIDs.isEmpty ? "(none)" : h.knowledgeIDs.map(\.uuidString).joined(separator: ", ")))
    out.append("tasks:     " + (h.taskIDs.isEmpty ? "(none)" : h.taskIDs.map(\.uuidString).joined(separator: ", ")))
    if !h.recentExcerpts.isEmpty {
      out.append("recent excerpts (copied chat lines):")
      for e in h.recentExcerpts { out.append("  > \(inertLine(e))") }
    }
    return out.joined(separator: "\n")
  }

  /// `  - <id>  task [open]: "Title"`: the id and status before the title, which is quoted
  /// with its quotes escaped, so that no title can show another id or status.
  ///
  /// A carried knowledge item edited since the handoff was made reads `  - <id>  decision (edited
  /// since this handoff, revision 2): "Title"`.
  ///
  /// After the title: `[superseded by <id>]` for an item others supersede, and for an item
  /// captured since, `[supersedes <id> (in this handoff)]` naming what it replaces.
  static func reference(_ r: BriefReference, carried: Set<UUID> = []) -> String {
    let status = r.status.map { " [\($0)]" } ?? ""
    // A carried knowledge item edited since says which revision it shows (review 31-a, 2).
    let change = r.revision.map { " (edited since this handoff, revision \($0))" } ?? r.change.map { " (\($0) since)" } ?? ""
    var marks: [String] = []
    if let s = r.supersededBy { marks.append(KnowledgeEngine.supersededNote(s)) }
    if let p = r.supersedes {
      marks.append("supersedes " + p.map { $0.uuidString + (carried.contains($0) ? " (in this handoff)" : "") }.joined(separator: ", "))
    }
    let tail = marks.isEmpty ? "" : "  [" + marks.joined(separator: "; ") + "]"
    return "  - \(r.id.uuidString)  \(r.kind)\(status)\(change): \(inertQuoted(r.title))\(tail)"
  }

  /// - Parameters:
  ///   - stale: why the restored handoff may be stale (``KnowledgeEngine/staleness(of:)``): a
  ///     line before the notice, `May be stale (rule stale-handoff, priority normal): <reason>;
  ///     to clear it, <advice>`, as `handoff_restore` says it with the tools' names.
  ///   - alreadyActive: the handoff was the active one already, so restoring changed nothing:
  ///     the heading says so instead of `is now active` (the notice, ``HandoffBrief/notice``,
  ///     says it too, as `handoff_restore` does).
  static func brief(_ b: HandoffBrief, stale: HandoffStaleness? = nil, alreadyActive: Bool = false) -> String {
    let h = b.handoff
    var out = [
      "Continuity brief — handoff \(h.id.uuidString) "
        + (alreadyActive ? "was the active handoff already; nothing changed" : "is now active"),
      "Made:    \(date(h.createdAt))",
      "Focus:   \(inertLine(h.focus))",
      hanging(h.summary.isEmpty ? "(none)" : h.summary, label: "Summary: "),
      "",
      "Next steps:",
    ]
    if h.nextSteps.isEmpty { out.append("  (none)") }
    for (i, s) in h.nextSteps.enumerated() { out.append("  \(i + 1). \(inertLine(s))") }
    // The edits since are counted in the heading (a written summary and the next steps predate them).
    let edited = b.editedSince == 0 ? "" : " (\(b.editedSince) of them edited since this handoff)"
    out += ["", "Knowledge:" + edited] + (b.knowledge.isEmpty ? ["  (none)"] : b.knowledge.map { reference($0) })
    out += ["", "Tasks (status as stored now):"] + (b.tasks.isEmpty ? ["  (none)"] : b.tasks.map { reference($0) })
    // Tasks too (review 20-b, 3: a critical task added since was nowhere in the brief), and
    // each heading says which records it lists, so that neither reads as everything since.
    // Each list's "… N more" line right under it (review 25-a, 3: the knowledge one came after
    // the tasks, reading as part of them).
    // The lists keep the latest (review 28-b, 6), so what is not shown came earlier. The lister
    // is given the `--limit` that reaches the last of them (review 28-d, 6: `task list --status
    // all` was said to list every task, and lists 50), and said for what it lists, since neither
    // picks out just those.
    func more(_ n: Int, _ one: String, _ many: String, _ pointer: String) -> [String] {
      n > 0 ? ["  … \(n) earlier \(n == 1 ? one : many) since this handoff not shown (\(pointer))"] : []
    }
    out += ["", "Knowledge captured since this handoff (\(b.capturedSince.count) of \(b.capturedSinceTotal)):"]
    let carried = Set(b.handoff.knowledgeIDs)
    out += b.capturedSince.isEmpty ? ["  (nothing)"] : b.capturedSince.map { reference($0, carried: carried) }
    out += more(
      b.capturedSinceTotal - b.capturedSince.count, "knowledge item", "knowledge items",
      leftOutPointer(
        b.capturedSinceLeftOut, maximum: Limits.knowledgeItemsMaximum, noun: "items", order: "most recently changed first",
        { "dolphin knowledge list --limit \($0)" }))
    out += ["", "Tasks added, completed or updated since this handoff (\(b.tasksSince.count) of \(b.tasksSinceTotal)):"]
    out += b.tasksSince.isEmpty ? ["  (none)"] : b.tasksSince.map { reference($0) }
    out += more(
      b.tasksSinceTotal - b.tasksSince.count, "task", "tasks",
      leftOutPointer(
        b.tasksSinceLeftOut, maximum: Limits.tasks, noun: "tasks", order: "open first, then by priority and age",
        { "dolphin task list --status all --limit \($0)" }))
    if !h.recentExcerpts.isEmpty {
      out += ["", "Recent excerpts (copied chat lines):"] + h.recentExcerpts.map { "  > \(inertLine($0))" }
    }
    if let p = b.previouslyActiveID { out += ["", "Previously active handoff: \(p.uuidString)"] }
    if let stale { out += ["", staleLine(stale)] }
    out += ["", b.notice]
    return out.joined(separator: "\n")
  }

  /// What lists the records a brief's list leaves out: `` `dolphin task list --status all --limit
  /// 58` lists them among the first 58 tasks, open first, then by priority and age ``, the
  /// `--limit` reaching the last of them (``HandoffBrief/tasksSinceLeftOut``). A span past the
  /// list's `maximum` (which the record bounds leave to records stored before them) is said to
  /// end past what one listing shows.
  static func leftOutPointer(
    _ span: ListingSpan?, maximum: Int, noun: String, order: String, _ lister: (Int) -> SuggestedCommand
  ) -> String {
    guard let span, span.end <= maximum else {
      return "`\(command: lister(maximum))` lists the first \(maximum) \(noun), \(order)"
        + (span == nil ? "" : "; some of them come after those, past what one listing shows")
    }
    return "`\(command: lister(span.end))` lists them among the first \(span.end) \(noun), \(order)"
  }

  /// `May be stale (rule stale-handoff, priority high): it is 15 days and 2 hours old (older
  /// than 14 days) and 3 knowledge items were captured after it; to clear it, restore the newer
  /// handoff "F" (id N: `dolphin handoff restore N`) or deactivate this one (`dolphin handoff
  /// deactivate`).`: the stale-handoff insight the restored handoff, now the active one, raises.
  static func staleLine(_ s: HandoffStaleness) -> String {
    inert("May be stale (rule stale-handoff, priority \(s.priority.rawValue)): \(s.reason); to clear it, \(s.commandAdvice)")
  }
}
