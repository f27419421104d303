import ContinuityKit
import MCPServer
import Synchronization

/// Things the fake providers did, for tests to wait on and inspect.
final class Recorder: Sendable {
  private let entries = Mutex<[String]>([])

  func record(_ entry: String) {
    entries.withLock { $0.append(entry) }
  }

  var all: [String] { entries.withLock { $0 } }

  /// Waits (polling every 5 ms) until `entry` has been recorded; false after `timeout`.
  func waitFor(_ entry: String, timeout: Duration = testOutboundWait) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if all.contains(entry) { return true }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return false
  }
}

struct FakeToolFailure: Error, CustomStringConvertible {
  var description: String { "the disk is full (fake)" }
}

/// Four tools: `echo` (read-only, structured), `write_note` (a local write that asks for
/// approval through elicitation), `fail` (throws), `slow` (waits until cancelled).
struct FakeTools: MCPToolProvider {
  let recorder = Recorder()
  /// Notes written by approved `write_note` calls.
  let notes = Recorder()

  func listTools() -> [MCPToolDescriptor] {
    [
      MCPToolDescriptor(
        name: "echo", title: "Echo", description: "Returns its arguments.",
        inputSchema: ["type": "object"],
        outputSchema: [
          "type": "object", "properties": ["echo": ["type": "object"]], "required": ["echo"],
        ],
        annotations: MCPToolAnnotations(
          readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false)),
      MCPToolDescriptor(
        name: "write_note", title: "Write a note",
        description: "Saves a note after the user approves.",
        inputSchema: [
          "type": "object", "properties": ["text": ["type": "string"]], "required": ["text"],
          "additionalProperties": false,
        ],
        annotations: MCPToolAnnotations(
          readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false)),
      MCPToolDescriptor(
        name: "fail", description: "Always fails.", inputSchema: ["type": "object"]),
      MCPToolDescriptor(
        name: "slow", description: "Waits an hour unless cancelled.", inputSchema: ["type": "object"]),
    ]
  }

  func callTool(name: String, arguments: JSONObject, context: MCPToolCallContext) async throws
    -> MCPToolResult
  {
    recorder.record("\(name) started")
    switch name {
    case "echo":
      return MCPToolResult(
        text: JSONValue.object(arguments).jsonString(sortedKeys: true),
        structuredContent: ["echo": .object(arguments)])
    case "write_note":
      guard let text = arguments["text"]?.string else {
        throw MCPServerError.invalidParams("write_note needs arguments.text, a string")
      }
      guard context.canElicit else {
        return .error(
          "write_note changes the workspace and this client cannot ask for approval; start the server with --writes allow"
        )
      }
      let call = JSONValue.object(["name": "write_note", "arguments": .object(arguments)])
        .jsonString(sortedKeys: true)
      let answer: MCPElicitationResult
      do {
        answer = try await context.elicit(
          message: "Allow this call? \(call)",
          requestedSchema: ["type": "object", "properties": [:]])
      } catch {
        recorder.record("write_note elicitation threw \(error)")
        throw error
      }
      guard answer.action == .accept else {
        return .error(
          "denied: the user chose \(answer.action.rawValue); nothing was written",
          structuredContent: ["status": "denied"])
      }
      notes.record(text)
      return MCPToolResult(text: "saved", structuredContent: ["status": "written"])
    case "fail":
      throw FakeToolFailure()
    case "slow":
      do {
        // Long enough that only a cancellation ends it on a loaded machine: with 30 s, a full run
        // on two busy cores once handled the cancellation after the sleep had ended by itself.
        try await Task.sleep(for: .seconds(3600))
      } catch {
        recorder.record("slow cancelled")
        throw error
      }
      return MCPToolResult(text: "finished")
    default:
      throw MCPServerError.unknownTool(name: name)
    }
  }
}

/// Five knowledge items paged two at a time, plus the current digest.
struct FakeResources: MCPResourceProvider {
  static let items = (1...5).map {
    MCPResource(
      uri: "dolphin://knowledge/\($0)", name: "item-\($0)", title: "Item \($0)",
      mimeType: "text/markdown")
  }

  func listResources(cursor: String?) throws -> MCPResourcePage {
    let start: Int
    switch cursor {
    case nil: start = 0
    case let cursor? where cursor.hasPrefix("offset:"):
      guard let offset = Int(cursor.dropFirst("offset:".count)),
        (0..<Self.items.count).contains(offset)
      else {
        throw MCPServerError.invalidCursor(cursor)
      }
      start = offset
    case let cursor?:
      throw MCPServerError.invalidCursor(cursor)
    }
    let end = min(start + 2, Self.items.count)
    return MCPResourcePage(
      resources: Array(Self.items[start..<end]),
      nextCursor: end < Self.items.count ? "offset:\(end)" : nil)
  }

  func listResourceTemplates() -> [MCPResourceTemplate] {
    [
      MCPResourceTemplate(
        uriTemplate: "dolphin://knowledge/{id}", name: "knowledge", title: "Knowledge item",
        mimeType: "text/markdown")
    ]
  }

  func readResource(uri: String) throws -> [MCPResourceContents] {
    if uri == "dolphin://digest/current" {
      return [MCPResourceContents(uri: uri, mimeType: "text/markdown", text: "# Digest")]
    }
    guard let item = Self.items.first(where: { $0.uri == uri }) else {
      throw MCPServerError.resourceNotFound(uri: uri)
    }
    return [MCPResourceContents(uri: uri, mimeType: item.mimeType, text: "Body of \(item.name)")]
  }
}

/// One prompt that restores a session from a handoff.
struct FakePrompts: MCPPromptProvider {
  func listPrompts() -> [MCPPrompt] {
    [
      MCPPrompt(
        name: "restore_session", title: "Restore a session", description: "Context from a handoff.",
        arguments: [
          MCPPromptArgument(name: "handoff_id", description: "The handoff's UUID.", required: true)
        ])
    ]
  }

  func getPrompt(name: String, arguments: [String: String]) -> MCPPromptResult {
    MCPPromptResult(
      description: "Restore \(arguments["handoff_id"] ?? "?")",
      messages: [
        MCPPromptMessage(role: .user, text: "Context for handoff \(arguments["handoff_id"] ?? "?")")
      ])
  }
}
