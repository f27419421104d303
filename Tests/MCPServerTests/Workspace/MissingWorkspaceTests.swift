import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review (s17, F13): on a `--workspace` where nothing exists (a mistyped path, say), a
/// `knowledge_search` answered "no results" and created an empty workspace to store its
/// receipt, while the CLI reports such a path. Reads there now create nothing and say that no
/// workspace exists yet; the first write that succeeds creates it.
@Suite("MCP on a workspace that does not exist yet", .serialized)
struct MissingWorkspaceTests {
  static let unknownID = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

  /// A workspace directory that does not exist, the workspace the server would open there,
  /// and the notice reads must carry.
  struct Place {
    let dir = TemporaryDirectory("mcp-missing-ws")
    var ws: URL { dir.appending("typo-workspace") }
    var workspace: MCPWorkspace {
      let ws = ws
      return MCPWorkspace(path: ws.path) {
        KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite), environment: fixedEnvironment())
      }
    }
    var notice: String {
      "There is no workspace at \(ws.path) yet: nothing has been captured there; the first write that succeeds "
        + "(a capture, memory, task or handoff) creates it. If \(ws.path) is not the workspace meant, correct "
        + "--workspace in the MCP client's configuration."
    }
    var exists: Bool { FileManager.default.fileExists(atPath: ws.path) }
  }

  static let context = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }.context(canElicit: false)

  /// A read-only call and what its normal (empty) answer holds.
  struct Read: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var tool: String
    var arguments: JSONObject
    /// The first line of its usual text, after the notice.
    var usual: String
  }

  static let reads = [
    Read(
      testDescription: "knowledge_search", tool: "knowledge_search",
      arguments: ["query": "what did we decide about the database"],
      usual: "Search mode hybrid-lexical (hybrid-lexical-v1): 0 of 0 match(es)"),
    Read(testDescription: "task_list", tool: "task_list", arguments: [:], usual: "No tasks."),
    Read(testDescription: "knowledge_list", tool: "knowledge_list", arguments: [:], usual: "No knowledge items."),
    Read(testDescription: "handoff_list", tool: "handoff_list", arguments: [:], usual: "No handoffs."),
    Read(
      testDescription: "continuity_insights", tool: "continuity_insights", arguments: [:],
      usual: "Rule-based insights: 0 of 0"),
  ]

  @Test("a read-only call answers as usual, says no workspace exists yet, and creates nothing", arguments: reads)
  func readSaysSoAndCreatesNothing(_ c: Read) async throws {
    let place = Place()
    defer { place.dir.remove() }
    let provider = RegistryToolProvider(workspace: place.workspace, writes: .allow)
    let result = await provider.callTool(name: c.tool, arguments: c.arguments, context: Self.context)
    #expect(!result.isError, "\(result.text)")
    let lines = result.text.split(separator: "\n", maxSplits: 1).map(String.init)
    #expect(lines.first == place.notice)
    #expect(lines.last?.hasPrefix(c.usual) == true, "\(result.text)")
    #expect(
      result.structuredContent?["workspace"]
        == ["path": .string(place.ws.path), "exists": false, "notice": .string(place.notice)])
    #expect(!place.exists, "the read created the workspace")
  }

  @Test("a call that fails there says so after its error; the first write that succeeds creates the workspace, and reads then say nothing of it")
  func failureThenWriteThenRead() async throws {
    let place = Place()
    defer { place.dir.remove() }
    let provider = RegistryToolProvider(workspace: place.workspace, writes: .allow)
    let get = await provider.callTool(name: "knowledge_get", arguments: ["id": .string(Self.unknownID)], context: Self.context)
    #expect(get.isError)
    #expect(get.text == "knowledge_get failed: no knowledge item has the id \(Self.unknownID). \(place.notice)")
    #expect(get.structuredContent?["workspace"]?["exists"] == false)
    #expect(get.structuredContent?["receipt"] == nil)
    let complete = await provider.callTool(name: "task_complete", arguments: ["id": .string(Self.unknownID)], context: Self.context)
    #expect(complete.text == "task_complete failed: no task has the id \(Self.unknownID). \(place.notice)")
    // Refused for its arguments: the workspace was not looked at, so nothing is said of it.
    let invalid = await provider.callTool(name: "knowledge_search", arguments: ["query": "x", "extra": 1], context: Self.context)
    #expect(invalid.isError && invalid.structuredContent?["workspace"] == nil && !invalid.text.contains("no workspace"))
    #expect(!place.exists)

    let capture = await provider.callTool(
      name: "knowledge_capture", arguments: ["kind": "decision", "title": "Use SQLite"], context: Self.context)
    #expect(!capture.isError, "\(capture.text)")
    #expect(capture.structuredContent?["workspace"] == nil)
    #expect(place.exists)
    let search = await provider.callTool(name: "knowledge_search", arguments: ["query": "sqlite"], context: Self.context)
    #expect(search.text.hasPrefix("Search mode hybrid-lexical (hybrid-lexical-v1): 1 of 1 match(es)"), "\(search.text)")
    #expect(search.structuredContent?["workspace"] == nil)
    // Only the calls made once it existed have receipts: the capture's and the search's.
    let receipts = try SQLiteWorkspaceStore.open(directory: place.ws, creation: .never).read { try $0.listReceipts() }
    #expect(receipts.map(\.tool) == ["knowledge_capture", "knowledge_search"])
  }

  @Test("resources and the prompt read there create nothing and say no workspace exists yet")
  func resourcesAndPrompt() throws {
    let place = Place()
    defer { place.dir.remove() }
    let resources = WorkspaceResourceProvider(workspace: place.workspace)
    let digest = try #require(try resources.readResource(uri: WorkspaceResourceProvider.digestURI).first)
    #expect(digest.text.hasSuffix("\n\n\(place.notice)\n"), "\(digest.text)")
    #expect(!digest.text.contains("nothing to summarize"))
    let lowercased = "t" + place.notice.dropFirst().dropLast()
    #expect(
      throws: MCPServerError.resourceNotFound(
        uri: WorkspaceResourceProvider.knowledgeURIPrefix + Self.unknownID,
        reason: "no knowledge item has the id \(Self.unknownID); \(lowercased)")
    ) {
      try resources.readResource(uri: WorkspaceResourceProvider.knowledgeURIPrefix + Self.unknownID)
    }
    #expect(
      throws: MCPServerError.resourceNotFound(
        uri: WorkspaceResourceProvider.activeHandoffURI, reason: "no handoff is active; \(lowercased)")
    ) {
      try resources.readResource(uri: WorkspaceResourceProvider.activeHandoffURI)
    }
    #expect(throws: MCPServerError.invalidParams("no handoff has the id \(Self.unknownID); \(lowercased)")) {
      try WorkspacePromptProvider(workspace: place.workspace).getPrompt(
        name: WorkspacePromptProvider.restoreSessionName, arguments: [WorkspacePromptProvider.handoffArgument: Self.unknownID])
    }
    // `latest` too (s22): the resolver's message, then the notice.
    #expect(
      throws: MCPServerError.invalidParams(
        "handoff_id 'latest' names the newest handoff, and the workspace holds none; create one with handoff_create; \(lowercased)")
    ) {
      try WorkspacePromptProvider(workspace: place.workspace).getPrompt(
        name: WorkspacePromptProvider.restoreSessionName, arguments: [WorkspacePromptProvider.handoffArgument: "latest"])
    }
    #expect(!place.exists)
  }

  @Test("on a workspace that exists, empty answers say nothing of a missing workspace")
  func existingEmptyWorkspace() async throws {
    let fixture = WorkspaceFixture()
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "task_list", arguments: [:], context: Self.context)
    #expect(result.text == "No tasks.")
    #expect(result.structuredContent?["workspace"] == nil)
    let digest = try WorkspaceResourceProvider(workspace: fixture.workspace).readResource(uri: WorkspaceResourceProvider.digestURI)
    #expect(digest.first?.text.hasSuffix("The workspace holds nothing to summarize yet.\n") == true)
  }
}
