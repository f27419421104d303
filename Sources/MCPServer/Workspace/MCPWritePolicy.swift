/// What the server does with a `localWrite` tool call: `dolphin mcp --writes ask|allow|deny`.
///
/// With ``ask`` and ``allow``, a client that declared the elicitation capability is always
/// asked to show the user the exact call; the policy decides only for clients that cannot ask.
/// ``deny`` refuses every local write without asking anyone. Under every policy, a call that
/// will certainly change nothing (``ToolDefinition/unchangedAnswer``: a task completed already)
/// is answered without asking and without the policy.
public enum MCPWritePolicy: String, Sendable, CaseIterable {
  /// The default: ask the user through the client; when the client cannot ask, refuse the
  /// call with a tool error that explains how to allow writes.
  case ask
  /// Ask the user through the client when it can ask; otherwise run local writes without
  /// asking (receipts record `policy:allow`).
  case allow
  /// Refuse every local write, even when the client could ask (receipts record `denied`).
  case deny
}
