import ContinuityKit
import Foundation
import TestSupport
import Testing

@testable import KnowledgeEngine

/// An import prepares everything in a read transaction and holds the write lock only to store
/// it, so other writers go on meanwhile; what they wrote is checked again when it installs, and
/// the import stays all or nothing.
@Suite("Staged import", .serialized)
struct StagedImportTests {
  /// Where the writes between staging and installing come from.
  enum Writer: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Another connection (another process), writing while the staging read transaction is
    /// still open.
    case otherConnection
    /// The importing connection itself (the in-memory store), between the two phases.
    case sameConnection
    var testDescription: String { rawValue }
  }

  /// The sample workspace plus items whose words partly overlap the target's, exported.
  static func exportDocument() throws -> WorkspaceExport {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    try SampleWorkspace.populate(engine)
    _ = try engine.captureBulk(
      (0..<40).map { i in
        CaptureRequest(
          kind: i % 2 == 0 ? .fact : .decision, title: "Harbour note \(i) about the workspace",
          content: "Ferry \(i) leaves pier \(i % 7); tide tables kept in SQLite row \(i * 13).",
          tags: ["harbour", "note\(i % 5)"])
      })
    let json = try engine.exportWorkspace(generator: "dolphin test").jsonData()
    return try WorkspaceExport.decode(json, fileName: "export.json")
  }

  /// A workspace holding one item (so the import is a merge, and shares some of its words).
  static func target(_ writer: Writer, _ directory: TemporaryDirectory) throws -> (SQLiteWorkspaceStore, KnowledgeEngine) {
    let store: SQLiteWorkspaceStore =
      writer == .otherConnection ? try SQLiteWorkspaceStore.open(directory: directory.url) : .inMemory()
    // Live ids: the document's count up from 1.
    let engine = KnowledgeEngine(store: store)
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Existing SQLite workspace note", content: "Kept across the import."))
    return (store, engine)
  }

  /// The engine another process (a second connection to the file) or this one writes with.
  static func writer(_ writer: Writer, _ store: SQLiteWorkspaceStore, _ directory: TemporaryDirectory) throws -> KnowledgeEngine {
    guard writer == .otherConnection else { return KnowledgeEngine(store: store) }
    let other = try SQLiteWorkspaceStore.open(directory: directory.url)
    // A writer that waits at most 300 ms must not wait at all: nothing holds the write lock.
    other.setBusyTimeout(milliseconds: 300)
    return KnowledgeEngine(store: other)
  }

  static func temporaryTables(_ store: SQLiteWorkspaceStore) throws -> Int64 {
    try store.read { tx in
      try tx.db.integer("SELECT count(*) FROM sqlite_temp_master WHERE name LIKE 'import_index%'")
    }
  }

  /// Everything the document holds, and what was written meanwhile, is there; the index agrees
  /// with the records and equals a rebuild's.
  static func expectImported(_ document: WorkspaceExport, into engine: KnowledgeEngine, alongside kept: [KnowledgeItem]) throws {
    for item in document.workspace.knowledge { #expect(try engine.knowledge(id: item.id) == item) }
    for item in kept { #expect(try engine.knowledge(id: item.id) == item) }
    #expect(try engine.store.read { try $0.knowledgeCount() } == document.workspace.knowledge.count + kept.count)
    #expect(try engine.verifySearchIndex() == [])
    let installed = try LexicalIndexStoreTests.IndexDump(engine)
    try engine.rebuildSearchIndex()
    #expect(try LexicalIndexStoreTests.IndexDump(engine) == installed, "the rows a rebuild writes")
    #expect(try engine.search("ferry pier tide").results.count == 10)
    #expect(try engine.search("prefers tabs", memoriesOnly: true).results.map(\.title) == ["Prefers tabs over spaces"])
  }

  @Test("a capture while `dolphin import` stages commits at once; the import then writes everything")
  func captureWhileStaging() throws {
    let directory = TemporaryDirectory("staged-import")
    defer { directory.remove() }
    let document = try Self.exportDocument()
    let (store, engine) = try Self.target(.otherConnection, directory)
    let existing = try engine.listKnowledge()
    let plan = try engine.planImport(document, source: "export.json")
    let writing = try Self.writer(.otherConnection, store, directory)
    var captured: KnowledgeItem?
    let report = try engine.applyImport(document, policy: .refuse, source: "export.json", expecting: plan) {
      // Still inside the staging read transaction.
      captured = try writing.capture(CaptureRequest(kind: .decision, title: "Ærø harbour schedule", content: "Ferries every hour.")).item
    }
    let meanwhile = try #require(captured)
    #expect(report.plan == plan)
    #expect(report.written["knowledge"] == document.workspace.knowledge.count)
    #expect(report.written["memories"] == 1)
    #expect(report.digestID != nil)
    try Self.expectImported(document, into: engine, alongside: existing + [meanwhile])
    #expect(try engine.search("aero harbour schedule").results.first?.id == meanwhile.id)
    #expect(try Self.temporaryTables(store) == 0)
  }

  @Test("a write between the phases is caught up: the plan is checked again and still holds", arguments: Writer.allCases)
  func catchesUp(_ writer: Writer) throws {
    let directory = TemporaryDirectory("staged-import-phases")
    defer { directory.remove() }
    let document = try Self.exportDocument()
    let (store, engine) = try Self.target(writer, directory)
    let existing = try engine.listKnowledge()
    let importing = try store.reopened() ?? store
    let writing = try Self.writer(writer, store, directory)
    let prepared = try PreparedImport(document, source: "export.json", now: Date())
    var meanwhile: [KnowledgeItem] = []
    let staged = try importing.read { tx in
      let staged = try StagedImport.stage(prepared, policy: .refuse, expecting: nil, in: tx)
      if writer == .otherConnection {
        meanwhile.append(try writing.capture(CaptureRequest(kind: .goal, title: "Written during staging")).item)
      }
      return staged
    }
    meanwhile.append(try writing.capture(CaptureRequest(kind: .goal, title: "Written between the phases")).item)
    let report = try importing.write { tx in
      defer { try? StagedImport.dropTables(tx.db) }
      return try staged.install(in: tx, engine: engine)
    }
    #expect(report.plan == staged.analysis.plan)
    try Self.expectImported(document, into: engine, alongside: existing + meanwhile)
    #expect(try Self.temporaryTables(importing) == 0)
  }

  @Test("a term the snapshot's index held that a deletion meanwhile removed is added back with its trigrams")
  func termRemovedMeanwhile() throws {
    let directory = TemporaryDirectory("staged-import-term")
    defer { directory.remove() }
    let (store, engine) = try Self.target(.otherConnection, directory)
    let leaving = try engine.capture(CaptureRequest(kind: .fact, title: "Zanzibar ferry", content: "Only here.")).item
    var document = try Self.exportDocument()
    document.workspace.knowledge[0].content += " Zanzibar too."
    let importing = try #require(try store.reopened())
    let writing = try Self.writer(.otherConnection, store, directory)
    let prepared = try PreparedImport(document, source: "export.json", now: Date())
    let staged = try importing.read { tx in
      let staged = try StagedImport.stage(prepared, policy: .refuse, expecting: nil, in: tx)
      #expect(try tx.db.integer("SELECT count(*) FROM lexical_term WHERE term = 'zanzibar'") == 1)
      _ = try writing.apply(try writing.planDeletion(of: .knowledge(leaving.id)))
      return staged
    }
    #expect(try store.read { try $0.db.integer("SELECT count(*) FROM lexical_term WHERE term = 'zanzibar'") } == 0)
    _ = try importing.write { tx in
      defer { try? StagedImport.dropTables(tx.db) }
      return try staged.install(in: tx, engine: engine)
    }
    #expect(try engine.verifySearchIndex() == [])
    let installed = try LexicalIndexStoreTests.IndexDump(engine)
    #expect(installed.trigrams.contains("zan zanzibar"))
    try engine.rebuildSearchIndex()
    #expect(try LexicalIndexStoreTests.IndexDump(engine) == installed, "the rows a rebuild writes")
    #expect(try engine.search("zanzibr").results.map(\.id) == [document.workspace.knowledge[0].id])
  }

  @Test("a write meanwhile that changes the plan refuses the import, and nothing of it is written", arguments: Writer.allCases)
  func refusesChangedPlan(_ writer: Writer) throws {
    let directory = TemporaryDirectory("staged-import-refused")
    defer { directory.remove() }
    let document = try Self.exportDocument()
    let (store, engine) = try Self.target(writer, directory)
    let writing = try Self.writer(writer, store, directory)
    let before = try store.read { try $0.snapshot() }
    // One of the document's items arrives by another way meanwhile: it would be `same`, not
    // `new`, so the staged rows are no longer what to write.
    let arriving = document.workspace.knowledge.first { $0.relationships.isEmpty && $0.memoryID == nil }!
    func writeMeanwhile() throws {
      try writing.store.write { tx in
        try LexicalIndexStore.index(knowledge: arriving, rowID: try tx.insertKnowledge(arriving), in: tx)
      }
    }
    if writer == .otherConnection {
      #expect(throws: WorkspaceError.concurrentChange(operation: "import")) {
        try engine.applyImport(document, policy: .refuse, source: "export.json", expecting: nil, afterStaging: writeMeanwhile)
      }
    } else {
      let prepared = try PreparedImport(document, source: "export.json", now: Date())
      let staged = try store.read { tx in try StagedImport.stage(prepared, policy: .refuse, expecting: nil, in: tx) }
      try writeMeanwhile()
      #expect(throws: WorkspaceError.concurrentChange(operation: "import")) {
        try store.write { tx in _ = try staged.install(in: tx, engine: engine) }
      }
      try store.read { tx in try StagedImport.dropTables(tx.db) }
    }
    var after = try store.read { try $0.snapshot() }
    after.knowledge.removeAll { $0.id == arriving.id }
    #expect(after == before, "only the item written meanwhile was added")
    #expect(try engine.verifySearchIndex() == [])
    #expect(try Self.temporaryTables(store) == 0)
  }

  @Test("a reference removed meanwhile refuses the import as before, naming the record")
  func referenceRemovedMeanwhile() throws {
    let directory = TemporaryDirectory("staged-import-reference")
    defer { directory.remove() }
    let (store, engine) = try Self.target(.otherConnection, directory)
    let target = try #require(try engine.listKnowledge().first)
    var document = try Self.exportDocument()
    document.workspace.tasks[0].knowledgeIDs = [target.id]
    let writing = try Self.writer(.otherConnection, store, directory)
    #expect {
      try engine.applyImport(document, policy: .refuse, source: "export.json", expecting: nil) {
        _ = try writing.apply(try writing.planDeletion(of: .knowledge(target.id)))
      }
    } throws: { error in
      guard case WorkspaceError.validation(let e) = error else { return false }
      return e.field == "workspace.tasks[0].knowledgeIDs[0]"
    }
    #expect(try store.read { try $0.knowledgeCount() } == 0)
    #expect(try store.read { try $0.taskCount() } == 0)
  }

  @Test("staged index rows are the rows a batch index writes, next to an index that shares terms")
  func sameRowsAsBatchIndex() throws {
    let documents = try Self.exportDocument().workspace.knowledge
    var dumps: [LexicalIndexStoreTests.IndexDump] = []
    let directory = TemporaryDirectory("staged-index-rows")
    defer { directory.remove() }
    for staged in [false, true] {
      let (store, engine) = try Self.target(.sameConnection, directory)
      let items = documents.map { item -> KnowledgeItem in
        var item = item
        item.relationships = []
        item.memoryID = nil
        item.source = .import
        return item
      }
      let addition = try store.read { tx in try StagedIndexAddition.stage(items.map(IndexedDocument.init), in: tx) }
      try store.write { tx in
        let keys = try items.map { LexicalIndexStore.key(knowledgeRowID: try tx.insertKnowledge($0, capacityChecked: true)) }
        if staged {
          try addition.install(keys: keys, in: tx)
        } else {
          try LexicalIndexStore.index(batch: zip(items, keys).map { (IndexedDocument($0.0), $0.1) }, in: tx)
        }
        try StagedIndexAddition.dropTables(tx.db)
      }
      #expect(try engine.verifySearchIndex() == [])
      dumps.append(try LexicalIndexStoreTests.IndexDump(engine))
    }
    #expect(dumps[0] == dumps[1])
  }
}
