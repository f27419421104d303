import Foundation

/// The kind of a typed knowledge record.
///
/// The declaration order is the documented *kind order* used to break ranking ties:
/// `decision` < `goal` < `preference` < `fact` < `insight` < `context` < `code`.
public enum KnowledgeKind: String, Codable, Sendable, CaseIterable, Comparable {
  case decision
  case goal
  case preference
  case fact
  case insight
  case context
  case code

  /// Position in the kind order (0 = first).
  public var orderIndex: Int { Self.allCases.firstIndex(of: self) ?? 0 }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.orderIndex < rhs.orderIndex }
}

/// Where a knowledge record came from. Provenance is never rewritten silently.
public enum KnowledgeSource: String, Codable, Sendable, CaseIterable {
  /// Captured directly by the user (CLI, app UI).
  case user
  /// Proposed by an agent and approved by the user for that exact call.
  case agentApproved
  /// Mirrored from a legacy memory save; `KnowledgeItem.memoryID` points back to it.
  case legacyMemory
  /// Placed by an app intent (Siri/Shortcuts) and then saved by the user.
  case appIntent
  /// Brought in by an import or migration.
  case `import`
  /// Proposed by an agent and written under a standing permission the user gave beforehand
  /// (an MCP server started with `--writes allow`, whose client could not ask), with no
  /// approval of that call: its receipt records `policy:allow` (review 20-b, #7).
  case agentAllowed
}

/// Importance of a record. Ordered `low < normal < high < critical`.
public enum Priority: String, Codable, Sendable, CaseIterable, Comparable {
  case low
  case normal
  case high
  case critical

  /// 0 for `low` … 3 for `critical`.
  public var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// How one knowledge item relates to another.
public enum RelationshipKind: String, Codable, Sendable, CaseIterable {
  case supports
  case contradicts
  case dependsOn
  case supersedes
  case relatesTo
}

/// A typed, directed edge from the owning item to `targetID` (another knowledge item).
public struct KnowledgeRelationship: Codable, Sendable, Equatable, Hashable {
  public var kind: RelationshipKind
  public var targetID: UUID

  public init(kind: RelationshipKind, targetID: UUID) {
    self.kind = kind
    self.targetID = targetID
  }
}

/// One typed piece of durable knowledge (schema v5).
///
/// Bounds (see ``Limits``): title ≤ 300 characters, content ≤ 16,000 characters,
/// ≤ 16 tags of ≤ 48 characters, ≤ 32 relationships, revision 1…1,000,000.
public struct KnowledgeItem: Codable, Sendable, Equatable, Identifiable {
  public var id: UUID
  public var kind: KnowledgeKind
  public var title: String
  public var content: String
  public var source: KnowledgeSource
  /// Trimmed, lowercased, deduplicated, in first-seen order.
  public var tags: [String]
  public var relationships: [KnowledgeRelationship]
  public var priority: Priority
  public var createdAt: Date
  public var updatedAt: Date
  /// 1 for a new record; bounded by ``Limits/revision``.
  public var revision: Int
  /// For `source == .legacyMemory`: the memory this item mirrors.
  public var memoryID: UUID?

  public init(
    id: UUID, kind: KnowledgeKind, title: String, content: String = "",
    source: KnowledgeSource = .user, tags: [String] = [],
    relationships: [KnowledgeRelationship] = [], priority: Priority = .normal,
    createdAt: Date, updatedAt: Date? = nil, revision: Int = 1, memoryID: UUID? = nil
  ) {
    self.id = id
    self.kind = kind
    self.title = title
    self.content = content
    self.source = source
    self.tags = tags
    self.relationships = relationships
    self.priority = priority
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
    self.revision = revision
    self.memoryID = memoryID
  }
}
