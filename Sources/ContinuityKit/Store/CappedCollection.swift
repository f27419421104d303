/// A record collection whose size is bounded (``Limits``), as named by
/// ``WorkspaceError/capacity(what:limit:)``.
///
/// Only the knowledge limit is a setting (``Settings/knowledgeItemLimit``); the others are
/// fixed, so their advice is to delete records, never to raise a setting.
public enum CappedCollection: String, Sendable, Equatable, CaseIterable {
  /// Knowledge items, bounded by ``Settings/knowledgeItemLimit``.
  case knowledge
  /// Legacy memories, bounded by ``Limits/memories``.
  case memories
  /// Tasks, bounded by ``Limits/tasks``.
  case tasks
  /// Handoffs, bounded by ``Limits/handoffs``.
  case handoffs

  /// The name of the field at fault, as in ``AssistantWorkspace`` (`knowledge`, `tasks`, …).
  public var field: String { rawValue }

  /// What a full collection's error says: the limit, whether it is a setting, and the way out.
  /// - Parameter limit: the limit in force (for knowledge, the workspace's setting).
  func fullMessage(limit: Int) -> String {
    switch self {
    case .knowledge:
      let start = "the workspace is limited to \(limit) knowledge items by its knowledgeItemLimit setting, and this would exceed that; delete some (`dolphin knowledge delete ID`)"
      return limit < Limits.knowledgeItemsMaximum
        ? start + " or raise knowledgeItemLimit (at most \(Limits.knowledgeItemsMaximum))"
        : start + " (the setting is already at its maximum, \(Limits.knowledgeItemsMaximum))"
    case .memories: return fixed(limit, "memories", delete: "dolphin memory delete ID")
    case .tasks: return fixed(limit, "tasks", delete: "dolphin task delete ID")
    case .handoffs: return fixed(limit, "handoffs", delete: "dolphin handoff delete ID")
    }
  }

  private func fixed(_ limit: Int, _ noun: String, delete command: String) -> String {
    "the workspace is limited to \(limit) \(noun), and this would exceed that (a fixed limit, not a setting); delete some (`\(command)`)"
  }
}
