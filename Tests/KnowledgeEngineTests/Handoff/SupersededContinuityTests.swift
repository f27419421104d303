import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 18-b B1–B3: superseded items are marked (or left out) wherever continuity shows them,
/// a deletion says which items become current again, and rule-built summaries follow task
/// status.
@Suite("Superseded items in continuity")
struct SupersededContinuityTests {
  /// A ← B ← C: three storage decisions, each superseding the one before.
  static func chain() throws -> (engine: KnowledgeEngine, a: KnowledgeItem, b: KnowledgeItem, c: KnowledgeItem) {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let a = try engine.capture(CaptureRequest(kind: .decision, title: "Use JSON files for storage", tags: ["storage"])).item
    let b = try engine.capture(
      CaptureRequest(
        kind: .decision, title: "Use SQLite for storage", tags: ["storage"],
        relationships: [KnowledgeRelationship(kind: .supersedes, targetID: a.id)])
    ).item
    let c = try engine.capture(
      CaptureRequest(
        kind: .decision, title: "Use Postgres for storage", tags: ["storage"],
        relationships: [KnowledgeRelationship(kind: .supersedes, targetID: b.id)])
    ).item
    return (engine, a, b, c)
  }

  @Test("--auto leaves superseded items out, says which, and the rule summary lists only the current one")
  func autoSelectionLeavesSupersededOut() throws {
    let (engine, a, b, c) = try Self.chain()
    let r = try engine.createHandoff(HandoffRequest(focus: "storage", autoSelect: true))
    let auto = try #require(r.autoSelection)
    #expect(auto.knowledgeIDs == [c.id])
    #expect(Set(auto.supersededLeftOut) == [a.id, b.id])
    #expect(r.handoff.knowledgeIDs == [c.id])
    #expect(r.handoff.summary.contains(#"decision "Use Postgres for storage""#))
    #expect(!r.handoff.summary.contains("JSON files") && !r.handoff.summary.contains("SQLite"), "\(r.handoff.summary)")
    // Encoded for --json; a report without the field (older JSON) decodes with it empty.
    let json = try StableJSON.string(auto)
    #expect(json.contains("\"supersededLeftOut\""))
    let old = #"{"mode":"hybrid-lexical","knowledgeIDs":[],"taskIDs":[]}"#
    #expect(try JSONDecoder().decode(HandoffCreation.AutoSelection.self, from: Data(old.utf8)).supersededLeftOut == [])
  }

  @Test("superseded items picked by hand are marked in the summary and in the restore brief")
  func explicitSupersededItemsAreMarked() throws {
    let (engine, a, b, c) = try Self.chain()
    let h = try engine.createHandoff(HandoffRequest(focus: "storage", knowledgeIDs: [c.id, b.id, a.id])).handoff
    #expect(
      h.summary.hasSuffix(
        #"Knowledge: decision "Use Postgres for storage"; decision "Use SQLite for storage" (superseded); decision "Use JSON files for storage" (superseded)."#
      ), "\(h.summary)")
    let brief = try engine.restoreHandoff(id: h.id)
    #expect(brief.knowledge.map(\.supersededBy) == [nil, [c.id], [b.id]])
    // Absent from JSON when nothing supersedes the item, present with the ids when something does.
    let json = try StableJSON.string(brief.knowledge)
    #expect(json.contains(#""supersededBy":["\#(c.id.uuidString)"]"#), "\(json)")
    #expect(json.components(separatedBy: "supersededBy").count == 3)
  }

  @Test("an item captured since the handoff names the carried item it supersedes, and the summary follows")
  func capturedSinceLinksToWhatItSupersedes() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let old = try engine.capture(CaptureRequest(kind: .decision, title: "Use Postgres 16 for storage")).item
    let h = try engine.createHandoff(HandoffRequest(focus: "storage", knowledgeIDs: [old.id])).handoff
    #expect(!h.summary.contains("(superseded)"))
    let new = try engine.capture(
      CaptureRequest(
        kind: .decision, title: "Stay on SQLite after all", relationships: [KnowledgeRelationship(kind: .supersedes, targetID: old.id)])
    ).item
    let brief = try engine.restoreHandoff(id: h.id)
    #expect(brief.knowledge.first?.supersededBy == [new.id])
    #expect(brief.capturedSince.map(\.id) == [new.id])
    #expect(brief.capturedSince.first?.supersedes == [old.id])
    // The capture rebuilt the summary built by rules; deleting the successor rebuilds it again.
    #expect(try engine.handoff(id: h.id).summary.contains(#"decision "Use Postgres 16 for storage" (superseded)"#))
    _ = try engine.apply(try engine.planDeletion(of: .knowledge(new.id)))
    #expect(!(try engine.handoff(id: h.id).summary.contains("(superseded)")))
  }

  @Test("an edit that adds or removes a supersedes relationship rebuilds the summaries that carry its target")
  func editRebuildsSummaryOfTarget() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let old = try engine.capture(CaptureRequest(kind: .decision, title: "Use JSON files")).item
    let new = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite")).item
    let h = try engine.createHandoff(HandoffRequest(focus: "storage", knowledgeIDs: [old.id])).handoff
    _ = try engine.editKnowledge(id: new.id, KnowledgeEdit(addRelationships: [KnowledgeRelationship(kind: .supersedes, targetID: old.id)]))
    #expect(try engine.handoff(id: h.id).summary.contains(#"decision "Use JSON files" (superseded)"#))
    _ = try engine.editKnowledge(id: new.id, KnowledgeEdit(removeRelationshipsTo: [old.id]))
    #expect(!(try engine.handoff(id: h.id).summary.contains("(superseded)")))
  }

  @Test("search results and knowledge look-ups name what supersedes an item; the ranking is untouched")
  func searchAndLookupMarkSuperseded() throws {
    let (engine, a, b, c) = try Self.chain()
    let r = try engine.search("storage")
    #expect(Set(r.results.map(\.id)) == [a.id, b.id, c.id])
    for x in r.results {
      #expect(x.supersededBy == [a.id: [b.id], b.id: [c.id]][x.id], "\(x.title)")
    }
    // Scores come from the ranker alone: sorted best first as before.
    #expect(r.results.map(\.score) == r.results.map(\.score).sorted(by: >))
    let json = try StableJSON.string(r)
    #expect(json.components(separatedBy: "\"supersededBy\"").count == 3, "only the two superseded rows carry it")

    let (item, successors) = try engine.knowledgeWithSuccessors(id: b.id)
    #expect(item.id == b.id)
    #expect(successors.map(\.id) == [c.id])
    #expect(successors.map(\.title) == ["Use Postgres for storage"])
    #expect(try engine.knowledgeWithSuccessors(id: c.id).supersededBy.isEmpty)
    #expect(try engine.successors(of: [a.id, b.id, c.id]) == [a.id: [b.id], b.id: [c.id]])
    #expect(KnowledgeEngine.supersededNote([c.id]) == "superseded by \(c.id.uuidString)")
  }

  @Test("deleting the middle of a chain names the item that becomes current again")
  func deletingTheMiddleOfAChainSaysWhatComesBack() throws {
    let (engine, a, b, c) = try Self.chain()
    let plan = try engine.planDeletion(of: .knowledge(b.id))
    let back = plan.changes.filter { $0.action == "becomesCurrent" }
    #expect(back.map(\.recordID) == [a.id])
    let detail = try #require(back.first?.detail)
    #expect(detail.contains(#""Use JSON files for storage" is then superseded by no item and shows as current again"#), "\(detail)")
    #expect(detail.contains("dolphin knowledge edit \(c.id.uuidString) --relates supersedes:\(a.id.uuidString)"), "\(detail)")
    _ = try engine.apply(plan)
    #expect(try engine.successors(of: [a.id]).isEmpty)
    // The end of a chain, or an item that supersedes nothing, brings nothing back.
    #expect(!(try engine.planDeletion(of: .knowledge(c.id)).changes.contains { $0.action == "becomesCurrent" }))
    #expect(!(try engine.planDeletion(of: .knowledge(a.id)).changes.contains { $0.action == "becomesCurrent" }))
  }

  // Review 18-d, M3: the deletion rewrote the handoff's summary without the plan naming it, and
  // the confirmation counted `becomesCurrent`, which changes no record, as an applied change.
  @Test("the plan names a handoff whose rule summary loses a superseded mark; only record changes count")
  func planNamesRebuiltSummary() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let a = try engine.capture(CaptureRequest(kind: .decision, title: "Use Redis")).item
    let b = try engine.capture(
      CaptureRequest(kind: .decision, title: "Use Valkey", relationships: [KnowledgeRelationship(kind: .supersedes, targetID: a.id)])
    ).item
    let h = try engine.createHandoff(HandoffRequest(focus: "cache", knowledgeIDs: [a.id])).handoff
    #expect(h.summary.contains(#"decision "Use Redis" (superseded)"#), "\(h.summary)")
    let plan = try engine.planDeletion(of: .knowledge(b.id))
    #expect(plan.changes.map(\.action) == ["becomesCurrent", "rebuildHandoffSummary"], "\(plan.changes)")
    #expect(plan.changes.last?.recordID == h.id)
    #expect(plan.recordChangeCount == 1)
    _ = try engine.apply(plan)
    let after = try engine.handoff(id: h.id)
    #expect(!after.summary.contains("(superseded)"), "\(after.summary)")
    // A handoff written by hand is not named: its summary is kept as written.
    let written = try engine.capture(
      CaptureRequest(kind: .decision, title: "Use Memcached", relationships: [KnowledgeRelationship(kind: .supersedes, targetID: a.id)])
    ).item
    _ = try engine.createHandoff(HandoffRequest(focus: "cache by hand", summary: "My own words", knowledgeIDs: [a.id]))
    let second = try engine.planDeletion(of: .knowledge(written.id))
    #expect(second.changes.filter { $0.action == "rebuildHandoffSummary" }.map(\.recordID) == [h.id])
  }

  @Test("an item still superseded by another successor does not come back")
  func secondSuccessorKeepsItSuperseded() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let a = try engine.capture(CaptureRequest(kind: .decision, title: "Old")).item
    let rel = [KnowledgeRelationship(kind: .supersedes, targetID: a.id)]
    let b = try engine.capture(CaptureRequest(kind: .decision, title: "New one", relationships: rel)).item
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "New two", relationships: rel))
    #expect(!(try engine.planDeletion(of: .knowledge(b.id)).changes.contains { $0.action == "becomesCurrent" }))
  }

  @Test("completing or reopening a task rebuilds the rule summaries that carry it; a written one is kept")
  func taskStatusRebuildsSummary() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let t = try engine.addTask(title: "Write the migration")
    let built = try engine.createHandoff(HandoffRequest(focus: "migration", taskIDs: [t.id])).handoff
    let written = try engine.createHandoff(HandoffRequest(focus: "migration", summary: "Open tasks: the migration.", taskIDs: [t.id])).handoff
    #expect(built.summary.hasSuffix(#"Open tasks: "Write the migration"."#))
    _ = try engine.completeTask(id: t.id)
    #expect(
      try engine.handoff(id: built.id).summary
        == #"Summary generated by rules from the selected records (0 knowledge items, 1 task): Tasks marked completed: "Write the migration"."#)
    #expect(try engine.handoff(id: written.id).summary == "Open tasks: the migration.")
    _ = try engine.reopenTask(id: t.id)
    #expect(try engine.handoff(id: built.id).summary == built.summary)
    #expect(try engine.handoff(id: written.id).summary == "Open tasks: the migration.")
  }
}
