import ContinuityKit

/// Every failure of the MCPServer layer.
///
/// Providers throw the first group to make the server answer with a JSON-RPC error instead of
/// a result (``jsonRPCError``); any other error a provider throws from
/// ``MCPToolProvider/callTool(name:arguments:context:)`` becomes an `isError: true` tool result,
/// and from the other provider methods a -32603 error. The second group is what a provider
/// sees when it asks the client something (``MCPToolCallContext/elicit(message:requestedSchema:)``).
public enum MCPServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No tool has this name (-32602, as the spec's tools page shows).
  case unknownTool(name: String)
  /// No prompt has this name (-32602).
  case unknownPrompt(name: String)
  /// No resource has this URI (-32002 with `data.uri`); `reason`, when known, says why in the
  /// message and in `data.reason` (no handoff is active, no knowledge item has the id, the id
  /// is not a UUID).
  case resourceNotFound(uri: String, reason: String? = nil)
  /// The request's parameters are wrong; the message says which and how (-32602).
  case invalidParams(String)
  /// The pagination cursor was not issued by this server (-32602).
  case invalidCursor(String)
  /// The workspace at `path` cannot be opened (damaged, unreadable, not a workspace) for
  /// `reason` (-32603 with `data.workspace` and `data.reason`). Tool providers report it as an
  /// `isError` result instead, so that the model can read it.
  case workspaceUnavailable(path: String, reason: String)

  /// The client did not declare the `elicitation` capability (form mode) in `initialize`, the
  /// negotiated revision predates elicitation, or the client has not sent
  /// `notifications/initialized` yet. Nothing was sent.
  case elicitationUnsupported
  /// The client answered a server request with a JSON-RPC error.
  case clientError(JSONRPCError)
  /// The client's answer did not have the expected shape.
  case invalidClientResponse(String)
  /// The client closed the connection before answering.
  case transportClosed
  /// The client did not answer within ``MCPServer/Configuration/clientRequestTimeout``.
  case clientTimeout(after: Duration)
  /// Reading or writing the transport failed.
  case transport(String)

  /// A client-given name as an error message may quote it: each bidi control and control
  /// character shown as an escape (``TerminalText/escapingBidiControls(_:)``,
  /// ``TerminalText/escapingControls(_:)``: `x\u{202E}y`, `x\u{7F}y`, as tool argument errors
  /// show them, where sanitizing alone would drop them and quote another name), sanitized (no role or
  /// tool delimiter survives), on one line, and cut to `limit` characters. `data` keeps the name
  /// as given up to 1,024 characters.
  static func quoted(_ name: String, limit: Int = 80) -> String {
    Truncation.truncate(
      TerminalText.singleLine(Sanitizer.sanitize(TerminalText.escapingControls(TerminalText.escapingBidiControls(name)))), to: limit)
  }

  /// `600 seconds`, `1 second` or `300 ms`.
  static func spoken(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if seconds >= 1 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
    return "\(attoseconds / 1_000_000_000_000_000) ms"
  }

  /// The JSON-RPC error the server answers with for the protocol-level cases, nil for the rest.
  public var jsonRPCError: JSONRPCError? {
    switch self {
    case .unknownTool(let name):
      JSONRPCError(
        code: JSONRPCError.Code.invalidParams, message: "Unknown tool: \(Self.quoted(name))",
        data: ["name": .string(Truncation.truncate(name, to: 1_024))])
    case .unknownPrompt(let name):
      JSONRPCError(
        code: JSONRPCError.Code.invalidParams, message: "Unknown prompt: \(Self.quoted(name))",
        data: ["name": .string(Truncation.truncate(name, to: 1_024))])
    case .resourceNotFound(let uri, let reason):
      JSONRPCError(
        code: JSONRPCError.Code.resourceNotFound,
        message: "Resource not found: \(Self.quoted(uri, limit: 200))" + (reason.map { " (\($0))" } ?? ""),
        data: .object(reason.map { ["uri": .string(uri), "reason": .string($0)] } ?? ["uri": .string(uri)]))
    case .invalidParams(let message):
      JSONRPCError(code: JSONRPCError.Code.invalidParams, message: message)
    case .invalidCursor(let cursor):
      JSONRPCError(
        code: JSONRPCError.Code.invalidParams,
        message:
          "invalid cursor \"\(cursor)\": pass a nextCursor from an earlier page, or none for the first page"
      )
    case .workspaceUnavailable(let path, let reason):
      JSONRPCError(
        code: JSONRPCError.Code.internalError, message: description,
        data: ["workspace": .string(path), "reason": .string(reason)])
    case .elicitationUnsupported, .clientError, .invalidClientResponse, .transportClosed,
      .clientTimeout, .transport:
      nil
    }
  }

  /// What went wrong, for a tool result or the log.
  public var description: String {
    switch self {
    case .unknownTool, .unknownPrompt, .resourceNotFound, .invalidParams, .invalidCursor:
      return jsonRPCError?.message ?? ""
    case .workspaceUnavailable(let path, let reason):
      return
        // A reason that ends a sentence of its own is not given a second full stop (review, s17).
        "the Dolphin workspace at \(Limits.shownPath(path)) cannot be used: \(reason)\(reason.hasSuffix(".") ? "" : ".") The server keeps running and "
        + "tries again on the next call; `\(SuggestedCommand("dolphin doctor").naming(workspace: path))` explains how to recover"
    case .elicitationUnsupported:
      return
        "the client cannot be asked (form-mode elicitation needs the capability declared in initialize, revision 2025-06-18 or later, and notifications/initialized)"
    case .clientError(let error):
      return "the client answered with an error: \(error.code) \(error.message)"
    case .invalidClientResponse(let message):
      return "the client's answer is malformed: \(message)"
    case .transportClosed:
      return "the client closed the connection before answering"
    case .clientTimeout(let timeout):
      return "the client did not answer within \(Self.spoken(timeout))"
    case .transport(let message):
      return "transport failure: \(message)"
    }
  }
}
