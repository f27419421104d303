import ContinuityKit
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import KnowledgeEngine

/// A workspace whose search index was built by tokenizer version 1 (before `ø`, `ł`, `æ`, …
/// were folded) is rebuilt automatically, exactly once, without changing any record; where it
/// cannot be written, searches index the records in memory and the mismatch stays reported.
struct SearchIndexPreparationTests {
  static let requests: [CaptureRequest] = [
    CaptureRequest(kind: .fact, title: "Øresund bridge notes", content: "Crossing to Malmö by train.", tags: ["travel"]),
    CaptureRequest(kind: .context, title: "Łódź meetup", content: "Swift meetup in the old factory."),
    CaptureRequest(kind: .insight, title: "Æsir saga", content: "Reading list for the winter.", tags: ["books"]),
    CaptureRequest(kind: .decision, title: "Use SQLite for the workspace", content: "WAL and single-row writes."),
    CaptureRequest(kind: .goal, title: "Ship 1.0 by March", content: "Export, import, erase and search."),
  ]

  /// How version 1 spelled the terms version 2 folds (it kept `ø`, `ł`, `æ`; `ó` it folded).
  static let version1Spellings = [
    "oresund": "øresund", "lodz": "łodz", "aesir": "æsir", "aero": "ærø",
  ]

  /// The queries compared between a rebuilt index and the in-memory fallback.
  static let queries = ["oresund", "Łódź", "aesir saga", "ærø ferry", "sqlite", "oresunt", "travel malmo"]

  /// Captures ``requests``, a memory and a task into `store`.
  static func populate(_ store: any WorkspaceStore) throws -> [KnowledgeItem] {
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let items = try engine.captureBulk(requests).items
    _ = try engine.saveMemory(text: "Ærø ferry times", tags: ["travel"])
    _ = try engine.addTask(title: "Book the Øresund train", knowledgeIDs: [items[0].id])
    return items
  }

  /// Makes the index look as tokenizer version 1 left it: the version key says 1, and the terms
  /// version 2 folds are spelled as version 1 spelled them — so finding them under their new
  /// spelling proves the index was rebuilt.
  static func makeVersion1(_ store: any WorkspaceStore) throws {
    try store.write { tx in
      try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, "1")
      for (new, old) in version1Spellings.sorted(by: { $0.key < $1.key }) {
        let changed = try tx.db.run("UPDATE lexical_term SET term = ? WHERE term = ?", [.text(old), .text(new)])
        #expect(changed == 1, "\(new) is indexed")
      }
    }
  }

  /// Every row of every table but the index's own, as text (`meta` without the version key).
  static func records(_ store: any WorkspaceStore) throws -> [String] {
    try store.read { tx in
      let tables = try tx.db.all(
        """
        SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'lexical%'
          AND name NOT LIKE 'sqlite%' ORDER BY name
        """
      ) { $0.text(0) }
      var rows: [String] = []
      for table in tables {
        let columns = try tx.db.all("SELECT name FROM pragma_table_info(?)", [.text(table)]) { $0.text(0) }
        let row = columns.map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ")
        let filter = table == "meta" ? " WHERE key <> '\(LexicalIndexStore.tokenizerVersionKey)'" : ""
        rows += try tx.db.all("SELECT '\(table)|' || \(row) FROM \"\(table)\"\(filter) ORDER BY 1") { $0.text(0) }
      }
      return rows
    }
  }

  static func storedVersion(_ store: any WorkspaceStore) throws -> String? {
    try store.read { tx in try tx.meta(LexicalIndexStore.tokenizerVersionKey) }
  }

  static func indexedTerms(_ store: any WorkspaceStore) throws -> Set<String> {
    Set(try store.read { tx in try tx.db.all("SELECT term FROM lexical_term") { $0.text(0) } })
  }

  static let mismatch =
    "the search index was built with tokenizer version 1; this build tokenizes with version 2, so queries and stored terms may not match (run `dolphin reindex`)"

  @Test("a workspace indexed by tokenizer version 1 is rebuilt on open, then finds Øresund by oresund; no record changes")
  func rebuiltOnOpen() throws {
    let directory = TemporaryDirectory("index-upgrade")
    defer { directory.remove() }
    let items: [KnowledgeItem]
    let before: [String]
    do {
      let store = try SQLiteWorkspaceStore.open(directory: directory.url)
      items = try Self.populate(store)
      try Self.makeVersion1(store)
      #expect(try KnowledgeEngine(store: store).verifySearchIndex() == [Self.mismatch])
      before = try Self.records(store)
    }
    #expect(before.count > 10)

    let engine = KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: directory.url))
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: 1, documents: Self.requests.count + 2))
    #expect(try Self.storedVersion(engine.store) == "2")
    #expect(try engine.verifySearchIndex() == [])
    #expect(try Self.records(engine.store) == before)
    let terms = try Self.indexedTerms(engine.store)
    #expect(terms.isSuperset(of: Self.version1Spellings.keys))
    #expect(terms.isDisjoint(with: Self.version1Spellings.values))

    let response = try engine.search("oresund")
    #expect(response.results.map(\.id) == [items[0].id])
    #expect(response.terms == [QueryTermMatch(term: "oresund", match: .exact, variants: ["oresund"])])
    #expect(try engine.search("LODZ").results.map(\.id) == [items[1].id])
    #expect(try engine.search("aesir").results.map(\.id) == [items[2].id])
    #expect(try engine.search("aero", memoriesOnly: true).results.map(\.title) == ["Ærø ferry times"])

    // Done once: the next open finds it current, and a second rebuild writes the same rows.
    #expect(try engine.prepareSearchIndex() == .current)
    let rebuilt = try LexicalIndexStoreTests.IndexDump(engine)
    _ = try engine.rebuildSearchIndex()
    #expect(try LexicalIndexStoreTests.IndexDump(engine) == rebuilt)
  }

  @Test("a search finds a stale index and rebuilds it itself, so a host that never prepares still finds Øresund")
  func searchRebuilds() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let items = try Self.populate(store)
    try Self.makeVersion1(store)
    let before = try Self.records(store)
    let engine = KnowledgeEngine(store: store)
    #expect(try engine.search("oresund").results.map(\.id) == [items[0].id])
    #expect(try Self.storedVersion(store) == "2")
    #expect(try engine.verifySearchIndex() == [])
    #expect(try Self.records(store) == before)
  }

  @Test("an auto-selected handoff ranks over a rebuilt index, rebuilt in the handoff's own transaction")
  func handoffAutoSelectRebuilds() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let items = try Self.populate(store)
    try Self.makeVersion1(store)
    let created = try KnowledgeEngine(store: store).createHandoff(
      HandoffRequest(focus: "oresund crossing", autoSelect: true))
    #expect(created.autoSelection?.knowledgeIDs == [items[0].id])
    #expect(try Self.storedVersion(store) == "2")
    #expect(try KnowledgeEngine(store: store).verifySearchIndex() == [])
  }

  @Test("a read-only workspace with a stale index is searched in memory, as the rebuilt index would answer, and stays reported")
  func readOnlyFallsBackToMemory() throws {
    let directory = TemporaryDirectory("index-upgrade-ro")
    defer { directory.remove() }
    let items: [KnowledgeItem]
    do {
      let store = try SQLiteWorkspaceStore.open(directory: directory.url)
      items = try Self.populate(store)
      try Self.makeVersion1(store)
    }
    var readOnlyResponses: [SearchResponse] = []
    do {
      let engine = KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: directory.url, readOnly: true))
      #expect(try engine.prepareSearchIndex() == .stale(builtWith: 1, reason: "opened read-only"))
      #expect(try engine.search("oresund").results.map(\.id) == [items[0].id])
      readOnlyResponses = try Self.queries.map { try engine.search($0, includeMemories: true) }
      readOnlyResponses.append(try engine.search("oresund", tag: "travel"))
      #expect(try engine.verifySearchIndex() == [Self.mismatch])
      #expect(try Self.storedVersion(engine.store) == "1")
    }
    let engine = KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: directory.url))
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: 1, documents: Self.requests.count + 2))
    var rebuiltResponses = try Self.queries.map { try engine.search($0, includeMemories: true) }
    rebuiltResponses.append(try engine.search("oresund", tag: "travel"))
    #expect(readOnlyResponses == rebuiltResponses)
    #expect(rebuiltResponses.allSatisfy { !$0.results.isEmpty })
  }

  @Test("two engines opening the same version-1 workspace at once both succeed, rebuild it once, and leave it consistent")
  func concurrentOpensRebuildOnce() throws {
    let directory = TemporaryDirectory("index-upgrade-race")
    defer { directory.remove() }
    let before: [String]
    let items: [KnowledgeItem]
    do {
      let store = try SQLiteWorkspaceStore.open(directory: directory.url)
      items = try Self.populate(store)
      // Enough documents that one rebuild takes a while and the other open has to wait for it.
      _ = try KnowledgeEngine(store: store).captureBulk(
        (0..<3_000).map { CaptureRequest(kind: .fact, title: "Note \($0) on the Øresund line", content: "filler \($0 % 13)") })
      try Self.makeVersion1(store)
      before = try Self.records(store)
    }
    let engines = try (0..<2).map { _ in
      KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: directory.url))
    }
    let outcomes = Mutex<[Result<SearchIndexPreparation, any Error>]>([])
    DispatchQueue.concurrentPerform(iterations: engines.count) { i in
      let outcome = Result { try engines[i].prepareSearchIndex() }
      outcomes.withLock { $0.append(outcome) }
    }
    let results = try outcomes.withLock { $0 }.map { try $0.get() }
    let documents = Self.requests.count + 2 + 3_000
    #expect(results.filter { $0 == .rebuilt(from: 1, documents: documents) }.count == 1, "\(results)")
    #expect(results.filter { $0 == .current }.count == 1, "\(results)")
    for engine in engines {
      #expect(try engine.verifySearchIndex() == [])
      #expect(try engine.search("oresund bridge").results.first?.id == items[0].id)
    }
    #expect(try Self.storedVersion(engines[0].store) == "2")
    #expect(try Self.records(engines[1].store) == before)
  }

  @Test("a new workspace is never stale: it records its version with its first document")
  func newWorkspaceRecordsItsVersion() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    #expect(try engine.prepareSearchIndex() == .current)
    #expect(try engine.verifySearchIndex() == [])
    #expect(try Self.storedVersion(engine.store) == nil)
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Øresund bridge notes"))
    #expect(try Self.storedVersion(engine.store) == String(Tokenizer.version))
    #expect(try engine.prepareSearchIndex() == .current)
    // The bulk path (imports, benchmarks) too, so a first search never rebuilds what it wrote.
    let bulk = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try bulk.captureBulk(Self.requests)
    #expect(try Self.storedVersion(bulk.store) == String(Tokenizer.version))
    #expect(try bulk.prepareSearchIndex() == .current)
  }

  @Test("an index from a newer tokenizer is rebuilt too: versions must be equal, not merely not older")
  func newerVersionIsRebuilt() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    _ = try Self.populate(store)
    try store.write { tx in try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, "3") }
    let engine = KnowledgeEngine(store: store)
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: 3, documents: Self.requests.count + 2))
    #expect(try Self.storedVersion(store) == "2")
  }

  @Test("the notices say what happened in one line")
  func notices() {
    #expect(SearchIndexPreparation.current.notice == nil)
    #expect(
      SearchIndexPreparation.rebuilt(from: 1, documents: 7).notice
        == "rebuilt the search index for tokenizer version 2 (it was built with version 1): re-indexed 7 document(s) (knowledge items and memories); no record changed")
    let stale = SearchIndexPreparation.stale(builtWith: 1, reason: "opened read-only").notice ?? ""
    #expect(stale.hasPrefix("the search index was built with tokenizer version 1, not this build's 2, and cannot be rebuilt here (opened read-only); "))
    #expect(!stale.contains("\n"))
  }
}
