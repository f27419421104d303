import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-c, finding 2: the plan of a `knowledge delete` said "nothing else refers to it"
/// while a chat message and a handoff's copied excerpt still quoted the item's title and id.
@Suite("Deletion plans name the kept records that quote what they delete")
struct DeletionKeptQuotesTests {
  static let date = Date(timeIntervalSince1970: 1_790_000_000)

  static func engine() -> KnowledgeEngine {
    KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
  }

  /// Stores one conversation titled `title` with `messages`, a receipt per `receipts` (arguments,
  /// changed ids) and a checkpoint per `notes`.
  static func activity(
    _ engine: KnowledgeEngine, title: String = "Chat", messages: [String], receipts: [(String, [UUID])] = [], notes: [String] = []
  ) throws {
    try engine.store.write { tx in
      let conversation = Conversation(id: UUID(), title: title, createdAt: date)
      try tx.insertConversation(conversation)
      for text in messages {
        try tx.appendMessage(ChatMessage(id: UUID(), conversationID: conversation.id, role: .assistant, text: text, createdAt: date))
      }
      for (arguments, changed) in receipts {
        try tx.insertReceipt(
          ActivityReceipt(
            id: UUID(), callID: "c", tool: "knowledge_search", risk: "readOnly", arguments: arguments, outcome: .succeeded,
            changedIDs: changed, startedAt: date, finishedAt: date))
      }
      for note in notes { try tx.insertCheckpoint(RunCheckpoint(id: UUID(), runID: UUID(), step: 0, state: "planned", note: note, createdAt: date)) }
    }
  }

  @Test("a knowledge item quoted by title (any case) or id in messages, receipts, checkpoints, excerpts and a conversation title")
  func knowledgeQuotes() throws {
    let engine = Self.engine()
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Staging DB host is db-staging.internal")).item
    try Self.activity(
      engine, title: "staging db host is DB-STAGING.INTERNAL?",
      messages: [
        "Found: [\(item.id.uuidString.lowercased())] fact", "STAGING DB HOST IS DB-STAGING.INTERNAL", "unrelated words",
      ],
      receipts: [(#"{"query":"staging db host"}"#, [item.id]), (#"{"query":"other"}"#, [])],
      notes: ["explicit command /get \(item.id.uuidString)", "small talk"])
    _ = try engine.createHandoff(
      HandoffRequest(focus: "Staging work", recentExcerpts: ["user: staging db host", "assistant: Staging DB host is db-staging.internal"]))
    _ = try engine.createHandoff(HandoffRequest(focus: "Elsewhere", recentExcerpts: ["user: hello"]))

    let plan = try engine.planDeletion(of: .knowledge(item.id))
    #expect(plan.changes.isEmpty)
    #expect(
      plan.keptQuotes == [
        .init(collection: "messages", count: 2), .init(collection: "receipts", count: 1),
        .init(collection: "checkpoints", count: 1), .init(collection: "handoffExcerpts", count: 1),
        .init(collection: "conversations", count: 1),
      ])
    // Informational: a message written after the plan was shown does not refuse it.
    try Self.activity(engine, messages: ["Staging DB host is db-staging.internal, again"])
    let report = try engine.apply(plan)
    #expect(report.removedIDs == [item.id])
  }

  @Test("nothing quoting it: no kept quotes; a title under 4 characters is not looked for, the id is")
  func shortTitleAndNoQuotes() throws {
    let engine = Self.engine()
    let quiet = try engine.capture(CaptureRequest(kind: .fact, title: "Never mentioned anywhere")).item
    let short = try engine.capture(CaptureRequest(kind: .fact, title: "Go")).item
    try Self.activity(engine, messages: ["Go go go", "see \(short.id.uuidString)"])
    #expect(try engine.planDeletion(of: .knowledge(quiet.id)).keptQuotes.isEmpty)
    #expect(try engine.planDeletion(of: .knowledge(short.id)).keptQuotes == [.init(collection: "messages", count: 1)])
  }

  @Test("tasks, memories (mirror id and first line) and handoffs (focus; its own excerpts go with it)")
  func otherTargets() throws {
    let engine = Self.engine()
    let task = try engine.addTask(title: "Rotate the staging keys")
    let memory = try engine.saveMemory(text: "Tom reviews in the afternoon\nand never on Fridays")
    try Self.activity(
      engine,
      messages: ["Added task: rotate the staging keys", "Saved: tom reviews in the afternoon", "mirror \(memory.mirror.id.uuidString)"])
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Key rotation week", recentExcerpts: ["Key rotation week"])).handoff
    #expect(try engine.planDeletion(of: .task(task.id)).keptQuotes == [.init(collection: "messages", count: 1)])
    #expect(try engine.planDeletion(of: .memory(memory.memory.id)).keptQuotes == [.init(collection: "messages", count: 2)])
    #expect(try engine.planDeletion(of: .handoff(handoff.id)).keptQuotes.isEmpty, "its own excerpt is deleted with it")
  }

  /// Review 24-a, 5: the match ran on the receipt's JSON text, where `Use "strict" mode` reads
  /// `Use \"strict\" mode`, and the plan said "nothing else refers to it".
  @Test("a title holding a quote or a backslash is found in a receipt's arguments, decoded", arguments: [
    #"Use "strict" mode"#, #"Path C:\Users\ann"#,
  ])
  func quotedTitleInReceipt(_ title: String) throws {
    let engine = Self.engine()
    let item = try engine.capture(CaptureRequest(kind: .fact, title: title)).item
    let other = try engine.capture(CaptureRequest(kind: .fact, title: "Never quoted anywhere")).item
    let arguments = JSONValue.object(["query": .string(title.uppercased())]).jsonString(sortedKeys: true)
    #expect(!arguments.localizedCaseInsensitiveContains(item.title), "the JSON text escapes it: \(arguments)")
    try Self.activity(engine, messages: [], receipts: [(arguments, [])])
    #expect(try engine.planDeletion(of: .knowledge(item.id)).keptQuotes == [.init(collection: "receipts", count: 1)])
    #expect(try engine.planDeletion(of: .knowledge(other.id)).keptQuotes.isEmpty)
  }
}
