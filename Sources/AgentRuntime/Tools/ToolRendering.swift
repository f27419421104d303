import ContinuityKit
import Foundation
import KnowledgeEngine

/// Deterministic renderings and JSON conversions shared by the tools.
///
/// In a tool's `text`, each stored one-line field (a title, a focus, a tag, a next step) goes
/// through ``line(_:)``, and each multi-line field (content, a summary) through
/// ``block(_:indent:)``, so that no stored record can print what reads as a row of its own.
/// Stored control characters are shown, never dropped, as `dolphin` prints them: escapes
/// (`\u{7}`, `\u{1B}`) in one-line fields, control pictures (`␇`, `␛`) in multi-line ones.
/// The structured output keeps the stored text unchanged.
enum ToolRendering {
  static func json<T: Encodable>(_ value: T) throws -> JSONValue { try JSONValue(encoding: value) }

  /// A stored one-line field on one line: every line break and tab becomes a space
  /// (``TerminalText/singleLine(_:)``, as the CLI folds them), and every other control and
  /// bidirectional control is written as an escape (`\u{7}`, `\u{1B}`, `\u{202E}`:
  /// ``TerminalText/escapingControls(_:)``, ``TerminalText/escapingBidiControls(_:)``), as
  /// `dolphin knowledge get` prints a title. The executor's sanitizing would otherwise drop
  /// them, and the text would show a title other than the one stored.
  static func line(_ text: String) -> String {
    TerminalText.escapingBidiControls(TerminalText.escapingControls(TerminalText.singleLine(text)))
  }

  /// A stored one-line field in double quotes, on one line, with `\\` and `"` escaped as in
  /// JSON, a line break or tab written as `\n` or `\t` and every other control as `\u{1B}`
  /// (``TerminalText/quoted(_:)``), and each bidirectional control as `\u{202E}`, so that a
  /// quote inside a title cannot close the quotation early and append text that reads as the
  /// rendering's own (a forged id or score), and no control is dropped unseen.
  static func quoted(_ text: String) -> String { TerminalText.escapingBidiControls(TerminalText.quoted(text)) }

  /// How many handoffs an approval names one by one before it counts the rest.
  static let rewrittenHandoffsNamed = 5

  /// The clauses an approval shows for the handoffs whose rule-built summary a call will
  /// rewrite (``ToolDefinition/alsoChanges``): `rewrite the rule-built summary of handoff <id>
  /// "Focus"` for the first ``rewrittenHandoffsNamed``, then `rewrite the rule-built summaries
  /// of N more handoff(s)`.
  static func summaryRewrites(_ handoffs: [Handoff]) -> [String] {
    var clauses = handoffs.prefix(rewrittenHandoffsNamed).map {
      "rewrite the rule-built summary of handoff \($0.id.uuidString) \(quoted(Truncation.truncate($0.focus, to: 80)))"
    }
    if handoffs.count > rewrittenHandoffsNamed {
      clauses.append("rewrite the rule-built summaries of \(handoffs.count - rewrittenHandoffsNamed) more handoff(s)")
    }
    return clauses
  }

  /// What a tool's text adds for the handoffs whose rule-built summary the call rewrote:
  /// ` Rebuilt the rule-built summary of handoff(s) <id>, <id>.`, after a period when `text`
  /// (the sentence before it) does not end in one; `text` itself when there are none.
  static func withRebuiltSummaries(_ text: String, _ ids: [UUID]) -> String {
    guard !ids.isEmpty else { return text }
    return text + (text.hasSuffix(".") ? "" : ".") + " Rebuilt the rule-built summary of handoff(s) "
      + ids.map(\.uuidString).joined(separator: ", ") + "."
  }

  /// A stored multi-line field with every line after the first starting with `indent`, so a
  /// line of it cannot pass for a row of the rendering (rows start at the margin).
  ///
  /// Its controls are shown first as `dolphin knowledge get` prints content: each control as a
  /// picture (``TerminalText/inert(_:)``: BEL → `␇`, ESC → `␛`, a lone `\r` → `␍`, VT → `␋`,
  /// a C1 control → U+FFFD; `\r\n` is a line break) and each bidirectional control as an
  /// escape (`\u{202E}`), rather than dropped by the executor's sanitizing. Line breaks are then
  /// `\n`, U+2028 and U+2029; each becomes `\n` + `indent`.
  static func block(_ text: String, indent: String = "  ") -> String {
    let shown = TerminalText.inert(TerminalText.escapingBidiControls(text))
    guard shown.contains(where: \.isNewline) else { return shown }
    return shown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      .joined(separator: "\n" + indent)
  }

  static func knowledgeLine(_ k: KnowledgeItem) -> String {
    let tags = k.tags.isEmpty ? "" : " [\(k.tags.map(line).joined(separator: ", "))]"
    let provenance = k.source == .legacyMemory ? " (legacy memory)" : ""
    return "- \(k.kind.rawValue) \(quoted(k.title))\(tags)\(provenance) (id \(k.id.uuidString))"
  }

  static func knowledgeDetail(_ k: KnowledgeItem, supersededBy: [(id: UUID, title: String)] = []) -> String {
    var lines = [
      "\(k.kind.rawValue): \(line(k.title))", "id: \(k.id.uuidString)", "priority: \(k.priority.rawValue); source: \(k.source.rawValue)",
      "tags: " + (k.tags.isEmpty ? "none" : k.tags.map(line).joined(separator: ", ")),
    ]
    for r in k.relationships { lines.append("\(r.kind.rawValue) → \(r.targetID.uuidString)") }
    for s in supersededBy { lines.append("superseded by \(s.id.uuidString) \(quoted(s.title)) (this item is history, not current)") }
    // The content comes last, indented as a whole, so none of its lines reads as a field.
    if !k.content.isEmpty { lines += ["content:", "  " + block(k.content)] }
    return lines.joined(separator: "\n")
  }

  static func taskLine(_ t: TaskItem) -> String {
    "- [\(t.status == .completed ? "x" : " ")] \(quoted(t.title)) (\(t.priority.rawValue); id \(t.id.uuidString))"
  }

  /// The headings of the digest sections in a tool's text, by JSON name.
  static let digestSectionTitles = [
    "decisions": "Decisions", "preferences": "Preferences", "goals": "Goals", "openTasks": "Open tasks",
    "recentContext": "Recent context", "priorities": "Priorities", "questions": "Open questions",
  ]

  /// The text of `project_context`: a header, then each digest section that has lines, within
  /// ``Limits/renderedToolOutput``.
  static func digestText(_ d: Digest) -> String {
    let head = ["Project context (rule-based digest \(d.algorithm) v\(d.algorithmVersion); each line starts with its evidence ids in brackets)"]
    let sections = d.sections.named.map { name, lines in
      digestSection(name, lines, omitted: d.sections.omitted, field: "structuredContent.sections.\(name)")
    }
    guard sections.contains(where: { $0.total > 0 }) else {
      return (head + ["(the workspace holds nothing to summarize yet)"]).joined(separator: "\n")
    }
    return bounded(head: head, sections: sections)
  }

  /// One digest section as a list of a bounded text: its heading, its lines (evidence ids first,
  /// at a fixed place, so that no stored title can append fake ones) and, when the digest or the
  /// text bound left some out, the count of them after its lines, without brackets: it cites
  /// nothing (``DigestOmissions/marker(for:notInText:heldIn:)``).
  /// - Parameters:
  ///   - name: the section's JSON name (`decisions`).
  ///   - lines: its lines.
  ///   - omitted: what the digest left out of each section.
  ///   - field: where the structured output holds the lines.
  static func digestSection(_ name: String, _ lines: [DigestLine], omitted: DigestOmissions, field: String)
    -> BoundedLines.Section
  {
    let digestLeftOut = omitted[section: name]
    return BoundedLines.Section(
      heading: "\(digestSectionTitles[name] ?? name):", entries: lines.map(\.rendered),
      // A section the digest left empty but whose candidates it counted has nothing to show.
      total: lines.isEmpty ? 0 : lines.count + digestLeftOut
    ) { n in
      "  " + (omitted.marker(for: name, notInText: n - digestLeftOut, heldIn: field) ?? "")
    }
  }

  /// An insight as ``EvidenceLine`` prints it: `- [ids] [priority] rule: message`, and when its
  /// evidence was cut, ` (evidence: 64 of 80 ids cited)`.
  static func insightLine(_ i: Insight) -> String {
    let cut = i.evidenceTruncated ? " (evidence: \(i.evidenceIDs.count) of \(i.evidenceTotal) ids cited)" : ""
    return EvidenceLine.render(evidenceIDs: i.evidenceIDs, text: "[\(i.priority.rawValue)] \(i.rule.rawValue): \(i.message)\(cut)")
  }

  /// `1 task`, `3 tasks`: a count with its noun.
  static func counted(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

  /// A tool's text held to ``Limits/renderedToolOutput`` with every list cut between its
  /// entries and counted (``BoundedLines``), never cut mid-list by the executor's bound.
  static func bounded(head: [String], sections: [BoundedLines.Section], tail: [String] = []) -> String {
    BoundedLines.render(head: head, sections: sections, tail: tail, limit: Limits.renderedToolOutput)
  }

  /// A listing tool's text: `header`, then the rows that fit the bound, then — when some did
  /// not — how many of the listed records the text leaves out and that the structured output's
  /// `field` holds them all.
  static func listing(header: String, rows: [String], field: String, tail: [String] = []) -> String {
    listing(head: [header], rows: rows, field: field, tail: tail)
  }

  /// A listing tool's text: the lines of `head` (a header, notes), then the rows that fit
  /// ``Limits/renderedToolOutput``, each whole (a row may span lines: a search result and its
  /// snippet), then — when some did not fit — `… and 26 more of the 50 listed (not shown: the
  /// text is bounded; structuredContent.results holds every one)`. A row is never cut, so no id
  /// is shown in part.
  static func listing(head: [String], rows: [String], field: String, tail: [String] = []) -> String {
    bounded(head: head, sections: [listedRows(rows, field: field)], tail: tail)
  }

  /// What a listing's first line adds for its `offset`: nothing for none,
  /// `, after the first 50` otherwise, and `; offset 60 is past the last of them` when it
  /// leaves none to list.
  static func pageClauses(offset: Int, listed: Int, total: Int) -> String {
    guard offset > 0 else { return "" }
    return listed == 0 && offset >= total ? "; offset \(offset) is past the last of them" : ", after the first \(offset)"
  }

  /// What a listing's first line adds when a byte bound cut its structured output
  /// (``ToolOutput/SizeCut``); ``sizeCutLine(_:_:then:)`` ends the text.
  static let sizeCutClause = ", cut to fit the response's byte bound (see the last line)"

  /// The last line of a listing's text when a byte bound cut its structured output to its
  /// first records (``ToolOutput/fitted(to:finishingText:)``): `4977 more of the 5000 task(s)
  /// listed were left out of this response, whole, to keep it within 4194304 bytes
  /// (structuredContent.omittedForSize counts them); call task_list again with offset 23 for the
  /// next ones.`
  /// - Parameters:
  ///   - cut: what the cut kept, of how many, under which bound.
  ///   - noun: the records, plural form in parentheses when it may be one (`task(s)`).
  ///   - remedy: how to get the ones left out, as a clause without its full stop.
  static func sizeCutLine(_ cut: ToolOutput.SizeCut, _ noun: String, then remedy: String) -> String {
    "\(cut.omitted) more of the \(cut.listed) \(noun) listed were left out of this response, whole, to keep it within "
      + "\(cut.boundBytes) bytes (structuredContent.omittedForSize counts them); \(remedy)."
  }

  /// The rows of a listing as a list of a bounded text (see ``listing(head:rows:field:)``).
  static func listedRows(_ rows: [String], field: String, heading: String? = nil) -> BoundedLines.Section {
    BoundedLines.Section(heading: heading, entries: rows) { n in
      "… and \(n) more of the \(rows.count) listed (not shown: the text is bounded; structuredContent.\(field) holds every one)"
    }
  }

  static func uuid(_ args: JSONObject, _ key: String) -> UUID? { args[key]?.string.flatMap(UUID.init(uuidString:)) }
  static func uuids(_ args: JSONObject, _ key: String) -> [UUID] { args[key]?.array?.compactMap { $0.string.flatMap(UUID.init(uuidString:)) } ?? [] }
  static func strings(_ args: JSONObject, _ key: String) -> [String] { args[key]?.array?.compactMap(\.string) ?? [] }

  /// An object output schema with the given top-level properties (``OutputSchemas/object(_:required:description:)``).
  static func outputSchema(_ properties: [String: JSONValue], required: [String] = []) -> JSONValue {
    OutputSchemas.object(properties, required: required)
  }
  static let anyObject: JSONValue = .object(["type": "object"])
  static let anyArray: JSONValue = .object(["type": "array"])
  static let string: JSONValue = .object(["type": "string"])
  static let integer: JSONValue = .object(["type": "integer"])
  static let boolean: JSONValue = .object(["type": "boolean"])
}
