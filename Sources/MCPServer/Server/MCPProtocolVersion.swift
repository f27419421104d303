/// The MCP revisions this server speaks, oldest first.
///
/// What changes with the revision in what we send:
/// - 2025-03-26: no `title` on tools, resources, prompts or server info; no `outputSchema` or
///   `structuredContent` (the text rendering carries the result); no elicitation; JSON-RPC
///   batches from the client are accepted (answered with one array of responses).
/// - 2025-06-18: adds `title`, `outputSchema`, `structuredContent` and form elicitation
///   (`elicitation/create` without a `mode`); removes JSON-RPC batching.
/// - 2025-11-25: elicitation requests name their mode (`"mode": "form"`); the client's
///   `elicitation` capability may list `form` and `url` (an empty object means form only).
///
/// - Source: MCP specification changelogs for 2025-06-18 and 2025-11-25; Base Protocol ›
///   Lifecycle › Version Negotiation.
public enum MCPProtocolVersion: String, Sendable, CaseIterable, Comparable {
  case v2025_03_26 = "2025-03-26"
  case v2025_06_18 = "2025-06-18"
  case v2025_11_25 = "2025-11-25"

  /// The newest revision, offered to clients that ask for one we do not know.
  public static let latest = MCPProtocolVersion.v2025_11_25

  /// The revision to answer `requested` with: the same one when we speak it, else ``latest``.
  ///
  /// The spec: "the server MUST respond with another protocol version it supports. This SHOULD
  /// be the latest version supported by the server". Unknown future revisions, older ones
  /// (`2024-11-05`) and malformed strings all get ``latest``; the client decides whether to
  /// continue.
  public static func negotiate(_ requested: String) -> MCPProtocolVersion {
    MCPProtocolVersion(rawValue: requested) ?? latest
  }

  /// Whether `lhs` is the older revision.
  public static func < (lhs: MCPProtocolVersion, rhs: MCPProtocolVersion) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// Whether `title`, `outputSchema` and `structuredContent` exist in this revision.
  var hasTitlesAndStructuredContent: Bool { self >= .v2025_06_18 }
  /// Whether the server may send `elicitation/create` in this revision.
  var hasElicitation: Bool { self >= .v2025_06_18 }
  /// Whether elicitation requests carry `mode`.
  var hasElicitationModes: Bool { self >= .v2025_11_25 }
  /// Whether the client may send JSON-RPC batches: 2025-03-26 requires receiving them, 2025-06-18
  /// removed them.
  var acceptsBatches: Bool { self < .v2025_06_18 }
}
