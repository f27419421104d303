import ContinuityKit

/// What a tool call knows about its session, and its one way back to the user: elicitation.
///
/// A provider that needs the user's approval for a local write checks ``canElicit``; when it
/// is true it shows the exact call through ``elicit(message:requestedSchema:)`` and acts on
/// the answer; when false it applies its own policy (Dolphin's `--writes ask|allow|deny`).
///
/// - Source: MCP 2025-11-25, Client Features › Elicitation (form mode).
public struct MCPToolCallContext: Sendable {
  /// The id of the `tools/call` request.
  public let requestID: JSONRPCRequestID
  /// The revision negotiated in `initialize`.
  public let protocolVersion: MCPProtocolVersion
  /// The client's `clientInfo` (`name`, `version`, …) as it sent it; empty when it sent none.
  public let clientInfo: JSONObject
  /// Whether ``elicit(message:requestedSchema:)`` can reach the user: the client declared the
  /// `elicitation` capability with form mode (an empty object counts, per the spec), the
  /// revision has elicitation (2025-06-18 or later), and the client sent
  /// `notifications/initialized`.
  public let canElicit: Bool
  /// The bound on this call's response, or nil for none (a context made without one). A
  /// result larger than ``ResponseBound/resultBytes`` is not sent: the client gets an
  /// `isError` result saying so instead.
  public let responseBound: ResponseBound?
  private let ask: @Sendable (String, JSONObject) async throws -> MCPElicitationResult

  /// How large the response to a tool call may be (``JSONRPCLimits/maximumResponseBytes``).
  public struct ResponseBound: Sendable, Equatable {
    /// The bound on the whole response line, in UTF-8 bytes (newline excluded).
    public var responseBytes: Int
    /// What of it the result (`CallToolResult`, serialized as compact JSON) may take: the
    /// bound less the response's envelope and the request's id (0 when the id leaves nothing).
    public var resultBytes: Int

    /// A bound of `responseBytes` on the response, of which the result may take `resultBytes`.
    public init(responseBytes: Int, resultBytes: Int) {
      self.responseBytes = responseBytes
      self.resultBytes = max(0, resultBytes)
    }
  }

  /// A context, as the server builds them.
  ///
  /// Public so that providers can be tested without a server, with `ask` standing in for the
  /// client.
  public init(
    requestID: JSONRPCRequestID, protocolVersion: MCPProtocolVersion = .latest,
    clientInfo: JSONObject = [:], canElicit: Bool, responseBound: ResponseBound? = nil,
    ask:
      @escaping @Sendable (_ message: String, _ requestedSchema: JSONObject) async throws ->
      MCPElicitationResult
  ) {
    self.requestID = requestID
    self.protocolVersion = protocolVersion
    self.clientInfo = clientInfo
    self.canElicit = canElicit
    self.responseBound = responseBound
    self.ask = ask
  }

  /// Asks the user through the client (`elicitation/create`, form mode) and waits.
  ///
  /// The user may take their time, up to the server's
  /// ``MCPServer/Configuration/clientRequestTimeout`` (10 minutes by default): an answer that
  /// has not come by then fails the wait with ``MCPServerError/clientTimeout(after:)`` (and the
  /// client is sent `notifications/cancelled` for the elicitation). The client may cancel the
  /// tool call sooner if it gives up (this call then throws `CancellationError`, and the client
  /// is told the elicitation is cancelled too).
  ///
  /// - Parameters:
  ///   - message: what the user is asked, shown by the client; for an approval, the exact call.
  ///   - requestedSchema: a flat object schema of primitive properties (MCP restricts form
  ///     schemas to string, number, integer, boolean and enum properties); `{"type": "object",
  ///     "properties": {}}` asks for a plain yes/no.
  /// - Returns: the user's action and, on accept, the submitted content.
  /// - Throws: ``MCPServerError/elicitationUnsupported`` when ``canElicit`` is false (nothing
  ///   is sent); ``MCPServerError/clientError(_:)`` when the client answers with an error;
  ///   ``MCPServerError/invalidClientResponse(_:)`` for a malformed answer;
  ///   ``MCPServerError/transportClosed`` when the client goes away;
  ///   ``MCPServerError/clientTimeout(after:)`` when no answer came within the server's
  ///   ``MCPServer/Configuration/clientRequestTimeout``; `CancellationError` when the tool call
  ///   is cancelled.
  public func elicit(message: String, requestedSchema: JSONObject) async throws
    -> MCPElicitationResult
  {
    guard canElicit else { throw MCPServerError.elicitationUnsupported }
    return try await ask(message, requestedSchema)
  }
}

/// The user's answer to an elicitation (`ElicitResult`).
public struct MCPElicitationResult: Sendable, Equatable {
  /// What the user did.
  public enum Action: String, Sendable, Equatable {
    /// Submitted the form: approve.
    case accept
    /// Explicitly said no.
    case decline
    /// Dismissed the request without choosing.
    case cancel
  }

  /// What the user did.
  public var action: Action
  /// The submitted form values, present on ``Action/accept`` when the schema asked for any.
  public var content: JSONObject?

  /// Memberwise: each parameter sets the property of the same name.
  public init(action: Action, content: JSONObject? = nil) {
    self.action = action
    self.content = content
  }
}
