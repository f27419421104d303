import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization

/// Work done when a command opens a workspace: importing a legacy `workspace.json` on first
/// use; and how a search index made by another tokenizer version is reported.
enum WorkspaceOpening {
  /// What an engine tells its host about the search index
  /// (``KnowledgeEngine/searchIndexObserver``), as one line on standard error per distinct
  /// notice: that the index was rebuilt, or why it was not and searches index in memory.
  ///
  /// Only the operations that rank call the observer (a search, an auto-selected handoff, an
  /// agent's search tool), so nothing is said — or written — by commands that do not search.
  /// An operation that finds the index unusable more than once (an `ask` searching twice, an
  /// MCP server answering many searches) prints its notice once.
  /// - Parameter program: how notices start, `dolphin` or `dolphin mcp`.
  static func searchIndexNotices(console: Console, program: String)
    -> @Sendable (SearchIndexPreparation) -> Void
  {
    let printed = Mutex<Set<String>>([])
    return { preparation in
      guard let notice = preparation.notice, printed.withLock({ $0.insert(notice).inserted }) else {
        return
      }
      console.printError("\(program): notice: \(notice)")
    }
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
