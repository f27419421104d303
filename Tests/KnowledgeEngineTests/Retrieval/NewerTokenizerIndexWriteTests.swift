import ContinuityKit
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import KnowledgeEngine

/// A dolphin still running from before an upgrade (an unrestarted `dolphin mcp`) writes into an
/// index that the upgraded dolphin rebuilt with a newer tokenizer. It must not put its own,
/// older terms there — the newer build's queries would not match them — but list the document
/// in `lexical_stale` for the newer build to index; the records are written as always.
///
/// The newer build is simulated by recording ``Tokenizer/version`` + 1 in the index.
struct NewerTokenizerIndexWriteTests {
  static let newer = Tokenizer.version + 1

  /// One write path of an older build, and what the newer build must then find.
  struct Write: CustomTestStringConvertible, Sendable {
    var name: String
    /// Does the write into `engine`'s workspace (which holds `existing`); returns the query
    /// that finds what it wrote and the knowledge ids the query must find.
    var run: @Sendable (_ engine: KnowledgeEngine, _ existing: [KnowledgeItem]) throws -> (query: String, ids: [UUID])
    /// Whether the write leaves every existing index row as it was (it only adds records).
    var onlyAdds = true
    var testDescription: String { name }
  }

  static let writes: [Write] = [
    Write(name: "capture") { engine, _ in
      let item = try engine.capture(CaptureRequest(kind: .fact, title: "Zanzibar ferry timetable")).item
      return ("zanzibar", [item.id])
    },
    Write(name: "bulk capture") { engine, _ in
      let items = try engine.captureBulk([
        CaptureRequest(kind: .fact, title: "Zanzibar ferry timetable"),
        CaptureRequest(kind: .goal, title: "Visit Zanzibar in June"),
      ]).items
      return ("zanzibar", items.map(\.id).sorted { $0.uuidString < $1.uuidString })
    },
    Write(name: "memory save") { engine, _ in
      let saved = try engine.saveMemory(text: "Zanzibar ferry leaves at nine", tags: ["travel"])
      return ("zanzibar", [saved.mirror.id])
    },
    Write(name: "content update", run: { engine, existing in
      let item = try engine.reviseContent(of: existing[0].id, to: "Now by Zanzibar ferry instead")
      return ("zanzibar", [item.id])
    }, onlyAdds: false),
    Write(name: "import") { engine, _ in
      let source = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
      let item = try source.capture(CaptureRequest(kind: .decision, title: "Zanzibar ferry booked")).item
      let mirror = try source.saveMemory(text: "Zanzibar harbour map").mirror
      let document = try source.exportWorkspace(generator: "dolphin test")
      _ = try engine.applyImport(document, source: "export.json")
      return ("zanzibar", [item.id, mirror.id].sorted { $0.uuidString < $1.uuidString })
    },
  ]

  /// Every record's index key: knowledge row ids, and negated memory row ids.
  static func recordKeys(_ store: any WorkspaceStore) throws -> Set<Int64> {
    try store.read { tx in
      Set(try tx.db.all("SELECT rowid FROM knowledge UNION ALL SELECT -rowid FROM memory") { $0.int64(0) })
    }
  }

  static func indexedKeys(_ store: any WorkspaceStore) throws -> Set<Int64> {
    try store.read { tx in Set(try tx.db.all("SELECT doc FROM lexical_document") { $0.int64(0) }) }
  }

  static func staleKeys(_ store: any WorkspaceStore) throws -> Set<Int64> {
    try store.read { tx in Set(try tx.db.all("SELECT doc FROM lexical_stale") { $0.int64(0) }) }
  }

  static func setVersion(_ version: Int, _ store: any WorkspaceStore) throws {
    try store.write { tx in try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, String(version)) }
  }

  @Test("an older build's write into a newer tokenizer's index writes the records, no terms, and lists the documents stale", arguments: writes)
  func olderBuildDefersToNewerIndex(_ write: Write) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let existing = try SearchIndexPreparationTests.populate(store)
    try Self.setVersion(Self.newer, store)
    let indexBefore = try LexicalIndexStoreTests.IndexDump(KnowledgeEngine(store: store))
    let recordsBefore = try Self.recordKeys(store)

    let older = KnowledgeEngine(store: store)
    let (query, ids) = try write.run(older, existing)

    // Records written as always; the documents they changed or added have no index rows and are
    // listed instead — and nothing else is.
    let records = try Self.recordKeys(store)
    #expect(records.count > recordsBefore.count || !write.onlyAdds)
    let stale = try Self.staleKeys(store)
    #expect(!stale.isEmpty)
    #expect(stale.isDisjoint(with: try Self.indexedKeys(store)), "no index document for a listed one")
    #expect(records.subtracting(stale) == (try Self.indexedKeys(store)), "every other record stays indexed")
    let postings = try store.read { tx in
      try tx.db.integer("SELECT count(*) FROM lexical_posting WHERE doc IN (SELECT doc FROM lexical_stale)")
    }
    #expect(postings == 0, "no term of this build for a listed document")
    if write.onlyAdds {
      #expect(try LexicalIndexStoreTests.IndexDump(older) == indexBefore, "the newer build's index is untouched")
    }
    #expect(try SearchIndexPreparationTests.storedVersion(store) == String(Self.newer))
    // Pending work, not a disagreement with the records; this build leaves it to the newer one.
    #expect(try older.verifySearchIndex() == [])
    #expect(try older.searchIndexDocumentsPendingReindex() == stale.count)
    #expect(try older.reindexStaleDocuments() == 0)
    #expect(try Self.staleKeys(store) == stale)
    // This build still finds what it wrote (it ranks over the records in memory).
    #expect(try older.search(query).results.map(\.id).sorted { $0.uuidString < $1.uuidString } == ids)
    #expect(try Self.staleKeys(store) == stale)

    // The newer build (here: the version set back to this build's) indexes them at its next
    // search, says so, and leaves exactly the index a rebuild makes.
    try Self.setVersion(Tokenizer.version, store)
    let seen = Mutex<[SearchIndexPreparation]>([])
    let newer = KnowledgeEngine(store: store, searchIndexObserver: { p in seen.withLock { $0.append(p) } })
    #expect(try newer.search(query).results.map(\.id).sorted { $0.uuidString < $1.uuidString } == ids)
    #expect(seen.withLock { $0 } == [.reindexed(documents: stale.count)])
    #expect(try Self.staleKeys(store).isEmpty)
    #expect(try Self.indexedKeys(store) == records)
    #expect(try newer.verifySearchIndex() == [])
    let reindexed = try LexicalIndexStoreTests.IndexDump(newer)
    _ = try newer.rebuildSearchIndex()
    #expect(try LexicalIndexStoreTests.IndexDump(newer) == reindexed)
  }

  @Test("an older build deletes a document from a newer tokenizer's index: its rows go, the rest stays consistent")
  func olderBuildDeletes() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let existing = try SearchIndexPreparationTests.populate(store)
    try Self.setVersion(Self.newer, store)
    let older = KnowledgeEngine(store: store)
    _ = try older.apply(try older.planDeletion(of: .knowledge(existing[0].id)))
    #expect(try Self.staleKeys(store).isEmpty)
    #expect(try Self.indexedKeys(store) == (try Self.recordKeys(store)))
    #expect(try older.verifySearchIndex() == [])
    #expect(try SearchIndexPreparationTests.storedVersion(store) == String(Self.newer))
  }

  @Test("an empty index is anyone's: an older build indexes its first document there and records its version")
  func emptyNewerIndexIsTakenOver() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try Self.setVersion(Self.newer, store)
    let engine = KnowledgeEngine(store: store)
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Zanzibar ferry timetable")).item
    #expect(try Self.staleKeys(store).isEmpty)
    #expect(try SearchIndexPreparationTests.storedVersion(store) == String(Tokenizer.version))
    #expect(try engine.prepareSearchIndex() == .current)
    #expect(try engine.search("zanzibar").results.map(\.id) == [item.id])
  }
}
