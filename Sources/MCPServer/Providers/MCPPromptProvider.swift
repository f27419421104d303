/// The seam for prompt templates: the server lists prompts and fills them in through it.
///
/// The server checks `prompts/get` against ``listPrompts()`` first: an unknown name, a missing
/// required argument, an argument the prompt does not declare, or a non-string value is
/// answered -32602 without calling ``getPrompt(name:arguments:)``. Throw
/// ``MCPServerError/invalidParams(_:)`` for an argument value you refuse (-32602); other errors
/// are answered -32603.
///
/// - Source: MCP 2025-11-25, Server Features › Prompts.
public protocol MCPPromptProvider: Sendable {
  /// Every prompt offered.
  func listPrompts() async throws -> [MCPPrompt]

  /// The messages of prompt `name` filled in with `arguments` (all declared required ones
  /// present, every value a string).
  func getPrompt(name: String, arguments: [String: String]) async throws -> MCPPromptResult
}

/// A prompt template (`Prompt`).
public struct MCPPrompt: Sendable, Equatable {
  /// The unique name.
  public var name: String
  /// The display name (sent from revision 2025-06-18 on).
  public var title: String?
  /// What it is for.
  public var description: String?
  /// The arguments it takes.
  public var arguments: [MCPPromptArgument]

  /// Memberwise: each parameter sets the property of the same name.
  public init(
    name: String, title: String? = nil, description: String? = nil,
    arguments: [MCPPromptArgument] = []
  ) {
    self.name = name
    self.title = title
    self.description = description
    self.arguments = arguments
  }
}

/// One argument of a prompt (`PromptArgument`).
public struct MCPPromptArgument: Sendable, Equatable {
  /// The argument's name.
  public var name: String
  /// The display name (sent from revision 2025-06-18 on).
  public var title: String?
  /// What to pass.
  public var description: String?
  /// Whether it must be given.
  public var required: Bool

  /// Memberwise: each parameter sets the property of the same name.
  public init(
    name: String, title: String? = nil, description: String? = nil, required: Bool = false
  ) {
    self.name = name
    self.title = title
    self.description = description
    self.required = required
  }
}

/// A filled-in prompt (`GetPromptResult`).
public struct MCPPromptResult: Sendable, Equatable {
  /// An optional description of this instance.
  public var description: String?
  /// The messages, in order.
  public var messages: [MCPPromptMessage]

  /// Memberwise: each parameter sets the property of the same name.
  public init(description: String? = nil, messages: [MCPPromptMessage]) {
    self.description = description
    self.messages = messages
  }
}

/// One text message of a prompt (`PromptMessage` with text content).
public struct MCPPromptMessage: Sendable, Equatable {
  /// Who speaks it.
  public enum Role: String, Sendable, Equatable {
    case user
    case assistant
  }

  /// Who speaks it.
  public var role: Role
  /// The text.
  public var text: String

  /// Memberwise: each parameter sets the property of the same name.
  public init(role: Role, text: String) {
    self.role = role
    self.text = text
  }
}
