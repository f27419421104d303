import ContinuityKit

extension MCPSession {
  /// Answers `initialize`: negotiates the revision, records the client's capabilities and
  /// info, and describes the server.
  ///
  /// Result shape: `{"protocolVersion": string, "capabilities": {"tools"?: {"listChanged":
  /// false}, "resources"?: {"subscribe": false, "listChanged": false}, "prompts"?:
  /// {"listChanged": false}}, "serverInfo": {"name", "version", "title"?}, "instructions"?}`.
  ///
  /// - Source: MCP 2025-11-25, Base Protocol › Lifecycle › Initialization, Version Negotiation,
  ///   Capability Negotiation.
  func initialize(_ request: JSONRPCRequest) -> JSONRPCResponse {
    guard phase == .awaitingInitialize else {
      return .error(
        .invalidRequest(
          "initialize was already answered in this session; a connection is initialized once"),
        id: request.id)
    }
    guard let requested = request.params["protocolVersion"]?.string else {
      return .error(
        .invalidParams(#"initialize needs params.protocolVersion, a string such as "2025-11-25""#),
        id: request.id)
    }
    switch request.params["capabilities"] {
    case nil, .null?:
      clientCapabilities = [:]
    case .object(let capabilities)?:
      // Unknown members and anything inside `experimental` are kept as sent, never rejected.
      clientCapabilities = capabilities
    case let other?:
      return .error(
        .invalidParams("params.capabilities must be an object, got \(other.kindWithArticle)"),
        id: request.id)
    }
    clientInfo = request.params["clientInfo"]?.object ?? [:]
    protocolVersion = MCPProtocolVersion.negotiate(requested)
    if protocolVersion.rawValue != requested {
      // The client's text, quoted with its controls escaped and cut short (review 19-a).
      log(
        "the client asked for MCP revision \(MCPServerError.quoted(requested)); answering with \(protocolVersion.rawValue)"
      )
    }
    phase = .initialized
    return .result(initializeResult(), id: request.id)
  }

  private func initializeResult() -> JSONValue {
    let configuration = server.configuration
    var capabilities = JSONObject()
    if server.prompts != nil { capabilities["prompts"] = ["listChanged": false] }
    if server.resources != nil {
      capabilities["resources"] = ["subscribe": false, "listChanged": false]
    }
    if server.tools != nil { capabilities["tools"] = ["listChanged": false] }
    var info: JSONObject = [
      "name": .string(configuration.name), "version": .string(configuration.version),
    ]
    if protocolVersion.hasTitlesAndStructuredContent, let title = configuration.title {
      info["title"] = .string(title)
    }
    var result: JSONObject = [
      "protocolVersion": .string(protocolVersion.rawValue),
      "capabilities": .object(capabilities),
      "serverInfo": .object(info),
    ]
    if let instructions = configuration.instructions {
      result["instructions"] = .string(instructions)
    }
    return .object(result)
  }

  /// Whether the client declared form-mode elicitation: `"elicitation": {}` (form only, for
  /// backwards compatibility) or an object with a `form` member.
  var clientSupportsFormElicitation: Bool {
    guard let elicitation = clientCapabilities["elicitation"]?.object else { return false }
    return elicitation.isEmpty || elicitation.contains("form")
  }
}
