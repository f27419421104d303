import ContinuityKit
import Foundation

extension KnowledgeEngine {
  /// Whether the handoff a brief restored is stale (``HandoffStaleness``), now, by the engine's
  /// clock: the brief's ``HandoffBrief/capturedSinceTotal`` is what was captured after it,
  /// ``HandoffBrief/editedSince`` what it carries that was edited after it, and the newest
  /// handoff is read to name the one to restore instead, when that one is not stale itself
  /// (``freshNewerHandoff(than:now:thresholds:_:)``).
  /// - Parameter brief: what ``restoreHandoff(id:)`` returned.
  /// - Returns: nil when it is not stale.
  /// - Throws: storage errors.
  public func staleness(of brief: HandoffBrief) throws -> HandoffStaleness? {
    let now = environment.now()
    let newer = try store.read { tx in try Self.freshNewerHandoff(than: brief.handoff, now: now, tx) }
    return HandoffStaleness.evaluate(
      brief.handoff, capturedAfter: brief.capturedSinceTotal, editedAfter: brief.editedSince, newest: newer, now: now)
  }

  /// The newest handoff, when it was made at or after `h` (and is not `h`) and is not stale
  /// itself by the same test (``HandoffStaleness/evaluate(_:capturedAfter:editedAfter:newest:now:thresholds:)``);
  /// otherwise nil. The stale-handoff advice restores only such a handoff (review 31-a, 6: it
  /// sent the reader to a newer handoff that was stale too, and two handoffs made at the same
  /// moment to each other); without one it advises creating a handoff marked active.
  /// - Complexity: one handoff read, one count of the knowledge captured after the newest, and
  ///   one lookup per knowledge item it carries.
  /// - Throws: storage errors.
  static func freshNewerHandoff(
    than h: Handoff, now: Date, thresholds: InsightThresholds = .v1, _ tx: WorkspaceTransaction
  ) throws -> Handoff? {
    guard let newest = try tx.listHandoffs(limit: 1).first, newest.id != h.id, newest.createdAt >= h.createdAt else {
      return nil
    }
    let captured = try tx.knowledgeCreated(after: newest.createdAt, limit: 0).total
    let edited = try tx.knowledgeRevisions(editedAfter: newest.createdAt, among: newest.knowledgeIDs).count
    let stale = HandoffStaleness.evaluate(
      newest, capturedAfter: captured, editedAfter: edited, newest: nil, now: now, thresholds: thresholds)
    return stale == nil ? newest : nil
  }
}
