import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine

/// Offers the prompt `restore_session`: the brief of a chosen handoff, as context for a new
/// conversation.
///
/// Context only: getting the prompt reads the workspace and changes nothing — it does not
/// restore the handoff or mark it active, re-run a tool, reuse an approval or complete a task,
/// and the message says so. Stored text is sanitized again, bounded (see
/// ``HandoffBriefPrompt``) and quoted as untrusted evidence, the way the assistant's own
/// prompts quote it.
public struct WorkspacePromptProvider: MCPPromptProvider {
  /// The prompt's name.
  public static let restoreSessionName = "restore_session"
  /// Its one argument: the handoff's UUID, `latest`, or the start of its id.
  public static let handoffArgument = "handoff_id"

  /// The workspace read.
  public let workspace: MCPWorkspace

  /// A provider over `workspace`.
  public init(workspace: MCPWorkspace) {
    self.workspace = workspace
  }

  /// `restore_session` with its required `handoff_id`.
  public func listPrompts() -> [MCPPrompt] {
    [
      MCPPrompt(
        name: Self.restoreSessionName, title: "Restore a session from a handoff",
        description: "The brief of a Dolphin handoff (focus, summary, next steps, linked "
          + "knowledge and tasks) as context for this conversation. Context only: it does not "
          + "mark the handoff active or re-run anything.",
        arguments: [
          MCPPromptArgument(
            name: Self.handoffArgument, title: "Handoff id",
            description: "The handoff: its UUID, `latest` (the newest by creation), or the start of its id (at least "
              + "\(KnowledgeEngine.handoffIDPrefixMinimum) hexadecimal digits, e.g. 3F2504E0, with the id's hyphens or none, naming exactly one handoff). "
              + "The handoff_list tool lists the ids.",
            required: true)
        ])
    ]
  }

  /// The brief of the handoff named by `arguments["handoff_id"]`: its UUID, `latest` or the
  /// start of its id, as `handoff_get` and `handoff_restore` take it
  /// (``KnowledgeEngine/resolveHandoffReference(_:field:hints:)``).
  ///
  /// - Throws: ``MCPServerError/unknownPrompt(name:)`` for another name;
  ///   ``MCPServerError/invalidParams(_:)`` when `handoff_id` is none of those, is a prefix
  ///   several handoffs have (listing them), or names no handoff (saying so when no workspace
  ///   exists yet: ``MCPWorkspace/absenceNotice(of:)``), worded as those tools word it;
  ///   ``MCPServerError/workspaceUnavailable(path:reason:)``; storage errors.
  public func getPrompt(name: String, arguments: [String: String]) throws -> MCPPromptResult {
    guard name == Self.restoreSessionName else { throw MCPServerError.unknownPrompt(name: name) }
    let engine = try workspace.engine()
    let id = try Self.handoffID(arguments[Self.handoffArgument] ?? "", engine: engine, workspace: workspace)
    let brief = try engine.store.read { tx -> HandoffBriefPrompt.Input? in
      guard let handoff = try tx.handoff(id: id) else { return nil }
      let knowledge = try handoff.knowledgeIDs.map { try (id: $0, item: tx.knowledge(id: $0)) }
      let graph = try tx.supersedeGraph()
      let tasks = try handoff.taskIDs.map { try (id: $0, task: tx.task(id: $0)) }
      // A successor is named with its title: it may have been captured after the handoff, and
      // the prompt has no "captured since" part to say what it is (review 18-d, M8).
      let successors = knowledge.map { graph.successors(of: $0.id) }
      let titles = try tx.knowledgeTitles(successors.flatMap { $0 })
      return HandoffBriefPrompt.Input(
        handoff: handoff,
        knowledge: zip(knowledge, successors).map { ref, next in
          HandoffBriefPrompt.Reference(
            ref.id, ref.item, supersededBy: next, successorTitles: next.map { titles[$0]?.title ?? $0.uuidString },
            handoffCreatedAt: handoff.createdAt)
        },
        tasks: tasks.map { HandoffBriefPrompt.Reference($0.id, $0.task) },
        isActive: try tx.activeHandoffID() == id)
    }
    guard let brief else {
      throw MCPServerError.invalidParams(
        "no handoff has the id \(id.uuidString); "
          + (workspace.absenceNotice(of: engine) ?? "the handoff_list tool lists the handoffs"))
    }
    return MCPPromptResult(
      description: "Context from handoff \(id.uuidString): "
        + Truncation.truncate(TerminalText.singleLine(Sanitizer.sanitize(brief.handoff.focus)), to: 120),
      messages: [MCPPromptMessage(role: .user, text: HandoffBriefPrompt.render(brief))])
  }

  /// The handoff `reference` names, by the resolver `handoff_get` and `handoff_restore` use
  /// (``KnowledgeEngine/resolveHandoffReference(_:field:hints:)``, pointing to the tools).
  /// - Throws: ``MCPServerError/invalidParams(_:)`` with the resolver's message, its
  ///   bidirectional controls written as escapes and sanitized (it quotes what the client gave,
  ///   and an ambiguous prefix's candidates with their focus), and for a handoff that is not
  ///   there, the workspace's absence notice after it when none exists yet; storage errors.
  static func handoffID(_ reference: String, engine: KnowledgeEngine, workspace: MCPWorkspace) throws -> UUID {
    do {
      return try engine.resolveHandoffReference(reference, field: handoffArgument, hints: .tools)
    } catch WorkspaceError.validation(let error) {
      let absence = error.missingRecord == nil ? nil : workspace.absenceNotice(of: engine)
      throw MCPServerError.invalidParams(
        Sanitizer.sanitize(TerminalText.escapingBidiControls(error.message)) + (absence.map { "; " + $0 } ?? ""))
    }
  }
}
