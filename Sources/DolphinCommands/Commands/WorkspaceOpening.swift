import ContinuityKit
import Foundation
import KnowledgeEngine

/// Work done on first use of a workspace directory: importing a legacy `workspace.json`, and
/// finishing what a schema migration left to the engine.
enum WorkspaceOpening {
  /// Indexes again the search-index documents a schema migration listed as stale (step 0006
  /// rewrites stored tags; the tokenizer is the engine's). Every command that opens the
  /// workspace writable does it, reads included, so a search never ranks with the old tags.
  static func finishMigrations(store: SQLiteWorkspaceStore) throws {
    try KnowledgeEngine(store: store).reindexStaleDocuments()
  }

  static func afterOpen(store: SQLiteWorkspaceStore, directory: URL, console: Console) throws {
    guard !store.isReadOnly else { return }
    if let report = try KnowledgeEngine(store: store).importLegacyWorkspaceIfPresent(in: directory) {
      console.printError(
        "dolphin: notice: imported legacy \(KnowledgeEngine.legacyFileName) (schema v\(report.sourceVersion ?? 0)): "
          + MigrateCommands.summary(report) + "; the original is unchanged, a 0600 backup is at \(report.backupPath ?? "?")")
    }
  }
}

extension Commands {
  /// `url`'s absolute path with every symbolic link and `.`/`..` resolved, as far as the path
  /// exists: the deepest existing ancestor goes through `realpath(3)` and the components below
  /// it (not created yet) are appended as given. Two spellings of one place compare equal.
  static func resolvedPath(_ url: URL) -> String {
    var existing = url.standardizedFileURL
    var rest: [String] = []
    while existing.path != "/" {
      if let resolved = realpath(existing.path, nil) {
        defer { free(resolved) }
        var out = URL(fileURLWithPath: String(cString: resolved))
        for component in rest.reversed() { out.appendPathComponent(component) }
        return out.standardizedFileURL.path
      }
      rest.append(existing.lastPathComponent)
      existing.deleteLastPathComponent()
    }
    return url.standardizedFileURL.path
  }

  /// Whether `path` is `directory` or lies below it, once both are resolved (see ``resolvedPath(_:)``).
  static func isWithin(_ path: URL, directory: URL) -> Bool {
    let p = resolvedPath(path), d = resolvedPath(directory)
    return p == d || p.hasPrefix(d.hasSuffix("/") ? d : d + "/")
  }
}
