import Foundation

/// A value in an export document that `dolphin import` refuses on a record it writes: text
/// holding a NUL (U+0000), or a tag holding a line break, a tab, another control character or a
/// comma (``Limits/checkNewTag(_:_:)``).
///
/// No dolphin command stores any of these (capture, the MCP tools and imports refuse them), so
/// a workspace holds one only when another program wrote it there (`sqlite3 … "UPDATE knowledge
/// SET content = 'a' || char(0) || 'b'"`), or, for a comma in a tag, an earlier build did (its
/// MCP tools and imports took one). Its export keeps the text as stored; importing that file
/// back into the same workspace leaves the record alone (it is the same record), while an import
/// that would write the record — into an empty workspace, say — refuses it.
public struct RefusedTextField: Sendable, Equatable {
  /// The collection as an import plan names it: `knowledge`, `memories`, `tasks`, `handoffs`,
  /// `digests`, `conversations`, `messages`, `receipts`, `checkpoints`, or `settings` and
  /// `quarantine`.
  public var collection: String
  /// The record's id; nil for the settings and quarantined records, which have none.
  public var id: UUID?
  /// The record's position in its collection; nil for the settings.
  public var index: Int?
  /// The JSON path of the record, e.g. `workspace.knowledge[3]`.
  public var recordPath: String
  /// The field inside the record, e.g. `content` or `tags[1]`.
  public var field: String
  /// Why it is refused, naming the field: `content contains a NUL character (U+0000) at
  /// character 2; NUL is not text, remove it`.
  public var reason: String

  /// The JSON path of the value: `workspace.knowledge[3].content`.
  public var path: String { "\(recordPath).\(field)" }

  /// `workspace.knowledge[3] (id …): content contains a NUL character …`, as import refusals
  /// name a record.
  public var description: String {
    recordPath + (id.map { " (id \($0.uuidString))" } ?? "") + ": " + reason
  }
}

extension WorkspaceExport {
  /// Every value of this document that an import refuses on a record it writes
  /// (``RefusedTextField``), in document order: knowledge, memories, tasks, handoffs, digests,
  /// conversations, messages, receipts, checkpoints, settings, quarantine; inside a record,
  /// field by field, and for tags the first refused tag only.
  /// - Complexity: O(n) in the document's text; a record without a NUL byte and without a
  ///   control character or comma in a tag costs one scan of its UTF-8.
  public var refusedTextFields: [RefusedTextField] {
    var out: [RefusedTextField] = []
    func scan(
      _ collection: String, _ index: Int?, _ id: UUID?, _ recordPath: String, _ texts: [(String, String)],
      tags: [String] = []
    ) {
      for (field, text) in texts where text.utf8.contains(0) {
        do throws(ValidationError) { try Limits.refuseNUL(field, text) } catch {
          out.append(.init(collection: collection, id: id, index: index, recordPath: recordPath, field: field, reason: error.message))
        }
      }
      for (j, tag) in tags.enumerated() {
        do throws(ValidationError) { try Limits.checkNewTag("tags[\(j)]", tag) } catch {
          out.append(.init(collection: collection, id: id, index: index, recordPath: recordPath, field: "tags[\(j)]", reason: error.message))
          break
        }
      }
    }
    func list(_ name: String, _ values: [String]) -> [(String, String)] {
      values.enumerated().map { ("\(name)[\($0.offset)]", $0.element) }
    }
    let ws = workspace
    for (i, k) in ws.knowledge.enumerated() {
      scan("knowledge", i, k.id, "workspace.knowledge[\(i)]", [("title", k.title), ("content", k.content)], tags: k.tags)
    }
    for (i, m) in ws.memories.enumerated() {
      scan("memories", i, m.id, "workspace.memories[\(i)]", [("text", m.text)], tags: m.tags)
    }
    for (i, t) in ws.tasks.enumerated() {
      scan("tasks", i, t.id, "workspace.tasks[\(i)]", [("title", t.title), ("notes", t.notes)])
    }
    for (i, h) in ws.handoffs.enumerated() {
      scan(
        "handoffs", i, h.id, "workspace.handoffs[\(i)]",
        [("focus", h.focus), ("summary", h.summary)] + list("nextSteps", h.nextSteps)
          + list("recentExcerpts", h.recentExcerpts))
    }
    for (i, d) in ws.digests.enumerated() {
      let lines = d.sections.named.flatMap { section in
        section.lines.enumerated().map { ("sections.\(section.name)[\($0.offset)].text", $0.element.text) }
      }
      scan("digests", i, d.id, "workspace.digests[\(i)]", [("algorithm", d.algorithm), ("algorithmVersion", d.algorithmVersion)] + lines)
    }
    for (i, c) in ws.conversations.enumerated() {
      scan("conversations", i, c.id, "workspace.conversations[\(i)]", [("title", c.title)])
    }
    for (i, m) in ws.messages.enumerated() {
      scan("messages", i, m.id, "workspace.messages[\(i)]", [("text", m.text)])
    }
    for (i, r) in ws.receipts.enumerated() {
      scan(
        "receipts", i, r.id, "workspace.receipts[\(i)]",
        [("callID", r.callID), ("tool", r.tool), ("risk", r.risk), ("arguments", r.arguments),
         ("approval", r.approval ?? ""), ("message", r.message)])
    }
    for (i, c) in ws.checkpoints.enumerated() {
      scan("checkpoints", i, c.id, "workspace.checkpoints[\(i)]", [("state", c.state), ("note", c.note)])
    }
    scan("settings", nil, nil, "workspace.settings", [("assistantName", ws.settings.assistantName)])
    for (i, q) in quarantine.enumerated() {
      scan(
        "quarantine", i, nil, "quarantine[\(i)]",
        [("sourceFile", q.sourceFile), ("collection", q.collection), ("reason", q.reason), ("raw", q.raw)])
    }
    return out
  }

  /// What fixes a ``RefusedTextField`` and keeps the readable text, for a refusal or a warning:
  /// fix the workspace with the `sqlite3` command `dolphin doctor` gives, then export again, or
  /// remove the characters from the file.
  public static let refusedTextFix =
    "to keep the readable text, run `dolphin doctor` on the workspace the file came from: it names each such "
    + "record with the sqlite3 command that fixes it and keeps the rest of the text (a NUL or a control character "
    + "removed, a comma in a tag becoming `-`); then export again. Or fix the file: remove each `\\u0000` escape and "
    + "each control character in a tag, and write a tag holding a comma as two tags or with `-` (`a,b` → `a-b`)"

  /// The warning for whoever writes this document to a file when it holds values that an import
  /// refuses on a record it writes (``refusedTextFields``): which records and fields (the first
  /// 10, and how many more), that the export keeps them as stored, and how to fix them; nil when
  /// there are none.
  public var refusedTextWarning: String? { Self.refusedTextWarning(for: refusedTextFields) }

  /// ``refusedTextWarning`` for `fields`, the document's ``refusedTextFields`` computed once by
  /// a caller that needs them for other checks too (`dolphin export` also passes them to the
  /// import checks: each computation reads every text of the document).
  /// - Parameter fields: the document's ``refusedTextFields``.
  /// - Returns: the warning; nil when `fields` is empty.
  public static func refusedTextWarning(for fields: [RefusedTextField]) -> String? {
    guard !fields.isEmpty else { return nil }
    let shown = fields.prefix(10).map { $0.path + ($0.id.map { " (id \($0.uuidString))" } ?? "") }
    let more = fields.count > 10 ? "; and \(fields.count - 10) more" : ""
    return "\(fields.count) value(s) hold a NUL character or a tag with a control character or a comma, which no "
      + "dolphin command stores (another program, or for a comma an earlier dolphin, wrote them into the workspace): " + shown.joined(separator: "; ") + more
      + ". The export keeps them as stored, and importing the file back into this workspace leaves those records "
      + "alone, but an import that writes them (into an empty workspace, for one) refuses the file: "
      + refusedTextFix
  }
}
