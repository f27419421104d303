import ContinuityKit

// The server features: tools, resources and prompts, each mapped onto its provider.
// Pagination: tools and prompts come in one page (a cursor we never issued is -32602);
// resources page as their provider decides.
extension MCPSession {
  // MARK: Tools

  /// `tools/list` → `{"tools": [Tool]}`.
  func listTools(_ params: JSONObject) async throws -> JSONValue {
    if let cursor = try cursor(in: params) { throw MCPServerError.invalidCursor(cursor) }
    let tools = try await toolProvider().listTools()
    let version = protocolVersion
    return ["tools": .array(tools.map { $0.wireValue(version) })]
  }

  /// `tools/call` → `CallToolResult`; unknown tool: -32602; provider failures: `isError`.
  func callTool(_ request: JSONRPCRequest) async throws -> JSONValue {
    let provider = try toolProvider()
    guard let name = request.params["name"]?.string else {
      throw MCPServerError.invalidParams(
        "tools/call needs params.name, the tool's name as a string")
    }
    let arguments: JSONObject
    switch request.params["arguments"] {
    case nil, .null?: arguments = [:]
    case .object(let members)?: arguments = members
    case let other?:
      throw MCPServerError.invalidParams(
        "params.arguments of tools/call must be an object, got \(other.kindWithArticle)")
    }
    guard try await provider.listTools().contains(where: { $0.name == name }) else {
      throw MCPServerError.unknownTool(name: name)
    }
    let context = makeToolCallContext(request.id)
    let version = protocolVersion
    do {
      let result = try await provider.callTool(name: name, arguments: arguments, context: context)
      return result.wireValue(version)
    } catch let error as MCPServerError where error.jsonRPCError != nil {
      throw error
    } catch {
      // A tool execution error: reported in the result so the model can read it and retry.
      return MCPToolResult.error("\(name) failed: \(error)").wireValue(version)
    }
  }

  private func makeToolCallContext(_ id: JSONRPCRequestID) -> MCPToolCallContext {
    let canElicit =
      phase == .ready && protocolVersion.hasElicitation && clientSupportsFormElicitation
    // What the result may take of the response bound: the envelope and the id echoed take the
    // rest (`null` stands in for the result).
    let bound = server.configuration.limits.maximumResponseBytes
    let envelope = JSONRPCMessage.response(JSONRPCResponse(id: id, outcome: .success(.null))).serialized().count - 4
    return MCPToolCallContext(
      requestID: id, protocolVersion: protocolVersion, clientInfo: clientInfo, canElicit: canElicit,
      responseBound: .init(responseBytes: bound, resultBytes: bound - envelope)
    ) { message, schema in
      try await self.elicit(message: message, requestedSchema: schema)
    }
  }

  /// Sends `elicitation/create` (form mode) and reads the `ElicitResult`.
  ///
  /// - Source: MCP 2025-11-25, Client Features › Elicitation › Form Mode, Response Actions.
  private func elicit(message: String, requestedSchema: JSONObject) async throws
    -> MCPElicitationResult
  {
    var params = JSONObject()
    if protocolVersion.hasElicitationModes { params["mode"] = "form" }
    params["message"] = .string(message)
    params["requestedSchema"] = .object(requestedSchema)
    let result = try await requestFromClient("elicitation/create", params: params)
    guard let action = result["action"]?.string.flatMap(MCPElicitationResult.Action.init(rawValue:))
    else {
      throw MCPServerError.invalidClientResponse(
        "elicitation/create needs a result with action accept, decline or cancel; got \(result.jsonString())"
      )
    }
    switch result["content"] {
    case nil, .null?:
      return MCPElicitationResult(action: action)
    case .object(let content)?:
      return MCPElicitationResult(action: action, content: content)
    case let other?:
      throw MCPServerError.invalidClientResponse(
        "elicitation content must be an object, got \(other.kindWithArticle)")
    }
  }

  // MARK: Resources

  /// `resources/list` → `{"resources": [Resource], "nextCursor"?: string}`.
  func listResources(_ params: JSONObject) async throws -> JSONValue {
    let page = try await resourceProvider().listResources(cursor: try cursor(in: params))
    let version = protocolVersion
    var result: JSONObject = ["resources": .array(page.resources.map { $0.wireValue(version) })]
    if let next = page.nextCursor { result["nextCursor"] = .string(next) }
    return .object(result)
  }

  /// `resources/templates/list` → `{"resourceTemplates": [ResourceTemplate]}`.
  func listResourceTemplates(_ params: JSONObject) async throws -> JSONValue {
    if let cursor = try cursor(in: params) { throw MCPServerError.invalidCursor(cursor) }
    let templates = try await resourceProvider().listResourceTemplates()
    let version = protocolVersion
    return ["resourceTemplates": .array(templates.map { $0.wireValue(version) })]
  }

  /// `resources/read` → `{"contents": [TextResourceContents]}`; unknown URI: -32002.
  func readResource(_ params: JSONObject) async throws -> JSONValue {
    guard let uri = params["uri"]?.string else {
      throw MCPServerError.invalidParams(
        "resources/read needs params.uri, a string such as dolphin://digest/current")
    }
    let contents = try await resourceProvider().readResource(uri: uri)
    return ["contents": .array(contents.map(\.wireValue))]
  }

  // MARK: Prompts

  /// `prompts/list` → `{"prompts": [Prompt]}`.
  func listPrompts(_ params: JSONObject) async throws -> JSONValue {
    if let cursor = try cursor(in: params) { throw MCPServerError.invalidCursor(cursor) }
    let prompts = try await promptProvider().listPrompts()
    let version = protocolVersion
    return ["prompts": .array(prompts.map { $0.wireValue(version) })]
  }

  /// `prompts/get` → `GetPromptResult`; unknown prompt, missing or undeclared argument: -32602.
  func getPrompt(_ params: JSONObject) async throws -> JSONValue {
    let provider = try promptProvider()
    guard let name = params["name"]?.string else {
      throw MCPServerError.invalidParams(
        "prompts/get needs params.name, the prompt's name as a string")
    }
    var arguments: [String: String] = [:]
    switch params["arguments"] {
    case nil, .null?:
      break
    case .object(let members)?:
      for (key, value) in members {
        guard let text = value.string else {
          throw MCPServerError.invalidParams(
            "prompt argument \(key) must be a string, got \(value.kindWithArticle)")
        }
        arguments[key] = text
      }
    case let other?:
      throw MCPServerError.invalidParams(
        "params.arguments of prompts/get must be an object, got \(other.kindWithArticle)")
    }
    guard let prompt = try await provider.listPrompts().first(where: { $0.name == name }) else {
      throw MCPServerError.unknownPrompt(name: name)
    }
    let declared = Set(prompt.arguments.map(\.name))
    if let extra = arguments.keys.sorted().first(where: { !declared.contains($0) }) {
      let accepted = prompt.arguments.map(\.name).joined(separator: ", ")
      throw MCPServerError.invalidParams(
        "prompt \(name) has no argument \(extra); it takes: \(accepted.isEmpty ? "none" : accepted)"
      )
    }
    if let missing = prompt.arguments.first(where: { $0.required && arguments[$0.name] == nil }) {
      throw MCPServerError.invalidParams("prompt \(name) needs the argument \(missing.name)")
    }
    return try await provider.getPrompt(name: name, arguments: arguments).wireValue
  }

  // MARK: Helpers

  /// `params.cursor`: nil when absent or null.
  private func cursor(in params: JSONObject) throws -> String? {
    switch params["cursor"] {
    case nil, .null?: return nil
    case .string(let cursor)?: return cursor
    case let other?:
      throw MCPServerError.invalidParams("params.cursor must be a string, got \(other.kindWithArticle)")
    }
  }

  private func toolProvider() throws -> any MCPToolProvider {
    guard let provider = server.tools else { throw JSONRPCError.methodNotFound("tools/*") }
    return provider
  }

  private func resourceProvider() throws -> any MCPResourceProvider {
    guard let provider = server.resources else { throw JSONRPCError.methodNotFound("resources/*") }
    return provider
  }

  private func promptProvider() throws -> any MCPPromptProvider {
    guard let provider = server.prompts else { throw JSONRPCError.methodNotFound("prompts/*") }
    return provider
  }
}
