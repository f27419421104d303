import Foundation

/// Checks that a write would make, without writing: run before someone is asked to approve the
/// write, so that nobody approves a call that cannot succeed (review, s17: an MCP client showed
/// an approval dialog — holding the credential-looking text — for a `task_add` the engine then
/// refused, and for a `task_complete` of an id no task has).
///
/// Each runs the same code as its write up to the write itself: the text is sanitized and
/// bounded, credential-looking text is refused (``CredentialDetector``), and the ids it names
/// are looked up, in one read transaction. It throws exactly what the write would throw for
/// these reasons, and the capacity the write needs (review, s17: a capture into a full workspace
/// was approved, then refused). Passing is no promise: the write checks everything again (a
/// record may be deleted in between) and may still fail for what is not checked here (storage).
extension KnowledgeEngine {
  /// The checks of ``capture(_:)``: title, content and tags, credentials, room under the
  /// knowledge item limit, and that every relationship's target exists.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the field (`title`, `content`,
  ///   `tags[i]`, `relationships[i]` — marked ``ValidationError/missingRecord``);
  ///   ``WorkspaceError/capacity(what:limit:held:adding:)``; storage errors.
  public func checkCapture(_ request: CaptureRequest) throws {
    _ = try Self.checkedText(of: request)
    let relationships = Self.dedupeRelationships(request.relationships)
    try store.read { tx in
      try tx.requireKnowledgeCapacity(adding: 1)
      if !relationships.isEmpty { try tx.checkRelationshipTargets(relationships) }
    }
  }

  /// The checks of ``saveMemory(text:tags:allowCredentials:)``: text, tags and credentials,
  /// and room for the memory and its knowledge mirror.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming `text` or `tags[i]`;
  ///   ``WorkspaceError/capacity(what:limit:held:adding:)``.
  public func checkSaveMemory(text: String, tags: [String] = [], allowCredentials: Bool = false) throws {
    _ = try Self.checkedMemoryText(text, tags: tags, allowCredentials: allowCredentials)
    try store.read { tx in
      let memories = try tx.memoryCount()
      if memories >= Limits.memories {
        throw WorkspaceError.capacity(what: .memories, limit: Limits.memories, held: memories, adding: 1)
      }
      try tx.requireKnowledgeCapacity(adding: 1)
    }
  }

  /// The checks of ``addTask(title:notes:priority:knowledgeIDs:allowCredentials:)``: title,
  /// notes, credentials, and that every knowledge id exists.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming `title`, `notes` or `knowledgeIDs[i]`
  ///   (marked ``ValidationError/missingRecord``); storage errors.
  public func checkAddTask(
    title: String, notes: String = "", knowledgeIDs: [UUID] = [], allowCredentials: Bool = false
  ) throws {
    _ = try Self.checkedTaskText(title: title, notes: notes, allowCredentials: allowCredentials)
    let ids = Self.unique(knowledgeIDs)
    try store.read { tx in
      let tasks = try tx.taskCount()
      if tasks >= Limits.tasks { throw WorkspaceError.capacity(what: .tasks, limit: Limits.tasks, held: tasks, adding: 1) }
      if !ids.isEmpty { try tx.checkKnowledgeIDs(ids, field: "knowledgeIDs") }
    }
  }

  /// The checks of ``createHandoff(_:)``: focus, summary, next steps, credentials, and that
  /// every knowledge and task id exists.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the field (`focus`, `summary`,
  ///   `nextSteps[i]`, `knowledgeIDs[i]`, `taskIDs[i]`); storage errors.
  public func checkCreateHandoff(_ request: HandoffRequest) throws {
    _ = try Self.checkedText(of: request)
    let knowledgeIDs = Self.unique(request.knowledgeIDs)
    let taskIDs = Self.unique(request.taskIDs)
    try store.read { tx in
      let handoffs = try tx.counts()["handoff"] ?? 0
      if handoffs >= Limits.handoffs {
        throw try Self.handoffCapacityError(held: handoffs, tx)
      }
      if !knowledgeIDs.isEmpty || !taskIDs.isEmpty {
        try tx.checkHandoffReferences(knowledgeIDs: knowledgeIDs, taskIDs: taskIDs)
      }
    }
  }

  /// The checks of ``completeTaskReportingOutcome(id:)`` (`status` completed) and
  /// ``reopenTaskReportingOutcome(id:)`` (`status` open): the task exists, and its stored text
  /// is within bounds when its status would change.
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)``; ``WorkspaceError/validation(_:)``.
  public func checkTaskStatusChange(id: UUID, to status: TaskStatus) throws {
    _ = try store.read { tx in try Self.taskForStatusChange(id, to: status, tx) }
  }

  /// The check of ``restoreHandoff(id:)``: the handoff exists.
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)``; storage errors.
  public func checkRestoreHandoff(id: UUID) throws {
    _ = try handoff(id: id)
  }
}
