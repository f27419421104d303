import Foundation

extension KnowledgeEngine {
  /// The whole workspace as one export document, read in one consistent snapshot: every
  /// record, the settings, the active handoff and the quarantine.
  /// - Parameter generator: what to record as the writer, e.g. `dolphin 0.1.0`.
  /// - Throws: storage errors.
  public func exportWorkspace(generator: String) throws -> WorkspaceExport {
    let now = environment.now()
    return try store.read { tx in
      WorkspaceExport(
        exportedAt: now, generator: generator, workspace: try tx.snapshot(), quarantine: try tx.listQuarantine())
    }
  }
}
