import ContinuityKit
import Foundation
import KnowledgeEngine
import TestSupport

/// A workspace with every record type, built through the engine and the store.
struct SampleWorkspace {
  var decision: KnowledgeItem
  var fact: KnowledgeItem
  var memory: MemoryItem
  var task: TaskItem
  var handoff: Handoff
  var message: ChatMessage

  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

  /// Fills `engine`'s workspace: 5 knowledge items (so one automatic digest), a memory and its
  /// mirror, two tasks (one completed), an active handoff with excerpts, a conversation with two
  /// messages, a receipt, a checkpoint, custom settings and a quarantined record.
  @discardableResult
  static func populate(_ engine: KnowledgeEngine) throws -> SampleWorkspace {
    let decision = try engine.capture(
      CaptureRequest(kind: .decision, title: "Use SQLite for the workspace", content: "WAL and single-row writes.",
                     tags: ["storage", "sqlite"], priority: .high)).item
    let fact = try engine.capture(
      CaptureRequest(kind: .fact, title: "SQLite 3.40 is installed", content: "Debian bookworm ships it.",
                     relationships: [.init(kind: .supports, targetID: decision.id)])).item
    let memory = try engine.saveMemory(text: "Prefers tabs over spaces", tags: ["style"]).memory
    _ = try engine.capture(CaptureRequest(kind: .goal, title: "Ship 1.0 by March", priority: .critical))
    _ = try engine.capture(CaptureRequest(kind: .context, title: "Sprint 12 planning", content: "Export and erase."))
    let task = try engine.addTask(title: "Write the README", notes: "Cover export and import.", priority: .high, knowledgeIDs: [decision.id])
    let done = try engine.addTask(title: "Set up CI")
    _ = try engine.completeTask(id: done.id)
    let handoff = Handoff(
      id: sequentialID(900), focus: "Export format", summary: "Versioned JSON document.",
      nextSteps: ["Write Docs/ExportFormat.md", "Test the round trip"], knowledgeIDs: [decision.id],
      taskIDs: [task.id], recentExcerpts: ["user: how do we restore?", "assistant: dolphin import"],
      createdAt: t0)
    let conversationID = sequentialID(901)
    let message = ChatMessage(id: sequentialID(903), conversationID: conversationID, role: .user, text: "How do we restore a workspace?", createdAt: t0)
    try engine.store.write { tx in
      try tx.insertHandoff(handoff)
      try tx.setActiveHandoffID(handoff.id)
      try tx.insertConversation(Conversation(id: conversationID, title: "Restore", createdAt: t0))
      try tx.insertMessage(message)
      try tx.insertMessage(
        ChatMessage(id: sequentialID(904), conversationID: conversationID, role: .assistant, text: "Run `dolphin import`.", createdAt: t0.addingTimeInterval(1)))
      try tx.insertReceipt(
        ActivityReceipt(
          id: sequentialID(905), callID: "call-1", tool: "knowledge_search", risk: "readOnly", arguments: "{\"query\":\"restore\"}",
          outcome: .succeeded, changedIDs: [], startedAt: t0, finishedAt: t0.addingTimeInterval(0.25), approval: "notRequired",
          message: "3 results"))
      try tx.insertCheckpoint(RunCheckpoint(id: sequentialID(906), runID: sequentialID(907), step: 1, state: "finished", note: "done", createdAt: t0))
      try tx.setSettings(Settings(assistantName: "Flipper", responseStyle: .concise, calendarAccessEnabled: true, knowledgeItemLimit: 20_000))
      try tx.insertQuarantine(
        .init(sourceFile: "workspace.json", collection: "memories", recordIndex: 3, reason: "text is empty", raw: "{\"text\":\"\"}",
              quarantinedAt: t0))
    }
    return SampleWorkspace(decision: decision, fact: fact, memory: memory, task: task, handoff: handoff, message: message)
  }
}
