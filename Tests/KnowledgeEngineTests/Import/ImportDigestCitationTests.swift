import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing

/// `dolphin doctor` reports a digest citing a missing record (review, s14), since dolphin keeps
/// none. An import checked every other reference but stored a file's digest citing an id that
/// neither the file nor the workspace holds, so a fresh import left a workspace that doctor
/// flags (the fuzz corpus's export-import property found it). Such a digest is now refused,
/// naming its JSON path; one already stored as the file has it is left alone.
struct ImportDigestCitationTests {
  static func workspace() throws -> (SQLiteWorkspaceStore, KnowledgeEngine, KnowledgeItem, Digest) {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store)
    let item = try engine.capture(CaptureRequest(kind: .decision, title: "Adopt Postgres 16", content: "For billing.")).item
    let digest = try engine.saveDigest()
    return (store, engine, item, digest)
  }

  static func export(_ engine: KnowledgeEngine) throws -> WorkspaceExport {
    try WorkspaceExport.decode(try engine.exportWorkspace(generator: "dolphin test").jsonData(), fileName: "export.json")
  }

  @Test("a digest citing a record in neither the file nor the workspace is refused, naming its path")
  func refusedWhenWritten() throws {
    let (_, engine, item, digest) = try Self.workspace()
    var document = try Self.export(engine)
    document.workspace.knowledge.removeAll { $0.id == item.id }
    let fresh = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    #expect {
      try fresh.planImport(document, source: "export.json")
    } throws: { error in
      "\(error)".contains(
        "workspace.digests[0].sections.decisions[0].evidenceIDs[0] (in record \(digest.id.uuidString)): no knowledge item, "
          + "memory, task or handoff has the id \(item.id.uuidString)")
    }
    // With the record in the file, the same digest imports and the workspace is sound.
    let whole = try Self.export(engine)
    _ = try fresh.applyImport(whole, source: "export.json")
    #expect(try fresh.status().integrityProblems.isEmpty)
  }

  @Test("a digest already stored as the file has it is left alone, even when it cites a record deleted outside dolphin")
  func sameDigestLeftAlone() throws {
    let (store, engine, item, _) = try Self.workspace()
    try store.write { tx in try tx.db.run("DELETE FROM knowledge WHERE id = ?", [.text(item.id.uuidString)]) }
    let document = try Self.export(engine)
    let plan = try engine.planImport(document, source: "export.json")
    #expect(plan.collections.first { $0.name == "digests" }?.same == 1)
    #expect(plan.conflicts.isEmpty)
  }
}
