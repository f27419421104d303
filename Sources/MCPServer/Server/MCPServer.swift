import ContinuityKit
import Foundation

/// A Model Context Protocol server: the MCP lifecycle, JSON-RPC framing and error rules over a
/// transport, with tools, resources and prompts supplied by providers.
///
/// ```swift
/// let server = MCPServer(
///   configuration: .init(version: "0.4.0", instructions: "Dolphin's local memory tools."),
///   tools: registry, resources: workspaceResources, prompts: sessionPrompts)
/// await server.run(transport: StdioTransport())   // returns when stdin closes
/// ```
///
/// Behaviour, per MCP 2025-11-25 (negotiating down to 2025-06-18 and 2025-03-26):
/// - **Lifecycle.** `initialize` answers with the client's `protocolVersion` when we speak it,
///   else our latest (``MCPProtocolVersion/negotiate(_:)``); unknown capability members and
///   any JSON inside `experimental` are accepted and kept. Before `initialize` only `ping`
///   (and `initialize`) are served: other offered methods get -32600 ("not initialized").
///   A second `initialize` gets -32600. Requests are served as soon as `initialize` is
///   answered; `notifications/initialized` is only needed before the server itself asks the
///   client anything (elicitation).
/// - **Methods.** `ping`; `tools/list`, `tools/call` (with a tool provider);
///   `resources/list`, `resources/templates/list`, `resources/read` (with a resource
///   provider); `prompts/list`, `prompts/get` (with a prompt provider). Everything else —
///   `server/discover` (the 2026-07-28 probe), `resources/subscribe`, `logging/setLevel`,
///   `completion/complete`, methods of an absent provider — gets -32601 at once, in any state.
/// - **Concurrency.** `initialize`, `ping` and every error are answered in input order before
///   the next line is read; other requests run in their own tasks, so a slow tool does not
///   block `ping`, and responses may come back in a different order than the requests.
/// - **Request ids.** A request whose id is that of a request still waiting for its response
///   (one running, or one of a batch whose line is not sent yet) is refused with -32600 naming
///   the id, whatever its method (`ping` too), so no two responses share an id; an id is free
///   again once its response is sent. A request's method sent without an id is a notification:
///   it is never run, and the session logs it as an ignored message.
/// - **Cancellation.** `notifications/cancelled` cancels the named in-flight request's task;
///   a cancelled request gets no response. An elicitation the call was waiting on is
///   cancelled toward the client too (`notifications/cancelled` with its id).
/// - **Input errors** follow ``JSONRPCMessage/decode(_:limits:acceptsBatches:)``: -32700 / -32600 /
///   -32602; batches rejected, except after agreeing to MCP 2025-03-26, which requires receiving
///   them (at most ``JSONRPCLimits/maximumBatchMessages`` messages, each handled as a line of
///   its own, one array of responses held to ``JSONRPCLimits/maximumResponseBytes``); size and
///   depth bounded by ``Configuration/limits``; the session keeps
///   serving after every one of them. A malformed response to a request the server sent
///   (an elicitation) is never answered, but when its id can be read the waiting call fails
///   with ``MCPServerError/invalidClientResponse(_:)`` instead of waiting on.
/// - **End of input.** Pending elicitations fail with ``MCPServerError/transportClosed``;
///   calls in flight finish and are answered (a scripted client may close stdin before reading
///   answers); then ``run(transport:)`` returns.
///
/// - Source: MCP 2025-11-25 (Base Protocol › Overview, Lifecycle, Transports, Utilities ›
///   Cancellation and Ping; Server Features › Tools, Resources, Prompts; Client Features ›
///   Elicitation); JSON-RPC 2.0.
public struct MCPServer: Sendable {
  /// Identity, limits and logging of a server.
  public struct Configuration: Sendable {
    /// `serverInfo.name`: default `dolphin`.
    public var name: String
    /// `serverInfo.title`, for display, sent from revision 2025-06-18 on.
    public var title: String?
    /// `serverInfo.version`.
    public var version: String
    /// `instructions` in the `initialize` result: how a model should use this server.
    public var instructions: String?
    /// Size and depth bounds on inbound messages.
    public var limits: JSONRPCLimits
    /// Where diagnostics go, one line per call: default standard error, never standard output.
    /// Each line it is given is bounded and escaped (``MCPServer/logLine(_:)``).
    public var log: @Sendable (String) -> Void
    /// How long a request the server sends the client (an elicitation) waits for its answer:
    /// default ``defaultClientRequestTimeout`` (10 minutes), time for a person to read an
    /// approval. Then the waiting call fails with ``MCPServerError/clientTimeout(after:)`` and
    /// the client is sent `notifications/cancelled` for it, so a client that never answers (or
    /// answers with something that cannot be matched to the request) cannot hold a call open
    /// forever; a local write waiting for approval is then refused as denied, its receipt saying
    /// that the approval timed out.
    public var clientRequestTimeout: Duration

    /// The default ``clientRequestTimeout``: 600 seconds (10 minutes).
    public static let defaultClientRequestTimeout: Duration = .seconds(600)

    /// A configuration; `version` is required, every other default is on its property.
    public init(
      name: String = "dolphin", title: String? = nil, version: String, instructions: String? = nil,
      limits: JSONRPCLimits = JSONRPCLimits(),
      log: @escaping @Sendable (String) -> Void = MCPServer.standardErrorLog,
      clientRequestTimeout: Duration = Configuration.defaultClientRequestTimeout
    ) {
      self.name = name
      self.title = title
      self.version = version
      self.instructions = instructions
      self.limits = limits
      self.log = log
      self.clientRequestTimeout = clientRequestTimeout
    }
  }

  /// The most characters one diagnostic line holds (``logLine(_:)``): room for every message
  /// the server writes, with the paths it names, while a line that echoes what a client sent
  /// stays this short however much the client sent.
  public static let logLineLimit = 1_000

  /// `text` as a diagnostic line: every control character written as an escape (`\n`, `\t`,
  /// `\u{1B}`: ``Limits/escaped(_:)``) and every bidirectional control too
  /// (``TerminalText/escapingBidiControls(_:)``), so that text a client sent can neither drive
  /// the terminal that shows standard error nor start what reads as a line of its own; then cut
  /// to ``logLineLimit`` characters, ending with ``Truncation/marker`` when cut (review 19-a: a
  /// 1 MB reply to an unknown request id was copied to standard error whole, and a
  /// `protocolVersion` holding ESC and NUL bytes raw).
  /// - Complexity: O(``logLineLimit``): a longer `text` is cut before it is escaped.
  public static func logLine(_ text: String) -> String {
    let cut = Truncation.truncate(text, to: logLineLimit)
    return Truncation.truncate(Limits.escaped(TerminalText.escapingBidiControls(cut)), to: logLineLimit)
  }

  /// Writes `line` and a newline to standard error; a closed or failing standard error loses
  /// the line instead of stopping the server (`FileHandle.write` traps on a write error).
  public static let standardErrorLog: @Sendable (String) -> Void = { line in
    _ = SecureFile.writeAll(STDERR_FILENO, Data((line + "\n").utf8))
  }

  /// Identity, limits and logging.
  public let configuration: Configuration
  /// The tools offered; nil offers no `tools` capability.
  public let tools: (any MCPToolProvider)?
  /// The resources offered; nil offers no `resources` capability.
  public let resources: (any MCPResourceProvider)?
  /// The prompts offered; nil offers no `prompts` capability.
  public let prompts: (any MCPPromptProvider)?

  /// A server with the given providers; a nil provider leaves its capability out of
  /// `initialize` and its methods answer -32601.
  public init(
    configuration: Configuration, tools: (any MCPToolProvider)? = nil,
    resources: (any MCPResourceProvider)? = nil, prompts: (any MCPPromptProvider)? = nil
  ) {
    self.configuration = configuration
    self.tools = tools
    self.resources = resources
    self.prompts = prompts
  }

  /// Serves one client session over `transport` until the client closes its input and the
  /// calls in flight have been answered.
  ///
  /// Each call starts a fresh session (a new `initialize` is expected). Nothing is thrown:
  /// every failure is answered on the wire or written to ``Configuration/log``.
  public func run(transport: some MCPTransport) async {
    _ = await serve(transport: transport)
  }

  /// How a session served by ``serve(transport:)`` ended.
  public enum SessionEnd: Sendable, Equatable {
    /// The client closed its input, and every answer was written.
    case inputClosed
    /// The server stopped handling messages because its output failed: a send failed
    /// (`EPIPE`, `ENOSPC` on `/dev/full`, a closed descriptor) or the output was seen closed
    /// before a message was handled. `reason` says which, with the system error; calls already
    /// in flight were still run to their end. A caller can tell a broken transport from a
    /// clean shutdown by this (review 29a, 7: `dolphin mcp` exits 5 for it).
    case outputFailed(reason: String)
  }

  /// Serves one client session as ``run(transport:)`` does, and says how it ended.
  /// - Returns: ``SessionEnd/inputClosed`` after a clean end of input,
  ///   ``SessionEnd/outputFailed(reason:)`` when the output stopped taking messages.
  public func serve(transport: some MCPTransport) async -> SessionEnd {
    let session = MCPSession(server: self, transport: transport)
    return await session.run().map { .outputFailed(reason: $0) } ?? .inputClosed
  }
}
