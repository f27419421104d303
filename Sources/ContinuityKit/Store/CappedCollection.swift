/// A record collection whose size is bounded (``Limits``), as named by
/// ``WorkspaceError/capacity(what:limit:held:adding:)``.
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

  /// What a full collection's error says: how many records the workspace holds, the total the
  /// refused write would reach, the limit, whether it is a setting, and the way out.
  /// - Parameters:
  ///   - limit: the limit in force (for knowledge, the workspace's setting).
  ///   - held: how many records the collection holds.
  ///   - adding: how many records the refused write would have added.
  func fullMessage(limit: Int, held: Int, adding: Int) -> String {
    switch self {
    case .knowledge:
      let total = held + adding
      let holds = "the workspace holds \(held) knowledge item\(held == 1 ? "" : "s")"
      let standing =
        held == limit
        ? "\(holds), the most its knowledgeItemLimit setting allows (\(limit))"
        : held > limit
          ? "\(holds), more than its knowledgeItemLimit setting allows (\(limit))"
          : "\(holds) and its knowledgeItemLimit setting allows \(limit)"
      let delete = "Delete some (`\(command: "dolphin knowledge delete ID")`)"
      let way =
        total <= Limits.knowledgeItemsMaximum && limit < Limits.knowledgeItemsMaximum
        ? "\(delete) or raise the limit with `\(command: "dolphin settings set knowledgeItemLimit N")` "
          + "(at least \(total), at most \(Limits.knowledgeItemsMaximum))"
        : "\(delete); raising knowledgeItemLimit cannot make room, as it is at most \(Limits.knowledgeItemsMaximum)"
      return "\(standing); adding \(adding) would make \(total). \(way)"
    case .memories: return fixed(limit, held, adding, ("memory", "memories"), delete: "dolphin memory delete ID")
    case .tasks: return fixed(limit, held, adding, ("task", "tasks"), delete: "dolphin task delete ID")
    case .handoffs: return fixed(limit, held, adding, ("handoff", "handoffs"), delete: "dolphin handoff delete ID")
    }
  }

  /// A fixed limit's message, in the knowledge limit's form: `the workspace holds 10000
  /// memories, the most it may hold (a fixed limit, not a setting); adding 1 would make 10001.
  /// Delete some (`dolphin memory delete ID`)`.
  private func fixed(
    _ limit: Int, _ held: Int, _ adding: Int, _ noun: (one: String, many: String), delete command: SuggestedCommand
  ) -> String {
    let total = held + adding
    let holds = "the workspace holds \(held) \(held == 1 ? noun.one : noun.many)"
    let standing =
      held == limit
      ? "\(holds), the most it may hold (\(limit), a fixed limit, not a setting)"
      : held > limit
        ? "\(holds), more than it may hold (\(limit), a fixed limit, not a setting)"
        : "\(holds) and may hold \(limit) (a fixed limit, not a setting)"
    // Only an import adds more than one: when those alone are too many, deleting cannot help.
    let way =
      adding > limit
      ? "Import fewer: \(adding) are more than any workspace may hold"
      : "Delete some (`\(command: command)`)"
    return "\(standing); adding \(adding) would make \(total). \(way)"
  }
}
