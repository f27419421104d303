import Foundation

extension KnowledgeEngine {
  /// Computes the rule-based digest of the workspace without storing it (what the agent tool
  /// `project_context` returns).
  /// - Returns: the sections with their evidence ids; no id, no time.
  /// - Throws: ``WorkspaceError`` from the store.
  /// - Complexity: a bounded number of `ORDER BY … LIMIT` queries (see ``DigestBuilder``).
  public func projectContext() throws -> ProjectContext {
    try store.read { tx in ProjectContext(sections: try DigestBuilder.sections(tx)) }
  }

  /// Computes and stores a digest with trigger `manual` (`dolphin context --save`), pruning the
  /// oldest beyond ``Limits/digestsKept``, in one transaction.
  /// - Returns: the stored digest.
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)`` on a read-only store; storage errors.
  public func saveDigest() throws -> Digest {
    try store.write { tx in
      let d = try DigestBuilder.build(tx, id: environment.makeID(), now: environment.now(), trigger: .manual)
      try tx.insertDigest(d)
      return d
    }
  }

  /// Stored digests, newest first.
  public func listDigests() throws -> [Digest] {
    try store.read { tx in try tx.listDigests() }
  }
}
