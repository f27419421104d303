import Foundation

extension KnowledgeEngine {
  /// The whole workspace as one export document, read in one consistent snapshot: every
  /// record, the settings, the active handoff and the quarantine.
  ///
  /// A stored record that cannot be decoded (malformed JSON, an unknown name, an id or date that
  /// does not parse, written by another program) does not stop the export: it is carried as
  /// stored in ``WorkspaceExport/unreadable`` and left out of the records
  /// (``WorkspaceTransaction/salvagedSnapshot()``; review 29-a, 8).
  /// - Parameter generator: what to record as the writer, e.g. `dolphin 0.1.0`.
  /// - Throws: storage errors, a damaged database file.
  public func exportWorkspace(generator: String) throws -> WorkspaceExport {
    let now = environment.now()
    return try store.read { tx in
      let salvaged = try tx.salvagedSnapshot()
      return WorkspaceExport(
        exportedAt: now, generator: generator, workspace: salvaged.workspace, quarantine: salvaged.quarantine,
        unreadable: salvaged.unreadable)
    }
  }
}
