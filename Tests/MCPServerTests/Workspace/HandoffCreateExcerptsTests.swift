import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review 31-a, 9: `handoff_create`'s description promised "recent chat excerpts", which an MCP
/// call never stores: its schema has no excerpt argument, and with chat messages stored in the
/// workspace the handoff still held none. The description now says where excerpts come from.
@Suite("MCP handoff_create: what it says of chat excerpts")
struct HandoffCreateExcerptsTests {
  @Test("the description says excerpts come only from a dolphin ask session, and an MCP call stores none")
  func noExcerptsOverMCP() async throws {
    let tool = try ToolRegistry.standard.tool(named: "handoff_create")
    #expect(!tool.description.contains("recent chat excerpts"), "\(tool.description)")
    #expect(tool.description.contains("only in a `dolphin ask` session"), "\(tool.description)")
    #expect(tool.description.contains("over MCP no chat is stored, so the handoff has none"), "\(tool.description)")

    // Eight chat messages stored in the workspace (as `dolphin ask` stores them): still none copied.
    let fixture = WorkspaceFixture()
    let conversation = Conversation(id: sequentialID(900), title: "Chat", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
    try fixture.engine.store.write { tx in
      try tx.insertConversation(conversation)
      for i in 0..<8 {
        try tx.appendMessage(
          ChatMessage(
            id: sequentialID(901 + i), conversationID: conversation.id, role: i % 2 == 0 ? .user : .assistant,
            text: "message \(i)", createdAt: conversation.createdAt.addingTimeInterval(Double(i))))
      }
    }
    let result = await RegistryToolProvider(workspace: fixture.workspace, writes: .allow).callTool(
      name: "handoff_create", arguments: ["focus": "Storage layer"],
      context: FakeElicitation { MCPElicitationResult(action: .decline) }.context(canElicit: false))
    #expect(!result.isError, "\(result.text)")
    #expect(result.text.contains("0 excerpt(s)"), "\(result.text)")
    #expect(try fixture.engine.listHandoffs().handoffs.map(\.recentExcerpts) == [[]])
  }
}
