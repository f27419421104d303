import ContinuityKit
import Foundation

/// The changes of one edit of a task (``KnowledgeEngine/editTask(id:_:)``). A field left nil
/// is kept as stored; the id, status, creation and completion dates never change (`task
/// complete` and `task reopen` change the status); an edit that changes something sets
/// ``TaskItem/updatedAt``.
public struct TaskEdit: Sendable, Equatable {
  /// A new title (at most ``Limits/taskTitle`` characters; required, so not blank).
  public var title: String?
  /// New notes (at most ``Limits/taskNotes`` characters; empty removes them).
  public var notes: String?
  /// A new priority.
  public var priority: Priority?
  /// Every supporting knowledge item, replacing the stored list (at most ``Limits/idsPerList``
  /// existing ids, deduplicated; empty removes them all).
  public var knowledgeIDs: [UUID]?
  /// Store new text that looks like a credential instead of refusing it — a person's explicit
  /// choice only (`--allow-credentials`), as for `task add`. Only the text this edit sets is
  /// checked.
  public var allowCredentials: Bool

  /// An edit; every change is optional, but at least one must be given.
  public init(
    title: String? = nil, notes: String? = nil, priority: Priority? = nil, knowledgeIDs: [UUID]? = nil,
    allowCredentials: Bool = false
  ) {
    self.title = title
    self.notes = notes
    self.priority = priority
    self.knowledgeIDs = knowledgeIDs
    self.allowCredentials = allowCredentials
  }

  /// Whether the edit names no change at all.
  public var isEmpty: Bool { title == nil && notes == nil && priority == nil && knowledgeIDs == nil }
}

/// What a task edit stored.
public struct TaskEditResult: Sendable, Equatable, Codable {
  /// The task as stored afterwards (as it was when ``changed`` is empty).
  public var task: TaskItem
  /// The fields whose stored value changed, in the order title, notes, priority,
  /// knowledgeIDs; empty when the edit left the task as it was (then nothing was written).
  public var changed: [String]
  /// The handoffs whose rule-built summary the edit rewrote (it quotes task titles), in
  /// listing order (newest first); empty when none was.
  public var rebuiltHandoffIDs: [UUID]
}

extension KnowledgeEngine {
  /// The task `id`.
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)``; storage errors.
  public func task(id: UUID) throws -> TaskItem {
    try store.read { tx in
      guard let t = try tx.task(id: id) else { throw WorkspaceError.notFound(recordType: "task", id: id.uuidString) }
      return t
    }
  }

  /// Changes a task in place, in one transaction, with the checks of
  /// ``addTask(title:notes:priority:knowledgeIDs:allowCredentials:)``: title and notes are
  /// checked against their bounds as given and after sanitizing (title trimmed and not blank),
  /// credential-looking text is refused unless ``TaskEdit/allowCredentials``, and knowledge
  /// ids must exist (at most ``Limits/idsPerList``). An edit that changes nothing stores
  /// nothing. A handoff summary built by rules that carries the task is rebuilt when its title
  /// changes (the summary quotes it), as a status change rebuilds it; one written by hand is
  /// kept as written. Stored digests keep the text they were built from (they are snapshots).
  ///
  /// An edit that changes something dates the task's last change now (``TaskItem/updatedAt``,
  /// never before its creation or an earlier change); `createdAt` and `completedAt` are kept as
  /// they were.
  /// - Parameters:
  ///   - id: the task to change.
  ///   - edit: the changes.
  /// - Returns: the task as stored, the fields that changed and the handoffs rewritten.
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)`` for an unknown task;
  ///   ``WorkspaceError/validation(_:)`` naming the field — `edit` for an empty edit, `title` or
  ///   `notes` over their limit (with the limit and the size given) or blank, credential-looking
  ///   text, `knowledgeIDs` over ``Limits/idsPerList`` or naming an unknown item (marked
  ///   ``ValidationError/missingRecord``), and a stored task whose other text is over a bound
  ///   (``requireStoredTaskWithinBounds(_:change:)``). Nothing is written on error.
  public func editTask(id: UUID, _ edit: TaskEdit) throws -> TaskEditResult {
    guard !edit.isEmpty else {
      throw WorkspaceError.validation(
        ValidationError(field: "edit", message: "the edit names no change: give a title, notes, priority or knowledge ids"))
    }
    let title: String?
    let notes: String?
    do throws(ValidationError) {
      title = try edit.title.map { (t) throws(ValidationError) in
        let clean = try Limits.sanitizedInput("title", t, limit: Limits.taskTitle, trimming: true, required: true)
        try Limits.checkNotEmpty("title", clean)
        return clean
      }
      notes = try edit.notes.map { (n) throws(ValidationError) in
        try Limits.sanitizedInput("notes", n, limit: Limits.taskNotes)
      }
    } catch { throw WorkspaceError.validation(error) }
    try Self.refuseCredentials(
      in: [("title", title), ("notes", notes)].compactMap { f in f.1.map { (f.0, $0) } }, allowed: edit.allowCredentials)
    let knowledgeIDs = edit.knowledgeIDs.map(Self.unique)
    if let knowledgeIDs, knowledgeIDs.count > Limits.idsPerList {
      throw WorkspaceError.validation(
        ValidationError(
          field: "knowledgeIDs", limit: Limits.idsPerList, actual: knowledgeIDs.count,
          message: "knowledgeIDs holds \(knowledgeIDs.count) ids; the limit is \(Limits.idsPerList)"))
    }
    let now = environment.now()
    return try store.write { tx in
      guard let stored = try tx.task(id: id) else { throw WorkspaceError.notFound(recordType: "task", id: id.uuidString) }
      var t = stored
      var changed: [String] = []
      if let title, title != t.title { t.title = title; changed.append("title") }
      if let notes, notes != t.notes { t.notes = notes; changed.append("notes") }
      if let p = edit.priority, p != t.priority { t.priority = p; changed.append("priority") }
      if let knowledgeIDs, knowledgeIDs != t.knowledgeIDs { t.knowledgeIDs = knowledgeIDs; changed.append("knowledgeIDs") }
      guard !changed.isEmpty else { return TaskEditResult(task: stored, changed: [], rebuiltHandoffIDs: []) }
      // The fields the edit does not set are stored as they were: said as the stored text,
      // with its fix, when one is over a bound of this build.
      var kept = t
      if title != nil { kept.title = "x" }
      if notes != nil { kept.notes = "" }
      try Self.requireStoredTaskWithinBounds(kept, change: "edited")
      t.recordChange(at: now)
      try tx.updateTask(t)
      let rebuilt = changed.contains("title") ? try Self.rebuildGeneratedSummaries(carryingAny: [id], tx) : []
      return TaskEditResult(task: t, changed: changed, rebuiltHandoffIDs: rebuilt)
    }
  }
}
