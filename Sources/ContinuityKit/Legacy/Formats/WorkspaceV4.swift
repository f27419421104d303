import Foundation

/// JSON workspace format v4 (the last JSON format): v3 plus run checkpoints and memory
/// tags. **Frozen.**
///
/// ```json
/// {
///   "schemaVersion": 4,
///   … v3 keys …,
///   "memories": [ { "id": "<UUID>", "text": "Prefers SwiftUI over UIKit",
///                   "tags": ["swiftui", "preferences"], "createdAt": "…" } ],
///   "checkpoints": [
///     { "id": "<UUID>", "runID": "<UUID>", "step": 1, "state": "awaitingApproval",
///       "note": "task_add needs approval", "createdAt": "2025-04-10T08:30:02Z" }
///   ]
/// }
/// ```
///
/// - `memories[].tags`: optional array of strings, default `[]`.
/// - `checkpoints`: required array. `step` is a whole number ≥ 0; `state` is `planned`,
///   `awaitingApproval`, `executing`, `finished` or `cancelled`; `note` is optional
///   (default `""`).
/// - Everything else is unchanged from ``WorkspaceV3``.
struct WorkspaceV4: Sendable, Equatable {
  /// The top-level keys of a v4 file.
  static let topLevelKeys = WorkspaceV3.topLevelKeys + ["checkpoints"]

  typealias Conversation = WorkspaceV3.Conversation
  typealias Settings = WorkspaceV3.Settings
  typealias TaskRecord = WorkspaceV3.TaskRecord
  typealias Receipt = WorkspaceV3.Receipt

  var conversations: [Conversation]
  var memories: [Memory]
  var settings: Settings
  var tasks: [TaskRecord]
  var receipts: [Receipt]
  var checkpoints: [Checkpoint]

  /// A free-text memory with tags (as written; normalized on conversion to v5).
  struct Memory: Sendable, Equatable {
    static let fields = ["id", "text", "tags", "createdAt"]
    var id: UUID
    var text: String
    var tags: [String]
    var createdAt: Date
  }

  /// Where an agent run stood.
  enum RunState: String, Sendable, CaseIterable {
    case planned, awaitingApproval, executing, finished, cancelled
  }

  /// One recorded step of an agent run.
  struct Checkpoint: Sendable, Equatable {
    static let fields = ["id", "runID", "step", "state", "note", "createdAt"]
    var id: UUID
    var runID: UUID
    var step: Int
    var state: RunState
    var note: String
    var createdAt: Date
  }
}
