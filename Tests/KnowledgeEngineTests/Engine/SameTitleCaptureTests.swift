import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// A capture names the live items of its kind that already have its title
/// (``CaptureResult/sameTitle``), and stores the item all the same.
@Suite("Capture: items with the same title")
struct SameTitleCaptureTests {
  static func engine() -> KnowledgeEngine {
    KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
  }

  static func capture(
    _ engine: KnowledgeEngine, _ kind: KnowledgeKind, _ title: String, relationships: [KnowledgeRelationship] = []
  ) throws -> CaptureResult {
    try engine.capture(CaptureRequest(kind: kind, title: title, content: "", relationships: relationships))
  }

  @Test("case, diacritics and white space are folded; kind and punctuation still count; the capture is stored")
  func folding() throws {
    let engine = Self.engine()
    let first = try Self.capture(engine, .decision, "Use SQLite for the workspace")
    #expect(first.sameTitle == .none)
    let again = try Self.capture(engine, .decision, "  use   SQLITE for the workspace ")
    #expect(again.sameTitle == SameTitleItems(ids: [first.item.id], total: 1))
    #expect(try engine.knowledge(id: again.item.id).title == "use   SQLITE for the workspace")
    // Another kind, or another punctuation, is another title.
    #expect(try Self.capture(engine, .fact, "Use SQLite for the workspace").sameTitle == .none)
    #expect(try Self.capture(engine, .decision, "Use SQLite for the workspace?").sameTitle == .none)
    // A title only partly the same is not named.
    #expect(try Self.capture(engine, .decision, "Use SQLite for the workspace index").sameTitle == .none)

    let cafe = try Self.capture(engine, .preference, "Café menu rotates weekly")
    let folded = try Self.capture(engine, .preference, "CAFE MENU rotates weekly")
    #expect(folded.sameTitle.ids == [cafe.item.id])
    let oresund = try Self.capture(engine, .fact, "Øresund bridge opened in 2000")
    #expect(try Self.capture(engine, .fact, "oresund Bridge opened in 2000").sameTitle.ids == [oresund.item.id])
    #expect(try engine.listKnowledge().count == 9, "nothing refused")
  }

  @Test("superseded items are history: not named; one the capture itself supersedes neither")
  func supersededLeftOut() throws {
    let engine = Self.engine()
    let old = try Self.capture(engine, .decision, "Deploy on Fridays")
    let replacement = try Self.capture(
      engine, .decision, "Deploy on Fridays", relationships: [KnowledgeRelationship(kind: .supersedes, targetID: old.item.id)])
    #expect(replacement.sameTitle == .none, "the only other one is the item it supersedes")
    let third = try Self.capture(engine, .decision, "deploy on fridays")
    #expect(third.sameTitle.ids == [replacement.item.id])
  }

  @Test("at most five ids, newest change first, with the total")
  func bounded() throws {
    let engine = Self.engine()
    var ids: [UUID] = []
    for _ in 1...7 { ids.append(try Self.capture(engine, .context, "Standup notes").item.id) }
    let eighth = try Self.capture(engine, .context, "standup notes")
    #expect(eighth.sameTitle.total == 7)
    #expect(eighth.sameTitle.ids == Array(ids.reversed().prefix(KnowledgeEngine.sameTitleListed)))
  }

  @Test("a title with no word in it (symbols only) is compared as stored, apart from ASCII case")
  func symbolsOnly() throws {
    let engine = Self.engine()
    let rocket = try Self.capture(engine, .goal, "🚀 → 🌕")
    #expect(try Self.capture(engine, .goal, "🚀 → 🌕").sameTitle.ids == [rocket.item.id])
    #expect(try Self.capture(engine, .goal, "🚀 → 🌑").sameTitle == .none)
  }

  @Test("the candidates are read through the index: the term's postings by key, items by row id, no scan")
  func queryPlan() throws {
    let dir = TemporaryDirectory("same-title-plan")
    defer { dir.remove() }
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    _ = try Self.capture(engine, .decision, "Use SQLite for the workspace")
    let plan = try store.read { tx in
      try tx.db.all("EXPLAIN QUERY PLAN " + KnowledgeEngine.sameTitleCandidatesSQL, [.integer(1), .integer(0), .text("x")]) {
        $0.text(3)
      }
    }
    #expect(plan.contains { $0.hasPrefix("SEARCH p USING PRIMARY KEY (term_id=?") }, "\(plan)")
    #expect(plan.contains { $0.contains("SEARCH k USING INTEGER PRIMARY KEY (rowid=?)") }, "\(plan)")
    #expect(plan.contains { $0.contains("SEARCH r USING INDEX knowledge_relationship_target (target_id=?)") }, "\(plan)")
    #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
  }

  @Test("a capture's title key folds as the search tokenizer does")
  func titleKey() {
    #expect(KnowledgeEngine.titleKey("  Straße\u{00A0}Ölwechsel  ") == KnowledgeEngine.titleKey("STRASSE olwechsel"))
    #expect(KnowledgeEngine.titleKey("Use SQLite.") != KnowledgeEngine.titleKey("Use SQLite"))
  }
}
