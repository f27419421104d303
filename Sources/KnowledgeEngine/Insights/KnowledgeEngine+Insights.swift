import Foundation

extension KnowledgeEngine {
  /// Evaluates every insight rule (see ``InsightRule``) now, in the caller's thread: no
  /// background work, nothing stored (what the agent tool `continuity_insights` returns).
  ///
  /// Time enters only through the stale-handoff rule's age test, which uses the engine's clock.
  /// - Parameter minimumPriority: keep only insights at or above this priority (default `low`:
  ///   all).
  /// - Returns: at most ``Limits/insights`` (25) insights in a stable order, with the total.
  /// - Throws: ``WorkspaceError`` from the store.
  /// - Complexity: one pass over a light projection of the knowledge table, one over the
  ///   relationships, one read of the open tasks (plus two bounded task queries), two trigram
  ///   joins over the knowledge titles whose candidates come from trigram postings (see
  ///   ``InsightThresholds``) and one over the open tasks' titles.
  public func insights(minimumPriority: Priority = .low) throws -> InsightReport {
    let now = environment.now()
    return try store.read { tx in try InsightRules.evaluate(tx, now: now, minimumPriority: minimumPriority) }
  }
}
