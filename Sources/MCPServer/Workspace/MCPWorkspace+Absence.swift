import ContinuityKit
import KnowledgeEngine

extension MCPWorkspace {
  /// What a read must say while nothing exists at ``path`` yet, or nil once the workspace exists.
  ///
  /// The server opens a missing workspace without creating it: it is created by the first write
  /// that succeeds (``SQLiteWorkspaceStore/Creation/atFirstWrite``). Until then every read finds
  /// nothing, which a model would take for "nothing was ever decided" — and a mistyped
  /// `--workspace` in a client's configuration looks exactly like that. So tool results,
  /// resources and prompts read there say so (review, s17: a search answered "no results" and
  /// created an empty workspace, while the CLI reports a mistyped path).
  ///
  /// - Parameter engine: the engine the read used (from ``engine()``).
  /// - Returns: one sentence, starting in lower case, e.g. `there is no workspace at /w yet:
  ///   nothing has been captured there; …`; a directory whose legacy `workspace.json` the first
  ///   write imports is said to be read from that file. Nil when the workspace exists on disk or
  ///   is not an SQLite workspace.
  public func absenceNotice(of engine: KnowledgeEngine) -> String? {
    guard let store = engine.store as? SQLiteWorkspaceStore, !store.existsOnDisk else { return nil }
    // The path reaches a model: bounded, inert and on one line, as stored text is.
    let shown = TerminalText.singleLine(Sanitizer.sanitize(Limits.shownPath(path)))
    if store.hasWritePreamble {
      return "there is no workspace database at \(shown) yet: what is read comes from the legacy "
        + "\(KnowledgeEngine.legacyFileName) in that directory, which the first write that succeeds imports"
    }
    return "there is no workspace at \(shown) yet: nothing has been captured there; the first write that "
      + "succeeds (a capture, memory, task or handoff) creates it. If \(shown) is not the workspace meant, "
      + "correct --workspace in the MCP client's configuration"
  }

  /// ``absenceNotice(of:)`` as a sentence of its own: capitalized, with a full stop.
  static func sentence(_ notice: String) -> String {
    notice.prefix(1).uppercased() + notice.dropFirst() + "."
  }
}
