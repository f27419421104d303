import ContinuityKit
import Foundation

/// What ``KnowledgeEngine/completeTaskReportingOutcome(id:)`` did: the task as stored after the
/// call, and whether it was completed already (then nothing was written).
public struct TaskCompletion: Sendable, Equatable {
  /// The task as stored after the call; `completedAt` is the first completion's time.
  public var task: TaskItem
  /// True when the task was completed before the call, so nothing changed.
  public var wasAlreadyCompleted: Bool

  /// Makes a completion outcome.
  public init(task: TaskItem, wasAlreadyCompleted: Bool) {
    self.task = task
    self.wasAlreadyCompleted = wasAlreadyCompleted
  }
}
