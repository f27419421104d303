import ContinuityKit
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Schema step 0006 on a database in the shape an older build left: tags stored by an import
/// that did not normalize them.
@Suite("Stored tags migration", .serialized)
struct TagNormalizationMigrationTests {
  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

  static func knowledge(_ n: Int, _ title: String, tags: [String]) -> KnowledgeItem {
    KnowledgeItem(
      id: sequentialID(n), kind: .fact, title: title, content: "content \(n)", source: .import, tags: tags,
      createdAt: t0, updatedAt: t0.addingTimeInterval(Double(n)), revision: 3)
  }

  /// A workspace as a build before step 0006 left it after importing un-normalized tags: the
  /// records and their search-index entries hold the tags as given.
  static func oldWorkspace(in ws: URL) throws {
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    try store.write { tx in
      let items = [
        knowledge(1, "Duplicated tags", tags: [" Storage ", "SQLITE", "sqlite", "Cafe\u{301}", "café"]),
        knowledge(2, "Normal tags", tags: ["storage", "normal"]),
        knowledge(3, "Line break in a tag", tags: ["placeholder"]),
        knowledge(4, "Invisible tag", tags: ["\u{200B}"]),
      ]
      for item in items {
        let rowid = try tx.insertKnowledge(item)
        try LexicalIndexStore.index(knowledge: item, rowID: rowid, in: tx)
      }
      // Refused by today's validation, so written as an older build could have stored it.
      let rowid = try #require(try tx.knowledgeRowID(sequentialID(3)))
      try tx.db.run("UPDATE knowledge SET tags = ? WHERE rowid = ?", [.text(#"["Line\nBreak"]"#), .integer(rowid)])
      try tx.db.run("UPDATE knowledge_tag SET tag = ? WHERE knowledge_rowid = ?", [.text("Line\nBreak"), .integer(rowid)])
      try LexicalIndexStore.remove(knowledgeRowID: rowid, in: tx)
      var three = items[2]
      three.tags = ["Line\nBreak"]
      try LexicalIndexStore.index(knowledge: three, rowID: rowid, in: tx)
      let memory = MemoryItem(id: sequentialID(50), text: "Prefer tabs", tags: ["Style", "STYLE "], createdAt: t0)
      let memoryRow = try tx.insertMemory(memory)
      try LexicalIndexStore.index(memory: memory, rowID: memoryRow, in: tx)
      // Back to the schema before step 0006.
      try tx.db.execute("DROP TABLE lexical_stale")
      try tx.db.run("DELETE FROM schema_migration WHERE name = ?", [.text(TagNormalizationStep.name)])
    }
  }

  /// Every row of the search index by value (term ids aside), for comparing two indexes of
  /// the same records.
  static func indexRows(_ store: SQLiteWorkspaceStore) throws -> [String] {
    try store.read { tx in
      let documents = try tx.db.all(
        "SELECT doc || ':' || title_length || ':' || tags_length || ':' || content_length FROM lexical_document ORDER BY doc"
      ) { $0.text(0) }
      let postings = try tx.db.all(
        """
        SELECT p.doc || ':' || t.term || '=' || p.title_frequency || '/' || p.tags_frequency || '/' || p.content_frequency
          || '/' || hex(p.positions) || ' df ' || t.document_frequency
        FROM lexical_posting p JOIN lexical_term t ON t.term_id = p.term_id ORDER BY p.doc, t.term
        """
      ) { $0.text(0) }
      let trigrams = try tx.db.all(
        "SELECT g.trigram || ':' || t.term FROM lexical_trigram g JOIN lexical_term t ON t.term_id = g.term_id ORDER BY 1"
      ) { $0.text(0) }
      let stats = try tx.db.all(
        "SELECT document_count || ':' || title_length || ':' || tags_length || ':' || content_length FROM lexical_stats"
      ) { $0.text(0) }
      return documents + postings + trigrams + stats
    }
  }

  @Test("tags are normalized and merged, nothing else changes, and the search index follows")
  func migratesOldTags() throws {
    let dir = TemporaryDirectory("tags0006")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try Self.oldWorkspace(in: ws)

    let store = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(try store.appliedMigrations().contains(TagNormalizationStep.name))
    let after = try store.read { tx in try tx.snapshot() }
    #expect(after.knowledge.map(\.id) == (1...4).map(sequentialID))
    #expect(after.knowledge.map(\.tags) == [["storage", "sqlite", "café"], ["storage", "normal"], ["line break"], []])
    #expect(after.memories.map(\.tags) == [["style"]])
    // A change of form, not an edit: every other field is as it was.
    for (n, item) in after.knowledge.enumerated() {
      #expect(item.title == ["Duplicated tags", "Normal tags", "Line break in a tag", "Invisible tag"][n])
      #expect(item.revision == 3 && item.updatedAt == Self.t0.addingTimeInterval(Double(n + 1)))
      #expect(item.content == "content \(n + 1)")
    }
    #expect(after.memories.map(\.text) == ["Prefer tabs"])

    // The tag rows follow the items: a (normalized) tag filter finds them now.
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    #expect(Set(try engine.knowledgeListing(tag: "Storage").items.map(\.id)) == [sequentialID(1), sequentialID(2)])
    #expect(try engine.knowledgeListing(tag: "CAFÉ").items.map(\.id) == [sequentialID(1)])
    #expect(try engine.knowledgeListing(tag: "line break").items.map(\.id) == [sequentialID(3)])
    #expect(try store.read { tx in try tx.db.integer("SELECT count(*) FROM knowledge_tag WHERE knowledge_rowid = (SELECT rowid FROM knowledge WHERE id = ?)", [.text(sequentialID(1).uuidString)]) } == 3)

    // Only the rewritten records are listed for the index, and indexing them gives exactly the
    // index a full rebuild gives.
    let stale = try store.read { tx in try tx.db.all("SELECT doc FROM lexical_stale ORDER BY doc") { $0.int64(0) } }
    let rows = try store.read { tx in try [1, 3, 4].map { n in try #require(try tx.knowledgeRowID(sequentialID(n))) } }
    #expect(stale.filter { $0 > 0 } == rows)
    #expect(stale.filter { $0 < 0 }.count == 1)
    // Listed documents are pending work, not a disagreement with the records.
    #expect(try engine.verifySearchIndex() == [])
    #expect(try engine.searchIndexDocumentsPendingReindex() == 4)
    // Preparing the index for a search indexes them and tells the observer how many, once.
    let seen = Mutex<[SearchIndexPreparation]>([])
    let observed = KnowledgeEngine(
      store: store, environment: fixedEnvironment(), searchIndexObserver: { p in seen.withLock { $0.append(p) } })
    #expect(try observed.prepareSearchIndex() == .reindexed(documents: 4))
    #expect(try observed.prepareSearchIndex() == .current)
    #expect(seen.withLock { $0 } == [.reindexed(documents: 4)])
    #expect(try engine.reindexStaleDocuments() == 0)
    #expect(try engine.searchIndexDocumentsPendingReindex() == 0)
    #expect(try engine.verifySearchIndex() == [])
    let incremental = try Self.indexRows(store)
    try engine.rebuildSearchIndex()
    let rebuilt = try Self.indexRows(store)
    #expect(rebuilt == incremental, "\(rebuilt.filter { !incremental.contains($0) }) vs \(incremental.filter { !rebuilt.contains($0) })")

    // The item whose tag held a line break can be revised again (its tags validate).
    _ = try engine.reviseContent(of: sequentialID(3), to: "revised")
    #expect(try engine.knowledge(id: sequentialID(3)).tags == ["line break"])
  }

  @Test("a workspace whose tags are already normal is left byte for byte as it was")
  func normalTagsUntouched() throws {
    let dir = TemporaryDirectory("tags0006-normal")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let before: AssistantWorkspace
    do {
      let store = try SQLiteWorkspaceStore.open(directory: ws)
      let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
      _ = try engine.capture(CaptureRequest(kind: .fact, title: "Captured", tags: [" Storage ", "SQLITE", "sqlite"]))
      _ = try engine.saveMemory(text: "Saved", tags: ["Style"])
      try store.write { tx in
        try tx.db.execute("DROP TABLE lexical_stale")
        try tx.db.run("DELETE FROM schema_migration WHERE name = ?", [.text(TagNormalizationStep.name)])
      }
      before = try store.read { tx in try tx.snapshot() }
    }
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(try store.appliedMigrations().contains(TagNormalizationStep.name))
    #expect(try store.read { tx in try tx.snapshot() } == before)
    #expect(try store.read { tx in try tx.db.integer("SELECT count(*) FROM lexical_stale") } == 0)
  }
}
