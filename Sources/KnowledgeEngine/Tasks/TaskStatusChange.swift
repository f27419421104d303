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

  /// Makes a status change outcome.
  public init(task: TaskItem, wasAlreadyInStatus: Bool) {
    self.task = task
    self.wasAlreadyInStatus = wasAlreadyInStatus
  }
}
