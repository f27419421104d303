import Foundation

/// A session handoff: what the user was doing and what comes next.
///
/// Restoring a handoff only marks it active and returns its context; it never re-runs a
/// tool, reuses an approval, completes a task or claims work was done.
/// Bounds: focus ≤ 300, summary ≤ 4,000, ≤ 12 next steps of ≤ 300, id lists ≤ 64 each,
/// ≤ 12 excerpts of ≤ 500 characters.
public struct Handoff: Codable, Sendable, Equatable, Identifiable {
  public var id: UUID
  public var focus: String
  public var summary: String
  public var nextSteps: [String]
  public var knowledgeIDs: [UUID]
  public var taskIDs: [UUID]
  /// Chat lines copied when the handoff was made; scrubbed by "clear chat & run activity".
  public var recentExcerpts: [String]
  public var createdAt: Date
  /// Kept for workspaces that recorded it. Restoring does not write it: a restore changes
  /// nothing but `AssistantWorkspace.activeHandoffID`.
  public var restoredAt: Date?

  public init(
    id: UUID, focus: String, summary: String = "", nextSteps: [String] = [],
    knowledgeIDs: [UUID] = [], taskIDs: [UUID] = [], recentExcerpts: [String] = [],
    createdAt: Date, restoredAt: Date? = nil
  ) {
    self.id = id
    self.focus = focus
    self.summary = summary
    self.nextSteps = nextSteps
    self.knowledgeIDs = knowledgeIDs
    self.taskIDs = taskIDs
    self.recentExcerpts = recentExcerpts
    self.createdAt = createdAt
    self.restoredAt = restoredAt
  }
}
