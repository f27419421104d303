import ContinuityKit
import KnowledgeEngine
import Synchronization

/// The workspace a Dolphin MCP server works on: opened on first use and then kept.
///
/// An open that fails (a damaged or unreadable database, a path that is not a directory) is
/// not fatal: the failure is reported to the call that needed the workspace, as
/// ``MCPServerError/workspaceUnavailable(path:reason:)``, and the next call tries again, so a
/// server started on a broken workspace keeps serving and recovers once it is fixed. A
/// workspace with a newer schema opens read-only: reads work, writes fail with
/// `WorkspaceError.readOnly`.
///
/// Opening is serialized: concurrent first calls open the workspace once.
public final class MCPWorkspace: Sendable {
  /// Where the workspace is, for messages (the directory, or `:memory:`).
  public let path: String
  private let open: @Sendable () throws -> KnowledgeEngine
  private let opened = Mutex<KnowledgeEngine?>(nil)

  /// A workspace opened by `open` on first use.
  ///
  /// - Parameters:
  ///   - path: the workspace directory, named in error messages.
  ///   - open: opens the store and builds the engine; may write notices to standard error,
  ///     never to standard output.
  public init(path: String, open: @escaping @Sendable () throws -> KnowledgeEngine) {
    self.path = path
    self.open = open
  }

  /// A workspace that is already open (tests, in-memory stores).
  public convenience init(engine: KnowledgeEngine) {
    self.init(path: engine.store.databasePath) { engine }
    _ = try? self.engine()
  }

  /// The engine over the workspace, opening it first if needed.
  ///
  /// - Returns: the engine; the same one for every call once an open has succeeded.
  /// - Throws: ``MCPServerError/workspaceUnavailable(path:reason:)`` with the open's error.
  public func engine() throws(MCPServerError) -> KnowledgeEngine {
    try opened.withLock {
      (engine: inout KnowledgeEngine?) throws(MCPServerError) -> KnowledgeEngine in
      if let engine { return engine }
      do {
        let fresh = try open()
        engine = fresh
        return fresh
      } catch {
        throw MCPServerError.workspaceUnavailable(path: path, reason: "\(error)")
      }
    }
  }
}
