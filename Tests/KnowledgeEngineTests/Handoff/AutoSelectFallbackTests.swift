import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 23-a, 1: `handoff create --focus "End of day" --auto --activate` (the help's own
/// example) selected nothing, since no record holds the words *end* or *day*, and put that empty
/// handoff in place of a useful active one. Auto-selection now falls back to where the project
/// stands, and says so; activating an empty handoff over one that carries records warns.
@Suite("Auto-selection fallback")
struct AutoSelectFallbackTests {
  static func engine() -> KnowledgeEngine {
    KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
  }

  @Test("the reviewer's end of day: a focus matching nothing selects the open task and the decision, and says so")
  func endOfDay() throws {
    let engine = Self.engine()
    let decision = try engine.capture(
      CaptureRequest(kind: .decision, title: "Use SQLite WAL mode", content: "Readers never block the writer", tags: ["storage"])
    ).item
    let task = try engine.addTask(title: "Benchmark capture at 10k items", priority: .high)
    let first = try engine.createHandoff(
      HandoffRequest(focus: "Storage layer", nextSteps: ["Run the benchmark"], autoSelect: true, activate: true))
    #expect(first.autoSelection?.fallback == nil, "the focus matched: no fallback")
    #expect(!first.handoff.knowledgeIDs.isEmpty && first.handoff.taskIDs == [task.id])

    let r = try engine.createHandoff(HandoffRequest(focus: "End of day", autoSelect: true, activate: true))
    let auto = try #require(r.autoSelection)
    #expect(auto.fallback == KnowledgeEngine.autoSelectFallbackNote)
    #expect(auto.knowledgeIDs == [decision.id])
    #expect(auto.taskIDs == [task.id])
    #expect(r.handoff.knowledgeIDs == [decision.id] && r.handoff.taskIDs == [task.id])
    #expect(r.handoff.summary.contains("Benchmark capture at 10k items"))
    // It carries records, so replacing the active handoff is no loss: no warning.
    #expect(r.activated == true && r.previouslyActiveID == first.handoff.id)
    #expect(r.activationWarning == nil)
    // The next morning's brief has the work in it.
    let brief = try engine.restoreHandoff(id: r.handoff.id)
    #expect(brief.tasks.map(\.id) == [task.id])
    #expect(brief.knowledge.map(\.id) == [decision.id])
    // Said in --json, and an older report without the field decodes with none.
    let json = try String(decoding: JSONEncoder().encode(auto), as: UTF8.self)
    #expect(json.contains("\"fallback\""))
    let old = #"{"mode":"hybrid-lexical","knowledgeIDs":[],"taskIDs":[]}"#
    #expect(try JSONDecoder().decode(HandoffCreation.AutoSelection.self, from: Data(old.utf8)).fallback == nil)
  }

  @Test("the fallback takes open tasks in priority order and the newest current items, within the caps, after the explicit ones")
  func orderAndCaps() throws {
    let engine = Self.engine()
    // Ten items, captured one second apart: the newest are the last; one superseded.
    var items: [KnowledgeItem] = []
    for n in 1...10 {
      items.append(try engine.capture(CaptureRequest(kind: .fact, title: "Note number \(n) about storage")).item)
    }
    let successor = try engine.capture(
      CaptureRequest(
        kind: .decision, title: "Replacement note about storage",
        relationships: [KnowledgeRelationship(kind: .supersedes, targetID: items[9].id)])
    ).item
    let low = try engine.addTask(title: "Tidy the changelog", priority: .low)
    var normal: [TaskItem] = []
    for n in 1...8 { normal.append(try engine.addTask(title: "Routine chore \(n)")) }
    let critical = try engine.addTask(title: "Fix the crash on launch", priority: .critical)
    let done = try engine.addTask(title: "Old finished job", priority: .critical)
    _ = try engine.completeTask(id: done.id)

    let r = try engine.createHandoff(
      HandoffRequest(focus: "Wrap up", knowledgeIDs: [items[8].id], taskIDs: [normal[0].id], autoSelect: true))
    let auto = try #require(r.autoSelection)
    #expect(auto.fallback == KnowledgeEngine.autoSelectFallbackNote)
    // Newest first; the superseded item and the explicit one left out; at most 8.
    #expect(auto.knowledgeIDs == [successor.id] + items[1...7].reversed().map(\.id))
    #expect(auto.knowledgeIDs.count == KnowledgeEngine.autoSelectKnowledgeCount)
    // Critical first, then by age; the explicit and the completed tasks left out; at most 8.
    #expect(auto.taskIDs == [critical.id] + normal[1...7].map(\.id))
    #expect(!auto.taskIDs.contains(low.id) && !auto.taskIDs.contains(done.id))
    #expect(r.handoff.knowledgeIDs.first == items[8].id && r.handoff.taskIDs.first == normal[0].id)
  }

  @Test("a focus that matches only superseded items falls back too, and still names what it left out")
  func onlySupersededMatched() throws {
    let engine = Self.engine()
    let old = try engine.capture(CaptureRequest(kind: .decision, title: "Use JSON files for persistence")).item
    let new = try engine.capture(
      CaptureRequest(
        kind: .decision, title: "Use SQLite", relationships: [KnowledgeRelationship(kind: .supersedes, targetID: old.id)])
    ).item
    let r = try engine.createHandoff(HandoffRequest(focus: "JSON files", autoSelect: true))
    let auto = try #require(r.autoSelection)
    #expect(auto.supersededLeftOut == [old.id])
    #expect(auto.fallback == KnowledgeEngine.autoSelectFallbackNote)
    #expect(auto.knowledgeIDs == [new.id])
  }

  @Test("with nothing to fall back on, the selection says so")
  func emptyWorkspace() throws {
    let engine = Self.engine()
    let r = try engine.createHandoff(HandoffRequest(focus: "End of day", autoSelect: true))
    let auto = try #require(r.autoSelection)
    #expect(auto.fallback == KnowledgeEngine.autoSelectNothingNote)
    #expect(auto.knowledgeIDs.isEmpty && auto.taskIDs.isEmpty)
    // Only completed tasks: nothing open to select either.
    let t = try engine.addTask(title: "Shipped")
    _ = try engine.completeTask(id: t.id)
    #expect(try engine.createHandoff(HandoffRequest(focus: "End of day", autoSelect: true)).autoSelection?.fallback
      == KnowledgeEngine.autoSelectNothingNote)
  }

  @Test("a focus that matches a record is ranked, with no fallback, even when the match is an explicit record")
  func matchedFocusHasNoFallback() throws {
    let engine = Self.engine()
    let wal = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite WAL mode")).item
    let other = try engine.capture(CaptureRequest(kind: .fact, title: "The digest is rule-based")).item
    let r = try engine.createHandoff(HandoffRequest(focus: "WAL mode", knowledgeIDs: [wal.id], autoSelect: true))
    let auto = try #require(r.autoSelection)
    #expect(auto.fallback == nil)
    #expect(!auto.knowledgeIDs.contains(other.id))
    #expect(r.handoff.knowledgeIDs == [wal.id])
  }

  @Test("activating a handoff that carries nothing over one that carries records warns, naming it; otherwise not")
  func activationWarning() throws {
    let engine = Self.engine()
    let k = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite WAL mode")).item
    let t = try engine.addTask(title: "Benchmark capture at 10k items")
    let useful = try engine.createHandoff(
      HandoffRequest(focus: "Storage layer", knowledgeIDs: [k.id], taskIDs: [t.id], activate: true))
    let empty = try engine.createHandoff(HandoffRequest(focus: "Nothing here", nextSteps: ["Think"], activate: true))
    #expect(empty.activated == true)
    #expect(
      empty.activationWarning
        == "the new active handoff carries no knowledge item and no task; handoff \(useful.handoff.id.uuidString) \"Storage layer\", active before, carries 1 knowledge item and 1 task"
    )
    #expect(try engine.activeHandoff()?.id == empty.handoff.id, "warned, not refused")
    // Empty over empty, and a handoff with records over an empty one: no warning.
    #expect(try engine.createHandoff(HandoffRequest(focus: "Still nothing", activate: true)).activationWarning == nil)
    #expect(
      try engine.createHandoff(HandoffRequest(focus: "Back to it", taskIDs: [t.id], activate: true)).activationWarning == nil)
    // Without activate nothing is replaced, so nothing is said.
    #expect(try engine.createHandoff(HandoffRequest(focus: "Aside")).activationWarning == nil)
  }
}
