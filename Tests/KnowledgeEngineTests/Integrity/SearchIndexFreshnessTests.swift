import ContinuityKit
import Foundation
import TestSupport
import Testing

@testable import KnowledgeEngine

/// `dolphin doctor` did not notice a search index made stale by an edit outside dolphin
/// (`sqlite3 ws.sqlite "UPDATE knowledge SET title = 'x' WHERE …"`): the index's sums still
/// agreed. ``KnowledgeEngine/searchIndexFreshness(listing:)`` tokenizes each record again and
/// compares it with the index's document row.
@Suite("Search index freshness")
struct SearchIndexFreshnessTests {
  /// A workspace of three knowledge items and one memory (with its mirror item).
  struct Workspace {
    let engine: KnowledgeEngine
    let store: SQLiteWorkspaceStore
    let items: [KnowledgeItem]
    let memory: MemoryItem

    init() throws {
      let store = SQLiteWorkspaceStore.inMemory()
      let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
      self.store = store
      self.engine = engine
      items = try [
        CaptureRequest(kind: .decision, title: "Use SQLite for the workspace", content: "WAL mode and busy timeout", tags: ["storage"]),
        CaptureRequest(kind: .fact, title: "The ferry leaves at nine", content: "From the north pier, daily"),
        CaptureRequest(kind: .goal, title: "Ship the first release", content: "Before the summer break"),
      ].map { try engine.capture($0).item }
      memory = try engine.saveMemory(text: "Remember the harbour office number").memory
    }

    /// Runs `sql` on the database as another program would: the records change, the index does not.
    func editOutsideDolphin(_ sql: String, _ values: [SQLValue] = []) throws {
      try store.write { tx in try tx.db.run(sql, values) }
    }

    func rowID(_ item: KnowledgeItem) throws -> Int64 {
      try store.read { tx in try tx.db.integer("SELECT rowid FROM knowledge WHERE id = ?", [.text(item.id.uuidString)]) }
    }
  }

  @Test("an index written by dolphin matches every record")
  func fresh() throws {
    let w = try Workspace()
    let freshness = try #require(try w.engine.searchIndexFreshness())
    #expect(freshness == SearchIndexFreshness(checked: 5, staleCount: 0, stale: []))
  }

  // A malformed id stopped the whole check (and doctor with it) with "damaged": doctor names
  // such ids itself, so the check reads around them.
  @Test("records whose id is not a UUID are skipped, the others still compared")
  func malformedIDsSkipped() throws {
    let w = try Workspace()
    try w.editOutsideDolphin("UPDATE knowledge SET id = 'HF-7' WHERE id = ?", [.text(w.items[0].id.uuidString)])
    try w.editOutsideDolphin("UPDATE memory SET id = 'M-1', text = 'x' WHERE id = ?", [.text(w.memory.id.uuidString)])
    try w.editOutsideDolphin("UPDATE knowledge SET title = 'x' WHERE id = ?", [.text(w.items[1].id.uuidString)])
    let freshness = try #require(try w.engine.searchIndexFreshness())
    #expect(freshness.checked == 3 && freshness.staleCount == 1, "\(freshness)")
    #expect(freshness.stale.map(\.id) == [w.items[1].id])
  }

  /// One edit made outside dolphin and what the check says differs.
  struct Edit: CustomTestStringConvertible, Sendable {
    var testDescription: String { name }
    var name: String
    var sql: String
    /// Which of the workspace's records it edits: 0…2 the knowledge items, 3 the memory.
    var record: Int
    var differences: [String]
  }

  static let edits: [Edit] = [
    Edit(name: "a new title", sql: "UPDATE knowledge SET title = 'x' WHERE id = ?", record: 0, differences: ["title"]),
    Edit(name: "another kind", sql: "UPDATE knowledge SET kind = 'insight' WHERE id = ?", record: 1, differences: ["kind"]),
    Edit(name: "new tags", sql: #"UPDATE knowledge SET tags = '["release","summer"]' WHERE id = ?"#, record: 2, differences: ["tags"]),
    Edit(
      name: "one word for another of the same length in terms", sql: "UPDATE knowledge SET content = 'From the south pier, daily' WHERE id = ?",
      record: 1, differences: ["content"]),
    // A tester saw this labelled `words`: the field whose words changed is named.
    Edit(name: "one tag for another", sql: #"UPDATE knowledge SET tags = '["finance"]' WHERE id = ?"#, record: 0, differences: ["tags"]),
    Edit(name: "a memory's text", sql: "UPDATE memory SET text = 'Call the ferry office' WHERE id = ?", record: 3, differences: ["content"]),
  ]

  @Test("a record changed outside dolphin is found, with what differs; reindex makes it match again", arguments: edits)
  func editedOutside(_ edit: Edit) throws {
    let w = try Workspace()
    let id = edit.record < 3 ? w.items[edit.record].id : w.memory.id
    try w.editOutsideDolphin(edit.sql, [.text(id.uuidString)])
    // The premise: the index's own consistency checks see nothing.
    #expect(try w.engine.verifySearchIndex().isEmpty)
    let freshness = try #require(try w.engine.searchIndexFreshness())
    let type = edit.record < 3 ? "knowledge" : "memory"
    #expect(freshness.checked == 5 && freshness.staleCount == 1, "\(freshness)")
    #expect(freshness.stale == [StaleIndexEntry(recordType: type, id: id, differences: edit.differences)])
    #expect(try w.engine.rebuildSearchIndex() == 5)
    #expect(try w.engine.searchIndexFreshness()?.staleCount == 0)
  }

  @Test("every stale record is counted; the listing stops at its limit, in stored order")
  func listingLimit() throws {
    let w = try Workspace()
    try w.editOutsideDolphin("UPDATE knowledge SET title = title || ' edited'")
    let freshness = try #require(try w.engine.searchIndexFreshness(listing: 2))
    #expect(freshness.staleCount == 4 && freshness.stale.count == 2, "\(freshness)")
    #expect(freshness.stale.map(\.id) == [w.items[0].id, w.items[1].id])
  }

  @Test("documents listed for indexing again and records without an entry are left to the other checks")
  func pendingAndMissing() throws {
    let w = try Workspace()
    let first = try w.rowID(w.items[0])
    let second = try w.rowID(w.items[1])
    try w.editOutsideDolphin("UPDATE knowledge SET title = 'x' WHERE rowid IN (?, ?)", [.integer(first), .integer(second)])
    try w.editOutsideDolphin("INSERT INTO lexical_stale(doc) VALUES (?)", [.integer(first)])
    try w.editOutsideDolphin("DELETE FROM lexical_document WHERE doc = ?", [.integer(second)])
    let freshness = try #require(try w.engine.searchIndexFreshness())
    #expect(freshness == SearchIndexFreshness(checked: 3, staleCount: 0, stale: []))
  }

  @Test("an index built by another tokenizer version is not compared")
  func otherTokenizer() throws {
    let w = try Workspace()
    try w.store.write { tx in try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, String(Tokenizer.version + 1)) }
    #expect(try w.engine.searchIndexFreshness() == nil)
  }
}
