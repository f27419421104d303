import ContinuityKit
import Foundation

/// Work done on first use of a workspace directory (importing a legacy `workspace.json`).
enum WorkspaceOpening {
  static func afterOpen(store: SQLiteWorkspaceStore, directory: URL, console: Console) throws {
    // LEGACY-AUTO-IMPORT
  }
}
