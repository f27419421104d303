import ContinuityKit
import Foundation

/// One listing of tasks: a page of them and how many have the status asked for (see
/// ``KnowledgeEngine/taskListing(status:limit:offset:)``).
public struct TaskListing: Sendable, Equatable {
  /// At most the requested limit: open first, then by priority and age (then by id).
  public var tasks: [TaskItem]
  /// How many tasks have the status asked for (every task when none was), listed or not.
  public var total: Int
  /// How many tasks, in the listing's order, were skipped before the first one in ``tasks``
  /// (the `offset` asked for; 0 for the first page).
  public var offset: Int

  /// Makes a listing.
  /// - Parameters:
  ///   - tasks: the page.
  ///   - total: how many tasks have the status asked for.
  ///   - offset: how many were skipped before the page (default 0).
  public init(tasks: [TaskItem], total: Int, offset: Int = 0) {
    self.tasks = tasks
    self.total = total
    self.offset = offset
  }

  /// Whether tasks of the status asked for come after this page (`offset + tasks.count <
  /// total`): the limit stopped the listing before the last of them. False on the last page
  /// and past the end, so that a client paging while it is true stops (review 23-a, 3: it was
  /// `tasks.count < total`, true on every later page).
  public var isTruncated: Bool { offset + tasks.count < total }

  /// The offset of the next page (`offset + tasks.count`) while ``isTruncated``; nil on the
  /// last page and past the end.
  public var nextOffset: Int? { isTruncated ? offset + tasks.count : nil }
}
