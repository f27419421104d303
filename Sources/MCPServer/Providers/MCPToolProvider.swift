import ContinuityKit

/// The seam between the MCP server and a tool registry: the server lists and calls tools
/// through it and never knows what a tool does.
///
/// The server checks a `tools/call` name against ``listTools()`` before calling, so an unknown
/// name is always a -32602 protocol error. From ``callTool(name:arguments:context:)``:
/// - a returned ``MCPToolResult`` is sent as is (`isError: true` when the provider says so);
/// - a thrown ``MCPServerError`` with a ``MCPServerError/jsonRPCError`` (such as
///   ``MCPServerError/invalidParams(_:)``) becomes that JSON-RPC error;
/// - any other thrown error becomes an `isError: true` result whose text is the error's
///   description (MCP 2025-11-25: input validation and business failures are tool execution
///   errors, so the model can read them and retry);
/// - a call the client cancelled gets no response at all, whatever the provider returns.
///
/// Calls run concurrently, each in its own task; cancellation arrives as task cancellation.
///
/// - Source: MCP 2025-11-25, Server Features › Tools (Listing Tools, Calling Tools, Error
///   Handling).
public protocol MCPToolProvider: Sendable {
  /// Every tool offered, in the order clients should show them.
  func listTools() async throws -> [MCPToolDescriptor]

  /// Runs the tool `name` with `arguments` (the client's `arguments` object; `{}` when it sent
  /// none or `null`).
  ///
  /// - Parameters:
  ///   - name: a name from ``listTools()``.
  ///   - arguments: unvalidated client input; validate it against the tool's schema.
  ///   - context: the call's id and revision, and the way to ask the user for approval.
  /// - Returns: the result to send.
  /// - Throws: see the protocol's discussion for how each kind of error is answered.
  func callTool(name: String, arguments: JSONObject, context: MCPToolCallContext) async throws
    -> MCPToolResult
}

/// What a client is told about one tool (`Tool` in the MCP schema).
public struct MCPToolDescriptor: Sendable, Equatable {
  /// The unique name (MCP: 1–128 characters of `A-Z a-z 0-9 _ - .`).
  public var name: String
  /// A human-readable name for display (sent from revision 2025-06-18 on).
  public var title: String?
  /// What the tool does and when to use it.
  public var description: String
  /// The JSON Schema (2020-12 unless `$schema` says otherwise) of `arguments`; an object.
  public var inputSchema: JSONObject
  /// The JSON Schema of `structuredContent`, if the tool returns structured results (sent
  /// from revision 2025-06-18 on).
  public var outputSchema: JSONObject?
  /// Behaviour hints for the client.
  public var annotations: MCPToolAnnotations?

  /// Memberwise: each parameter sets the property of the same name.
  public init(
    name: String, title: String? = nil, description: String, inputSchema: JSONObject,
    outputSchema: JSONObject? = nil, annotations: MCPToolAnnotations? = nil
  ) {
    self.name = name
    self.title = title
    self.description = description
    self.inputSchema = inputSchema
    self.outputSchema = outputSchema
    self.annotations = annotations
  }
}

/// Hints about a tool's behaviour (`ToolAnnotations`).
///
/// Clients must treat them as untrusted hints; `nil` leaves a hint out (the spec's defaults
/// then apply).
public struct MCPToolAnnotations: Sendable, Equatable {
  /// The tool does not modify its environment.
  public var readOnlyHint: Bool?
  /// The tool may perform destructive updates (meaningful when not read-only).
  public var destructiveHint: Bool?
  /// Calling it again with the same arguments has no additional effect.
  public var idempotentHint: Bool?
  /// The tool interacts with an open world of external entities (for Dolphin: never).
  public var openWorldHint: Bool?

  /// Memberwise: each parameter sets the property of the same name.
  public init(
    readOnlyHint: Bool? = nil, destructiveHint: Bool? = nil, idempotentHint: Bool? = nil,
    openWorldHint: Bool? = nil
  ) {
    self.readOnlyHint = readOnlyHint
    self.destructiveHint = destructiveHint
    self.idempotentHint = idempotentHint
    self.openWorldHint = openWorldHint
  }
}

/// The outcome of one tool call (`CallToolResult`).
///
/// Sent as `{"content": [{"type": "text", "text": text}], "structuredContent"?: object,
/// "isError": bool}`; `structuredContent` is left out for revision 2025-03-26, which lacks it.
/// A failed call's `structuredContent` is sent as a second text block of JSON instead, in every
/// revision: the tool's `outputSchema` describes a success, and results must conform to it.
public struct MCPToolResult: Sendable, Equatable {
  /// The human- and model-readable rendering (also the serialized JSON's stand-in for clients
  /// that ignore `structuredContent`).
  public var text: String
  /// The machine-readable result, conforming to the tool's `outputSchema` when it has one.
  public var structuredContent: JSONObject?
  /// Whether the call failed (a tool execution error, as opposed to a protocol error).
  public var isError: Bool

  /// Memberwise: each parameter sets the property of the same name.
  public init(text: String, structuredContent: JSONObject? = nil, isError: Bool = false) {
    self.text = text
    self.structuredContent = structuredContent
    self.isError = isError
  }

  /// A failed call with `message` as its text.
  public static func error(_ message: String, structuredContent: JSONObject? = nil) -> MCPToolResult
  {
    MCPToolResult(text: message, structuredContent: structuredContent, isError: true)
  }
}
