import Foundation

/// A summary of the workspace for `dolphin status` and `dolphin doctor`.
public struct WorkspaceStatus: Sendable, Equatable, Codable {
  public var databasePath: String
  public var schemaVersion: Int
  public var readOnly: Bool
  public var readOnlyReason: String?
  /// Record counts by table name (`knowledge`, `memory`, `task`, …).
  public var counts: [String: Int]
  public var knowledgeItemLimit: Int
  public var activeHandoffID: UUID?
  /// Referential problems found (dangling ids, a broken active marker), each naming the ids.
  public var integrityProblems: [String]
  /// Records kept aside by imports.
  public var quarantined: Int
}

extension KnowledgeEngine {
  /// Counts and referential integrity (dangling relationship, task, handoff, digest and memory
  /// links; the active-handoff marker). Does not run `PRAGMA integrity_check`; see
  /// ``SQLiteWorkspaceStore/integrityCheck()``.
  public func status() throws -> WorkspaceStatus {
    let schema = (store as? SQLiteWorkspaceStore).flatMap { try? $0.schemaVersion() } ?? SchemaVersion.current
    let readOnlyReason = (store as? SQLiteWorkspaceStore)?.readOnlyReason
    return try store.read { tx in
      let counts = try tx.counts()
      let problems = try Self.integrityProblems(tx)
      return WorkspaceStatus(
        databasePath: store.databasePath, schemaVersion: schema, readOnly: store.isReadOnly,
        readOnlyReason: readOnlyReason, counts: counts, knowledgeItemLimit: try tx.settings().knowledgeItemLimit,
        activeHandoffID: try tx.activeHandoffID(), integrityProblems: problems, quarantined: counts["quarantine"] ?? 0)
    }
  }

  static func integrityProblems(_ tx: WorkspaceTransaction) throws -> [String] {
    var problems: [String] = []
    let knowledge = try tx.listKnowledge()
    let ids = Set(knowledge.map(\.id))
    for k in knowledge.sorted(by: { $0.id.uuidString < $1.id.uuidString }) {
      for r in k.relationships where !ids.contains(r.targetID) {
        problems.append("knowledge \(k.id.uuidString) has a \(r.kind.rawValue) relationship to missing item \(r.targetID.uuidString)")
      }
      if let m = k.memoryID, try tx.memory(id: m) == nil, k.source == .legacyMemory {
        problems.append("knowledge \(k.id.uuidString) mirrors missing memory \(m.uuidString)")
      }
    }
    for t in try tx.listTasks() {
      for kid in t.knowledgeIDs where !ids.contains(kid) {
        problems.append("task \(t.id.uuidString) references missing knowledge item \(kid.uuidString)")
      }
    }
    let tasks = Set(try tx.listTasks().map(\.id))
    for h in try tx.listHandoffs() {
      for kid in h.knowledgeIDs where !ids.contains(kid) {
        problems.append("handoff \(h.id.uuidString) references missing knowledge item \(kid.uuidString)")
      }
      for tid in h.taskIDs where !tasks.contains(tid) {
        problems.append("handoff \(h.id.uuidString) references missing task \(tid.uuidString)")
      }
    }
    if let active = try tx.activeHandoffID(), try tx.handoff(id: active) == nil {
      problems.append("the active handoff marker points at missing handoff \(active.uuidString)")
    }
    for m in try tx.listMemories() {
      if let kid = m.knowledgeID, !ids.contains(kid) {
        problems.append("memory \(m.id.uuidString) links to missing knowledge mirror \(kid.uuidString)")
      }
    }
    return problems
  }
}
