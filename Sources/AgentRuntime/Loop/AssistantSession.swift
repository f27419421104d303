import ContinuityKit
import Foundation
import KnowledgeEngine

/// What one `ask` produced.
public struct AssistantReply: Sendable {
  public var run: AgentRunResult
  /// The user and assistant messages (stored when ``isRecorded``).
  public var userMessage: ChatMessage
  public var assistantMessage: ChatMessage
  /// Whether the run was recorded: its messages, checkpoints and receipts stored. False only
  /// for a run on a workspace that did not exist yet in which no local write succeeded (small
  /// talk, reads, failed or denied calls): nothing was written then, and the workspace was not
  /// created (see ``AssistantSession/ask(_:approver:)``).
  public var isRecorded: Bool = true
  /// The first finding that looks like a credential in the answer, when the stored copy
  /// (``assistantMessage``) withholds it (``AssistantSession/storedAnswer(_:)``); nil when the
  /// answer was stored as shown.
  public var storedAnswerWithheld: CredentialFinding? = nil
}

/// The entry point that ties a stored conversation, the router, the loop and approvals
/// together. Model prose is stored only as a chat message, never as knowledge or a receipt.
public struct AssistantSession: Sendable {
  public let engine: KnowledgeEngine
  public let conversationID: UUID
  public let router: AgentRequestRouter
  public let loop: AgentLoop

  /// The title of the conversation `dolphin ask` continues.
  public static let defaultConversationTitle = "dolphin ask"

  /// Opens the session's conversation: `conversationID` when given and stored, else the most
  /// recent conversation titled ``defaultConversationTitle``, else a new one. On a workspace
  /// that does not exist yet (``SQLiteWorkspaceStore/existsOnDisk``) a new conversation is
  /// only chosen here: the first run that is recorded stores it, so opening a session creates
  /// nothing.
  public init(engine: KnowledgeEngine, generator: (any ResponseGenerator)? = nil, registry: ToolRegistry = .standard, conversationID: UUID? = nil, bounds: AgentLoop.Bounds = .init()) throws {
    self.engine = engine
    self.router = AgentRequestRouter()
    // Reads do not create a workspace: free text on a mistyped path must leave nothing behind.
    // Its calls come from slash commands: errors name those (review 28-d, 4).
    self.loop = AgentLoop(
      executor: ToolExecutor(registry: registry, engine: engine, readsCreateWorkspace: false, caller: .askCommands),
      generator: generator, bounds: bounds)
    let env = engine.environment
    if let store = engine.store as? SQLiteWorkspaceStore, !store.existsOnDisk {
      self.conversationID = conversationID ?? env.makeID()
      return
    }
    self.conversationID = try engine.store.write { tx in
      let all = try tx.listConversations()
      if let id = conversationID, all.contains(where: { $0.id == id }) { return id }
      if conversationID == nil, let existing = all.last(where: { $0.title == Self.defaultConversationTitle }) { return existing.id }
      let c = Conversation(id: conversationID ?? env.makeID(), title: Self.defaultConversationTitle, createdAt: env.now())
      try tx.insertConversation(c)
      return c.id
    }
  }

  /// The last `limit` messages as `role: text` lines of at most ``Limits/handoffExcerptLength``
  /// characters, oldest first (what a handoff copies as recent excerpts).
  public func recentExcerpts(limit: Int = Limits.handoffExcerpts) throws -> [String] {
    Self.excerpts(of: try engine.store.read { tx in try tx.listMessages(conversationID: conversationID) }, limit: limit)
  }

  /// The last `limit` of `messages` as ``recentExcerpts(limit:)`` gives them.
  ///
  /// A model's answer stored by an `ask` run starts with what the run changed, by its receipts
  /// (``ReceiptSummary``), so its excerpt does too. One stored before answers carried that line
  /// (it starts `Model interpretation (`) is marked as not checked against them, since which run
  /// it came from is not recorded (review 19-c, item 12).
  static func excerpts(of messages: [ChatMessage], limit: Int = Limits.handoffExcerpts) -> [String] {
    messages.suffix(limit).map { m in
      let text = Sanitizer.sanitize(m.text).replacingOccurrences(of: "\n", with: " ")
      let mark = m.role == .assistant && text.hasPrefix(uncheckedModelAnswerStart) ? uncheckedModelAnswerMark : ""
      return Truncation.truncate("\(m.role.rawValue): " + mark + text, to: Limits.handoffExcerptLength)
    }
  }

  /// How a model's answer stored before answers carried their run's receipts line starts.
  static let uncheckedModelAnswerStart = "Model interpretation ("

  /// What an excerpt of such an answer starts with.
  static let uncheckedModelAnswerMark = "(not checked against its run's receipts: stored by an earlier dolphin) "

  /// Checks a user message as ``ask(_:approver:)`` does before it stores or runs anything, so
  /// a caller can refuse it before showing a route or plan.
  /// - Throws: ``ValidationError`` (field `message`) when it is empty or whitespace, longer
  ///   than ``Limits/content`` characters, made only of control or invisible characters (which
  ///   the sanitizer removes, so it would be stored empty), or looks like it holds a credential
  ///   (for an `/analyze` command, without ``ValidationError/credential``: see below).
  public static func validateMessage(_ text: String) throws {
    // White space alone is refused as such (a message is required); control or invisible
    // characters alone are called that by the sanitizing check, not empty.
    if text.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
      if text.isEmpty { throw ValidationError(field: "message", message: "message must not be empty") }
      throw Limits.requiredButBlank("message", text, consequence: "nothing was run")
    }
    _ = try Limits.sanitizedInput("message", text, limit: Limits.content)
    try Limits.checkNotEmpty("message", text)
    // Agents and MCP clients never store credentials; the message would be kept in the chat
    // log and copied into handoffs, so it is refused before anything is stored or run. There
    // is no override here: a secret is stored deliberately by a capture, never through chat.
    // Code sent to `/analyze` is refused too, but whoever sends it wants a review, not to store
    // a secret: the refusal names the command that reviews a file without quoting its line
    // (review 28-c, 4).
    // Its refusal carries no ``ValidationError/credential``, so that no caller offers to store the
    // code deliberately (`--allow-credentials`): that is not what reviewing it needs.
    let analyzing = isAnalyzeCommand(text)
    do {
      try CredentialDetector.requireNoCredential(
        in: text, field: "message",
        consequence: analyzing
          ? "nothing was stored or run: code sent with /analyze stays in the chat log and is copied into handoffs, so "
            + "code that holds a credential is not analyzed here. Save the code to a file and run `dolphin analyze FILE`: "
            + "it reports hardcoded_secret without printing the line"
          : "nothing was stored or run: a chat message stays in the chat log and is copied into handoffs")
    } catch {
      var refusal = error
      if analyzing { refusal.credential = nil }
      throw refusal
    }
  }

  /// Whether `text` is an `/analyze` command (its credential refusal advises `dolphin analyze
  /// FILE`, and offers no way to store the code: see ``validateMessage(_:)``).
  public static func isAnalyzeCommand(_ text: String) -> Bool {
    AgentRequestRouter().route(text).plan.first?.tool == "code_analyze"
  }

  /// The assistant's answer as the chat log stores it: `answer` cut to ``Limits/content``
  /// characters, with each span that looks like a credential withheld
  /// (``CredentialDetector/withholding(in:)``) and a line saying so, so that no credential
  /// reaches the chat log through an answer that quotes one — a stored item kept with
  /// `--allow-credentials`, or a model's reply (review 28-c, 1). The user who asked is shown the
  /// answer whole.
  /// - Returns: the text to store, and the first finding when something was withheld.
  public static func storedAnswer(_ answer: String) -> (text: String, withheld: CredentialFinding?) {
    guard let finding = CredentialDetector.firstFinding(in: answer) else {
      return (Truncation.truncate(answer, to: Limits.content), nil)
    }
    let note = "\n[stored copy: text that looks like a credential was withheld; it was shown only when answered]"
    var body = CredentialDetector.withholding(in: answer)
    // A finding the spans do not cover (it cannot be cut out on its own): nothing of the text
    // is kept rather than the credential.
    if CredentialDetector.firstFinding(in: body) != nil { body = CredentialDetector.withheldText(finding.kind) }
    return (Truncation.truncate(body, to: Limits.content - note.count) + note, finding)
  }

  /// Routes and runs one user message; stores the user message and the shown answer.
  ///
  /// A run is recorded — the conversation, both messages, its checkpoints and every call's
  /// receipt — with one exception: on a workspace that does not exist yet
  /// (``SQLiteWorkspaceStore/existsOnDisk`` is false), a run in which no local write succeeded
  /// — small talk, free text and other reads, denied, failed or cancelled calls — records
  /// nothing and creates nothing (``AssistantReply/isRecorded`` is false), so that a mistyped
  /// `--workspace` does not become a workspace. A run whose write succeeds there creates the
  /// workspace with all of the run's records.
  /// - Throws: ``ValidationError`` (field `message`) as ``validateMessage(_:)`` does, and for an
  ///   unknown or incomplete `/command` (``Route/commandProblem`` is the message). A refused
  ///   message is neither stored nor run. Storage errors.
  public func ask(_ text: String, approver: any ApprovalProvider) async throws -> AssistantReply {
    try Self.validateMessage(text)
    let route = router.route(text)
    if let problem = route.commandProblem { throw ValidationError(field: "message", message: problem) }
    let env = engine.environment
    let user = ChatMessage(id: env.makeID(), conversationID: conversationID, role: .user, text: Sanitizer.sanitize(text), createdAt: env.now())
    let recorder = RunRecorder(store: engine.store)
    // A new conversation is stored with its first message (see init).
    let conversation = Conversation(id: conversationID, title: Self.defaultConversationTitle, createdAt: user.createdAt)
    try recorder.record { tx in
      if try tx.conversation(id: conversation.id) == nil { try tx.insertConversation(conversation) }
      try tx.appendMessage(user)
    }
    // Held records are not in the store yet: the workspace holds no earlier message then.
    let excerpts = recorder.isHolding ? Self.excerpts(of: [user]) : try recentExcerpts()
    let run = await loop.run(route, question: text, approver: approver, recentExcerpts: excerpts, recorder: recorder)
    let stored = Self.storedAnswer(run.answer)
    let reply = ChatMessage(id: env.makeID(), conversationID: conversationID, role: .assistant, text: stored.text, createdAt: env.now())
    try recorder.record { tx in try tx.appendMessage(reply) }
    let wrote = run.calls.contains { $0.succeeded && $0.receipt.risk == RiskClass.localWrite.rawValue }
    let recorded = try recorder.finish(keeping: wrote)
    return AssistantReply(
      run: run, userMessage: user, assistantMessage: reply, isRecorded: recorded, storedAnswerWithheld: stored.withheld)
  }
}

/// The app's composer entry points (Ask, Continue, Capture Context intents): pure functions
/// that turn their input into sanitized, inert draft text. They run no tool, restore nothing
/// and save nothing.
public enum ComposerDrafts {
  /// The Ask intent: the question as a draft message.
  public static func ask(_ question: String) -> String {
    Truncation.truncate(Sanitizer.sanitize(question).trimmingCharacters(in: .whitespacesAndNewlines), to: Limits.content)
  }

  /// The Continue intent: a draft that restores the given handoff (the user still sends it;
  /// restoring only selects context). Without an id, a draft that lists handoffs.
  public static func continueSession(handoffID: UUID?) -> String {
    handoffID.map { "/restore \($0.uuidString)" } ?? "/handoffs"
  }

  /// The Capture Context intent: a draft capture command the user reviews and sends.
  public static func captureContext(title: String, content: String) -> String {
    let t = Truncation.truncate(Sanitizer.sanitize(title).replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "¦"), to: Limits.title)
    let c = Truncation.truncate(Sanitizer.sanitize(content), to: Limits.content)
    return c.isEmpty ? "/capture context: \(t)" : "/capture context: \(t) | \(c)"
  }
}
