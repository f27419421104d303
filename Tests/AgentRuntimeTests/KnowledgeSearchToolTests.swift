import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// `knowledge_search` follows the engine's rule: memories have no kind, so `includeMemories`
/// with `kinds` is a failed call naming the argument, not a list of memories no kind asked for.
@Suite("knowledge_search arguments")
struct KnowledgeSearchToolTests {
  @Test("kinds with includeMemories fails naming includeMemories; each alone succeeds")
  func kindsWithMemories() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use tabs for indentation"))
    _ = try engine.saveMemory(text: "Prefers tabs over spaces")
    let executor = ToolExecutor(engine: engine)
    let both = await executor.execute(
      ToolCall(id: "c1", name: "knowledge_search", arguments: ["query": "tabs", "kinds": ["decision"], "includeMemories": true]),
      approver: StaticApprovalPolicy.allow)
    #expect(both.receipt.outcome == .failed)
    #expect(both.receipt.message.contains("includeMemories cannot be combined with kinds"), "\(both.receipt.message)")
    let kinds = await executor.execute(
      ToolCall(id: "c2", name: "knowledge_search", arguments: ["query": "tabs", "kinds": ["decision"]]),
      approver: StaticApprovalPolicy.allow)
    #expect(kinds.receipt.outcome == .succeeded)
    let memories = await executor.execute(
      ToolCall(id: "c3", name: "knowledge_search", arguments: ["query": "tabs", "includeMemories": true]),
      approver: StaticApprovalPolicy.allow)
    #expect(memories.receipt.outcome == .succeeded)
  }
}
