import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A record whose JSON column was damaged outside dolphin makes every read of it fail as
/// `damaged`; the error must name the record (its table and id), not only the column, so the
/// user can find it without running `doctor` first.
@Suite("Malformed JSON errors name the record")
struct MalformedJSONErrorTests {
  /// One damaged column, and the read that meets it.
  struct Case: CustomTestStringConvertible, Sendable {
    var table: String
    var column: String
    /// The id of the record the column is damaged in.
    var id: UUID
    /// A read that decodes the column.
    var read: @Sendable (WorkspaceTransaction) throws -> Void
    var testDescription: String { "\(table).\(column)" }
  }

  static let cases: [Case] = [
    Case(table: "knowledge", column: "tags", id: sequentialID(1)) { tx in _ = try tx.listKnowledge(afterID: nil, limit: 10) },
    Case(table: "knowledge", column: "tags", id: sequentialID(1)) { tx in _ = try tx.snapshot() },
    Case(table: "knowledge", column: "tags", id: sequentialID(1)) { tx in
      _ = try tx.searchableKnowledge(afterRowID: 0, limit: 10)
    },
    Case(table: "memory", column: "tags", id: sequentialID(2)) { tx in _ = try tx.listMemories() },
    Case(table: "memory", column: "tags", id: sequentialID(2)) { tx in _ = try tx.searchableMemories(afterRowID: 0, limit: 10) },
    Case(table: "task", column: "knowledge_ids", id: sequentialID(3)) { tx in _ = try tx.listTasks() },
    Case(table: "handoff", column: "next_steps", id: sequentialID(4)) { tx in _ = try tx.listHandoffs() },
    Case(table: "handoff", column: "recent_excerpts", id: sequentialID(4)) { tx in _ = try tx.snapshot() },
    Case(table: "receipt", column: "changed_ids", id: sequentialID(5)) { tx in _ = try tx.listReceipts() },
  ]

  @Test("the damaged error names the table, the record id and the column", arguments: cases)
  func namesTheRecord(_ c: Case) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      _ = try tx.insertKnowledge(
        KnowledgeItem(id: sequentialID(1), kind: .fact, title: "Fact", content: "", createdAt: t0, updatedAt: t0))
      _ = try tx.insertMemory(MemoryItem(id: sequentialID(2), text: "Memory", createdAt: t0))
      try tx.insertTask(TaskItem(id: sequentialID(3), title: "Task", createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(4), focus: "Focus", createdAt: t0))
      try tx.insertReceipt(
        ActivityReceipt(
          id: sequentialID(5), callID: "c1", tool: "knowledge_search", risk: "readOnly", arguments: "{}",
          outcome: .succeeded, startedAt: t0, finishedAt: t0))
      try tx.db.run("UPDATE \(c.table) SET \(c.column) = '[\"a\",' WHERE id = ?", [.text(c.id.uuidString)])
    }
    var thrown: (any Error)?
    do { try store.read { tx in try c.read(tx) } } catch { thrown = error }
    let error = try #require(thrown as? WorkspaceError)
    guard case .damaged(_, let message) = error else {
      Issue.record("expected .damaged, got \(error)")
      return
    }
    #expect(message == "\(c.table) \(c.id.uuidString): \(c.table).\(c.column) holds malformed JSON: [\"a\",")
  }
}
