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
  /// Knowledge items that support this task.
  public var knowledgeIDs: [UUID]

  public init(
    id: UUID, title: String, notes: String = "", status: TaskStatus = .open,
    priority: Priority = .normal, createdAt: Date, completedAt: Date? = nil,
    knowledgeIDs: [UUID] = []
  ) {
    self.id = id
    self.title = title
    self.notes = notes
    self.status = status
    self.priority = priority
    self.createdAt = createdAt
    self.completedAt = completedAt
    self.knowledgeIDs = knowledgeIDs
  }
}
