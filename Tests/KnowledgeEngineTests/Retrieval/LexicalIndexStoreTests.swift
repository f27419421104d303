import Foundation
import TestSupport
import Testing

@testable import KnowledgeEngine

/// The persisted index rows: the batch writer (bulk capture, import, rebuild) stores exactly
/// what the one-document writer stores.
struct LexicalIndexStoreTests {
  /// Every index row, with term ids replaced by their terms (ids depend on insertion order).
  struct IndexDump: Equatable, CustomStringConvertible {
    var stats: [Int64]
    var terms: [String]
    var trigrams: [String]
    var postings: [String]
    var documents: [String]

    init(_ engine: KnowledgeEngine) throws {
      (stats, terms, trigrams, postings, documents) = try engine.store.read { tx in
        let db = tx.db
        let stats = try db.first(
          "SELECT document_count, title_length, tags_length, content_length FROM lexical_stats", []
        ) { r in [r.int64(0), r.int64(1), r.int64(2), r.int64(3)] } ?? []
        let terms = try db.all("SELECT term || ' ' || document_frequency FROM lexical_term ORDER BY term") { $0.text(0) }
        let trigrams = try db.all(
          "SELECT g.trigram || ' ' || t.term FROM lexical_trigram g JOIN lexical_term t USING (term_id) ORDER BY 1"
        ) { $0.text(0) }
        let postings = try db.all(
          """
          SELECT t.term, p.doc, p.kind, p.title_length, p.tags_length, p.content_length,
            p.title_frequency, p.tags_frequency, p.content_frequency, hex(p.positions)
          FROM lexical_posting p JOIN lexical_term t USING (term_id) ORDER BY t.term, p.doc
          """
        ) { r in (0..<10).map { r.text(Int32($0)) }.joined(separator: " ") }
        var termOfID: [Int64: String] = [:]
        try db.query("SELECT term_id, term FROM lexical_term") { termOfID[$0.int64(0)] = $0.text(1) }
        let documents = try db.all(
          "SELECT doc, kind, title_length, tags_length, content_length, terms FROM lexical_document ORDER BY doc"
        ) { r in
          let words = LexicalIndexStore.unpack(r.blob(5)).map { termOfID[$0] ?? "?" }
          return (0..<5).map { r.text(Int32($0)) }.joined(separator: " ") + " " + words.joined(separator: ",")
        }
        return (stats, terms, trigrams, postings, documents)
      }
    }

    var description: String {
      "\(stats) \(terms.count) terms \(trigrams.count) trigrams \(postings.count) postings \(documents.count) documents"
    }
  }

  static let requests: [CaptureRequest] = [
    CaptureRequest(kind: .decision, title: "Use SQLite for the workspace", content: "WAL and single-row writes.", tags: ["storage", "sqlite"]),
    CaptureRequest(kind: .fact, title: "SQLite 3.40 is installed", content: "Debian bookworm ships it; the workspace uses WAL."),
    CaptureRequest(kind: .goal, title: "Ship 1.0 by March", content: "Export, import, erase and search."),
    CaptureRequest(kind: .context, title: "東京カンファレンスの議事録", content: "Meeting with Müller in München; Сергей prefers green tea."),
    CaptureRequest(kind: .preference, title: "Tabs over spaces", content: "tabs tabs tabs, spaces never", tags: ["style"]),
    CaptureRequest(kind: .code, title: "C++ (draft) notes", content: "IDOLM@STER health.base config; don't use agents."),
    CaptureRequest(kind: .insight, title: "Release plan", content: "the release plan for the handoff", tags: ["release", "plan"]),
  ]

  @Test("Bulk capture stores the same index rows as capturing one by one")
  func bulkMatchesOneByOne() throws {
    let single = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    for request in Self.requests { _ = try single.capture(request) }
    let bulk = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try bulk.captureBulk(Self.requests)
    let expected = try IndexDump(single)
    #expect(expected.postings.count > 50)
    #expect(try IndexDump(bulk) == expected)
    #expect(try bulk.verifySearchIndex() == [])
  }

  @Test("Rebuilding stores the same index rows, also across chunks")
  func rebuildMatches() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    for request in Self.requests { _ = try engine.capture(request) }
    _ = try engine.saveMemory(text: "Prefers tabs over spaces", tags: ["style"])
    // More documents than one batch holds.
    let many = (0..<(LexicalIndexStore.batchSize + 10)).map {
      CaptureRequest(kind: .fact, title: "Note \($0)", content: "filler \($0 % 7) text")
    }
    try engine.store.write { tx in try tx.setSettings(Settings(knowledgeItemLimit: 20_000)) }
    _ = try engine.captureBulk(many)
    let before = try IndexDump(engine)
    #expect(try engine.rebuildSearchIndex() == Self.requests.count + 2 + many.count)
    #expect(try IndexDump(engine) == before)
    #expect(try engine.verifySearchIndex() == [])
  }

  @Test("an index built with another tokenizer version is reported until it is rebuilt")
  func tokenizerVersion() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    // The first document indexed into an empty index records the version it was made with.
    #expect(try engine.store.read { tx in try tx.meta(LexicalIndexStore.tokenizerVersionKey) } == nil)
    for request in Self.requests { _ = try engine.capture(request) }
    #expect(try engine.store.read { tx in try tx.meta(LexicalIndexStore.tokenizerVersionKey) } == String(Tokenizer.version))
    #expect(try engine.searchIndexTokenizerStatus() == .current)
    try engine.store.write { tx in try tx.setMeta(LexicalIndexStore.tokenizerVersionKey, nil) }
    #expect(
      try engine.searchIndexTokenizerStatus() == .stale(.version(1)),
      "no key means version 1, as every index written before the key existed was")
    #expect(try engine.verifySearchIndex() == [], "its rows still agree with the records")
    _ = try engine.rebuildSearchIndex()
    #expect(try engine.store.read { tx in try tx.meta(LexicalIndexStore.tokenizerVersionKey) } == String(Tokenizer.version))
    #expect(try engine.searchIndexTokenizerStatus() == .current)
    #expect(try engine.verifySearchIndex() == [])
  }

  @Test("postings lost or term frequencies changed behind the index's back are reported until a rebuild")
  func damagedPostings() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Meeting with Müller in München"))
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Budget review"))
    #expect(try engine.verifySearchIndex() == [])
    try engine.store.write { tx in
      try tx.db.run("DELETE FROM lexical_posting WHERE term_id IN (SELECT term_id FROM lexical_term WHERE term = 'muller')")
    }
    #expect(try engine.search("muller").results.isEmpty)
    let problems = try engine.verifySearchIndex()
    #expect(problems.count == 1 && problems[0].hasPrefix("the search index holds"), "\(problems)")
    _ = try engine.rebuildSearchIndex()
    #expect(try engine.verifySearchIndex() == [])
    #expect(try engine.search("muller").results.count == 1)
    try engine.store.write { tx in try tx.db.run("UPDATE lexical_term SET document_frequency = document_frequency + 1") }
    #expect(try engine.verifySearchIndex().first?.hasPrefix("the search index's term frequencies add up to") == true)
  }
}
