import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review 31-a, 2, in the `restore_session` prompt: a carried decision reversed by an edit after
/// the handoff read as though the handoff had been made with it.
@Suite("restore_session: carried knowledge edited since")
struct RestorePromptEditedSinceTests {
  @Test("an item edited after the handoff is marked with its revision; one left as it was is not")
  func marked() throws {
    let fixture = WorkspaceFixture()
    let k = try fixture.capture(.decision, "Use Redis for caching", content: "TTL 30 minutes")
    let kept = try fixture.capture(.fact, "The cache sits behind the API")
    let h = try fixture.engine.createHandoff(
      HandoffRequest(focus: "Caching", summary: "We chose Redis; TTL 30 minutes.", knowledgeIDs: [k.id, kept.id])).handoff
    _ = try fixture.engine.editKnowledge(id: k.id, KnowledgeEdit(title: "Do not use Redis for caching"))
    let text = try #require(
      try WorkspacePromptProvider(workspace: fixture.workspace).getPrompt(
        name: WorkspacePromptProvider.restoreSessionName, arguments: [WorkspacePromptProvider.handoffArgument: h.id.uuidString]
      ).messages.first?.text)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(
      lines.contains("[decision \(k.id.uuidString)] \"Do not use Redis for caching\" (edited since this handoff, revision 2)"),
      "\(text)")
    #expect(lines.contains("[fact \(kept.id.uuidString)] \"The cache sits behind the API\""), "\(text)")
  }
}
