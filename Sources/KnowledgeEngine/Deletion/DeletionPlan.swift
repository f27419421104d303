import Foundation

/// What a deletion will change, shown to the user before it is applied.
///
/// Built by ``KnowledgeEngine/planDeletion(of:)``; ``KnowledgeEngine/apply(_:)`` recomputes the
/// plan inside its transaction and refuses when the workspace changed since it was shown.
public struct DeletionPlan: Sendable, Equatable, Codable {
  /// The kind of record deleted.
  public enum Target: String, Sendable, Codable {
    case knowledge, memory, task, handoff
  }

  /// One change the deletion makes besides removing the target.
  /// The actions that change no record (``Change/action``): shown, never counted as applied.
  public static let informationalActions: Set<String> = ["keepMismatchedLink", "becomesCurrent"]

  /// How many of ``changes`` change a record (all but ``informationalActions``).
  public var recordChangeCount: Int { changes.filter { !Self.informationalActions.contains($0.action) }.count }

  public struct Change: Sendable, Equatable, Codable {
    /// `removeRelationship`, `unlinkTask`, `unlinkHandoff`, `deleteDigest`, `deleteMirror`,
    /// `deleteMemory`, `clearMemoryLink`, `clearActiveHandoff`, `unlinkTaskFromHandoff`,
    /// `rebuildHandoffSummary` (a rule-built summary marking an item that becomes current); and
    /// two that change no record: `keepMismatchedLink` (a deleted memory's `knowledgeID` names
    /// an item that does not mirror it, and that item is kept) and `becomesCurrent` (an item
    /// the deleted one superseded, directly or through a chain, is then superseded by no item
    /// and shows as current again in the digest, search and handoff briefs).
    public var action: String
    /// The record changed or removed.
    public var recordID: UUID
    /// A human-readable line, e.g. `remove relationship supports from "Use SQLite"`.
    public var detail: String
  }

  public var target: Target
  public var targetID: UUID
  /// The target's title (or text start for memories).
  public var targetTitle: String
  /// Changes in a stable order.
  public var changes: [Change]
}

/// What a deletion did.
public struct DeletionReport: Sendable, Equatable, Codable {
  public var plan: DeletionPlan
  /// Ids of every record removed (the target included).
  public var removedIDs: [UUID]
}

/// Which record to delete.
public enum DeletionRequest: Sendable, Equatable {
  case knowledge(UUID)
  case memory(UUID)
  case task(UUID)
  case handoff(UUID)
}
