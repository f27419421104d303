import ContinuityKit
import Foundation

/// Which handoffs ``KnowledgeEngine/planHandoffPruning(_:)`` selects. The active handoff is
/// never selected.
public enum HandoffPruning: Sendable, Equatable {
  /// Every handoff but the newest `n` by creation (ties as ``KnowledgeEngine/listHandoffs(limit:)``
  /// orders them) and the active one. `n` is 0…``Limits/handoffs``.
  case keepNewest(Int)
  /// Every handoff created strictly before the date, but the active one.
  case inactiveOlderThan(Date)
}

extension KnowledgeEngine {
  /// The oldest handoffs ``planHandoffPruning(_:)`` would offer, that a full workspace's error
  /// names (``handoffCapacityError(held:_:)``), at most.
  public static let namedOldestInactiveHandoffs = 5

  /// Plans the deletion of the handoffs `rule` selects: one ``DeletionPlan`` per handoff (the
  /// digests each removes, as ``planDeletion(of:)`` plans it, and the digests the workspace
  /// holds, ``DeletionPlan/storedDigestCount``), oldest first. Nothing is changed.
  /// - Returns: the plans; empty when the rule selects none.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming `keepNewest` for a count outside
  ///   0…``Limits/handoffs``; storage errors.
  public func planHandoffPruning(_ rule: HandoffPruning) throws -> [DeletionPlan] {
    if case .keepNewest(let n) = rule, !(0...Limits.handoffs).contains(n) {
      throw WorkspaceError.validation(
        ValidationError(
          field: "keepNewest", limit: Limits.handoffs, actual: n,
          message: "keepNewest is \(n); it must be between 0 and \(Limits.handoffs)"))
    }
    return try store.read { tx in
      let stored = try tx.digestCount()
      return try Self.prunedHandoffs(rule, tx).map {
        var plan = try Self.plan(.handoff($0.id), tx)
        plan.storedDigestCount = stored
        return plan
      }
    }
  }

  /// The handoffs `rule` selects, oldest first, never the active one.
  static func prunedHandoffs(_ rule: HandoffPruning, _ tx: WorkspaceTransaction) throws -> [Handoff] {
    let newestFirst = try tx.listHandoffs()
    let active = try tx.activeHandoffID()
    let selected: [Handoff]
    switch rule {
    case .keepNewest(let n): selected = Array(newestFirst.dropFirst(n))
    case .inactiveOlderThan(let date): selected = newestFirst.filter { $0.createdAt < date }
    }
    return selected.filter { $0.id != active }.reversed()
  }

  /// Applies the handoff deletion plans `plans` (from ``planHandoffPruning(_:)``) in one
  /// transaction, then checkpoints the WAL so deleted text does not linger on disk.
  ///
  /// Every plan is made again inside the transaction before anything is deleted; when any
  /// differs from the one shown (a handoff gone, made active, or a digest added that cites
  /// it), nothing is deleted.
  /// - Returns: one report per plan, in the plans' order.
  /// - Throws: ``WorkspaceError/validation(_:)`` for a plan that is not a handoff's;
  ///   ``WorkspaceError/notFound(recordType:id:)`` when a handoff is gone;
  ///   ``WorkspaceError/concurrentChange(operation:)`` when the workspace changed since the
  ///   plans were made; storage errors.
  public func applyHandoffPruning(_ plans: [DeletionPlan]) throws -> [DeletionReport] {
    if let other = plans.first(where: { $0.target != .handoff }) {
      throw WorkspaceError.validation(
        ValidationError(
          field: "plans", message: "plan for \(other.target.rawValue) \(other.targetID.uuidString) is not a handoff's"))
    }
    guard !plans.isEmpty else { return [] }
    let reports = try store.write { tx -> [DeletionReport] in
      for plan in plans {
        guard try Self.plan(.handoff(plan.targetID), tx).changesOnly == plan.changesOnly else {
          throw WorkspaceError.concurrentChange(operation: "deletion")
        }
      }
      let now = environment.now()
      var reports: [DeletionReport] = []
      for plan in plans { reports.append(DeletionReport(plan: plan, removedIDs: try Self.execute(plan, tx, now: now))) }
      try tx.pruneUnusedLexicalTerms()
      return reports
    }
    if let s = store as? SQLiteWorkspaceStore { try? s.checkpoint() }
    return reports
  }

  /// The error of a handoff creation refused at ``Limits/handoffs``: the capacity message,
  /// then the oldest inactive handoffs (at most ``namedOldestInactiveHandoffs``, id, date and
  /// focus) and the command that deletes the oldest in one go after showing its plan.
  ///
  /// A validation error (field `handoffs`, with the limit and the count a new one would make),
  /// since a ``WorkspaceError/capacity(what:limit:held:adding:)`` message cannot name records.
  static func handoffCapacityError(held: Int, _ tx: WorkspaceTransaction) throws -> WorkspaceError {
    let full = WorkspaceError.capacity(what: .handoffs, limit: Limits.handoffs, held: held, adding: 1).description
    let oldest = try prunedHandoffs(.keepNewest(0), tx)
    let named = oldest.prefix(namedOldestInactiveHandoffs).map {
      "\($0.id.uuidString) (\(ISO8601.string(from: $0.createdAt)), \(InsightRules.quote($0.focus)))"
    }
    let keep = max(0, Limits.handoffs - 50)
    let oldestText =
      named.isEmpty
      ? ""
      : " The oldest inactive: " + named.joined(separator: "; ")
        + (oldest.count > named.count ? "; and \(oldest.count - named.count) more" : "") + "."
    return .validation(
      ValidationError(
        field: CappedCollection.handoffs.field, limit: Limits.handoffs, actual: held + 1,
        message: full + "." + oldestText
          + " To delete the oldest inactive ones in one go (the plan is shown first; the active handoff is kept): "
          + "`\(command: "dolphin handoff delete --keep-newest \(keep)")` or `\(command: "dolphin handoff delete --inactive-older-than YYYY-MM-DD")`"))
  }
}
