import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

import AgentRuntime

/// Review 31-a, 2: MCP `handoff_restore` read `Since it was made (…): 0 knowledge items captured,
/// 0 tasks added, completed or updated.` after a carried decision was reversed by an edit.
@Suite("handoff_restore: carried knowledge edited since")
struct RestoreEditedSinceToolTests {
  @Test("the since line counts the edit, the item's line names its revision, and stale says why")
  func editedSince() async throws {
    let engine = makeEngine()
    let k = try engine.capture(CaptureRequest(kind: .decision, title: "Use Redis for caching", content: "TTL 30 minutes")).item
    let h = try engine.createHandoff(HandoffRequest(focus: "Caching", summary: "We chose Redis; TTL 30 minutes.", knowledgeIDs: [k.id]))
    _ = try engine.editKnowledge(id: k.id, KnowledgeEdit(title: "Do not use Redis for caching"))
    let r = await ToolExecutor(engine: engine).execute(
      ToolCall(id: "r", name: "handoff_restore", arguments: ["id": .string(h.handoff.id.uuidString)]),
      approver: StaticApprovalPolicy.allow)
    let text = try #require(r.output?.text, "\(String(describing: r.error))")
    let lines = text.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix("Since it was made (") && $0.hasSuffix(
          "): 0 knowledge items captured, 1 knowledge item it carries edited, 0 tasks added, completed or updated.")
      }, "\(text)")
    #expect(
      lines.contains(#"Knowledge: "Do not use Redis for caching" (id \#(k.id.uuidString); edited since this handoff, revision 2)"#),
      "\(text)")
    #expect(
      lines.contains { $0.hasPrefix("May be stale (rule stale-handoff, priority normal): 1 knowledge item it carries was edited after it;") },
      "\(text)")
    let structured = try #require(r.output?.structured.object)
    #expect(structured["editedSince"]?.int == 1, "\(structured)")
  }
}
