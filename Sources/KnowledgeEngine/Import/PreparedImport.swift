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
  /// The document's quarantined records, verbatim.
  let quarantine: [WorkspaceTransaction.QuarantineEntry]
  /// The records whose text looks like a credential (imported all the same, and flagged).
  let credentials: CredentialFlagReport
  /// Per handoff of the file, how many of its next steps showed nothing and were dropped
  /// (only handoffs that had any).
  let droppedNextSteps: [UUID: Int]
  /// The values no dolphin command stores — text holding a NUL, a tag holding a control
  /// character (``WorkspaceExport/refusedTextFields``) — refused by ``ImportAnalysis`` only on a
  /// record the import writes. (``KnowledgeEngine/importRefusals(of:)`` empties it for its
  /// trial, whose report leaves those values to ``WorkspaceExport/refusedTextFields``.)
  var refusedText: [RefusedTextField]

  /// Checks and sanitizes `document`'s records: text bounds on the text as given, everything
  /// else once sanitized; NULs and tag characters are found here and refused later, on the
  /// records the import writes.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the record (`workspace.tasks[2]`) and
  ///   field, worded as a refusal of `source`.
  init(_ document: WorkspaceExport, source: String) throws(WorkspaceError) {
    self.source = source
    refusedText = document.refusedTextFields
    let refusedTags = Set(refusedText.filter { $0.field.hasPrefix("tags[") }.compactMap(\.id))
    do {
      (workspace, droppedNextSteps) = try Self.checkedRecords(document.workspace, deferringTagsOf: refusedTags)
    } catch {
      throw ImportAnalysis.refusal(error, source: source)
    }
    quarantine = document.quarantine
    credentials = ImportAnalysis.credentialFlags(workspace)
  }

  /// `ws`'s records checked and made as an import stores them: text bounds on the text as given,
  /// then text sanitized, blank next steps dropped and receipts normalized, then every record
  /// validated (``ImportAnalysis/validateRecords(_:deferringTagsOf:)``). What an import checks
  /// with no workspace; ``KnowledgeEngine/importRefusals(of:)`` runs it record by record.
  /// - Parameter deferringTagsOf: records whose tags hold characters refused later, if the record
  ///   is written (``WorkspaceExport/refusedTextFields``).
  /// - Returns: the records as stored, and per handoff how many blank next steps were dropped.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the record (`workspace.tasks[2]`) and field.
  static func checkedRecords(_ given: AssistantWorkspace, deferringTagsOf refusedTags: Set<UUID>)
    throws(WorkspaceError) -> (workspace: AssistantWorkspace, droppedNextSteps: [UUID: Int])
  {
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
    try ImportAnalysis.validateRecords(ws, deferringTagsOf: refusedTags)
    return (ws, dropped)
  }
}
