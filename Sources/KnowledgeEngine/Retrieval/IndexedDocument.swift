import Foundation

/// The searchable view of a knowledge item or legacy memory: what the index stores and the
/// ranker shows.
public struct IndexedDocument: Sendable, Equatable, Identifiable {
  /// The item's (or memory's) id — the evidence id a result carries.
  public var id: UUID
  /// A knowledge kind, or `memory`.
  public var kind: DocumentKind
  /// Title; empty for legacy memories. At most ``Limits/title`` characters for knowledge.
  public var title: String
  /// Tags, as stored on the item.
  public var tags: [String]
  /// Body text; a memory's text.
  public var content: String
  /// Last change; a memory's creation time. Breaks ranking ties (newer first).
  public var updatedAt: Date
  /// Where a knowledge item came from (``KnowledgeSource/legacyMemory`` for a memory's mirror);
  /// nil for a legacy memory itself, whose kind says what it is. Not indexed; results carry it.
  public var source: KnowledgeSource?

  /// Makes a document.
  public init(
    id: UUID, kind: DocumentKind, title: String, tags: [String] = [], content: String,
    updatedAt: Date, source: KnowledgeSource? = nil
  ) {
    self.id = id
    self.kind = kind
    self.title = title
    self.tags = tags
    self.content = content
    self.updatedAt = updatedAt
    self.source = source
  }

  /// The searchable view of a knowledge item.
  public init(_ item: KnowledgeItem) {
    self.init(
      id: item.id, kind: .knowledge(item.kind), title: item.title, tags: item.tags,
      content: item.content, updatedAt: item.updatedAt, source: item.source)
  }

  /// The searchable view of a legacy memory: no title, its text as content.
  public init(_ memory: MemoryItem) {
    self.init(
      id: memory.id, kind: .memory, title: "", tags: memory.tags, content: memory.text,
      updatedAt: memory.createdAt)
  }
}
