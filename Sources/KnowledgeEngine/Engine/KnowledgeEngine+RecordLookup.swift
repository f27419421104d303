import ContinuityKit
import Foundation

/// The type of record an id belongs to, for pointing a user who typed an id to the command that
/// shows it.
public enum RecordType: String, Sendable, Codable, CaseIterable {
  /// A knowledge item.
  case knowledge
  /// A legacy memory.
  case memory
  /// A task.
  case task
  /// A handoff.
  case handoff
  /// A stored digest.
  case digest
  /// An activity receipt (what an agent or MCP tool call executed).
  case receipt
}

extension KnowledgeEngine {
  /// Which record, if any, has `id`: knowledge items first, then memories, tasks, handoffs,
  /// stored digests and activity receipts (ids are UUIDs, so at most one normally does).
  /// - Returns: its type, or nil when no record has the id.
  /// - Throws: ``WorkspaceError`` from the store.
  public func recordType(of id: UUID) throws -> RecordType? {
    try store.read { tx in
      if try tx.knowledge(id: id) != nil { return .knowledge }
      if try tx.memory(id: id) != nil { return .memory }
      if try tx.task(id: id) != nil { return .task }
      if try tx.handoff(id: id) != nil { return .handoff }
      if try tx.digest(id: id) != nil { return .digest }
      if try tx.receipt(id: id) != nil { return .receipt }
      return nil
    }
  }
}
