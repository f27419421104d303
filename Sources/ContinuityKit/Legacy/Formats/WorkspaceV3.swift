import Foundation

/// JSON workspace format v3: v2 plus the activity log of tool calls. **Frozen.**
///
/// ```json
/// {
///   "schemaVersion": 3,
///   … v2 keys …,
///   "receipts": [
///     { "id": "<UUID>", "callID": "call_7f3a", "tool": "task_add", "risk": "localWrite",
///       "arguments": { "title": "Write onboarding flow" }, "outcome": "succeeded",
///       "startedAt": "2025-03-02T14:00:01Z", "finishedAt": "2025-03-02T14:00:01.180Z",
///       "approval": "user" }
///   ]
/// }
/// ```
///
/// - `receipts`: required array. `risk` is `readOnly` or `localWrite`; `arguments` is the
///   JSON object the tool received; `outcome` is `succeeded`, `failed`, `denied` or
///   `cancelled`; `approval` is optional (`notRequired` or `user`; absent when denied).
/// - Everything else is unchanged from ``WorkspaceV2``.
struct WorkspaceV3: Sendable, Equatable {
  /// The top-level keys of a v3 file.
  static let topLevelKeys = WorkspaceV2.topLevelKeys + ["receipts"]

  typealias Conversation = WorkspaceV2.Conversation
  typealias Memory = WorkspaceV2.Memory
  typealias Settings = WorkspaceV2.Settings
  typealias TaskRecord = WorkspaceV2.TaskRecord

  var conversations: [Conversation]
  var memories: [Memory]
  var settings: Settings
  var tasks: [TaskRecord]
  var receipts: [Receipt]

  /// Risk class of a tool.
  enum Risk: String, Sendable, CaseIterable {
    case readOnly, localWrite
  }

  /// What happened to the call.
  enum Outcome: String, Sendable, CaseIterable {
    case succeeded, failed, denied, cancelled
  }

  /// How the call was approved.
  enum Approval: String, Sendable, CaseIterable {
    case notRequired, user
  }

  /// One tool call of the activity log.
  struct Receipt: Sendable, Equatable {
    static let fields = [
      "id", "callID", "tool", "risk", "arguments", "outcome", "startedAt", "finishedAt",
      "approval",
    ]
    var id: UUID
    var callID: String
    var tool: String
    var risk: Risk
    /// The arguments object exactly as written.
    var arguments: LegacyJSONValue
    var outcome: Outcome
    var startedAt: Date
    var finishedAt: Date
    var approval: Approval?
  }
}
