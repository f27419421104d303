import ContinuityKit
import Foundation

/// Changes not stored yet that a rule-built handoff summary is to reflect: what a call is
/// about to do, so that its approval can say which summaries it will rewrite.
struct PendingSummaryChanges: Sendable {
  /// Items that another item will supersede (a capture's `supersedes` targets).
  var superseded: Set<UUID> = []
  /// Tasks whose status will change, with their new status.
  var taskStatus: [UUID: TaskStatus] = [:]
}

extension KnowledgeEngine {
  /// The handoffs whose rule-built summary a capture of `request` would rewrite: those that
  /// carry an item the capture supersedes (its summary then marks the item `(superseded)`),
  /// as stored now, in listing order (newest first). Empty when the request supersedes nothing,
  /// or only items already marked. Reads only; what the capture stores is what
  /// ``CaptureResult/rebuiltHandoffIDs`` then reports.
  ///
  /// Said before the user approves an agent's capture, beside the call itself (review 19-c,
  /// finding 3: the approval did not mention the handoff it rewrote).
  /// - Parameter request: the capture, as ``capture(_:)`` would take it.
  /// - Returns: the handoffs, as stored now.
  /// - Throws: storage errors.
  public func handoffSummariesRewritten(byCapturing request: CaptureRequest) throws -> [Handoff] {
    let targets = Set(request.relationships.filter { $0.kind == .supersedes }.map(\.targetID))
    return try store.read { tx in
      try Self.summaryRewrites(carryingAny: targets, assuming: PendingSummaryChanges(superseded: targets), tx).map(\.handoff)
    }
  }

  /// The handoffs whose rule-built summary setting task `id` to `status` would rewrite (it
  /// lists open and completed tasks apart), as stored now, in listing order (newest first).
  /// Empty when the task has that status already (nothing would be written), or is unknown.
  /// Reads only; what the change stores is what ``TaskStatusChange/rebuiltHandoffIDs`` then
  /// reports.
  /// - Parameters:
  ///   - id: the task.
  ///   - status: `completed` for a completion, `open` for a reopening.
  /// - Returns: the handoffs, as stored now.
  /// - Throws: storage errors.
  public func handoffSummariesRewritten(bySettingTask id: UUID, to status: TaskStatus) throws -> [Handoff] {
    try store.read { tx in
      guard let task = try tx.task(id: id), task.status != status else { return [] }
      return try Self.summaryRewrites(carryingAny: [id], assuming: PendingSummaryChanges(taskStatus: [id: status]), tx)
        .map(\.handoff)
    }
  }

  /// The handoffs with a rule-built summary that carry any of `ids` (knowledge or task ids) and
  /// whose summary, built again from the records they carry (with `assuming` applied), differs
  /// from the stored one: each with its new summary, in listing order.
  static func summaryRewrites(
    carryingAny ids: Set<UUID>, assuming: PendingSummaryChanges = .init(), _ tx: WorkspaceTransaction
  ) throws -> [(handoff: Handoff, summary: String)] {
    guard !ids.isEmpty else { return [] }
    var rewrites: [(handoff: Handoff, summary: String)] = []
    for h in try tx.listHandoffs() where isGeneratedSummary(h.summary) {
      guard h.knowledgeIDs.contains(where: ids.contains) || h.taskIDs.contains(where: ids.contains) else { continue }
      let rebuilt = try generatedSummary(knowledgeIDs: h.knowledgeIDs, taskIDs: h.taskIDs, tx, assuming: assuming)
      if rebuilt != h.summary { rewrites.append((h, rebuilt)) }
    }
    return rewrites
  }

  /// Rebuilds, from the records they carry now, the summaries built by rules of the handoffs
  /// that carry any of `ids` (knowledge or task ids); a summary written by hand is the user's
  /// text and is kept as written.
  ///
  /// Called wherever a change alters what such a summary says: a knowledge item's title or kind
  /// edited, a task completed or reopened, a `supersedes` relationship added or removed, a
  /// record deleted.
  /// - Returns: the ids of the handoffs whose summary changed, in listing order: records the
  ///   call changed, which its result (and an agent call's receipt) names.
  @discardableResult
  static func rebuildGeneratedSummaries(carryingAny ids: Set<UUID>, _ tx: WorkspaceTransaction) throws -> [UUID] {
    var changed: [UUID] = []
    for (h, summary) in try summaryRewrites(carryingAny: ids, tx) {
      var rebuilt = h
      rebuilt.summary = summary
      try tx.updateHandoff(rebuilt)
      changed.append(h.id)
    }
    return changed
  }
}
