import ContinuityKit
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import KnowledgeEngine

/// A rebuild stages the new index in a read transaction, so other writers are not blocked
/// meanwhile, and catches up with what they wrote when it installs: the result is the index a
/// rebuild at that moment would have made.
@Suite("Staged search-index rebuild", .serialized)
struct StagedIndexRebuildTests {
  /// Where the writes between staging and installing come from.
  enum Writer: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Another connection (another process, or the CLI while `dolphin mcp` rebuilds), writing
    /// while the staging read transaction is still open.
    case otherConnection
    /// The rebuilding connection itself (the in-memory store), between the two phases.
    case sameConnection
    var testDescription: String { rawValue }
  }

  /// Writes that change, add and remove indexed documents, and one commit that changes none.
  /// - Returns: the ids of the item now titled "Øresund tunnel", the new item, and the deleted one.
  static func writeMeanwhile(_ engine: KnowledgeEngine, items: [KnowledgeItem]) throws -> (
    revised: UUID, added: UUID, deleted: UUID
  ) {
    let added = try engine.capture(
      CaptureRequest(kind: .decision, title: "Ærø harbour schedule", content: "Ferries every hour.")
    ).item
    _ = try engine.reviseContent(of: items[3].id, to: "Moved to the Øresund tunnel archive.")
    _ = try engine.apply(try engine.planDeletion(of: .knowledge(items[4].id)))
    _ = try engine.saveMemory(text: "Łeba dunes trip", tags: ["travel"])
    _ = try engine.addTask(title: "A task changes no indexed document")
    return (items[3].id, added.id, items[4].id)
  }

  @Test("writers commit while it stages; installing catches up with them exactly", arguments: Writer.allCases)
  func catchesUp(_ writer: Writer) throws {
    let directory = TemporaryDirectory("staged-rebuild")
    defer { directory.remove() }
    let store: SQLiteWorkspaceStore =
      writer == .otherConnection ? try SQLiteWorkspaceStore.open(directory: directory.url) : .inMemory()
    let items = try SearchIndexPreparationTests.populate(store)
    try SearchIndexPreparationTests.makeVersion1(store)
    let writing = KnowledgeEngine(store: store)
    // The rebuild's own connection (what prepareSearchIndex opens for a file store).
    let rebuilding = try store.reopened() ?? store

    var changed: (revised: UUID, added: UUID, deleted: UUID)?
    let staged = try rebuilding.read { tx in
      let staged = try StagedIndexRebuild.stage(in: tx)
      if writer == .otherConnection {
        // Still inside the staging transaction: a writer that waits at most 300 ms must not
        // wait at all.
        store.setBusyTimeout(milliseconds: 300)
        changed = try Self.writeMeanwhile(writing, items: items)
      }
      return staged
    }
    if writer == .sameConnection { changed = try Self.writeMeanwhile(writing, items: items) }
    let ids = try #require(changed)
    let (documents, caughtUp) = try rebuilding.write { tx in
      let installed = try staged.install(in: tx)
      try StagedIndexRebuild.dropTables(tx.db)
      return installed
    }
    // The revised item, the added one, the deleted one, the new memory and its mirror.
    #expect(caughtUp == 5)

    let engine = KnowledgeEngine(store: store)
    // requests + memory and its knowledge mirror − deleted + added + new memory and mirror.
    #expect(documents == SearchIndexPreparationTests.requests.count + 2 - 1 + 1 + 2)
    #expect(try engine.verifySearchIndex() == [])
    #expect(try engine.searchIndexTokenizerStatus() == .current)
    let installed = try LexicalIndexStoreTests.IndexDump(engine)
    #expect(try engine.rebuildSearchIndex() == documents)
    #expect(try LexicalIndexStoreTests.IndexDump(engine) == installed, "the same rows a rebuild now writes")

    #expect(try engine.search("oresund tunnel").results.first?.id == ids.revised)
    #expect(try engine.search("aero harbour").results.first?.id == ids.added)
    #expect(try engine.search("leba", memoriesOnly: true).results.map(\.title) == ["Łeba dunes trip"])
    #expect(try engine.search("march").results.map(\.id).contains(ids.deleted) == false)
    #expect(try engine.search("wal single row writes").results.map(\.id).contains(ids.revised) == false)
    let temporary = try store.read { tx in
      try tx.db.integer("SELECT count(*) FROM sqlite_temp_master WHERE name LIKE 'lexical_rebuild%'")
    }
    #expect(temporary == 0)
  }

  @Test("nothing written between staging and installing: no catch-up, the same rows as indexing one by one", arguments: Writer.allCases)
  func noWritesMeanwhile(_ connection: Writer) throws {
    let directory = TemporaryDirectory("staged-rebuild-quiet")
    defer { directory.remove() }
    let store: SQLiteWorkspaceStore =
      connection == .otherConnection ? try SQLiteWorkspaceStore.open(directory: directory.url) : .inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    for request in LexicalIndexStoreTests.requests { _ = try engine.capture(request) }
    _ = try engine.saveMemory(text: "Prefers tabs over spaces", tags: ["style"])
    let incremental = try LexicalIndexStoreTests.IndexDump(engine)
    let rebuilding = try store.reopened() ?? store
    _ = try engine.search("tabs")  // Reads on the other connection are no change.
    let staged = try rebuilding.read { tx in try StagedIndexRebuild.stage(in: tx) }
    _ = try engine.search("tabs")
    let installed = try rebuilding.write { tx in try staged.install(in: tx) }
    #expect(installed.caughtUp == 0, "no record was compared again")
    #expect(installed.documents == LexicalIndexStoreTests.requests.count + 2)
    #expect(try LexicalIndexStoreTests.IndexDump(engine) == incremental)
  }

  @Test("the fingerprint changes with each indexed field and not with others")
  func fingerprints() {
    let base = IndexedDocument(
      id: UUID(), kind: .knowledge(.fact), title: "ab", tags: ["c"], content: "d", updatedAt: Date())
    var variants = [base]
    variants.append(IndexedDocument(id: base.id, kind: .knowledge(.goal), title: "ab", tags: ["c"], content: "d", updatedAt: base.updatedAt))
    variants.append(IndexedDocument(id: base.id, kind: base.kind, title: "a", tags: ["bc"], content: "d", updatedAt: base.updatedAt))
    variants.append(IndexedDocument(id: base.id, kind: base.kind, title: "ab", tags: ["c", ""], content: "d", updatedAt: base.updatedAt))
    variants.append(IndexedDocument(id: base.id, kind: base.kind, title: "ab", tags: [], content: "cd", updatedAt: base.updatedAt))
    let prints = variants.map(StagedIndexRebuild.fingerprint)
    #expect(Set(prints).count == variants.count, "\(prints)")
    let retimed = IndexedDocument(
      id: UUID(), kind: base.kind, title: "ab", tags: ["c"], content: "d", updatedAt: Date.distantPast)
    #expect(StagedIndexRebuild.fingerprint(retimed) == prints[0], "id and time are not indexed")
  }
}
