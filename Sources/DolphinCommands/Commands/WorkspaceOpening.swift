import ContinuityKit
import Foundation
import KnowledgeEngine

/// Work done on first use of a workspace directory: importing a legacy `workspace.json`.
enum WorkspaceOpening {
  static func afterOpen(store: SQLiteWorkspaceStore, directory: URL, console: Console) throws {
    guard !store.isReadOnly else { return }
    if let report = try KnowledgeEngine(store: store).importLegacyWorkspaceIfPresent(in: directory) {
      console.printError(
        "dolphin: notice: imported legacy \(KnowledgeEngine.legacyFileName) (schema v\(report.sourceVersion ?? 0)): "
          + MigrateCommands.summary(report) + "; the original is unchanged, a 0600 backup is at \(report.backupPath ?? "?")")
    }
  }
}
