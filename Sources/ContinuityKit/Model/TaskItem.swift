import Foundation

/// Whether a task still needs doing.
public enum TaskStatus: String, Codable, Sendable, CaseIterable {
  case open
  case completed
}

/// A to-do item. Bounds: title ≤ 300 characters, notes ≤ 4,000, ≤ 64 knowledge ids.
public struct TaskItem: Codable, Sendable, Equatable, Identifiable {
  public var id: UUID
  public var title: String
  public var notes: String
  public var status: TaskStatus
  public var priority: Priority
  public var createdAt: Date
  /// Set when `status == .completed`, nil otherwise.
  public var completedAt: Date?
  /// When the task last changed: set at its creation and by every change dolphin makes to it
  /// (an edit of its title, notes, priority or knowledge ids, a completion, a reopening, a
  /// knowledge item it cites deleted). Never earlier than `createdAt` for a task dolphin wrote.
  /// A task stored before tasks recorded it (schema step `0009-task-updated-at`, an export or
  /// a legacy file without it) has `completedAt ?? createdAt`.
  public var updatedAt: Date
  /// Knowledge items that support this task.
  public var knowledgeIDs: [UUID]

  /// - Parameter updatedAt: nil means `completedAt ?? createdAt`, what a task that has not
  ///   changed since it was added or completed records.
  public init(
    id: UUID, title: String, notes: String = "", status: TaskStatus = .open,
    priority: Priority = .normal, createdAt: Date, completedAt: Date? = nil, updatedAt: Date? = nil,
    knowledgeIDs: [UUID] = []
  ) {
    self.id = id
    self.title = title
    self.notes = notes
    self.status = status
    self.priority = priority
    self.createdAt = createdAt
    self.completedAt = completedAt
    self.updatedAt = updatedAt ?? completedAt ?? createdAt
    self.knowledgeIDs = knowledgeIDs
  }

  /// Decodes a task; a missing `updatedAt` (an export written before tasks recorded it) is
  /// `completedAt ?? createdAt`, as ``init(id:title:notes:status:priority:createdAt:completedAt:updatedAt:knowledgeIDs:)``
  /// defaults it.
  /// - Throws: `DecodingError` for a missing required field or a value of the wrong type.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try c.decode(UUID.self, forKey: .id), title: try c.decode(String.self, forKey: .title),
      notes: try c.decode(String.self, forKey: .notes), status: try c.decode(TaskStatus.self, forKey: .status),
      priority: try c.decode(Priority.self, forKey: .priority), createdAt: try c.decode(Date.self, forKey: .createdAt),
      completedAt: try c.decodeIfPresent(Date.self, forKey: .completedAt),
      updatedAt: try c.decodeIfPresent(Date.self, forKey: .updatedAt),
      knowledgeIDs: try c.decode([UUID].self, forKey: .knowledgeIDs))
  }

  /// Records a change made at `now`: ``updatedAt`` becomes the latest of `now`, its current
  /// value and ``createdAt``, so a clock set back since never dates a change before the task's
  /// creation or an earlier change (an import refuses `updatedAt` before `createdAt`).
  package mutating func recordChange(at now: Date) {
    updatedAt = max(now, updatedAt, createdAt)
  }
}
