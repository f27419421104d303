import ContinuityKit
import Foundation
import Testing

@testable import KnowledgeEngine

/// SQLite gives the largest row id out again once that row is gone. A record deleted by another
/// program (`sqlite3 … "DELETE FROM knowledge …"`) leaves its search-index entry under that id,
/// and the bulk write paths assumed the ids of records they had just stored were unindexed:
/// `captureBulk` and `import` failed on `lexical_document.doc`'s UNIQUE constraint (review,
/// s12). They now remove such an entry first, as a single capture does.
struct BulkIndexReusedRowIDTests {
  @Test("captureBulk after the newest item was deleted outside dolphin stores the batch and inherits none of its words")
  func captureBulkAfterOutsideDelete() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store)
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Parking rules"))
    let gone = try engine.capture(CaptureRequest(kind: .fact, title: "Secret project Falcon")).item
    try store.write { tx in
      try tx.db.run("DELETE FROM knowledge WHERE id = ?", [.text(gone.id.uuidString)])
    }

    let stored = try engine.captureBulk([
      CaptureRequest(kind: .decision, title: "Lunch menu", content: "Soup on Mondays."),
      CaptureRequest(kind: .goal, title: "Dinner plans", content: "Book a table."),
    ]).items
    #expect(stored.count == 2)
    #expect(try engine.search("falcon").total == 0)
    #expect(try engine.search("lunch").results.map(\.id) == [stored[0].id])
    #expect(try engine.search("dinner").results.map(\.id) == [stored[1].id])
    let freshness = try #require(try engine.searchIndexFreshness())
    #expect(freshness.staleCount == 0, "\(freshness.stale)")
    #expect(freshness.checked == 3)
  }

  @Test("a batch whose ids were never used removes nothing")
  func untouchedIndex() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store)
    let first = try engine.capture(CaptureRequest(kind: .fact, title: "Parking rules")).item
    _ = try engine.captureBulk([CaptureRequest(kind: .fact, title: "Lunch menu")])
    #expect(try engine.search("parking").results.map(\.id) == [first.id])
    let documents = try store.read { tx in try tx.db.first("SELECT count(*) FROM lexical_document", [], { $0.int64(0) }) }
    #expect(documents == 2)
  }
}
