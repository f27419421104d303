import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine

/// Offers the agent runtime's tool registry over MCP: the same names, schemas, risk classes,
/// approvals and receipts as the in-app assistant, re-implementing none of them.
///
/// - **Listing.** Every registry tool, in registry order: name, title, description,
///   `inputSchema` and `outputSchema` from its definition, and annotations `readOnlyHint` =
///   risk is `readOnly`, `destructiveHint: false` (deletion is never a tool),
///   `idempotentHint` from the definition, `openWorldHint: false` (nothing leaves the machine).
/// - **Calling.** `ToolExecutor.execute` validates and normalizes the arguments, asks for
///   approval of `localWrite` calls (see ``approver(for:)``), runs read-only tools on a store
///   that refuses writes, and writes one receipt per call — read-only, denied and failed calls
///   too — whose call id is the JSON-RPC request id as JSON text (`"007"` with its quotes,
///   `42` without). On a workspace that does not exist yet, only a local write that succeeds
///   stores its receipt (and so creates the workspace): any other call creates nothing. A
///   `localWrite` call gets its engine from ``MCPWorkspace/engineForWriting()``, so a workspace
///   opened read-only for want of write permission is written once the permission is back.
/// - **Results.** A call that succeeded returns the tool's structured JSON object as
///   `structuredContent` and its deterministic rendering as text. Anything else — invalid
///   arguments, a denial, a failure inside the tool, an unusable workspace — is an
///   `isError: true` result whose text says what happened and whose `structuredContent` (sent as
///   a second text block of JSON, see ``MCPToolResult``) is
///   `{"error": {"kind", "message", "field"?}, "receipt"?: {"id", "callID", "outcome"}}`
///   (no receipt when the workspace could not be opened, or could not be written, or when a
///   call that did not succeed — invalid arguments, a denial, a failure inside the tool —
///   finds no workspace on disk yet: such a call never creates one).
/// - **No workspace yet.** Only a local write that succeeds creates a missing workspace. A
///   read-only call there answers from the empty workspace without creating it or storing its
///   receipt, and — like any call that ran there and failed — says so
///   (``MCPWorkspace/absenceNotice(of:)``): the sentence starts the text of a success and ends
///   that of a failure, and `structuredContent` gets
///   `"workspace": {"path", "exists": false, "notice"}`, so an empty answer on a mistyped
///   `--workspace` is not taken for an empty memory.
public struct RegistryToolProvider: MCPToolProvider {
  /// The tools offered.
  public let registry: ToolRegistry
  /// The workspace the tools work on.
  public let workspace: MCPWorkspace
  /// What to do with local writes (see ``MCPWritePolicy``).
  public let writes: MCPWritePolicy
  /// Where one line per call goes (`--verbose`); nil says nothing. Never standard output.
  public let log: (@Sendable (String) -> Void)?

  /// A provider over `registry` and `workspace`.
  ///
  /// - Parameters:
  ///   - registry: the tools to offer (default ``ToolRegistry/standard``).
  ///   - workspace: the workspace the tools read and write.
  ///   - writes: the local-write policy (default ``MCPWritePolicy/ask``).
  ///   - log: receives one line per call (tool, outcome, approval, milliseconds).
  public init(
    registry: ToolRegistry = .standard, workspace: MCPWorkspace, writes: MCPWritePolicy = .ask,
    log: (@Sendable (String) -> Void)? = nil
  ) {
    self.registry = registry
    self.workspace = workspace
    self.writes = writes
    self.log = log
  }

  /// The registry's tools as MCP describes them, in registry order.
  public func listTools() -> [MCPToolDescriptor] {
    registry.tools.map { Self.descriptor($0, writes: writes) }
  }

  /// What a local-write tool's description adds under `writes`: nothing under `ask` (the
  /// registry's "needs approval" holds), and what this server does instead under the others.
  static func writeNote(_ writes: MCPWritePolicy) -> String? {
    switch writes {
    case .ask: nil
    case .allow: "On this server (--writes allow) it runs without approval when the client cannot ask."
    case .deny: "This server (--writes deny) refuses it."
    }
  }

  /// The MCP description of one tool under the write policy `writes`.
  static func descriptor(_ tool: ToolDefinition, writes: MCPWritePolicy = .ask) -> MCPToolDescriptor {
    let note = tool.risk == .localWrite ? writeNote(writes) : nil
    return MCPToolDescriptor(
      name: tool.name, title: tool.title, description: tool.description + (note.map { " " + $0 } ?? ""),
      inputSchema: tool.inputSchema.object ?? ["type": "object"],
      outputSchema: tool.outputSchema.object,
      annotations: MCPToolAnnotations(
        readOnlyHint: tool.risk == .readOnly, destructiveHint: false,
        idempotentHint: tool.isIdempotent, openWorldHint: false))
  }

  /// Runs `name` through the tool executor; see the type's discussion for the result.
  ///
  /// Never throws: every failure is an `isError` result.
  public func callTool(name: String, arguments: JSONObject, context: MCPToolCallContext) async
    -> MCPToolResult
  {
    let started = ContinuousClock.now
    let engine: KnowledgeEngine
    do {
      // A write on a workspace opened read-only looks again at whether it can be written.
      let writes = (try? registry.tool(named: name))?.risk == .localWrite
      engine = try writes ? workspace.engineForWriting() : workspace.engine()
    } catch {
      log?("tools/call \(name) id \(context.requestID): workspace unavailable: \(error)")
      return .error(
        "\(name) was not run: \(error)",
        structuredContent: [
          "error": ["kind": "workspaceUnavailable", "message": .string(error.description)]
        ])
    }
    let call = ToolCall(
      id: context.requestID.description, name: name, arguments: .object(arguments))
    // Only a write that succeeds creates a missing workspace; any other call stores its
    // receipt where the workspace exists, and never creates it just for that (ToolExecutor).
    let result = await ToolExecutor(registry: registry, engine: engine, readsCreateWorkspace: false)
      .execute(
        call, approver: approver(for: context),
        outputBound: Self.outputBound(
          context, absence: workspace.absenceNotice(of: engine), path: workspace.path))
    if let log {
      let receipt = result.receipt
      let elapsed = ContinuousClock.now - started
      let milliseconds =
        elapsed.components.seconds * 1_000
        + elapsed.components.attoseconds / 1_000_000_000_000_000
      log(
        "tools/call \(name) id \(context.requestID): \(receipt.outcome.rawValue)"
          + (receipt.approval.map { ", approval \($0)" } ?? "") + ", \(milliseconds) ms"
          + (result.isReceiptStored ? "" : ", no receipt stored"))
    }
    // A call that read the workspace (it ran, or failed inside the tool) where none exists yet
    // says so: its empty answer is not "nothing was ever captured" at the workspace meant.
    let ranOnWorkspace = result.succeeded || (result.receipt.outcome == .failed && result.error == nil)
    let absence = ranOnWorkspace ? workspace.absenceNotice(of: engine) : nil
    return Self.toolResult(result, tool: name, absence: absence, path: workspace.path)
  }

  /// What a tool's output may take of the result's share of the response bound
  /// (``MCPToolCallContext/responseBound``): that share less the members ``toolResult(_:tool:absence:path:)``
  /// wraps the output in, and the workspace notice it may add (`absence`, as read before the
  /// call: a call only ever removes it). Nil when the context has no bound, or when the
  /// revision sends no `structuredContent` (2025-03-26): the text alone is bounded by its cap.
  static func outputBound(_ context: MCPToolCallContext, absence: String?, path: String) -> ToolOutputBound? {
    guard let bound = context.responseBound, context.protocolVersion.hasTitlesAndStructuredContent else { return nil }
    // `""` and `{}` stand in for the text and the structured output, which the output's own
    // measure counts (ToolOutput.byteCount).
    var framing = MCPToolResult(text: "", structuredContent: [:]).wireValue(context.protocolVersion).serialized().count - 4
    if let absence {
      let sentence = MCPWorkspace.sentence(absence)
      framing += JSONValue.string(sentence + "\n").serialized().count
      framing += JSONValue.object(["workspace": ["path": .string(path), "exists": false, "notice": .string(sentence)]])
        .serialized().count
    }
    return ToolOutputBound(bytes: bound.resultBytes - framing, statedBytes: bound.responseBytes)
  }

  /// The MCP result of an executed call.
  ///
  /// - Parameters:
  ///   - absence: ``MCPWorkspace/absenceNotice(of:)`` when the call ran where no workspace
  ///     exists yet: its sentence starts the text of a success and ends that of a failure, and
  ///     `structuredContent` gets `"workspace": {"path", "exists": false, "notice"}`.
  ///   - path: the workspace directory, for that member.
  static func toolResult(_ result: ToolCallResult, tool: String, absence: String? = nil, path: String = "")
    -> MCPToolResult
  {
    let workspaceMember: JSONObject? = absence.map {
      ["path": .string(path), "exists": false, "notice": .string(MCPWorkspace.sentence($0))]
    }
    if result.succeeded, let output = result.output {
      // MCP requires an object; every registry tool returns one, anything else is wrapped.
      var structured = output.structured.object ?? ["value": output.structured]
      var text = output.text
      if let absence, let workspaceMember {
        structured["workspace"] = .object(workspaceMember)
        text = MCPWorkspace.sentence(absence) + "\n" + text
      }
      return MCPToolResult(text: text, structuredContent: structured)
    }
    var failure = failureResult(result, tool: tool)
    if let absence, let workspaceMember {
      failure.text += (failure.text.hasSuffix(".") ? " " : ". ") + MCPWorkspace.sentence(absence)
      failure.structuredContent?["workspace"] = .object(workspaceMember)
    }
    return failure
  }

  /// The MCP result of a call that did not succeed: `error.field` names the argument for
  /// invalid arguments and for an id in a list argument that no record has
  /// (``ToolCallResult/failureField``).
  private static func failureResult(_ result: ToolCallResult, tool: String) -> MCPToolResult {
    let receipt = result.receipt
    var (message, error) =
      result.error.map { errorDescription($0, tool: tool) }
      ?? errorObject(
        "\(tool) failed: \(result.failureMessage ?? receipt.message)",
        kind: receipt.outcome == .cancelled ? "cancelled" : "failed")
    // An id no record has names the argument holding it, as a refusal of an argument does.
    if result.error == nil, let field = result.failureField { error["field"] = .string(field) }
    // Only a receipt that was stored is named: the client may look it up.
    guard result.isReceiptStored else { return .error(message, structuredContent: ["error": .object(error)]) }
    let receiptObject: JSONObject = [
      "id": .string(receipt.id.uuidString), "callID": .string(receipt.callID),
      "outcome": .string(receipt.outcome.rawValue),
    ]
    return .error(
      message, structuredContent: ["error": .object(error), "receipt": .object(receiptObject)])
  }

  /// The message of a call that `error` stopped, and the `error` object of its
  /// `structuredContent` (`kind`, `message`, and `field` for invalid arguments).
  static func errorDescription(_ error: AgentError, tool: String) -> (message: String, error: JSONObject) {
    switch error {
    case .denied(_, let reason):
      return errorObject("\(tool) was not run: \(reason)", kind: "denied")
    case .invalidArguments(let argumentError):
      // Said once: the schema's own message may end with the same words (review 18-d).
      var message = argumentError.message
      if message.hasSuffix("; the call was not run") { message.removeLast("; the call was not run".count) }
      var described = errorObject("\(tool) was not run: invalid arguments: \(message)", kind: "invalidArguments")
      described.error["field"] = .string(argumentError.field)
      return described
    case .unknownTool: return errorObject("\(tool) failed: \(error.description)", kind: "unknownTool")
    case .cancelled: return errorObject("\(tool) failed: \(error.description)", kind: "cancelled")
    case .changedWhilePending: return errorObject(error.description, kind: "changedWhilePending")
    case .limitReached: return errorObject("\(tool) failed: \(error.description)", kind: "limitReached")
    case .model: return errorObject("\(tool) failed: \(error.description)", kind: "model")
    }
  }

  private static func errorObject(_ message: String, kind: String) -> (message: String, error: JSONObject) {
    (message, ["kind": .string(kind), "message": .string(message)])
  }
}
