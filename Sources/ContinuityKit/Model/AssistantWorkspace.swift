import Foundation

/// The whole schema-v5 workspace as one value: what export/import and the legacy
/// migration carry. The store hands out parts of it without loading all of it.
public struct AssistantWorkspace: Codable, Sendable, Equatable {
  /// Always ``SchemaVersion/current`` (5) for values of this type.
  public var schemaVersion: Int
  public var knowledge: [KnowledgeItem]
  public var memories: [MemoryItem]
  public var tasks: [TaskItem]
  public var handoffs: [Handoff]
  public var digests: [Digest]
  public var conversations: [Conversation]
  public var messages: [ChatMessage]
  public var settings: Settings
  public var receipts: [ActivityReceipt]
  public var checkpoints: [RunCheckpoint]
  /// Must reference a live handoff when set.
  public var activeHandoffID: UUID?

  public init(
    knowledge: [KnowledgeItem] = [], memories: [MemoryItem] = [], tasks: [TaskItem] = [],
    handoffs: [Handoff] = [], digests: [Digest] = [], conversations: [Conversation] = [],
    messages: [ChatMessage] = [], settings: Settings = .default, receipts: [ActivityReceipt] = [],
    checkpoints: [RunCheckpoint] = [], activeHandoffID: UUID? = nil
  ) {
    self.schemaVersion = SchemaVersion.current
    self.knowledge = knowledge
    self.memories = memories
    self.tasks = tasks
    self.handoffs = handoffs
    self.digests = digests
    self.conversations = conversations
    self.messages = messages
    self.settings = settings
    self.receipts = receipts
    self.checkpoints = checkpoints
    self.activeHandoffID = activeHandoffID
  }
}
