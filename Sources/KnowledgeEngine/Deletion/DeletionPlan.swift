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

  /// Kept records of one collection whose text quotes the deleted record (``keptQuotes``).
  public struct KeptQuotes: Sendable, Equatable, Codable {
    /// `messages` (chat messages), `receipts` (activity receipts: a call's arguments, message
    /// or changed ids), `checkpoints` (run checkpoints' notes), `handoffExcerpts` (handoffs
    /// whose chat excerpts quote it) or `conversations` (conversation titles).
    public var collection: String
    /// How many records of the collection quote it.
    public var count: Int

    /// Makes a count of kept records that quote the deleted record.
    /// - Parameters:
    ///   - collection: `messages`, `receipts`, `checkpoints`, `handoffExcerpts` or `conversations`.
    ///   - count: how many of them quote it.
    public init(collection: String, count: Int) {
      self.collection = collection
      self.count = count
    }
  }

  public var target: Target
  public var targetID: UUID
  /// The target's title (or text start for memories).
  public var targetTitle: String
  /// Changes in a stable order.
  public var changes: [Change]
  /// Records the deletion keeps that quote what it removes — the id, or the title (a
  /// knowledge item's or task's title, a handoff's focus, a memory's first line) when it has
  /// at least 4 characters, of the target and of a memory's mirrors — found by a
  /// case-insensitive literal text match, counted by collection in the order messages,
  /// receipts, checkpoints, handoffExcerpts, conversations; collections with none are left
  /// out, and the list is empty when nothing quotes it. These records are not changed (`dolphin
  /// activity clear` removes chat and activity and the excerpts copied into handoffs; `dolphin
  /// erase --kind conversations` the conversations). A text match can also find a record that
  /// only happens to contain the same words. Informational: ``KnowledgeEngine/apply(_:)`` does not
  /// refuse a plan because these counts changed since it was shown.
  public var keptQuotes: [KeptQuotes] = []
  /// How many digests the workspace held when the plan was made (at most
  /// ``Limits/digestsKept``), so that a plan removing several can say what share of the digest
  /// history that is (`That is 3 of the 3 stored digest(s): the whole digest history.`; review
  /// 21-a, 14). Informational, as ``keptQuotes`` is: ``KnowledgeEngine/apply(_:)`` does not
  /// refuse a plan because a digest that cites nothing it deletes was stored or pruned since.
  public var storedDigestCount = 0

  /// How many digests the deletion removes: its `deleteDigest` changes.
  public var deletedDigestCount: Int { changes.filter { $0.action == "deleteDigest" }.count }

  /// The plan without its informational members (``keptQuotes``, ``storedDigestCount``): what
  /// an apply compares with the plan it makes again.
  var changesOnly: DeletionPlan {
    var plan = self
    plan.keptQuotes = []
    plan.storedDigestCount = 0
    return plan
  }
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
