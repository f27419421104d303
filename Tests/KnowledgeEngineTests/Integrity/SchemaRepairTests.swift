import ContinuityKit
import Foundation
import TestSupport
import Testing

@testable import KnowledgeEngine

/// Review 25-a (1): with `lexical_trigram` dropped outside dolphin, `dolphin reindex` — the
/// documented repair — failed with "no such table", as every capture did. The rebuild now
/// recreates the derived tables it fills, inside its own transaction.
@Suite("Schema repair by reindex", .serialized)
struct SchemaRepairTests {
  static func workspace(_ dir: TemporaryDirectory) throws -> (SQLiteWorkspaceStore, KnowledgeEngine) {
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    for request in [
      CaptureRequest(kind: .decision, title: "Use SQLite for the workspace", content: "WAL mode and busy timeout", tags: ["storage"]),
      CaptureRequest(kind: .fact, title: "The ferry leaves at nine", content: "From the north pier", tags: ["travel"]),
      CaptureRequest(kind: .goal, title: "Ship the kubernetes rollout", content: "Before the summer break"),
      CaptureRequest(kind: .fact, title: "Backups run nightly", tags: ["storage"]),
      CaptureRequest(kind: .fact, title: "The office opens at eight"),  // the fifth stores a digest
    ] {
      _ = try engine.capture(request)
    }
    return (store, engine)
  }

  @Test(
    "reindex recreates the dropped derived tables and indexes; search, tag filter and digests work; no record changes",
    arguments: [
      "DROP TABLE lexical_trigram",
      "DROP TABLE lexical_posting; DROP TABLE lexical_term; DROP TABLE lexical_stats",
      "DROP TABLE knowledge_tag",
      "DROP TABLE digest_evidence",
      "DROP TABLE lexical_stale; DROP INDEX knowledge_header",
      // Review 26-b, 6: an index of dolphin's name defined otherwise is dropped and made as the step does.
      "DROP INDEX knowledge_header; CREATE INDEX knowledge_header ON knowledge(title)",
    ])
  func reindexRecreates(_ statement: String) throws {
    let dir = TemporaryDirectory("schema-repair")
    defer { dir.remove() }
    let (store, engine) = try Self.workspace(dir)
    let before = try store.read { tx in try tx.snapshot() }
    try store.write { tx in try tx.db.execute(statement) }
    let difference = try #require(try engine.schemaDifference())
    #expect(!difference.missing.isEmpty && difference.missingRecreatedByReindex, "\(difference)")

    #expect(try engine.rebuildSearchIndex() == 5)
    #expect(try engine.schemaDifference() == SchemaDifference(missing: [], unexpected: []))
    #expect(try engine.verifySearchIndex().isEmpty)
    #expect(try engine.verifyTagFilterRows().isEmpty)
    #expect(try store.read { tx in try tx.snapshot() } == before, "nothing stored changed")
    // A typo reaches its term through the trigram table.
    let typo = try engine.search("kubernets")
    #expect(typo.results.map(\.title) == ["Ship the kubernetes rollout"])
    #expect(try engine.search("ferry", tag: "travel").results.map(\.title) == ["The ferry leaves at nine"])
    #expect(try store.read { tx in try tx.digests(citing: before.knowledge[0].id) }.count == 1)
    // And writes work again.
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Written after the repair", tags: ["storage"]))
  }

  @Test(
    "reindex drops and recreates derived tables replaced or altered to other columns; search, tag filter and digests work",
    arguments: [
      "ALTER TABLE knowledge_tag ADD COLUMN extra TEXT",
      "DROP TABLE lexical_trigram; CREATE TABLE lexical_trigram(trigram TEXT, term_id INTEGER)",
      "ALTER TABLE lexical_posting DROP COLUMN positions",
      "DROP TABLE digest_evidence; CREATE TABLE digest_evidence(evidence_id TEXT NOT NULL)",
      "DROP TABLE lexical_stats; CREATE TABLE lexical_stats(id INTEGER PRIMARY KEY, document_count INTEGER)",
    ])
  func reindexRecreatesChanged(_ statement: String) throws {
    let dir = TemporaryDirectory("schema-repair-changed")
    defer { dir.remove() }
    let (store, engine) = try Self.workspace(dir)
    let before = try store.read { tx in try tx.snapshot() }
    try store.write { tx in try tx.db.execute(statement) }
    let difference = try #require(try engine.schemaDifference())
    #expect(difference.changed.count == 1 && difference.changed.allSatisfy(\.recreatedByReindex), "\(difference)")

    #expect(try engine.rebuildSearchIndex() == 5)
    #expect(try engine.schemaDifference() == SchemaDifference())
    #expect(try engine.verifySearchIndex().isEmpty)
    #expect(try engine.verifyTagFilterRows().isEmpty)
    #expect(try store.read { tx in try tx.snapshot() } == before, "nothing stored changed")
    let typo = try engine.search("kubernets")
    #expect(typo.results.map(\.title) == ["Ship the kubernetes rollout"])
    #expect(try engine.search("ferry", tag: "travel").results.map(\.title) == ["The ferry leaves at nine"])
    #expect(try store.read { tx in try tx.digests(citing: before.knowledge[0].id) }.count == 1)
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Written after the repair", tags: ["storage"]))
    #expect(try engine.search("repair").results.map(\.title) == ["Written after the repair"])
  }

  @Test("a table of records with other columns is not recreated by reindex")
  func changedRecordTableNotRecreated() throws {
    let dir = TemporaryDirectory("schema-repair-changed-records")
    defer { dir.remove() }
    let (store, engine) = try Self.workspace(dir)
    try store.write { tx in try tx.db.execute("ALTER TABLE task ADD COLUMN x TEXT NOT NULL DEFAULT ''") }
    let difference = try #require(try engine.schemaDifference())
    #expect(difference.changed.map(\.table) == ["task"] && !difference.changed[0].recreatedByReindex)
    #expect(try engine.rebuildSearchIndex() == 5)
    #expect(try engine.schemaDifference() == difference, "the table was left as it is")
  }

  @Test("a missing table of records is not recreated by reindex, which fails naming it and dolphin doctor")
  func recordTableNotRecreated() throws {
    let dir = TemporaryDirectory("schema-repair-records")
    defer { dir.remove() }
    let (store, engine) = try Self.workspace(dir)
    try store.write { tx in try tx.db.execute("DROP TABLE memory") }
    let difference = try #require(try engine.schemaDifference())
    #expect(difference.missing.map(\.object.description) == ["table memory"])
    #expect(!difference.missingRecreatedByReindex)
    let error = #expect(throws: WorkspaceError.self) { try engine.rebuildSearchIndex() }
    #expect(error?.description.contains("dolphin doctor") == true, "\(String(describing: error))")
    #expect(error?.description.contains("no such table: memory") == true)
    #expect(try engine.schemaDifference() == difference, "nothing was recreated")
  }
}
