import ContinuityKit
import Foundation

/// One listing of legacy memories: a page of them and how many the workspace holds (see
/// ``KnowledgeEngine/memoryListing(limit:)``).
public struct MemoryListing: Sendable, Equatable {
  /// At most the requested limit, newest first (then by id).
  public var memories: [MemoryItem]
  /// How many memories the workspace holds, listed or not.
  public var total: Int

  /// Makes a listing.
  public init(memories: [MemoryItem], total: Int) {
    self.memories = memories
    self.total = total
  }
}
