import ContinuityKit
import Foundation
import KnowledgeEngine

/// Human-readable renderings. Stored text is passed through ``inert(_:)``, and one-line fields
/// (titles, tags, a handoff's focus) through ``inertLine(_:)``; a title printed before other
/// fields of its row is quoted (``inertQuoted(_:)``), so that it cannot end early and print
/// what reads as the row's tags, priority or matched stems.
enum Render {
  static func date(_ d: Date) -> String { ISO8601.string(from: d) }

  /// `<id>  <kind>  "Title"  [tags]  (legacy memory)`: the id first, the title quoted.
  static func knowledgeLine(_ k: KnowledgeItem) -> String {
    let tags = k.tags.isEmpty ? "" : "  [" + k.tags.map(inertLine).joined(separator: ", ") + "]"
    let provenance = k.source == .legacyMemory ? "  (legacy memory)" : ""
    return "\(k.id.uuidString)  \(k.kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(inertQuoted(k.title))\(tags)\(provenance)"
  }

  /// - Parameter supersededBy: the items that supersede it, with their titles: one line each
  ///   (`superseded by: <id> "Title"`), after the item's own relationships.
  static func knowledgeDetail(_ k: KnowledgeItem, supersededBy: [(id: UUID, title: String)] = []) -> String {
    var lines = [
      "\(k.kind.rawValue): \(inertLine(k.title))",
      "id:        \(k.id.uuidString)",
      "priority:  \(k.priority.rawValue)",
      "source:    \(k.source.rawValue)" + (k.memoryID.map { " (mirrors memory \($0.uuidString))" } ?? ""),
      "tags:      " + (k.tags.isEmpty ? "none" : k.tags.map(inertLine).joined(separator: ", ")),
      "created:   \(date(k.createdAt))",
      "updated:   \(date(k.updatedAt))   revision \(k.revision)",
    ]
    if !k.relationships.isEmpty {
      lines.append("relationships:")
      for r in k.relationships { lines.append("  \(r.kind.rawValue) → \(r.targetID.uuidString)") }
    }
    for s in supersededBy {
      lines.append("superseded by: \(s.id.uuidString) \(inertQuoted(s.title)) (this item is history, not current)")
    }
    if !k.content.isEmpty { lines += ["", inert(k.content)] }
    return lines.joined(separator: "\n")
  }

  /// The line `dolphin capture` prints after the captured item's id when items of its kind
  /// already had its title (``CaptureResult/sameTitle``), e.g. `note: 1 fact already has this
  /// title: <id> (see it with: dolphin knowledge get <id>; change it in place with: dolphin
  /// knowledge edit <id>)`; with more, the ids listed (at most
  /// ``KnowledgeEngine/sameTitleListed``) and `and N more`, the commands naming the first.
  /// - Returns: nil when there are none.
  static func sameTitleNote(_ same: SameTitleItems, kind: KnowledgeKind) -> String? {
    guard let first = same.ids.first else { return nil }
    let noun: String
    switch kind {
    case .code, .context: noun = same.total == 1 ? "\(kind.rawValue) item" : "\(kind.rawValue) items"
    default: noun = same.total == 1 ? kind.rawValue : kind.rawValue + "s"
    }
    let more = same.total - same.ids.count
    let ids = same.ids.map(\.uuidString).joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    let one = same.total == 1 ? "it" : "one"
    return "note: \(same.total) \(noun) already \(same.total == 1 ? "has" : "have") this title: \(ids) "
      + "(see \(one) with: \(command: "dolphin knowledge get \(first)"); change it in place with: "
      + "\(command: "dolphin knowledge edit \(first)"))"
  }

  /// `[ ] <id>  "Title" (high)`: the status box and id first, the title quoted, the priority
  /// when it is not `normal`.
  static func taskLine(_ t: TaskItem) -> String {
    let box = t.status == .completed ? "[x]" : "[ ]"
    let pr = t.priority == .normal ? "" : " (\(t.priority.rawValue))"
    return "\(box) \(t.id.uuidString)  \(inertQuoted(t.title))\(pr)"
  }

  /// Every field of a task, one per line: title, id, status (with the completion date),
  /// priority, creation date, date of its last change, knowledge ids and notes (indented under
  /// their label).
  static func taskDetail(_ t: TaskItem) -> String {
    var lines = [
      "task: \(inertLine(t.title))",
      "id:        \(t.id.uuidString)",
      "status:    \(t.status.rawValue)" + (t.completedAt.map { " (completed \(date($0)))" } ?? ""),
      "priority:  \(t.priority.rawValue)",
      "created:   \(date(t.createdAt))",
      "updated:   \(date(t.updatedAt))",
      "knowledge: " + (t.knowledgeIDs.isEmpty ? "(none)" : t.knowledgeIDs.map(\.uuidString).joined(separator: ", ")),
    ]
    lines.append(hanging(t.notes.isEmpty ? "(none)" : t.notes, label: "notes:     "))
    return lines.joined(separator: "\n")
  }

  static func memoryLine(_ m: MemoryItem) -> String {
    "\(m.id.uuidString)  \(date(m.createdAt))  \(inertQuoted(Truncation.truncate(m.text, to: 100)))"
  }

  /// One flagged record: `memory <id> text: GitHub token at line 1, column 5` (never the secret).
  static func credentialFlag(_ f: CredentialFlag) -> String {
    "\(f.recordType) \(f.id.uuidString) \(f.field): \(f.finding)"
  }

  /// The hint for an empty result filtered by a tag with a comma in it: `--tag` takes one tag,
  /// so `--tag a,b` looked for the single tag `a,b`, not for `a` or `b`.
  /// - Parameter tag: the tag filtered on, normalized; nil when there was no tag filter.
  /// - Returns: `(--tag takes one tag; 'a,b' was read as a single tag)`, or nil when `tag` has
  ///   no comma.
  static func oneTagHint(_ tag: String?) -> String? {
    guard let tag, tag.contains(",") else { return nil }
    return "(--tag takes one tag; '\(inert(tag))' was read as a single tag)"
  }


  /// What a list's count line adds when its `--limit` left records out: which ones it shows, how
  /// many it left out, and how to see more — `task list`'s words, for every list (review 22, 3:
  /// `knowledge list` said `50 item(s) shown of 85` with no way on).
  /// - Parameters:
  ///   - shown: the records listed.
  ///   - total: the records there are (matching the filters, if any).
  ///   - maximum: the largest `--limit` the command takes.
  /// - Returns: ` (the first 50; 35 left out, --limit N lists up to 100000)`, or `""` when
  ///   nothing was left out.
  static func leftOutHint(shown: Int, total: Int, maximum: Int) -> String {
    guard shown < total else { return "" }
    return " (the first \(shown); \(total - shown) left out, --limit N lists up to \(maximum))"
  }
  static func plan(_ p: DeletionPlan) -> String {
    // The id before the title, which is quoted with its quotes escaped (as in each change).
    var lines = ["Deletion plan: delete \(p.target.rawValue) \(p.targetID.uuidString) \(inertQuoted(p.targetTitle))"]
    if p.changes.isEmpty {
      // "Nothing else refers to it" only when no kept text quotes it either (review 19-c, finding 2).
      lines.append(p.keptQuotes.isEmpty ? "  nothing else refers to it" : "  no other record changes")
    } else {
      lines.append("  It will also:")
      for c in p.changes { lines.append("  - \(inertLine(c.detail))") }
    }
    if let kept = keptQuotes(p.keptQuotes) { lines.append("  " + kept) }
    return lines.joined(separator: "\n")
  }

  /// The plan's line for the kept records that quote the deleted record
  /// (``DeletionPlan/keptQuotes``), with the commands that remove them; nil when none does.
  static func keptQuotes(_ quotes: [DeletionPlan.KeptQuotes]) -> String? {
    guard !quotes.isEmpty else { return nil }
    let parts = quotes.map { q in
      switch q.collection {
      case "messages": "\(q.count) chat message(s)"
      case "receipts": "\(q.count) activity receipt(s)"
      case "checkpoints": "\(q.count) run checkpoint(s)"
      case "handoffExcerpts": "the chat excerpts of \(q.count) handoff(s)"
      case "conversations": "the titles of \(q.count) conversation(s)"
      default: "\(q.count) \(q.collection)"
      }
    }
    let removers =
      quotes.contains { $0.collection == "conversations" }
      ? "`\(command: "dolphin activity clear")` removes chat and activity, `\(command: "dolphin erase --kind conversations")` the conversations"
      : "`\(command: "dolphin activity clear")` removes chat and activity"
    return "Kept as they are, and still quoting its id or title (a case-insensitive text match): "
      + parts.joined(separator: ", ") + "; " + removers + "."
  }
}

extension Render {
  /// One receipt on one line. The tool name, risk, call id, approval and arguments are recorded as the
  /// client sent them (an MCP request's id and arguments are not sanitized), so they are shown
  /// with ``inertLine(_:)``: bidi controls as escapes, as error messages show them. `--json`
  /// keeps the exact values.
  ///
  /// A call that did not succeed ends with its receipt's message, the reason (`— declined by the
  /// user`, `— approval needed: run in a terminal or pass --yes`, `— arguments.kind 'x' is not
  /// one of …`), on the same line and cut at ``receiptReasonShown`` characters: the reason is
  /// the outcome of such a call (review 28-c, 9: a "n", a missing terminal and a validation
  /// failure read the same).
  static func receiptLine(_ r: ActivityReceipt) -> String {
    let changed = r.changedIDs.isEmpty ? "" : " changed " + r.changedIDs.map(\.uuidString).joined(separator: ",")
    let reason =
      r.outcome == .succeeded || r.message.isEmpty ? "" : " — " + inertLine(Truncation.truncate(r.message, to: receiptReasonShown))
    return "\(date(r.startedAt)) \(r.outcome.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(inertLine(r.tool)) [\(inertLine(r.risk))] call \(inertLine(r.callID)) approval \(inertLine(r.approval ?? "none"))\(changed) \(inertLine(Truncation.truncate(r.arguments, to: 200)))\(reason)"
  }

  /// The most characters of a receipt's message a text row shows (`--json` gives it whole).
  static let receiptReasonShown = 300
}
