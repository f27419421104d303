import ContinuityKit
import Foundation

/// A record of an export that `dolphin import` refuses when it restores the export into an empty
/// workspace, by one of its rules other than the characters ``WorkspaceExport/refusedTextFields``
/// names (a NUL in text, a control character or a comma in a tag).
///
/// A workspace holds one when an earlier dolphin stored it before the rule existed (an import, a
/// migration), when another program wrote it there (`sqlite3 … "UPDATE knowledge SET updated_at =
/// '2000-01-01T00:00:00.000Z'"`), or — for a rule about dates — when dolphin wrote it while the
/// clock was wrong (``Rule/howStored``). Its export keeps the record as stored, and that file
/// cannot be restored: the import names the first such record and imports nothing. `dolphin
/// doctor` lists them with a fix that keeps the record, and `dolphin export` warns of them.
public struct ImportRefusal: Sendable, Equatable, Codable, CustomStringConvertible {
  /// Which kind of rule refuses the record.
  public enum Rule: String, Sendable, Equatable, Codable {
    /// Text over its bound, in characters or Unicode scalars (``Limits/check(_:_:limit:)``); for a
    /// digest, a line longer than the digest builder writes.
    case textBound
    /// A list over its bound: tags, relationships, ids, next steps, excerpts; for a digest, a
    /// section with more lines, or a line citing more ids, than the digest builder writes.
    case countBound
    /// Text that must show something is empty once sanitized: a title, a memory's text, a
    /// handoff's focus.
    case emptyText
    /// A knowledge item's or task's `updatedAt` earlier than its `createdAt`.
    case dateOrder
    /// A task whose `completedAt` disagrees with its status, or is before its `createdAt`.
    case taskCompletion
    /// A run checkpoint with a negative `step`.
    case checkpointStep
    /// A run checkpoint whose `state` is not one of ``RunCheckpoint/states``.
    case checkpointState
    /// A digest with a count of lines left out (`sections.omitted`) below 0 or over what a
    /// workspace can hold (``DigestOmissions/maximum(ofSection:)``).
    case digestCount
    /// A record dated more than a day after the clock of whoever checks it: a handoff's
    /// `createdAt` or `restoredAt`; a digest's, message's, checkpoint's or memory's `createdAt`; a
    /// receipt's `startedAt` or `finishedAt`; a knowledge item's or conversation's `createdAt` or
    /// `updatedAt`; a task's `createdAt`, `completedAt` or `updatedAt`.
    case futureDate
    /// A knowledge item's `revision` outside 1…``Limits/revision``.
    case revision
    /// A knowledge item related to itself.
    case selfRelationship
    /// A receipt's `arguments` that are not JSON text.
    case receiptArguments
    /// A setting outside its range, or below what the workspace holds (`knowledgeItemLimit`).
    case setting
    /// A digest labelled as built otherwise than by rules, or with a version that is no number.
    case digestLabel
    /// A rule over the records together: two records with one id, more records than a
    /// workspace keeps or holds, a reference to a missing record.
    case document

    /// How a stored record that breaks this rule can have got there, in words for `doctor` and
    /// `export`: dolphin itself, while the clock was wrong, for the rules about dates that its
    /// commands take from the clock (review 19-c, #10: a handoff written while a laptop's clock
    /// ran ahead was said to be "another program's"); otherwise an earlier dolphin that stored
    /// it before the rule existed, or another program.
    public var howStored: String {
      switch self {
      case .futureDate:
        "a record dated ahead of this machine's clock was written while a clock ran ahead (dolphin dates a record by "
          + "the clock of the machine that writes it, so a clock set right afterwards leaves it in the future), by an "
          + "earlier dolphin's import or migration, which did not check every record's dates, or by another program"
      case .taskCompletion:
        "a task completed before it was created was completed while the clock was set back (dolphin before this "
          + "version dated a completion by the clock alone); such a task, or one whose completion date disagrees with "
          + "its status, may also have been stored by an earlier dolphin before this rule existed, or by another program"
      default:
        "an earlier dolphin stored such a record before this rule existed (an import or a migration), or another "
          + "program wrote it; no dolphin command stores one now"
      }
    }
  }

  /// Where `refusals` can have come from (``Rule/howStored``), each distinct explanation once, in
  /// the order of the records, joined with `; `.
  public static func howStored(_ refusals: [ImportRefusal]) -> String {
    var seen = Set<String>()
    return refusals.map(\.rule.howStored).filter { seen.insert($0).inserted }.joined(separator: "; ")
  }

  /// The collection as an export names it: `knowledge`, `memories`, `tasks`, `handoffs`,
  /// `digests`, `conversations`, `messages`, `receipts`, `checkpoints`, `settings`; or
  /// `workspace` for a rule no one record breaks.
  public var collection: String
  /// The table that stores the record: `knowledge`, `memory`, `task`, `handoff`, `digest`,
  /// `conversation`, `message`, `receipt`, `checkpoint`, `settings` (the `meta` row), or
  /// `workspace`.
  public var table: String
  /// The record's id; nil for the settings and for a rule no one record breaks.
  public var id: UUID?
  /// The JSON path of the record in the export, e.g. `workspace.knowledge[3]`.
  public var recordPath: String
  /// The field inside the record as the import names it, e.g. `updatedAt` or `tags`; empty when
  /// the rule is about the whole record or collection.
  public var field: String
  /// The kind of rule.
  public var rule: Rule
  /// The import's own words for the refusal, naming the field, e.g. `updatedAt is
  /// 2020-01-01T00:00:00.000Z, earlier than createdAt …; an item cannot change before it was
  /// created`.
  public var problem: String
  /// What fixes it and keeps the record, in words.
  public var fix: String
  /// One SQL statement for the workspace database that applies ``fix``; nil when the fix needs a
  /// person's choice (which tags to keep, how to shorten a text).
  public var fixStatement: String?

  /// `knowledge 5D…: updatedAt is …`; the settings as `settings: …`.
  public var description: String {
    (id.map { "\(table) \($0.uuidString)" } ?? table) + ": " + problem
  }
}

extension KnowledgeEngine {
  /// Every record of `document` that `dolphin import` would refuse when restoring it into an
  /// empty workspace (``ImportRefusal``), found by the import's own checks: each record is run
  /// alone through what an import checks without a workspace (text bounds as given, then
  /// sanitized text, ranges, dates, receipt arguments), then the rules over the whole document
  /// (unique ids, collections over what a workspace keeps); when no record breaks one, the
  /// document is planned for import into an empty in-memory workspace (references, memory ↔
  /// mirror links, capacities), and its refusal, if any, is the one entry.
  ///
  /// Left out, as reported elsewhere: NULs in text and control characters or commas in tags
  /// (``WorkspaceExport/refusedTextFields``), and `supersedes` cycles
  /// (``WorkspaceExport/supersedeCycleWarnings(file:)``).
  /// - Parameters:
  ///   - document: an export, e.g. from ``exportWorkspace(generator:)``.
  ///   - refusedText: the document's ``WorkspaceExport/refusedTextFields`` when the caller has
  ///     them already (`dolphin export` warns of them too); nil computes them, once.
  ///   - now: the clock records' dates are checked against (default: this machine's).
  /// - Returns: the refusals in document order; empty when the document restores.
  /// - Complexity: O(n) in the document's text; about the work of planning its import (twice
  ///   when something is refused), without the credential scan an import reports.
  public static func importRefusals(
    of document: WorkspaceExport, refusedText: [RefusedTextField]? = nil, now: Date = Date()
  ) -> [ImportRefusal] {
    // Read once, for the planning import and the record-by-record checks alike.
    let refusedText = refusedText ?? document.refusedTextFields
    let refusedTags = Set(refusedText.filter { $0.field.hasPrefix("tags[") }.compactMap(\.id))
    // The planning import first: when it passes, so does every record.
    guard let trial = trialRefusal(document, refusedText: refusedText, now: now) else { return [] }
    var out: [ImportRefusal] = []
    let ws = document.workspace
    /// Runs the record-by-record checks on `one`, a workspace holding only this record.
    func check(_ collection: String, _ index: Int?, _ id: UUID?, _ one: AssistantWorkspace) {
      do throws(WorkspaceError) { _ = try PreparedImport.checkedRecords(one, deferringTagsOf: refusedTags, now: now) } catch {
        guard case .validation(let e) = error else { return }
        let alone = index == nil ? "workspace.\(collection)" : "workspace.\(collection)[0]"
        let label = alone + (id.map { " (id \($0.uuidString))" } ?? "") + ": "
        let field = e.field.hasPrefix(alone + ".") ? String(e.field.dropFirst(alone.count + 1)) : e.field
        let problem = e.message.hasPrefix(label) ? String(e.message.dropFirst(label.count)) : e.message
        let recordPath = index.map { "workspace.\(collection)[\($0)]" } ?? "workspace.\(collection)"
        out.append(refusal(collection, id, recordPath, field, problem, limit: e.limit, document))
      }
    }
    for (i, k) in ws.knowledge.enumerated() { check("knowledge", i, k.id, AssistantWorkspace(knowledge: [k])) }
    for (i, m) in ws.memories.enumerated() { check("memories", i, m.id, AssistantWorkspace(memories: [m])) }
    for (i, t) in ws.tasks.enumerated() { check("tasks", i, t.id, AssistantWorkspace(tasks: [t])) }
    for (i, h) in ws.handoffs.enumerated() { check("handoffs", i, h.id, AssistantWorkspace(handoffs: [h])) }
    for (i, c) in ws.conversations.enumerated() { check("conversations", i, c.id, AssistantWorkspace(conversations: [c])) }
    for (i, m) in ws.messages.enumerated() { check("messages", i, m.id, AssistantWorkspace(messages: [m])) }
    for (i, r) in ws.receipts.enumerated() { check("receipts", i, r.id, AssistantWorkspace(receipts: [r])) }
    for (i, c) in ws.checkpoints.enumerated() { check("checkpoints", i, c.id, AssistantWorkspace(checkpoints: [c])) }
    for (i, d) in ws.digests.enumerated() { check("digests", i, d.id, AssistantWorkspace(digests: [d])) }
    check("settings", nil, nil, AssistantWorkspace(settings: ws.settings))

    // The rules over the whole document that need no workspace, each as the import checks it.
    func whole(_ check: () throws(WorkspaceError) -> Void) {
      do throws(WorkspaceError) { try check() } catch {
        guard case .validation(let e) = error else { return }
        out.append(documentRefusal(e.field, e.message, document))
      }
    }
    whole { () throws(WorkspaceError) in try ImportAnalysis.requireUniqueIDs(ws.knowledge, "workspace.knowledge") }
    whole { () throws(WorkspaceError) in try ImportAnalysis.requireUniqueIDs(ws.memories, "workspace.memories") }
    whole { () throws(WorkspaceError) in try ImportAnalysis.requireUniqueIDs(ws.tasks, "workspace.tasks") }
    whole { () throws(WorkspaceError) in try ImportAnalysis.requireUniqueIDs(ws.handoffs, "workspace.handoffs") }
    whole { () throws(WorkspaceError) in try ImportAnalysis.requireUniqueIDs(ws.digests, "workspace.digests") }
    whole { () throws(WorkspaceError) in
      try ImportAnalysis.requireUniqueIDs(ws.conversations, "workspace.conversations")
    }
    whole { () throws(WorkspaceError) in try ImportAnalysis.requireUniqueIDs(ws.messages, "workspace.messages") }
    whole { () throws(WorkspaceError) in try ImportAnalysis.requireUniqueIDs(ws.receipts, "workspace.receipts") }
    whole { () throws(WorkspaceError) in try ImportAnalysis.requireUniqueIDs(ws.checkpoints, "workspace.checkpoints") }
    whole { () throws(WorkspaceError) in
      try ImportAnalysis.requireKept(ws.digests.count, Limits.digestsKept, "workspace.digests", "digests")
    }
    whole { () throws(WorkspaceError) in
      try ImportAnalysis.requireKept(ws.messages.count, Limits.messagesKept, "workspace.messages", "messages")
    }
    whole { () throws(WorkspaceError) in
      try ImportAnalysis.requireKept(ws.receipts.count, Limits.receiptsKept, "workspace.receipts", "receipts")
    }
    whole { () throws(WorkspaceError) in
      try ImportAnalysis.requireKept(ws.checkpoints.count, Limits.checkpointsKept, "workspace.checkpoints", "checkpoints")
    }
    // What only the planning import finds (a reference, a capacity): shown once nothing above is.
    return out.isEmpty ? [trial] : out
  }

  /// The warning for whoever writes `document` to a file when an import would refuse records of
  /// it (``importRefusals(of:)``): which records and fields (the first 10, and how many more), that
  /// the export keeps them as stored, and that `dolphin doctor` gives the fixes; nil when there
  /// are none.
  public static func importRefusalWarning(_ refusals: [ImportRefusal]) -> String? {
    guard !refusals.isEmpty else { return nil }
    let shown = refusals.prefix(10).map { r in
      (r.field.isEmpty ? r.recordPath : "\(r.recordPath).\(r.field)") + (r.id.map { " (id \($0.uuidString))" } ?? "")
        + ": " + r.problem
    }
    let more = refusals.count > 10 ? "; and \(refusals.count - 10) more" : ""
    return "\(refusals.count) record(s) break a rule of `dolphin import`: " + shown.joined(separator: "; ") + more
      + ". Where they come from: \(ImportRefusal.howStored(refusals)). The export keeps them as stored, but importing "
      + "the file into an empty workspace is refused. To keep those records, run `\(command: "dolphin doctor")` on this workspace: "
      + "it names each with a fix; then export again"
  }

  // MARK: Building entries

  /// The planning import's refusal of `document` into an empty workspace, or nil when it plans.
  /// Values ``WorkspaceExport/refusedTextFields`` names are not refused here (they are reported
  /// on their own), nor a `supersedes` cycle.
  private static func trialRefusal(_ document: WorkspaceExport, refusedText: [RefusedTextField], now: Date)
    -> ImportRefusal?
  {
    let source = "export"
    let store = SQLiteWorkspaceStore.inMemory()
    defer { store.closeConnection() }
    do {
      // Credentials are flagged, never refused: the trial does not look for them.
      var prepared = try PreparedImport(
        document, source: source, now: now, refusedText: refusedText, flaggingCredentials: false)
      prepared.refusedText = []
      _ = try store.read { tx in try ImportAnalysis(prepared, policy: .refuse, tx) }
      return nil
    } catch WorkspaceError.validation(let e) {
      var message = e.message
      if message.hasPrefix(source + ": ") { message.removeFirst(source.count + 2) }
      if message.hasSuffix(". Nothing was imported") { message.removeLast(". Nothing was imported".count) }
      if e.field.contains(".relationships["), !document.supersedeCycles.isEmpty { return nil }
      return documentRefusal(e.field, message, document)
    } catch {
      return ImportRefusal(
        collection: "workspace", table: "workspace", id: nil, recordPath: "workspace", field: "", rule: .document,
        problem: "\(error)", fix: "delete records until the workspace is within the limit named")
    }
  }

  /// An entry for a refusal over the whole document whose JSON path is `path`
  /// (`workspace.knowledge[3].id`); `message` starts with the record's label, which is kept.
  private static func documentRefusal(_ path: String, _ message: String, _ document: WorkspaceExport) -> ImportRefusal {
    let (collection, index, field) = locate(path)
    let id = index.flatMap { recordID(collection, $0, document) }
    let recordPath = index.map { "workspace.\(collection)[\($0)]" } ?? "workspace.\(collection)"
    if collection == "settings" {
      return refusal(collection, nil, recordPath, field, message, limit: nil, document)
    }
    return ImportRefusal(
      collection: collection, table: table(collection), id: id,
      recordPath: recordPath, field: field, rule: .document, problem: message,
      fix: field == "id"
        ? "give one of the two records another id (ids are compared whatever their letter case), then export again"
        : index == nil
          ? "remove the oldest \(collection) beyond what a workspace keeps (dolphin's own writes prune them so), then "
            + "export again"
          : "correct or remove the reference in the workspace (`\(command: "dolphin doctor")` lists the references it finds under "
            + "References, with the ids involved), then export again")
  }

  /// `workspace.knowledge[3].relationships[0]` as (`knowledge`, 3, `relationships[0]`).
  private static func locate(_ path: String) -> (collection: String, index: Int?, field: String) {
    var rest = Substring(path)
    if rest.hasPrefix("workspace.") { rest = rest.dropFirst("workspace.".count) }
    let name = rest.prefix { $0 != "[" && $0 != "." }
    rest = rest.dropFirst(name.count)
    var index: Int?
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
      index = Int(rest[rest.index(after: rest.startIndex)..<close])
      rest = rest[rest.index(after: close)...]
    }
    if rest.hasPrefix(".") { rest = rest.dropFirst() }
    return (String(name), index, String(rest))
  }

  private static func recordID(_ collection: String, _ i: Int, _ document: WorkspaceExport) -> UUID? {
    let ws = document.workspace
    func at<T: Identifiable>(_ items: [T]) -> UUID? where T.ID == UUID { items.indices.contains(i) ? items[i].id : nil }
    switch collection {
    case "knowledge": return at(ws.knowledge)
    case "memories": return at(ws.memories)
    case "tasks": return at(ws.tasks)
    case "handoffs": return at(ws.handoffs)
    case "digests": return at(ws.digests)
    case "conversations": return at(ws.conversations)
    case "messages": return at(ws.messages)
    case "receipts": return at(ws.receipts)
    case "checkpoints": return at(ws.checkpoints)
    default: return nil
    }
  }

  /// The table that stores a collection's records.
  private static func table(_ collection: String) -> String {
    switch collection {
    case "memories": "memory"
    case "tasks": "task"
    case "handoffs": "handoff"
    case "digests": "digest"
    case "conversations": "conversation"
    case "messages": "message"
    case "receipts": "receipt"
    case "checkpoints": "checkpoint"
    default: collection
    }
  }

  /// The fields that are lists, bounded by their count.
  private static let listFields: Set<String> = ["tags", "relationships", "knowledgeIDs", "taskIDs", "nextSteps", "recentExcerpts"]

  /// An entry for a record's refusal, with its rule and a fix that keeps the record.
  private static func refusal(
    _ collection: String, _ id: UUID?, _ recordPath: String, _ field: String, _ problem: String, limit: Int?,
    _ document: WorkspaceExport
  ) -> ImportRefusal {
    let table = table(collection)
    let row = id.map { " WHERE id = '\($0.uuidString)' COLLATE NOCASE" } ?? ""
    var entry = ImportRefusal(
      collection: collection, table: table, id: id, recordPath: recordPath, field: field, rule: .document,
      problem: problem, fix: "correct the \(field.isEmpty ? "record" : field) in the workspace, then export again",
      fixStatement: nil)
    func set(_ rule: ImportRefusal.Rule, _ fix: String, _ statement: String?) {
      entry.rule = rule
      entry.fix = fix
      entry.fixStatement = statement
    }
    let emptyPlaceholder = ["title": "(untitled)", "text": "(empty)", "focus": "(no focus)"]
    switch (collection, field) {
    case ("knowledge", "updatedAt"):
      set(.dateOrder, "date its last change at its creation (updatedAt = createdAt)", "UPDATE knowledge SET updated_at = created_at" + row)
    case ("tasks", "updatedAt") where !problem.contains("in the future"):
      // Its completion, or its creation when it has none: the latest change a task records
      // otherwise, and what schema step 0009 gave every stored task.
      set(
        .dateOrder, "date its last change at its completion, or at its creation when it has none (updatedAt = completedAt ?? createdAt)",
        "UPDATE task SET updated_at = max(created_at, coalesce(completed_at, created_at))" + row)
    case ("tasks", "completedAt") where !problem.contains("in the future"):
      set(
        .taskCompletion,
        "make completedAt agree with the status: none for an open task; for a completed one, no earlier than createdAt "
          + "(its createdAt when it has none)",
        "UPDATE task SET completed_at = CASE WHEN status = 'open' THEN NULL "
          + "ELSE max(coalesce(completed_at, created_at), created_at) END" + row)
    case ("checkpoints", "step"):
      set(.checkpointStep, "number the step from 0 (set it to 0)", "UPDATE checkpoint SET step = max(step, 0)" + row)
    case ("checkpoints", "state"):
      // No state is right for every record: `finished` says the run ended, which it has.
      set(
        .checkpointState, "set its state to one of " + RunCheckpoint.states.joined(separator: ", "),
        "UPDATE checkpoint SET state = 'finished'" + row)
    case ("receipts", "changedIDs"):
      set(
        .countBound, "keep the first \(Limits.receiptChangedIDs) ids in it",
        "UPDATE receipt SET changed_ids = (SELECT json_group_array(value) FROM (SELECT value FROM json_each(changed_ids) "
          + "LIMIT \(Limits.receiptChangedIDs)))" + row)
    case ("digests", let f) where f.hasPrefix("sections.") && !f.hasPrefix("sections.omitted."):
      // Lines beyond what the builder writes: derived text, so removing the digest loses nothing.
      set(
        f.hasSuffix(".text") ? .textBound : .countBound,
        "remove this digest (it is derived from the records; `\(command: "dolphin context --save")` stores a new one built by rules)",
        "DELETE FROM digest" + row)
    case ("digests", let f) where f.hasPrefix("sections.omitted."):
      set(
        .digestCount, "remove this digest (it is derived from the records; `\(command: "dolphin context --save")` stores a new one built by rules)",
        "DELETE FROM digest" + row)
    case ("handoffs", "createdAt"), ("handoffs", "restoredAt"):
      let column = field == "createdAt" ? "created_at" : "restored_at"
      set(
        .futureDate, "date it now instead of in the future",
        "UPDATE handoff SET \(column) = min(\(column), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))" + row)
    case ("knowledge", "createdAt"), ("knowledge", "updatedAt"), ("conversations", "createdAt"),
      ("conversations", "updatedAt"):
      // Review 20-a, #7. Both dates in one statement, so the last change stays no earlier than
      // the creation.
      let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
      set(
        .futureDate, "date it now instead of in the future (its creation and its last change)",
        "UPDATE \(table) SET created_at = min(created_at, \(now)), updated_at = min(updated_at, \(now))" + row)
    case ("tasks", "createdAt"), ("tasks", "updatedAt"):
      // All three dates in one statement, so the last change stays no earlier than the creation.
      let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
      set(
        .futureDate, "date it now instead of in the future (its creation, its completion and its last change)",
        "UPDATE task SET created_at = min(created_at, \(now)), completed_at = min(completed_at, \(now)), "
          + "updated_at = min(updated_at, \(now))" + row)
    case ("tasks", "completedAt") where problem.contains("in the future"):
      set(
        .futureDate, "date its completion now instead of in the future",
        "UPDATE task SET completed_at = min(completed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))" + row)
    case ("digests", "createdAt"), ("messages", "createdAt"), ("checkpoints", "createdAt"), ("memories", "createdAt"):
      // Review 19-d, #1: kept by date, so one dated ahead pushed out the workspace's own.
      set(
        .futureDate, "date it now instead of in the future",
        "UPDATE \(table) SET created_at = min(created_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))" + row)
    case ("receipts", "startedAt"), ("receipts", "finishedAt"):
      // Both dates in one statement: a receipt dated ahead usually has both ahead.
      let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
      set(
        .futureDate, "date it now instead of in the future (its start and its end)",
        "UPDATE receipt SET started_at = min(started_at, \(now)), finished_at = min(finished_at, \(now))" + row)
    case ("knowledge", "revision"):
      set(
        .revision, "bring its revision within 1…\(Limits.revision)",
        "UPDATE knowledge SET revision = max(1, min(revision, \(Limits.revision)))" + row)
    case ("knowledge", "relationships") where limit == nil:
      let own = id.map { "'\($0.uuidString)' COLLATE NOCASE" } ?? "''"
      set(
        .selfRelationship, "remove its relationship to itself (it relates nothing); its other relationships stay",
        "DELETE FROM knowledge_relationship WHERE source_id = \(own) AND target_id = \(own)")
    case ("receipts", "arguments") where limit != nil:
      // Kept as the runtime keeps a long call's arguments: JSON, with its length and a prefix.
      let prefix = Limits.receiptArguments / 8
      set(
        .textBound,
        "keep its first \(prefix) characters inside an object, as dolphin records long arguments "
          + "({\"truncated\":true,\"characters\":n,\"prefix\":\"…\"})",
        "UPDATE receipt SET arguments = json_object('truncated', json('true'), 'characters', length(arguments), "
          + "'prefix', substr(arguments, 1, \(prefix)))" + row)
    case ("receipts", "arguments"):
      set(
        .receiptArguments,
        "keep the text as a JSON string inside an object, as dolphin records arguments that are not an object "
          + "({\"notAnObject\":true,\"value\":\"…\"})",
        "UPDATE receipt SET arguments = json_object('notAnObject', json('true'), 'value', arguments)" + row)
    case ("digests", "algorithm"), ("digests", "algorithmVersion"):
      // A digest is derived from the records: none is lost by removing one that claims another
      // origin; `dolphin context --save` builds a new one by rules.
      set(
        .digestLabel, "remove this digest (it is derived from the records; `\(command: "dolphin context --save")` stores a new one built by rules)",
        "DELETE FROM digest" + row)
    case ("settings", "knowledgeItemLimit"):
      let value = min(Limits.knowledgeItemsMaximum, max(document.workspace.knowledge.count, Limits.knowledgeItemsDefault))
      set(
        .setting,
        "set knowledgeItemLimit to \(value): within 1…\(Limits.knowledgeItemsMaximum) and no lower than the "
          + "\(document.workspace.knowledge.count) knowledge item(s) the workspace holds",
        "UPDATE meta SET value = json_set(value, '$.knowledgeItemLimit', \(value)) WHERE key = 'settings'")
    case (_, let f) where listFields.contains(f) && limit != nil:
      set(
        .countBound,
        "keep at most \(limit ?? 0) \(f) in it (`dolphin \(collection == "handoffs" ? "handoff" : "knowledge") get` shows "
          + "them; store the others in a new record), then export again", nil)
    case ("settings", "assistantName") where limit == nil:
      set(
        .emptyText, "give the assistant a name that shows something (the default is \(Settings.default.assistantName))",
        "UPDATE meta SET value = json_set(value, '$.assistantName', '\(Settings.default.assistantName)') WHERE key = 'settings'")
    case (_, let f) where limit == nil && emptyPlaceholder[f] != nil:
      let column = f
      let placeholder = emptyPlaceholder[f] ?? ""
      set(
        .emptyText, "give it a \(f) that shows something (the record's other fields are kept)",
        "UPDATE \(table) SET \(column) = '\(placeholder)'" + row)
    case (_, let f) where limit != nil:
      // Conversation titles, messages and the assistant's name have no command that edits them.
      let column: String? =
        switch (collection, f) {
        case ("conversations", "title"): "title"
        case ("messages", "text"): "text"
        case ("receipts", "message"): "message"
        case ("receipts", "tool"): "tool"
        case ("receipts", "callID"): "call_id"
        case ("checkpoints", "note"): "note"
        default: nil
        }
      if let column, let limit {
        set(
          .textBound,
          "shorten it to \(limit) characters (the statement keeps the first \(limit); copy the rest from this export "
            + "first if it matters)",
          "UPDATE \(table) SET \(column) = substr(\(column), 1, \(limit))" + row)
      } else if collection == "settings", let limit {
        set(
          .textBound, "shorten the assistant's name to \(limit) characters",
          "UPDATE meta SET value = json_set(value, '$.assistantName', substr(json_extract(value, '$.assistantName'), 1, "
            + "\(limit))) WHERE key = 'settings'")
      } else {
        // A knowledge item is edited in place (it keeps its id and relationships); the others
        // have no edit (review 19-b, F13: the advice was to delete and re-add a knowledge item too).
        let type = ["knowledge": "knowledge", "memories": "memory", "tasks": "task", "handoffs": "handoff"][collection]
        set(
          .textBound,
          type.map { storedTextFix(recordType: $0, id: id?.uuidString ?? "<id>", field: f) }
            ?? "store its text within the bound: delete the record and store it again within the bound (`dolphin "
            + "doctor` lists it under Text bounds)", nil)
      }
    default:
      break
    }
    return entry
  }
}
