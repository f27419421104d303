import ContinuityKit
import Foundation
import Testing
import TestSupport

@Suite("Keyset pages of knowledge items")
struct KnowledgePageTests {
  @Test("Pages follow id order from after the given id, at most limit items each")
  func pages() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    // Inserted out of id order, with newer items first.
    let ids = [7, 2, 9, 4, 1].map(sequentialID)
    try store.write { tx in
      for (n, id) in ids.enumerated() {
        try tx.insertKnowledge(
          KnowledgeItem(id: id, kind: .fact, title: "Item \(n)", createdAt: t0.addingTimeInterval(Double(-n))))
      }
    }
    let sorted = ids.sorted { $0.uuidString < $1.uuidString }
    let first = try store.read { try $0.listKnowledge(afterID: nil, limit: 2) }
    #expect(first.map(\.id) == Array(sorted.prefix(2)))
    let second = try store.read { try $0.listKnowledge(afterID: first.last?.id, limit: 2) }
    #expect(second.map(\.id) == Array(sorted[2..<4]))
    let last = try store.read { try $0.listKnowledge(afterID: second.last?.id, limit: 2) }
    #expect(last.map(\.id) == [sorted[4]])
    #expect(try store.read { try $0.listKnowledge(afterID: sorted[4], limit: 2) }.isEmpty)
    // An id that is not stored still names a position.
    #expect(try store.read { try $0.listKnowledge(afterID: sequentialID(3), limit: 10) }.map(\.id) == [4, 7, 9].map(sequentialID))
    #expect(try store.read { try $0.listKnowledge(afterID: nil, limit: 0) }.count == 1, "limit counts as at least 1")
  }
}
