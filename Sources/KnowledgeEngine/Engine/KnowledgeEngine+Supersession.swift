import ContinuityKit
import Foundation

extension KnowledgeEngine {
  /// For each of `ids` that another item supersedes (a `supersedes` relationship from outside
  /// its cycle, as the digest reads them: ``SupersedeGraph/successors(of:)``), the items that
  /// supersede it, sorted by `uuidString`. Ids that nothing supersedes, and unknown ids, have
  /// no entry.
  ///
  /// What search rows, `knowledge get`, handoff briefs and the evidence given to a model mark
  /// as superseded. It is read from the stored relationships, not judged from the text.
  /// - Complexity: one read of the `supersedes` relationships, then O(*V* + *E*).
  /// - Throws: storage errors.
  public func successors(of ids: [UUID]) throws -> [UUID: [UUID]] {
    try store.read { tx in Self.successors(of: ids, in: try tx.supersedeGraph()) }
  }

  /// The knowledge item `id` and the items that supersede it (``successors(of:)``: sorted by
  /// `uuidString`, empty when none does), with their titles, read together: what `knowledge
  /// get` shows beside the item's own (outgoing) relationships.
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)``; storage errors.
  public func knowledgeWithSuccessors(id: UUID) throws -> (item: KnowledgeItem, supersededBy: [(id: UUID, title: String)]) {
    try store.read { tx in
      guard let item = try tx.knowledge(id: id) else {
        throw WorkspaceError.notFound(recordType: "knowledge item", id: id.uuidString)
      }
      let successors = try tx.supersedeGraph().successors(of: id)
      let titles = try tx.knowledgeTitles(successors)
      return (item, successors.map { (id: $0, title: titles[$0]?.title ?? $0.uuidString) })
    }
  }

  /// `superseded by <id>` (ids joined by `, `): how every output marks an item that other items
  /// supersede, after its quoted title, so that no title can forge or hide it. Empty for no ids.
  /// - Parameter successors: the items that supersede it (``successors(of:)``).
  public static func supersededNote(_ successors: [UUID]) -> String {
    successors.isEmpty ? "" : "superseded by " + successors.map(\.uuidString).joined(separator: ", ")
  }

  /// For each of `memories` whose knowledge mirror (``MemoryItem/knowledgeID``) other items
  /// supersede: the memory's id → those items' ids, sorted by `uuidString`.
  static func memorySuccessors(of memories: [MemoryItem], in graph: SupersedeGraph) -> [UUID: [UUID]] {
    var out: [UUID: [UUID]] = [:]
    for m in memories {
      guard let mirror = m.knowledgeID else { continue }
      let s = graph.successors(of: mirror)
      if !s.isEmpty { out[m.id] = s }
    }
    return out
  }

  /// ``successors(of:)`` over a graph already read.
  static func successors(of ids: some Sequence<UUID>, in graph: SupersedeGraph) -> [UUID: [UUID]] {
    var out: [UUID: [UUID]] = [:]
    for id in ids {
      let s = graph.successors(of: id)
      if !s.isEmpty { out[id] = s }
    }
    return out
  }
}
