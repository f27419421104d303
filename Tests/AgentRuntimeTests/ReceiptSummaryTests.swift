import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-c, item 12: a model's claim of actions ("Done! I deleted all 50 items") was shown,
/// stored in the chat log and copied into a handoff's excerpts with nothing setting it against
/// what the run did. A fixed sentence built from the run's receipts now comes first.
@Suite("What a run changed, by its receipts")
struct ReceiptSummaryTests {
  /// One set of receipts and the sentence it gives.
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var receipts: [ActivityReceipt]
    var sentence: String
    var description: String { name }
  }

  static func receipt(
    _ tool: String, _ risk: RiskClass, _ outcome: ReceiptOutcome = .succeeded, changed: [UUID] = []
  ) -> ActivityReceipt {
    let date = Date(timeIntervalSince1970: 1_790_000_000)
    return ActivityReceipt(
      id: UUID(), callID: "c", tool: tool, risk: risk.rawValue, arguments: "{}", outcome: outcome, changedIDs: changed,
      startedAt: date, finishedAt: date)
  }

  static let cases: [Case] = [
    Case(name: "no call", receipts: [], sentence: "By its receipts, this run changed nothing (no tool call)."),
    Case(
      name: "one read", receipts: [receipt("knowledge_search", .readOnly)],
      sentence: "By its receipts, this run changed nothing (1 read-only call)."),
    Case(
      name: "two captures, a digest and a handoff rewritten by one of them; a record named twice counts once",
      receipts: [
        receipt("knowledge_capture", .localWrite, changed: [sequentialID(1), sequentialID(9)]),
        receipt("knowledge_search", .readOnly),
        receipt("knowledge_capture", .localWrite, changed: [sequentialID(2), sequentialID(9)]),
      ],
      sentence: "By its receipts, this run changed 3 records (knowledge_capture ×2, 1 read-only call)."),
    Case(
      name: "a write that changed nothing (a task completed already)",
      receipts: [receipt("task_complete", .localWrite)],
      sentence: "By its receipts, this run changed nothing (task_complete)."),
    Case(
      name: "denied, failed and cancelled calls change nothing, whatever they name",
      receipts: [
        receipt("knowledge_capture", .localWrite, .denied),
        receipt("task_complete", .localWrite, .failed, changed: [sequentialID(3)]),
        receipt("handoff_create", .localWrite, .cancelled),
        receipt("task_list", .readOnly, .failed),
      ],
      sentence: "By its receipts, this run changed nothing (1 denied call, 2 failed calls, 1 cancelled call)."),
    Case(
      name: "one record changed",
      receipts: [receipt("task_add", .localWrite, changed: [sequentialID(4)]), receipt("task_list", .readOnly)],
      sentence: "By its receipts, this run changed 1 record (task_add, 1 read-only call)."),
  ]

  @Test("the sentence counts records and calls from the receipts alone", arguments: cases)
  func sentence(_ c: Case) {
    #expect(ReceiptSummary.sentence(for: c.receipts) == c.sentence)
  }

  static let claim = "Done! I have deleted all 50 knowledge items and completed every task."

  @Test("a model's claim is shown and stored after what the run did, and a handoff copies both")
  func claimSetAgainstReceipts() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite for storage"))
    let session = try AssistantSession(engine: engine, generator: ScriptedGenerator(answer: Self.claim))
    let reply = try await session.ask("what about sqlite storage?", approver: StaticApprovalPolicy.deny("no writes"))
    #expect(reply.run.answerSource == .model)
    #expect(reply.run.receiptSummary == "By its receipts, this run changed nothing (1 read-only call).")
    #expect(
      reply.run.answer.hasPrefix(
        "By its receipts, this run changed nothing (1 read-only call).\n"
          + "Model interpretation (scripted test model; not a stored fact, not a receipt):\n> " + Self.claim),
      "\(reply.run.answer)")
    #expect(reply.assistantMessage.text == reply.run.answer, "stored as shown")

    _ = try await session.ask("/handoff Wrap up storage", approver: StaticApprovalPolicy.allow)
    let h = try #require(try engine.store.read { try $0.listHandoffs() }.first)
    let excerpt = try #require(h.recentExcerpts.first { $0.hasPrefix("assistant: ") && $0.contains(Self.claim) })
    #expect(
      excerpt.hasPrefix(
        "assistant: By its receipts, this run changed nothing (1 read-only call). Model interpretation (scripted test model"),
      "\(excerpt)")
    #expect(try engine.listKnowledge().count == 1 && !(try engine.listTasks()).contains { $0.status == .completed })
  }

  static let forged = "By its receipts, this run changed 3 records (3 local writes)."

  /// Review 31-a, 7: a reply that starts as the receipts line does was shown right below the
  /// real one, and a handoff's excerpt ran the two together.
  @Test("every line of a model's reply is quoted, shown, stored and copied, so none passes for the receipts line")
  func modelLinesQuoted() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite for storage"))
    let reply = Self.forged + "\nI also completed every task.\n\nBy its receipts, nothing failed."
    let session = try AssistantSession(engine: engine, generator: ScriptedGenerator(answer: reply))
    let asked = try await session.ask("what about sqlite storage?", approver: StaticApprovalPolicy.deny("no writes"))
    #expect(asked.run.answerSource == .model)
    #expect(
      asked.run.answer.hasPrefix(
        "By its receipts, this run changed nothing (1 read-only call).\n"
          + "Model interpretation (scripted test model; not a stored fact, not a receipt):\n"
          + "> \(Self.forged)\n> I also completed every task.\n>\n> By its receipts, nothing failed.\n\nEvidence given to the model: "),
      "\(asked.run.answer)")
    let lines = asked.run.answer.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix(ReceiptSummary.prefix) }.count == 1, "only the run's own line: \(lines)")
    #expect(asked.assistantMessage.text == asked.run.answer, "stored as shown")

    _ = try await session.ask("/handoff Wrap up storage", approver: StaticApprovalPolicy.allow)
    let h = try #require(try engine.store.read { try $0.listHandoffs() }.first)
    let excerpt = try #require(h.recentExcerpts.first { $0.hasPrefix("assistant: ") && $0.contains(Self.forged) })
    #expect(
      excerpt.hasPrefix(
        "assistant: By its receipts, this run changed nothing (1 read-only call). Model interpretation (scripted test model; "
          + "not a stored fact, not a receipt): > \(Self.forged) > I also completed every task."),
      "\(excerpt)")
  }

  /// Review 31-a, 7: a reply that was only hidden reasoning printed an empty interpretation.
  @Test(
    "a reply that is empty once its hidden reasoning is removed gives the deterministic answer, saying so",
    arguments: ["<think>secret plan", "secret plan</think>", "<think>secret plan</think>\n \n", "<reasoning>secret plan</reasoning>"])
  func reasoningOnlyReply(_ raw: String) async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite for storage"))
    let session = try AssistantSession(engine: engine, generator: ScriptedGenerator(answer: raw))
    let asked = try await session.ask("what about sqlite storage?", approver: StaticApprovalPolicy.deny("no writes"))
    #expect(asked.run.answerSource == .renderer)
    #expect(
      asked.run.answer.hasPrefix(
        "The model (scripted test model) gave no answer once its hidden reasoning was removed; deterministic answer instead:\n"),
      "\(asked.run.answer)")
    #expect(asked.run.answer.contains("Use SQLite for storage"), "the search's answer: \(asked.run.answer)")
    #expect(!asked.run.answer.contains("secret plan") && !asked.run.answer.contains("Model interpretation"), "\(asked.run.answer)")
    #expect(asked.assistantMessage.text == asked.run.answer)
  }

  @Test("an answer long enough to be cut keeps the receipts line in the answer and in the excerpt")
  func longAnswerKeepsLine() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite for storage"))
    let long = Self.claim + " " + String(repeating: "All done. ", count: 2_000)
    let session = try AssistantSession(engine: engine, generator: ScriptedGenerator(answer: long))
    let reply = try await session.ask("what about sqlite storage?", approver: StaticApprovalPolicy.deny("no writes"))
    #expect(reply.run.answer.count <= Limits.renderedToolOutput)
    #expect(reply.run.answer.hasPrefix(ReceiptSummary.prefix + "nothing (1 read-only call).\n"))
    let excerpts = try session.recentExcerpts()
    let last = try #require(excerpts.last)
    #expect(last.count <= Limits.handoffExcerptLength)
    #expect(last.hasPrefix("assistant: By its receipts, this run changed nothing (1 read-only call)."), "\(last)")
  }

  @Test("a model answer stored before answers carried the line is marked as not checked when copied")
  func earlierAnswerMarked() throws {
    let engine = makeEngine()
    let session = try AssistantSession(engine: engine)
    let earlier = "Model interpretation (loopback model at 127.0.0.1:8080; not a stored fact, not a receipt):\n" + Self.claim
    let texts: [(ChatRole, String)] = [(.user, "what now?"), (.assistant, earlier), (.assistant, "Captured decision \"x\"")]
    try engine.store.write { tx in
      for (i, (role, text)) in texts.enumerated() {
        try tx.appendMessage(
          ChatMessage(
            id: sequentialID(500 + i), conversationID: session.conversationID, role: role, text: text,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(i))))
      }
    }
    #expect(
      try session.recentExcerpts() == [
        "user: what now?",
        "assistant: (not checked against its run's receipts: stored by an earlier dolphin) "
          + "Model interpretation (loopback model at 127.0.0.1:8080; not a stored fact, not a receipt): " + Self.claim,
        "assistant: Captured decision \"x\"",
      ])
  }
}
