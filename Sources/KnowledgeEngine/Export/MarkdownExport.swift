import Foundation

/// Renders an export as Markdown for reading (`dolphin export --format markdown`). The JSON
/// document is the lossless format; this one is for people.
///
/// Stored text is data, never markup: one-line values (titles, tags, digest lines) are
/// CommonMark-escaped with backslashes and have their line breaks folded (every kind, as
/// ``TerminalText/singleLine(_:)`` folds them for the CLI), longer text sits in
/// fenced code blocks whose fence is longer than any backtick run inside, and every terminal
/// control is replaced by a visible placeholder (``TerminalText/inert(_:)``) and every
/// bidirectional control (which only another program writing the database can store) by its
/// escape (``TerminalText/escapingBidiControls(_:)``). So a stored
/// `# heading`, `<script>`, `[link](…)` or ```` ``` ```` shows as the characters it is.
public enum MarkdownExport {
  /// `ws` with its records in reading order, as `knowledge list`, `memory list`, `task list`,
  /// `handoff list` and `digest list` show them (review 20-b, 19: the export listed them by id,
  /// an order no reader can follow): knowledge by `updatedAt`, newest first; memories, handoffs
  /// and digests by `createdAt`, newest first; tasks open before completed, then by priority,
  /// highest first, then by `createdAt`, oldest first. Ties by id. Conversations, messages,
  /// receipts and checkpoints keep the export's order (oldest first).
  public static func readingOrder(_ ws: AssistantWorkspace) -> AssistantWorkspace {
    var out = ws
    func newestFirst<T>(_ records: [T], _ date: (T) -> Date, _ id: (T) -> UUID) -> [T] {
      records.sorted { a, b in
        date(a) != date(b) ? date(a) > date(b) : id(a).uuidString < id(b).uuidString
      }
    }
    out.knowledge = newestFirst(ws.knowledge, \.updatedAt, \.id)
    out.memories = newestFirst(ws.memories, \.createdAt, \.id)
    out.handoffs = newestFirst(ws.handoffs, \.createdAt, \.id)
    out.digests = newestFirst(ws.digests, \.createdAt, \.id)
    out.tasks = ws.tasks.sorted { a, b in
      if (a.status == .open) != (b.status == .open) { return a.status == .open }
      if a.priority != b.priority { return a.priority > b.priority }
      if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
      return a.id.uuidString < b.id.uuidString
    }
    return out
  }

  /// The Markdown for `document`. Sections in order: knowledge, memories, tasks, handoffs,
  /// digests, conversations (with their messages), activity receipts, run checkpoints,
  /// settings, quarantine; then, only when the export could not decode some records, those
  /// (``WorkspaceExport/unreadable``) as stored. Within a section records come in the order the CLI lists them
  /// (``readingOrder(_:)``): the newest knowledge (by update), memories, handoffs and digests
  /// first; open tasks before completed ones, by priority, oldest first. Deterministic for equal
  /// documents.
  public static func render(_ document: WorkspaceExport) -> String {
    var out = MarkdownWriter()
    let ws = readingOrder(document.workspace)
    out.line("# Dolphin workspace export")
    out.blank()
    out.line(
      "Exported \(ISO8601.string(from: document.exportedAt)) by \(inline(document.generator)) · format "
        + "`\(document.format)` version \(document.formatVersion) · workspace schema v\(document.schemaVersion).")
    out.blank()
    out.line(
      "This file is for reading. `dolphin export --format json` writes the lossless document that "
        + "`dolphin import` restores. Stored text is shown as data: escaped inline, fenced when long.")
    out.blank()
    out.line("| records | count |")
    out.line("|---|---|")
    for (name, count) in [
      ("Knowledge", ws.knowledge.count), ("Memories", ws.memories.count), ("Tasks", ws.tasks.count),
      ("Handoffs", ws.handoffs.count), ("Digests", ws.digests.count), ("Conversations", ws.conversations.count),
      ("Messages", ws.messages.count), ("Activity receipts", ws.receipts.count),
      ("Run checkpoints", ws.checkpoints.count), ("Quarantined", document.quarantine.count),
    ] {
      out.line("| \(name) | \(count) |")
    }

    // Superseded items are marked as every other output marks them (review 19-c, finding 11:
    // a superseded goal read as current here), from the stored `supersedes` relationships.
    let graph = SupersedeGraph(
      edges: ws.knowledge.flatMap { k in
        k.relationships.filter { $0.kind == .supersedes }.map { (source: k.id, target: $0.targetID) }
      })
    out.section("Knowledge", ws.knowledge.count)
    for k in ws.knowledge {
      let successors = graph.successors(of: k.id)
      out.heading(3, "\(k.kind.rawValue.capitalized): \(inline(k.title))" + (successors.isEmpty ? "" : " (superseded)"))
      out.item("id", code(k.id))
      if !successors.isEmpty { out.line("- " + supersededNote(successors)) }
      out.item("priority", k.priority.rawValue)
      out.item("source", k.source.rawValue + (k.memoryID.map { " (mirrors memory \(code($0)))" } ?? ""))
      if !k.tags.isEmpty { out.item("tags", k.tags.map(inline).joined(separator: ", ")) }
      for r in k.relationships { out.item("relationship", "\(r.kind.rawValue) → \(code(r.targetID))") }
      out.item("created", date(k.createdAt) + " · updated " + date(k.updatedAt) + " · revision \(k.revision)")
      out.fenced(k.content)
    }

    out.section("Memories", ws.memories.count)
    for m in ws.memories {
      out.heading(3, "Memory \(code(m.id))")
      out.item("created", date(m.createdAt))
      if !m.tags.isEmpty { out.item("tags", m.tags.map(inline).joined(separator: ", ")) }
      if let k = m.knowledgeID {
        let successors = graph.successors(of: k)
        out.item("knowledge mirror", code(k) + (successors.isEmpty ? "" : " (" + supersededNote(successors) + ")"))
      }
      out.fenced(m.text)
    }

    out.section("Tasks", ws.tasks.count)
    for t in ws.tasks {
      out.heading(3, (t.status == .completed ? "[x] " : "[ ] ") + inline(t.title))
      out.item("id", code(t.id))
      out.item("status", t.status.rawValue + (t.completedAt.map { " on " + date($0) } ?? ""))
      out.item("priority", t.priority.rawValue)
      out.item("created", date(t.createdAt))
      if !t.knowledgeIDs.isEmpty { out.item("knowledge", t.knowledgeIDs.map(code).joined(separator: ", ")) }
      out.fenced(t.notes)
    }

    out.section("Handoffs", ws.handoffs.count)
    for h in ws.handoffs {
      out.heading(3, inline(h.focus) + (h.id == ws.activeHandoffID ? " (active)" : ""))
      out.item("id", code(h.id))
      out.item("created", date(h.createdAt) + (h.restoredAt.map { " · restored " + date($0) } ?? ""))
      if !h.knowledgeIDs.isEmpty { out.item("knowledge", h.knowledgeIDs.map(code).joined(separator: ", ")) }
      if !h.taskIDs.isEmpty { out.item("tasks", h.taskIDs.map(code).joined(separator: ", ")) }
      for (i, step) in h.nextSteps.enumerated() { out.item("next step \(i + 1)", inline(step)) }
      if !h.summary.isEmpty {
        out.blank()
        out.line("Summary:")
        out.fenced(h.summary)
      }
      for (i, excerpt) in h.recentExcerpts.enumerated() {
        out.blank()
        out.line("Excerpt \(i + 1):")
        out.fenced(excerpt)
      }
    }

    out.section("Digests", ws.digests.count)
    for d in ws.digests {
      out.heading(3, "Digest \(code(d.id))")
      out.item("created", date(d.createdAt))
      out.item("trigger", trigger(d.trigger))
      out.item("algorithm", "\(inline(d.algorithm)) version \(inline(d.algorithmVersion))")
      let headings = [
        "decisions": "Decisions", "preferences": "Preferences", "goals": "Goals", "openTasks": "Open tasks",
        "recentContext": "Recent context", "priorities": "Priorities", "questions": "Questions",
      ]
      for (name, lines, marker) in d.sections.namedWithMarkers where !lines.isEmpty || marker != nil {
        out.heading(4, headings[name] ?? name)
        // Evidence ids first, as every other rendering of a digest line puts them
        // (``EvidenceLine``), so that no stored title can read as more evidence after its text.
        for l in lines {
          out.line("- [" + EvidenceLine.citation(l.evidenceIDs.map(code), leftOut: l.evidenceLeftOut) + "] " + inline(l.text))
        }
        // What the section left out: a paragraph after the list, citing nothing.
        if let marker {
          out.line("")
          out.line(inline(marker))
        }
      }
    }

    out.section("Conversations", ws.conversations.count)
    let known = Set(ws.conversations.map(\.id))
    for c in ws.conversations {
      out.heading(3, c.title.isEmpty ? "Untitled conversation" : inline(c.title))
      out.item("id", code(c.id))
      out.item("created", date(c.createdAt) + " · updated " + date(c.updatedAt))
      for m in ws.messages where m.conversationID == c.id { message(m, into: &out) }
    }
    let orphans = ws.messages.filter { !known.contains($0.conversationID) }
    if !orphans.isEmpty {
      out.heading(3, "Messages of conversations not in this export")
      for m in orphans { message(m, into: &out) }
    }

    out.section("Activity receipts", ws.receipts.count)
    for r in ws.receipts {
      out.line(
        "- \(date(r.startedAt)) \(codeText(r.tool)) \(r.outcome.rawValue) (\(inline(r.risk)), call \(codeText(r.callID)), "
          + "approval \(r.approval.map(inline) ?? "none"))" + (r.message.isEmpty ? "" : ": " + inline(r.message)))
      out.line("  - id \(code(r.id)); arguments \(codeText(r.arguments))"
        + (r.changedIDs.isEmpty ? "" : "; changed " + r.changedIDs.map(code).joined(separator: ", ")))
    }

    out.section("Run checkpoints", ws.checkpoints.count)
    for c in ws.checkpoints {
      out.line(
        "- \(date(c.createdAt)) run \(code(c.runID)) step \(c.step): \(inline(c.state))"
          + (c.note.isEmpty ? "" : " — " + inline(c.note)) + " (id \(code(c.id)))")
    }

    out.heading(2, "Settings")
    out.item("assistant name", inline(ws.settings.assistantName))
    out.item("response style", ws.settings.responseStyle.rawValue)
    out.item("calendar access", ws.settings.calendarAccessEnabled ? "enabled" : "disabled")
    out.item("knowledge item limit", String(ws.settings.knowledgeItemLimit))
    out.item("active handoff", ws.activeHandoffID.map(code) ?? "none")

    out.section("Quarantine", document.quarantine.count)
    for q in document.quarantine {
      out.heading(3, "\(inline(q.sourceFile)) \(inline(q.collection))[\(q.recordIndex)]")
      out.item("reason", inline(q.reason))
      out.item("kept aside", date(q.quarantinedAt))
      out.fenced(q.raw, info: "json")
    }
    if !document.unreadableRecords.isEmpty {
      // Review 29-a, 8: carried out as stored, not left behind.
      out.section("Unreadable records", document.unreadableRecords.count)
      out.line("Stored records the export could not decode, as stored (`dolphin doctor` names each with a repair).")
      for r in document.unreadableRecords {
        out.heading(3, inline(r.shownName))
        out.item("reason", inline(r.reason))
        out.fenced((try? StableJSON.string(r.columns, pretty: true)) ?? "", info: "json")
      }
    }
    return out.text
  }

  static func message(_ m: ChatMessage, into out: inout MarkdownWriter) {
    out.blank()
    out.line("**\(m.role.rawValue)** · \(date(m.createdAt)) · \(code(m.id))")
    out.fenced(m.text)
  }

  static func trigger(_ t: DigestTrigger) -> String {
    switch t {
    case .manual: "manual"
    case .captureThreshold(let count): "capture threshold (\(count) items)"
    }
  }

  static func date(_ d: Date) -> String { ISO8601.string(from: d) }

  static func code(_ id: UUID) -> String { "`\(id.uuidString)`" }

  /// `superseded by `ID`, `ID``: ``KnowledgeEngine/supersededNote(_:)`` with the ids as code spans.
  static func supersededNote(_ successors: [UUID]) -> String {
    "superseded by " + successors.map(code).joined(separator: ", ")
  }

  /// Stored one-line text as a code span (literal inside), or escaped when it holds a backtick.
  /// Line breaks fold as in ``inline(_:)``.
  static func codeText(_ text: String) -> String {
    let folded = TerminalText.inert(TerminalText.escapingBidiControls(TerminalText.singleLine(text)))
    return folded.contains("`") || folded.isEmpty ? inline(text) : "`\(folded)`"
  }

  /// One-line stored text as literal Markdown: line breaks and tabs folded to spaces
  /// (``TerminalText/singleLine(_:)``: `\n`, `\r`, VT, FF, NEL, U+2028, U+2029, as the CLI folds
  /// them), other controls made visible, and every character that could open markup in the
  /// middle of a line (emphasis, code, links, images, HTML, entities, tables, strikethrough, a
  /// heading's closing `#`) backslash-escaped. Callers never put it at the start of a line,
  /// where list and block markers would matter.
  public static func inline(_ text: String) -> String {
    let visible = TerminalText.inert(TerminalText.escapingBidiControls(TerminalText.singleLine(text)))
    var out = ""
    out.reserveCapacity(visible.utf8.count)
    for ch in visible {
      switch ch {
      case "\\", "`", "*", "_", "[", "]", "<", ">", "#", "!", "|", "~", "&":
        out.append("\\")
        out.append(ch)
      default: out.append(ch)
      }
    }
    return out
  }
}

/// Accumulates Markdown lines.
struct MarkdownWriter {
  var text = ""

  mutating func line(_ s: String) { text += s + "\n" }
  mutating func blank() { if !text.hasSuffix("\n\n") { text += "\n" } }

  mutating func heading(_ level: Int, _ title: String) {
    blank()
    line(String(repeating: "#", count: level) + " " + title)
    blank()
  }

  mutating func section(_ title: String, _ count: Int) {
    heading(2, "\(title) (\(count))")
    if count == 0 { line("None.") }
  }

  mutating func item(_ name: String, _ value: String) { line("- \(name): \(value)") }

  /// `body` in a fenced code block that it cannot close: the fence is one backtick longer than
  /// the longest run of backticks inside. Empty text writes nothing.
  mutating func fenced(_ body: String, info: String = "text") {
    guard !body.isEmpty else { return }
    var longest = 0
    var run = 0
    for ch in body {
      run = ch == "`" ? run + 1 : 0
      longest = max(longest, run)
    }
    let fence = String(repeating: "`", count: max(3, longest + 1))
    blank()
    line(fence + info)
    line(TerminalText.inert(TerminalText.escapingBidiControls(body)))
    line(fence)
    blank()
  }
}
