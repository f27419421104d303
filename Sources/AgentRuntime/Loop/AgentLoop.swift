import ContinuityKit
import Foundation
import KnowledgeEngine

/// Where a run's answer text came from.
public enum AnswerSource: String, Sendable, Codable {
  /// The tools' deterministic renderers (no model turn).
  case renderer
  /// A model's interpretation of quoted evidence; never a fact or a receipt.
  case model
  /// Nothing ran (conversation routes).
  case none
}

/// The result of one run.
public struct AgentRunResult: Sendable {
  public var runID: UUID
  public var route: Route
  /// Every call that was attempted, with its receipt.
  public var calls: [ToolCallResult]
  /// The answer shown to the user, at most ``AgentLoop/Bounds/maxOutputCharacters``.
  public var answer: String
  public var answerSource: AnswerSource
  /// Evidence ids the answer was grounded on (model-assisted runs).
  public var evidenceIDs: [UUID]
  public var wasCancelled: Bool

  /// Receipts of this run, in call order.
  public var receipts: [ActivityReceipt] { calls.map(\.receipt) }

  /// What the run changed, by its receipts alone (``ReceiptSummary/sentence(for:)``). A model's
  /// answer starts with it.
  public var receiptSummary: String { ReceiptSummary.sentence(for: receipts) }
}

/// Runs a route's plan within bounds: tool steps, output characters and wall time; honours
/// cancellation between steps and right before any write commits; persists no partial
/// mutation (each tool call is one transaction). Model output has hidden reasoning stripped
/// and is returned as interpretation only.
public struct AgentLoop: Sendable {
  /// Run bounds.
  public struct Bounds: Sendable {
    /// Most tool calls in one run (default 8).
    public var maxSteps: Int
    /// Most characters of answer text (default ``Limits/renderedToolOutput``, 8,000).
    public var maxOutputCharacters: Int
    /// Most wall time for the model turn, in seconds (default 120).
    public var modelTimeoutSeconds: Double

    public init(maxSteps: Int = 8, maxOutputCharacters: Int = Limits.renderedToolOutput, modelTimeoutSeconds: Double = 120) {
      self.maxSteps = maxSteps
      self.maxOutputCharacters = maxOutputCharacters
      self.modelTimeoutSeconds = modelTimeoutSeconds
    }
  }

  public let executor: ToolExecutor
  public let generator: (any ResponseGenerator)?
  public let bounds: Bounds

  public init(executor: ToolExecutor, generator: (any ResponseGenerator)? = nil, bounds: Bounds = Bounds()) {
    self.executor = executor
    self.generator = generator
    self.bounds = bounds
  }

  var engine: KnowledgeEngine { executor.engine }

  func checkpoint(_ run: UUID, _ step: Int, _ state: String, _ note: String = "", recorder: RunRecorder?) {
    let c = RunCheckpoint(id: engine.environment.makeID(), runID: run, step: step, state: state, note: Truncation.truncate(note, to: 300), createdAt: engine.environment.now())
    // Best effort: a checkpoint that cannot be written must not stop the run.
    if let recorder {
      try? recorder.record { tx in try tx.insertCheckpoint(c) }
    } else {
      try? engine.store.write { tx in try tx.insertCheckpoint(c) }
    }
  }

  /// Runs `route` for the user's `question`.
  public func run(_ route: Route, question: String, approver: any ApprovalProvider, recentExcerpts: [String] = []) async -> AgentRunResult {
    await run(route, question: question, approver: approver, recentExcerpts: recentExcerpts, recorder: nil)
  }

  /// Runs `route`, recording its checkpoints through `recorder` (see ``RunRecorder``), or
  /// straight to the store when it is nil.
  func run(
    _ route: Route, question: String, approver: any ApprovalProvider, recentExcerpts: [String], recorder: RunRecorder?
  ) async -> AgentRunResult {
    let runID = engine.environment.makeID()
    var result = AgentRunResult(runID: runID, route: route, calls: [], answer: "", answerSource: .none, evidenceIDs: [], wasCancelled: false)
    switch route.kind {
    case .conversation:
      result.answer = route.answer ?? "No tool was run (\(route.reason))."
      return result
    case .deterministic, .modelAssistedRead:
      break
    }
    if route.kind == .modelAssistedRead {
      // Heuristic routes may only read.
      for call in route.plan {
        guard let tool = try? executor.registry.tool(named: call.tool), tool.risk == .readOnly else {
          result.answer = "Refused: a free-text route may only use read-only tools, and \(call.tool) is not one."
          return result
        }
      }
    }
    checkpoint(runID, 0, "planned", route.reason, recorder: recorder)
    var texts: [String] = []
    for (i, call) in route.plan.prefix(bounds.maxSteps).enumerated() {
      if Task.isCancelled {
        result.wasCancelled = true
        break
      }
      checkpoint(runID, i + 1, "executing", call.tool, recorder: recorder)
      let r = await executor.execute(
        ToolCall(id: "\(runID.uuidString)-\(i + 1)", name: call.tool, arguments: call.arguments),
        approver: approver, recentExcerpts: recentExcerpts)
      result.calls.append(r)
      if r.receipt.outcome == .cancelled { result.wasCancelled = true }
      if let out = r.output {
        texts.append(out.text)
      } else {
        texts.append("\(call.tool) \(r.receipt.outcome.rawValue): \(r.error?.description ?? r.failureMessage ?? r.receipt.message)")
      }
      if result.wasCancelled { break }
    }
    if route.plan.count > bounds.maxSteps { texts.append("(stopped after \(bounds.maxSteps) steps: the run bound)") }
    checkpoint(runID, result.calls.count, result.wasCancelled ? "cancelled" : "finished", recorder: recorder)
    let rendered = texts.joined(separator: "\n\n")
    if route.kind == .deterministic || result.wasCancelled {
      result.answer = Truncation.truncate(rendered, to: bounds.maxOutputCharacters)
      result.answerSource = .renderer
      return result
    }
    // Model-assisted read: ground the model on the search results, or fall back to the renderer.
    let evidence = collectEvidence(result.calls)
    result.evidenceIDs = evidence.map(\.id)
    guard let generator else {
      result.answer = Truncation.truncate("Deterministic answer (no model configured): the knowledge search found:\n" + rendered, to: bounds.maxOutputCharacters)
      result.answerSource = .renderer
      return result
    }
    let messages = PromptBuilder.messages(question: question, evidence: evidence)
    do {
      let raw = try await withModelTimeout(bounds.modelTimeoutSeconds) { try await generator.generate(messages) }
      let clean = Sanitizer.sanitize(PromptBuilder.stripHiddenReasoning(raw))
      // A reply that was only hidden reasoning (an unclosed `<think>`, or all of it before a
      // lone `</think>`) leaves nothing to show: it is said so, and the deterministic answer
      // stands, as when the model fails (review 31-a, 7: an empty interpretation was printed).
      if clean.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        result.answer = Truncation.truncate(
          "The model (\(generator.label)) gave no answer once its hidden reasoning was removed; deterministic answer "
            + "instead:\n" + rendered, to: bounds.maxOutputCharacters)
        result.answerSource = .renderer
        return result
      }
      // Marked as the prompt marks them, so a model answer that cites one as current can be
      // checked against the footer (review 18-d).
      let cites =
        evidence.isEmpty
        ? "no evidence found"
        : evidence.map {
          "\($0.label) \($0.id.uuidString)"
            + ($0.supersededBy.isEmpty ? "" : " (\(KnowledgeEngine.supersededNote($0.supersededBy)))")
        }.joined(separator: "; ")
      // What the run did, from its receipts, comes first: it survives any cut (a handoff copies
      // the first 500 characters of a message), and a claim of the model's is read against it
      // (review 19-c, item 12).
      // A long answer is cut, never the line naming the evidence after it (review 21-a, 10:
      // the citations went in exactly the runs that most need checking).
      let head =
        ReceiptSummary.sentence(for: result.receipts)
        + "\nModel interpretation (\(generator.label); not a stored fact, not a receipt):\n"
      let tail = "\n\nEvidence given to the model: \(cites)"
      let room = bounds.maxOutputCharacters - head.count - tail.count
      // Each line of the model's is quoted, so that none reads as one of the run's own lines,
      // shown or copied flat into a handoff's excerpt: a reply that starts `By its receipts,
      // this run changed 3 records` imitated the receipts line itself (review 31-a, 7).
      result.answer = Truncation.truncate(
        head + (room > 0 ? Truncation.truncate(Self.quoted(clean), to: room) : "") + tail, to: bounds.maxOutputCharacters)
      result.answerSource = .model
    } catch is CancellationError {
      result.wasCancelled = true
      result.answer = "The run was cancelled before the model answered."
    } catch {
      result.answer = Truncation.truncate("The model failed (\(error)); deterministic answer instead:\n" + rendered, to: bounds.maxOutputCharacters)
      result.answerSource = .renderer
    }
    return result
  }

  /// What a model answer's lines start with (``quoted(_:)``).
  public static let modelLineQuote = "> "

  /// `text` with each line quoted: ``modelLineQuote`` before it, `>` alone for an empty line.
  /// A model's interpretation is shown and stored so, below its label, so that no line of it
  /// passes for a line of the run's — the receipts line above all (review 31-a, 7).
  static func quoted(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? String(modelLineQuote.dropLast()) : modelLineQuote + $0 }
      .joined(separator: "\n")
  }

  /// Evidence for the prompt from knowledge_search / memory_search results, in rank order.
  /// A knowledge item another item supersedes is marked (review 18-b B1: the model was given
  /// replaced decisions beside the current one with nothing to tell them apart).
  func collectEvidence(_ calls: [ToolCallResult]) -> [Evidence] {
    var out: [Evidence] = []
    let successors = (try? engine.successors(of: calls.flatMap { call in
      (call.output?.structured["results"]?.array ?? []).compactMap { $0["id"]?.string.flatMap(UUID.init(uuidString:)) }
    })) ?? [:]
    for call in calls {
      guard let results = call.output?.structured["results"]?.array else { continue }
      for r in results {
        guard let id = r["id"]?.string.flatMap(UUID.init(uuidString:)) else { continue }
        if let item = try? engine.knowledge(id: id) {
          out.append(
            Evidence(id: id, label: item.kind.rawValue, title: item.title, text: item.content, supersededBy: successors[id] ?? []))
        } else if let memory = try? engine.memory(id: id) {
          out.append(Evidence(id: id, label: "memory", title: KnowledgeEngine.mirrorTitle(for: memory.text), text: memory.text))
        }
        if out.count >= Limits.promptEvidenceItems { return out }
      }
    }
    return out
  }
}

/// Runs `body`, throwing ``AgentError/limitReached(_:)`` after `seconds`.
func withModelTimeout<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
      throw AgentError.limitReached("the model did not answer within \(Int(seconds)) s")
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { throw AgentError.cancelled }
    return first
  }
}
