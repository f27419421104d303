import ContinuityKit

// The JSON shapes of the MCP schema (schema.ts of each revision) for what the server sends.
// Members a revision does not define are left out for that revision.

extension JSONObject {
  /// Sets `key` to `value` when `value` is non-nil.
  fileprivate mutating func set(_ key: String, _ value: String?) {
    if let value { self[key] = .string(value) }
  }

  fileprivate mutating func set(_ key: String, _ value: Bool?) {
    if let value { self[key] = .bool(value) }
  }
}

extension MCPToolDescriptor {
  /// `Tool`.
  func wireValue(_ version: MCPProtocolVersion) -> JSONValue {
    var object: JSONObject = ["name": .string(name)]
    if version.hasTitlesAndStructuredContent { object.set("title", title) }
    object["description"] = .string(description)
    object["inputSchema"] = .object(inputSchema)
    if version.hasTitlesAndStructuredContent, let outputSchema {
      object["outputSchema"] = .object(outputSchema)
    }
    if let annotations {
      var hints = JSONObject()
      hints.set("readOnlyHint", annotations.readOnlyHint)
      hints.set("destructiveHint", annotations.destructiveHint)
      hints.set("idempotentHint", annotations.idempotentHint)
      hints.set("openWorldHint", annotations.openWorldHint)
      object["annotations"] = .object(hints)
    }
    return .object(object)
  }
}

extension MCPToolResult {
  /// `CallToolResult`.
  ///
  /// The structured details of a failed call (`isError`) go in a second text block, as JSON,
  /// never in `structuredContent`: a tool's `outputSchema` describes its success, the
  /// specification asks for structured results that conform to it, and clients that validate
  /// error results too (the TypeScript SDK before typescript-sdk#1945) would otherwise replace
  /// the error with a schema mismatch.
  func wireValue(_ version: MCPProtocolVersion) -> JSONValue {
    var content: [JSONValue] = [["type": "text", "text": .string(text)]]
    var object: JSONObject = ["isError": .bool(isError)]
    if let structuredContent {
      if isError {
        content.append(["type": "text", "text": .string(JSONValue.object(structuredContent).jsonString())])
      } else if version.hasTitlesAndStructuredContent {
        object["structuredContent"] = .object(structuredContent)
      }
    }
    object["content"] = .array(content)
    return .object(object)
  }
}

extension MCPResource {
  /// `Resource`.
  func wireValue(_ version: MCPProtocolVersion) -> JSONValue {
    var object: JSONObject = ["uri": .string(uri), "name": .string(name)]
    if version.hasTitlesAndStructuredContent { object.set("title", title) }
    object.set("description", description)
    object.set("mimeType", mimeType)
    if let size { object["size"] = .integer(size) }
    return .object(object)
  }
}

extension MCPResourceTemplate {
  /// `ResourceTemplate`.
  func wireValue(_ version: MCPProtocolVersion) -> JSONValue {
    var object: JSONObject = ["uriTemplate": .string(uriTemplate), "name": .string(name)]
    if version.hasTitlesAndStructuredContent { object.set("title", title) }
    object.set("description", description)
    object.set("mimeType", mimeType)
    return .object(object)
  }
}

extension MCPResourceContents {
  /// `TextResourceContents`.
  var wireValue: JSONValue {
    var object: JSONObject = ["uri": .string(uri)]
    object.set("mimeType", mimeType)
    object["text"] = .string(text)
    return .object(object)
  }
}

extension MCPPrompt {
  /// `Prompt`.
  func wireValue(_ version: MCPProtocolVersion) -> JSONValue {
    var object: JSONObject = ["name": .string(name)]
    if version.hasTitlesAndStructuredContent { object.set("title", title) }
    object.set("description", description)
    object["arguments"] = .array(
      arguments.map { argument in
        var item: JSONObject = ["name": .string(argument.name)]
        if version.hasTitlesAndStructuredContent { item.set("title", argument.title) }
        item.set("description", argument.description)
        item["required"] = .bool(argument.required)
        return .object(item)
      })
    return .object(object)
  }
}

extension MCPPromptResult {
  /// `GetPromptResult`.
  var wireValue: JSONValue {
    var object = JSONObject()
    object.set("description", description)
    object["messages"] = .array(
      messages.map { message in
        [
          "role": .string(message.role.rawValue),
          "content": ["type": "text", "text": .string(message.text)],
        ]
      })
    return .object(object)
  }
}
