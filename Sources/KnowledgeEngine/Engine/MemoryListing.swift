import ContinuityKit
import Foundation

/// One listing of legacy memories: a page of them and how many the workspace holds (see
/// ``KnowledgeEngine/memoryListing(limit:)``).
public struct MemoryListing: Sendable, Equatable {
  /// At most the requested limit, newest first (then by id).
  public var memories: [MemoryItem]
  /// How many memories the workspace holds, listed or not.
  public var total: Int
  /// For each listed memory whose knowledge mirror other items supersede: the memory's id →
  /// the ids of those items, sorted by `uuidString` (as ``SearchResult/supersededBy``). Memories
  /// without a mirror, or whose mirror nothing supersedes, are absent.
  public var supersededBy: [UUID: [UUID]]

  /// Makes a listing.
  public init(memories: [MemoryItem], total: Int, supersededBy: [UUID: [UUID]] = [:]) {
    self.memories = memories
    self.total = total
    self.supersededBy = supersededBy
  }

  /// Whether memories the workspace holds are not in ``memories``: the limit left them out.
  public var isTruncated: Bool { memories.count < total }
}
