import Foundation

extension KnowledgeEngine {
  /// How the workspace database's schema objects differ from those its applied schema steps
  /// create: tables and indexes dropped outside dolphin, triggers, views, tables and indexes
  /// added outside dolphin (``WorkspaceTransaction/schemaDifference()``). Reads only.
  /// `dolphin doctor` and `dolphin status` report it.
  /// - Returns: the difference (empty when none); nil for a newer dolphin's schema, which this
  ///   build cannot judge.
  /// - Throws: storage errors.
  public func schemaDifference() throws -> SchemaDifference? {
    try store.read { tx in try tx.schemaDifference() }
  }
}
