import ContinuityKit
import Foundation
import Testing

@testable import KnowledgeEngine

/// Regression (review, s14): another program deleted a search-index document entry
/// (`sqlite3 workspace.sqlite "DELETE FROM lexical_document WHERE …"`) and left its postings.
/// Removing an entry goes by the term list the document entry holds, so those postings stayed
/// under the document's key, and the next write under that key — a capture, memory save, bulk
/// capture or import after the record itself was deleted too (SQLite gives its row id out again),
/// or a revision of the record when only its entry was deleted — failed with SQLite's bare
/// `UNIQUE constraint failed: lexical_posting.term_id, lexical_posting.doc`. Each now stores its
/// records, the new record inherits none of the old words, and the index agrees with the records.
struct LeftPostingsTests {
  /// A workspace holding `Parking rules` and `Postgres billing ledger`; then the second item
  /// (the newest row) and its index document entry are deleted outside dolphin, leaving its
  /// postings. Returns the engine and the store.
  static func workspaceWithLeftPostings() throws -> (KnowledgeEngine, SQLiteWorkspaceStore) {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store)
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Parking rules", content: "Level two only."))
    let gone = try engine.capture(
      CaptureRequest(kind: .decision, title: "Postgres billing ledger", content: "Postgres keeps the ledger.")
    ).item
    try store.write { tx in
      let row = try #require(
        try tx.db.first("SELECT rowid FROM knowledge WHERE id = ?", [.text(gone.id.uuidString)], { $0.int64(0) }))
      try tx.db.run("DELETE FROM knowledge_tag WHERE knowledge_rowid = ?", [.integer(row)])
      try tx.db.run("DELETE FROM knowledge WHERE rowid = ?", [.integer(row)])
      try tx.db.run("DELETE FROM lexical_document WHERE doc = ?", [.integer(row)])
    }
    return (engine, store)
  }

  /// What every case checks afterwards: no posting without its document, the old words find
  /// nothing, and the freshness check finds every record indexed as stored.
  static func expectIndexAgrees(_ engine: KnowledgeEngine, _ store: SQLiteWorkspaceStore, records: Int) throws {
    let left = try store.read { tx in
      try tx.db.integer(
        "SELECT count(*) FROM lexical_posting p WHERE NOT EXISTS (SELECT 1 FROM lexical_document d WHERE d.doc = p.doc)")
    }
    #expect(left == 0)
    #expect(try engine.search("ledger").total == 0)
    let freshness = try #require(try engine.searchIndexFreshness())
    #expect(freshness.staleCount == 0, "\(freshness.stale)")
    #expect(freshness.checked == records)
    let problems = try engine.verifySearchIndex()
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("a capture under the reused row id is stored and indexed (it failed on lexical_posting's key)")
  func capture() throws {
    let (engine, store) = try Self.workspaceWithLeftPostings()
    let item = try engine.capture(
      CaptureRequest(kind: .decision, title: "Postgres for analytics", content: "Postgres again, for reports.")
    ).item
    #expect(try engine.search("postgres").results.map(\.id) == [item.id])
    #expect(try engine.listKnowledge().map(\.title).sorted() == ["Parking rules", "Postgres for analytics"])
    try Self.expectIndexAgrees(engine, store, records: 2)
  }

  @Test("a memory save (memory and mirror) is stored when the mirror's row id holds left postings")
  func memorySave() throws {
    let (engine, store) = try Self.workspaceWithLeftPostings()
    let saved = try engine.saveMemory(text: "Postgres vacuum runs nightly", tags: ["ops"])
    #expect(try engine.search("vacuum").results.map(\.id) == [saved.mirror.id])
    try Self.expectIndexAgrees(engine, store, records: 3)
  }

  @Test("a bulk capture is stored when one of its row ids holds left postings")
  func bulkCapture() throws {
    let (engine, store) = try Self.workspaceWithLeftPostings()
    let stored = try engine.captureBulk([
      CaptureRequest(kind: .goal, title: "Postgres upgrade", content: "Move to Postgres 16."),
      CaptureRequest(kind: .context, title: "Billing team", content: "Owns the invoices."),
    ]).items
    #expect(try engine.search("postgres").results.map(\.id) == [stored[0].id])
    try Self.expectIndexAgrees(engine, store, records: 3)
  }

  @Test("an import is stored when one of its row ids holds left postings")
  func importDocument() throws {
    let source = SQLiteWorkspaceStore.inMemory()
    let other = KnowledgeEngine(store: source)
    let exported = try other.capture(
      CaptureRequest(kind: .decision, title: "Postgres read replicas", content: "Postgres replicas serve reports.")
    ).item
    let document = try other.exportWorkspace(generator: "test")

    let (engine, store) = try Self.workspaceWithLeftPostings()
    let report = try engine.applyImport(document, source: "export.json")
    #expect(report.plan.collections.first { $0.name == "knowledge" }?.new == 1)
    #expect(try engine.search("replicas").results.map(\.id) == [exported.id])
    try Self.expectIndexAgrees(engine, store, records: 2)
  }

  @Test("revising an item whose document entry alone was deleted re-indexes it from scratch")
  func reviseKeptItem() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store)
    let item = try engine.capture(
      CaptureRequest(kind: .decision, title: "Postgres billing ledger", content: "Postgres keeps the ledger.")
    ).item
    try store.write { tx in try tx.db.run("DELETE FROM lexical_document") }

    let revised = try engine.reviseContent(of: item.id, to: "Postgres keeps the invoices.")
    #expect(revised.revision == 2)
    #expect(try engine.search("invoices").results.map(\.id) == [item.id])
    let left = try store.read { tx in
      try tx.db.integer(
        "SELECT count(*) FROM lexical_posting p WHERE NOT EXISTS (SELECT 1 FROM lexical_document d WHERE d.doc = p.doc)")
    }
    #expect(left == 0)
    let freshness = try #require(try engine.searchIndexFreshness())
    #expect(freshness.staleCount == 0, "\(freshness.stale)")
    #expect(try engine.verifySearchIndex().isEmpty)
  }

  @Test("another failure inside the index write is thrown as it is and leaves no savepoint open")
  func otherErrorsPass() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    _ = try KnowledgeEngine(store: store).capture(CaptureRequest(kind: .fact, title: "Parking rules"))
    struct Refusal: Error {}
    #expect(throws: Refusal.self) {
      try store.write { tx in
        try LexicalIndexStore.writingOverLeftPostings(under: [1], in: tx) {
          try LexicalIndexStore.remove(key: 1, in: tx)
          throw Refusal()
        }
      }
    }
    // The rollback put the entry back, and the store takes the next write.
    #expect(try store.read { tx in try tx.db.integer("SELECT count(*) FROM lexical_document") } == 1)
    _ = try KnowledgeEngine(store: store).capture(CaptureRequest(kind: .fact, title: "Lunch menu"))
  }
}
