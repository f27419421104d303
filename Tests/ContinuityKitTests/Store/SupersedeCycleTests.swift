import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A `supersedes` relationship that would close a cycle is refused; a cycle already stored
/// (older data, a direct edit of the database) is reported, and its items can still be edited.
/// (An item naming itself in a relationship was refused before, by `Limits.validate`.)
@Suite("Supersede cycles in the store")
struct SupersedeCycleTests {
  static func supersedes(_ n: Int) -> KnowledgeRelationship { KnowledgeRelationship(kind: .supersedes, targetID: sequentialID(n)) }

  /// Writes a relationship row as an older build or a direct edit could have.
  static func storeEdge(_ tx: WorkspaceTransaction, from source: Int, to target: Int, ordinal: Int = 0) throws {
    try tx.db.run(
      "INSERT INTO knowledge_relationship(source_id, ordinal, kind, target_id) VALUES (?, ?, 'supersedes', ?)",
      [.text(sequentialID(source).uuidString), .integer(Int64(ordinal)), .text(sequentialID(target).uuidString)])
  }

  struct Case: CustomStringConvertible, Sendable {
    var name: String
    /// Items 1…3, each with the `supersedes` targets listed (inserted in order).
    var stored: [(Int, [Int])]
    /// The update refused: item, its new `supersedes` targets.
    var update: (Int, [Int])
    var field: String
    var message: String
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "directly", stored: [(1, []), (2, [1])], update: (1, [2]), field: "relationships[0]",
      message: "relationships[0]: knowledge item \(sequentialID(1).uuidString) cannot supersede \(sequentialID(2).uuidString): "
        + "\(sequentialID(2).uuidString) already supersedes \(sequentialID(1).uuidString), so this would make a supersede cycle "
        + "(\(sequentialID(1).uuidString) supersedes \(sequentialID(2).uuidString) supersedes \(sequentialID(1).uuidString))"),
    Case(
      name: "through a chain", stored: [(1, []), (2, [1]), (3, [2])], update: (1, [3]), field: "relationships[0]",
      message: "\(sequentialID(3).uuidString) already supersedes \(sequentialID(1).uuidString) through a chain, so this would make a "
        + "supersede cycle (\(sequentialID(1).uuidString) supersedes \(sequentialID(3).uuidString) supersedes "
        + "\(sequentialID(2).uuidString) supersedes \(sequentialID(1).uuidString))"),
  ]

  @Test("a supersede that would close a cycle is refused, naming the field and the ids; nothing changes", arguments: cases)
  func refused(_ c: Case) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for (n, targets) in c.stored { try tx.insertKnowledge(item(n, relationships: targets.map(Self.supersedes))) }
    }
    let before = try store.read { tx in try tx.snapshot() }
    var changed = try #require(try store.read { tx in try tx.knowledge(id: sequentialID(c.update.0)) })
    changed.relationships = c.update.1.map(Self.supersedes)
    let error = #expect(throws: WorkspaceError.self) { try store.write { tx in try tx.updateKnowledge(changed) } }
    guard case .validation(let v) = error else {
      Issue.record("expected a validation error, got \(String(describing: error))")
      return
    }
    #expect(v.field == c.field)
    #expect(v.message.contains(c.message), "\(v.message)")
    #expect(try store.read { tx in try tx.snapshot() } == before)
    #expect(try store.read { tx in try tx.supersedeGraph().cycles }.isEmpty)
  }

  @Test("a stored cycle is a reference problem naming its ids; its items can still be edited")
  func storedCycle() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(item(1))
      try tx.insertKnowledge(item(2, relationships: [Self.supersedes(1)]))
      try Self.storeEdge(tx, from: 1, to: 2)
    }
    let problems = try store.read { tx in try tx.referenceProblems() }
    #expect(
      problems == [
        "knowledge \(sequentialID(1).uuidString), \(sequentialID(2).uuidString) supersede each other in a cycle; none of them "
          + "stands as the successor, so the digest shows them all and asks which one stands (delete one, or export, remove "
          + "one supersedes relationship and import with --on-conflict replace)"
      ])
    // Its relationships are already stored, so editing the item is not refused…
    var one = try #require(try store.read { tx in try tx.knowledge(id: sequentialID(1)) })
    one.content = "edited"
    one.revision += 1
    try store.write { tx in try tx.updateKnowledge(one) }
    // …and dropping the relationship that closes the cycle resolves it.
    one.relationships = []
    try store.write { tx in try tx.updateKnowledge(one) }
    #expect(try store.read { tx in try tx.referenceProblems() }.isEmpty)
  }
}
