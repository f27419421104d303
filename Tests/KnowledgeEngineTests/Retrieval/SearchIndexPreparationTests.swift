import ContinuityKit
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import KnowledgeEngine

/// A workspace whose search index was built by tokenizer version 1 (before `ø`, `ł`, `æ`, …
/// were folded) is rebuilt automatically, exactly once, without changing any record; where it
/// cannot be written, searches index the records in memory and the mismatch stays reported. An
/// index from a newer build is left alone; one whose version is unreadable is rebuilt.
struct SearchIndexPreparationTests {
  /// A tokenizer version from a build newer than this one.
  static let newer = Tokenizer.version + 1
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
      #expect(try KnowledgeEngine(store: store).searchIndexTokenizerStatus() == .stale(.version(1)))
      #expect(try KnowledgeEngine(store: store).verifySearchIndex() == [], "stale is not disagreeing with the records")
      before = try Self.records(store)
    }
    #expect(before.count > 10)

    let engine = KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: directory.url))
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: .version(1), documents: Self.requests.count + 2))
    #expect(try Self.storedVersion(engine.store) == String(Tokenizer.version))
    #expect(try engine.verifySearchIndex() == [])
    #expect(try engine.searchIndexTokenizerStatus() == .current)
    #expect(try Self.records(engine.store) == before)
    let terms = try Self.indexedTerms(engine.store)
    #expect(terms.isSuperset(of: Self.version1Spellings.keys))
    #expect(terms.isDisjoint(with: Self.version1Spellings.values))

    let response = try engine.search("oresund")
    #expect(response.results.map(\.id) == [items[0].id])
    #expect(response.terms == [QueryTermMatch(term: "oresund", match: .exact, variants: ["oresund"], words: ["oresund"], typedWords: ["oresund"])])
    #expect(try engine.search("LODZ").results.map(\.id) == [items[1].id])
    #expect(try engine.search("aesir").results.map(\.id) == [items[2].id])
    #expect(try engine.search("aero", memoriesOnly: true).results.map(\.title) == ["Ærø ferry times"])

    // Done once: the next open finds it current, and a second rebuild writes the same rows.
    #expect(try engine.prepareSearchIndex() == .current)
    let rebuilt = try LexicalIndexStoreTests.IndexDump(engine)
    _ = try engine.rebuildSearchIndex()
    #expect(try LexicalIndexStoreTests.IndexDump(engine) == rebuilt)
  }

  @Test("a refused search leaves a stale index as it is: nothing is rebuilt for a query never run")
  func refusedSearchDoesNotRebuild() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    _ = try Self.populate(store)
    try Self.makeVersion1(store)
    let engine = KnowledgeEngine(store: store)
    for (query, limit) in [("", 10), ("   ", 10), ("\u{200B}", 10), (String(repeating: "a", count: Limits.queryInput + 1), 10), ("oresund", 0)] {
      #expect(throws: ValidationError.self) { try engine.search(query, limit: limit) }
      #expect(try Self.storedVersion(store) == "1", "\(query.debugDescription)")
    }
    #expect(try engine.search("oresund").results.count == 1)
    #expect(try Self.storedVersion(store) == String(Tokenizer.version))
  }

  @Test("an index of tokenizer version 2 (no free position at breaks) is rebuilt with them")
  func version2Rebuilt() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Old server", content: "It was dead. Line two"))
    func linePositions() throws -> [Int] {
      try store.read { tx in
        try tx.db.all(
          """
          SELECT p.positions, p.content_frequency FROM lexical_posting p
          JOIN lexical_term t USING (term_id) WHERE t.term = 'line'
          """
        ) { row in
          PositionList(bytes: row.blob(0)).positions(
            in: .content, counts: FieldCounts(title: 0, tags: 0, content: Int32(row.int64(1))))
        }
      }.flatMap { $0 }
    }
    // it@0 was@1 dead@2, a free position, line@4 two@5.
    #expect(try linePositions() == [4])
    // Version 2 numbered `line` right after `dead`.
    try store.write { tx in
      try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, "2")
      let bytes = PositionList(FieldValues(title: [], tags: [], content: [3])).bytes
      _ = try tx.db.run(
        "UPDATE lexical_posting SET positions = ? WHERE term_id = (SELECT term_id FROM lexical_term WHERE term = 'line')",
        [.blob(bytes)])
    }
    #expect(try linePositions() == [3])
    #expect(try engine.searchIndexTokenizerStatus() == .stale(.version(2)))
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: .version(2), documents: 1))
    #expect(try linePositions() == [4])
    #expect(try engine.search("deadline").results.isEmpty)
  }

  @Test("an index of tokenizer version 3 (a break after Mt., `c` for Ｃ＋＋) is rebuilt: Mt. Everest is a phrase, Ｃ＋＋ is c++")
  func version3Rebuilt() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let item = try engine.capture(
      CaptureRequest(kind: .fact, title: "Trip notes", content: "Climbed Mt. Everest with Ｃ＋＋ books")
    ).item
    func contentPositions(of term: String) throws -> [Int] {
      try store.read { tx in
        try tx.db.all(
          """
          SELECT p.positions, p.content_frequency FROM lexical_posting p
          JOIN lexical_term t USING (term_id) WHERE t.term = ?
          """, [.text(term)]
        ) { row in
          PositionList(bytes: row.blob(0)).positions(
            in: .content, counts: FieldCounts(title: 0, tags: 0, content: Int32(row.int64(1))))
        }
      }.flatMap { $0 }
    }
    // climb@0 mt@1 everest@2 with@3 c++@4 book@5: no break after `Mt.`, one term for `Ｃ＋＋`.
    #expect(try contentPositions(of: "everest") == [2])
    #expect(try contentPositions(of: "c++") == [4])
    // Version 3 left a position free after `Mt.` and indexed `Ｃ＋＋` as `c`.
    try store.write { tx in
      try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, "3")
      let bytes = PositionList(FieldValues(title: [], tags: [], content: [3])).bytes
      _ = try tx.db.run(
        "UPDATE lexical_posting SET positions = ? WHERE term_id = (SELECT term_id FROM lexical_term WHERE term = 'everest')",
        [.blob(bytes)])
      #expect(try tx.db.run("UPDATE lexical_term SET term = 'c' WHERE term = 'c++'") == 1)
    }
    #expect(try contentPositions(of: "everest") == [3])
    #expect(try contentPositions(of: "c") == [4])
    #expect(try engine.searchIndexTokenizerStatus() == .stale(.version(3)))
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: .version(3), documents: 1))
    #expect(try Self.storedVersion(store) == String(Tokenizer.version))
    #expect(try contentPositions(of: "everest") == [2])
    #expect(try contentPositions(of: "c++") == [4])
    #expect(try contentPositions(of: "c").isEmpty)
    #expect(try engine.verifySearchIndex() == [])
    let response = try engine.search("Mt Everest")
    #expect(response.results.map(\.id) == [item.id])
    #expect(response.results[0].scoreParts.phrase > 0)
    #expect(try engine.search("C++").results.map(\.id) == [item.id])
  }

  @Test("an index of tokenizer version 4 (`pathology` stemmed to `pathologi`) is rebuilt: pathological finds Lung pathology")
  func version4Rebuilt() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let item = try engine.capture(
      CaptureRequest(kind: .fact, title: "Lung pathology reading list", content: "Atlas of biopsy slides")
    ).item
    func hasTerm(_ term: String) throws -> Bool {
      try store.read { tx in
        try tx.db.all("SELECT 1 FROM lexical_term WHERE term = ?", [.text(term)]) { _ in true }
      }.count == 1
    }
    #expect(try hasTerm("patholog"))
    // Version 4 stemmed as the 1980 paper does, without the reference implementation's `logi`.
    try store.write { tx in
      try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, "4")
      #expect(try tx.db.run("UPDATE lexical_term SET term = 'pathologi' WHERE term = 'patholog'") == 1)
    }
    #expect(try engine.searchIndexTokenizerStatus() == .stale(.version(4)))
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: .version(4), documents: 1))
    #expect(try Self.storedVersion(store) == String(Tokenizer.version))
    #expect(try hasTerm("patholog"))
    #expect(try !hasTerm("pathologi"))
    #expect(try engine.verifySearchIndex() == [])
    let response = try engine.search("pathological")
    #expect(response.results.map(\.id) == [item.id])
    #expect(response.terms.first?.match == .exact)
  }

  @Test("an index of tokenizer version 5 (a break at the full-width point of ０．７) is rebuilt: 0.7 finds it")
  func version5Rebuilt() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let item = try engine.capture(
      CaptureRequest(kind: .fact, title: "Training notes", content: "Dropout ０．７ worked best")
    ).item
    func contentPositions(of term: String) throws -> [Int] {
      try store.read { tx in
        try tx.db.all(
          """
          SELECT p.positions, p.content_frequency FROM lexical_posting p
          JOIN lexical_term t USING (term_id) WHERE t.term = ?
          """, [.text(term)]
        ) { row in
          PositionList(bytes: row.blob(0)).positions(
            in: .content, counts: FieldCounts(title: 0, tags: 0, content: Int32(row.int64(1))))
        }
      }.flatMap { $0 }
    }
    // dropout@0 0@1 7@2: the number's parts are adjacent, as in `0.7`.
    #expect(try contentPositions(of: "0") == [1])
    #expect(try contentPositions(of: "7") == [2])
    // Version 5 read the full-width full stop (Terminal_Punctuation) as a sentence end.
    try store.write { tx in
      try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, "5")
      let bytes = PositionList(FieldValues(title: [], tags: [], content: [3])).bytes
      #expect(
        try tx.db.run(
          "UPDATE lexical_posting SET positions = ? WHERE term_id = (SELECT term_id FROM lexical_term WHERE term = '7')",
          [.blob(bytes)]) == 1)
    }
    #expect(try contentPositions(of: "7") == [3])
    #expect(try engine.searchIndexTokenizerStatus() == .stale(.version(5)))
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: .version(5), documents: 1))
    #expect(try Self.storedVersion(store) == String(Tokenizer.version))
    #expect(try contentPositions(of: "7") == [2])
    #expect(try engine.verifySearchIndex() == [])
    for query in ["0.7", "０．７"] {
      let response = try engine.search(query)
      #expect(response.results.map(\.id) == [item.id], "\(query)")
      #expect(response.terms.map(\.term) == ["0.7"])
    }
  }

  @Test("an index of tokenizer version 8 (numbers only as parts) is rebuilt: v2.3 finds v2.3.9 as a longer number")
  func version8Rebuilt() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Release v2.3.9 notes", content: "")).item
    #expect(try Self.indexedTerms(store).contains("v2.3.9"))
    // Version 8 held the number only as its parts `v2`, `3`, `9`.
    try store.write { tx in
      try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, "8")
      let id = try tx.db.integer("SELECT term_id FROM lexical_term WHERE term = 'v2.3.9'")
      for table in ["lexical_posting", "lexical_trigram", "lexical_term"] {
        #expect(try tx.db.run("DELETE FROM \(table) WHERE term_id = ?", [.integer(id)]) >= 1, "\(table)")
      }
    }
    #expect(try engine.searchIndexTokenizerStatus() == .stale(.version(8)))
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: .version(8), documents: 1))
    #expect(try Self.storedVersion(store) == String(Tokenizer.version))
    #expect(try Self.indexedTerms(store).contains("v2.3.9"))
    #expect(try engine.verifySearchIndex() == [])
    let response = try engine.search("v2.3")
    #expect(response.results.map(\.id) == [item.id])
    #expect(response.terms.first?.match == .prefix)
    #expect(response.results.first?.matchedTerms == ["v2.3.9"])
  }

  @Test("a search finds a stale index and rebuilds it itself, so a host that never prepares still finds Øresund")
  func searchRebuilds() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let items = try Self.populate(store)
    try Self.makeVersion1(store)
    let before = try Self.records(store)
    let engine = KnowledgeEngine(store: store)
    #expect(try engine.search("oresund").results.map(\.id) == [items[0].id])
    #expect(try Self.storedVersion(store) == String(Tokenizer.version))
    #expect(try engine.verifySearchIndex() == [])
    #expect(try Self.records(store) == before)
  }

  @Test("an auto-selected handoff ranks over a rebuilt index, rebuilt before the handoff's transaction and reported")
  func handoffAutoSelectRebuilds() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let items = try Self.populate(store)
    try Self.makeVersion1(store)
    let seen = Mutex<[SearchIndexPreparation]>([])
    let created = try KnowledgeEngine(store: store, searchIndexObserver: { p in seen.withLock { $0.append(p) } })
      .createHandoff(HandoffRequest(focus: "oresund crossing", autoSelect: true))
    #expect(created.autoSelection?.knowledgeIDs == [items[0].id])
    #expect(seen.withLock { $0 } == [.rebuilt(from: .version(1), documents: Self.requests.count + 2)])
    #expect(try Self.storedVersion(store) == String(Tokenizer.version))
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
      #expect(
        try engine.prepareSearchIndex()
          == .stale(builtWith: .version(1), obstacle: .readOnly(reason: "opened read-only")))
      #expect(try engine.search("oresund").results.map(\.id) == [items[0].id])
      readOnlyResponses = try Self.queries.map { try engine.search($0, includeMemories: true) }
      readOnlyResponses.append(try engine.search("oresund", tag: "travel"))
      #expect(try engine.searchIndexTokenizerStatus() == .stale(.version(1)))
      #expect(try Self.storedVersion(engine.store) == "1")
    }
    let engine = KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: directory.url))
    #expect(try engine.prepareSearchIndex() == .rebuilt(from: .version(1), documents: Self.requests.count + 2))
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
    #expect(results.filter { $0 == .rebuilt(from: .version(1), documents: documents) }.count == 1, "\(results)")
    #expect(results.filter { $0 == .current }.count == 1, "\(results)")
    for engine in engines {
      #expect(try engine.verifySearchIndex() == [])
      #expect(try engine.search("oresund bridge").results.first?.id == items[0].id)
    }
    #expect(try Self.storedVersion(engines[0].store) == String(Tokenizer.version))
    #expect(try Self.records(engines[1].store) == before)
  }

  @Test("another process's long write keeps it from being rebuilt: said as busy, not read-only; the search still finds everything")
  func busyRebuild() throws {
    let directory = TemporaryDirectory("index-upgrade-busy")
    defer { directory.remove() }
    let store = try SQLiteWorkspaceStore.open(directory: directory.url)
    let items = try Self.populate(store)
    try Self.makeVersion1(store)
    store.setBusyTimeout(milliseconds: 200)
    let seen = Mutex<[SearchIndexPreparation]>([])
    let engine = KnowledgeEngine(store: store, searchIndexObserver: { p in seen.withLock { $0.append(p) } })

    let other = try SQLiteWorkspaceStore.open(directory: directory.url)
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      _ = try? other.write { tx in
        try tx.setMeta("held", "yes")
        holding.signal()
        release.wait()
      }
      finished.signal()
    }
    holding.wait()
    let response = try engine.search("oresund")
    release.signal()
    finished.wait()

    #expect(response.results.map(\.id) == [items[0].id])
    let busy = SearchIndexPreparation.stale(builtWith: .version(1), obstacle: .busy(waitedMilliseconds: 200))
    #expect(seen.withLock { $0 } == [busy])
    #expect(try Self.storedVersion(store) == "1")
    // The lock released, the next search rebuilds it.
    #expect(try engine.search("oresund").results.map(\.id) == [items[0].id])
    #expect(seen.withLock { $0 }.last == .rebuilt(from: .version(1), documents: Self.requests.count + 2))
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

  @Test("an index from a newer build is left alone: searched in memory, said once, never advised to rebuild")
  func newerVersionIsLeftAlone() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let items = try Self.populate(store)
    try store.write { tx in try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, String(Self.newer)) }
    let index = try LexicalIndexStoreTests.IndexDump(KnowledgeEngine(store: store))
    let seen = Mutex<[SearchIndexPreparation]>([])
    let engine = KnowledgeEngine(store: store, searchIndexObserver: { p in seen.withLock { $0.append(p) } })
    #expect(try engine.searchIndexTokenizerStatus() == .newer(Self.newer))
    #expect(try engine.prepareSearchIndex() == .newer(builtWith: Self.newer))
    // Searches see every record (this build's terms, in memory) …
    #expect(try engine.search("oresund").results.map(\.id) == [items[0].id])
    let created = try engine.createHandoff(HandoffRequest(focus: "oresund crossing", autoSelect: true))
    #expect(created.autoSelection?.knowledgeIDs == [items[0].id])
    // … and the newer build's index and version are exactly as they were.
    #expect(try Self.storedVersion(store) == String(Self.newer))
    #expect(try LexicalIndexStoreTests.IndexDump(engine) == index)
    #expect(seen.withLock { $0 }.allSatisfy { $0 == .newer(builtWith: Self.newer) })
    let notice = SearchIndexPreparation.newer(builtWith: Self.newer).notice ?? ""
    #expect(notice.contains("built by a newer dolphin (tokenizer version \(Self.newer); this build's is \(Tokenizer.version))"), "\(notice)")
    #expect(!notice.contains("reindex") && !notice.contains("rebuild"), "\(notice)")
  }

  /// A stored version that is not a version number.
  struct GarbageVersion: CustomTestStringConvertible, Sendable {
    var stored: String
    var testDescription: String { "'\(stored)'" }
  }

  static let garbage = ["abc", "2.0", " 2", "2 ", "+2", "02", "0", "", "1000000", "99999999999999999999", "2\n"]
    .map(GarbageVersion.init)

  @Test("an unreadable stored version is reported as unreadable, not as a version, and rebuilt", arguments: garbage)
  func unreadableVersionIsRebuilt(_ c: GarbageVersion) throws {
    #expect(StoredTokenizerVersion(stored: c.stored) == .unreadable(c.stored))
    let store = SQLiteWorkspaceStore.inMemory()
    let items = try Self.populate(store)
    try store.write { tx in try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, c.stored) }
    let engine = KnowledgeEngine(store: store)
    #expect(try engine.searchIndexTokenizerStatus() == .stale(.unreadable(c.stored)))
    let outcome = try engine.prepareSearchIndex()
    #expect(outcome == .rebuilt(from: .unreadable(c.stored), documents: Self.requests.count + 2))
    let notice = outcome.notice ?? ""
    #expect(notice.contains("its recorded tokenizer version was unreadable: an unreadable version ('"), "\(notice)")
    #expect(!notice.contains("version 0"), "\(notice)")
    #expect(!notice.contains("\n"))
    #expect(try Self.storedVersion(store) == String(Tokenizer.version))
    #expect(try engine.search("oresund").results.map(\.id) == [items[0].id])
  }

  @Test("readable versions: digits only, no leading zero, at most six; none stored is 1")
  func readableVersions() {
    #expect(StoredTokenizerVersion(stored: nil) == .version(1))
    #expect(StoredTokenizerVersion(stored: "2") == .version(2))
    #expect(StoredTokenizerVersion(stored: "999999") == .version(999_999))
    #expect(StoredTokenizerVersion(stored: "٣") == .unreadable("٣"), "Arabic-Indic digits are not ASCII digits")
    #expect(
      StoredTokenizerVersion.unreadable(String(repeating: "x", count: 50)).description
        == "an unreadable version ('\(String(repeating: "x", count: 40))…')")
  }

  @Test("the notices say what happened in one line, and keep a busy lock apart from a read-only workspace")
  func notices() {
    #expect(SearchIndexPreparation.current.notice == nil)
    #expect(
      SearchIndexPreparation.rebuilt(from: .version(1), documents: 7).notice
        == "rebuilt the search index for tokenizer version \(Tokenizer.version) (it was built with version 1): re-indexed 7 document(s) (knowledge items and memories); no record changed")
    #expect(
      SearchIndexPreparation.reindexed(documents: 3).notice
        == "updated the search index after the workspace upgrade (schema step 0006-normalize-stored-tags or 0007-renormalize-tags-drop-blank-next-steps rewrote stored tags, or a dolphin from before the upgrade wrote records without their search terms): re-indexed 3 document(s) (knowledge items and memories); no record changed")
    let readOnly = SearchIndexPreparation.stale(builtWith: .version(1), obstacle: .readOnly(reason: "opened read-only")).notice ?? ""
    #expect(readOnly.hasPrefix("the search index was built with tokenizer version 1, not this build's \(Tokenizer.version), and cannot be rebuilt here (opened read-only); "))
    #expect(readOnly.hasSuffix("A search run where the workspace can be written rebuilds it (or `dolphin reindex`)"))
    let busy = SearchIndexPreparation.stale(builtWith: .version(1), obstacle: .busy(waitedMilliseconds: 15_000)).notice ?? ""
    #expect(
      busy
        == "the search index was built with tokenizer version 1, not this build's \(Tokenizer.version); it was not rebuilt now because "
        + "another process (another dolphin, e.g. rebuilding it or importing) held a long write for more than 15 s. "
        + "This search indexed every record in memory instead (slower); the next search tries again")
    let failed = SearchIndexPreparation.stale(builtWith: .version(1), obstacle: .failed(reason: "the disk is full")).notice ?? ""
    #expect(failed.contains("rebuilding it failed (the disk is full); nothing was changed."))
    for notice in [readOnly, busy, failed] {
      #expect(!notice.contains("\n"))
    }
    #expect(!busy.contains("cannot be rebuilt here") && !failed.contains("cannot be rebuilt here"))
  }
}
