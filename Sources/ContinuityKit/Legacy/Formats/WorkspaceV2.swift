import Foundation

/// JSON workspace format v2: v1 plus tasks. **Frozen.**
///
/// ```json
/// {
///   "schemaVersion": 2,
///   "conversations": [ … as v1 … ], "memories": [ … as v1 … ], "settings": { … as v1 … },
///   "tasks": [
///     { "id": "<UUID>", "title": "Fix NavigationStack back button", "notes": "…",
///       "isCompleted": true, "priority": "high",
///       "createdAt": "2025-02-03T10:00:00Z", "completedAt": "2025-02-04T16:45:00Z" }
///   ]
/// }
/// ```
///
/// - `tasks`: required array. Per task, `notes` is optional (default `""`), `priority` is
///   optional (`low`, `normal`, `high`; default `normal`), and `completedAt` is present
///   exactly when `isCompleted` is true.
/// - Conversations, messages, memories and settings are unchanged from ``WorkspaceV1``.
struct WorkspaceV2: Sendable, Equatable {
  /// The top-level keys of a v2 file.
  static let topLevelKeys = WorkspaceV1.topLevelKeys + ["tasks"]

  typealias Conversation = WorkspaceV1.Conversation
  typealias Memory = WorkspaceV1.Memory
  typealias Settings = WorkspaceV1.Settings

  var conversations: [Conversation]
  var memories: [Memory]
  var settings: Settings
  var tasks: [TaskRecord]

  /// How important a task is. (Schema v5 adds `critical`.)
  enum TaskPriority: String, Sendable, CaseIterable {
    case low, normal, high
  }

  /// A to-do item.
  struct TaskRecord: Sendable, Equatable {
    static let fields = [
      "id", "title", "notes", "isCompleted", "priority", "createdAt", "completedAt",
    ]
    var id: UUID
    var title: String
    var notes: String
    var isCompleted: Bool
    var priority: TaskPriority
    var createdAt: Date
    var completedAt: Date?
  }
}
