import ContinuityKit
import Foundation

/// What a status change (``KnowledgeEngine/completeTaskReportingOutcome(id:)``,
/// ``KnowledgeEngine/reopenTaskReportingOutcome(id:)``) did: the task as stored after the call,
/// and whether it had the asked-for status already (then nothing was written).
public struct TaskStatusChange: Sendable, Equatable {
  /// The task as stored after the call; an already completed task keeps its first completion's
  /// `completedAt`.
  public var task: TaskItem
  /// True when the task had the asked-for status before the call (completed for a completion,
  /// open for a reopening), so nothing changed.
  public var wasAlreadyInStatus: Bool
  /// The handoffs whose rule-built summary the change rewrote (it lists open and completed
  /// tasks apart), in listing order (newest first); empty when it rewrote none, and always when
  /// ``wasAlreadyInStatus``. They are records the call changed, so an agent call's receipt
  /// names them in `changedIDs`.
  public var rebuiltHandoffIDs: [UUID]

  /// Makes a status change outcome.
  /// - Parameters:
  ///   - task: the task as stored after the call.
  ///   - wasAlreadyInStatus: whether it had the asked-for status already.
  ///   - rebuiltHandoffIDs: the handoffs whose rule-built summary the change rewrote.
  public init(task: TaskItem, wasAlreadyInStatus: Bool, rebuiltHandoffIDs: [UUID] = []) {
    self.task = task
    self.wasAlreadyInStatus = wasAlreadyInStatus
    self.rebuiltHandoffIDs = rebuiltHandoffIDs
  }
}

extension KnowledgeEngine {
  /// The stored task `id`, after the checks a change of its status to `status` makes: it
  /// exists, and when it is not in `status` already, its stored text is within this build's
  /// bounds (``requireStoredTaskWithinBounds(_:change:)``).
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)``; ``WorkspaceError/validation(_:)``.
  static func taskForStatusChange(_ id: UUID, to status: TaskStatus, _ tx: WorkspaceTransaction) throws(WorkspaceError)
    -> TaskItem
  {
    guard let t = try tx.task(id: id) else { throw .notFound(recordType: "task", id: id.uuidString) }
    if t.status != status { try requireStoredTaskWithinBounds(t, change: status == .completed ? "completed" : "reopened") }
    return t
  }

  /// Refuses to rewrite a stored task whose text is over a bound of this build — stored before
  /// the bound existed, or by another program — saying that it is the stored text: a status
  /// change takes only an id, so the user typed none of it.
  /// - Parameters:
  ///   - task: the task as stored.
  ///   - change: what the caller was doing, as in `task … cannot be completed`.
  /// - Throws: ``WorkspaceError/validation(_:)`` with the field (`title`, `notes`), the limit and
  ///   the size found, e.g. `task 5D… cannot be completed: its stored title is 1 character but
  ///   4001 Unicode scalars …; the limit is 300 characters …`, and what to do.
  static func requireStoredTaskWithinBounds(_ task: TaskItem, change: String) throws(WorkspaceError) {
    do throws(ValidationError) { try Limits.validate(task) } catch {
      let id = task.id.uuidString
      throw .validation(
        ValidationError(
          field: error.field, limit: error.limit, actual: error.actual,
          message: "task \(id) cannot be \(change): its stored \(error.message). It was stored before this bound "
            + "existed, or by another program; nothing was changed. "
            + (change == "edited"
              ? "Give that field a new value within the bound in the same edit (`\(command: "dolphin task edit \(id) --\(error.field) …")`)"
              : "Give that field a new value within the bound (`\(command: "dolphin task edit \(id) --\(error.field) …")`), or delete the task "
                + "(`\(command: "dolphin task delete \(id)")`) and add it again within the bound")
            + " (`\(command: "dolphin doctor")` lists such records)"))
    }
  }
}
