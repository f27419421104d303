import ContinuityKit
import Foundation

/// An export's records checked and sanitized as an import stores them, with their credential
/// flags: the part of an import that needs no workspace, done once and outside any transaction
/// (for 20,000 knowledge items it is about 2.5 s of a release build, which used to run under the
/// write lock).
struct PreparedImport: Sendable {
  /// The file the document came from (for messages).
  let source: String
  /// The document's workspace: text of knowledge, memories, tasks and handoffs sanitized and
  /// tags normalized as at capture, receipts normalized; every record validated.
  let workspace: AssistantWorkspace
  /// The document's quarantined records, verbatim, then its records that its export could not
  /// decode (``WorkspaceExport/unreadable``), each kept aside as a quarantine entry
  /// (``WorkspaceExport/UnreadableRecord/quarantineEntry(sourceFile:index:exportedAt:generator:)``):
  /// never imported as records, never dropped (review 29-a, 8).
  let quarantine: [WorkspaceTransaction.QuarantineEntry]
  /// How many entries of ``quarantine`` come from the document's `unreadable` section (the last ones).
  let unreadableKeptAside: Int
  /// The records whose text looks like a credential (imported all the same, and flagged).
  let credentials: CredentialFlagReport
  /// Per handoff of the file, how many of its next steps showed nothing and were dropped
  /// (only handoffs that had any).
  let droppedNextSteps: [UUID: Int]
  /// Per collection (`knowledge`, `tasks`, `handoffs`) and record of the file, how many repeated
  /// entries its reference lists held that are kept once (``PreparedImport/checkedRecords(_:deferringTagsOf:now:)``);
  /// only records that had any.
  let droppedRepeats: [String: [UUID: Int]]
  /// The values no dolphin command stores — text holding a NUL, a tag holding a control
  /// character (``WorkspaceExport/refusedTextFields``) — refused by ``ImportAnalysis`` only on a
  /// record the import writes. (``KnowledgeEngine/importRefusals(of:)`` empties it for its
  /// trial, whose report leaves those values to ``WorkspaceExport/refusedTextFields``.)
  var refusedText: [RefusedTextField]

  /// Checks and sanitizes `document`'s records: text bounds on the text as given, everything
  /// else once sanitized; NULs and tag characters are found here and refused later, on the
  /// records the import writes.
  /// - Parameters:
  ///   - now: the import's clock, against which a record dated in the future is refused
  ///     (``requireNoFutureDates(_:now:)``).
  ///   - refusedText: `document`'s ``WorkspaceExport/refusedTextFields`` when the caller has
  ///     them already; nil finds them.
  ///   - flaggingCredentials: whether to scan the records for credential-looking text
  ///     (``credentials``); a check that only asks whether the import is refused skips it
  ///     (credentials are flagged, never refused), and gets an empty report.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the record (`workspace.tasks[2]`) and
  ///   field, worded as a refusal of `source`.
  init(
    _ document: WorkspaceExport, source: String, now: Date, refusedText: [RefusedTextField]? = nil,
    flaggingCredentials: Bool = true
  ) throws(WorkspaceError) {
    self.source = source
    self.refusedText = refusedText ?? document.refusedTextFields
    let refusedTags = Set(self.refusedText.filter { $0.field.hasPrefix("tags[") }.compactMap(\.id))
    let keptAside = document.unreadableRecords.enumerated().map { i, record in
      record.quarantineEntry(
        sourceFile: source, index: i, exportedAt: document.exportedAt, generator: document.generator)
    }
    do {
      try Self.checkHeaderAndQuarantine(document, unreadable: keptAside)
      (workspace, droppedNextSteps, droppedRepeats) = try Self.checkedRecords(
        document.workspace, deferringTagsOf: refusedTags, now: now)
    } catch {
      throw ImportAnalysis.refusal(error, source: source)
    }
    quarantine = document.quarantine + keptAside
    unreadableKeptAside = keptAside.count
    credentials =
      flaggingCredentials ? ImportAnalysis.credentialFlags(workspace) : CredentialFlagReport()
  }

  /// `ws`'s records checked and made as an import stores them: text bounds on the text as given,
  /// then text sanitized, blank next steps dropped, repeated ids and relationships kept once and
  /// receipts normalized, then every record validated
  /// (``ImportAnalysis/validateRecords(_:deferringTagsOf:)``), so a list's bound counts its
  /// distinct entries. What an import checks with no workspace;
  /// ``KnowledgeEngine/importRefusals(of:)`` runs it record by record.
  /// - Parameters:
  ///   - deferringTagsOf: records whose tags hold characters refused later, if the record is
  ///     written (``WorkspaceExport/refusedTextFields``).
  ///   - now: the clock records' dates are checked against (``requireNoFutureDates(_:now:)``).
  /// - Returns: the records as stored; per handoff how many blank next steps were dropped; per
  ///   collection and record how many repeated entries of its reference lists (a task's
  ///   `knowledgeIDs`, a handoff's `knowledgeIDs` and `taskIDs`, a knowledge item's
  ///   `relationships`) were dropped.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the record (`workspace.tasks[2]`) and field.
  static func checkedRecords(_ given: AssistantWorkspace, deferringTagsOf refusedTags: Set<UUID>, now: Date)
    throws(WorkspaceError) -> (
      workspace: AssistantWorkspace, droppedNextSteps: [UUID: Int], droppedRepeats: [String: [UUID: Int]]
    )
  {
    try requireNoFutureDates(given, now: now)
    // NULs and tags are checked as given: the sanitizer would drop those characters silently.
    // Which records are refused for them waits for the workspace: one stored as the file has
    // it is not written. Text bounds are checked as given too, as capture checks them:
    // sanitizing can shorten text (NFC, invisible characters dropped), so the same text would
    // get another verdict afterwards.
    try ImportAnalysis.validateTextBoundsAsGiven(given)
    var ws = ImportAnalysis.sanitized(given)
    // A next step with nothing visible is one capture never stores, but earlier builds' imports
    // could: it is dropped rather than refused, so that such a workspace's export stays
    // importable (Docs/ExportFormat.md).
    var dropped: [UUID: Int] = [:]
    for i in ws.handoffs.indices {
      let visible = ImportAnalysis.visibleNextSteps(ws.handoffs[i].nextSteps)
      if visible.count < ws.handoffs[i].nextSteps.count {
        dropped[ws.handoffs[i].id] = ws.handoffs[i].nextSteps.count - visible.count
      }
      ws.handoffs[i].nextSteps = visible
    }
    // Receipts as this build writes them: an earlier build's or a legacy file's could hold
    // non-object arguments or end before they start (``ActivityReceipt/normalized()``). Only
    // an import does this; the legacy migration keeps activity as the file has it.
    ws.receipts = ws.receipts.map { $0.normalized() }
    // An id listed twice in a task's or handoff's list is kept once, at its first place, as
    // `task add`, `handoff create` and the MCP tools keep it, and the list's bound counts distinct
    // ids (review 26-a, #4: an import stored the repeats, and counted them against the bound).
    // Relationships are kept once by `sanitized` (review 20-a, #11); both are counted for the plan.
    var repeats: [String: [UUID: Int]] = [:]
    for i in ws.knowledge.indices where ws.knowledge[i].relationships.count < given.knowledge[i].relationships.count {
      repeats["knowledge", default: [:]][ws.knowledge[i].id] =
        given.knowledge[i].relationships.count - ws.knowledge[i].relationships.count
    }
    for i in ws.tasks.indices {
      let ids = KnowledgeEngine.unique(ws.tasks[i].knowledgeIDs)
      if ids.count < ws.tasks[i].knowledgeIDs.count {
        repeats["tasks", default: [:]][ws.tasks[i].id] = ws.tasks[i].knowledgeIDs.count - ids.count
        ws.tasks[i].knowledgeIDs = ids
      }
    }
    for i in ws.handoffs.indices {
      let knowledge = KnowledgeEngine.unique(ws.handoffs[i].knowledgeIDs)
      let tasks = KnowledgeEngine.unique(ws.handoffs[i].taskIDs)
      let n = ws.handoffs[i].knowledgeIDs.count - knowledge.count + ws.handoffs[i].taskIDs.count - tasks.count
      if n > 0 {
        repeats["handoffs", default: [:]][ws.handoffs[i].id] = n
        ws.handoffs[i].knowledgeIDs = knowledge
        ws.handoffs[i].taskIDs = tasks
      }
    }
    try ImportAnalysis.validateRecords(ws, deferringTagsOf: refusedTags)
    return (ws, dropped, repeats)
  }

  /// How far past the import's clock a record may be dated: a day, for clocks that disagree.
  static let futureTolerance: TimeInterval = 86_400

  /// Refuses a record dated more than ``futureTolerance`` after `now`: a handoff created or
  /// restored then (review 18-c, B9: such a handoff never counts later captures as "captured
  /// since" and never goes stale), and a digest, message, receipt or checkpoint dated then (review
  /// 19-d, #1: a workspace keeps the newest of those by date, so records dated in 2099 pushed out
  /// the workspace's own at the import and at every later write); a knowledge item, memory, task or
  /// conversation dated then (review 20-a, #7: one knowledge item dated 2099 made every handoff
  /// stale). No command dates one so.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the record and field
  ///   (`workspace.handoffs[i].createdAt`, `workspace.receipts[i].startedAt`, …), the date and the
  ///   clock.
  static func requireNoFutureDates(_ ws: AssistantWorkspace, now: Date) throws(WorkspaceError) {
    let latest = now.addingTimeInterval(futureTolerance)
    /// Throws for the first of `dates` after `latest`; `why` says what such a date breaks.
    func check(_ record: String, _ id: UUID, _ dates: [(String, Date?)], _ why: String) throws(WorkspaceError) {
      for (field, date) in dates {
        guard let date, date > latest else { continue }
        try ImportAnalysis.named(record, id) { () throws(ValidationError) in
          throw ValidationError(
            field: field,
            message: "\(field) is \(ISO8601.string(from: date)), in the future (this machine's clock says "
              + "\(ISO8601.string(from: now))); \(why)")
        }
      }
    }
    /// Why a kept collection's records may not be dated ahead.
    func kept(_ record: String, _ dated: String, _ plural: String, _ limit: Int) -> String {
      "\(record) is dated when \(dated), and a workspace keeps its newest \(limit) \(plural) by date, so one dated "
        + "ahead would push out the \(plural) written after it"
    }
    // Review 20-a, #7: an item dated ahead counts as captured after every handoff (each then
    // reads as stale until that date) and sorts first in every newest-first list; no clock set
    // right is a day behind a backup's, so nothing a user wrote is refused by it.
    let newest = "it would sort before everything written since, in every newest-first list, until that date"
    for (i, k) in ws.knowledge.enumerated() {
      try check(
        "workspace.knowledge[\(i)]", k.id, [("createdAt", k.createdAt), ("updatedAt", k.updatedAt)],
        "an item dated ahead counts as captured after every handoff (each would read as stale), and " + newest)
    }
    for (i, m) in ws.memories.enumerated() {
      try check("workspace.memories[\(i)]", m.id, [("createdAt", m.createdAt)], "a memory is dated when it is saved, and " + newest)
    }
    for (i, t) in ws.tasks.enumerated() {
      try check(
        "workspace.tasks[\(i)]", t.id,
        [("createdAt", t.createdAt), ("completedAt", t.completedAt), ("updatedAt", t.updatedAt)],
        "a task is dated when it is added, changed or completed, and " + newest)
    }
    for (i, c) in ws.conversations.enumerated() {
      try check(
        "workspace.conversations[\(i)]", c.id, [("createdAt", c.createdAt), ("updatedAt", c.updatedAt)],
        "a conversation is dated when it starts and when it is written to, and " + newest)
    }
    for (i, h) in ws.handoffs.enumerated() {
      try check(
        "workspace.handoffs[\(i)]", h.id, [("createdAt", h.createdAt), ("restoredAt", h.restoredAt)],
        "a handoff is dated when it is created or restored, so later captures would never count as captured since it")
    }
    for (i, d) in ws.digests.enumerated() {
      try check(
        "workspace.digests[\(i)]", d.id, [("createdAt", d.createdAt)],
        kept("a digest", "it is built", "digests", Limits.digestsKept))
    }
    for (i, m) in ws.messages.enumerated() {
      try check(
        "workspace.messages[\(i)]", m.id, [("createdAt", m.createdAt)],
        kept("a message", "it is written", "messages", Limits.messagesKept))
    }
    for (i, r) in ws.receipts.enumerated() {
      try check(
        "workspace.receipts[\(i)]", r.id, [("startedAt", r.startedAt), ("finishedAt", r.finishedAt)],
        kept("a receipt", "its call runs", "receipts", Limits.receiptsKept))
    }
    for (i, c) in ws.checkpoints.enumerated() {
      try check(
        "workspace.checkpoints[\(i)]", c.id, [("createdAt", c.createdAt)],
        kept("a checkpoint", "its run reaches it", "checkpoints", Limits.checkpointsKept))
    }
  }

  /// Bounds on what an export carries besides records (review 18-c, C7): the header's
  /// `generator` (``Limits/exportGenerator`` characters), and each quarantine entry's `reason`
  /// (``Limits/quarantineReason`` characters), `raw` (JSON text of at most
  /// ``Limits/quarantineRawBytes`` bytes, as the legacy importer keeps a record), `recordIndex`
  /// (-1 for the settings, else an index into a file of at most ``Limits/importDocumentBytes``),
  /// and `sourceFile` and `collection` (``Limits/title`` characters); and the same of the
  /// entries made of the document's unreadable records (`unreadable`), named by their place there
  /// (`unreadable[0]`).
  /// - Throws: ``WorkspaceError/validation(_:)`` whose field is the JSON path (`generator`,
  ///   `quarantine[2].raw`) and whose message names the field once, after its record as a
  ///   record's refusal does (`generator is 301 characters; …`, `quarantine[2]: raw is …`), with
  ///   the limit and what was given.
  static func checkHeaderAndQuarantine(
    _ document: WorkspaceExport, unreadable: [WorkspaceTransaction.QuarantineEntry] = []
  ) throws(WorkspaceError) {
    /// Runs `body`, whose error names `body`'s field; `record` is the quarantine entry's path,
    /// nil for a field of the header (the message names it alone: review 19-b, F14 — it read
    /// `generator: generator is 301 characters`).
    func check(_ record: String?, _ body: () throws(ValidationError) -> Void) throws(WorkspaceError) {
      do { try body() } catch {
        var e = error
        if let record {
          e.message = "\(record): \(e.message)"
          e.field = "\(record).\(e.field)"
        }
        throw .validation(e)
      }
    }
    try check(nil) { () throws(ValidationError) in
      try Limits.check("generator", document.generator, limit: Limits.exportGenerator)
    }
    let entries =
      document.quarantine.enumerated().map { ("quarantine[\($0)]", $1) }
      + unreadable.enumerated().map { ("unreadable[\($0)]", $1) }
    for (path, q) in entries {
      try check(path) { () throws(ValidationError) in
        try Limits.check("sourceFile", q.sourceFile, limit: Limits.title)
      }
      try check(path) { () throws(ValidationError) in
        try Limits.check("collection", q.collection, limit: Limits.title)
      }
      try check(path) { () throws(ValidationError) in
        try Limits.check("reason", q.reason, limit: Limits.quarantineReason)
      }
      try check(path) { () throws(ValidationError) in
        guard (-1...Limits.importDocumentBytes).contains(q.recordIndex) else {
          throw ValidationError(
            field: "recordIndex", limit: Limits.importDocumentBytes, actual: q.recordIndex,
            message: "recordIndex is \(q.recordIndex); it is -1 (the settings) or the record's place in its file, "
              + "0 to \(Limits.importDocumentBytes)")
        }
      }
      try check(path) { () throws(ValidationError) in
        let bytes = q.raw.utf8.count
        if bytes > Limits.quarantineRawBytes {
          throw ValidationError(
            field: "raw", limit: Limits.quarantineRawBytes, actual: bytes,
            message: "raw is \(bytes) UTF-8 bytes; the limit is \(Limits.quarantineRawBytes)")
        }
        do throws(JSONParseError) {
          // As deep as the legacy importer reads a file (256 levels), so a record it quarantined
          // for nesting that an import refuses elsewhere (receipt arguments deeper than 64: review
          // 20-a, #3) is still kept verbatim by an export and its restore.
          _ = try JSONParser(options: .init(maximumDepth: 256, maximumBytes: Limits.quarantineRawBytes)).parse(q.raw)
        } catch {
          throw ValidationError(
            field: "raw",
            message: "raw \(Limits.quoted(q.raw, cutAt: 60)) is not JSON text (\(error.description)); a quarantined "
              + "record is kept as its JSON text, verbatim")
        }
      }
    }
  }
}
