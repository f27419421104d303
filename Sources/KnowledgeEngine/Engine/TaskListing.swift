import ContinuityKit
import Foundation

/// One listing of tasks: a page of them and how many have the status asked for (see
/// ``KnowledgeEngine/taskListing(status:limit:offset:)``).
public struct TaskListing: Sendable, Equatable {
  /// At most the requested limit: open first, then by priority and age (then by id).
  public var tasks: [TaskItem]
  /// How many tasks have the status asked for (every task when none was), listed or not.
  public var total: Int

  /// Makes a listing.
  public init(tasks: [TaskItem], total: Int) {
    self.tasks = tasks
    self.total = total
  }

  /// Whether tasks of the status asked for are not in ``tasks``: the limit, or an offset,
  /// left them out.
  public var isTruncated: Bool { tasks.count < total }
}
