import Foundation

/// A legacy free-text memory (the app's original memory feature), kept and searchable.
///
/// Saving a memory also mirrors a ``KnowledgeItem`` with source `legacyMemory`;
/// `knowledgeID` is the forward reference to that mirror (nil for memories migrated
/// from a legacy file before mirroring existed, or whose mirror was deleted).
/// Bounds: text ≤ 16,000 characters, ≤ 16 tags.
public struct MemoryItem: Codable, Sendable, Equatable, Identifiable {
  public var id: UUID
  public var text: String
  public var tags: [String]
  public var createdAt: Date
  public var knowledgeID: UUID?

  public init(id: UUID, text: String, tags: [String] = [], createdAt: Date, knowledgeID: UUID? = nil) {
    self.id = id
    self.text = text
    self.tags = tags
    self.createdAt = createdAt
    self.knowledgeID = knowledgeID
  }
}
