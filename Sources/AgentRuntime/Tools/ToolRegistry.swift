import ContinuityKit
import Foundation
import KnowledgeEngine

/// The registry of tools: one source of truth for validation, the router, the MCP listing and
/// the docs (`dolphin tools`). Unavailable (capability-gated) tools are absent.
public struct ToolRegistry: Sendable {
  /// Available tools in a stable order (continuity tools, then legacy tools).
  public let tools: [ToolDefinition]

  /// A registry of the given definitions; unavailable ones are dropped.
  /// - Precondition: names are unique.
  public init(_ definitions: [ToolDefinition]) {
    tools = definitions.filter(\.isAvailable)
    precondition(Set(tools.map(\.name)).count == tools.count, "tool names must be unique")
  }

  /// The tool named `name`.
  /// - Throws: ``AgentError/unknownTool(name:suggestion:)`` with the nearest valid name.
  public func tool(named name: String) throws(AgentError) -> ToolDefinition {
    if let t = tools.first(where: { $0.name == name }) { return t }
    throw .unknownTool(name: name, suggestion: NearestName.suggest(name, in: tools.map(\.name)))
  }

  /// Tool names in order.
  public var names: [String] { tools.map(\.name) }

  /// The standard registry: the 14 continuity tools and the legacy memory and task tools.
  public static let standard = ToolRegistry(ContinuityTools.all + LegacyTools.all)

  /// A JSON document describing every tool (name, title, description, risk, schemas).
  public var catalog: JSONValue {
    .array(tools.map { t in
      .object([
        "name": .string(t.name), "title": .string(t.title), "description": .string(t.description),
        "risk": .string(t.risk.rawValue), "idempotent": .bool(t.isIdempotent),
        "outputCap": .integer(t.outputCap), "inputSchema": t.inputSchema, "outputSchema": t.outputSchema,
      ])
    })
  }
}

/// Failures of the agent runtime.
public enum AgentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No tool has this name.
  case unknownTool(name: String, suggestion: String?)
  /// The arguments broke the tool's schema.
  case invalidArguments(ToolArgumentError)
  /// The user (or the policy) refused a local write.
  case denied(tool: String, reason: String)
  /// The run was cancelled; nothing was written by the cancelled call.
  case cancelled
  /// The call was approved, but the workspace changed while the approval was pending so that
  /// the call would no longer do what the approval request showed (a reference such as
  /// `latest` names another record, a record it names was deleted, it would change other
  /// records besides its own); `change` says what, and the call was not run.
  case changedWhilePending(tool: String, change: String)
  /// A run bound (steps, output, time) stopped the run.
  case limitReached(String)
  /// The model endpoint is not allowed or failed.
  case model(String)

  public var description: String {
    switch self {
    case .unknownTool(let name, let s):
      // The name is the caller's (a model's) text: quoted inert, on one line and bounded.
      return "unknown tool '\(ToolSchema.quotable(name, limit: 80))'"
        + (s.map { "; did you mean '\($0)'?" } ?? "")
    case .invalidArguments(let e): return e.message
    case .denied(let tool, let reason): return "\(tool) was not run: \(reason)"
    case .cancelled: return "the run was cancelled; nothing further was written"
    case .changedWhilePending(let tool, let change): return "\(tool) was not run: \(change)"
    case .limitReached(let what): return "the run stopped at a bound: \(what)"
    case .model(let m): return m
    }
  }
}

/// A store view that reads through to `base` and refuses every write, so a read-only tool
/// cannot mutate the workspace whatever its handler does.
final class ReadOnlyStoreView: WorkspaceStore {
  let base: any WorkspaceStore
  init(_ base: any WorkspaceStore) { self.base = base }
  var databasePath: String { base.databasePath }
  var isReadOnly: Bool { true }
  func read<T: Sendable>(_ body: (WorkspaceTransaction) throws -> T) throws -> T { try base.read(body) }
  func write<T: Sendable>(_ body: (WorkspaceTransaction) throws -> T) throws -> T {
    throw WorkspaceError.readOnly(file: base.databasePath, reason: "a read-only tool may not write")
  }
}
