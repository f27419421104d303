import ContinuityKit
import Foundation

extension KnowledgeEngine {
  /// Whether the handoff a brief restored is stale (``HandoffStaleness``), now, by the engine's
  /// clock: the brief's ``HandoffBrief/capturedSinceTotal`` is what was captured after it,
  /// ``HandoffBrief/editedSince`` what it carries that was edited after it, and the newest
  /// handoff is read to name the one to restore instead.
  /// - Parameter brief: what ``restoreHandoff(id:)`` returned.
  /// - Returns: nil when it is not stale.
  /// - Throws: storage errors.
  public func staleness(of brief: HandoffBrief) throws -> HandoffStaleness? {
    let newest = try store.read { tx in try tx.listHandoffs(limit: 1).first }
    return HandoffStaleness.evaluate(
      brief.handoff, capturedAfter: brief.capturedSinceTotal, editedAfter: brief.editedSince, newest: newest, now: environment.now())
  }
}
